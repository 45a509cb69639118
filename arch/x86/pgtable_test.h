/* SPDX-License-Identifier: GPL-2.0-only */
/* A window of virtual addresses that tests may map, remap and unmap at will,
 * apart from the identity map: one PML4 slot the kernel never uses, with
 * one page-directory-pointer table, one page directory and one page table
 * that the caller supplies (three zeroed 4 KiB pages).
 *
 *   PT_WIN_BASE + i * 4 KiB, i = 0..511     4 KiB pages (page table, PD[0])
 *   PT_WIN_BASE + j * 2 MiB, j = 1..511     2 MiB pages (PD[j], PS=1)
 *
 * pt_win_install() links the slot into the live PML4 (shared by every CPU)
 * and refuses a slot that is already in use; pt_win_remove() puts the slot
 * back as it was.  Neither flushes: the caller decides how (and on which
 * CPUs), which is what the tlb suite measures. */
#ifndef RINGLAB_ARCH_X86_PGTABLE_TEST_H
#define RINGLAB_ARCH_X86_PGTABLE_TEST_H

#include <stdbool.h>
#include <stdint.h>
#include "arch/x86/paging.h"

#define PT_WIN_PML4_INDEX	384u
/* sign-extended: PML4 index 384 has bit 47 set */
#define PT_WIN_BASE		(0xffff000000000000ull | ((uint64_t)PT_WIN_PML4_INDEX << 39))
#define PT_WIN_4K_PAGES		512u
#define PT_WIN_2M_FIRST		1u
#define PT_WIN_2M_PAGES		511u

struct pt_win {
	volatile uint64_t *pml4e;	/* the slot in the live PML4 */
	uint64_t saved;			/* its value before install */
	uint64_t *pdpt, *pd, *pt;
	bool installed;
};

/* tables: three zeroed, 4 KiB-aligned, identity-mapped pages. */
bool pt_win_install(struct pt_win *w, void *tables, char *why, unsigned why_size);
/* Restore the PML4 slot (idempotent). */
void pt_win_remove(struct pt_win *w);

static inline uint64_t pt_win_va_4k(unsigned i)
{
	return PT_WIN_BASE + (uint64_t)i * 4096u;
}

static inline uint64_t pt_win_va_2m(unsigned j)
{
	return PT_WIN_BASE + (uint64_t)j * SZ_2M;
}

/* The PTE of 4 KiB page i, the PDE of 2 MiB page j. */
static inline volatile uint64_t *pt_win_pte(struct pt_win *w, unsigned i)
{
	return (volatile uint64_t *)&w->pt[i & 511];
}

static inline volatile uint64_t *pt_win_pde(struct pt_win *w, unsigned j)
{
	return (volatile uint64_t *)&w->pd[j & 511];
}

/* Point page i at frame pa (4 KiB aligned), write-back, writable; global
 * when asked (G only takes effect with CR4.PGE=1). */
void pt_win_map_4k(struct pt_win *w, unsigned i, uint64_t pa, bool global);
void pt_win_map_2m(struct pt_win *w, unsigned j, uint64_t pa, bool global);
void pt_win_unmap_4k(struct pt_win *w, unsigned i);
void pt_win_unmap_2m(struct pt_win *w, unsigned j);

#endif
