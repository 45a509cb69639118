/* SPDX-License-Identifier: GPL-2.0-only */
/* Order statistics; see stats.h. */
#include "lib/stats.h"
#include "lib/printf.h"

static void sift_down(uint64_t *a, size_t root, size_t n)
{
	for (;;) {
		size_t child = 2 * root + 1;

		if (child >= n)
			return;
		if (child + 1 < n && a[child + 1] > a[child])
			child++;
		if (a[root] >= a[child])
			return;
		uint64_t t = a[root];

		a[root] = a[child];
		a[child] = t;
		root = child;
	}
}

void sort_u64(uint64_t *a, size_t n)
{
	if (n < 2)
		return;
	for (size_t i = n / 2; i-- > 0;)
		sift_down(a, i, n);
	for (size_t end = n - 1; end > 0; end--) {
		uint64_t t = a[0];

		a[0] = a[end];
		a[end] = t;
		sift_down(a, 0, end);
	}
}

uint64_t percentile_sorted(const uint64_t *sorted, size_t n, unsigned pct)
{
	if (!n)
		return 0;
	if (pct > 100)
		pct = 100;
	size_t rank = ((uint64_t)n * pct + 99) / 100;	/* ceil(n*pct/100) */

	if (rank == 0)
		rank = 1;
	return sorted[rank - 1];
}

/* floor(sqrt(v)) for 128-bit v; the result always fits 64 bits. */
static uint64_t isqrt_u128(unsigned __int128 v)
{
	unsigned __int128 r = 0, bit = (unsigned __int128)1 << 126;

	while (bit > v)
		bit >>= 2;
	while (bit) {
		if (v >= r + bit) {
			v -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return (uint64_t)r;
}

uint64_t isqrt_u64(uint64_t v)
{
	return isqrt_u128(v);
}

/* q, rem += x / n, x % n, keeping rem < n. */
static void acc_div(unsigned __int128 *q, unsigned __int128 *rem, unsigned __int128 x,
		    size_t n)
{
	*q += x / n;
	*rem += x % n;
	if (*rem >= n) {
		*rem -= n;
		(*q)++;
	}
}

void stats_compute(uint64_t *samples, size_t n, struct stats *st)
{
	*st = (struct stats){ .n = n };
	if (!n)
		return;
	sort_u64(samples, n);
	st->min = samples[0];
	st->max = samples[n - 1];
	st->p50 = percentile_sorted(samples, n, 50);
	st->p90 = percentile_sorted(samples, n, 90);
	st->p99 = percentile_sorted(samples, n, 99);

	unsigned __int128 sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += samples[i];
	uint64_t mean = (uint64_t)((sum + n / 2) / n);

	/* Population variance, exactly: with d = x - mean (the rounded mean)
	 * and e = sum - n * mean (|e| <= n/2),
	 *     V = sum(d^2) / n - (e / n)^2.
	 * sum(d^2) / n is kept as quotient q and remainder rem: each d^2 fits
	 * 128 bits but their sum need not (sq is folded in before it would
	 * overflow). */
	unsigned __int128 sq = 0, q = 0, rem = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t d = samples[i] > mean ? samples[i] - mean : mean - samples[i];
		unsigned __int128 d2 = (unsigned __int128)d * d;

		if (sq > ~(unsigned __int128)0 - d2) {
			acc_div(&q, &rem, sq, n);
			sq = 0;
		}
		sq += d2;
	}
	acc_div(&q, &rem, sq, n);

	unsigned __int128 nm = (unsigned __int128)mean * n;
	unsigned __int128 e = sum > nm ? sum - nm : nm - sum;
	unsigned __int128 e2 = e * e, nn = (unsigned __int128)n * n;
	/* V = fl + num / n^2 with 0 <= num < n^2 (V >= 0, so q >= 1 whenever
	 * rem * n < e^2) */
	unsigned __int128 fl = q, num;

	if (rem * n >= e2) {
		num = rem * n - e2;
	} else {
		fl = q - 1;
		num = rem * n + nn - e2;
	}
	/* Round to nearest (ties up): r = floor(sqrt(V)) = isqrt(floor(V)),
	 * then r + 1 when V >= (r + 1/2)^2 = r^2 + r + 1/4. */
	uint64_t r = isqrt_u128(fl);
	unsigned __int128 k = (unsigned __int128)r * r + r;

	if (fl > k || (fl == k && 4 * num >= nn))
		r++;
	st->mean = mean;
	st->stddev = r;
}

int hist_format(char *buf, size_t size, const uint64_t *sorted, size_t n,
		unsigned buckets)
{
	size_t len = 0;
	char tmp[32];

#define EMIT(...) do { \
		int k_ = rl_snprintf(len < size ? buf + len : tmp, \
				     len < size ? size - len : sizeof(tmp), __VA_ARGS__); \
		len += (size_t)k_; \
	} while (0)

	if (!n || !buckets) {
		if (size)
			buf[0] = '\0';
		EMIT("lo=0 width=0 counts= over=0");
		return (int)len;
	}
	uint64_t lo = sorted[0];
	uint64_t hi = percentile_sorted(sorted, n, 99);
	uint64_t span = (hi - lo) / buckets;
	uint64_t width = span == UINT64_MAX ? UINT64_MAX : span + 1;	/* no wrap to 0 */
	size_t idx = 0, over = 0;

	if (size)
		buf[0] = '\0';
	EMIT("lo=%llu width=%llu counts=", (unsigned long long)lo,
	     (unsigned long long)width);
	for (unsigned b = 0; b < buckets; b++) {
		/* Compare offsets from lo so that a bucket top near 2^64 cannot
		 * wrap; the last bucket reaches hi by construction. */
		uint64_t top = (uint64_t)(b + 1) * width;	/* exclusive, from lo */
		size_t c = 0;

		while (idx < n && sorted[idx] <= hi &&
		       (b + 1 == buckets || sorted[idx] - lo < top)) {
			c++;
			idx++;
		}
		EMIT(b ? ",%zu" : "%zu", c);
	}
	over = n - idx;
	EMIT(" over=%zu", over);
#undef EMIT
	return (int)len;
}
