#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Bochs runs started at the same instant must not compete for anything:
# tests/run-all.sh starts its Bochs cases side by side, and Bochs 2.7's VNC
# display (the only one the Debian build can run headless) takes its port
# from a range that all of them share (tools/run-bochs.sh "the start").
# Starts RUNS short Bochs runs at once, ROUNDS times, and passes only if
# every run exited 0 with a complete log (its integrity line) of its own.
# One "PASS|FAIL|SKIP bochs-start[: detail]" line on stdout.
#
#   tests/host/check-bochs-start.sh          (BUILD=build by default)
#   BOCHS_START_RUNS=4 BOCHS_START_ROUNDS=3  (the defaults)
#   RUN_BOCHS=path   another run-bochs.sh to put to the same test
#
# Two starts collide only when one binds its port in the moment between
# the other's bind and listen, microseconds, so plain concurrent starts
# almost never show the collision.  Every round after the first therefore
# runs Bochs with listen() held back 0.5 s (an LD_PRELOAD shim built here
# with cc): without the start lock, runs that start together then collide
# every time and Bochs panics "RFB could not bind any port".
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
runs=${BOCHS_START_RUNS:-4} rounds=${BOCHS_START_ROUNDS:-3}
run_bochs=${RUN_BOCHS:-tools/run-bochs.sh}
name=bochs-start

real=$(command -v bochs-bin || command -v bochs) || {
	echo "SKIP $name: bochs is not installed (tools/install-deps.sh test installs it)"
	exit 0
}
for f in "$BUILD/ringlab.elf" "$BUILD/logcheck"; do
	[ -e "$f" ] || { echo "FAIL $name: $f is missing (make BUILD=$BUILD all $BUILD/logcheck)"; exit 0; }
done

mkdir -p "$BUILD/test-logs"
dir=$(mktemp -d "$BUILD/test-logs/bochs-start.XXXXXX") || { echo "FAIL $name: cannot make a directory under $BUILD/test-logs"; exit 0; }
rel=$dir dir=$(cd "$dir" && pwd)

# The slow-listen shim, and a bochs-bin ahead in PATH that loads it.
mkdir -p "$dir/bin"
cat >"$dir/slow-listen.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <unistd.h>

/* listen() half a second late: the gap between a VNC port's bind and
 * listen, where a second Bochs can bind the same port, made wide. */
int listen(int fd, int backlog)
{
	static int (*next)(int, int);

	if (!next)
		next = (int (*)(int, int))dlsym(RTLD_NEXT, "listen");
	usleep(500000);
	return next(fd, backlog);
}
EOF
slow=""
if cc -shared -fPIC -O2 -o "$dir/slow-listen.so" "$dir/slow-listen.c" -ldl >"$dir/cc.txt" 2>&1; then
	printf '#!/bin/sh\nLD_PRELOAD="%s${LD_PRELOAD:+:$LD_PRELOAD}" exec "%s" "$@"\n' \
		"$dir/slow-listen.so" "$real" >"$dir/bin/bochs-bin"
	chmod +x "$dir/bin/bochs-bin"
	slow=1
fi

t0=$(date +%s)
bad="" nbad=0 logs=() ports=()
for r in $(seq 1 "$rounds"); do
	path=$PATH how="" pids=()
	if [ "$r" -gt 1 ] && [ -n "$slow" ]; then
		path=$dir/bin:$PATH how=" (listen held back)"
	fi
	# The shortest complete ringlab run: the boot suite, quick, one CPU,
	# ~3 s alone.  The timeouts allow for a host busy with other emulators.
	for i in $(seq 1 "$runs"); do
		PATH=$path BUILD=$BUILD timeout 150 "$run_bochs" --quiet --smp 1 \
			--append "tests=boot quick" --timeout 120 >"$dir/$r.$i.txt" 2>&1 &
		pids+=($!)
	done
	for i in $(seq 1 "$runs"); do
		wait "${pids[$((i - 1))]}"
		echo $? >"$dir/$r.$i.rc"
	done
	for i in $(seq 1 "$runs"); do
		out="$rel/$r.$i.txt" rc=$(cat "$dir/$r.$i.rc")
		log=$(sed -n 's/^run-bochs: .*; log \(.*\)$/\1/p' "$out" | head -n 1)
		[ -n "$log" ] && logs+=("$log")
		port=$(sed -n 's/.*listening for connections on port \([0-9]*\).*/\1/p' "$log.bochs.txt" 2>/dev/null | head -n 1)
		[ -n "$port" ] && ports+=("$port")
		why=""
		if [ "$rc" != 0 ]; then
			why="exit $rc"
		elif [ -z "$log" ] || ! grep -qaE '^# integrity: lines=[0-9]+ crc32=[0-9a-f]{8}' "$log"; then
			why="no integrity line"
		fi
		if [ -n "$why" ]; then
			nbad=$((nbad + 1))
			panic=$(grep -ahm1 '>>PANIC<<' "$log.bochs.txt" 2>/dev/null | sed 's/^.*>>PANIC<< *//')
			# the first failure in full, then only where the others are
			if [ -z "$bad" ]; then
				bad="round $r$how run $i: $why${panic:+ (Bochs: $panic)}, see $out"
			else
				bad+=", $r.$i: $why"
			fi
		fi
	done
done
secs=$(($(date +%s) - t0))
[ "$nbad" = 0 ] || bad="$nbad of $((runs * rounds)) runs failed: $bad"
# Each run its own log: none of them may have written into another's.
dup=$(printf '%s\n' "${logs[@]}" | sort | uniq -d | head -n 1)
[ -n "$dup" ] && bad+="${bad:+; }two runs share the log $dup"
[ "${#logs[@]}" = $((runs * rounds)) ] || bad+="${bad:+; }${#logs[@]} of $((runs * rounds)) runs named a log"
span=$(printf '%s\n' "${ports[@]}" | sort -n | sed -n '1p;$p' | uniq | paste -sd- -)
if [ "$rounds" -lt 2 ]; then
	note="no round with listen held back"
elif [ -n "$slow" ]; then
	note="rounds 2-$rounds with listen held back 0.5 s"
else
	note="listen not held back: cc could not build the shim ($(head -n 1 "$dir/cc.txt"))"
fi
if [ -z "$bad" ]; then
	echo "PASS $name: $rounds rounds of $runs Bochs started at once, each exit 0 with a complete log of its own (VNC ports ${span:-?}; $note); ${secs}s"
	for l in "${logs[@]}"; do rm -f "$l" "$l.bochs.txt"; done
	rm -rf "$dir"
else
	echo "FAIL $name: $bad; ${secs}s"
fi
exit 0
