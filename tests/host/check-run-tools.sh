#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The boot scripts after `make`: --help, bad arguments and a missing piece
# give one clear line and the documented exit code, never a traceback.
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
[ $rc = 125 ] && [ "$(wc -l <<<"$out")" = 1 ] && pass run-qemu-bad-arg ||
	fail run-qemu-bad-arg "exit $rc: $out"
out=$(QEMU=/nonexistent/qemu tools/run-qemu.sh 2>&1); rc=$?
[ $rc = 125 ] && grep -q "no QEMU '/nonexistent/qemu'" <<<"$out" && pass run-qemu-no-qemu ||
	fail run-qemu-no-qemu "exit $rc: $out"
empty=$(mktemp -d)
out=$(BUILD=$empty tools/run-qemu.sh --accel tcg 2>&1); rc=$?
[ $rc = 125 ] && grep -q "no $empty/logcheck" <<<"$out" && ! grep -q Traceback <<<"$out" &&
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
[ $rc = 125 ] && [ "$(wc -l <<<"$out")" = 1 ] && pass run-qemu-bad-accel ||
	fail run-qemu-bad-accel "exit $rc: $out"
[ -x "$BUILD/logcheck" ] && pass make-builds-logcheck ||
	fail make-builds-logcheck "no $BUILD/logcheck after make (the default target must build it)"
out=$(grep -c 'logcheck' <(make -s help 2>&1)); [ "$out" -ge 1 ] && pass make-help-tools ||
	fail make-help-tools "make help does not mention the host tools"
