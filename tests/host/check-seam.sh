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
# suites/spec/, suites/litmus/, ...).  Each
#   includes only "kernel/test.h", "kernel/platform.h", "lib/*.h", its own
#     suite-local header ("suites/<dir>/*.h"), <stdbool.h> <stddef.h>
#     <stdint.h> <stdarg.h>, and of arch/x86/ only the headers of the
#     instructions and hardware it exercises ($arch_allowed below; tsc.h in
#     suites/tsc.c alone, which tests the calibration): topology, SMP
#     bring-up and per-CPU state come through kernel/platform.h;
#   calls only the seam's names (tools/gen-seam --names, derived from the
#     two headers: docs/seam.md) among plat_* and t_*, or its own;
#   reads no kernel global (boot_cpu, boot_info, boot_options, acpi,
#     boot_in_qemu, ringlab_version: the plat_*() accessors give them);
#   asks "is this virtual?" only through plat_under_emulator()/plat_env()
#     (no cpuinfo .hypervisor / .hv_signature);
#   asks about a CPU feature only through plat_cpu_has()/t_require() (no
#     feature boolean of plat_cpu_info(): the table's names);
#   leaves run policy to the runner: reads no t->quick, quick_end_tsc,
#     iters, result or reason (t_quick, t_budgeted, t_pick, t_failed,
#     t_caught: kernel/test.h), and tests the environment for an emulator
#     cap only through t_guest_cap_ms() (no plat_ring0() &&
#     plat_under_emulator(); a suite may still compare plat_env() where an
#     emulator's behaviour, not its speed, differs: QEMU TCG delivering an
#     illegal vector, answering unknown MSRs with 0);
#   has no trampoline TEST (a body that only calls one function with t:
#     a split suite puts its TESTs in the job files, ordered by .order),
#     and in a suite directory every TEST names its .order.
# A SUITE_HOSTED file -- and every file of a suite directory whose suite.c
#   says SUITE_HOSTED, since the Makefile builds them all into
#   ringlab-hosted -- keeps the stricter rule: only kernel/test.h,
#   kernel/platform.h, lib/, the C headers and (in a suite directory) its
#   own header, no arch/x86 either, no ring-0-only seam name, and no
#   #ifdef on the build, so that it builds unchanged into ringlab-hosted.
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
# the arch/x86 headers of instructions and hardware a ring-0 suite exercises
arch_allowed='apic|apic_timer|cpu|desc|e820|fault|msr|paging|pgtable_test|processor-flags|regs|spec_seq|tlbflush|trapnr|traps|vectors'
# run policy is the runner's (kernel/test.h "run policy")
policy='(?<![\w.])t->(?:quick|quick_end_tsc|quick_budget_ms|iters|result|reason)\b'
capenv='plat_ring0\(\)\s*&&\s*plat_under_emulator\(\)|plat_under_emulator\(\)\s*&&\s*plat_ring0\(\)'
# the feature table's names (arch/x86/cpuinfo.c F(name, X86_FEATURE_*))
features=$(sed -nE 's/^[[:space:]]*F\(([a-z0-9_]+), X86_FEATURE_.*/\1/p' arch/x86/cpuinfo.c | paste -sd'|' -)
# the seam's names: "<name> <both|ring0>"
seam_names=$(tools/gen-seam --names 2>/dev/null)
seam_all=$(printf '%s\n' "$seam_names" | awk '{print $1}' | paste -sd'|' -)
seam_ring0=$(printf '%s\n' "$seam_names" | awk '$2 == "ring0" {print $1}' | paste -sd'|' -)

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

