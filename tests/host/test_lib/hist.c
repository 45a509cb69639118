/* SPDX-License-Identifier: GPL-2.0-only */
/* lib/ host tests: histogram formatting (exact, truncated, random). */
#include "tests/host/test_lib/lib_test.h"

/* Parse "lo=%llu width=%llu counts=a,b,... over=%zu". */
static void hist_parse(const char *s, uint64_t *lo, uint64_t *width, uint64_t *counts,
		       unsigned *nb, uint64_t *over)
{
	char *end;

	assert_memory_equal(s, "lo=", 3);
	*lo = strtoull(s + 3, &end, 10);
	assert_memory_equal(end, " width=", 7);
	*width = strtoull(end + 7, &end, 10);
	assert_memory_equal(end, " counts=", 8);
	s = end + 8;
	*nb = 0;
	while (*s != ' ') {
		counts[(*nb)++] = strtoull(s, &end, 10);
		assert_true(end > s);
		s = end;
		if (*s == ',')
			s++;
	}
	assert_memory_equal(s, " over=", 6);
	*over = strtoull(s + 6, &end, 10);
	assert_int_equal(*end, '\0');
}

#define HIST(want, arr, n, b)                                                   \
	do {                                                                    \
		char hb_[512];                                                  \
		int k_ = hist_format(hb_, sizeof(hb_), arr, n, b);              \
		assert_string_equal(hb_, want);                                 \
		assert_int_equal(k_, strlen(want));                             \
	} while (0)

void test_hist_format_exact(void **state)
{
	(void)state;
	uint64_t one[1] = { 5 };

	HIST("lo=0 width=0 counts= over=0", NULL, 0, 4);
	HIST("lo=0 width=0 counts= over=0", one, 1, 0);
	HIST("lo=5 width=1 counts=1,0,0,0 over=0", one, 1, 4);
	HIST("lo=5 width=1 counts=1 over=0", one, 1, 1);

	uint64_t h[100];

	for (int i = 0; i < 100; i++)
		h[i] = (uint64_t)i + 1;
	/* hi = p99 = 99, width = 98/10 + 1 = 10; 100 is in the tail */
	HIST("lo=1 width=10 counts=10,10,10,10,10,10,10,10,10,9 over=1", h, 100, 10);
	HIST("lo=1 width=99 counts=99 over=1", h, 100, 1);
	HIST("lo=1 width=50 counts=50,49 over=1", h, 100, 2);

	uint64_t tail[100];

	for (int i = 0; i < 99; i++)
		tail[i] = 10;
	tail[99] = 1000000;
	HIST("lo=10 width=1 counts=99,0,0 over=1", tail, 100, 3);

	/* fewer than 100 samples: p99 is the maximum, nothing is "over" */
	uint64_t few[5] = { 100, 101, 150, 199, 300 };

	HIST("lo=100 width=51 counts=3,1,0,1 over=0", few, 5, 4);

	/* samples near the top of the range: bucket tops must not wrap */
	uint64_t top[3] = { 1, 2, UINT64_MAX - 1 };

	HIST("lo=1 width=4611686018427387904 counts=2,0,0,1 over=0", top, 3, 4);
	uint64_t top2[2] = { UINT64_MAX - 3, UINT64_MAX };

	HIST("lo=18446744073709551612 width=2 counts=1,1 over=0", top2, 2, 2);
	/* the whole range in one bucket: width 2^64 does not fit, it is
	 * shown saturated and the bucket still holds everything up to p99 */
	uint64_t full[2] = { 0, UINT64_MAX };

	HIST("lo=0 width=18446744073709551615 counts=2 over=0", full, 2, 1);
	HIST("lo=0 width=9223372036854775808 counts=1,1 over=0", full, 2, 2);
}

void test_hist_format_truncation(void **state)
{
	(void)state;
	uint64_t h[100];
	char full[512], b[512];

	for (int i = 0; i < 100; i++)
		h[i] = (uint64_t)i * 3 + 1000;
	int n = hist_format(full, sizeof(full), h, 100, 16);

	assert_int_equal((size_t)n, strlen(full));
	for (size_t size = 0; size <= (size_t)n + 1; size++) {
		memset(b, SENTINEL, sizeof(b));
		int k = hist_format(size ? b : NULL, size, h, 100, 16);

		assert_int_equal(k, n);
		if (size == 0)
			continue;
		size_t len = strlen(b);

		assert_int_equal(len, size - 1 < (size_t)n ? size - 1 : (size_t)n);
		assert_memory_equal(b, full, len);
		for (size_t i = len + 1; i < sizeof(b); i++)
			assert_int_equal((unsigned char)b[i], SENTINEL);
	}
	/* the empty form truncates too */
	assert_int_equal(hist_format(b, 4, NULL, 0, 8), 27);
	assert_string_equal(b, "lo=");
	assert_int_equal(hist_format(NULL, 0, NULL, 0, 8), 27);
}

void test_hist_format_random(void **state)
{
	(void)state;
	struct rng r;
	static uint64_t a[2000];
	static char b[1 << 16];
	uint64_t counts[300];

	rng_seed(&r, 4242);
	for (int t = 0; t < 600; t++) {
		size_t n = 1 + rng_below(&r, 2000);
		unsigned nb = 1 + (unsigned)rng_below(&r, 300);
		int kind = (int)rng_below(&r, 7);

		fill_random(&r, a, n, kind);
		if (kind == 6)	/* a few outliers */
			for (int k = 0; k < 3; k++)
				a[rng_below(&r, n)] = rng_next(&r);
		qsort(a, n, sizeof(a[0]), cmp_u64);
		int len = hist_format(b, sizeof(b), a, n, nb);

		assert_int_equal((size_t)len, strlen(b));
		uint64_t lo, width, over;
		unsigned got;

		hist_parse(b, &lo, &width, counts, &got, &over);
		assert_int_equal(got, nb);
		uint64_t hi = percentile_sorted(a, n, 99), sum = over;

		assert_int_equal(lo, a[0]);
		for (unsigned i = 0; i < nb; i++)
			sum += counts[i];
		assert_int_equal(sum, n);
		/* `over` is exactly the samples above p99 */
		uint64_t above = 0;

		for (size_t i = 0; i < n; i++)
			above += a[i] > hi;
		assert_int_equal(over, above);
		/* each bucket holds the samples in [lo + i*w, lo + (i+1)*w) */
		if (width != 0 && (hi - lo) / nb < UINT64_MAX) {
			assert_int_equal(width, (hi - lo) / nb + 1);
			for (unsigned i = 0; i < nb; i++) {
				unsigned __int128 b0 = lo + (unsigned __int128)i * width,
						  b1 = b0 + width;
				uint64_t c = 0;

				for (size_t k = 0; k < n; k++)
					c += a[k] <= hi && a[k] >= b0 && a[k] < b1;
				assert_int_equal(counts[i], c);
			}
		}
	}
}
