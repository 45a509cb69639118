#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# `make test`: every check ringlab has, each reported as PASS/FAIL/SKIP on
# its own line, closing with "N passed, N failed, N skipped".
#   1. host unit tests (cmocka) of lib/ and every parser, one check per case
#   2. build properties: reproducible ELF, instruction encodings
#   3. ringlab-hosted run natively (real numbers on this machine)
#   4. QEMU boots (tests/qemu/run.py), each under a hard timeout
#   5. Bochs boots (tools/bochs/case.sh), two time-boxed cases; SKIP
#      without Bochs
#   6. docs: docs/suites.md's generated reference matches the kernel's
#      `list` (tools/gen-suites-doc --check), relative links resolve
#
#   tests/run-all.sh [host] [build] [tools] [hosted] [qemu] [bochs] [docs]   (default: all, in order)
# QEMU_ONLY=a,b limits part 4 to those cases (make check-qemu CASE=a,b).
# BOCHS_JOBS=1 runs the Bochs cases one after the other (default 2 at once:
# each Bochs uses one core).
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
pass=0 fail=0 skip=0
# .ci/run unpacks Debian 12's QEMU 7.2 here for one QEMU case
if [ -z "${QEMU72:-}" ] && [ -x /opt/qemu72/qemu-system-x86_64 ]; then
	export QEMU72=/opt/qemu72/qemu-system-x86_64
fi

result() { # status name [detail]
	case $1 in
	PASS) pass=$((pass + 1)) ;;
	FAIL) fail=$((fail + 1)) ;;
	SKIP) skip=$((skip + 1)) ;;
	esac
	printf '%s %s%s\n' "$1" "$2" "${3:+: $3}"
}

parts=" ${*:-host build tools hosted qemu bochs docs} "
for p in $parts; do
	case $p in host|build|tools|hosted|qemu|bochs|docs) ;; *) echo "run-all: unknown part '$p' (host, build, tools, hosted, qemu, bochs, docs)" >&2; exit 2 ;; esac
done
part() { [[ $parts == *" $1 "* ]]; }

if part host; then
echo "== host unit tests"
for t in "$BUILD"/host/test_*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	out=$(CMOCKA_MESSAGE_OUTPUT=tap timeout 300 "$t" 2>&1)
	rc=$?
	n_ok=$(printf '%s\n' "$out" | grep -cE '^ok [0-9]+')
	n_bad=$(printf '%s\n' "$out" | grep -cE '^not ok [0-9]+')
	printf '%s\n' "$out" | grep -E '^not ok' | sed "s/^/  $name: /"
	pass=$((pass + n_ok)); fail=$((fail + n_bad))
	if [ "$rc" != 0 ] && [ "$n_bad" = 0 ]; then
		result FAIL "$name" "exit status $rc without a failing case (crash?)"
		printf '%s\n' "$out" | tail -n 5 | sed 's/^/    /'
	else
		echo "$name: $n_ok passed, $n_bad failed"
	fi
done
fi

if part build; then
echo "== build properties"
rm -rf "$BUILD/repro"
if make -s BUILD="$BUILD/repro" "$BUILD/repro/ringlab.elf" >/dev/null 2>&1 &&
   cmp -s "$BUILD/ringlab.elf" "$BUILD/repro/ringlab.elf"; then
	result PASS reproducible-elf
else
	result FAIL reproducible-elf "a second build of the same tree gives a different ELF"
