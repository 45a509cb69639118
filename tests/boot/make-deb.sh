#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make deb: the Debian package, built by Debian's own tooling
# (dpkg-buildpackage from debian/) in a copy of this tree, then lintian.
#
#   tests/boot/make-deb.sh        (BUILD=dir, default build)
#
# The copy (build/deb/src/ringlab-<version>/) holds the tree's files as
# they are now, committed or not, without build outputs: a source package
# of exactly what was built.  Its changelog gets a snapshot entry first:
# <changelog version>+git<commits>.g<hash>[.dirty], so each commit's
# package upgrades the last.  RINGLAB_DEB_VERSION=x sets it instead.
# Results: build/deb/ringlab_<version>_amd64.deb, .dsc, .tar.xz, .changes,
# .buildinfo and lintian.txt; build/deb/ringlab.deb links the .deb.
# Exit 0 when the package built and lintian reported no error, warning or
# info tag that debian/ does not override with a reason.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
out=$BUILD/deb
say() { echo "make-deb: $*" >&2; }
die() { say "$*"; exit 1; }

for t in dpkg-buildpackage dh lintian help2man; do
	command -v $t >/dev/null 2>&1 ||
		die "$t is missing: tools/install-deps.sh deb (debhelper, lintian, help2man, dpkg-dev)"
done

base=$(dpkg-parsechangelog -l debian/changelog -S Version)
if git rev-parse --git-dir >/dev/null 2>&1; then
	describe=$(git describe --always --dirty --tags)
	count=$(git rev-list --count HEAD)
	hash=$(git rev-parse --short HEAD)
	dirty=
	git diff --quiet HEAD -- 2>/dev/null || dirty=.dirty
	snapshot="$base+git$count.g$hash$dirty"
	date=$(git log -1 --format=%aD HEAD)
	[ -z "$dirty" ] || date=$(date -R)
else
	describe=$base snapshot=$base date=$(date -R)
fi
version=${RINGLAB_DEB_VERSION:-$snapshot}
src=$out/src/ringlab-$version
# the last build's packages go: build/deb/ holds one version
rm -rf "$out/src" "$out"/ringlab_* "$out"/ringlab-dbgsym_*
mkdir -p "$src"

# Tracked and untracked-but-not-ignored files that exist (a deleted file
# stays listed until the deletion is committed).
if git rev-parse --git-dir >/dev/null 2>&1; then
	git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
		cpio -pdm0 --quiet "$src"
else
	tar --exclude=./build --exclude=./dist --exclude=./debian/build -cf - . | tar -xf - -C "$src"
fi

if [ "$version" != "$base" ]; then
	maint=$(sed -n 's/^Maintainer: //p' debian/control)
	{
		echo "ringlab ($version) unstable; urgency=medium"
		echo
		echo "  * Snapshot of $describe (make deb)."
		echo
		echo " -- $maint  $date"
		echo
		cat debian/changelog
	} > "$src/debian/changelog"
fi

say "building ringlab $version (kernel $describe) in $src"
t0=$(date +%s)
if ! (cd "$src" && RINGLAB_VERSION=$describe dpkg-buildpackage -us -uc -j2) > "$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	die "dpkg-buildpackage failed; the whole log: $out/build.log"
fi
say "built in $(( $(date +%s) - t0 )) s"
find "$out/src" -maxdepth 1 -type f -exec mv -f {} "$out/" \;
# the copy has done its work (its .d files would only slow down make)
rm -rf "$out/src"
deb=$out/ringlab_${version}_amd64.deb
[ -f "$deb" ] || die "no $deb after the build"
ln -sfn "ringlab_${version}_amd64.deb" "$out/ringlab.deb"
echo "$version" > "$out/VERSION"

# lintian on the source and binary packages; the overrides in
# debian/ringlab.lintian-overrides and debian/source/lintian-overrides
# say why each one is there.
changes=$out/ringlab_${version}_amd64.changes
rc=0
lintian --display-info --fail-on error,warning,info "$changes" > "$out/lintian.txt" 2>&1 || rc=$?
if [ $rc != 0 ]; then
	cat "$out/lintian.txt" >&2
	die "lintian: tags above (exit $rc); $out/lintian.txt"
fi
say "lintian: clean ($(grep -c . "$out/lintian.txt" || true) lines of output)"
echo "$deb"
