#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Benchmark (not a test): wall time from QEMU start to its exit, N times,
# median (and min/max).  Timings depend on the host's load; compare runs
# made back to back on the same machine.  `make test` never runs this.
#
#   tools/bench-boot.sh [-n N] [--accel tcg|kvm] [--smp N] [--append "ARGS"]
#       one configuration (default: TCG, -smp 4, "quick tests=smp", the
#       -kernel path of `make run`): n= min= median= max= in ms; then the
#       minimal SMP kernel (tools/bench/minsmp.asm) booted the same way and
#       the ratio of the two medians (a floor: the smoke run's goal, <= 1.2,
#       is stated against smptest.flat, below)
#   tools/bench-boot.sh --table [-n N] [--no-kvm] [--no-iso] [--iso-n K]
#       (`make bench`) the table: for TCG, and for KVM when /dev/kvm is
#       usable, -smp 4: the minimal SMP kernel, boot only (quick
#       tests=boot), quick tests=smp and its boot phases (the `# boot:
#       phases` line, docs/log-format.md "Durations"), quick (every suite)
#       and its per-suite times (the `# time:` lines of the log, median
#       over the N runs), the ratios quick tests=smp / minimal, quick /
#       tests=smp and quick / tests=boot; then the full run of the ISO
#       under SeaBIOS, -smp 2, TCG, in seconds (K runs, default 1: it
#       takes minutes).  With SMPTEST=<path to kvm-unit-tests'
#       x86/smptest.flat> (built from its source; ringlab ships none) that
#       kernel is booted the same way too, with the ratio quick tests=smp /
#       smptest.flat: the yardstick the smoke-run goal (<= 1.2) is stated
#       against.  minsmp.asm is a stricter floor (QEMU, the firmware and an
#       AP start, nothing else), shown without a goal.
#   tools/bench-boot.sh --check
#       no timing: builds the minimal SMP kernel, boots it (TCG, -smp 4 and
#       -smp 1) and checks its exit status and AP count, and that a copy
#       assembled not to send the SIPIs is caught (exit 3, aps=0); prints
#       PASS/FAIL lines as tests/run-all.sh does, exits 1 on a failure.
#
# The minimal kernel is assembled by this script (nasm -f bin) into
# $BUILD/bench/minsmp.bin.  Every QEMU run is bounded by timeout
# (QUICK_TIMEOUT, default 300 s; ISO_TIMEOUT, default 900 s); a run that
# overruns shows as "timeout".
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
QEMU=${QEMU:-qemu-system-x86_64}
NASM=${NASM:-nasm}
SMPTEST=${SMPTEST:-}
QUICK_TIMEOUT=${QUICK_TIMEOUT:-300}
ISO_TIMEOUT=${ISO_TIMEOUT:-900}
n=5 accel=tcg smp=4 append="quick tests=smp" table=0 kvm=1 iso=1 iso_n=1 n_set=0 check=0
while [ $# -gt 0 ]; do
	case $1 in
	-n) n=$2; n_set=1; shift 2 ;;
	--accel) accel=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--table) table=1; shift ;;
	--no-kvm) kvm=0; shift ;;
	--no-iso) iso=0; shift ;;
	--iso-n) iso_n=$2; shift 2 ;;
	--check) check=1; shift ;;
	-h|--help) awk 'NR > 2 && !/^#/ { exit } NR > 2' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench-boot: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
