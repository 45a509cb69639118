#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Line coverage of each parser reached by a fuzz corpus (llvm-cov).
#   tests/fuzz/coverage.sh [CORPUS_ROOT]    default build/fuzz/corpus
# Builds build/fuzz/cov/fuzz_<name> with clang source-based coverage,
# replays the corpus (no fuzzing) and prints one line per harness:
# "<name>: <file> lines <covered>/<total> (<pct>%)".
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
root=${1:-$BUILD/fuzz/corpus}
command -v llvm-cov >/dev/null && command -v llvm-profdata >/dev/null ||
	{ echo "SKIP fuzz-coverage: llvm-cov/llvm-profdata not installed (Debian: llvm)"; exit 0; }
# the log parser is every tools/liblogcheck/*.c (the Makefile's LOGCHECK_LIB)
logcheck_lib=$(echo tools/liblogcheck/*.c)
declare -A deps=(
	[mbi]="kernel/mbi.c lib/string.c lib/printf.c tests/fuzz/fuzz_phys.c"
	[acpi]="arch/x86/acpi.c arch/x86/acpi_spcr.c arch/x86/mptable.c lib/string.c lib/printf.c tests/fuzz/fuzz_phys.c"
	[cmdline]="kernel/cmdline.c lib/string.c lib/printf.c lib/parse.c"
	[logcheck]="$logcheck_lib lib/string.c lib/printf.c lib/crc32.c lib/parse.c"
	[physrange]="lib/physrange.c"
	[smbios]="arch/x86/smbios.c lib/string.c lib/printf.c tests/fuzz/fuzz_phys.c"
)
declare -A target=([mbi]="kernel/mbi.c" [acpi]="arch/x86/acpi.c arch/x86/acpi_spcr.c arch/x86/mptable.c"
	[cmdline]="kernel/cmdline.c" [logcheck]="$logcheck_lib" [physrange]="lib/physrange.c"
	[smbios]="arch/x86/smbios.c")
mkdir -p "$BUILD/fuzz/cov"
for f in mbi acpi cmdline logcheck physrange smbios; do
	[ -d "$root/$f" ] || { echo "$f: no corpus in $root/$f"; continue; }
	bin="$BUILD/fuzz/cov/fuzz_$f"
	# shellcheck disable=SC2086
	clang -std=gnu11 -O1 -g -I. -DRINGLAB_HOST -fsanitize=fuzzer -fprofile-instr-generate \
		-fcoverage-mapping -o "$bin" "tests/fuzz/fuzz_$f.c" ${deps[$f]} || continue
	LLVM_PROFILE_FILE="$bin.profraw" "$bin" -runs=0 "$root/$f" >/dev/null 2>&1
	llvm-profdata merge -sparse "$bin.profraw" -o "$bin.profdata"
	for t in ${target[$f]}; do
		llvm-cov report "$bin" -instr-profile="$bin.profdata" "$t" 2>/dev/null |
			awk -v n="$f" -v t="$t" '$1 ~ t {print n ": " t " lines " ($8-$9) "/" $8 " (" $10 "), regions " $4}'
	done
done
