/* SPDX-License-Identifier: GPL-2.0-only */
/* Fake physical memory for host unit tests of the firmware-data parsers.
 *
 * fake_phys.c implements phys_view() and phys_view_fw() (lib/physmem.h;
 * the same here: fake memory has no holes) over a few regions
 * that a test places at chosen physical addresses; it returns NULL for any
 * range not wholly inside one region, so the gaps between regions (and
 * page 0, unless a region covers it) read as unmapped.  Every view is a
 * fresh heap copy of exactly the bytes asked for, so ASan reports any read
 * past what the parser asked phys_view() for, not just past a region.
 * Views stay valid until mem_views_free() or mem_reset(). */
#ifndef RINGLAB_TESTS_HOST_FAKE_PHYS_H
#define RINGLAB_TESTS_HOST_FAKE_PHYS_H

#include <stddef.h>
#include <stdint.h>

/* phys_view() calls since the last mem_reset(), for tests that check a
 * parser's work is bounded. */
extern unsigned long long view_calls;

/* A zero-filled region of `size` bytes at `base`; at most 8 at a time. */
void mem_add(uint64_t base, size_t size);

/* Copy bytes into, or set bytes of, fake memory; the range must lie
 * inside one region (the test fails otherwise). */
void mem_put(uint64_t pa, const void *data, size_t len);
void mem_fill(uint64_t pa, int c, size_t len);

/* Free the views handed out so far, keeping the regions: a loop that
 * parses thousands of times would otherwise hold every copy until the
 * test ends. */
void mem_views_free(void);

/* Free everything: views, regions, and the call count. */
void mem_reset(void);

#endif
