#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The platform seam (kernel/test.h, kernel/platform.h): what a suite file
# may use of the kernel.  One line per suite file: "PASS seam-<suite>" or
# "FAIL seam-<suite>: <why>"; a file of a suite split over a directory is
# seam-<dir>-<file> (suites/tlb/local.c is seam-tlb-local, its header
# suites/tlb/tlb.h seam-tlb-tlb.h).
#
# Suite files: suites/*.c, and every .c and .h of each suite directory
# suites/<dir>/ that has a suite.c (the Makefile's SUITE_DIRS: suites/tlb/,
# suites/spec/, suites/litmus/, ...).  Each includes only
#   "kernel/test.h", "kernel/platform.h", "lib/*.h", "arch/x86/*.h" (the
#   hardware it exercises), its own suite-local header ("suites/<dir>/*.h"
#   for suites/<dir>/, "suites/<suite>/*.h" for suites/<suite>.c) and
#   <stdbool.h> <stddef.h> <stdint.h> <stdarg.h>;
# and reads no kernel global (boot_cpu, boot_info, boot_options, acpi,
#   boot_in_qemu, ringlab_version: the plat_*() accessors give them) and
#   asks "is this virtual?" only through plat_under_emulator()/plat_env()
#   (no cpuinfo .hypervisor / .hv_signature, no plat_mem_info .hypervisor).
# A SUITE_HOSTED file -- and every file of a suite directory whose suite.c
#   says SUITE_HOSTED, since the Makefile builds them all into
#   ringlab-hosted -- keeps the stricter rule: only kernel/test.h,
#   kernel/platform.h, lib/, the C headers and (in a suite directory) its
#   own header, no arch/x86 either, and no #ifdef on the build, so that it
#   builds unchanged into ringlab-hosted.
#
#   tests/host/check-seam.sh [FILE...]    (default: every suite file, then
#                                          the planted controls below)
set -u
cd "$(dirname "$0")/../.." || { echo "FAIL seam: cannot enter the repository root"; exit 1; }
std='<(stdbool|stddef|stdint|stdarg)\.h>'
hosted_allowed="^#[[:space:]]*include[[:space:]]+(\"kernel/test\\.h\"|\"kernel/platform\\.h\"|\"lib/[a-z0-9_]+\\.h\"|$std)"
# Perl regexps over the code: a global is the bare identifier (not a
# member, not a struct tag, not a call); the virtual question is a member.
globals='(?<![\w.>])(?<!struct )(?:boot_cpu|boot_info|boot_options|acpi|boot_in_qemu|ringlab_version)\b(?!\s*\()'
virt='(?:\.|->)(?:hypervisor|hv_signature)\b'