# "line: text" of the feature-boolean reads in $1: plat_cpu_info()->NAME,
# or VAR->NAME where VAR was set from plat_cpu_info().
feature_reads() {
	FEAT=$features perl -0777 -ne '
		s{/\*.*?\*/}{ my $c = $&; $c =~ tr/\n//cd; $c }gse; s{//[^\n]*}{}g;
		my %v = map { $_ => 1 } (/(\w+)\s*=\s*plat_cpu_info\(\)/g);
		my $vars = join("|", "plat_cpu_info\\(\\)", map { "\\b$_" } keys %v);
		my ($n, @hits) = (0);
		for my $l (split /\n/, $_, -1) {
			$n++;
			if ($l =~ /(?:$vars)->(?:$ENV{FEAT})\b/) { (my $t = $l) =~ s/\s+/ /g; push @hits, "$n:$t"; }
		}
		print join("|", @hits[0 .. ($#hits < 2 ? $#hits : 2)]);
	' "$1"
}

# The plat_* / t_* names $1 calls that are neither the seam's nor defined
# in its own suite (file or directory $2), space-separated.
foreign_calls() {
	local own
	# shellcheck disable=SC2086 # $2 may be a directory's glob
	own=$(cat $2 2>/dev/null | perl -ne 'print "$1\n" while /^(?=[A-Za-z_])(?:static\s+)?(?:inline\s+)?[\w\s\*]*?\b((?:plat|t)_\w+)\s*\(/g' | sort -u)
	perl -0777 -ne '
		s{/\*.*?\*/}{}gs; s{//[^\n]*}{}g; s{"(?:\\.|[^"\\\n])*"}{""}g;
		my %s; $s{$1} = 1 while /\b((?:plat|t)_\w+)\s*\(/g; print "$_\n" for sort keys %s;
	' "$1" | grep -vxE "${seam_all:-^$}" | grep -vxF -f <(printf '%s\n' "$own") | paste -sd' ' -
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
		local arch=$arch_allowed
		[ "$name" = seam-tsc ] && arch="$arch|tsc"
		allowed="^#[[:space:]]*include[[:space:]]+(\"kernel/test\\.h\"|\"kernel/platform\\.h\"|\"lib/[a-z0-9_]+\\.h\"|\"arch/x86/($arch)\\.h\"|\"$local_hdr\"|$std)"
		bad=$(grep -E '^#[[:space:]]*include' "$f" | grep -vE "$allowed" | tr -s ' \t' ' ' | paste -sd, -)
		if [ -n "$bad" ]; then
			echo "FAIL $name: includes $bad (suites use kernel/test.h, kernel/platform.h, lib/, their own header and the arch/x86/ headers of what they exercise: $arch)"
			return
		fi
	fi
	local scope=$f
	$indir && scope=$(dirname "$f")/*
	uses=$(foreign_calls "$f" "$scope")
	if [ -n "$uses" ]; then
		echo "FAIL $name: calls names that are not the seam's (docs/seam.md): $uses"
		return
	fi
	if $hosted && [ -n "$seam_ring0" ]; then
		uses=$(uses_of "$f" "\\b(?:$seam_ring0)\\s*\\(")
		if [ -n "$uses" ]; then
			echo "FAIL $name: a hosted suite calls a ring-0-only seam name: $uses"
			return
		fi
	fi
	uses=$(uses_of "$f" "$policy")
	if [ -n "$uses" ]; then
		echo "FAIL $name: reads run policy from the context (ask the runner: t_quick, t_budgeted, t_pick, t_failed, t_caught): $uses"
		return
	fi
	uses=$(uses_of "$f" "$capenv")
	if [ -n "$uses" ]; then
		echo "FAIL $name: tests the environment for an emulator cap itself (t_guest_cap_ms): $uses"
		return
	fi
	uses=$(feature_reads "$f")
	if [ -n "$uses" ]; then
		echo "FAIL $name: reads a feature boolean of plat_cpu_info() (plat_cpu_has(X86_FEATURE_*)): $uses"
		return
	fi
	uses=$(perl -0777 -ne 'while (/^(TEST\([^)]*\))\s*\{\s*\w+\(\s*t\s*\);\s*\}/mg) { print "$1 " }' "$f")
	if [ -n "$uses" ]; then
		echo "FAIL $name: trampoline TEST (the case's body belongs in the TEST; order split suites with .order): $uses"
		return
	fi
	if $indir; then
		uses=$(grep -nE '^TEST\(' "$f" | grep -v '\.order[[:space:]]*=' | head -n 3 | tr '\n' ' ')
		if [ -n "$uses" ]; then
			echo "FAIL $name: a TEST of a suite split over files without .order: $uses"
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
printf '#include "kernel/test.h"\n#include "arch/x86/apic.h"\n/* boot_cpu and kernel/kernel.h named in a comment */\nSUITE(planted, 1, "x");\nTEST(planted, a)\n{\n\tconst struct boot_info *bi = plat_boot_info();\n\tt_check(t, bi && plat_cpu_has(X86_FEATURE_X2APIC), "boot_cpu");\n}\n' >"$tmp/suites/planted_clean.c"
control clean "$tmp/suites/planted_clean.c" PASS "a suite using only the seam"
# ... and each house rule, with a planted violation of each
plant() { # name body what
	printf '#include "kernel/test.h"\nSUITE(planted, 1, "x");\nTEST(planted, a)\n{\n%b\n}\n' "$2" >"$tmp/suites/planted_$1.c"
	control "$1" "$tmp/suites/planted_$1.c" FAIL "$3"
	rm -f "$tmp/suites/planted_$1.c"
}
plant quick-read '\tif (t->quick)\n\t\treturn;' "a suite reading t->quick"
plant quick-end-read '\tuint64_t e = t->quick_end_tsc;\n\t(void)e;' "a suite reading t->quick_end_tsc"
plant result-write '\tt->result = RES_TIMEOUT;' "a suite setting t->result"
plant cap-env '\tif (plat_ring0() && plat_under_emulator())\n\t\treturn;' "a suite testing ring 0 under an emulator for a cap"
plant feature-bool '\tconst struct cpuinfo *ci = plat_cpu_info();\n\tif (ci->invpcid)\n\t\treturn;' "a suite reading a feature boolean through a cpuinfo pointer"
plant foreign-call '\tplat_secret_kernel_call();' "a suite calling a plat_ name outside the seam"
plant trampoline '\tplanted_a(t);' "a trampoline TEST"
printf '#include "kernel/test.h"\n#include "arch/x86/percpu.h"\nSUITE(planted, 1, "x");\n' >"$tmp/suites/planted_percpu.c"
control percpu "$tmp/suites/planted_percpu.c" FAIL "a ring-0 suite including arch/x86/percpu.h (per-CPU state comes through platform.h)"
rm -f "$tmp/suites/planted_percpu.c"
printf '#include "kernel/test.h"\nSUITE_HOSTED(planted, 1, "x");\nTEST(planted, a)\n{\n\tstruct plat_fault f;\n\tplat_catch(0, 0, 0, &f);\n}\n' >"$tmp/suites/planted_ring0.c"
control hosted-ring0 "$tmp/suites/planted_ring0.c" FAIL "a hosted suite calling plat_catch (ring 0 only)"
rm -f "$tmp/suites/planted_ring0.c"

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
# a split suite orders every case: a TEST in a job file without .order
printf '#include "suites/plantring0/plantring0.h"\nTEST(plantring0, a, .order = 10)\n{\n\tt_diag(t, "x");\n}\nTEST(plantring0, b)\n{\n\tt_diag(t, "y");\n}\n' >"$tmp/suites/plantring0/job.c"
control dir-no-order "$tmp/suites/plantring0/job.c" FAIL "a split suite's TEST without .order"
printf '#include "suites/plantring0/plantring0.h"\nTEST(plantring0, a, .order = 10)\n{\n\tt_diag(t, "x");\n}\n' >"$tmp/suites/plantring0/job.c"
control dir-ordered "$tmp/suites/plantring0/job.c" PASS "a split suite's TEST with .order"
