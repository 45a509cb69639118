/* SPDX-License-Identifier: GPL-2.0-only */
/* lib/ host tests: sorting, percentiles, isqrt and stats_compute against
 * brute-force and exact-integer references. */
#include "tests/host/test_lib/lib_test.h"

/* ============================================================= stats === */

int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void fill_random(struct rng *r, uint64_t *a, size_t n, int kind)
{
	for (size_t i = 0; i < n; i++) {
		switch (kind) {
		case 0: a[i] = rng_next(r); break;			/* full range */
		case 1: a[i] = rng_below(r, 8); break;			/* many duplicates */
		case 2: a[i] = i; break;				/* sorted */
		case 3: a[i] = n - i; break;				/* reversed */
		case 4: a[i] = 7; break;				/* all equal */
		case 5: a[i] = rng_below(r, 2) ? UINT64_MAX : 0; break;	/* extremes */
		default: a[i] = 1000 + rng_below(r, 100); break;
		}
	}
}

void test_sort_u64(void **state)
{
	(void)state;
	struct rng r;
	uint64_t a[600], b[600];

	rng_seed(&r, 1);
	sort_u64(NULL, 0);
	for (int kind = 0; kind < 7; kind++) {
		for (size_t n = 0; n <= 70; n++) {
			fill_random(&r, a, n, kind);
			memcpy(b, a, n * sizeof(a[0]));
			sort_u64(a, n);
			qsort(b, n, sizeof(b[0]), cmp_u64);
			if (n)
				assert_memory_equal(a, b, n * sizeof(a[0]));
		}
		for (int t = 0; t < 20; t++) {
			size_t n = 71 + rng_below(&r, 600 - 71);

			fill_random(&r, a, n, kind);
			memcpy(b, a, n * sizeof(a[0]));
			sort_u64(a, n);
			qsort(b, n, sizeof(b[0]), cmp_u64);
			assert_memory_equal(a, b, n * sizeof(a[0]));
		}
	}
	/* sorting touches only the n given elements */
	uint64_t c[5] = { 9, 3, 1, 0xdead, 0xbeef };

	sort_u64(c, 3);
	assert_int_equal(c[0], 1);
	assert_int_equal(c[1], 3);
	assert_int_equal(c[2], 9);
	assert_int_equal(c[3], 0xdead);
	assert_int_equal(c[4], 0xbeef);
}

/* The definition: the smallest sample s with #(x <= s) >= pct% of n. */
static uint64_t pct_brute(const uint64_t *sorted, size_t n, unsigned pct)
{
	for (size_t i = 0; i < n; i++) {
		size_t le = 0;

		for (size_t j = 0; j < n; j++)
			le += sorted[j] <= sorted[i];
		if ((uint64_t)le * 100 >= (uint64_t)pct * n)
			return sorted[i];
	}
	return sorted[n - 1];
}