case $n$iso_n in *[!0-9]*) echo "bench-boot: -n and --iso-n take a number" >&2; exit 2 ;; esac
[ "$n" -ge 1 ] && [ "$iso_n" -ge 1 ] || { echo "bench-boot: -n and --iso-n must be >= 1" >&2; exit 2; }
T=$(mktemp -d "${TMPDIR:-/tmp}/ringlab-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
MINSMP=$BUILD/bench/minsmp.bin

# build_minsmp OUT [NASM -D...]: assemble tools/bench/minsmp.asm
build_minsmp() {
	local out=$1
	shift
	mkdir -p "$(dirname "$out")" &&
	"$NASM" -f bin -w+all -w-unknown-warning -Werror "$@" tools/bench/minsmp.asm -o "$out" \
		2>"$T/nasm.err" || { echo "bench-boot: nasm failed on tools/bench/minsmp.asm:" >&2
		cat "$T/nasm.err" >&2; return 1; }
}
command -v "$NASM" >/dev/null || { echo "bench-boot: no $NASM (the minimal SMP kernel is assembled with it)" >&2; exit 2; }
build_minsmp "$MINSMP" || exit 2

# run_one ACCEL SMP APPEND LOG MEDIA(kernel|iso|FILE.bin) TIMEOUT: prints
# "<ms> <qemu exit>"; a .bin is booted as -kernel exactly as ringlab.elf is.
run_one() {
	local acc=$1 cpus=$2 args=$3 log=$4 media=$5 limit=$6 cpu=max t0 t1 rc kernel=$BUILD/ringlab.elf
	[ "$acc" = kvm ] && cpu=host,-arch-capabilities
	local cmd=("$QEMU" -nodefaults -display none -no-reboot -m 1G -smp "$cpus"
		-accel "$acc" -cpu "$cpu" -device isa-debug-exit,iobase=0xf4,iosize=0x04
		-serial "file:$log")
	if [ "$media" = iso ]; then
		cmd+=(-drive "file=$BUILD/ringlab.iso,format=raw,media=cdrom,readonly=on" -boot d)
	else
		[ "$media" = kernel ] || kernel=$media
		cmd+=(-bios /usr/share/qemu/qboot.rom -kernel "$kernel" -append "$args")
	fi
	t0=$(date +%s%N)
	timeout "$limit" "${cmd[@]}" </dev/null >"$log.out" 2>&1
	rc=$?
	t1=$(date +%s%N)
	echo "$(((t1 - t0) / 1000000)) $rc"
}

# minsmp_line LOG: the minimal kernel's "minsmp: ..." line, or ""
minsmp_line() { tr -d '\r' <"$1" 2>/dev/null | grep -a -m1 '^minsmp: ' || true; }

# ---- --check: the minimal kernel builds, boots, counts its APs ----------
if [ "$check" = 1 ]; then
	bad=0
	# check_boot NAME BIN SMP WANT_RC WANT_LINE_REGEX
	check_boot() {
		local name=$1 bin=$2 cpus=$3 want_rc=$4 want=$5 ms rc line
		read -r ms rc < <(run_one tcg "$cpus" "" "$T/$name.log" "$bin" 60)
		line=$(minsmp_line "$T/$name.log")
		if [ "$rc" = "$want_rc" ] && [[ $line =~ $want ]]; then
			echo "PASS $name"
		else
			echo "FAIL $name: QEMU exit $rc (want $want_rc), serial '${line:-nothing}' (want /$want/)"
			bad=1
		fi
	}
	check_boot minsmp-smp4 "$MINSMP" 4 1 '^minsmp: aps=3 expected=3 bsp=0$'
	check_boot minsmp-smp1 "$MINSMP" 1 1 '^minsmp: aps=0 expected=0 bsp=0$'
	# planted negative control: no SIPI is sent, so no AP can arrive, and
	# the boot must say so (exit 3), not pass
	if build_minsmp "$T/minsmp-nosipi.bin" -DMINSMP_NO_SIPI; then
		check_boot minsmp-nosipi-caught "$T/minsmp-nosipi.bin" 4 3 '^minsmp: aps=0 expected=3 bsp=0$'
	else
		echo "FAIL minsmp-nosipi-caught: the control copy did not assemble"
		bad=1
	fi
	exit "$bad"
fi

[ -f "$BUILD/ringlab.elf" ] || { echo "bench-boot: no $BUILD/ringlab.elf; run make first" >&2; exit 2; }

# bench_one ACCEL SMP APPEND MEDIA WHAT: N runs; prints "min median max",
# exits on a run that does not end with status pass (QEMU exit 1)
bench_one() {
	local times=() ms rc i sorted
	for i in $(seq "$n"); do
		read -r ms rc < <(run_one "$1" "$2" "$3" "$T/run.log" "$4" 120)
		if [ "$rc" != 1 ]; then
			echo "bench-boot: $5 run $i: QEMU exit $rc (expected 1: status pass)" >&2
			tail -n 3 "$T/run.log" "$T/run.log.out" >&2
			exit 1
		fi
		times+=("$ms")
	done
	sorted=($(printf '%s\n' "${times[@]}" | sort -n))
	echo "${sorted[0]} ${sorted[$((n / 2))]} ${sorted[$((n - 1))]}"
}

if [ "$table" = 0 ]; then
	read -r lo med hi < <(bench_one "$accel" "$smp" "$append" kernel ringlab) || exit 1
	[ -n "${med:-}" ] || exit 1
	cal=$(grep -a -m1 '^# tsc: calibration' "$T/run.log" | tr -d '\r' || true)
	echo "bench-boot: $accel -smp $smp '$append': n=$n min=${lo}ms median=${med}ms max=${hi}ms"
	[ -n "$cal" ] && echo "bench-boot: ${cal#\# }"
	read -r mlo mmed mhi < <(bench_one "$accel" "$smp" "" "$MINSMP" minsmp) || exit 1
	[ -n "${mmed:-}" ] || exit 1
	echo "bench-boot: $accel -smp $smp minimal SMP kernel (tools/bench/minsmp.asm): n=$n min=${mlo}ms median=${mmed}ms max=${mhi}ms; $(minsmp_line "$T/run.log")"
	awk -v a="$med" -v b="$mmed" 'BEGIN { printf "bench-boot: ratio ringlab / minimal (medians): %.2f (a floor; the goal, <= 1.2, is against smptest.flat: --table with SMPTEST=)\n", a / b }'
	exit 0
fi

# ---- the table ------------------------------------------------------------
[ "$n_set" = 1 ] || n=3
[ -x "$BUILD/logcheck" ] || { echo "bench-boot: no $BUILD/logcheck; run make $BUILD/logcheck" >&2; exit 2; }
export RINGLAB_LOGCHECK="$BUILD/logcheck"
accels=tcg
kvm_note=""
if [ "$kvm" = 1 ]; then
	if [ -r /dev/kvm ] && [ -w /dev/kvm ] &&
	   echo quit | timeout 20 "$QEMU" -accel kvm -machine none -nodefaults -display none \
		-monitor stdio >/dev/null 2>&1; then
		accels="tcg kvm"
	else
		kvm_note="KVM: /dev/kvm is not usable here (skipped)"
	fi
else
	kvm_note="KVM: skipped (--no-kvm)"
fi
if [ -n "$SMPTEST" ] && [ ! -f "$SMPTEST" ]; then
	echo "bench-boot: SMPTEST=$SMPTEST: no such file (kvm-unit-tests' x86/smptest.flat)" >&2
	exit 2
fi
whats="min${SMPTEST:+ kut} boot smp quick"
# results: "<accel> <what> <rep> <ms> <rc>" lines; per-suite: "<accel> <rep> <suite> <ms>";
# boot phases of the tests=smp runs: "<accel> <rep> <phase> <ms>"
: >"$T/runs" ; : >"$T/suites" ; : >"$T/phases"
# Interleaved: each repetition boots every configuration once, so a drift
# in the host's speed over the benchmark (other load, frequency, caches)
# falls on numerator and denominator of each ratio alike.
for acc in $accels; do
	for rep in $(seq "$n"); do
		for what in $whats; do
			media=kernel
			case $what in
			min) args="" media=$MINSMP ;;
			kut) args="" media=$SMPTEST ;;
			boot) args="quick tests=boot" ;;
			smp) args="quick tests=smp" ;;
			quick) args="quick" ;;
			esac
			log="$T/$acc-$what-$rep.log"
			read -r ms rc < <(run_one "$acc" 4 "$args" "$log" "$media" "$QUICK_TIMEOUT")
			echo "$acc $what $rep $ms $rc" >>"$T/runs"
			if [ "$what" = min ]; then
				echo "bench-boot: $acc -smp 4 minimal SMP kernel run $rep/$n: ${ms} ms, QEMU exit $rc; $(minsmp_line "$log")" >&2
			elif [ "$what" = kut ]; then
				echo "bench-boot: $acc -smp 4 smptest.flat run $rep/$n: ${ms} ms, QEMU exit $rc" >&2
			else
				echo "bench-boot: $acc -smp 4 '$args' run $rep/$n: ${ms} ms, QEMU exit $rc" >&2
			fi
			if [ "$what" = smp ]; then
				tr -d '\r' <"$log" | grep -a -m1 '^# boot: phases ms: ' |
					tr ' ' '\n' | awk -F= -v a="$acc" -v r="$rep" 'NF == 2 { print a, r, $1, $2 }' >>"$T/phases"
			fi
			if [ "$what" = quick ]; then
				tools/ringlab-report times --csv "$log" 2>/dev/null |
					awk -F, -v a="$acc" -v r="$rep" 'NR > 1 && $2 == "" && $4 != "-" { print a, r, $1, $4 }' >>"$T/suites"
			fi
		done
	done
