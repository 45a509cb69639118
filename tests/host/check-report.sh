#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/ringlab-report against the consumers people run: `prove` reads the
# TAP, Python's XML parser reads the JUnit back, logcheck re-checks the
# cleaned KTAP, csv/json/html are read back.  Inputs: the real QEMU logs in
# tests/host/data/logs/ and logs derived from them here (GRUB noise, \r\r\n
# line ends, two runs, a truncation), and the small synthetic logs with an
# answers block in tests/host/data/answers/ (made by mk-logs.py there).
# Output: one "PASS name[: detail]", "FAIL name: why" or "SKIP name: why"
# line per check.
# Usage: tests/host/check-report.sh [BUILD]
set -u
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
export RINGLAB_LOGCHECK="$BUILD/logcheck"
REPORT=tools/ringlab-report
DATA=tests/host/data/logs
T="$BUILD/test-logs/report"
rm -rf "$T"
mkdir -p "$T"

say() { printf '%s %s%s\n' "$1" "$2" "${3:+: $3}"; }
# judge NAME DETAIL-ON-FAIL CONDITION...: PASS when the command succeeds.
judge() {
	local name=$1 why=$2
	shift 2
	if "$@" >"$T/$name.out" 2>&1; then say PASS "$name"; else say FAIL "$name" "$why ($(head -c 300 "$T/$name.out" | tr '\n' ' '))"; fi
}

if [ ! -x "$BUILD/logcheck" ]; then
	say FAIL report-tools "$BUILD/logcheck is missing (make $BUILD/logcheck)"
	exit 0
fi

