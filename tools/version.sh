# SPDX-License-Identifier: GPL-2.0-only
# The version of the tree a shell tool runs from, for its --version: the
# build's version.txt ($BUILD, default build/), a release's VERSION
# (tools/make-dist.sh), `git describe`, else "unknown" -- the order
# tools/ringlab_report/ident.py's version() keeps for the Python tools.
# Sourced (". tools/version.sh"); $1 is the repository root.
ringlab_version() {
	local root=${1:-.} f v
	for f in "$root/${BUILD:-build}/version.txt" "$root/VERSION"; do
		v=$(head -n 1 "$f" 2>/dev/null) && [ -n "$v" ] && { echo "$v"; return; }
	done
	git -C "$root" describe --always --dirty --tags 2>/dev/null || echo unknown
}
