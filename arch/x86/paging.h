/* SPDX-License-Identifier: GPL-2.0-only */
/* The kernel's identity map (virtual == physical) of all RAM.
 *
 * Below 4 GiB everything is mapped with 2 MiB pages: pages that overlap
 * RAM (memory-map types 1, 3, 4) are write-back, the rest (MMIO: LAPIC,
 * I/O APIC, HPET, PCI holes) are mapped UC with PCD|PWT, which selects
 * PAT entry 3 = UC under the power-on PAT (SDM vol. 3 §12.12.3).  Above
 * 4 GiB only RAM is mapped, with 1 GiB pages where the CPU has them
 * (CPUID 0x80000001:EDX[26]) and the whole GiB is RAM, else 2 MiB pages.
 * MMIO above 4 GiB is added on demand by paging_map_mmio(). */
#ifndef RINGLAB_ARCH_X86_PAGING_H
#define RINGLAB_ARCH_X86_PAGING_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include "arch/x86/e820.h"

#define PTE_P		(1ull << 0)
#define PTE_W		(1ull << 1)
#define PTE_PWT		(1ull << 3)
#define PTE_PCD		(1ull << 4)
#define PTE_A		(1ull << 5)
#define PTE_PS		(1ull << 7)
#define PTE_G		(1ull << 8)
#define PTE_NX		(1ull << 63)
#define PTE_ADDR_MASK	0x000ffffffffff000ull

#define PAGE_SIZE	4096ull
#define SZ_2M		(2ull << 20)
#define SZ_1G		(1ull << 30)
#define SZ_4G		(4ull << 30)

struct paging_stats {
	uint64_t pages_1g, pages_2m, pages_4k, tables;
	uint64_t mapped_bytes;
	uint64_t refused;	/* writes that would have replaced a present entry */
	unsigned phys_bits;
	bool gbpages;
	bool own_tables;	/* paging_init built and loaded its tables */
};

/* What paging_init() needs (filled by kmain; must stay valid after the
 * call: the map is consulted again by paging_map_mmio()). */
struct paging_params {
	const struct mem_region *mmap;	/* the firmware memory map */
	unsigned nmmap;
	/* npages zeroed pages entirely below limit, or NULL */
	void *(*page_alloc_below)(size_t npages, uint64_t limit);
};

/* Build the full map from the memory map and switch CR3 to it.  Returns
 * false (keeping the early 4 GiB map) if page tables could not be
 * allocated; errors are printed. */
bool paging_init(const struct paging_params *bi);

/* Walk the live page tables: true if va is mapped, with the physical
 * address, the leaf entry and its level (1 = 4K, 2 = 2M, 3 = 1G). */
bool paging_translate(uint64_t va, uint64_t *pa, uint64_t *leaf, unsigned *level);

/* Make [pa, pa+len) mapped UC (for MMIO above 4 GiB).  Refuses (an error
 * line, false) a range paging_mmio_check() rejects, and never replaces a
 * present page-table entry. */
bool paging_map_mmio(uint64_t pa, uint64_t len);
/* NULL when [pa, pa+len) may be a device window (lib/physrange.h:
 * canonical, below MAXPHYADDR, clear of RAM and the kernel image), else
 * the reason as a phrase. */
const char *paging_mmio_check(uint64_t pa, uint64_t len);

const struct paging_stats *paging_get_stats(void);
/* PML4 physical address (below 4 GiB, for the AP trampoline). */
uint64_t paging_root(void);

#endif