done
if [ "$iso" = 1 ]; then
	if [ -f "$BUILD/ringlab.iso" ]; then
		for rep in $(seq "$iso_n"); do
			read -r ms rc < <(run_one tcg 2 "" "$T/iso-$rep.log" iso "$ISO_TIMEOUT")
			echo "tcg iso $rep $ms $rc" >>"$T/runs"
			echo "bench-boot: ISO SeaBIOS -smp 2 tcg full run $rep/$iso_n: ${ms} ms, QEMU exit $rc" >&2
		done
	else
		echo "bench-boot: no $BUILD/ringlab.iso: the ISO row is skipped (make $BUILD/ringlab.iso)" >&2
	fi
fi

/usr/bin/python3 - "$T/runs" "$T/suites" "$T/phases" "$n" "$iso_n" "$(nproc)" "$("$QEMU" --version | head -n 1)" "$kvm_note" <<'PY'
import statistics, sys
runs_f, suites_f, phases_f, n, iso_n, ncpu, qver, kvm_note = sys.argv[1:]
runs, suites, order, phases, porder = {}, {}, [], {}, []
byrep = {}
for l in open(runs_f):
    acc, what, rep, ms, rc = l.split()
    runs.setdefault((acc, what), []).append((int(ms), int(rc)))
    if int(rc) == 1:
        byrep[(acc, what, rep)] = int(ms)