void test_percentile(void **state)
{
	(void)state;
	uint64_t one[1] = { 42 };

	for (unsigned p = 0; p <= 100; p++)
		assert_int_equal(percentile_sorted(one, 1, p), 42);
	assert_int_equal(percentile_sorted(one, 0, 50), 0);
	assert_int_equal(percentile_sorted(NULL, 0, 50), 0);

	uint64_t ten[10], eleven[11], hundred[100];

	for (unsigned i = 0; i < 10; i++)
		ten[i] = i + 1;
	for (unsigned i = 0; i < 11; i++)
		eleven[i] = i + 1;
	for (unsigned i = 0; i < 100; i++)
		hundred[i] = i + 1;
	assert_int_equal(percentile_sorted(ten, 10, 0), 1);
	assert_int_equal(percentile_sorted(ten, 10, 1), 1);
	assert_int_equal(percentile_sorted(ten, 10, 10), 1);
	assert_int_equal(percentile_sorted(ten, 10, 11), 2);
	assert_int_equal(percentile_sorted(ten, 10, 50), 5);
	assert_int_equal(percentile_sorted(ten, 10, 51), 6);
	assert_int_equal(percentile_sorted(ten, 10, 90), 9);
	assert_int_equal(percentile_sorted(ten, 10, 99), 10);
	assert_int_equal(percentile_sorted(ten, 10, 100), 10);
	assert_int_equal(percentile_sorted(ten, 10, 101), 10);	/* clamped */
	assert_int_equal(percentile_sorted(ten, 10, UINT32_MAX), 10);
	assert_int_equal(percentile_sorted(eleven, 11, 50), 6);	/* rank ceil(5.5) */
	assert_int_equal(percentile_sorted(eleven, 11, 90), 10);	/* ceil(9.9) */
	for (unsigned p = 1; p <= 100; p++)
		assert_int_equal(percentile_sorted(hundred, 100, p), p);
	assert_int_equal(percentile_sorted(hundred, 100, 0), 1);

	/* random arrays with duplicates vs. the definition */
	struct rng r;
	uint64_t a[257];

	rng_seed(&r, 99);
	for (int t = 0; t < 300; t++) {
		size_t n = 1 + rng_below(&r, 257);

		fill_random(&r, a, n, t % 2 ? 1 : 6);
		qsort(a, n, sizeof(a[0]), cmp_u64);
		for (unsigned p = 0; p <= 100; p += 1 + (unsigned)rng_below(&r, 7))
			assert_int_equal(percentile_sorted(a, n, p), pct_brute(a, n, p));
		assert_int_equal(percentile_sorted(a, n, 0), a[0]);
		assert_int_equal(percentile_sorted(a, n, 100), a[n - 1]);
	}
}

void test_isqrt(void **state)
{
	(void)state;
	/* exhaustive for small values */
	for (uint64_t v = 0; v <= (1u << 20); v++) {
		uint64_t s = isqrt_u64(v);

		if (!(s * s <= v && (s + 1) * (s + 1) > v))
			fail_msg("isqrt_u64(%" PRIu64 ") = %" PRIu64, v, s);
	}
	/* squares and their neighbours up to the top */
	const uint64_t ks[] = { 1u << 20, 1u << 31, 3037000499u, 3037000500u,
				0xfffffffeu, 0xffffffffu };

	for (unsigned i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
		uint64_t k = ks[i], sq = k * k;

		assert_int_equal(isqrt_u64(sq), k);
		assert_int_equal(isqrt_u64(sq - 1), k - 1);
		if (k < 0xffffffffu)
			assert_int_equal(isqrt_u64(sq + 1), k);
		if (k < 0xffffffffu)
			assert_int_equal(isqrt_u64(sq + 2 * k), k);	/* (k+1)^2 - 1 */
	}
	assert_int_equal(isqrt_u64(UINT64_MAX), 0xffffffffu);
	assert_int_equal(isqrt_u64(0xfffffffe00000001ull), 0xffffffffu);	/* (2^32-1)^2 */
	assert_int_equal(isqrt_u64(0xfffffffe00000000ull), 0xfffffffeu);
	assert_int_equal(isqrt_u64(1ull << 62), 1u << 31);
	assert_int_equal(isqrt_u64(1ull << 63), 3037000499u);
	/* random large values */
	struct rng r;

	rng_seed(&r, 7);
	for (int t = 0; t < 200000; t++) {
		uint64_t v = rng_next(&r) >> rng_below(&r, 64);
		unsigned __int128 s = isqrt_u64(v);

		assert_true(s * s <= v);
		assert_true((s + 1) * (s + 1) > v);
	}
}

/* Exact reference for mean and population stddev, both rounded to nearest
 * (ties up), for inputs where n * sum(x^2) fits in 128 bits. */
static void stats_ref(const uint64_t *a, size_t n, uint64_t *mean, uint64_t *sd)
{
	unsigned __int128 s = 0, s2 = 0;

	for (size_t i = 0; i < n; i++) {
		s += a[i];
		s2 += (unsigned __int128)a[i] * a[i];
	}
	*mean = (uint64_t)((2 * s + n) / (2 * n));	/* floor(s/n + 1/2) */
	/* n^2 * var = n * s2 - s^2 =: v; stddev = round(sqrt(v) / n) */
	unsigned __int128 v = n * s2 - s * s, nn = (unsigned __int128)n * n;
	unsigned __int128 f = v / nn;		/* floor(var) */
	uint64_t lo = 0, hi = UINT64_MAX;	/* r = floor(sqrt(f)) */

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2 + 1;

		if ((unsigned __int128)mid * mid <= f)
			lo = mid;
		else
			hi = mid - 1;
	}
	/* round up when var >= (r + 1/2)^2, i.e. (2r+1)^2 n^2 <= 4v */
	if ((unsigned __int128)(2 * lo + 1) * (2 * lo + 1) * nn <= 4 * v)
		lo++;
	*sd = lo;
}

