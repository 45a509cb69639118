/* SPDX-License-Identifier: GPL-2.0-only */
/* TLB invalidation instructions; see tlbflush.h.  Each of INVLPG, INVPCID,
 * INVLPGB and TLBSYNC is spelled once, in a function of its own that is
 * never inlined, so the disassembly check can find every site.  INVLPGB and
 * TLBSYNC are spelled as bytes (0F 01 FE, 0F 01 FF; APM vol. 3) so any
 * assembler builds them. */
#include "arch/x86/tlbflush.h"
#include "arch/x86/cpu.h"

__attribute__((noinline)) void __invlpg(unsigned long addr)
{
	__asm__ volatile("invlpg (%0)" ::"r"(addr) : "memory");
}

__attribute__((noinline)) void __invpcid(unsigned long pcid, unsigned long addr,
					 unsigned long type)
{
	struct invpcid_desc d;

	if (!invpcid_pack(pcid, addr, &d))
		return;
	__asm__ volatile("invpcid %0, %1" ::"m"(d), "r"(type) : "memory");
}

__attribute__((noinline)) void __invlpgb(const struct invlpgb_ops *op)
{
	__asm__ volatile(".byte 0x0f, 0x01, 0xfe" ::"a"(op->rax), "c"(op->ecx), "d"(op->edx)
			 : "memory");
}

__attribute__((noinline)) void __tlbsync(void)
{
	__asm__ volatile(".byte 0x0f, 0x01, 0xff" ::: "memory");
}

void native_flush_tlb_local(void)
{
	write_cr3(read_cr3());
}

void native_flush_tlb_global(void)
{
	uint64_t cr4 = read_cr4();

	write_cr4(cr4 ^ X86_CR4_PGE);
	write_cr4(cr4);
}
