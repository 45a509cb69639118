/* SPDX-License-Identifier: GPL-2.0-only */
/* Usable RAM from a firmware memory map: the parts of type-1 entries that
 * no other entry claims (firmware lists overlapping entries, in any order,
 * and the non-RAM claim wins), minus one excluded range (the kernel image)
 * and everything below low_limit, page-aligned inwards, sorted by address
 * and disjoint.
 * Pure computation, host-testable (tests/host/test_memmap.c). */
#ifndef RINGLAB_KERNEL_MEMMAP_H
#define RINGLAB_KERNEL_MEMMAP_H

#include <stdint.h>
#include "kernel/mbi.h"

struct usable_range {
	uint64_t base, end;
};

/* Returns the number of ranges written (at most max; the rest dropped). */
unsigned memmap_usable(const struct mem_region *map, unsigned n, uint64_t excl_start,
		       uint64_t excl_end, uint64_t low_limit, struct usable_range *out,
		       unsigned max);

/* The first non-RAM entry that overlaps [xs, xe) (a loader that put the
 * kernel image on reserved memory), or -1.  Wrapping entries never match. */
int memmap_claim_over(const struct mem_region *map, unsigned n, uint64_t xs, uint64_t xe);

#endif