void test_stats_compute_small(void **state)
{
	(void)state;
	struct stats st;

	memset(&st, 0xaa, sizeof(st));
	stats_compute(NULL, 0, &st);
	assert_int_equal(st.n, 0);
	assert_int_equal(st.min, 0);
	assert_int_equal(st.max, 0);
	assert_int_equal(st.p50, 0);
	assert_int_equal(st.p99, 0);
	assert_int_equal(st.mean, 0);
	assert_int_equal(st.stddev, 0);

	uint64_t one[1] = { 12345 };

	stats_compute(one, 1, &st);
	assert_int_equal(st.n, 1);
	assert_int_equal(st.min, 12345);
	assert_int_equal(st.p50, 12345);
	assert_int_equal(st.p90, 12345);
	assert_int_equal(st.p99, 12345);
	assert_int_equal(st.max, 12345);
	assert_int_equal(st.mean, 12345);
	assert_int_equal(st.stddev, 0);

	/* textbook: mean 5, sigma exactly 2; input unsorted, sorted in place */
	uint64_t t[8] = { 9, 4, 2, 4, 5, 7, 4, 5 };

	stats_compute(t, 8, &st);
	assert_int_equal(st.mean, 5);
	assert_int_equal(st.stddev, 2);
	assert_int_equal(st.min, 2);
	assert_int_equal(st.max, 9);
	assert_int_equal(st.p50, 4);
	assert_int_equal(st.p90, 9);
	for (int i = 1; i < 8; i++)
		assert_true(t[i - 1] <= t[i]);

	/* rounding of the mean: 2.5 -> 3 (ties up), 7/3 -> 2, 8/3 -> 3 */
	uint64_t m1[4] = { 1, 2, 3, 4 }, m2[3] = { 2, 2, 3 }, m3[3] = { 2, 3, 3 };

	stats_compute(m1, 4, &st);
	assert_int_equal(st.mean, 3);
	stats_compute(m2, 3, &st);
	assert_int_equal(st.mean, 2);
	stats_compute(m3, 3, &st);
	assert_int_equal(st.mean, 3);

	/* sigma = sqrt(2.5) = 1.58 -> 2: the variance must not be floored to
	 * 2 before the rounding decision */
	uint64_t s1[4] = { 8, 9, 11, 12 };

	stats_compute(s1, 4, &st);
	assert_int_equal(st.mean, 10);
	assert_int_equal(st.stddev, 2);

	/* sigma = sqrt(2/9) = 0.47 -> 0 (about the rounded mean 0 it would
	 * be sqrt(1/3) = 0.58 -> 1) */
	uint64_t s2[3] = { 0, 0, 1 };

	stats_compute(s2, 3, &st);
	assert_int_equal(st.mean, 0);
	assert_int_equal(st.stddev, 0);

	/* mean 1, var 2/5, sigma 0.63 -> 1 */
	uint64_t s3[5] = { 0, 1, 1, 1, 2 };

	stats_compute(s3, 5, &st);
	assert_int_equal(st.mean, 1);
	assert_int_equal(st.stddev, 1);

	/* sigma = 0.5 exactly ties up to 1 */
	uint64_t s4[2] = { 10, 11 };

	stats_compute(s4, 2, &st);
	assert_int_equal(st.mean, 11);
	assert_int_equal(st.stddev, 1);
}

