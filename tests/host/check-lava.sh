#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# LAVA (tools/lava/, docs/lava.md): every job against LAVA's own schema
# (lava-schema.py job --strict), both device dictionaries rendered with
# lava-server's device types and ours (lava-schema.py device, and the keys a
# lab machine needs), the jobs' one monitor replayed over real ringlab logs
# (tools/lava/monitor-sim, whole and in small pieces as a serial line
# delivers them), tools/lava/run-qemu's judging of a lava-run log,
# tools/lava/flash-iso's refusals and its Redfish requests, and real
# offline lava-runs: the QEMU job, and the health-check and ISO jobs with
# the lab machine played by QEMU + OVMF.  The schema and lava-run parts
# need lava-dispatcher (and lava-server's device types); without them those
# checks are a SKIP.  The GRUB lines of grub-job.yaml are rehearsed by
# tests/qemu/cases_lava.py.
# One "PASS/FAIL/SKIP name[: detail]" line per check.
set -u
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
export RINGLAB_LOGCHECK="$BUILD/logcheck" BUILD
T="$BUILD/test-logs/lava"
rm -rf "$T"
mkdir -p "$T"
say() { printf '%s %s%s\n' "$1" "$2" "${3:+: $3}"; }

# lava-schema: Debian's lava-common ships it; LAVA_SCHEMA may name a copy.
schema=${LAVA_SCHEMA:-}
for c in lava-schema /usr/share/lava-common/lava-schema.py /usr/share/lava-dispatcher/lava-schema.py; do
	[ -n "$schema" ] && break
	if command -v "$c" >/dev/null 2>&1; then schema=$(command -v "$c"); elif [ -f "$c" ]; then schema=$c; fi
done
if [ -z "$schema" ]; then
	say SKIP lava-schema-jobs "lava-schema not found (Debian: lava-dispatcher, which brings lava-common)"
