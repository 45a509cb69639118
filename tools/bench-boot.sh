#!/usr/bin/env bash
# Benchmark (not a test): wall time from QEMU start to its exit for a
# smoke run, N times, reporting min/median/max in ms.  Default: TCG, -smp 4,
# "quick tests=smp", the -kernel path of `make run`.  Timings depend on the
# host's load; compare runs made back to back on the same machine.
#
#   tools/bench-boot.sh [-n N] [--accel tcg|kvm] [--smp N] [--append "ARGS"]
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
n=5 accel=tcg smp=4 append="quick tests=smp"
while [ $# -gt 0 ]; do
	case $1 in
	-n) n=$2; shift 2 ;;
	--accel) accel=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	-h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench-boot: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
[ -f "$BUILD/ringlab.elf" ] || { echo "bench-boot: no $BUILD/ringlab.elf; run make first" >&2; exit 2; }
cpu=max
[ "$accel" = kvm ] && cpu=host,-arch-capabilities
times=()
for i in $(seq "$n"); do
	t0=$(date +%s%N)
	out=$(timeout 120 qemu-system-x86_64 -nodefaults -display none -no-reboot -m 1G -smp "$smp" \
		-accel "$accel" -cpu "$cpu" -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-serial stdio -bios /usr/share/qemu/qboot.rom -kernel "$BUILD/ringlab.elf" \
		-append "$append" </dev/null)
	rc=$?
	t1=$(date +%s%N)
	if [ "$rc" != 1 ]; then
		echo "bench-boot: run $i: QEMU exit $rc (expected 1: status pass)" >&2
		printf '%s\n' "$out" | tail -n 3 >&2
		exit 1
	fi
	times+=($(((t1 - t0) / 1000000)))
done
cal=$(printf '%s\n' "$out" | grep -m1 '^# tsc: calibration' || true)
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
echo "bench-boot: $accel -smp $smp '$append': n=$n min=${sorted[0]}ms median=${sorted[$((n / 2))]}ms max=${sorted[$((n - 1))]}ms"
[ -n "$cal" ] && echo "bench-boot: ${cal#\# }"
exit 0