void test_stats_compute_random_exact(void **state)
{
	(void)state;
	struct rng r;
	static uint64_t a[1000];
	struct stats st;

	rng_seed(&r, 2024);
	for (int t = 0; t < 4000; t++) {
		size_t n = 1 + rng_below(&r, t < 3000 ? 12 : 1000);
		uint64_t range = 1 + rng_below(&r, t % 3 == 0 ? 10 : 1ull << (4 + t % 28));
		uint64_t base = t % 5 == 0 ? rng_below(&r, 1ull << 20) : 0;

		for (size_t i = 0; i < n; i++)
			a[i] = base + rng_below(&r, range);
		uint64_t mean, sd;

		stats_ref(a, n, &mean, &sd);
		stats_compute(a, n, &st);
		if (st.mean != mean || st.stddev != sd) {
			for (size_t i = 0; i < n && i < 12; i++)
				print_message("  a[%zu] = %" PRIu64 "\n", i, a[i]);
			fail_msg("n=%zu: mean %" PRIu64 " (want %" PRIu64 "), stddev %" PRIu64
				 " (want %" PRIu64 ")", n, st.mean, mean, st.stddev, sd);
		}
		assert_int_equal(st.n, n);
		assert_int_equal(st.min, a[0]);
		assert_int_equal(st.max, a[n - 1]);
		assert_int_equal(st.p50, pct_brute(a, n, 50));
		assert_int_equal(st.p90, pct_brute(a, n, 90));
		assert_int_equal(st.p99, pct_brute(a, n, 99));
	}
}

void test_stats_compute_large(void **state)
{
	(void)state;
	struct stats st;
	const uint64_t h = 1ull << 63;

	/* the sum needs more than 64 bits */
	uint64_t a[2] = { h, h + 2 };

	stats_compute(a, 2, &st);
	assert_int_equal(st.mean, h + 1);
	assert_int_equal(st.stddev, 1);

	uint64_t b[4] = { UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX };

	stats_compute(b, 4, &st);
	assert_int_equal(st.mean, UINT64_MAX);
	assert_int_equal(st.stddev, 0);

	uint64_t c[3] = { UINT64_MAX - 2, UINT64_MAX - 1, UINT64_MAX };

	stats_compute(c, 3, &st);
	assert_int_equal(st.mean, UINT64_MAX - 1);
	assert_int_equal(st.stddev, 1);		/* sqrt(2/3) = 0.82 */

	/* squared deviations need more than 64 bits: a 2^33-cycle outlier
	 * (about 3 s at 3 GHz) */
	uint64_t d[2] = { 0, 1ull << 33 };

	stats_compute(d, 2, &st);
	assert_int_equal(st.mean, 1ull << 32);
	assert_int_equal(st.stddev, 1ull << 32);

	/* realistic: 999 samples near 2000 cycles and one of 10^12 */
	static uint64_t e[1000];

	for (int i = 0; i < 999; i++)
		e[i] = 2000 + (uint64_t)(i % 7);
	e[999] = 1000000000000ull;
	stats_compute(e, 1000, &st);
	/* exact: mean = (sum)/1000 rounded; sigma by the exact reference
	 * (n * sum(x^2) = 1000 * 10^24 < 2^128) */
	uint64_t mean, sd;

	stats_ref(e, 1000, &mean, &sd);
	assert_int_equal(mean, 1000002001ull);
	assert_int_equal(st.mean, mean);
	assert_int_equal(st.stddev, sd);
	assert_int_equal(sd, 31606961195ull);
	assert_int_equal(st.p99, 2006);
	assert_int_equal(st.max, 1000000000000ull);

	/* full range: mean 2^63 (2^63 - 0.5 rounded up), sigma 2^63 - 0.5 -> 2^63 */
	uint64_t f[2] = { 0, UINT64_MAX };

	stats_compute(f, 2, &st);
	assert_int_equal(st.mean, h);
	assert_int_equal(st.stddev, h);

	/* many maximal deviations: the plain sum of squares would overflow
	 * 128 bits */
	static uint64_t g[64];

	for (int i = 0; i < 64; i++)
		g[i] = i % 2 ? UINT64_MAX : 0;
	stats_compute(g, 64, &st);
	assert_int_equal(st.mean, h);
	assert_int_equal(st.stddev, h);
	uint64_t g3[3] = { 0, 0, UINT64_MAX };	/* mean (2^64-1)/3, sigma (2^64-1)*sqrt(2)/3 */

	stats_compute(g3, 3, &st);
	assert_int_equal(st.mean, 0x5555555555555555ull);
	assert_int_equal(st.stddev, 8695878550221854808ull);
}