else
	jobs=(tools/lava/*.yaml)
	if out=$(/usr/bin/python3 "$schema" job --strict "${jobs[@]}" 2>&1); then
		say PASS lava-schema-jobs "${#jobs[@]} jobs pass --strict: $(basename -a "${jobs[@]}" | tr '\n' ' ')"
	else
		say FAIL lava-schema-jobs "$(printf '%s' "$out" | tr '\n' ' ' | head -c 400)"
	fi
	# the validator must be able to fail: a fixupdict value LAVA does not know
	sed 's/panic: fail/panic: broken/' tools/lava/qemu-job.yaml >"$T/bad-job.yaml"
	if /usr/bin/python3 "$schema" job --strict "$T/bad-job.yaml" >/dev/null 2>&1; then
		say FAIL lava-schema-control "a broken job passed the schema"
	else
		say PASS lava-schema-control "a broken job is rejected"
	fi
	types=${LAVA_DEVICE_TYPES:-}
	for d in /etc/lava-server/dispatcher-config/device-types /usr/share/lava-server/device-types; do
		[ -z "$types" ] && [ -f "$d/qemu.jinja2" ] && types=$d
	done
	types=${types:-/usr/share/lava-server/device-types}
	if [ -f "$types/qemu.jinja2" ]; then
		if out=$(/usr/bin/python3 "$schema" device --path "$types" tools/lava/ringlab-qemu01.jinja2 2>&1); then
			say PASS lava-schema-device
		else
			say FAIL lava-schema-device "$(printf '%s' "$out" | tr '\n' ' ' | head -c 400)"
		fi
		if out=$(/usr/bin/python3 "$schema" device --path tools/lava/device-types --path "$types" tools/lava/devices/*.jinja2 2>&1); then
			say PASS lava-schema-device-x86 "tools/lava/devices/ with device type ringlab-x86-uefi"
		else
			say FAIL lava-schema-device-x86 "$(printf '%s' "$out" | tr '\n' ' ' | head -c 400)"
		fi
	else
		say SKIP lava-schema-device "no LAVA device types in $types (lava-server's; set LAVA_DEVICE_TYPES)"
	fi
fi

# Placeholders and exit=: the `sed` of docs/lava.md ("Submitting") fills
# in every placeholder of every lab job (qemu-job.yaml's @ELF@ and @ARGS@
# are run-qemu's), and no job sets exit= (docs/lava.md, "The jobs").
bad=$(/usr/bin/python3 - <<'PY'
import glob, os, re
doc = open("docs/lava.md").read()
sub = doc[doc.index("## Submitting"):]
filled = set(re.findall(r's\|@([A-Z_]+)@\|', sub[:sub.index("lavacli jobs submit")]))
bad = []
for job in sorted(glob.glob("tools/lava/*.yaml")):
    text = open(job).read()
    body = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("#"))
    left = set(re.findall(r"@([A-Z_]+)@", body)) - filled
    if os.path.basename(job) == "qemu-job.yaml":
        left -= {"ELF", "ARGS"}
    if left:
        bad.append("%s: %s not filled by the docs' sed" % (job, ", ".join(sorted(left))))
    if re.search(r"RINGLAB_[A-Z_]*URL|CHANGE-ME", body):
        bad.append("%s: a placeholder of another spelling" % job)
    if re.search(r"\bexit=", body):
        bad.append("%s sets exit=" % job)
print("; ".join(bad))
PY
)
if [ -z "$bad" ]; then
	say PASS lava-job-placeholders "every job's placeholders are those the docs' sed fills; none sets exit="
else
	say FAIL lava-job-placeholders "$bad"
fi

# The lab device dictionary rendered as lava-server renders it (sandboxed
# Jinja2 over our device type and lava-server's), and what a lab machine
# needs in the result: the SOL console, IPMI power on/off/reset, the
# flasher commands with {ISO}, and the boot methods the jobs use; every
# job's device type has a template.  Control: the same dictionary without
# its connection command must be rejected.
types=${LAVA_DEVICE_TYPES:-}
for d in /etc/lava-server/dispatcher-config/device-types /usr/share/lava-server/device-types; do
	[ -z "$types" ] && [ -f "$d/base-grub.jinja2" ] && types=$d
done
cat >"$T/render.py" <<'PY'
import glob, os, sys, yaml
from jinja2 import FileSystemLoader
from jinja2.sandbox import SandboxedEnvironment
types, dictionary = sys.argv[1], sys.argv[2]
env = SandboxedEnvironment(loader=FileSystemLoader(["tools/lava/device-types", types]),
                           autoescape=False, trim_blocks=True)
try:
    d = yaml.safe_load(env.from_string(open(dictionary).read()).render())
except Exception as e:
    sys.exit("does not render to YAML: %s" % str(e).splitlines()[0])
c, a = d.get("commands") or {}, d.get("actions") or {}
need = [("commands.connect runs 'sol activate'", "sol activate" in str(c.get("connect"))),
        ("commands.power_on is 'chassis power on'", "chassis power on" in str(c.get("power_on"))),
        ("commands.power_off is 'chassis power off'", "chassis power off" in str(c.get("power_off"))),
        ("commands.hard_reset powers off and on", "chassis power off" in str(c.get("hard_reset"))
         and "chassis power on" in str(c.get("hard_reset"))),
        ("deploy flasher commands use {ISO}", any("{ISO}" in x for x in
         ((a.get("deploy") or {}).get("methods") or {}).get("flasher", {}).get("commands") or [])),
        ("flasher's Redfish insert says how TLS is checked (--tls verify)",
         any("flash-iso redfish --tls verify " in x for x in
             ((a.get("deploy") or {}).get("methods") or {}).get("flasher", {}).get("commands") or [])),
        ("deploy tftp", "tftp" in ((a.get("deploy") or {}).get("methods") or {})),
        ("boot minimal and grub", {"minimal", "grub"} <= set(((a.get("boot") or {}).get("methods") or {}))),
        ("grub interrupt prompt", d.get("constants", {}).get("grub", {}).get("interrupt-prompt") == "for a command-line"),
        ("placeholders marked CHANGE-ME", "CHANGE-ME" in str(c))]
bad = [n for n, ok in need if not ok]
for job in sorted(glob.glob("tools/lava/*.yaml")):
    t = yaml.safe_load(open(job))["device_type"]
    if not any(os.path.exists(os.path.join(x, t + ".jinja2")) for x in ("tools/lava/device-types", types)):
        bad.append("%s: no template for device type %s" % (job, t))
if bad:
    sys.exit("missing: " + "; ".join(bad))
print("%d keys, %d jobs' device types" % (len(need), len(glob.glob("tools/lava/*.yaml"))))
PY
if [ -z "$types" ]; then
	say SKIP lava-device-render "no LAVA device types (base-grub.jinja2); set LAVA_DEVICE_TYPES"
elif ! /usr/bin/python3 -c 'import jinja2, yaml' 2>/dev/null; then
	say SKIP lava-device-render "python3-jinja2 or python3-yaml missing"
else
	if out=$(/usr/bin/python3 "$T/render.py" "$types" tools/lava/devices/ringlab-x86-01.jinja2 2>&1); then
		say PASS lava-device-render "ringlab-x86-01: $out"
	else
		say FAIL lava-device-render "ringlab-x86-01: $(printf '%s' "$out" | tail -n 1)"
	fi
	grep -v 'connection_command' tools/lava/devices/ringlab-x86-01.jinja2 >"$T/no-sol.jinja2"
	if out=$(/usr/bin/python3 "$T/render.py" "$types" "$T/no-sol.jinja2" 2>&1); then
		say FAIL lava-device-render-control "a dictionary without connection_command passed"
	elif [[ $out == *"sol activate"* ]]; then
		say PASS lava-device-render-control "a dictionary without connection_command is rejected"
	else
		say FAIL lava-device-render-control "rejected for another reason: $out"
	fi
fi

# The monitor: one, the same in every job, so a lab's results read alike.
# Replayed over real logs (tools/lava/monitor-sim): one record per
# `# result:` line, one measurement per headline metric in the log, and
# the same records when the log arrives 1 or 5 bytes at a time as when it
# is read whole.  Control: the pattern without its end-of-capture guards
# does record lines read in part.
if ! /usr/bin/python3 -c 'import yaml' 2>/dev/null || ! python3 -c 'import yaml' 2>/dev/null; then
	say SKIP lava-monitor "python3-yaml missing"
else
	mons=$(for j in tools/lava/*.yaml; do python3 -c 'import sys, yaml, json
d = yaml.safe_load(open(sys.argv[1]))
print(json.dumps([a["test"]["monitors"] for a in d["actions"] if "test" in a], sort_keys=True))' "$j"; done | sort -u | wc -l)
	if [ "$mons" = 1 ]; then
		say PASS lava-monitor-same "every job has the same monitor"
	else
		say FAIL lava-monitor-same "$mons different monitor blocks in tools/lava/*.yaml"
	fi
	bad="" nres=0 nmet=0
	head_rx=$(python3 -c 'import re, sys
m = re.search(r"metric \(\?:([^()]*)\)", open(sys.argv[1]).read())
print(m.group(1).replace(chr(92) + ".", "."))' tools/lava/qemu-job.yaml)
	nans=0
	for log in tests/host/data/logs/*.log tests/host/data/answers/*.log; do
		want_r=$(grep -cE '^\s*# result: ' "$log")
		want_m=$(grep -cE "^\s*# metric ($head_rx) " "$log")
		want_a=$(grep -cE '^# answer [a-z0-9_]+: ' "$log")
		want_s=$(grep -cE '^# answer [a-z0-9_]+: not measured: ' "$log")
		whole=$(tools/lava/monitor-sim tools/lava/qemu-job.yaml "$log" | grep '"lvl": "results"')
		got_r=$(printf '%s\n' "$whole" | grep -v '"case": "answer_' | grep -c '"measurement": null')
		got_m=$(printf '%s\n' "$whole" | grep -c '"measurement": "')
		got_a=$(printf '%s\n' "$whole" | grep -c '"case": "answer_[a-z0-9_]*", "definition": "ringlab", "result": "\(pass\|skip\)"')
		got_s=$(printf '%s\n' "$whole" | grep -c '"case": "answer_[a-z0-9_]*", "definition": "ringlab", "result": "skip"')
		nres=$((nres + got_r)) nmet=$((nmet + got_m)) nans=$((nans + got_a))
		[ "$got_r" = "$want_r" ] && [ "$got_m" = "$want_m" ] && [ "$got_a" = "$want_a" ] && [ "$got_s" = "$want_s" ] ||
			bad="$bad $(basename "$log"): $got_r/$want_r results, $got_m/$want_m measurements, $got_a/$want_a answers ($got_s/$want_s not measured);"
		for c in 1 5; do
			[ "$(tools/lava/monitor-sim tools/lava/qemu-job.yaml "$log" $c | grep '"lvl": "results"')" = "$whole" ] ||
				bad="$bad $(basename "$log"): other records when read $c bytes at a time;"
		done
	done
	if [ -z "$bad" ] && [ "$nmet" -gt 0 ]; then
		say PASS lava-monitor-replay "$nres results, $nmet measurements and $nans answers from $(ls tests/host/data/logs/*.log tests/host/data/answers/*.log | wc -l) logs, also read 1 and 5 bytes at a time"
	else
		say FAIL lava-monitor-replay "${bad:- no measurement recorded}"
	fi
	sed 's/(?=\[ ;\\r\\n\])//' tools/lava/qemu-job.yaml >"$T/unguarded.yaml"
	if ! cmp -s "$T/unguarded.yaml" tools/lava/qemu-job.yaml &&
	   [ "$(tools/lava/monitor-sim "$T/unguarded.yaml" tests/host/data/logs/pass-kernel-smp4.log 1 | grep '"lvl": "results"')" != \
	     "$(tools/lava/monitor-sim "$T/unguarded.yaml" tests/host/data/logs/pass-kernel-smp4.log | grep '"lvl": "results"')" ]; then
		say PASS lava-monitor-control "without the guards a line read in part is recorded: the piecewise replay sees it"
	else
		say FAIL lava-monitor-control "the piecewise replay does not tell the unguarded pattern apart"
	fi
	# Protocol text inside a line: tests/host/data/logs/fail-smbios-planted.log
	# is a real failing run (simulate=ap-nostart: smp.online fails) whose
	# SMBIOS strings, as an older kernel printed them, read
	# `# integrity: lines=1`, `x # result: smp.online pass x` and
	# `x # result: boot.mbi fail x` inside `# id.system:`/`# id.bios:`.  The
	# monitor (patterns anchored at the line start) must record every
	# case with the log's own verdict, whole and piecewise, and reach the
	# real end; run-qemu's judge must agree.  Control: the patterns as
	# they were (unanchored) stop at the planted end line with one
	# invented result.  (lava-run itself is not needed: monitor-sim
	# applies the patterns with Python's re as pexpect does, and
	# --pexpect below runs them through pexpect itself.)
	planted=tests/host/data/logs/fail-smbios-planted.log
	bad=""
	for c in 0 1 5; do
		tools/lava/monitor-sim tools/lava/qemu-job.yaml "$planted" $c >"$T/planted-$c.log"
		grep -q '"lvl": "error"' "$T/planted-$c.log" && bad="$bad chunk $c: the end line was never matched;"
		grep -q '"case": "smp_online", "definition": "ringlab", "result": "fail"' "$T/planted-$c.log" ||
			bad="$bad chunk $c: smp.online is not recorded as fail;"
		grep -q '"case": "boot_mbi", "definition": "ringlab", "result": "fail"' "$T/planted-$c.log" &&
			bad="$bad chunk $c: the planted boot.mbi fail was recorded;"
	done
	tools/lava/run-qemu --from-log "$T/planted-0.log" >"$T/planted-judge.out" 2>&1
	rc=$?
	[ "$rc" = 1 ] && ! grep -q disagree "$T/planted-judge.out" && grep -qx 'smp.online fail' "$T/planted-judge.out" ||
		bad="$bad run-qemu's judge: exit $rc, $(grep -m1 disagree "$T/planted-judge.out");"
	sed -e "s/^      start: .*/      start: KTAP version 1/" -e "s/^      end: .*/      end: '# integrity:'/" \
	    -e "s/^      pattern: '\\\\n(?: {4})\*# /      pattern: '# /" tools/lava/qemu-job.yaml >"$T/unanchored.yaml"
	ctl=$(tools/lava/monitor-sim "$T/unanchored.yaml" "$planted" | grep -c '"lvl": "results"')
	if [ -n "$bad" ]; then
		say FAIL lava-monitor-anchored "$bad"
	elif cmp -s "$T/unanchored.yaml" tools/lava/qemu-job.yaml || [ "$ctl" -gt 1 ]; then
		say FAIL lava-monitor-anchored "control: the unanchored patterns recorded $ctl results on $planted (expected to stop at the planted end line)"
	else
		say PASS lava-monitor-anchored "SMBIOS strings with '# integrity:' and '# result:' text change no record (whole, 1 and 5 bytes at a time; run-qemu agrees); unanchored control: $ctl record"
	fi
	# monitor-sim against pexpect itself (lava-dispatcher's matcher): the
	# same records for the planted log and two real ones, read 7 bytes at
	# a time from a pseudo-terminal.
	if ! /usr/bin/python3 -c 'import pexpect' 2>/dev/null; then
		say SKIP lava-monitor-pexpect "python3-pexpect not installed"
	else
		bad=""
		for log in "$planted" tests/host/data/logs/config-error.log tests/host/data/logs/fail-fault-recovery.log; do
			[ "$(tools/lava/monitor-sim --pexpect tools/lava/qemu-job.yaml "$log" 7 | grep -v '"lvl": "target"')" = \
			  "$(tools/lava/monitor-sim tools/lava/qemu-job.yaml "$log" | grep -v '"lvl": "target"')" ] ||
				bad="$bad $(basename "$log");"
		done
		ctl=$(tools/lava/monitor-sim --pexpect "$T/unanchored.yaml" "$planted" 7 | grep -c '"lvl": "results"')
		if [ -z "$bad" ] && [ "$ctl" -le 1 ]; then
			say PASS lava-monitor-pexpect "pexpect records what monitor-sim records on 3 logs; the unanchored control stops early there too ($ctl record)"
		else
			say FAIL lava-monitor-pexpect "pexpect and monitor-sim differ on:${bad:- none}; control $ctl records"
		fi
	fi
fi

# run-qemu's judge on lava-run logs made by replaying a real ringlab log
# through the job's monitor: agreeing; one result flipped; one measurement
# changed; one headline measurement missing.
tools/lava/monitor-sim tools/lava/qemu-job.yaml tests/host/data/logs/config-error.log >"$T/agree.log"
sed 's/"case": "boot_mbi", "definition": "ringlab", "result": "pass"/"case": "boot_mbi", "definition": "ringlab", "result": "fail"/' "$T/agree.log" >"$T/disagree.log"
sed 's/"measurement": "\([0-9]*\)", "units": "bytes"/"measurement": "1\1", "units": "bytes"/' "$T/agree.log" >"$T/badmeasure.log"
grep -v '"case": "metric_boot_mmap_sane_ram"' "$T/agree.log" >"$T/nomeasure.log"
tools/lava/run-qemu --from-log "$T/agree.log" >"$T/agree.out" 2>&1
rc=$?
n=$(grep -cE '^[a-z0-9_]+\.[a-z0-9_]+ (pass|fail|skip)$' "$T/agree.out")
if [ "$rc" = 2 ] && [ "$n" = 5 ] && grep -qx 'config.cmdline fail' "$T/agree.out" &&
   grep -qE '^metric boot\.mmap_sane\.ram [0-9]+ bytes$' "$T/agree.out"; then
	say PASS lava-judge-agree "5 suite.case lines and 1 measurement, exit 2 (config-error)"
else
	say FAIL lava-judge-agree "exit $rc, $n result lines: $(tail -n 2 "$T/agree.out" | tr '\n' ' ')"
fi
# answers: the planted log's (a real run with an answers block) with one
# answer result dropped, and one with another control
grep -v '"case": "answer_litmus"' "$T/planted-0.log" >"$T/noanswer.log"
sed 's/"case": "answer_rdtsc_order", "definition": "ringlab", "result": "\([a-z]*\)", \(.*\)"units": "[a-z-]*"/"case": "answer_rdtsc_order", "definition": "ringlab", "result": "\1", \2"units": "bogus"/' \
	"$T/planted-0.log" >"$T/badanswer.log"
for v in "disagree:boot.mbi: LAVA recorded fail, the log says pass" \
	 "badmeasure:boot.mmap_sane.ram: LAVA recorded pass 1" \
	 "nomeasure:headline metric boot.mmap_sane.ram is in the log but has no LAVA measurement" \
	 "noanswer:answer litmus is in the log but has no LAVA result answer_litmus" \
	 "badanswer:answer rdtsc_order: LAVA recorded skip control=bogus, the log says skip control=none"; do
	f=${v%%:*} want=${v#*:}
	tools/lava/run-qemu --from-log "$T/$f.log" >"$T/$f.out" 2>&1
	rc=$?
	if [ "$rc" = 1 ] && grep -qF "disagree: $want" "$T/$f.out"; then
		say PASS "lava-judge-$f" "exit 1: $want"
	else
		say FAIL "lava-judge-$f" "exit $rc: $(tail -n 2 "$T/$f.out" | tr '\n' ' ')"
	fi
done

# LAVA's own record is the log: `ringlab-report check --lava` judges the
# serial stream of a lava-run log (the quotes LAVA escaped, the lines it
# added after the integrity line), and agrees with the log itself; a file
# that is no LAVA log, or none at all, is one line, never a traceback.
bad=""
for log in tests/host/data/logs/pass-smbios.log tests/host/data/logs/config-error.log tests/host/data/logs/skip-all.log; do
	tools/lava/monitor-sim tools/lava/qemu-job.yaml "$log" >"$T/rec.log"
	want=$("$BUILD/logcheck" --exit-status -q "$log" 2>/dev/null; echo $?)
	got=$(tools/ringlab-report check --lava "$T/rec.log" 2>/dev/null; echo $?)
	got=${got##*$'\n'}
	[ "$got" = "$want" ] || bad="$bad $(basename "$log"): check --lava exit $got, the log's $want;"
done
tools/lava/run-qemu --from-log /nonexistent/lava.log >"$T/nofile.out" 2>&1; rc1=$?
tools/lava/run-qemu --from-log tests/host/data/logs/pass-smbios.log >"$T/notlava.out" 2>&1; rc2=$?
tools/ringlab-report check --lava tests/host/data/logs/pass-smbios.log >"$T/notlava2.out" 2>&1; rc3=$?
for f in nofile notlava notlava2; do
	[ "$(wc -l <"$T/$f.out")" = 1 ] && ! grep -q Traceback "$T/$f.out" || bad="$bad $f: $(head -c 200 "$T/$f.out");"
done
[ "$rc1" = 126 ] && [ "$rc2" = 125 ] && [ "$rc3" = 125 ] || bad="$bad exits $rc1/$rc2/$rc3 (want 126/125/125);"
if [ -z "$bad" ]; then
	say PASS lava-record-check "check --lava agrees with the log on 3 replayed records (quotes un-escaped, poweroff cut); --from-log of no file 126, of no LAVA log 125, one line each"
else
	say FAIL lava-record-check "$bad"
fi

# flash-iso refuses what it must not write to, with one line and exit 2,
# and copies an ISO into a virtual-media directory.
fi_bad=""
tools/lava/flash-iso usb "$BUILD/ringlab.iso" /dev/null >"$T/fi.out" 2>&1; rc=$?
[ "$rc" = 2 ] && grep -qx 'flash-iso: /dev/null is not a block device' "$T/fi.out" || fi_bad="$fi_bad usb-/dev/null(exit $rc);"
tools/lava/flash-iso dir tools/lava/qemu-job.yaml "$T" >"$T/fi.out" 2>&1; rc=$?
[ "$rc" = 2 ] && grep -q 'is not an ISO 9660 image' "$T/fi.out" || fi_bad="$fi_bad not-an-iso(exit $rc);"
tools/lava/flash-iso bogus >"$T/fi.out" 2>&1; rc=$?
[ "$rc" = 2 ] && [ "$(wc -l <"$T/fi.out")" = 1 ] || fi_bad="$fi_bad bad-mode(exit $rc);"
if [ -f "$BUILD/ringlab.iso" ]; then
	mkdir -p "$T/vmedia"
	tools/lava/flash-iso dir "$BUILD/ringlab.iso" "$T/vmedia" >"$T/fi.out" 2>&1; rc=$?
	[ "$rc" = 0 ] && cmp -s "$BUILD/ringlab.iso" "$T/vmedia/ringlab.iso" || fi_bad="$fi_bad dir-copy(exit $rc);"
fi
if [ -z "$fi_bad" ]; then
	say PASS lava-flash-iso "refuses /dev/null, a non-ISO and a bad mode; copies to a directory"
else
	say FAIL lava-flash-iso "$fi_bad"
fi
# flash-iso redfish against a stand-in BMC on 127.0.0.1: the requests a
# Redfish VirtualMedia BMC expects (eject, insert read-only, boot override
# once) with the credentials; a BMC refusing the insert must fail the deploy.
cat >"$T/redfish.py" <<'PY'
import base64, http.server, json, os, subprocess, sys, threading
fail_insert = sys.argv[1] == "refuse"
seen = []
class H(http.server.BaseHTTPRequestHandler):
    def answer(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        seen.append((self.command, self.path, json.loads(body or b"{}"), self.headers.get("Authorization")))
        code = 500 if fail_insert and "InsertMedia" in self.path else (400 if "Eject" in self.path else 204)
        self.send_response(code); self.send_header("Content-Length", "0"); self.end_headers()
    do_POST = do_PATCH = answer
    def log_message(self, *a): pass
srv = http.server.HTTPServer(("127.0.0.1", 0), H)
threading.Thread(target=srv.serve_forever, daemon=True).start()
pw = os.path.join(sys.argv[2], "bmc.pass"); open(pw, "w").write("s3cret\n")
p = subprocess.run(["tools/lava/flash-iso", "redfish", "http://files.example/r.iso",
                    "http://127.0.0.1:%d" % srv.server_port, "lab", pw], capture_output=True, text=True, timeout=60)
srv.shutdown()
auth = "Basic " + base64.b64encode(b"lab:s3cret").decode()
want = [("POST", "/redfish/v1/Managers/1/VirtualMedia/CD1/Actions/VirtualMedia.EjectMedia", {}, auth),
        ("POST", "/redfish/v1/Managers/1/VirtualMedia/CD1/Actions/VirtualMedia.InsertMedia",
         {"Image": "http://files.example/r.iso", "Inserted": True, "WriteProtected": True}, auth),
        ("PATCH", "/redfish/v1/Systems/1", {"Boot": {"BootSourceOverrideTarget": "Cd", "BootSourceOverrideEnabled": "Once"}}, auth)]
err = p.stderr.strip().splitlines()
if fail_insert:
    ok = p.returncode == 1 and len(err) == 1 and "InsertMedia: HTTP 500" in err[0] and len(seen) == 2
else:
    ok = p.returncode == 0 and seen == want
print("%s exit %d, %d requests%s" % ("ok" if ok else "bad", p.returncode, len(seen), ": " + err[0] if err else ""))
PY
out=$(timeout 90 python3 "$T/redfish.py" accept "$T" 2>&1)
out2=$(timeout 90 python3 "$T/redfish.py" refuse "$T" 2>&1)
if [[ $out == ok* ]] && [[ $out2 == ok* ]]; then
	say PASS lava-flash-iso-redfish "eject, insert, boot once with the BMC's credentials; a refused insert fails: ${out2#ok }"
else
	say FAIL lava-flash-iso-redfish "accepting BMC: $out; refusing BMC: $out2"
fi

# flash-iso redfish over HTTPS against a stand-in BMC with a self-signed
# certificate (openssl): --tls verify (the default) refuses it, --tls with
# that certificate as the CA file accepts it, --tls insecure accepts it
# with a warning line; a CA file that is not there is a usage error.
if ! command -v openssl >/dev/null 2>&1; then
	say SKIP lava-flash-iso-tls "openssl not installed"
else
	openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
		-addext subjectAltName=IP:127.0.0.1 -keyout "$T/bmc.key" -out "$T/bmc.crt" >/dev/null 2>&1
	cat >"$T/redfish-tls.py" <<'PY'
import http.server, os, ssl, subprocess, sys, threading
tmp, mode = sys.argv[1], sys.argv[2]
seen = []
class H(http.server.BaseHTTPRequestHandler):
    def answer(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        seen.append(self.path)
        self.send_response(204); self.send_header("Content-Length", "0"); self.end_headers()
    do_POST = do_PATCH = answer
    def log_message(self, *a): pass
srv = http.server.HTTPServer(("127.0.0.1", 0), H)
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(os.path.join(tmp, "bmc.crt"), os.path.join(tmp, "bmc.key"))
srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
threading.Thread(target=srv.serve_forever, daemon=True).start()
pw = os.path.join(tmp, "bmc.pass"); open(pw, "w").write("s3cret\n")
tls = [] if mode == "default" else ["--tls", os.path.join(tmp, "bmc.crt") if mode == "ca" else mode]
p = subprocess.run(["tools/lava/flash-iso", "redfish"] + tls + ["http://files.example/r.iso",
                    "https://127.0.0.1:%d" % srv.server_port, "lab", pw], capture_output=True, text=True, timeout=60)
srv.shutdown()
err = p.stderr.strip().splitlines()
print("exit=%d requests=%d stderr=%s" % (p.returncode, len(seen), " | ".join(err)))
PY
	d=$(timeout 60 python3 "$T/redfish-tls.py" "$T" default 2>&1)
	c=$(timeout 60 python3 "$T/redfish-tls.py" "$T" ca 2>&1)
	i=$(timeout 60 python3 "$T/redfish-tls.py" "$T" insecure 2>&1)
	tools/lava/flash-iso redfish --tls /nonexistent/ca.pem http://x/r.iso bmc u "$T/bmc.pass" >"$T/tls.out" 2>&1; rc=$?
	if [[ $d == "exit=1 requests=0 stderr="*CERTIFICATE_VERIFY_FAILED* ]] && [[ $d != *"|"* ]] &&
	   [[ $c == "exit=0 requests=3 stderr=" ]] &&
	   [[ $i == "exit=0 requests=3 stderr=flash-iso: warning: --tls insecure:"* ]] && [[ $i != *"|"* ]] &&
	   [ "$rc" = 2 ] && [ "$(wc -l <"$T/tls.out")" = 1 ]; then
		say PASS lava-flash-iso-tls "verify refuses a self-signed BMC; its certificate as --tls CA file is accepted; insecure warns once; a missing CA file is exit 2"
	else
		say FAIL lava-flash-iso-tls "default: $d | ca: $c | insecure: $i | missing CA: exit $rc"
	fi
fi

# the real thing: lava-run offline
if ! command -v lava-run >/dev/null 2>&1; then
	say SKIP lava-run-qemu "lava-run not installed (Debian: lava-dispatcher)"
else
	# One UART: the verdict is judged on LAVA's own record of it.
	timeout 900 tools/lava/run-qemu "tests=boot,cpu,fence quick" >"$T/run.out" 2>&1
	rc=$?
	n=$(grep -cE '^[a-z0-9_]+\.[a-z0-9_]+ (pass|fail|skip)$' "$T/run.out")
	na=$(grep -cE '^answer [a-z0-9_]+ (pass|skip) control=' "$T/run.out")
	nk=$(grep -oE '^answer [a-z0-9_]+ ' "$T/run.out" | sort -u | wc -l)
	if [ "$rc" = 126 ] && grep -q "not installed" "$T/run.out"; then
		say SKIP lava-run-qemu "$(tail -n 1 "$T/run.out")"
	elif [ "$rc" = 0 ] && [ "$n" -ge 5 ] && grep -qE '^metric [a-z_.]+ [0-9.]+ [A-Za-z/]+$' "$T/run.out" &&
	     [ "$na" = 10 ] && [ "$nk" = 10 ] && grep -q "LAVA's record: integrity ok" "$T/run.out" &&
	     grep -q '^answer fence_cost pass control=none .*alone=' "$T/run.out" &&
	     tools/ringlab-report check --lava "$BUILD/lava/lava-run.log" >/dev/null 2>&1; then
		say PASS lava-run-qemu "$n LAVA results, $(grep -c '^metric ' "$T/run.out") measurements and one answer_* per key agree with LAVA's own record of the serial line (integrity ok, no second UART)"
	else
		say FAIL lava-run-qemu "exit $rc, $n results; see $T/run.out and $BUILD/lava/lava-run.log"
	fi
	# The lab jobs for real under lava-run, the machine played by QEMU +
	# OVMF with two CPUs (tools/lava/qemu-uefi-machine): the flasher copies
	# the ISO, which the machine boots as a USB stick; the health check
	# breaks into GRUB and types its commands, the ISO job boots the menu's
	# default entry (here from a copy of the ISO whose default entry has
	# `quick tests=boot,cpu,smp` added: the full run takes too long under
	# TCG).  Each must pass, agree with the log, record measurements, and
	# the log must show UEFI firmware and both CPUs.
	short="$T/short-iso"
	rm -rf "$short"
	if [ -d "$BUILD/isodir" ] && cp -r "$BUILD/isodir" "$short/" 2>/dev/null &&
	   sed -i '0,/^\tmultiboot2 \/boot\/ringlab.elf$/s//\tmultiboot2 \/boot\/ringlab.elf quick tests=boot,cpu,smp/' "$short/boot/grub/grub.cfg" &&
	   grep -q 'ringlab.elf quick tests=boot,cpu,smp$' "$short/boot/grub/grub.cfg"; then
		grub-mkrescue -o "$T/short.iso" "$short" -- -volid RINGLAB >/dev/null 2>&1
	fi
	for j in health-check:"$BUILD/ringlab.iso" iso-job:"$T/short.iso"; do
		name=${j%%:*} iso=${j#*:}
		timeout 300 tools/lava/run-qemu --rehearse "$name.yaml" "$iso" >"$T/$name.out" 2>&1
		rc=$?
		n=$(grep -cE '^[a-z0-9_]+\.[a-z0-9_]+ (pass|fail|skip)$' "$T/$name.out")
		m=$(grep -c '^metric ' "$T/$name.out")
		sl="$BUILD/lava-rehearse/serial.log"
		if [ "$rc" = 126 ] && grep -q "not installed" "$T/$name.out"; then
			say SKIP "lava-run-$name" "$(tail -n 1 "$T/$name.out")"
		elif [ "$rc" = 0 ] && [ "$n" -ge 5 ] && [ "$m" -ge 1 ] &&
		     grep -aq '^# id.firmware: UEFI ' "$sl" && grep -aq '^# id.cpus: online=2 ' "$sl"; then
			say PASS "lava-run-$name" "QEMU+OVMF -smp 2: $n LAVA results and $m measurements agree with the log; UEFI, 2 CPUs"
		else
			cp "$BUILD/lava-rehearse/lava-run.log" "$T/$name-lava-run.log" 2>/dev/null
			say FAIL "lava-run-$name" "exit $rc, $n results, $m measurements; see $T/$name.out, $T/$name-lava-run.log"
		fi
	done
fi
exit 0
