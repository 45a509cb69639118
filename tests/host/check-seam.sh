#!/usr/bin/env bash
# The platform seam (kernel/test.h): a suite marked SUITE_HOSTED may include
# only the seam headers, lib/ and the freestanding C headers, so that it
# builds unchanged into ringlab-hosted.  One line per suite file:
# "PASS seam-<suite>" or "FAIL seam-<suite>: includes X".
#
#   tests/host/check-seam.sh [FILE...]    (default: every SUITE_HOSTED file)
set -u
cd "$(dirname "$0")/../.."
allowed='^#[[:space:]]*include[[:space:]]+("kernel/test\.h"|"kernel/platform\.h"|"lib/[a-z0-9_]+\.h"|<(stdbool|stddef|stdint|stdarg)\.h>)'
files=("$@")
if [ ${#files[@]} = 0 ]; then
	mapfile -t files < <(grep -lw '^SUITE_HOSTED' tests/*.c)
fi
if [ ${#files[@]} = 0 ]; then
	echo "FAIL seam: no SUITE_HOSTED suite found"
	exit 0
fi
for f in "${files[@]}"; do
	name=seam-$(basename "$f" .c)
	bad=$(grep -E '^#[[:space:]]*include' "$f" | grep -vE "$allowed" | tr -s ' \t' ' ' | paste -sd, -)
	if ! grep -qw '^SUITE_HOSTED' "$f"; then
		echo "FAIL $name: not a SUITE_HOSTED file"
	elif [ -n "$bad" ]; then
		echo "FAIL $name: includes $bad (hosted suites use only kernel/test.h, kernel/platform.h and lib/)"
	elif grep -qE '^#[[:space:]]*if(n?def)?[[:space:]].*RINGLAB_(USER|HOST)' "$f"; then
		echo "FAIL $name: #ifdef on the build (hosted suites build unchanged)"
	else
		echo "PASS $name"
	fi
done
