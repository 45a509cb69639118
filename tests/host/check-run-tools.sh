#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The boot scripts after `make`: --help, bad arguments and a missing piece
# give one clear line and the documented exit code (docs/usage.md, "Exit
# status": 2 a usage error, 126 a missing piece), never a traceback.
# tests/host/check-exit-status.py runs every tool against the whole table.
#   tests/host/check-run-tools.sh BUILD     prints PASS/FAIL lines
set -u
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }

out=$(tools/run-qemu.sh --help 2>&1); rc=$?
if [ $rc = 0 ] && grep -q -- '--extra' <<<"$out" && grep -q 'QEMU=' <<<"$out"; then
	pass run-qemu-help
else
	fail run-qemu-help "exit $rc, no --extra/QEMU= in: $(head -c 200 <<<"$out")"
fi
out=$(tools/run-qemu.sh --bogus 2>&1); rc=$?
[ $rc = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && pass run-qemu-bad-arg ||
	fail run-qemu-bad-arg "exit $rc: $out"
out=$(QEMU=/nonexistent/qemu tools/run-qemu.sh 2>&1); rc=$?
[ $rc = 126 ] && grep -q "no QEMU '/nonexistent/qemu'" <<<"$out" && pass run-qemu-no-qemu ||
	fail run-qemu-no-qemu "exit $rc: $out"
empty=$(mktemp -d)
out=$(BUILD=$empty tools/run-qemu.sh --accel tcg 2>&1); rc=$?
[ $rc = 126 ] && grep -q "no $empty/logcheck" <<<"$out" && ! grep -q Traceback <<<"$out" &&
	pass run-qemu-no-logcheck || fail run-qemu-no-logcheck "exit $rc: $out"
rmdir "$empty"
# --accel auto: KVM only where the host CPU has VMX/SVM (a planted
# /dev/kvm stand-in and cpuinfo files; --dry-run boots nothing)
fake=$(mktemp -d)
: >"$fake/kvm"
printf 'processor\t: 0\nflags\t\t: fpu sse2 svm lm\n' >"$fake/svm"
printf 'processor\t: 0\nflags\t\t: fpu sse2 vmx lm\n' >"$fake/vmx"
printf 'processor\t: 0\nflags\t\t: fpu sse2 hypervisor lm\nsvm_note\t: svm\n' >"$fake/none"
auto_accel() {	# KVM_DEV CPUINFO -> the accel run-qemu --dry-run picked, and its note
	RINGLAB_KVM_DEV=$1 RINGLAB_CPUINFO=$2 tools/run-qemu.sh --dry-run 2>&1 | tr '\n' ' '
}
a_svm=$(auto_accel "$fake/kvm" "$fake/svm") a_vmx=$(auto_accel "$fake/kvm" "$fake/vmx")
a_none=$(auto_accel "$fake/kvm" "$fake/none") a_nodev=$(auto_accel "$fake/absent" "$fake/svm")
if [[ $a_svm == *", kvm, "* && $a_vmx == *", kvm, "* && $a_none == *", tcg, "* &&
      $a_none == *"no VMX or SVM"* && $a_nodev == *", tcg, "* && $a_nodev != *"no VMX"* ]]; then
	pass run-qemu-auto-accel
else
	fail run-qemu-auto-accel "svm: $a_svm | vmx: $a_vmx | none: $a_none | no device: $a_nodev"
fi
rm -rf "$fake"
out=$(tools/run-qemu.sh --dry-run --accel hvf 2>&1); rc=$?
[ $rc = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && pass run-qemu-bad-accel ||
	fail run-qemu-bad-accel "exit $rc: $out"
# Two runs started in the same second get two logs (the name has the
# time and a unique part): a stand-in QEMU prints a passing log and exits
# as isa-debug-exit would (1: pass).
if [ -x "$BUILD/logcheck" ]; then
	fake=$(mktemp -d)
	mkdir -p "$fake/build"
	ln -s "$(cd "$BUILD" && pwd)/logcheck" "$fake/build/logcheck"
	: >"$fake/build/ringlab.elf"	# the stand-in QEMU does not read it
	printf '#!/bin/sh\ncat %s\nexit 1\n' "$(pwd)/tests/host/data/logs/pass-smbios.log" >"$fake/qemu"
	chmod +x "$fake/qemu"
	for i in 1 2 3; do
		QEMU=$fake/qemu BUILD=$fake/build tools/run-qemu.sh --accel tcg >"$fake/out$i" 2>&1 &
	done
	wait
	n=$(ls "$fake/build/logs"/ringlab-*.log 2>/dev/null | wc -l)
	same=0
	for f in "$fake/build/logs"/ringlab-*.log; do
		cmp -s "$f" tests/host/data/logs/pass-smbios.log && same=$((same + 1))
	done
	secs=$(ls "$fake/build/logs"/ringlab-*.log | sed 's/.*ringlab-\([0-9-]*\)-kernel-.*/\1/' | sort -u | wc -l)
	if [ "$n" = 3 ] && [ "$same" = 3 ]; then
		pass run-qemu-unique-logs
	else
		fail run-qemu-unique-logs "3 runs started together left $n logs, $same of them whole ($secs distinct seconds): $(cat "$fake"/out* | tr '\n' ' ' | head -c 300)"
	fi
	rm -rf "$fake"
fi
[ -x "$BUILD/logcheck" ] && pass make-builds-logcheck ||
	fail make-builds-logcheck "no $BUILD/logcheck after make (the default target must build it)"
out=$(grep -c 'logcheck' <(make -s help 2>&1)); [ "$out" -ge 1 ] && pass make-help-tools ||
	fail make-help-tools "make help does not mention the host tools"
