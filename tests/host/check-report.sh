#!/usr/bin/env bash
# tools/ringlab-report against the consumers people run: `prove` reads the
# TAP, Python's XML parser reads the JUnit back, logcheck re-checks the
# cleaned KTAP, csv/json/html are read back.  Inputs: the real QEMU logs in
# tests/host/data/logs/ and logs derived from them here (GRUB noise, \r\r\n
# line ends, two runs, a truncation).
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
# truncated: the serial capture stopped mid-run
head -n 150 "$DATA/pass-kernel-smp4.log" >"$T/truncated.log"

# name  expected-check-exit  expected-prove(pass|fail)  min-tests
cases="pass-kernel-smp4 0 pass 40
crcrlf 0 pass 40
grub-noise 0 pass 40
grub-bios-iso 0 pass 40
two-runs-last-pass 0 pass 40
two-runs-last-fail 1 fail 5
fail-fault-recovery 1 fail 5
config-error 2 fail 2
panic 3 fail 2
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
assert page.index("<h1>") < page.index("<h2>Results") < page.index("<h2>Metrics"), "verdict first"
subprocess.run([sys.argv[1], "html", sys.argv[5], "-o", sys.argv[3] + ".fail.html"], check=True)
fail = open(sys.argv[3] + ".fail.html").read()
assert fail.index("<h2>Failures") < fail.index("<h2>Results"), "failures before the results"
assert "fault.unexpected" in fail[:fail.index("<h2>Results")].replace("</td><td>", ".")
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
# bad input: a clear error, never a traceback
printf 'garbage\0\377\n' >"$T/garbage.log"
judge report-bad-input "bad input crashed the tool" bash -c '
	"$0" tap "$1" >/dev/null 2>"$2"; rc1=$?
	"$0" check /nonexistent/x.log 2>>"$2"; rc2=$?
	[ "$rc1" = 0 ] && [ "$rc2" = 2 ] && ! grep -q Traceback "$2" &&
	"$0" tap "$1" | grep -q "^not ok 1 - ringlab.log"' "$REPORT" "$T/garbage.log" "$T/bad.err"
exit 0
