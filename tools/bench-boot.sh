#!/usr/bin/env bash
# Benchmark (not a test): wall time from QEMU start to its exit, N times,
# median (and min/max).  Timings depend on the host's load; compare runs
# made back to back on the same machine.  `make test` never runs this.
#
#   tools/bench-boot.sh [-n N] [--accel tcg|kvm] [--smp N] [--append "ARGS"]
#       one configuration (default: TCG, -smp 4, "quick tests=smp", the
#       -kernel path of `make run`): n= min= median= max= in ms
#   tools/bench-boot.sh --table [-n N] [--no-kvm] [--no-iso] [--iso-n K]
#       (`make bench`) the table: for TCG, and for KVM when /dev/kvm is
#       usable, -smp 4: boot only (quick tests=boot), quick tests=smp,
#       quick (every suite) and its per-suite times (the `# time:` lines of
#       the log, median over the N runs), the ratios quick / tests=smp and
#       quick / tests=boot; then the full run of the ISO under SeaBIOS,
#       -smp 2, TCG, in seconds (K runs, default 1: it takes minutes).
#
# Every QEMU run is bounded by timeout (QUICK_TIMEOUT, default 300 s;
# ISO_TIMEOUT, default 900 s); a run that overruns shows as "timeout".
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
QEMU=${QEMU:-qemu-system-x86_64}
QUICK_TIMEOUT=${QUICK_TIMEOUT:-300}
ISO_TIMEOUT=${ISO_TIMEOUT:-900}
n=5 accel=tcg smp=4 append="quick tests=smp" table=0 kvm=1 iso=1 iso_n=1 n_set=0
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
	-h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench-boot: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
case $n$iso_n in *[!0-9]*) echo "bench-boot: -n and --iso-n take a number" >&2; exit 2 ;; esac
[ "$n" -ge 1 ] && [ "$iso_n" -ge 1 ] || { echo "bench-boot: -n and --iso-n must be >= 1" >&2; exit 2; }
[ -f "$BUILD/ringlab.elf" ] || { echo "bench-boot: no $BUILD/ringlab.elf; run make first" >&2; exit 2; }
T=$(mktemp -d "${TMPDIR:-/tmp}/ringlab-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT

# run_one ACCEL SMP APPEND LOG MEDIA(kernel|iso) TIMEOUT: prints "<ms> <qemu exit>"
run_one() {
	local acc=$1 cpus=$2 args=$3 log=$4 media=$5 limit=$6 cpu=max t0 t1 rc
	[ "$acc" = kvm ] && cpu=host,-arch-capabilities
	local cmd=("$QEMU" -nodefaults -display none -no-reboot -m 1G -smp "$cpus"
		-accel "$acc" -cpu "$cpu" -device isa-debug-exit,iobase=0xf4,iosize=0x04
		-serial "file:$log")
	if [ "$media" = iso ]; then
		cmd+=(-drive "file=$BUILD/ringlab.iso,format=raw,media=cdrom,readonly=on" -boot d)
	else
		cmd+=(-bios /usr/share/qemu/qboot.rom -kernel "$BUILD/ringlab.elf" -append "$args")
	fi
	t0=$(date +%s%N)
	timeout "$limit" "${cmd[@]}" </dev/null >"$log.out" 2>&1
	rc=$?
	t1=$(date +%s%N)
	echo "$(((t1 - t0) / 1000000)) $rc"
}

if [ "$table" = 0 ]; then
	times=()
	for i in $(seq "$n"); do
		read -r ms rc < <(run_one "$accel" "$smp" "$append" "$T/run.log" kernel 120)
		if [ "$rc" != 1 ]; then
			echo "bench-boot: run $i: QEMU exit $rc (expected 1: status pass)" >&2
			tail -n 3 "$T/run.log" "$T/run.log.out" >&2
			exit 1
		fi
		times+=("$ms")
	done
	cal=$(grep -a -m1 '^# tsc: calibration' "$T/run.log" | tr -d '\r' || true)
	sorted=($(printf '%s\n' "${times[@]}" | sort -n))
	echo "bench-boot: $accel -smp $smp '$append': n=$n min=${sorted[0]}ms median=${sorted[$((n / 2))]}ms max=${sorted[$((n - 1))]}ms"
	[ -n "$cal" ] && echo "bench-boot: ${cal#\# }"
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
# results: "<accel> <what> <rep> <ms> <rc>" lines; per-suite: "<accel> <rep> <suite> <ms>"
: >"$T/runs" ; : >"$T/suites"
for acc in $accels; do
	for what in boot smp quick; do
		case $what in
		boot) args="quick tests=boot" ;;
		smp) args="quick tests=smp" ;;
		quick) args="quick" ;;
		esac
		for rep in $(seq "$n"); do
			log="$T/$acc-$what-$rep.log"
			read -r ms rc < <(run_one "$acc" 4 "$args" "$log" kernel "$QUICK_TIMEOUT")
			echo "$acc $what $rep $ms $rc" >>"$T/runs"
			echo "bench-boot: $acc -smp 4 '$args' run $rep/$n: ${ms} ms, QEMU exit $rc" >&2
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

/usr/bin/python3 - "$T/runs" "$T/suites" "$n" "$iso_n" "$(nproc)" "$("$QEMU" --version | head -n 1)" "$kvm_note" <<'PY'
import statistics, sys
runs_f, suites_f, n, iso_n, ncpu, qver, kvm_note = sys.argv[1:]
runs, suites, order = {}, {}, []
for l in open(runs_f):
    acc, what, rep, ms, rc = l.split()
    runs.setdefault((acc, what), []).append((int(ms), int(rc)))
for l in open(suites_f):
    acc, rep, suite, ms = l.split()
    suites.setdefault((acc, suite), []).append(float(ms))
    if suite not in order:
        order.append(suite)
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
for what, label in (("boot", "boot only (quick tests=boot)"), ("smp", "quick tests=smp"),
                    ("quick", "quick (every suite)")):
    r = [label]
    for a in accs:
        v, note = med((a, what))
        vals[(a, what)] = v
        r.append(ms(v, note))
    rows.append(r)
for s in order:
    r = ["  suite %s" % s]
    for a in accs:
        v = suites.get((a, s))
        r.append("%.1f ms" % statistics.median(v) if v else "-")
    rows.append(r)
for den, label in (("smp", "ratio quick / quick tests=smp"), ("boot", "ratio quick / quick tests=boot")):
    r = [label]
    for a in accs:
        q, d = vals.get((a, "quick")), vals.get((a, den))
        r.append("%.2f" % (q / d) if q and d else "-")
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
