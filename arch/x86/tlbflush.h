/* SPDX-License-Identifier: GPL-2.0-only */
/* TLB invalidation, named as Linux names it (asm/tlbflush.h, asm/invpcid.h,
 * asm/tlb.h), and the operand packing of INVPCID and INVLPGB, which is pure
 * so that host unit tests (tests/host/test_tlbflush.c) check it against the
 * manuals' definitions.
 *
 *   INVLPG   SDM vol. 2A "INVLPG"; vol. 3A §4.10.4.1.  Drops the entries for
 *            one page of the current PCID, global ones included.
 *   INVPCID  SDM vol. 2A "INVPCID": a 128-bit descriptor in memory, PCID in
 *            bits 11:0 (bits 63:12 reserved, must be 0), the linear address
 *            in bits 127:64; the type in a register: 0 individual address,
 *            1 single context, 2 all contexts including globals, 3 all
 *            contexts except globals.  Types 0 and 1 never drop globals.
 *   INVLPGB  AMD APM vol. 3 "INVLPGB": rAX = VA[63:12] | flags[5:0],
 *            ECX[15:0] = pages beyond the first, ECX[31] = 2 MiB stride,
 *            EDX[31:16] = PCID, EDX[15:0] = ASID.  The most pages one
 *            INVLPGB may name is CPUID 8000_0008h:EDX[15:0] + 1.
 *   TLBSYNC  APM vol. 3 "TLBSYNC": waits until every INVLPGB this CPU issued
 *            has completed on all CPUs.
 *
 * INVLPGB, TLBSYNC and INVPCID are each issued from exactly one function in
 * tlbflush.c (tests/host/check-encodings.sh verifies that in the built
 * kernel); callers must have checked CPUID first: INVLPGB/TLBSYNC need CPUID
 * 8000_0008h:EBX[3], INVPCID needs CPUID.(EAX=07H,ECX=0):EBX[10]. */
#ifndef RINGLAB_ARCH_X86_TLBFLUSH_H
#define RINGLAB_ARCH_X86_TLBFLUSH_H

#include <stdbool.h>
#include <stdint.h>

/* CR3 with CR4.PCIDE=1 (SDM vol. 3A §4.10.4.1, "MOV to CR3") */
#define X86_CR3_PCID_MASK	0xfffull
#define X86_CR3_PCID_NOFLUSH	(1ull << 63)

#define INVPCID_TYPE_INDIV_ADDR		0
#define INVPCID_TYPE_SINGLE_CTXT	1
#define INVPCID_TYPE_ALL_INCL_GLOBAL	2
#define INVPCID_TYPE_ALL_NON_GLOBAL	3

#define INVLPGB_FLAG_VA			(1u << 0)
#define INVLPGB_FLAG_PCID		(1u << 1)
#define INVLPGB_FLAG_ASID		(1u << 2)
#define INVLPGB_FLAG_INCLUDE_GLOBAL	(1u << 3)
#define INVLPGB_FLAG_FINAL_ONLY		(1u << 4)
#define INVLPGB_FLAG_INCLUDE_NESTED	(1u << 5)
#define INVLPGB_FLAGS_ALL		0x3fu
#define INVLPGB_MAX_PAGES		65536u	/* ECX[15:0] + 1 */

struct invpcid_desc {
	uint64_t pcid;		/* bits 11:0; the rest must be 0 */
	uint64_t addr;
};

/* false when the PCID does not fit 12 bits */
static inline bool invpcid_pack(unsigned long pcid, unsigned long addr, struct invpcid_desc *d)
{
	if (pcid > X86_CR3_PCID_MASK)
		return false;
	d->pcid = pcid;
	d->addr = addr;
	return true;
}

struct invlpgb_ops {
	uint64_t rax;
	uint32_t ecx, edx;
};

/* Pack INVLPGB's operands: nr_pages from 1 to INVLPGB_MAX_PAGES, addr
 * page-aligned (2 MiB-aligned with pmd_stride), PCID 12 bits, ASID 16 bits,
 * only defined flags.  Returns false, leaving *op alone, otherwise. */
static inline bool invlpgb_pack(unsigned long asid, unsigned long pcid, uint64_t addr,
				unsigned nr_pages, bool pmd_stride, unsigned flags,
				struct invlpgb_ops *op)
{
	uint64_t align = pmd_stride ? (2ull << 20) - 1 : 0xfffull;

	if (nr_pages < 1 || nr_pages > INVLPGB_MAX_PAGES || (addr & align) ||
	    pcid > X86_CR3_PCID_MASK || asid > 0xffff || (flags & ~INVLPGB_FLAGS_ALL))
		return false;
	op->rax = addr | flags;
	op->ecx = ((uint32_t)pmd_stride << 31) | (uint32_t)(nr_pages - 1);
	op->edx = ((uint32_t)pcid << 16) | (uint32_t)asid;
	return true;
}

#ifndef RINGLAB_HOST
/* ---- ring 0 ---- */
void __invlpg(unsigned long addr);
void __invpcid(unsigned long pcid, unsigned long addr, unsigned long type);
void __invlpgb(const struct invlpgb_ops *op);
void __tlbsync(void);
/* MOV CR3 with the current value: drops every non-global entry of the
 * current PCID (SDM vol. 3A §4.10.4.1). */
void native_flush_tlb_local(void);
/* Toggle CR4.PGE twice: drops every entry, global ones included. */
void native_flush_tlb_global(void);

static inline void invpcid_flush_one(unsigned long pcid, unsigned long addr)
{
	__invpcid(pcid, addr, INVPCID_TYPE_INDIV_ADDR);
}

static inline void invpcid_flush_single_context(unsigned long pcid)
{
	__invpcid(pcid, 0, INVPCID_TYPE_SINGLE_CTXT);
}

static inline void invpcid_flush_all(void)
{
	__invpcid(0, 0, INVPCID_TYPE_ALL_INCL_GLOBAL);
}

static inline void invpcid_flush_all_nonglobals(void)
{
	__invpcid(0, 0, INVPCID_TYPE_ALL_NON_GLOBAL);
}
#endif

#endif
