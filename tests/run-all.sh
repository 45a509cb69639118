#!/usr/bin/env bash
# `make test`: every check ringlab has, each reported as PASS/FAIL/SKIP on
# its own line, closing with "N passed, N failed, N skipped".
#   1. host unit tests (cmocka) of lib/ and every parser, one check per case
#   2. build properties: reproducible ELF, instruction encodings
#   3. ringlab-hosted run natively (real numbers on this machine)
#   4. QEMU boots (tests/qemu/run.py), each under a hard timeout
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

# --- report and capture tools (issue 11) ---
echo "== report and capture tools"
while IFS= read -r line; do
	status=${line%% *} rest=${line#* }
	name=${rest%%:*} detail=""
	[ "$name" != "$rest" ] && detail=${rest#*: }
	result "$status" "$name" "$detail"
done < <(tests/host/check-report.sh "$BUILD" 2>&1; timeout 300 tests/host/check-capture.py "$BUILD" 2>&1
	  timeout 1200 tests/host/check-lava.sh "$BUILD" 2>&1)

echo "== hosted run"
hl="$BUILD/test-logs/hosted.log"
mkdir -p "$BUILD/test-logs"
timeout 300 "$BUILD/ringlab-hosted" quick >"$hl" 2>&1
rc=$?
if out=$("$BUILD/logcheck" --expect-status pass --min-cases 5 \
		--require-metric tsc_order.now.lfence_rdtsc --require-metric rdtsc.cost.rdtsc "$hl" 2>&1) &&
   [ "$rc" = 0 ]; then
	result PASS hosted-quick "$out"
else
	result FAIL hosted-quick "exit $rc; $(printf '%s' "$out" | head -n 3 | tr '\n' ' '); log $hl"
fi

echo "== QEMU boots"
qlog="$BUILD/test-logs/qemu-run.txt"
python3 tests/qemu/run.py --jobs "${QEMU_JOBS:-2}" >"$qlog" 2>&1
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

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