# "line: text" of the first uses of regexp $2 in file $1's code: comments,
# string literals and #include lines removed (newlines kept), so that prose
# naming a global or a header is not taken for a use of it.
uses_of() {
	RE=$2 perl -0777 -ne '
		s{/\*.*?\*/}{ my $c = $&; $c =~ tr/\n//cd; $c }gse;
		s{//[^\n]*}{}g; s{"(?:\\.|[^"\\\n])*"}{""}g; s{^#[ \t]*include[^\n]*}{}mg;
		my $n = 0; my @hits;
		for my $l (split /\n/, $_, -1) {
			$n++;
			if ($l =~ /$ENV{RE}/) { (my $t = $l) =~ s/\s+/ /g; push @hits, "$n:$t"; }
		}
		print join("|", @hits[0 .. ($#hits < 2 ? $#hits : 2)]);
	' "$1"
}

# The suite files under root $1 (default .), one per line: suites/*.c, then
# each suite directory's .c and .h files.
suite_files() {
	local root=${1:-.} f d
	for f in "$root"/suites/*.c; do
		[ -f "$f" ] && echo "${f#./}"
	done
	for d in "$root"/suites/*/; do
		[ -f "$d/suite.c" ] || continue
		for f in "$d"*.c "$d"*.h; do
			[ -f "$f" ] && echo "${f#./}"
		done
	done
}

check_file() {
	local f=$1 base dir name local_hdr allowed bad uses hosted=false indir=false
	base=$(basename "$f")
	base=${base%.c}
	dir=$(basename "$(dirname "$f")")
	if [ "$(basename "$(dirname "$(dirname "$f")")")" = suites ] && [ -f "$(dirname "$f")/suite.c" ]; then
		# a suite split over suites/<dir>/ (suites/tlb/): suite.c says
		# whether all of it is hosted
		indir=true
		name=seam-$dir-$base
		local_hdr="suites/$dir/[a-z0-9_]+\\.h"
		grep -qw '^SUITE_HOSTED' "$(dirname "$f")/suite.c" && hosted=true
	else
		name=seam-$base
		local_hdr="suites/$base/[a-z0-9_]+\\.h"
	fi
	if [ ! -r "$f" ]; then
		echo "FAIL $name: cannot read $f"
		return
	fi
	grep -qw '^SUITE_HOSTED' "$f" && hosted=true
	if $hosted; then
		allowed=$hosted_allowed
		# a hosted directory's files may include its own header (checked
		# as a file of the directory too)
		$indir && allowed="^#[[:space:]]*include[[:space:]]+(\"$local_hdr\")|$hosted_allowed"
		bad=$(grep -E '^#[[:space:]]*include' "$f" | grep -vE "$allowed" | tr -s ' \t' ' ' | paste -sd, -)
		if [ -n "$bad" ]; then
			echo "FAIL $name: includes $bad (hosted suites use only kernel/test.h, kernel/platform.h, lib/ and their own header)"
			return
		fi
		if grep -qE '^#[[:space:]]*if(n?def)?[[:space:]].*RINGLAB_(USER|HOST)' "$f"; then
			echo "FAIL $name: #ifdef on the build (hosted suites build unchanged)"
			return
		fi
	else
		allowed="^#[[:space:]]*include[[:space:]]+(\"kernel/test\\.h\"|\"kernel/platform\\.h\"|\"lib/[a-z0-9_]+\\.h\"|\"arch/x86/[a-z0-9_-]+\\.h\"|\"$local_hdr\"|$std)"
		bad=$(grep -E '^#[[:space:]]*include' "$f" | grep -vE "$allowed" | tr -s ' \t' ' ' | paste -sd, -)
		if [ -n "$bad" ]; then
			echo "FAIL $name: includes $bad (suites use kernel/test.h, kernel/platform.h, lib/, arch/x86/ and their own header only)"
			return
		fi
	fi
	uses=$(uses_of "$f" "$globals")
	if [ -n "$uses" ]; then
		echo "FAIL $name: reads a kernel global (use the plat_*() accessors): $uses"
		return
	fi
	uses=$(uses_of "$f" "$virt")
	if [ -n "$uses" ]; then
		echo "FAIL $name: asks whether it runs virtualized other than by plat_under_emulator()/plat_env(): $uses"
		return
	fi
	echo "PASS $name"
}

if [ $# -gt 0 ]; then
	for f in "$@"; do
		check_file "$f"
	done
	exit 0
fi

mapfile -t files < <(suite_files)
if [ ${#files[@]} = 0 ]; then
	echo "FAIL seam: no suite file found in suites/"
	exit 0
fi
for f in "${files[@]}"; do
	check_file "$f"
done

# Planted controls: the check must reject a suite reaching below the seam
# (a kernel/ header, a kernel global) and accept a clean one, else its
# PASS lines above prove nothing.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/suites"
control() { # name file expect(PASS|FAIL) what
	local got
	got=$(check_file "$2")
	if [[ $got == "$3 "* ]]; then
		echo "PASS seam-control-$1: $4 gives $3"
	else
		echo "FAIL seam-control-$1: $4 gave '$got', expected $3"
	fi
}
printf '#include "kernel/test.h"\n#include "kernel/kernel.h"\nSUITE(planted, 1, "x");\n' >"$tmp/suites/planted_kernel_h.c"
control kernel-h "$tmp/suites/planted_kernel_h.c" FAIL "a suite including kernel/kernel.h"
printf '#include "kernel/test.h"\nSUITE(planted, 1, "x");\nTEST(planted, a)\n{\n\tt_check(t, boot_cpu.x2apic, "x");\n}\n' >"$tmp/suites/planted_global.c"
control global "$tmp/suites/planted_global.c" FAIL "a suite reading boot_cpu"
printf '#include "kernel/test.h"\n#include "arch/x86/apic.h"\n/* boot_cpu and kernel/kernel.h named in a comment */\nSUITE(planted, 1, "x");\nTEST(planted, a)\n{\n\tconst struct boot_info *bi = plat_boot_info();\n\tt_check(t, bi && plat_cpu_info()->x2apic, "boot_cpu");\n}\n' >"$tmp/suites/planted_clean.c"
control clean "$tmp/suites/planted_clean.c" PASS "a suite using only the seam"

# Suite directories: every one with a suite.c is listed, a directory
# without one is not, and a hosted suite.c makes all its files -- jobs and
# header alike -- keep the hosted rule, while its own header stays allowed.
mkdir -p "$tmp/suites/plantdir" "$tmp/suites/plantring0" "$tmp/suites/notasuite"
printf '#include "suites/plantdir/plantdir.h"\nSUITE_HOSTED(plantdir, 1, "x");\nTEST(plantdir, a)\n{\n\tplantdir_a(t);\n}\n' >"$tmp/suites/plantdir/suite.c"
printf '#include "kernel/test.h"\nvoid plantdir_a(struct test_ctx *t);\n' >"$tmp/suites/plantdir/plantdir.h"
printf '#include "suites/plantdir/plantdir.h"\n#include "lib/string.h"\nvoid plantdir_a(struct test_ctx *t)\n{\n\t(void)t;\n}\n' >"$tmp/suites/plantdir/clean.c"
printf '#include "suites/plantdir/plantdir.h"\n#include "arch/x86/msr.h"\n' >"$tmp/suites/plantdir/job.c"
printf '#include "kernel/test.h"\n#include "arch/x86/msr.h"\nSUITE(plantring0, 1, "x");\n' >"$tmp/suites/plantring0/suite.c"
printf '#include "suites/plantring0/plantring0.h"\n#include "suites/plantdir/plantdir.h"\n' >"$tmp/suites/plantring0/job.c"
printf '#include "kernel/test.h"\n' >"$tmp/suites/notasuite/stray.c"
listed=$(suite_files "$tmp" | sed "s|^$tmp/||" | paste -sd' ' -)
want='suites/plantdir/clean.c suites/plantdir/job.c suites/plantdir/suite.c suites/plantdir/plantdir.h suites/plantring0/job.c suites/plantring0/suite.c'
# the planted single-file suites above come first
want="suites/planted_clean.c suites/planted_global.c suites/planted_kernel_h.c $want"
if [ "$listed" = "$want" ]; then
	echo "PASS seam-control-dir-list: every suites/<dir>/ with a suite.c is checked, .c and .h, and no other"
else
	echo "FAIL seam-control-dir-list: listed '$listed', expected '$want'"
fi
control dir-hosted-job "$tmp/suites/plantdir/job.c" FAIL "a job file of a SUITE_HOSTED directory including arch/x86/msr.h"
printf '#include "kernel/test.h"\n#include "arch/x86/msr.h"\n' >"$tmp/suites/plantdir/plantdir.h"
control dir-hosted-header "$tmp/suites/plantdir/plantdir.h" FAIL "the header of a SUITE_HOSTED directory including arch/x86/msr.h"
control dir-hosted-clean "$tmp/suites/plantdir/clean.c" PASS "a hosted directory's job file including its own header and lib/"
control dir-other-header "$tmp/suites/plantring0/job.c" FAIL "a directory's job file including another suite's header"
