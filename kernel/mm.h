/* SPDX-License-Identifier: GPL-2.0-only */
/* Physical page allocator: a bump allocator over the RAM regions of the
 * memory map above 1 MiB, minus the kernel image.  Memory is identity
 * mapped, so a physical address is also the pointer.  Allocation is LIFO:
 * the runner takes a mark before each test and releases it afterwards, so
 * tests allocate freely and never leak into the next one. */
#ifndef RINGLAB_KERNEL_MM_H
#define RINGLAB_KERNEL_MM_H

#include <stddef.h>
#include <stdint.h>
#include "arch/x86/paging.h"
#include "kernel/mbi.h"

/* PAGE_SIZE: arch/x86/paging.h */

struct mm_mark {
	unsigned range;
	uint64_t next;
};

void mm_init(const struct boot_info *bi);
/* npages zeroed pages, 4 KiB aligned; NULL when memory is exhausted. */
void *page_alloc(size_t npages);
/* Only succeeds if the pages lie entirely below limit. */
void *page_alloc_below(size_t npages, uint64_t limit);
/* npages NOT zeroed, aligned to align (a power of two >= 4 KiB), for large
 * experiments that write every byte themselves. */
void *page_alloc_raw(size_t npages, uint64_t align);
/* The largest block page_alloc_raw(.., align) could return now, in bytes. */
uint64_t mm_largest_free(uint64_t align);

struct mm_mark mm_mark(void);
void mm_release(struct mm_mark m);

/* The memory-map entry of a non-RAM type that overlaps the kernel image,
 * or NULL; mm_init() keeps it out of the allocator all the same. */
const struct mem_region *mm_kernel_claim(const struct boot_info *bi);
uint64_t mm_ram_bytes(void);	/* type-1 RAM in the memory map */
uint64_t mm_highest_ram(void);	/* end of the highest RAM region */

#endif
