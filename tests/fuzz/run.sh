#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Run the libFuzzer harnesses built by `make fuzz`.
#   tests/fuzz/run.sh [SECONDS] [RUNS]    each harness for SECONDS (default
#                                         3) or RUNS executions if given
# Prints one "PASS|FAIL|SKIP fuzz-<name>: ..." line per harness with its
# executions and coverage (libFuzzer "cov:" = covered edges, "ft:" =
# features).  Crash inputs are kept in build/fuzz/crash-<name>-*; turn each
# into a host unit test.  Long run:
#   nice tests/fuzz/run.sh 36000 10000000
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
secs=${1:-3}
runs=${2:-}
fuzzers="mbi acpi cmdline logcheck physrange smbios"

if ! command -v "${FUZZCC:-clang}" >/dev/null 2>&1; then
	for f in $fuzzers; do echo "SKIP fuzz-$f: clang not installed (Debian: clang)"; done
	exit 0
fi
if ! echo 'int LLVMFuzzerTestOneInput(const char *d, long n){(void)d;(void)n;return 0;}' |
	"${FUZZCC:-clang}" -fsanitize=fuzzer -x c - -o "$BUILD/.fuzz-probe" >/dev/null 2>&1; then
	for f in $fuzzers; do echo "SKIP fuzz-$f: ${FUZZCC:-clang} has no libFuzzer (-fsanitize=fuzzer; Debian: libclang-rt-dev or clang's compiler-rt)"; done
	exit 0
fi
rm -f "$BUILD/.fuzz-probe"
if ! make -s BUILD="$BUILD" fuzz >"$BUILD/fuzz-build.log" 2>&1; then
	for f in $fuzzers; do echo "FAIL fuzz-$f: make fuzz failed; see $BUILD/fuzz-build.log"; done
	exit 1
fi
rc=0
for f in $fuzzers; do
	corpus="$BUILD/fuzz/corpus/$f"
	rm -rf "$BUILD/fuzz/seeds"
	python3 tests/fuzz/seeds.py "$BUILD/fuzz/seeds"
	mkdir -p "$corpus"
	cp -n "$BUILD/fuzz/seeds/$f"/* "$corpus/" 2>/dev/null
	log="$BUILD/fuzz/$f.log"
	args=(-max_total_time="$secs" -print_final_stats=1 -rss_limit_mb=2048 -max_len=65536
	      -artifact_prefix="$BUILD/fuzz/crash-$f-")
	[ -n "$runs" ] && args+=(-runs="$runs")
	"$BUILD/fuzz/fuzz_$f" "${args[@]}" "$corpus" >"$log" 2>&1
	frc=$?
	execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
	cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
	if [ "$frc" = 0 ]; then
		echo "PASS fuzz-$f: ${execs:-?} executions, ${cov:-cov: ?}, corpus $(ls "$corpus" | wc -l) inputs, ${secs}s"
	else
		rc=1
		echo "FAIL fuzz-$f: libFuzzer exit $frc after ${execs:-?} executions; $(grep -m1 -E 'ERROR|runtime error|deadly' "$log"); log $log"
	fi
done
exit $rc
