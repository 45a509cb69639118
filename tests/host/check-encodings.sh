#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Instruction-encoding checks on the built kernel, by disassembly: the
# byte-spelled instructions must be what we mean, and instructions that
# must never run blind (AMD-only INVLPGB/TLBSYNC/CLZERO: AMD APM vol. 3,
# CPUID Fn8000_0008_EBX; docs/platform-notes.md "QEMU TCG and KVM
# behaviour") must not appear except where a CPUID check guards them.
set -u
elf=${1:-build/ringlab.elf}
dis=$(objdump -d --no-show-raw-insn "$elf" 2>/dev/null) || { echo "FAIL encodings: objdump failed on $elf"; exit 0; }
raw=$(objdump -d "$elf")

# SERIALIZE is spelled .byte 0x0f,0x01,0xe8 in arch/x86/tsc_read.h and
# arch/x86/fault.c; objdump must decode it as serialize.
if printf '%s\n' "$raw" | grep -qE '0f 01 e8[[:space:]]+serialize'; then
	echo "PASS encoding-serialize"
else
	echo "FAIL encoding-serialize: 0f 01 e8 does not disassemble as serialize"
fi
# CLZERO (0f 01 fc) is AMD-only and may appear only inside mem_clear_clzero
# (arch/x86/clear.asm), which the clear suite calls only with CPUID
# 8000_0008h:EBX[0].
clz=$(printf '%s\n' "$dis" | awk '/^[0-9a-f]+ <.*>:$/ { fn = $2 }
	/[[:space:]]clzero([[:space:]]|$)/ && index(fn, "<mem_clear_clzero") != 1 { print fn, $0 }')
if [ -n "$clz" ]; then
	echo "FAIL encoding-amd-only: CLZERO outside mem_clear_clzero: $(printf '%s' "$clz" | head -n 1)"
else
	echo "PASS encoding-amd-only"
fi
if printf '%s\n' "$dis" | awk '/^[0-9a-f]+ <.*>:$/ { fn = $2 } index(fn, "<mem_clear_clzero") == 1 && /clzero/ { f = 1 } END { exit !f }'; then
	echo "PASS encoding-clzero-in-clear"
else
	echo "FAIL encoding-clzero-in-clear: mem_clear_clzero does not disassemble to CLZERO"
fi

# TLB invalidation: INVLPGB (0f 01 fe) and TLBSYNC (0f 01 ff) are
# spelled as bytes in arch/x86/tlbflush.c and must decode as such; each of
# INVLPGB, TLBSYNC and INVPCID may appear only inside its one wrapper there
# (callers check CPUID first), INVLPG only in __invlpg and in
# paging_map_mmio (arch/x86/cpu.h's inline invlpg).
if printf '%s\n' "$raw" | grep -qE '0f 01 fe[[:space:]]+invlpgb' &&
   printf '%s\n' "$raw" | grep -qE '0f 01 ff[[:space:]]+tlbsync'; then
	echo "PASS encoding-invlpgb-tlbsync"
else
	echo "FAIL encoding-invlpgb-tlbsync: 0f 01 fe / 0f 01 ff do not disassemble as invlpgb / tlbsync"
fi
# "function mnemonic" for every TLB-invalidating instruction
sites=$(printf '%s\n' "$dis" | awk '
	/^[0-9a-f]+ <.*>:$/ { fn = $2; gsub(/[<>:]/, "", fn); next }
	/^ +[0-9a-f]+:\t/ { split($0, f, "\t"); split(f[2], w, " ");
		if (w[1] ~ /^(invlpg|invpcid|invlpgb|tlbsync)$/) print fn, w[1] }')
tlb_sites_ok=1
for want in "__invlpg invlpg" "__invpcid invpcid" "__invlpgb invlpgb" "__tlbsync tlbsync"; do
	if ! printf '%s\n' "$sites" | grep -qxF "$want"; then
		echo "FAIL encoding-tlb-sites: no ${want#* } in ${want%% *}"
		tlb_sites_ok=0
	fi
done
unexpected=$(printf '%s\n' "$sites" | grep -vxE '__invlpg invlpg|paging_map_mmio invlpg|__invpcid invpcid|__invlpgb invlpgb|__tlbsync tlbsync' | grep . | sort -u | tr '\n' ',')
if [ -n "$unexpected" ]; then
	echo "FAIL encoding-tlb-sites: unexpected sites: ${unexpected%,}"
	tlb_sites_ok=0
fi
n_amd=$(printf '%s\n' "$sites" | grep -cE ' (invlpgb|tlbsync)$')
if [ "$n_amd" != 2 ]; then
	echo "FAIL encoding-tlb-sites: $n_amd INVLPGB/TLBSYNC instructions, expected exactly 2"
	tlb_sites_ok=0
fi
[ "$tlb_sites_ok" = 1 ] && echo "PASS encoding-tlb-sites"
# INVLPGB/TLBSYNC reached only through their guards: every call (or tail
# jump) to __invlpgb and __tlbsync is in invlpgb_flush_range (suites/tlb/
# invlpgb.c, which tests CPUID 8000_0008h:EBX[3] as the boot probe left
# it, and the CPUID maximum count) or in do_invlpgb (kernel/cpu_probe.c,
# run only when CPUID claims the bit, under the fault catch); a compiler
# clone keeps its origin's name (invlpgb_flush_range.constprop.0).
ib_refs=$(printf '%s\n' "$dis" | awk '
	/^[0-9a-f]+ <.*>:$/ { fn = $2; gsub(/[<>:]/, "", fn); next }
	/\t(call|jmp)[a-z]*[[:space:]]+[0-9a-f]+ <(__invlpgb|__tlbsync)>/ {
		t = $0; sub(/.*</, "", t); sub(/>.*/, "", t); print fn, t }')
ib_bad=$(printf '%s\n' "$ib_refs" | grep . | grep -vE '^(invlpgb_flush_range(\.[a-z_.0-9]+)?|do_invlpgb) ' | sort -u | tr '\n' ',')
ib_ok=1
for want in "invlpgb_flush_range[^ ]* __invlpgb" "invlpgb_flush_range[^ ]* __tlbsync" "do_invlpgb __invlpgb" "do_invlpgb __tlbsync"; do
	if ! printf '%s\n' "$ib_refs" | grep -qxE "$want"; then
		echo "FAIL encoding-invlpgb-callers: no ${want#* } from ${want%% *}"
		ib_ok=0
	fi
done
if [ -n "$ib_bad" ]; then
	echo "FAIL encoding-invlpgb-callers: unguarded callers: ${ib_bad%,}"
	ib_ok=0
fi
[ "$ib_ok" = 1 ] && echo "PASS encoding-invlpgb-callers"
# XBEGIN/XABORT/XEND (RTM, #UD without CPUID.7.0:EBX[11]) only inside the
# three spec_seq.asm routines, which suites/spec/ and the boot probe
# (kernel/cpu_probe.c, under the fault catch) call after checking RTM.
rtm_fns=$(printf '%s\n' "$dis" | awk '/^[0-9a-f]+ <.*>:$/ { fn = $2 } /\t(xbegin|xabort|xend)/ { print fn }' | sort -u | tr '\n' ' ')
if [ "$rtm_fns" = "<rtm_abort_seq>: <rtm_commit_probe>: <rtm_xabort_probe>: " ] || [ -z "$rtm_fns" ]; then
	echo "PASS encoding-rtm-guarded"
else
	echo "FAIL encoding-rtm-guarded: RTM instructions in $rtm_fns"
fi