fi
rm -rf "$BUILD/repro"
while IFS= read -r line; do
	status=${line%% *} rest=${line#* }
	name=${rest%%:*} detail=""
	[ "$name" != "$rest" ] && detail=${rest#*: }
	result "$status" "$name" "$detail"
done < <(tests/host/check-encodings.sh "$BUILD/ringlab.elf")
# The platform seam: hosted suites include only kernel/test.h,
# kernel/platform.h and lib/ (tests/host/check-seam.sh) ...
while IFS= read -r line; do
	status=${line%% *} rest=${line#* }
	name=${rest%%:*} detail=""
	[ "$name" != "$rest" ] && detail=${rest#*: }
	result "$status" "$name" "$detail"
done < <(tests/host/check-seam.sh)
# ... and the check does catch a suite that reaches below the seam.
ctl=$(mktemp -d)/planted.c
printf '#include "kernel/test.h"\n#include "arch/x86/percpu.h"\nSUITE_HOSTED(planted, 1, "x");\n' >"$ctl"
if tests/host/check-seam.sh "$ctl" | grep -q '^FAIL seam-planted: includes #include "arch/x86/percpu.h"'; then
	result PASS seam-control
else
	result FAIL seam-control "check-seam.sh did not reject a hosted suite including arch/x86/percpu.h"
fi
rm -rf "$(dirname "$ctl")"
# ... no include circle between arch/x86's modules (the interrupt entry and
# the catch unwind reach the APIC's EOI through its registered hook), with
# a planted circle as the control
while IFS= read -r line; do
	status=${line%% *} rest=${line#* }
	name=${rest%%:*} detail=""
	[ "$name" != "$rest" ] && detail=${rest#*: }
	result "$status" "$name" "$detail"
done < <(python3 tests/host/check-include-cycles.py)
# One feature question: CPUID bits are named in the table
# (arch/x86/cpufeature.h) and decoded by its decoders (cpuinfo.c,
# meminfo.c, topology.c, cpuenv.c, pmu.c); no CPUID source text or numeric
# CPUID call elsewhere in code (comments may cite them), with a planted one.
cpuid_lits() { # files...: "file:line" of CPUID literals in code
	perl -0777 -ne '
		s{/\*.*?\*/}{ my $c = $&; $c =~ tr/\n//cd; $c }gse; s{//[^\n]*}{}g;
		my $n = 0;
		for my $l (split /\n/, $_, -1) {
			$n++;
			print "$ARGV:$n\n" if $l =~ /"[^"\n]*CPUID\.[0-9]/ ||
				$l =~ /\bcpuid(?:_native|_effective|_count)?\s*\(\s*(?:0x)?[0-9a-fA-F]+u?\s*,/;
		}
	' "$@" 2>/dev/null
}
lits=$(cpuid_lits $(git ls-files 'kernel/*.[ch]' 'suites/*.[ch]' 'suites/*/*.[ch]' 'tools/hosted/*.[ch]' 'lib/*.[ch]') | head -n 3 | tr '\n' ' ')
ctl=$(mktemp)
printf '/* CPUID.1:ECX[31] in a comment is fine */\nconst char *w = "CPU lacks SSE2 (CPUID.1:EDX[26])";\n' >"$ctl"
if [ -z "$lits" ] && [ "$(cpuid_lits "$ctl" | wc -l)" = 1 ]; then
	result PASS cpuid-literals
else
	result FAIL cpuid-literals "${lits:-the planted literal was not found}"
fi
rm -f "$ctl"
# Layering: boot/ and arch/x86/ are the hardware floor and include nothing
# from kernel/, suites/ or tests/ (they reach the log floor through arch/x86/log.h).
up=$(grep -nE '^[[:space:]]*(#|%)[[:space:]]*include[[:space:]]+"(kernel|suites|tests)/' boot/* arch/x86/* 2>/dev/null |
	head -n 3 | tr '\n' ' ')
if [ -z "$up" ]; then
	result PASS layering
else
	result FAIL layering "includes going up: $up"
fi
# Comments cite the SDM/APM or docs/, never a file outside the repository.
if cites=$(git grep -n 'x86-facts' -- . ':!tests/run-all.sh' 2>/dev/null) && [ -n "$cites" ]; then
	result FAIL repo-citations "$(printf '%s' "$cites" | head -n 3 | tr '\n' ' ')"
else
	result PASS repo-citations
fi
# Every source file says its licence in its first lines (SPDX, as the
# kernel tools do; LICENSE holds the text).
nospdx=$(git ls-files '*.c' '*.h' '*.asm' '*.py' '*.sh' '*.ld' '*.yaml' '*.jinja2' Makefile iso/grub.cfg \
		tools/ringlab-report tools/ringlab-capture tools/gen-suites-doc 'tools/lava/*' 2>/dev/null |
	while IFS= read -r f; do
		case $f in tests/host/data/*|*.md|*.txt) continue ;; esac
		[ -f "$f" ] && ! head -n 3 "$f" | grep -q 'SPDX-License-Identifier: GPL-2.0-only' && echo "$f"
	done | head -n 3 | tr '\n' ' ')
if [ -z "$nospdx" ] && [ -f LICENSE ]; then
	result PASS spdx
else
	result FAIL spdx "no SPDX-License-Identifier line in: ${nospdx:-(LICENSE missing)}"
fi
# Small files with one job each: no source file over 900 lines (split a
# longer one by job, as suites/tlb/ is).
long=$(git ls-files '*.c' '*.h' '*.asm' '*.py' '*.sh' tools/ringlab-report tools/ringlab-capture \
		tools/gen-suites-doc 2>/dev/null | grep -v '^tests/host/data/' |
	while IFS= read -r f; do
		[ -f "$f" ] && n=$(wc -l < "$f") && [ "$n" -gt 900 ] && echo "$f ($n lines)"
	done | head -n 3 | tr '\n' ' ')
if [ -z "$long" ]; then
	result PASS file-length
else
	result FAIL file-length "over 900 lines: $long"
fi
# ... and never an outside tracker's item ("issue 12"): a comment says what
# it meant, with the manual section or the repository file.
trk='[Ii]ssues?[-_ ]?#?[0-9]+'
if cites=$(git grep -nE "$trk" -- . ':!tests/run-all.sh' 2>/dev/null) && [ -n "$cites" ]; then
	result FAIL no-tracker-refs "$(printf '%s' "$cites" | head -n 3 | tr '\n' ' ')"
else
	result PASS no-tracker-refs
fi
# ... and the pattern catches each way such a reference has been written
if [ "$(printf '%s\n' 'see issue 12' 'the issue-9 case' '(issue #3)' 'Issues 4' 'an issue, 12 of them' |
	grep -cE "$trk")" = 4 ]; then
	result PASS no-tracker-refs-control
else
	result FAIL no-tracker-refs-control "the pattern '$trk' misses a planted reference or matches plain prose"
fi
# every port and MMIO write on the allow-list; fuzz harnesses
# build and run a few seconds each (SKIP without clang/libFuzzer)
while IFS= read -r line; do
	status=${line%% *} rest=${line#* }
	name=${rest%%:*} detail=""
	[ "$name" != "$rest" ] && detail=${rest#*: }
	result "$status" "$name" "$detail"
done < <(python3 tests/host/check-io.py "$BUILD/ringlab.elf"; BUILD="$BUILD" tests/fuzz/run.sh "${FUZZ_SECONDS:-3}")
fi

if part tools; then
# --- report, capture, LAVA, the boot scripts and the release directory ---
echo "== report and capture tools"
while IFS= read -r line; do
	status=${line%% *} rest=${line#* }
	name=${rest%%:*} detail=""
	[ "$name" != "$rest" ] && detail=${rest#*: }
	result "$status" "$name" "$detail"
done < <(
	# A checker that dies (a traceback, its timeout) is a failure, not a
	# few missing lines.  A non-zero exit after FAIL lines adds one more.
	checker() { # seconds name command...
		local secs=$1 name=$2; shift 2
		timeout "$secs" "$@" 2>&1
		local rc=$?
		[ $rc = 124 ] && echo "FAIL $name-exit: stopped by its ${secs} s timeout" && return
		[ $rc = 0 ] || echo "FAIL $name-exit: exited with status $rc"
	}
	checker 300 check-report tests/host/check-report.sh "$BUILD"
	checker 300 check-capture tests/host/check-capture.py "$BUILD"
	checker 300 fuzz-report /usr/bin/python3 tests/host/fuzz-report.py "$BUILD"
	checker 1200 check-lava tests/host/check-lava.sh "$BUILD"
	checker 120 check-run-tools tests/host/check-run-tools.sh "$BUILD"
	checker 300 check-dist tests/host/check-dist.sh "$BUILD"
	checker 300 check-exit-status /usr/bin/python3 tests/host/check-exit-status.py "$BUILD"
	checker 120 bench-check env BUILD="$BUILD" tools/bench-boot.sh --check)
fi

if part hosted; then
echo "== hosted run"
hl="$BUILD/test-logs/hosted.log"
mkdir -p "$BUILD/test-logs"
timeout 300 "$BUILD/ringlab-hosted" quick >"$hl" 2>&1
rc=$?
if out=$("$BUILD/logcheck" --expect-status pass --min-cases 5 --require-answers \
		--require-metric tsc_order.now.lfence_rdtsc --require-metric rdtsc.cost.rdtsc \
		--require-metric clear.bandwidth.rep_stosb.4KiB.1cpu \
		--require-metric litmus.sb.mfence --require-metric fence.alone.mfence "$hl" 2>&1) &&
   [ "$rc" = 0 ]; then
	result PASS hosted-quick "$out"
else
	result FAIL hosted-quick "exit $rc; $(printf '%s' "$out" | head -n 3 | tr '\n' ' '); log $hl"
fi
# Metric names are unique within a run (docs/log-format.md).
dups=$(sed -n 's/^[[:space:]]*# metric \([^ ]*\).*/\1/p' "$hl" | sort | uniq -d | head -n 3 | tr '\n' ' ')
if [ -z "$dups" ] && grep -q '# metric ' "$hl"; then
	result PASS hosted-unique-metrics
else
	result FAIL hosted-unique-metrics "duplicate or no metric names: ${dups:-none found}"
fi
# --help prints usage and runs nothing; a bad option stops before any suite.
out=$("$BUILD/ringlab-hosted" --help 2>&1); rc=$?
if [ "$rc" = 0 ] && [[ $out == usage:* ]] && [[ $out != *"KTAP"* ]]; then
	result PASS hosted-help
else
	result FAIL hosted-help "exit $rc; output '$(printf '%s' "$out" | head -n 1)'"
fi
for bad in --bogus -x nosuch=1; do
	out=$("$BUILD/ringlab-hosted" "$bad" quick 2>&1); rc=$?
	if [ "$rc" = 2 ] && [[ $out == *"nothing was run"* ]] && [[ $out != *"KTAP"* ]]; then
		result PASS "hosted-bad-option $bad"
	else
		result FAIL "hosted-bad-option $bad" "exit $rc; output '$(printf '%s' "$out" | head -n 2 | tr '\n' ' ')'"
	fi
done
fi

if part qemu; then
echo "== QEMU boots"
qlog="$BUILD/test-logs/qemu-run.txt"
mkdir -p "$BUILD/test-logs"
python3 tests/qemu/run.py --jobs "${QEMU_JOBS:-2}" ${QEMU_ONLY:+--only "$QEMU_ONLY"} >"$qlog" 2>&1
qrc=$?
while IFS= read -r line; do
	echo "$line"
	case $line in
	PASS\ *) pass=$((pass + 1)) ;;
	FAIL\ *) fail=$((fail + 1)) ;;
	SKIP\ *) skip=$((skip + 1)) ;;
	esac
done <"$qlog"
# A crash of the runner itself prints no FAIL line: judge by its summary.
if ! grep -qE '^qemu: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$qlog" ||
   { [ "$qrc" != 0 ] && ! grep -q '^FAIL ' "$qlog"; }; then
	result FAIL qemu-runner "tests/qemu/run.py exited $qrc without a complete summary; see $qlog"
fi
fi

if part bochs; then
echo "== Bochs boots"
# Bochs runs started together must not compete for a VNC port or a file
# (tools/run-bochs.sh "the start"): checked first, alone, before the cases.
while IFS= read -r line; do
	status=${line%% *} rest=${line#* }
	name=${rest%%:*} detail=""
	[ "$name" != "$rest" ] && detail=${rest#*: }
	result "$status" "$name" "$detail"
done < <(BUILD=$BUILD tests/host/check-bochs-start.sh)
# Each case works in its own directory and log (tools/run-bochs.sh), so
# they may run side by side; their lines are printed in case order.
bdir="$BUILD/test-logs/bochs-part"
rm -rf "$bdir"; mkdir -p "$bdir"
bcases=$(tools/bochs/case.sh --list)
bjobs=${BOCHS_JOBS:-2} running=0
for c in $bcases; do
	BUILD=$BUILD tools/bochs/case.sh "$c" >"$bdir/$c.txt" 2>&1 &
	running=$((running + 1))
	if [ "$running" -ge "$bjobs" ]; then wait -n; running=$((running - 1)); fi
done
wait
for c in $bcases; do
	n=0
	while IFS= read -r line; do
		case $line in
		PASS\ *|FAIL\ *|SKIP\ *)
			n=$((n + 1))
			status=${line%% *} rest=${line#* }
			name=${rest%%:*} detail=""
			[ "$name" != "$rest" ] && detail=${rest#*: }
			result "$status" "$name" "$detail" ;;
		*) echo "  $line" ;;
		esac
	done <"$bdir/$c.txt"
	[ "$n" != 0 ] || result FAIL "bochs-$c" "tools/bochs/case.sh printed no result; see $bdir/$c.txt"
done
fi

if part docs; then
echo "== documentation"
# The generator's own checks on a stored list output (planted differences
# must be caught), then the real one: the kernel booted with `list` under
# QEMU TCG (30 s hard timeout) against the checked-in docs/suites.md.
st=$(timeout 120 python3 tools/gen-suites-doc --self-test 2>&1); strc=$?
while IFS= read -r line; do
	status=${line%% *} rest=${line#* }
	name=${rest%%:*} detail=""
	[ "$name" != "$rest" ] && detail=${rest#*: }
	result "$status" "$name" "$detail"
done < <(printf '%s\n' "$st" | grep -E '^(PASS|FAIL|SKIP) ')
if [ "$strc" != 0 ] && ! printf '%s\n' "$st" | grep -q '^FAIL '; then
	result FAIL gen-suites-doc-self-test "exit $strc without a failing check: $(printf '%s' "$st" | tail -n 1)"
fi
out=$(timeout 60 python3 tools/gen-suites-doc --check --build "$BUILD" 2>&1)
case $? in
0) result PASS suites-doc "$out" ;;
3) result SKIP suites-doc "$out" ;;
*) result FAIL suites-doc "$(printf '%s' "$out" | head -n 1)" ;;
esac
# The seam's reference is derived from its headers (tools/gen-seam), and
# the check finds a stale one.
if out=$(python3 tools/gen-seam --check docs/seam.md 2>&1); then
	stale=$(mktemp)
	{ cat docs/seam.md; echo '| `plat_planted` | function | kernel and hosted |'; } >"$stale"
	if python3 tools/gen-seam --check "$stale" >/dev/null 2>&1; then
		result FAIL seam-doc "a planted stale docs/seam.md passed --check"
	else
		result PASS seam-doc "docs/seam.md matches kernel/test.h and kernel/platform.h"
	fi
	rm -f "$stale"
else
	result FAIL seam-doc "$out"
fi
# Every relative link in README.md and docs/*.md resolves (with a control).
while IFS= read -r line; do
	case $line in
	PASS\ *|FAIL\ *|SKIP\ *)
		status=${line%% *} rest=${line#* }
		name=${rest%%:*} detail=""
		[ "$name" != "$rest" ] && detail=${rest#*: }
		result "$status" "$name" "$detail" ;;
	*) echo "$line" ;;
	esac
done < <(timeout 60 python3 tests/host/check-doc-links.py 2>&1)
fi

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
