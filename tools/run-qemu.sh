#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Boot ringlab in QEMU, show the serial log live, keep it under build/logs/,
# print logcheck's summary, and exit with the run's status:
#   0 pass, 1 fail, 2 config-error, 3 panic, 124 QEMU hard timeout,
#   125 QEMU failed to start or the log is not a valid ringlab log.
#
#   tools/run-qemu.sh [--media kernel|iso-bios|iso-uefi] [--accel auto|kvm|tcg]
#                     [--smp N] [--mem SIZE] [--append "ARGS"] [--timeout SECONDS]
#                     [--extra "QEMU OPTIONS"] [--dry-run] [--help]
#
# QEMU=/path/to/qemu-system-x86_64 picks the binary (default: the one on
# PATH); --extra adds options to its command line, split at blanks (e.g.
# --extra "-cpu Icelake-Server -M q35").  BUILD=dir picks the build.
# --accel auto (the default) takes KVM when /dev/kvm is usable and the host
# CPU has VMX or SVM, else TCG: a KVM without either emulates the guest's
# ring 0 in software, where quick takes tens of seconds, about a second
# under TCG.  --dry-run prints the choice and the QEMU command, and exits.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
QEMU=${QEMU:-qemu-system-x86_64}
media=kernel accel=auto smp=4 mem=1G append="quick" tmo=600 extra="" dry=0
# where the auto choice looks (tests point these at planted files)
KVM_DEV=${RINGLAB_KVM_DEV:-/dev/kvm}
CPUINFO=${RINGLAB_CPUINFO:-/proc/cpuinfo}

need_arg() { [ $# -ge 2 ] || { echo "run-qemu: $1 needs a value (see --help)" >&2; exit 125; }; }
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
	-h|--help) sed -n '3,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "run-qemu: unknown argument '$1' (see --help)" >&2; exit 125 ;;
	esac
done
command -v "$QEMU" >/dev/null 2>&1 ||
	{ echo "run-qemu: no QEMU '$QEMU' (install: tools/install-deps.sh run, or set QEMU=)" >&2; exit 125; }
[ -x "$BUILD/logcheck" ] ||
	{ echo "run-qemu: no $BUILD/logcheck, which judges the log (build it: make $BUILD/logcheck, or make)" >&2; exit 125; }

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
case $accel in kvm|tcg) ;; *) echo "run-qemu: --accel must be auto, kvm or tcg" >&2; exit 125 ;; esac
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
*) echo "run-qemu: --media must be kernel, iso-bios or iso-uefi" >&2; exit 125 ;;
esac

if [ "$dry" = 1 ]; then
	echo "run-qemu: $media, $accel, -smp $smp${append:+, args '$append'}"
	# shellcheck disable=SC2086
	echo "$QEMU ${args[*]} $extra"
	exit 0
fi
mkdir -p "$BUILD/logs"
# The time names the log for people; mktemp makes the name unique, so two
# runs started in the same second (parallel jobs) never share a file.
log=$(mktemp "$BUILD/logs/ringlab-$(date +%Y%m%d-%H%M%S)-$media-XXXXXX.log") ||
	{ echo "run-qemu: cannot create a log file in $BUILD/logs" >&2; exit 125; }
chmod "$(printf '%o' $((0666 & ~0$(umask))))" "$log"	# mktemp made it 0600
echo "run-qemu: $media, $accel, -smp $smp${append:+, args '$append'}; log $log" >&2
# shellcheck disable=SC2086 # --extra is split at blanks on purpose
timeout --foreground "$tmo" "$QEMU" "${args[@]}" $extra </dev/null | tee "$log"
rc=${PIPESTATUS[0]}
ln -sf "$(basename "$log")" "$BUILD/logs/last.log"

if [ "$rc" = 124 ]; then
	echo "run-qemu: QEMU did not finish within ${tmo}s (hard timeout)" >&2
	exit 124
fi
if ! "$BUILD/logcheck" --qemu-exit "$rc" "$log"; then
	echo "run-qemu: QEMU exit status $rc; the log is incomplete or invalid" >&2
	exit 125
fi
# isa-debug-exit: QEMU exits with code*2+1.  A plain 0 means the kernel
# halted or QEMU was stopped another way.
if [ $((rc % 2)) = 1 ]; then exit $(((rc - 1) / 2)); fi
exit 125
