#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Boot ringlab in QEMU, show the serial log live, keep it under build/logs/,
# print logcheck's summary, and exit with the run's status.
#
#   tools/run-qemu.sh [--media kernel|iso-bios|iso-uefi] [--accel auto|kvm|tcg]
#                     [--smp N] [--mem SIZE] [--append "ARGS"] [--timeout SECONDS]
#                     [--extra "QEMU OPTIONS"] [--dry-run] [--help] [--version]
#
# QEMU=/path/to/qemu-system-x86_64 picks the binary (default: the one on
# PATH); --extra adds options to its command line, split at blanks (e.g.
# --extra "-cpu Icelake-Server -M q35").  BUILD=dir picks the build.
# --accel auto (the default) takes KVM when /dev/kvm is usable and the host
# CPU has VMX or SVM, else TCG: a KVM without either emulates the guest's
# ring 0 in software, where quick takes tens of seconds, about a second
# under TCG.  --dry-run prints the choice and the QEMU command, and exits.
#
# Exit status (docs/usage.md, "Exit status"): 0 pass, 1 fail, 2 config-error
# (the kernel's command line) or a usage error (this script's), 3 panic,
# 4 skip (every case skipped), 124 QEMU's hard timeout, 125 the log is
# broken or incomplete (or QEMU's exit status disagrees with it), 126 QEMU,
# the ELF or ISO, or build/logcheck is missing, or QEMU failed to start.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
QEMU=${QEMU:-qemu-system-x86_64}
media=kernel accel=auto smp=4 mem=1G append="quick" tmo=600 extra="" dry=0
# where the auto choice looks (tests point these at planted files)
KVM_DEV=${RINGLAB_KVM_DEV:-/dev/kvm}
CPUINFO=${RINGLAB_CPUINFO:-/proc/cpuinfo}

usage_error() { echo "run-qemu: error: $* (see --help)" >&2; exit 2; }
tool_error() { echo "run-qemu: error: $*" >&2; exit 126; }
. tools/version.sh	# ringlab_version: the build's, a release's, git's
need_arg() { [ $# -ge 2 ] || usage_error "$1 needs a value"; }
while [ $# -gt 0 ]; do
	case $1 in
	--media|--accel|--smp|--mem|--append|--timeout|--extra) need_arg "$@" ;;
	esac
	case $1 in
	--media) media=$2; shift 2 ;;
	--accel) accel=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--timeout) tmo=$2; shift 2 ;;
	--extra) extra=$2; shift 2 ;;
	--dry-run) dry=1; shift ;;
	-h|--help) sed -n '3,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
	--version) echo "run-qemu.sh (ringlab) $(ringlab_version .)"; exit 0 ;;
	*) usage_error "unknown argument '$1'" ;;
	esac
done
[[ $smp =~ ^[1-9][0-9]*$ ]] || usage_error "--smp must be a positive integer, not '$smp'"
[[ $tmo =~ ^[1-9][0-9]*$ ]] || usage_error "--timeout must be a positive number of seconds, not '$tmo'"
case $accel in auto|kvm|tcg) ;; *) usage_error "--accel must be auto, kvm or tcg, not '$accel'" ;; esac
case $media in kernel|iso-bios|iso-uefi) ;; *) usage_error "--media must be kernel, iso-bios or iso-uefi, not '$media'" ;; esac
command -v "$QEMU" >/dev/null 2>&1 ||
	tool_error "no QEMU '$QEMU' (install: tools/install-deps.sh run, or set QEMU=)"
[ -x "$BUILD/logcheck" ] ||
	tool_error "no $BUILD/logcheck, which judges the log (build it: make $BUILD/logcheck, or make)"

if [ "$accel" = auto ]; then
	accel=tcg
	if [ -r "$KVM_DEV" ] && [ -w "$KVM_DEV" ]; then
		# "flags : ... vmx ..." (Intel VT-x) or "svm" (AMD-V)
		if grep -qE '^flags[[:space:]]*:.*[[:space:]](vmx|svm)([[:space:]]|$)' "$CPUINFO" 2>/dev/null; then
			accel=kvm
		else
			echo "run-qemu: $KVM_DEV works but the host CPU has no VMX or SVM ($CPUINFO): that KVM emulates ring 0 in software, where quick takes tens of seconds; using TCG (--accel kvm to use it anyway)" >&2
		fi
	fi
