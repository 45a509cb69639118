#!/usr/bin/env bash
# LAVA (tools/lava/): the job templates and device dictionary against LAVA's
# own schema (lava-schema.py job --strict / device), tools/lava/run-qemu's
# judging of a lava-run log, and a real offline lava-run of the QEMU job.
# Each needs lava-dispatcher (and lava-server's device types for the
# device dictionary and lava-run); without them the check is a SKIP.
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
	if out=$(/usr/bin/python3 "$schema" job --strict tools/lava/qemu-job.yaml tools/lava/ipxe-job.yaml tools/lava/grub-job.yaml 2>&1); then
		say PASS lava-schema-jobs "qemu, ipxe and grub jobs pass --strict"
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
	else
		say SKIP lava-schema-device "no LAVA device types in $types (lava-server's; set LAVA_DEVICE_TYPES)"
	fi
fi

# run-qemu's judge on a lava-run log built from a real ringlab log: LAVA's
# records as its monitor writes them (case ids with '.' turned into '_').
/usr/bin/python3 - tests/host/data/logs/config-error.log "$T/agree.log" "$T/disagree.log" <<'PY'
import json, re, sys
lines = open(sys.argv[1], "rb").read().decode("latin-1").replace("\r", "").split("\n")
def rec(lvl, msg):
    return "- " + json.dumps({"dt": "2026-12-01T00:00:00", "lvl": lvl, "msg": msg})
out = []
for l in lines:
    out.append(rec("target", l))
    m = re.match(r"\s*# result: (\S+) (\S+)$", l)
    if m:
        res = {"timeout": "fail", "panic": "fail"}.get(m.group(2), m.group(2))
        out.append(rec("results", {"definition": "0_ringlab", "case": re.sub(r"\W+", "_", m.group(1)), "result": res}))
open(sys.argv[2], "w").write("\n".join(out) + "\n")
open(sys.argv[3], "w").write("\n".join(out).replace('"case": "boot_mbi", "result": "pass"', '"case": "boot_mbi", "result": "fail"') + "\n")
PY
tools/lava/run-qemu --from-log "$T/agree.log" >"$T/agree.out" 2>&1
rc=$?
n=$(grep -cE '^[a-z0-9_]+\.[a-z0-9_]+ (pass|fail|skip)$' "$T/agree.out")
if [ "$rc" = 2 ] && [ "$n" = 5 ] && grep -qx 'config.cmdline fail' "$T/agree.out"; then
	say PASS lava-judge-agree "5 suite.case lines, exit 2 (config-error)"
else
	say FAIL lava-judge-agree "exit $rc, $n result lines: $(tail -n 2 "$T/agree.out" | tr '\n' ' ')"
fi
tools/lava/run-qemu --from-log "$T/disagree.log" >"$T/disagree.out" 2>&1
rc=$?
if [ "$rc" = 1 ] && grep -q 'disagree: boot.mbi: LAVA recorded fail, the log says pass' "$T/disagree.out"; then
	say PASS lava-judge-disagree "exit 1 naming boot.mbi"
else
	say FAIL lava-judge-disagree "exit $rc: $(tail -n 2 "$T/disagree.out" | tr '\n' ' ')"
fi

# the real thing: lava-run offline
if ! command -v lava-run >/dev/null 2>&1; then
	say SKIP lava-run-qemu "lava-run not installed (Debian: lava-dispatcher)"
else
	timeout 900 tools/lava/run-qemu "tests=boot,cpu quick" >"$T/run.out" 2>&1
	rc=$?
	n=$(grep -cE '^[a-z0-9_]+\.[a-z0-9_]+ (pass|fail|skip)$' "$T/run.out")
	if [ "$rc" = 77 ]; then
		say SKIP lava-run-qemu "$(tail -n 1 "$T/run.out")"
	elif [ "$rc" = 0 ] && [ "$n" -ge 5 ]; then
		say PASS lava-run-qemu "$n LAVA results agree with the log"
	else
		say FAIL lava-run-qemu "exit $rc, $n results; see $T/run.out and $BUILD/lava/lava-run.log"
	fi
fi
exit 0
