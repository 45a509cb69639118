#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make dist: the release directory holds what a lab keeps and re-flashes
# (the man pages of the host tools among it),
# its checksums verify (and catch a planted corrupt byte), a release is
# never overwritten, an uncommitted tree is refused, and the tools inside
# run from there with no further build (logcheck judges a log; run-qemu.sh
# boots the release's own ELF, whatever BUILD the caller has set).
#   tests/host/check-dist.sh BUILD     prints PASS/FAIL lines
set -u
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the build's own version (make-dist checks the ELF carries it)
ver=$(cat "$BUILD/version.txt" 2>/dev/null || echo unknown)

# the man pages a release carries (make dist runs make man first)
man_out=$(tools/gen-man "$BUILD" "$BUILD/man" 2>&1); man_rc=$?
out=$(DIST_ALLOW_DIRTY=1 tools/make-dist.sh "$BUILD" "$ver" "$tmp" 2>&1); rc=$?
rel=$tmp/ringlab-$ver
if [ $rc = 0 ] && [ -f "$rel/ringlab-$ver.iso" ] && [ -f "$rel/ringlab-$ver.elf" ] &&
   [ -x "$rel/build/logcheck" ] && [ -x "$rel/tools/ringlab-report" ] && [ -f "$rel/SHA256SUMS" ] &&
   [ -f "$rel/tools/ringlab_report/cli.py" ] && ! [ -e "$rel/tools/ringlab_report/__pycache__" ] &&
   [ -f "$tmp/ringlab-$ver.tar.gz" ] && grep -qx "$ver" "$rel/VERSION"; then
	pass dist-layout
else
	fail dist-layout "exit $rc: $out"
fi
# a man page per host tool (tools/gen-man --list), each rendering with the
# tool's options and the exit statuses
bad=""
[ "$man_rc" = 0 ] || bad="gen-man: exit $man_rc: $man_out;"
while read -r page tool; do
	f=$rel/man/man1/$page
	if [ ! -s "$f" ]; then bad="$bad $page missing;"; continue; fi
	txt=$(MANWIDTH=100 man -l "$f" 2>/dev/null)
	grep -q '^EXIT STATUS' <<<"$txt" && grep -q -- '--help' <<<"$txt" && grep -q -- '--version' <<<"$txt" ||
		bad="$bad $page lacks its options or exit statuses;"
	grep -q "man/man1/$page" "$rel/SHA256SUMS" || bad="$bad $page not in SHA256SUMS;"
done < <(tools/gen-man --list)
n=$(tools/gen-man --list | wc -l)
if [ -z "$bad" ] && [ "$n" -ge 10 ]; then
	pass dist-man-pages
else
	fail dist-man-pages "${bad:- only $n pages listed}"
fi
(cd "$rel" && sha256sum --quiet -c SHA256SUMS) >/dev/null 2>&1 && pass dist-checksums ||
	fail dist-checksums "sha256sum -c SHA256SUMS failed in a fresh release"
grep -q "ringlab-$ver.iso" "$rel/SHA256SUMS" && grep -q 'build/logcheck' "$rel/SHA256SUMS" &&
	grep -q 'tools/ringlab_report/cli.py' "$rel/SHA256SUMS" &&
	pass dist-checksums-cover || fail dist-checksums-cover "SHA256SUMS misses the ISO, logcheck or ringlab-report's code"
(cd "$tmp" && sha256sum --quiet -c "ringlab-$ver.tar.gz.sha256") >/dev/null 2>&1 &&
	pass dist-tarball-checksum || fail dist-tarball-checksum "the tarball's .sha256 does not verify"

# the control: one flipped byte in a copy of the release must fail the check
cp -a "$rel" "$tmp/corrupt"
printf '\x55' | dd of="$tmp/corrupt/ringlab-$ver.iso" bs=1 seek=40000 conv=notrunc status=none
if (cd "$tmp/corrupt" && sha256sum --quiet -c SHA256SUMS) >/dev/null 2>&1; then
	fail dist-checksums-control "a corrupted ISO still verified"
else
	pass dist-checksums-control
fi
rm -rf "$tmp/corrupt"

out=$(DIST_ALLOW_DIRTY=1 tools/make-dist.sh "$BUILD" "$ver" "$tmp" 2>&1); rc=$?
[ $rc = 1 ] && grep -q 'never overwritten' <<<"$out" && pass dist-no-overwrite ||
	fail dist-no-overwrite "exit $rc: $out"
out=$(tools/make-dist.sh "$BUILD" "$ver-dirty" "$tmp" 2>&1); rc=$?
[ $rc = 1 ] && grep -q 'uncommitted' <<<"$out" && [ ! -e "$tmp/ringlab-$ver-dirty" ] &&
	pass dist-refuses-dirty || fail dist-refuses-dirty "exit $rc: $out"
out=$(DIST_ALLOW_DIRTY=1 tools/make-dist.sh "$BUILD" "stale-0.1" "$tmp" 2>&1); rc=$?
[ $rc = 1 ] && grep -q 'is not version stale-0.1' <<<"$out" && [ ! -e "$tmp/ringlab-stale-0.1" ] &&
	pass dist-refuses-stale-build || fail dist-refuses-stale-build "exit $rc: $out"
out=$(tools/make-dist.sh "$tmp/nothing" "$ver.2" "$tmp" 2>&1); rc=$?
[ $rc = 1 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q 'missing' <<<"$out" &&
	pass dist-missing-build || fail dist-missing-build "exit $rc: $out"

# the tools run from the release: a boot of its own ELF, judged by its logcheck
out=$(cd "$rel" && BUILD=build timeout 120 tools/run-qemu.sh --accel tcg --smp 2 --mem 256M \
	--append "quick tests=boot" --timeout 90 2>&1); rc=$?
[ $rc = 0 ] && ls "$rel"/build/logs/*.log >/dev/null 2>&1 && pass dist-tools-run ||
	fail dist-tools-run "run-qemu.sh from the release: exit $rc: $(tail -n 3 <<<"$out")"
log=$(ls "$rel"/build/logs/*.log 2>/dev/null | head -n1)
if [ -n "$log" ] && (cd "$rel" && BUILD=build tools/ringlab-report check "$log") >/dev/null 2>&1; then
	pass dist-report-runs
else
	fail dist-report-runs "ringlab-report from the release could not judge $log"
fi
# ringlab-report's code is the package beside it (tools/ringlab_report/):
# from a copy of the release in another directory (a release moves as a
# whole) the text report must work with the release's own logcheck; the
# control, the same copy without the package, must give one error line
# and exit 2 (so the checks above would see a release that lacks it).
if [ -n "$log" ]; then
	cp -a "$rel" "$tmp/moved"
	out=$(cd "$tmp/moved" && tools/ringlab-report text "$log" 2>&1); rc=$?
	[ $rc = 0 ] && grep -q '^ringlab run: ' <<<"$out" && pass dist-report-package ||
		fail dist-report-package "text report from a moved release: exit $rc: $(head -n 3 <<<"$out")"
	rm -rf "$tmp/moved/tools/ringlab_report"
	out=$(cd "$tmp/moved" && tools/ringlab-report check "$log" 2>&1); rc=$?
	[ $rc = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q '^ringlab-report: error: cannot load its code' <<<"$out" &&
		pass dist-report-package-control ||
		fail dist-report-package-control "without tools/ringlab_report: exit $rc: $(head -n 3 <<<"$out")"
	rm -rf "$tmp/moved"
fi