fi
# -arch-capabilities: some hosts' KVM refuses the guest ARCH_CAPABILITIES
# value QEMU picks for -cpu host and QEMU aborts; ringlab does not use it.
cpu=max
[ "$accel" = kvm ] && cpu=host,-arch-capabilities

args=(-nodefaults -display none -no-reboot -m "$mem" -smp "$smp" -accel "$accel" -cpu "$cpu"
      -device isa-debug-exit,iobase=0xf4,iosize=0x04 -serial stdio)
case $media in
kernel)   args+=(-bios /usr/share/qemu/qboot.rom -kernel "$BUILD/ringlab.elf" -append "$append") ;;
iso-bios) args+=(-drive "file=$BUILD/ringlab.iso,format=raw,media=cdrom,readonly=on" -boot d) ;;
iso-uefi) args+=(-M q35 -bios /usr/share/OVMF/OVMF_CODE.fd
                 -drive "file=$BUILD/ringlab.iso,format=raw,media=cdrom,readonly=on") ;;
esac
image=$BUILD/ringlab.elf
[ "$media" = kernel ] || image=$BUILD/ringlab.iso
[ "$dry" = 1 ] || [ -f "$image" ] || tool_error "no $image (build it: make)"

if [ "$dry" = 1 ]; then
	echo "run-qemu: $media, $accel, -smp $smp${append:+, args '$append'}"
	# shellcheck disable=SC2086
	echo "$QEMU ${args[*]} $extra"
	exit 0
fi
mkdir -p "$BUILD/logs" || tool_error "cannot create $BUILD/logs"
# The time names the log for people; mktemp makes the name unique, so two
# runs started in the same second (parallel jobs) never share a file.
log=$(mktemp "$BUILD/logs/ringlab-$(date +%Y%m%d-%H%M%S)-$media-XXXXXX.log") ||
	tool_error "cannot create a log file in $BUILD/logs"
chmod "$(printf '%o' $((0666 & ~0$(umask))))" "$log"	# mktemp made it 0600
echo "run-qemu: $media, $accel, -smp $smp${append:+, args '$append'}; log $log" >&2
# shellcheck disable=SC2086 # --extra is split at blanks on purpose
timeout --foreground "$tmo" "$QEMU" "${args[@]}" $extra </dev/null | tee "$log"
rc=${PIPESTATUS[0]}
ln -sf "$(basename "$log")" "$BUILD/logs/last.log"

if [ "$rc" = 124 ]; then
	echo "run-qemu: QEMU did not finish within ${tmo}s (hard timeout); status timeout, exit 124" >&2
	exit 124
fi
# Nothing at all from the guest and QEMU failed: QEMU did not start it
# (its own message is above), which says nothing about the log.
if [ ! -s "$log" ] && [ "$rc" != 0 ]; then
	tool_error "QEMU exited with status $rc before the guest wrote anything (see its message above)"
fi
# The verdict and the status are logcheck's (one rule for every tool:
# tools/liblogcheck/verdict.c; every case skipped is skip, 4); the exit
# line's code must agree with QEMU's status, code*2+1 by isa-debug-exit (a
# plain 0: the kernel halted or QEMU was stopped another way).
"$BUILD/logcheck" --exit-status --qemu-exit "$rc" "$log"
st=$?
case $st in
0) word=pass ;; 1) word=fail ;; 2) word=config-error ;; 3) word=panic ;; 4) word="skip (every case skipped)" ;;
125) echo "run-qemu: QEMU exit status $rc; the log is broken or incomplete" >&2; word=broken ;;
*) echo "run-qemu: error: $BUILD/logcheck failed (exit $st)" >&2; exit 126 ;;
esac
echo "run-qemu: status $word, exit $st" >&2
exit "$st"
