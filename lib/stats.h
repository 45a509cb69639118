/* SPDX-License-Identifier: GPL-2.0-only */
/* Order statistics over samples, integer-only (no FPU in the kernel).
 *
 * Percentiles use the nearest-rank definition: pXX is the smallest sample
 * such that at least XX% of the samples are <= it (rank ceil(XX/100*n)).
 * mean and stddev are rounded to the nearest integer; stddev is the
 * population standard deviation. */
#ifndef RINGLAB_LIB_STATS_H
#define RINGLAB_LIB_STATS_H

#include <stddef.h>
#include <stdint.h>

struct stats {
	size_t n;
	uint64_t min, p50, p90, p99, max;
	uint64_t mean, stddev;
};

/* In-place ascending heap sort: O(n log n), no recursion, no allocation. */
void sort_u64(uint64_t *a, size_t n);

/* Nearest-rank percentile of an ascending array; pct in 0..100. */
uint64_t percentile_sorted(const uint64_t *sorted, size_t n, unsigned pct);

/* Sorts samples in place and fills *st.  n == 0 gives all zeros. */
void stats_compute(uint64_t *samples, size_t n, struct stats *st);

/* Integer square root, floor(sqrt(v)). */
uint64_t isqrt_u64(uint64_t v);

/* Compact linear histogram of an ascending array, written as
 * "lo=<min> width=<w> counts=c0,c1,...,c<b-1> over=<k>": bucket i holds the
 * samples in [lo+i*w, lo+(i+1)*w); the buckets span min..p99 and `over`
 * counts the samples above them (the top 1% tail).  Returns the length the
 * full text would have had, like snprintf. */
int hist_format(char *buf, size_t size, const uint64_t *sorted, size_t n,
		unsigned buckets);

#endif
