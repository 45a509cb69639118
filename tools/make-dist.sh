#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make dist: a release directory a lab can keep and re-flash, named by
# version (git describe), and a tarball of it:
#
#   dist/ringlab-<version>/
#     ringlab-<version>.iso  ringlab-<version>.elf    what gets flashed / booted
#     build/ringlab.iso  build/ringlab.elf            links to the two above, so
#     build/logcheck  build/ringlab-hosted            the tools run unchanged here
#     tools/  (run-qemu.sh, run-bochs.sh, version.sh, ringlab-report + ringlab_report/,
#             ringlab-capture, lava/)
#     man/man1/*.1                                    the host tools' man pages
#                                                     (make man; MANPATH=man man logcheck)
#     README.md  LICENSE  docs/
#     VERSION  BUILDINFO (commit, compiler, GRUB, xorriso, date)
#     SHA256SUMS  (every regular file above; check with: sha256sum -c SHA256SUMS)
#   dist/ringlab-<version>.tar.gz  and its .sha256
#
#   tools/make-dist.sh BUILD_DIR VERSION [DIST_DIR]
#
# A tree with uncommitted changes ("-dirty" version) is refused: a kept image
# must name the commit it came from.  DIST_ALLOW_DIRTY=1 overrides that (for
# the project's own check).  An existing release directory of the same
# version is refused rather than overwritten.  Exit: 0 done, 1 refused or
# failed (one line on stderr saying why).
set -eu
die() { echo "make-dist: $*" >&2; exit 1; }
[ $# -ge 2 ] || die "usage: tools/make-dist.sh BUILD_DIR VERSION [DIST_DIR]"
build=$1 version=$2 dist=${3:-dist}
cd "$(dirname "$0")/.."

case $version in
''|unknown) die "no version (git describe failed): build from a git clone" ;;
*-dirty) [ "${DIST_ALLOW_DIRTY:-0}" = 1 ] ||
	die "version $version has uncommitted changes: commit them, or set DIST_ALLOW_DIRTY=1" ;;
esac
case $version in
*[!A-Za-z0-9._+-]*) die "version '$version' has characters a file name should not" ;;
esac
for f in ringlab.iso ringlab.elf logcheck; do
	[ -f "$build/$f" ] || die "$build/$f missing (run: make BUILD=$build all)"
done
ls "$build"/man/*.1 >/dev/null 2>&1 || die "$build/man/*.1 missing (run: make BUILD=$build man)"
# Not only the version's word for it: the tree itself, and the build must
# be of this version (a stale build dir would ship another kernel).
if [ "${DIST_ALLOW_DIRTY:-0}" != 1 ] && git rev-parse --git-dir >/dev/null 2>&1 &&
   ! git diff --quiet HEAD -- 2>/dev/null; then
	die "the tree has uncommitted changes: commit them, or set DIST_ALLOW_DIRTY=1"
fi
grep -aqF "$version" "$build/ringlab.elf" ||
	die "$build/ringlab.elf is not version $version (rebuild: make BUILD=$build all)"

name=ringlab-$version
out=$dist/$name
[ -e "$out" ] && die "$out exists: a release is never overwritten (remove it first)"
mkdir -p "$out/build" "$out/tools" "$out/docs" "$out/man/man1"
tmp=$out.partial
trap 'rm -rf "$out" "$tmp"' ERR

cp "$build/ringlab.iso" "$out/$name.iso"
cp "$build/ringlab.elf" "$out/$name.elf"
ln -s "../$name.iso" "$out/build/ringlab.iso"
ln -s "../$name.elf" "$out/build/ringlab.elf"
cp "$build/logcheck" "$out/build/logcheck"
[ -x "$build/ringlab-hosted" ] && cp "$build/ringlab-hosted" "$out/build/ringlab-hosted"
for t in run-qemu.sh run-bochs.sh version.sh ringlab-report ringlab-capture; do
	[ -f "tools/$t" ] && cp -p "tools/$t" "$out/tools/$t"
done
# ringlab-report's code: the package beside it (its sources only, no
# __pycache__ from runs in this tree)
mkdir -p "$out/tools/ringlab_report"
cp -p tools/ringlab_report/*.py "$out/tools/ringlab_report/"
[ -d tools/bochs ] && cp -rp tools/bochs "$out/tools/bochs"
[ -d tools/lava ] && cp -rp tools/lava "$out/tools/lava"
cp "$build"/man/*.1 "$out/man/man1/"
cp README.md "$out/"
[ -f LICENSE ] && cp LICENSE "$out/"
cp -r docs/. "$out/docs/"

echo "$version" > "$out/VERSION"
{
	echo "version: $version"
	echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
	echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "compiler: $(${CC:-cc} --version 2>/dev/null | head -n1)"
	echo "nasm: $(nasm -v 2>/dev/null | head -n1)"
	echo "grub-mkrescue: $(grub-mkrescue --version 2>/dev/null | head -n1)"
	echo "xorriso: $(xorriso -version 2>/dev/null | head -n1)"
} > "$out/BUILDINFO"

(cd "$out" && find . -type f ! -name SHA256SUMS -printf '%P\n' | LC_ALL=C sort |
	xargs -d '\n' sha256sum > SHA256SUMS)
tar -C "$dist" --sort=name --owner=0 --group=0 --numeric-owner -czf "$dist/$name.tar.gz" "$name"
(cd "$dist" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")
trap - ERR
echo "make-dist: $out/ ($(wc -l < "$out/SHA256SUMS") files in SHA256SUMS) and $dist/$name.tar.gz"
