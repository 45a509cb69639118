/* SPDX-License-Identifier: GPL-2.0-only */
/* Test mapping window; see pgtable_test.h.  Entries are written with one
 * aligned 64-bit store each, so another CPU's page walk sees either the old
 * or the new entry, never a mix (SDM vol. 3A §4.10.2.3 and §9.1.1). */
#include "arch/x86/pgtable_test.h"
#include "lib/printf.h"

static void set_entry(volatile uint64_t *e, uint64_t v)
{
	__atomic_store_n(e, v, __ATOMIC_RELEASE);
}

bool pt_win_install(struct pt_win *w, void *tables, char *why, unsigned why_size)
{
	uint64_t *pml4 = (uint64_t *)(uintptr_t)paging_root();
	uint64_t *t = tables;

	w->installed = false;
	if (!tables || ((uintptr_t)tables & 0xfff)) {
		rl_snprintf(why, why_size, "no page-aligned memory for the test page tables");
		return false;
	}
	w->pml4e = &pml4[PT_WIN_PML4_INDEX];
	w->saved = *w->pml4e;
	if (w->saved & PTE_P) {
		rl_snprintf(why, why_size, "PML4 slot %u is in use (0x%llx)", PT_WIN_PML4_INDEX,
			    (unsigned long long)w->saved);
		return false;
	}
	w->pdpt = t;
	w->pd = t + 512;
	w->pt = t + 1024;
	w->pdpt[0] = (uint64_t)(uintptr_t)w->pd | PTE_P | PTE_W;
	w->pd[0] = (uint64_t)(uintptr_t)w->pt | PTE_P | PTE_W;
	set_entry(w->pml4e, (uint64_t)(uintptr_t)w->pdpt | PTE_P | PTE_W);
	w->installed = true;
	return true;
}

void pt_win_remove(struct pt_win *w)
{
	if (!w->installed)
		return;
	set_entry(w->pml4e, w->saved);
	w->installed = false;
}

void pt_win_map_4k(struct pt_win *w, unsigned i, uint64_t pa, bool global)
{
	set_entry(pt_win_pte(w, i), (pa & PTE_ADDR_MASK) | PTE_P | PTE_W | (global ? PTE_G : 0));
}

void pt_win_map_2m(struct pt_win *w, unsigned j, uint64_t pa, bool global)
{
	if (j < PT_WIN_2M_FIRST)
		return;		/* PD[0] holds the 4 KiB page table */
	set_entry(pt_win_pde(w, j), (pa & PTE_ADDR_MASK & ~(SZ_2M - 1)) | PTE_P | PTE_W | PTE_PS |
				    (global ? PTE_G : 0));
}

void pt_win_unmap_4k(struct pt_win *w, unsigned i)
{
	set_entry(pt_win_pte(w, i), 0);
}

void pt_win_unmap_2m(struct pt_win *w, unsigned j)
{
	if (j >= PT_WIN_2M_FIRST)
		set_entry(pt_win_pde(w, j), 0);
}