for l in open(suites_f):
    acc, rep, suite, ms = l.split()
    suites.setdefault((acc, suite), []).append(float(ms))
    if suite not in order:
        order.append(suite)
for l in open(phases_f):
    acc, rep, phase, ms = l.split()
    phases.setdefault((acc, phase), []).append(float(ms))
    if phase not in porder:
        porder.append(phase)
accs = [a for a in ("tcg", "kvm") if (a, "quick") in runs]
STATUS = {1: "pass", 3: "fail", 5: "config-error", 7: "panic", 124: "timeout", 137: "killed"}

def med(key):
    v = runs.get(key)
    if not v:
        return None, ""
    bad = sorted({STATUS.get(rc, "exit %d" % rc) for _, rc in v if rc != 1})
    if any(rc in (124, 137) for _, rc in v):
        return None, "timeout"
    return statistics.median(ms for ms, _ in v), ",".join(bad)

def ms(v, note=""):
    return ("-" if v is None else "%.0f ms" % v) + (" (%s)" % note if note else "")

print("ringlab benchmark: median of %s run(s) each, wall time QEMU start to exit; "
      "host %s CPUs, %s" % (n, ncpu, qver))
cols = ["%s -smp 4" % a.upper() for a in accs]
rows = []
vals = {}
for what, label in (("min", "minimal SMP kernel (tools/bench/minsmp.asm)"),
                    ("kut", "kvm-unit-tests smptest.flat (SMPTEST=)"),
                    ("boot", "boot only (quick tests=boot)"), ("smp", "quick tests=smp"),
                    ("quick", "quick (every suite)")):
    if not any((a, what) in runs for a in accs):
        continue
    r = [label]
    for a in accs:
        v, note = med((a, what))
        vals[(a, what)] = v
        r.append(ms(v, note))
    rows.append(r)
    if what == "smp":
        for p in porder:
            r = ["  boot phase %s (kernel's TSC)" % p if p == "total" else "  boot phase %s" % p]
            for a in accs:
                v = phases.get((a, p))
                r.append("%.1f ms" % statistics.median(v) if v else "-")
            rows.append(r)
for s in order:
    r = ["  suite %s" % s]
    for a in accs:
        v = suites.get((a, s))
        r.append("%.1f ms" % statistics.median(v) if v else "-")
    rows.append(r)
for num, den, label in (("smp", "min", "ratio quick tests=smp / minimal (a floor)"),
                        ("smp", "kut", "ratio quick tests=smp / smptest.flat (goal <= 1.2)"),
                        ("quick", "smp", "ratio quick / quick tests=smp"),
                        ("quick", "boot", "ratio quick / quick tests=boot")):
    if not any((a, den) in runs for a in accs):
        continue
    r = [label]
    for a in accs:
        q, d = vals.get((a, num)), vals.get((a, den))
        # the ratio of the medians, and the range of the ratios of the
        # runs made side by side (same repetition)
        pairs = sorted(byrep[(a, num, k[2])] / byrep[k] for k in byrep
                       if k[0] == a and k[1] == den and (a, num, k[2]) in byrep and byrep[k])
        rng = " (pairs %.2f-%.2f)" % (pairs[0], pairs[-1]) if len(pairs) > 1 else ""
        r.append("%.2f%s" % (q / d, rng) if q and d else "-")
    rows.append(r)
w0 = max(len(r[0]) for r in rows + [["configuration"]])
ws = [max(len(r[i + 1]) for r in rows + [[""] + cols]) for i in range(len(accs))]
print("  ".join(["configuration".ljust(w0)] + [c.rjust(ws[i]) for i, c in enumerate(cols)]))
for r in rows:
    print("  ".join([r[0].ljust(w0)] + [v.rjust(ws[i]) for i, v in enumerate(r[1:])]))
if ("tcg", "iso") in runs:
    v, note = med(("tcg", "iso"))
    print("full run, ISO under SeaBIOS, -smp 2, TCG (%s run(s)): %s" %
          (iso_n, "-" if v is None else "%.1f s" % (v / 1000.0)) + (" (%s)" % note if note else ""))
if kvm_note:
    print(kvm_note)
PY
