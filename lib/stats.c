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

uint64_t isqrt_u64(uint64_t v)
{
	uint64_t r = 0, bit = (uint64_t)1 << 62;

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
	return r;
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

	/* Variance about the rounded mean, in 128-bit so that large cycle
	 * counts squared cannot overflow. */
	unsigned __int128 sq = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t d = samples[i] > mean ? samples[i] - mean : mean - samples[i];

		sq += (unsigned __int128)d * d;
	}
	unsigned __int128 var = sq / n;

	st->mean = mean;
	st->stddev = var >> 64 ? UINT64_MAX : isqrt_u64((uint64_t)var);
	/* round to nearest: compare against (r + 0.5)^2 = r^2 + r + 0.25 */
	if (!(var >> 64) && st->stddev != UINT64_MAX &&
	    (uint64_t)var > st->stddev * st->stddev + st->stddev)
		st->stddev++;
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
	uint64_t width = (hi - lo) / buckets + 1;
	size_t idx = 0, over = 0;

	if (size)
		buf[0] = '\0';
	EMIT("lo=%llu width=%llu counts=", (unsigned long long)lo,
	     (unsigned long long)width);
	for (unsigned b = 0; b < buckets; b++) {
		uint64_t top = lo + (b + 1) * width;	/* exclusive */
		size_t c = 0;

		while (idx < n && sorted[idx] < top && sorted[idx] <= hi) {
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