# ---- fixtures -------------------------------------------------------------
cp "$DATA"/*.log "$T"/
# \r\r\n: what a tty with onlcr makes of the kernel's \r\n
sed 's/\r$/\r\r/' "$DATA/pass-kernel-smp4.log" >"$T/crcrlf.log"
# bare-\r GRUB menu noise with no line end before the log
{ printf '\033[H\033[JGNU GRUB  version 2.06\r\r   *full run (console COM1)\r'; cat "$T/crcrlf.log"; } >"$T/grub-noise.log"
# two runs (exit=reboot): a failing run, then a passing one; and the reverse
cat "$DATA/fail-fault-recovery.log" "$DATA/pass-kernel-smp4.log" >"$T/two-runs-last-pass.log"
cat "$DATA/pass-kernel-smp4.log" "$DATA/fail-fault-recovery.log" >"$T/two-runs-last-fail.log"
# two passing runs; a passing run, then a BIOS banner after the reset
# (output after the integrity line that starts no new run)
cat "$DATA/pass-smbios.log" "$DATA/pass-kernel-smp4.log" >"$T/two-runs-pass-pass.log"
{ cat "$DATA/pass-kernel-smp4.log"; printf '\033[2J\033[01;01HSeaBIOS (version 1.16.2)\r\nnot ok 1 firmware\r\n# exit: status=fail code=1\r\nBooting from ROM...'; } >"$T/pass-then-garbage.log"
# truncated: the serial capture stopped mid-run
head -n 150 "$DATA/pass-kernel-smp4.log" >"$T/truncated.log"

# name  expected-check-exit  expected-prove(pass|fail)  min-tests
cases="pass-kernel-smp4 0 pass 40
crcrlf 0 pass 40
grub-noise 0 pass 40
grub-bios-iso 0 pass 40
two-runs-last-pass 0 pass 40
two-runs-last-fail 1 fail 5
two-runs-pass-pass 0 pass 40
pass-then-garbage 0 pass 40
fail-smbios-planted 1 fail 11
pass-escapes 0 pass 4
fail-fault-recovery 1 fail 5
config-error 2 fail 2
panic 3 fail 2
skip-all 4 pass 1
truncated 125 fail 1"

while read -r name want_rc want_prove min; do
	log="$T/$name.log"
	# check: the run's status as the exit status
	"$REPORT" check "$log" >"$T/$name.check" 2>&1
	rc=$?
	if [ "$rc" = "$want_rc" ]; then say PASS "report-check-$name" "exit $rc"
	else say FAIL "report-check-$name" "exit $rc, expected $want_rc: $(head -n 2 "$T/$name.check" | tr '\n' ' ')"; fi

	# tap -> prove (Perl's TAP::Harness, the reference TAP consumer)
	if ! "$REPORT" tap "$log" -o "$T/$name.tap" 2>"$T/$name.tap.err"; then
		say FAIL "report-tap-$name" "ringlab-report tap failed: $(head -c 200 "$T/$name.tap.err")"
	elif ! command -v prove >/dev/null; then
		say SKIP "report-tap-$name" "prove not installed (Debian: perl)"
	else
		prove --exec cat "$T/$name.tap" >"$T/$name.prove" 2>&1
		prc=$?
		ntests=$(grep -cE '^(not )?ok [0-9]+ ' "$T/$name.tap")
		nfail=$(grep -cE '^not ok [0-9]+ ' "$T/$name.tap")
		got=pass
		[ "$prc" != 0 ] && got=fail
		if [ "$got" = "$want_prove" ] && [ "$ntests" -ge "$min" ] &&
		   grep -q "^Result: ${want_prove^^}" "$T/$name.prove" &&
		   { [ "$want_prove" = pass ] || [ "$nfail" -ge 1 ]; }; then
			say PASS "report-tap-$name" "prove: $ntests tests, $nfail failed, Result: ${got^^}"
		else
			say FAIL "report-tap-$name" "prove exit $prc ($got, expected $want_prove), $ntests tests, $nfail not ok; see $T/$name.prove"
		fi
	fi

	# junit -> parsed back; failures+errors agree with the TAP's not-oks
	if ! /usr/bin/python3 -c 'import junit_xml' 2>/dev/null; then
		say SKIP "report-junit-$name" "python3-junit.xml not installed"
	else
		judge "report-junit-$name" "JUnit XML does not match the TAP" /usr/bin/python3 - "$T/$name.tap" "$T/$name.xml" "$REPORT" "$log" <<'PY'
import re, subprocess, sys, xml.etree.ElementTree as ET
tap, xmlf, report, log = sys.argv[1:]
subprocess.run([report, "junit", log, "-o", xmlf], check=True)
root = ET.parse(xmlf).getroot()
cases = root.findall(".//testcase")
bad = [c for c in cases if c.find("failure") is not None or c.find("error") is not None]
skipped = [c for c in cases if c.find("skipped") is not None]
t = open(tap).read()
nok = len(re.findall(r"^not ok \d+ ", t, re.M))
nskip = len(re.findall(r"^ok \d+ - \S+ # SKIP", t, re.M))
assert root.tag == "testsuites", root.tag
assert len(cases) == len(re.findall(r"^(?:not )?ok \d+ ", t, re.M)), (len(cases), "tap count")
assert len(bad) == nok, ("failed+errors", len(bad), "tap not ok", nok)
assert len(skipped) == nskip, (len(skipped), nskip)
for c in bad + skipped:
    el = c.find("failure") if c.find("failure") is not None else c.find("error") if c.find("error") is not None else c.find("skipped")
    assert el.get("message"), ("no reason on", c.get("classname"), c.get("name"))
assert all(c.get("classname") for c in cases)
props = root.findall(".//property")
assert any(p.get("name") == "ringlab.status" for p in props)
print(len(cases), "testcases,", len(bad), "failed/error,", len(skipped), "skipped")
PY
	fi
done <<<"$cases"

# ktap: the last run, \r and noise gone, still a valid log for logcheck
for name in grub-noise two-runs-last-pass; do
	judge "report-ktap-$name" "cleaned KTAP is not the last run" bash -c '
		"$0" ktap "$1" -o "$2" &&
		[ "$(head -n 1 "$2")" = "KTAP version 1" ] &&
		! grep -q $'"'"'\r'"'"' "$2" &&
		[ "$(grep -c "^KTAP version 1$" "$2")" = 1 ] &&
		"$3" --expect-status pass "$2"' "$REPORT" "$T/$name.log" "$T/$name.ktap" "$BUILD/logcheck"
done

# ---- several runs in one file (docs/log-format.md, "Several runs in one
# file"): the last complete run is judged, a warning names earlier runs
# that did not pass, --all-runs fails on them, and output after the
# integrity line that starts no run is a note; logcheck, check, tap,
# junit and text say the same.
judge report-runs "several runs: verdicts, warnings or --all-runs wrong" /usr/bin/python3 - "$REPORT" "$BUILD/logcheck" "$T" <<'PY'
import json, subprocess, sys
r, lc, t = sys.argv[1:]
def run(*a):
    p = subprocess.run(list(a), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr
# log: (check exit, with --all-runs, runs, a warning that must be there or None, a note)
want = {"two-runs-last-pass": (0, 1, 2, "warning: earlier run 1 of 2 (lines 2-101) did not pass: fail", "judged run 2 (lines 103-392)"),
        "two-runs-last-fail": (1, 1, 2, None, "judged run 2 (lines 293-392)"),
        "two-runs-pass-pass": (0, 0, 2, None, "judged run 2 (lines 84-373)"),
        "pass-then-garbage": (0, 0, 1, None, "4 non-empty line(s) after the integrity line (line 291) start no new run: ignored")}
for name, (rc, rc_all, runs, warn, note) in want.items():
    log = "%s/%s.log" % (t, name)
    got, out, err = run(r, "check", log)
    assert got == rc, (name, "check", got, err)
    assert (warn in err) if warn else "warning:" not in err, (name, err)
    assert note in err, (name, note, err)
    got, _, err = run(r, "check", "--all-runs", log)
    assert got == rc_all, (name, "--all-runs", got, err)
    d = json.loads(run(lc, "--json", log)[1])
    assert d["ok"] and d["runs"] == runs and d["run"] == runs, (name, d["runs"], d["run"], d["errors"])
    assert len(d["run_verdicts"]) == runs and d["run_verdicts"][-1]["verdict"] == ("pass" if rc == 0 else "fail")
    got, _, err = run(lc, "--all-runs", log)
    assert got == (1 if rc_all and not rc else 0), (name, "logcheck --all-runs", got, err)
    tap = run(r, "tap", log)[1]
    assert (("# " + warn) in tap) if warn else "# warning:" not in tap, (name, tap[:300])
    text = run(r, "text", log)[1]
    assert note in text.split("== Environment")[0], (name, text[:400])
    tap_all = run(r, "tap", "--all-runs", log)[1]
    assert ("not ok" in tap_all and "ringlab.runs" in tap_all) == (rc_all == 1 and rc == 0), (name, "tap --all-runs")
print("fail-then-pass, pass-then-fail, two passes, pass-then-garbage: verdicts, warnings and --all-runs agree")
PY
if /usr/bin/python3 -c 'import junit_xml' 2>/dev/null; then
	judge report-runs-junit "JUnit lacks the runs of a two-run log" /usr/bin/python3 - "$REPORT" "$T/two-runs-last-pass.log" "$T/runs.xml" <<'PY'
import subprocess, sys, xml.etree.ElementTree as ET
r, log, out = sys.argv[1:]
subprocess.run([r, "junit", log, "-o", out], check=True)
props = {p.get("name"): p.get("value") for p in ET.parse(out).getroot().findall(".//property")}
assert props["ringlab.runs"] == "2" and props["ringlab.judged_run"] == "2", props
assert props["ringlab.run_verdicts"] == "run 1 (lines 2-101): fail; run 2 (lines 103-392): pass", props["ringlab.run_verdicts"]
assert any(v.startswith("warning: earlier run 1 of 2") for k, v in props.items() if k.startswith("ringlab.note.")), props
subprocess.run([r, "junit", "--all-runs", log, "-o", out], check=True)
err = [c for c in ET.parse(out).getroot().iter("testcase") if c.get("name") == "runs" and c.find("error") is not None]
assert len(err) == 1, "--all-runs: one error testcase ringlab.runs"
print("runs, judged run, verdicts and warnings as properties; --all-runs adds an error")
PY
fi
# protocol text inside a line (SMBIOS strings reading '# integrity:',
# '# result: ... fail'): the verdict of tests/host/data/logs/fail-smbios-planted.log
# is its real one (smp.online failed, boot.mbi passed), in every format
judge report-planted "planted protocol text changed a verdict" /usr/bin/python3 - "$REPORT" "$BUILD/logcheck" "$DATA/fail-smbios-planted.log" <<'PY'
import json, subprocess, sys
r, lc, log = sys.argv[1:]
d = json.loads(subprocess.run([lc, "--json", log], capture_output=True).stdout)
assert d["ok"] and d["runs"] == 1 and d["status"] == "fail" and d["counts"]["cases"] == 11, (d["runs"], d["status"], d["counts"])
res = {(e["suite"], e["name"]): e["result"] for e in d["events"] if e["k"] == "result" and e["level"] == 1}
assert res[("smp", "online")] == "fail" and res[("boot", "mbi")] == "pass", res
assert [e["value"] for e in d["events"] if e["k"] == "id" and e["key"] == "system"] == \
    ['vendor="# integrity: lines=1" product="x # result: smp.online pass x" serial="KTAP version 1"']
tap = subprocess.run([r, "tap", log], capture_output=True, text=True).stdout
assert "not ok" in tap and "smp.online" in tap and tap.count("\nnot ok ") == 1, tap[:300]
print("11 cases, smp.online fail, boot.mbi pass, one start line: as the kernel printed them")
PY
# terminal safety: a log whose `# id.cpu.vendor:` holds ESC[31m, an OSC
# title sequence ended by BEL and a C1 CSI byte, and a SKIP reason with
# ESC[2J (tests/host/data/logs/pass-escapes.log): text and tap escape
# them (\x1b), ktap to a file keeps the log's bytes (its CRC still holds)
judge report-escapes "control characters from the log reach text or tap output" /usr/bin/python3 - "$REPORT" "$BUILD/logcheck" "$DATA/pass-escapes.log" "$T/escapes.ktap" <<'PY'
import re, subprocess, sys
r, lc, log, ktap = sys.argv[1:]
bad = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")
for cmd in ("text", "tap", "times"):
    out = subprocess.run([r, cmd, log], capture_output=True).stdout
    assert not bad.search(out), (cmd, bad.search(out))
text = subprocess.run([r, "text", log], capture_output=True, text=True).stdout
assert "\\x1b[31mAuthentic\\x1b]0;pwned\\x07AMD\\x1b[0m\\x9b2J" in text, "the vendor, escaped"
tap = subprocess.run([r, "tap", log], capture_output=True, text=True).stdout
assert "# SKIP \\x1b[2J\\x1b]2;title\\x07cleared" in tap, tap
subprocess.run([r, "ktap", log, "-o", ktap], check=True)
assert b"\x1b[31m" in open(ktap, "rb").read() and subprocess.run([lc, ktap], capture_output=True).returncode == 0
print("text, tap and times escape ESC, OSC, BEL and C1; ktap keeps the bytes")
PY
# a big log (many metric lines in one valid run): the report path streams,
# so memory stays far below the log's size in Python objects (before: about
# 25 times the log's size) and it takes well under a second per MB
judge report-big "a 5 MB log takes too long or too much memory" /usr/bin/python3 - "$REPORT" "$T/big.log" "$T" <<'PY'
import resource, subprocess, sys, time, zlib
r, log, t = sys.argv[1:]
lines = ["KTAP version 1", "# id.version: big", "1..1", "    KTAP version 1", "    # Subtest: big", "    1..1"]
lines += ["    # metric big.many.m%d n=100 min=1 p50=%d p90=30 p99=40 max=50 mean=20 stddev=3 unit=cycles "
          "method=u2u u=64" % (i, i % 97) for i in range(43000)]
lines += ["    ok 1 many", "    # result: big.many pass", "ok 1 big", "ringlab: 1 passed, 0 failed, 0 skipped",
          "# exit: status=pass code=0"]
body = "".join(l + "\n" for l in lines)
open(log, "w").write(body + "# integrity: lines=%d crc32=%08x\n" % (len(lines), zlib.crc32(body.encode())))
res = []
for cmd in ("check", "junit", "csv", "text", "json"):
    t0 = time.time()
    p = subprocess.run([r, cmd, log, "-o", "%s/big.%s" % (t, cmd)], capture_output=True)
    dt = time.time() - t0
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    assert p.returncode == 0, (cmd, p.stderr[-300:])
    assert dt < 20 and rss < 80, (cmd, "%.1f s" % dt, "%d MB" % rss)
    res.append("%s %.1fs" % (cmd, dt))
rows = open("%s/big.csv" % t).read().count("\n")
assert rows == 43001, rows
print("4.9 MB, 43000 metrics: %s; at most %d MB" % (", ".join(res), rss))
PY
# json/csv: complete and readable back
judge report-json "JSON lacks cases or metrics" /usr/bin/python3 - "$REPORT" "$T/pass-kernel-smp4.log" <<'PY'
import json, subprocess, sys
d = json.loads(subprocess.run([sys.argv[1], "json", sys.argv[2]], check=True, capture_output=True).stdout)
n = sum(len(s["cases"]) for s in d["suites"])
assert n == d["counts"]["cases"] and n >= 40, n
assert len(d["metrics"]) == d["counts"]["metrics"] > 0
assert d["identity"]["cpu.vendor"] and d["hists"], "identity/hists"
assert all(isinstance(h["counts"], str) for h in d["hists"])
print(n, "cases", len(d["metrics"]), "metrics", len(d["hists"]), "hists")
PY
judge report-csv "CSV rows differ from the metrics" /usr/bin/python3 - "$REPORT" "$T/pass-kernel-smp4.log" "$BUILD/logcheck" <<'PY'
import csv, io, json, subprocess, sys
rows = list(csv.DictReader(io.StringIO(subprocess.run([sys.argv[1], "csv", sys.argv[2]], check=True, capture_output=True, text=True).stdout)))
d = json.loads(subprocess.run([sys.argv[3], "--json", sys.argv[2]], capture_output=True).stdout)
assert len(rows) == d["counts"]["metrics"], (len(rows), d["counts"]["metrics"])
assert len({r["metric"] for r in rows}) == len(rows), "duplicate names"
assert all(r["unit"] for r in rows)
print(len(rows), "rows")
PY
# html: one SVG per histogram, verdict before the metrics, nothing external
judge report-html "HTML page incomplete" /usr/bin/python3 - "$REPORT" "$T/pass-kernel-smp4.log" "$T/page.html" "$BUILD/logcheck" "$T/fail-fault-recovery.log" <<'PY'
import json, subprocess, sys
from html.parser import HTMLParser
subprocess.run([sys.argv[1], "html", sys.argv[2], "-o", sys.argv[3]], check=True)
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.tags = []; s.ext = []
    def handle_starttag(s, t, a):
        s.tags.append(t)
        s.ext += [v for k, v in a if k in ("src", "href") and v and not v.startswith("#")]
p = P(); page = open(sys.argv[3]).read(); p.feed(page)
d = json.loads(subprocess.run([sys.argv[4], "--json", sys.argv[2]], capture_output=True).stdout)
assert p.tags.count("svg") == d["counts"]["hists"] > 0, (p.tags.count("svg"), d["counts"]["hists"])
assert not p.ext, p.ext
assert page.index("<h1>") < page.index('id="environment"') < page.index('<h2 id="contents"') < \
    page.index('class="suite"'), "verdict, banner, contents, then the suites"
subprocess.run([sys.argv[1], "html", sys.argv[5], "-o", sys.argv[3] + ".fail.html"], check=True)
fail = open(sys.argv[3] + ".fail.html").read()
assert fail.index('<h2 id="failures"') < fail.index('<h2 id="contents"'), "failures before the suites"
assert "fault.unexpected" in fail[:fail.index('<h2 id="contents"')], "the failing case is named"
print(p.tags.count("svg"), "histograms")
PY
# compare: every metric of both, ratios; a log against itself gives 1.00
judge report-compare "compare table wrong" /usr/bin/python3 - "$REPORT" "$T/pass-kernel-smp4.log" "$T/crcrlf.log" "$T/grub-bios-iso.log" <<'PY'
import csv, io, subprocess, sys
r, a, b, c = sys.argv[1:]
rows = list(csv.DictReader(io.StringIO(subprocess.run([r, "compare", "--csv", a, b, c], check=True, capture_output=True, text=True).stdout)))
assert rows and all(x["B/A"] in ("1.00", "-") for x in rows), "A vs its own copy"
assert any(x["B/A"] == "1.00" for x in rows)
assert "C/A" in rows[0]
print(len(rows), "metrics compared")
PY
# ---- durations: `# time:` lines, synthetic logs regenerated by
# tests/host/data/durations/mk-logs.py (a: all timed, one failure; b: a
# suite without its line, a case without any)
DDATA=tests/host/data/durations
judge report-durations-logcheck "logcheck JSON lacks duration_ms" /usr/bin/python3 - "$BUILD/logcheck" "$DDATA/a.log" "$DDATA/b.log" "$T/pass-kernel-smp4.log" <<'PY'
import json, subprocess, sys
lc, a, b, old = sys.argv[1:]
def doc(f):
    return json.loads(subprocess.run([lc, "--json", f], capture_output=True).stdout)
d = doc(a)
assert d["ok"] and d["counts"]["times"] == 6, d["counts"]
res = {(e["suite"], e["name"]): e.get("duration_ms") for e in d["events"] if e["k"] == "result"}
assert res == {("boot", "mbi"): 1.5, ("boot", "mmap"): 0.25, ("", "boot"): 2.0,
               ("fence", "alone"): 10.0, ("fence", "stores"): 2.0, ("", "fence"): 12.5}, res
t = [e for e in d["events"] if e["k"] == "time"]
assert [e["name"] for e in t] == ["boot.mbi", "boot.mmap", "boot", "fence.alone", "fence.stores", "fence"]
assert all(isinstance(e["of"], int) and e["of"] < e["line"] for e in t)
d = doc(b)
res = {(e["suite"], e["name"]): e.get("duration_ms") for e in d["events"] if e["k"] == "result"}
assert res[("extra", "only")] is None and res[("", "fence")] is None and res[("", "extra")] == 1.0, res
d = doc(old)
assert d["ok"] and d["counts"]["times"] == 0
assert not any("duration_ms" in e for e in d["events"]), "an old log has no durations"
print("durations on 6 results; none where the log has none")
PY
judge report-durations-bad "logcheck accepts a misplaced or malformed # time: line" bash -c '
	sed "s/duration_ms=1.500/duration_ms=1.5000000/" "$1" >"$3/bad-time.log" &&
	"$0" "$3/bad-time.log" 2>&1 | grep -q "malformed .# time:. line" &&
	sed "s/# time: boot.mbi /# time: boot.mmap /" "$1" >"$3/bad-time2.log" &&
	"$0" "$3/bad-time2.log" 2>&1 | grep -q "does not follow the result it times"' \
	"$BUILD/logcheck" "$DDATA/a.log" "$T"
if ! /usr/bin/python3 -c 'import junit_xml' 2>/dev/null; then
	say SKIP report-durations-junit "python3-junit.xml not installed"
else
	judge report-durations-junit "JUnit time= missing or wrong" /usr/bin/python3 - "$REPORT" "$DDATA/a.log" "$DDATA/b.log" "$T/dur.xml" <<'PY'
import subprocess, sys
import xml.etree.ElementTree as ET
r, a, b, out = sys.argv[1:]
def doc(f):
    subprocess.run([r, "junit", f, "-o", out], check=True)
    return ET.parse(out).getroot()
x = doc(a)
cases = {(c.get("classname"), c.get("name")): c.get("time") for c in x.iter("testcase")}
assert cases == {("boot", "mbi"): "0.001500", ("boot", "mmap"): "0.000250",
                 ("fence", "alone"): "0.010000", ("fence", "stores"): "0.002000"}, cases
suites = {s.get("name"): s.get("time") for s in x.iter("testsuite")}
assert suites == {"boot": "0.002000", "fence": "0.012500"}, suites
assert abs(float(x.get("time")) - 0.0145) < 1e-9, x.get("time")
x = doc(b)
cases = {(c.get("classname"), c.get("name")): c.get("time") for c in x.iter("testcase")}
assert cases[("extra", "only")] is None and cases[("fence", "stores")] == "0.005000", cases
suites = {s.get("name"): s.get("time") for s in x.iter("testsuite")}
assert suites["fence"] == "0.025000" and suites["extra"] == "0.001000", suites
print("time= on every timed testcase and testsuite")
PY
fi
judge report-durations-html "HTML lacks the durations" /usr/bin/python3 - "$REPORT" "$DDATA/a.log" "$T/dur.html" <<'PY'
import re, subprocess, sys
r, a, page = sys.argv[1:]
subprocess.run([r, "html", a, "-o", page], check=True)
p = open(page).read()
res = p[p.index('<h2 id="contents"'):]
for ms in ("1.500", "0.250", "10.000", "2.000"):
    assert '<td class="t">%s</td>' % ms in res, ms
assert len(re.findall(r"suite total</i></td>.*?<b>(2\.000|12\.500)</b>", res)) == 2, "suite totals"
print("case times and suite totals in the results table")
PY
judge report-durations-json-times "json/times lack the durations" /usr/bin/python3 - "$REPORT" "$DDATA/b.log" <<'PY'
import csv, io, json, subprocess, sys
r, b = sys.argv[1:]
d = json.loads(subprocess.run([r, "json", b], check=True, capture_output=True).stdout)
s = {x["name"]: x for x in d["suites"]}
assert s["fence"]["duration_ms"] == 25.0 and s["boot"]["duration_ms"] == 4.0, s
assert [c["duration_ms"] for c in s["extra"]["cases"]] == [None]
rows = list(csv.DictReader(io.StringIO(subprocess.run([r, "times", "--csv", b], check=True,
                                                       capture_output=True, text=True).stdout)))
got = {(x["suite"], x["case"]): x["duration_ms"] for x in rows}
assert got[("fence", "")] == "25.000" and got[("boot", "mbi")] == "3.000" and got[("extra", "only")] == "-", got
txt = subprocess.run([r, "times", b], check=True, capture_output=True, text=True).stdout
assert txt.rstrip().endswith("total of the suites: 30.000 ms"), txt
print(len(rows), "rows")
PY
judge report-durations-compare "compare lacks the suite durations" /usr/bin/python3 - "$REPORT" "$DDATA/a.log" "$DDATA/b.log" "$T/pass-kernel-smp4.log" <<'PY'
import re, subprocess, sys
r, a, b, old = sys.argv[1:]
t = subprocess.run([r, "compare", a, b], check=True, capture_output=True, text=True).stdout
sec = t[t.index("Suite durations"):t.index("Metrics:")]
for rx in (r"^boot +2\.000 +4\.000 +2\.00$", r"^fence +12\.500 +25\.000 +2\.00$",
           r"^extra +- +1\.000 +-$", r"^\(all suites\) +14\.500 +30\.000 +2\.07$"):
    assert re.search(rx, sec, re.M), (rx, sec)
t = subprocess.run([r, "compare", old, old], check=True, capture_output=True, text=True).stdout
assert "Suite durations" not in t, "old logs: no section"
print("suite durations A/B")
PY
printf 'garbage\0\377\n' >"$T/garbage.log"
# ---- the answers block: synthetic logs with valid integrity
# lines, regenerated by tests/host/data/answers/mk-logs.py
ADATA=tests/host/data/answers
ALOGS="$ADATA/intel-bare-metal.log $ADATA/amd-kvm.log $ADATA/qemu-tcg.log"
judge report-answers-logcheck "logcheck rejects the answers fixtures or accepts a planted fault" bash -c '
	for f in $1; do "$0" --require-answers "$f" || exit 1; done
	! "$0" --require-answers "$2" 2>/dev/null &&
	"$0" --require-answers "$2" 2>&1 | grep -q "required by --require-answers" &&
	sed "s/control=fired/control=maybe/" "$3" >"$4" &&
	"$0" "$4" 2>&1 | grep -q "answer .wrmsr_fence.: control=.maybe."' \
	"$BUILD/logcheck" "$ALOGS" "$DATA/pass-kernel-smp4.log" "$ADATA/amd-kvm.log" "$T/bad-control.log"
judge report-answers-html "html does not open with the answers" /usr/bin/python3 - "$REPORT" "$ADATA/amd-kvm.log" "$T/answers.html" "$T/fail-fault-recovery.log" <<'PY'
import subprocess, sys
r, log, page, fail = sys.argv[1:]
subprocess.run([r, "html", log, "-o", page], check=True)
p = open(page).read()
a = p.index('<h2 id="answers"')
assert p.index("<h1>") < p.index('id="environment"') < a < p.index('<h2 id="contents"'), "banner, then answers"
assert 'id="failures"' not in p, "a passing run has no Failures section"
table = p[a:p.index("</table>", a)]
for k in ("wrmsr_fence", "rdtsc_order", "nt_clear", "tlb_flush", "tlb_shootdown", "ipi_cost",
          "tscdeadline", "spec_cost", "litmus", "fence_cost"):
    assert "<b>%s</b>" % k in table, k
assert 'href="#fence.alone.mfence"' in table and "mfence 17, lfence 7" in table, "evidence links"
for col in ("question", "answer", "conclusion", "evidence metrics", "control", "env"):
    assert "<th>%s</th>" % col in table, col
assert "lfence.alone=within-noise" in table and "not-measured" in table, "conclusion tokens"
subprocess.run([r, "html", fail, "-o", page + ".fail.html"], check=True)
f = open(page + ".fail.html").read()
# a failing run: its failures right under the verdict, before identity and answers
assert f.index("<h1>") < f.index('<h2 id="failures"') < f.index('id="environment"') < \
    f.index('<h2 id="answers"') < f.index('<h2 id="contents"'), "failures, banner, answers, rest"
print("answers table after the banner; a failing run's failures first")
PY
# A real failing run (simulate=ap-nostart: smp.online fails "see the error
# lines above"): the error line it means is inside Failures, above the
# answers, in html and text.
judge report-failures-error-lines "the error line of a failing run is not in its Failures section" /usr/bin/python3 - "$REPORT" "$DATA/fail-smbios-planted.log" "$T/ap-nostart.html" <<'PY'
import re, subprocess, sys
r, log, page = sys.argv[1:]
subprocess.run([r, "html", log, "-o", page], check=True)
p = open(page).read()
f, a = p.index('<h2 id="failures"'), p.index('<h2 id="answers"')
assert f < p.index('id="environment"') < a, "Failures under the verdict"
fail = p[f:p.index("</table>", p.index("Error lines of the run", f))]
assert "smp.online" in fail and "did not start within 1000 ms" in fail, fail[:800]
t = subprocess.run([r, "text", log], check=True, capture_output=True, text=True).stdout
tf = t[t.index("== Failures"):t.index("== Environment")]
assert re.search(r"^  FAIL +smp\.online: .*see the error lines above", tf, re.M), tf
assert re.search(r"^    boot \(before the first suite\): error: smp: APIC ID 1 .*did not start within 1000 ms", tf, re.M), tf
assert t.index("== Failures") < t.index("== Answers")
print("smp.online and its error line in Failures, above the answers (html and text)")
PY
judge report-answers-json "json has no answers object" /usr/bin/python3 - "$REPORT" "$ADATA/intel-bare-metal.log" "$T/pass-kernel-smp4.log" <<'PY'
import json, subprocess, sys
r, log, old = sys.argv[1:]
d = json.loads(subprocess.run([r, "json", log], check=True, capture_output=True).stdout)
a = d["answers"]
assert len(a) == 10 and d["answers_env"] == "bare-metal", (len(a), d["answers_env"])
names = {m["name"] for m in d["metrics"]}
for k, v in a.items():
    assert set(v) >= {"text", "from", "control", "env"}, v
    assert v["control"] in ("fired", "partial", "not-observed", "none") and v["env"] == "bare-metal"
    assert all(m in names for m in v["from"]), (k, v["from"])
assert a["fence_cost"]["from"] == ["fence.alone.mfence", "fence.alone.lfence"]
assert a["wrmsr_fence"]["control"] == "fired" and a["litmus"]["from"] == []
o = json.loads(subprocess.run([r, "json", old], check=True, capture_output=True).stdout)
assert o["answers"] is None, "an old log has no answers block"
print(len(a), "answers")
PY
if ! /usr/bin/python3 -c 'import junit_xml' 2>/dev/null; then
	say SKIP report-answers-junit "python3-junit.xml not installed"
else
	judge report-answers-junit "JUnit properties lack the answers" /usr/bin/python3 - "$REPORT" "$ADATA/amd-kvm.log" "$T/answers.xml" <<'PY'
import subprocess, sys, xml.etree.ElementTree as ET
r, log, out = sys.argv[1:]
subprocess.run([r, "junit", log, "-o", out], check=True)
props = {p.get("name"): p.get("value") for p in ET.parse(out).getroot().findall(".//property")}
keys = [k for k in props if k.startswith("answer.") and not k.endswith(".conclusion")]
assert len(keys) == 10, keys
assert props["answer.fence_cost.conclusion"] == "lfence.alone=within-noise mfence.alone=costs", props
assert props["answer.litmus.conclusion"] == "not-measured"
assert props["answer.fence_cost"].startswith("mfence 17, lfence 7 cycles (p50). (from=fence.alone.mfence,fence.alone.lfence; control=none; env=hypervisor:KVMKVMKVM)"), props["answer.fence_cost"]
print(len(keys), "answer properties, each with its conclusion")
PY
fi
judge report-answers-fleet "fleet view does not give one row per log" /usr/bin/python3 - "$REPORT" $ALOGS "$DATA/fail-smbios-planted.log" "$DATA/pass-smbios.log" "$T/fleet" <<'PY'
import csv, io, os, shutil, subprocess, sys
from html.parser import HTMLParser
r, logs, planted, smbios, tmp = sys.argv[1], sys.argv[2:5], sys.argv[5], sys.argv[6], sys.argv[7]
keys = ["wrmsr_fence", "rdtsc_order", "nt_clear", "tlb_flush", "tlb_shootdown", "ipi_cost",
        "tscdeadline", "spec_cost", "litmus", "fence_cost"]
text = subprocess.run([r, "answers"] + logs, check=True, capture_output=True, text=True).stdout
rows = [l for l in text.splitlines() if " | " in l]
assert len(rows) == 4 and all(k in rows[0] for k in keys), ("text", len(rows))
assert rows[0].split(" | ")[1].strip() == "status", rows[0]
c = list(csv.DictReader(io.StringIO(subprocess.run([r, "answers", "--csv"] + logs, check=True,
                                                   capture_output=True, text=True).stdout)))
assert len(c) == 3, ("csv rows", len(c))
assert [x["env"] for x in c] == ["bare-metal", "hypervisor:KVMKVMKVM", "emulator:qemu-tcg"], c
assert [x["status"] for x in c] == ["pass"] * 3
# no SMBIOS identity in these: the CPU brand names the machine, and says so
assert c[0]["vendor"] == "GenuineIntel" and c[1]["machine"] == "AMD EPYC Synthetic 2"
assert c[1]["machine_from"] == "id.cpu.brand"
assert c[2]["version"] == "v1-synthetic-c" and all(x["date"].endswith("(file time)") for x in c), c
assert c[0]["fence_cost"] == "mfence 40, lfence 6 cycles (p50)." and all(k in c[0] for k in keys)
assert c[0]["fence_cost.conclusion"] == "lfence.alone=costs mfence.alone=costs"
assert c[0]["rdtsc_order.conclusion"] == "not-measured"
# id.system names the machine; a failing run says so; the date comes from
# the capture's .times file, else the log's file name, labelled as such
os.makedirs(tmp, exist_ok=True)
cap = os.path.join(tmp, "ringlab-x-20250102-030405.log")
shutil.copy(smbios, cap)
with open(cap + ".times", "w") as f:
    f.write("2025-01-02T03:04:05.678\t0.000\tKTAP version 1\n")
named = os.path.join(tmp, "ringlab-20240506-070809-kernel-abcdef.log")
shutil.copy(planted, named)
c = list(csv.DictReader(io.StringIO(subprocess.run([r, "answers", "--csv", cap, named], check=True,
                                                   capture_output=True, text=True).stdout)))
assert c[0]["machine"] == "Lab X S123" and c[0]["machine_from"] == "id.system", c[0]
assert c[0]["date"] == "2025-01-02 03:04 (captured)" and c[0]["status"] == "pass", c[0]
assert c[1]["status"] == "fail" and c[1]["date"] == "2024-05-06 07:08 (file name)", c[1]
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.body = False; s.rows = 0
    def handle_starttag(s, t, a):
        s.body |= t == "tbody"; s.rows += t == "tr" and s.body
p = P(); p.feed(subprocess.run([r, "answers", "--html"] + logs, check=True, capture_output=True,
                               text=True).stdout)
assert p.rows == 3, ("html rows", p.rows)
print("3 logs: 3 rows as text, csv and html; status, machine from id.system, dates labelled")
PY
judge report-compare-answers "compare lacks conclusions, significance or only-in lists" /usr/bin/python3 - "$REPORT" "$ADATA/intel-bare-metal.log" "$ADATA/amd-kvm.log" <<'PY'
import csv, io, re, subprocess, sys
r, a, b = sys.argv[1:]
t = subprocess.run([r, "compare", a, b], check=True, capture_output=True, text=True).stdout
# the decision first: one line with the changed conclusions
assert t.index("In short: 1 of 10 conclusions changed") < t.index("Verdicts:") < \
    t.index("Conclusions (") < t.index("Metrics:"), "conclusions first"
assert re.search(r"fence_cost\s+CHANGED\n\s+lfence\.alone: A costs, B within-noise", t), t
assert re.search(r"wrmsr_fence\s+same: measured", t), t
assert "1 of 10 conclusions changed; 0 differ in strength only; 0 answers differ in counts only" in t
assert "significant" in t and "[min..p99] do not overlap" in t
assert "Only in A (1): fence.alone.cpuid" in t and "Only in B (1): fence.alone.sfence" in t, t
rows = {x["metric"]: x for x in csv.DictReader(io.StringIO(subprocess.run(
    [r, "compare", "--csv", a, b], check=True, capture_output=True, text=True).stdout))}
assert rows["fence.alone.mfence"]["B~A"] == "*", "40 [35,50] vs 17 [15,20]: significant"
assert rows["fence.alone.lfence"]["B~A"] == "", "6 [5,8] vs 7 [5,9]: within both spreads"
assert rows["fence.stores.count"]["B~A"] == "?", "a scalar has no spread"
assert rows["fence.alone.cpuid"]["only_in"] == "A" and rows["fence.alone.sfence"]["only_in"] == "B"
print("1 changed conclusion first, 1 significant metric, only-in lists")
PY
# Two passing `make run` logs (TCG, quick) of one ELF: no conclusion
# changed, whatever their counts (tests/host/data/report/README.md)
judge report-compare-same-elf "compare of two passing runs of one ELF reports a changed conclusion" /usr/bin/python3 - "$REPORT" tests/host/data/report/run-a.log tests/host/data/report/run-b.log <<'PY'
import re, subprocess, sys
r, a, b = sys.argv[1:]
t = subprocess.run([r, "compare", a, b], check=True, capture_output=True, text=True).stdout
m = re.search(r"^In short: (\d+) of 10 conclusions changed \((\d+) differ in strength only, (\d+) answers in counts only\); 0 case\(s\) changed result\.$", t, re.M)
assert m and m.group(1) == "0", t[:1500]
assert int(m.group(3)) >= 5, "the answers' texts differ in their counts: %s" % m.group(3)
print("0 of 10 conclusions changed; %s differ in strength only, %s in counts only" % m.group(2, 3))
PY
judge report-answers-bad-input "answers subcommand: bad input crashed or was not reported" bash -c '
	"$0" answers /nonexistent/x.log >/dev/null 2>"$1"; rc1=$?
	"$0" answers "$2" >/dev/null 2>>"$1"; rc2=$?
	"$0" answers --csv --html "$2" >/dev/null 2>>"$1"; rc3=$?
	[ "$rc1" = 126 ] && [ "$rc2" = 0 ] && [ "$rc3" = 2 ] && ! grep -q Traceback "$1" &&
	grep -q "^ringlab-report: error: cannot read /nonexistent/x.log" "$1" &&
	grep -q "^ringlab-report: warning: .*fails the log check" "$1"' "$REPORT" "$T/answers-bad.err" "$T/garbage.log"
# bad input: a clear error, never a traceback
judge report-bad-input "bad input crashed the tool" bash -c '
	"$0" tap "$1" >/dev/null 2>"$2"; rc1=$?
	"$0" check /nonexistent/x.log 2>>"$2"; rc2=$?
	[ "$rc1" = 0 ] && [ "$rc2" = 126 ] && ! grep -q Traceback "$2" &&
	"$0" tap "$1" | grep -q "^not ok 1 - ringlab.log"' "$REPORT" "$T/garbage.log" "$T/bad.err"
# ---- the reading report (text and html) and compare's decisions, on the
# synthetic logs of tests/host/data/report/mk-logs.py (a.log, b.log) and
# two real quick TCG runs of one build with different seeds
# (tcg-seed1.log, tcg-seed7.log; tests/host/data/report/README.md)
RDATA=tests/host/data/report
judge report-text-banner "text: verdict, banner, answers, contents or sections missing or out of order" /usr/bin/python3 - "$REPORT" "$RDATA/b.log" "$RDATA/a.log" "$ADATA/amd-kvm.log" <<'PY'
import re, subprocess, sys
r, b, a, kvm = sys.argv[1:]
def text(log):
    p = subprocess.run([r, "text", log], capture_output=True, text=True)
    assert p.returncode == 0 and not p.stderr, (p.returncode, p.stderr)
    return p.stdout
t = text(b)
assert t.startswith("ringlab run: FAIL "), t[:80]
# a failing run: its failures (with every error line) right under the
# verdict, then the banner, the answers, the boot's error and warning
# lines, the contents and the sections (each with its own lines)
order = ["== Failures", "== Environment: HYPERVISOR (hypervisor:KVMKVMKVM)", "== Answers",
         "== Boot: error and warning lines", "== Contents", "== 1. demo: fail", "== Identity"]
pos = [t.index(x) for x in order]
assert pos == sorted(pos), list(zip(order, pos))
fail = t[pos[0]:pos[1]]
assert "error lines of the run (1):\n    boot (before the first suite): error: smp: APIC ID 3 did not start" in fail, fail
boot = t[pos[3]:pos[4]]
assert "warning: cpu: CPUID.7.0:EBX[11] (RTM) is set but XBEGIN;XEND raised #UD (vector 6): treated as absent" in boot
sec = t[pos[5]:pos[6]]
assert "  error and warning lines:\n    warning: demo: a synthetic warning printed inside the suite" in sec
assert "1 error and 2 warning lines" in t.splitlines()[1]
banner = t[pos[1]:pos[2]]
assert re.search(r"^  FAIL +demo\.breaks: synthetic failure of breaks$", t, re.M)
assert re.search(r"^ +1\. demo +fail +7 cases +16 metrics +8\.500 ms$", t, re.M), "contents line"
assert "== Environment: BARE METAL (bare-metal)" in text(a)
# a passing run: the banner first, the answers (with their conclusions) after it
k = text(kvm)
assert "== Failures" not in k
assert k.index("== Environment: HYPERVISOR") < k.index("== Answers (env=hypervisor:KVMKVMKVM)") < \
    k.index("  fence_cost     mfence 17, lfence 7 cycles (p50).") < \
    k.index("[conclusion: lfence.alone=within-noise mfence.alone=costs]") < k.index("== Contents")
print("failures with the error lines, banner, answers, boot and suite problems, contents, sections")
PY
judge report-text-sections "text: a suite section lacks its conclusions, case times, table, matrix or histogram" /usr/bin/python3 - "$REPORT" "$RDATA/b.log" <<'PY'
import re, subprocess, sys
r, b = sys.argv[1:]
t = subprocess.run([r, "text", b], check=True, capture_output=True, text=True).stdout
sec = t[t.index("== 1. demo"):t.index("== Identity")]
# the conclusion (a diagnostic with env=) in the suite's section, first
assert sec.index("  conclusions:\n    summary: the shifted latency is 220 cycles (p50) (env=hypervisor:KVMKVMKVM)") \
    < sec.index("  case "), sec[:300]
assert re.search(r"^  breaks +fail +5\.250  synthetic failure of breaks$", sec, re.M), "case time"
# one compact table per case, names relative to the case
assert re.search(r"^    lat +100 +200 +220 +240 +260 +300 +cycles$", sec, re.M), "demo.shifted table row"
# the grid demo.grid.<method>.<pages>p.<cpus>cpu as pages x CPUs, one matrix per method
g = sec[sec.index("matrix ipi.<row>.<column>: p50 in cycles"):]
rows = g.splitlines()[1:5]
assert re.match(r"^ +1cpu +2cpu$", rows[0]), rows
assert [x.split() for x in rows[1:]] == [["1p", "112", "124"], ["8p", "196", "292"], ["64p", "868", "1636"]], rows
assert "matrix full.<row>.<column>" in sec
# negative control: a case with one metric gets no matrix
stable = sec[sec.index("-- demo.stable"):sec.index("-- demo.shifted")]
assert "matrix" not in stable, stable
# the histogram with its percentile markers and unit
h = sec[sec.index("    histograms:"):]
l1, l2 = h.splitlines()[2:4]
assert re.match(r"^ +200 cycles \|.{16}\| 264 cycles, 2 above$", l1), l1
marks = l2[l1.index("|") + 1:l1.index("|") + 17]
assert marks.index("5") < marks.index("9") < marks.index("!") == 15, marks
assert l2.endswith("p50=220 p90=240 p99=260"), l2
print("conclusions, case times, tables, 2 matrices, histogram markers")
PY
judge report-text-real "text of a real TCG run: banner or matrices wrong" /usr/bin/python3 - "$REPORT" "$RDATA/tcg-seed1.log" <<'PY'
import re, subprocess, sys
r, log = sys.argv[1:]
t = subprocess.run([r, "text", log], check=True, capture_output=True, text=True).stdout
assert "== Environment: EMULATOR (emulator:qemu-tcg)" in t
assert re.search(r'^  system +vendor="QEMU"', t, re.M) and re.search(r"^  bios +vendor=", t, re.M)
def section(name):
    m = re.search(r"^== \d+\. %s: " % name, t, re.M)
    end = t.find("\n== ", m.end())
    return t[m.start():end]
tlb, clear, ipi = section("tlb"), section("clear"), section("ipi")
# TLB shootdown: pages x CPUs, one matrix per method
m = tlb[tlb.index("matrix ipi_invlpg.<row>.<column>"):].splitlines()
assert m[1].split() == ["1cpu", "2cpu", "4cpu"], m[1]
assert [x.split()[0] for x in m[2:7]] == ["1p", "2p", "8p", "32p", "64p"], m[2:7]
assert "summary: IPI shootdown of 1 page" in tlb[:tlb.index("  case ")], "tlb's conclusions"
# clear: sizes x methods, one matrix per CPU count
m = clear[clear.index("matrix <column>.<row>.1cpu"):].splitlines()
assert m[1].split()[:2] == ["rep_stosb", "rep_stosq"] and [x.split()[0] for x in m[2:4]] == ["4KiB", "2MiB"], m[:4]
assert "crossover whole-range 1 CPU:" in clear[:clear.index("  case ")], "clear's conclusions"
# ipi: APIC mode x fence for the partner same_package.0
m = ipi[ipi.index("matrix cycles.<row>.<column>.same_package.0"):].splitlines()
assert m[1].split() == ["nofence", "mfence_lfence"] and m[2].split()[0] == "x2apic", m[:4]
print("emulator banner; tlb pages x CPUs, clear sizes x methods, ipi mode x fence")
PY
judge report-html-sections "html: contents, suite sections, matrices or markers missing" /usr/bin/python3 - "$REPORT" "$RDATA/tcg-seed1.log" "$T/sections.html" <<'PY'
import re, subprocess, sys
r, log, page = sys.argv[1:]
subprocess.run([r, "html", log, "-o", page], check=True)
p = open(page).read()
toc = p[p.index('<h2 id="contents"'):p.index('class="suite"')]
links = re.findall(r'<a href="#suite-([a-z_]+)">', toc)
assert links == ["ipi", "tlb", "clear"], links
for s in links:
    assert '<h2 id="suite-%s" class="suite">' % s in p, s
assert 'id="environment" style="background:#fdd"><b>Environment: emulator</b>' in p
clear = p[p.index('id="suite-clear"'):]
assert clear.index('<p class="concl">crossover whole-range 1 CPU:') < clear.index('<table class="cases">')
assert p.count('<table class="m">') == 5, p.count('<table class="m">')  # ipi.oneway 1, tlb.shootdown 2, clear.bandwidth 2
assert '<caption>ipi_invlpg.&lt;row&gt;.&lt;column&gt;: p50 cycles</caption><tr><th></th><th>1cpu</th><th>2cpu</th><th>4cpu</th>' in p
assert p.count("<svg") == p.count('<div class="hist">') > 0
for k in ("p50", "p90", "p99"):
    assert p.count('fill="#%s" text-anchor="middle">%s</text>' % ({"p50": "080", "p90": "c80", "p99": "c00"}[k], k)) == p.count("<svg"), k
import json
d = json.loads(subprocess.run([r, "json", log], check=True, capture_output=True).stdout)
with_metrics = sum(1 for x in d["suites"] for c in x["cases"] if c["metrics"])
assert p.count('<table class="metrics">') == with_metrics, "one compact table per case with metrics"
print(len(links), "sections,", p.count('<table class="m">'), "matrices,", p.count("<svg"), "histograms with p50/p90/p99")
PY
judge report-compare-verdicts "compare: verdict changes not first or not ordered worse-first" /usr/bin/python3 - "$REPORT" "$RDATA/a.log" "$RDATA/b.log" <<'PY'
import re, subprocess, sys
r, a, b = sys.argv[1:]
t = subprocess.run([r, "compare", a, b], check=True, capture_output=True, text=True).stdout
v = t.index("Verdicts: run status A fail -> B fail; 3 case(s) changed result:")
assert t.index("In short: no conclusions to compare (no answers block); 3 case(s) changed result.") < v < t.index("Conclusions:") < \
    t.index("Suite durations") < t.index("Significant differences") < t.index("\nmetric "), "verdicts first"
lines = [l for l in t[v:t.index("Conclusions:")].splitlines()[1:] if not l.startswith("          ")]
assert [l.split()[:2] for l in lines if l] == [["WORSE", "demo.breaks"], ["better", "demo.fixed"], ["better", "demo.newcase"]], lines
assert re.search(r"^  WORSE +demo\.breaks +pass -> fail\n +B: synthetic failure of breaks$", t, re.M)
assert re.search(r"^  better +demo\.newcase +\(absent\) -> pass$", t, re.M)
# a log against itself: nothing changed
s = subprocess.run([r, "compare", a, a], check=True, capture_output=True, text=True).stdout
assert "0 case(s) changed result." in s
print("3 verdict changes, worse first, before everything else")
PY
judge report-compare-significance "compare: significance, digits or threshold wrong" /usr/bin/python3 - "$REPORT" "$RDATA/a.log" "$RDATA/b.log" <<'PY'
import csv, io, re, subprocess, sys
r, a, b = sys.argv[1:]
def run(*args):
    p = subprocess.run([r, "compare"] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr
rc, out, _ = run("--csv", a, b)
rows = {x["metric"]: x for x in csv.DictReader(io.StringIO(out))}
# [min..p99]: shifted 100..130 vs 200..260 apart; stable 100..130 both; the
# grid's 1p cells 105..120 vs 107..122 overlap, its 64p cells do not
assert rows["demo.shifted.lat"]["B~A"] == "*" and rows["demo.shifted.lat"]["B/A"] == "2.00"
assert rows["demo.stable.lat"]["B~A"] == "" and rows["demo.grid.ipi.1p.1cpu"]["B~A"] == ""
assert rows["demo.grid.ipi.64p.1cpu"]["B~A"] == "*"
assert rows["demo.tiny.fraction"]["B~A"] == "?", "a scalar has no spread"
# small numbers keep their digits
assert rows["demo.tiny.fraction"]["A"] == "0.0038" and rows["demo.tiny.fraction"]["B"] == "0.0076"
assert rows["demo.tiny.rate"]["B/A"] == "0.00100", rows["demo.tiny.rate"]
rc, t, _ = run(a, b)
assert "[min..p99] do not overlap" in t and "fewer than 5 samples" in t, "the rule is in the legend"
assert re.search(r"^demo\.tiny\.fraction +ratio +value +0\.0038 +0\.0076 +2\.00 +\?", t, re.M)
sig = t[t.index("Significant differences (9)"):t.index("\nmetric ")].splitlines()[1:]
assert sig[0].split()[0] == "demo.shifted.lat", "largest factor first"
# --threshold 1.5: only what changed by 1.5x or more, either way
rc, t, _ = run("--threshold", "1.5", a, b)
table = t[t.index("\nmetric "):t.index(" metrics compared")]
names = re.findall(r"^(demo\.\S+)", table, re.M)
assert names == ["demo.shifted.lat", "demo.tiny.fraction", "demo.tiny.rate"], names
assert "13 hidden" in t
for bad in (["--threshold", "0.5"], ["--threshold", "x"], ["--threshold", "nan"]):
    rc, out, err = run(*bad + [a, b])
    assert rc == 2 and not out and len(err.splitlines()) == 1 and err.startswith("ringlab-report: error:"), (bad, rc, err)
print("significance by [min..p99], 0.0038 kept, threshold 1.5 keeps 3 of 16")
PY
judge report-compare-seeds "compare of two seeds does not line up every metric, or misses a seed-named one" /usr/bin/python3 - "$REPORT" "$RDATA/tcg-seed1.log" "$RDATA/tcg-seed7.log" "$T/seed7-oldnames.log" "$BUILD/logcheck" <<'PY'
import json, re, subprocess, sys, zlib
r, a, b, planted, lc = sys.argv[1:]
def cpus(log):
    d = json.loads(subprocess.run([lc, "--json", log], capture_output=True).stdout)
    return {e["name"]: e["fields"].get("cpu") for e in d["events"]
            if e["k"] == "metric" and e["name"].startswith("ipi.oneway.")}
ca, cb = cpus(a), cpus(b)
assert ca.keys() == cb.keys() and len(ca) == 4, (ca, cb)
assert set(ca.values()) != set(cb.values()), "the two seeds chose different partner CPUs"
t = subprocess.run([r, "compare", a, b], check=True, capture_output=True, text=True).stdout
assert "Only in A (0): -" in t and "Only in B (0): -" in t, t[-400:]
assert "In some logs only" not in t
# planted: B with the partner's CPU number in the name, as suites/ipi.c named
# it before (cycles.<mode>.<fence>.<relation>.cpu<N>); resealed so the log is valid
lines = open(b).read().split("\n")
lines = [re.sub(r"(ipi\.oneway\.cycles\.[^\s,]+?\.same_package)\.0\b", r"\1.cpu%s" % next(iter(cb.values())), l)
         for l in lines if not l.startswith("# integrity:")]
body = "".join(l + "\n" for l in lines if l != "")
s = [i for i, l in enumerate(body.split("\n")) if l == "KTAP version 1"][-1]
kept = body.split("\n")[s:-1]
seal = "".join(l + "\n" for l in kept)
open(planted, "w").write(body + "# integrity: lines=%d crc32=%08x\n" % (len(kept), zlib.crc32(seal.encode())))
assert subprocess.run([lc, planted], capture_output=True).returncode == 0, "the planted log is valid"
t = subprocess.run([r, "compare", a, planted], check=True, capture_output=True, text=True).stdout
assert "Only in A (4): ipi.oneway.cycles." in t and "Only in B (4): ipi.oneway.cycles." in t, t[-600:]
print("seeds 1 and 7: partners cpu %s vs %s, every metric lined up; the old names are caught"
      % (sorted(set(ca.values())), sorted(set(cb.values()))))
PY
judge report-compare-stdin-twice "compare - - did not refuse" bash -c '
	"$0" compare - - <"$1" >"$2.out" 2>"$2.err"; rc=$?
	[ "$rc" = 2 ] && [ ! -s "$2.out" ] && [ "$(wc -l <"$2.err")" = 1 ] &&
	grep -q "^ringlab-report: error: .*standard input (.-.) can be read once" "$2.err"' "$REPORT" "$DATA/pass-smbios.log" "$T/stdin-twice"
judge report-text-bad-input "text/compare/usage: bad input crashed or gave more than one error line" bash -c '
	one_error() { [ "$(wc -l <"$1")" = 1 ] && grep -q "^ringlab-report: error: " "$1" && ! grep -q Traceback "$1"; }
	"$0" text /nonexistent/x.log >/dev/null 2>"$1.1"; rc1=$?
	"$0" compare "$2" >/dev/null 2>"$1.2"; rc2=$?
	"$0" frobnicate "$2" >/dev/null 2>"$1.3"; rc3=$?
	"$0" compare /nonexistent/x.log "$2" >/dev/null 2>"$1.4"; rc4=$?
	"$0" text "$2" >"$1.out" 2>"$1.5"; rc5=$?
	[ "$rc1" = 126 ] && [ "$rc2" = 2 ] && [ "$rc3" = 2 ] && [ "$rc4" = 126 ] && [ "$rc5" = 0 ] &&
	one_error "$1.1" && one_error "$1.2" && one_error "$1.3" && one_error "$1.4" &&
	grep -q "^ringlab-report: warning: .*fails the log check" "$1.5" &&
	head -n 1 "$1.out" | grep -q "^ringlab run: incomplete"' "$REPORT" "$T/text-bad" "$T/garbage.log"
judge report-logcheck-conclusions "logcheck --json does not mark the conclusion lines with env" /usr/bin/python3 - "$BUILD/logcheck" "$RDATA/tcg-seed1.log" <<'PY'
import json, subprocess, sys
lc, log = sys.argv[1:]
ev = json.loads(subprocess.run([lc, "--json", log], capture_output=True).stdout)["events"]
diag = [e for e in ev if e["k"] == "diag"]
concl = [e for e in diag if "env" in e]
assert concl and all(e["env"] == "emulator:qemu-tcg" and "(env=emulator:qemu-tcg" in e["value"] for e in concl)
# every diagnostic that ends with the env tail is marked, no other
tail = [e for e in diag if e["value"].endswith(")") and " (env=" in e["value"]]
assert len(tail) == len(concl), (len(tail), len(concl))
print(len(concl), "of", len(diag), "diagnostics are conclusions")
PY
exit 0
