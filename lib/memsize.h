/* SPDX-License-Identifier: GPL-2.0-only */
/* The clear suite's arithmetic, kept pure so host unit tests cover it
 * (tests/host/test_memsize.c): which region sizes to clear, how they are
 * written in metric names, how per-CPU regions fit a free region, and the
 * crossover between two methods' bandwidth tables. */
#ifndef RINGLAB_LIB_MEMSIZE_H
#define RINGLAB_LIB_MEMSIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SZ_KIB	1024ull
#define SZ_MIB	(1024ull * SZ_KIB)
#define SZ_GIB	(1024ull * SZ_MIB)

#define CLEAR_MAX_SIZES	8
#define CLEAR_LABEL_MAX	16

struct clear_size {
	uint64_t bytes;		/* per CPU; 0 for "largest": fitted per CPU count */
	char label[CLEAR_LABEL_MAX];	/* "4KiB", "2MiB", "1GiB", "largest" */
	bool llc_double;	/* this is (also) twice the last-level cache */
};

/* "4KiB", "2MiB", "1GiB", "1536KiB"; bytes not a KiB multiple as "<n>B". */
void size_label(uint64_t bytes, char *buf, size_t size);

/* The sizes to clear, ascending, without duplicates: quick gives 4 KiB
 * and 2 MiB; a full run 4 KiB, 2 MiB, 16 MiB, 2 x llc_bytes (rounded up to
 * 4 KiB, left out when llc_bytes is 0), 128 MiB, 1 GiB and, when
 * with_largest, "largest" last.  Returns the count. */
unsigned clear_sizes(uint64_t llc_bytes, bool quick, bool with_largest,
		     struct clear_size *out, unsigned max);

/* Bytes per CPU when ncpus regions of `want` bytes (0: as large as
 * possible, 2 MiB multiples, at least 2 MiB), each with `guard` bytes on
 * both sides and each slot rounded up to `align`, must fit in `avail`
 * bytes.  0 if they do not fit.  *slot gets the per-CPU stride. */
uint64_t clear_fit(uint64_t want, unsigned ncpus, uint64_t guard, uint64_t align,
		   uint64_t avail, uint64_t *slot);

/* The crossover: the smallest index i such that nt[j] > base[j] at every
 * measured index j >= i (measured: both > 0; unmeasured indices are
 * skipped), i.e. "NT wins from size i on"; -1 when NT does not win at the
 * largest measured size (or nothing was measured).  A win at a small size
 * followed by a loss at a larger one is not a crossover. */
int clear_crossover(const uint64_t *nt, const uint64_t *base, unsigned n);
/* The smallest measured index where nt[i] > base[i], or -1: when it is
 * below clear_crossover() (or that is -1), NT won there but lost again at
 * a larger size. */
int clear_first_win(const uint64_t *nt, const uint64_t *base, unsigned n);

/* MB/s (10^6 bytes per second) for bytes moved in cycles at hz, to the
 * nearest whole MB/s; 0 when cycles is 0. */
uint64_t mbps(uint64_t bytes, uint64_t cycles, uint64_t hz);

#endif
