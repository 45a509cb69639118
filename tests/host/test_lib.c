/* Host unit tests for lib/: printf.c, crc32.c, stats.c, parse.c, string.c.
 *
 * rl_snprintf is compared with the C library's snprintf wherever C99 fixes
 * the result (same text, same return value, same truncation); the places
 * where ringlab deliberately differs (%p, unknown conversions) are checked
 * against exact strings.  The statistics are checked against brute-force
 * and exact-integer references. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/crc32.h"
#include "lib/parse.h"
#include "lib/printf.h"
#include "lib/rand.h"
#include "lib/stats.h"
#include "lib/string.h"

/* ============================================================ printf === */

#define FMT_BUF 512
#define SENTINEL 0x5a

static char rl_out[FMT_BUF], lc_out[FMT_BUF];

/* Both buffers were filled with SENTINEL before the calls.  Same return
 * value, same text, and rl_snprintf wrote nothing past the terminator. */
static void fmt_compare(const char *file, int line, const char *fmt, size_t size,
			int rl, int lc)
{
	if (rl != lc)
		fail_msg("%s:%d: \"%s\" size %zu: rl_snprintf returned %d, snprintf %d",
			 file, line, fmt, size, rl, lc);
	if (size == 0)
		return;
	if (strcmp(rl_out, lc_out) != 0)
		fail_msg("%s:%d: \"%s\" size %zu: rl_snprintf gave \"%s\", snprintf \"%s\"",
			 file, line, fmt, size, rl_out, lc_out);
	size_t used = strlen(rl_out) + 1;

	assert_true(used <= size);
	for (size_t i = used; i < FMT_BUF; i++)
		if ((unsigned char)rl_out[i] != SENTINEL)
			fail_msg("%s:%d: \"%s\" size %zu: byte %zu past the output was written",
				 file, line, fmt, size, i);
}

/* Compare rl_snprintf with snprintf for one format, at the full buffer size
 * and at every truncating size from 0 up. */
#define CMP(...)                                                                \
	do {                                                                    \
		memset(lc_out, SENTINEL, sizeof(lc_out));                       \
		int full_ = snprintf(lc_out, sizeof(lc_out), __VA_ARGS__);      \
		assert_true(full_ >= 0 && full_ < FMT_BUF);                     \
		for (size_t sz_ = 0; sz_ <= (size_t)full_ + 2; sz_++) {         \
			memset(rl_out, SENTINEL, sizeof(rl_out));               \
			memset(lc_out, SENTINEL, sizeof(lc_out));               \
			int rl_ = rl_snprintf(sz_ ? rl_out : NULL, sz_, __VA_ARGS__); \
			int lc_ = snprintf(sz_ ? lc_out : NULL, sz_, __VA_ARGS__); \
			fmt_compare(__FILE__, __LINE__, #__VA_ARGS__, sz_, rl_, lc_); \
		}                                                               \
	} while (0)

/* Exact expected text for the places where ringlab defines the output. */
#define EXPECT(want, ...)                                                       \
	do {                                                                    \
		char b_[FMT_BUF];                                               \
		int n_ = rl_snprintf(b_, sizeof(b_), __VA_ARGS__);              \
		assert_string_equal(b_, want);                                  \
		assert_int_equal(n_, strlen(want));                             \
	} while (0)

static void test_printf_integers(void **state)
{
	(void)state;
	CMP("%d", 0);
	CMP("%d", 42);
	CMP("%d", -42);
	CMP("%i", INT_MAX);
	CMP("%i", INT_MIN);
	CMP("%u", 0u);
	CMP("%u", UINT_MAX);
	CMP("%x", 0xdeadbeefu);
	CMP("%X", 0xdeadbeefu);
	CMP("%o", 0u);
	CMP("%o", 8u);
	CMP("%o", UINT_MAX);
	CMP("[%d|%u|%x|%X|%o]", -1, 1u, 255u, 255u, 255u);
	CMP("plain text, no conversions");
	CMP("%%");
	CMP("100%% done %d%%", 7);
	CMP("%s", "");
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-zero-length"
	CMP("");
#pragma GCC diagnostic pop
}

static void test_printf_flags_width_precision(void **state)
{
	(void)state;
	/* width */
	CMP("[%5d]", 42);
	CMP("[%5d]", -42);
	CMP("[%1d]", 12345);
	CMP("[%-5d]", 42);
	CMP("[%-5d]", -42);
	CMP("[%05d]", 42);
	CMP("[%05d]", -42);
	CMP("[%05x]", 0xabu);
	CMP("[%08X]", 0xabcu);
	CMP("[%010o]", 0777u);
	/* sign flags */
	CMP("[%+d]", 5);
	CMP("[%+d]", -5);
	CMP("[%+d]", 0);
	CMP("[% d]", 5);
	CMP("[% d]", -5);
	CMP("[% 5d]", 5);
	CMP("[%+5d]", 5);
	CMP("[%+05d]", 5);
	CMP("[% 05d]", 5);
	CMP("[%-+6d]", 5);
	CMP("[%- 6d]", 5);
	CMP("[%+i]", INT_MIN);
	/* precision */
	CMP("[%.0d]", 0);
	CMP("[%5.0d]", 0);
	CMP("[%-5.0d]", 0);
	CMP("[%.0x]", 0u);
	CMP("[%.0u]", 0u);
	CMP("[%.0o]", 0u);
	CMP("[%.0d]", 7);
	CMP("[%.3d]", 7);
	CMP("[%.3d]", -7);
	CMP("[%.3d]", 12345);
	CMP("[%8.3d]", -7);
	CMP("[%-8.3d]", -7);
	CMP("[%+.3d]", 7);
	CMP("[% .3d]", 7);
	CMP("[%.10x]", 0xbeefu);
	CMP("[%12.10X]", 0xbeefu);
	CMP("[%.d]", 0);		/* "." alone is precision 0 */
	CMP("[%.5u]", 42u);
	/* '0' is ignored with a precision (C99 7.19.6.1p6); gcc says so too */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-zero-length"
	CMP("[%08.3d]", -7);
	CMP("[%08.3x]", 0x1fu);
	CMP("[%010.0d]", 0);
#pragma GCC diagnostic pop
	/* strings and characters */
	CMP("[%s]", "hello");
	CMP("[%10s]", "hello");
	CMP("[%-10s]", "hello");
	CMP("[%.3s]", "hello");
	CMP("[%.0s]", "hello");
	CMP("[%.10s]", "hello");
	CMP("[%8.3s]", "hello");
	CMP("[%-8.3s]", "hello");
	CMP("[%3s]", "hello");
	CMP("[%c]", 'x');
	CMP("[%5c]", 'x');
	CMP("[%-5c]", 'x');
	CMP("[%c%c%c]", 'a', 'b', 'c');
	/* repeated and overriding flags: legal, but gcc warns */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-zero-length"
	CMP("[%--5d]", 3);
	CMP("[%++d]", 3);
	CMP("[%-+ 7d]", 3);
	CMP("[%+ 7d]", 3);
#pragma GCC diagnostic pop
}

static void test_printf_star(void **state)
{
	(void)state;
	CMP("[%*d]", 6, 42);
	CMP("[%*d]", -6, 42);		/* negative width: '-' flag */
	CMP("[%*d]", 0, 42);
	CMP("[%-*d]", 6, 42);
	CMP("[%0*d]", 6, -42);
	CMP("[%.*d]", 4, 42);
	CMP("[%.*d]", 0, 0);
	CMP("[%.*d]", -1, 0);		/* negative precision: as if omitted */
	CMP("[%.*d]", -3, 42);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-zero-length"
	CMP("[%0*.*d]", 8, -1, 42);	/* omitted precision: '0' applies */
#pragma GCC diagnostic pop
	CMP("[%*.*d]", 8, 4, -42);
	CMP("[%*.*s]", 8, 3, "abcdef");
	CMP("[%-*.*s]", 8, 3, "abcdef");
	CMP("[%*.*s]", -8, 3, "abcdef");
	CMP("[%.*s]", -1, "abcdef");
	CMP("[%*s]", 3, "abcdef");
	CMP("[%*c]", 4, 'z');
	CMP("[%*c]", -4, 'z');
	CMP("[%*x|%*x]", 4, 0x1u, -4, 0x2u);
}

static void test_printf_length_modifiers(void **state)
{
	(void)state;
	CMP("%hhd", (signed char)-128);
	CMP("%hhd", (signed char)127);
	CMP("%hhd", 255);		/* converted to signed char: -1 */
	CMP("%hhd", 0x1234);
	CMP("%hhu", 255);
	CMP("%hhu", 256);
	CMP("%hhx", 0x1ff);
	CMP("%hho", 0777);
	CMP("%hd", (short)-32768);
	CMP("%hd", 65535);
	CMP("%hd", 0x12345);
	CMP("%hu", 65536 + 7);
	CMP("%hx", 0xabcdef);
	CMP("%hX", 0xabcdef);
	CMP("%ld", LONG_MIN);
	CMP("%ld", LONG_MAX);
	CMP("%lu", ULONG_MAX);
	CMP("%lx", 0x0123456789abcdefUL);
	CMP("%lo", ULONG_MAX);
	CMP("%lld", LLONG_MIN);
	CMP("%lld", LLONG_MAX);
	CMP("%lld", -1LL);
	CMP("%llu", ULLONG_MAX);
	CMP("%llx", ULLONG_MAX);
	CMP("%llX", 0xfedcba9876543210ULL);
	CMP("%llo", ULLONG_MAX);	/* 22 octal digits */
	CMP("%lli", 0LL);
	CMP("%zu", (size_t)SIZE_MAX);
	CMP("%zx", (size_t)0x1234);
	CMP("%zd", (ssize_t)-5);
	CMP("%td", (ptrdiff_t)-123456789012LL);
	CMP("%tu", (ptrdiff_t)99);
	CMP("%jd", (intmax_t)INTMAX_MIN);
	CMP("%ju", (uintmax_t)UINTMAX_MAX);
	CMP("%jx", (uintmax_t)0xffff0000ffff0000ULL);
	CMP("[%20llu]", 12345ULL);
	CMP("[%-20lld]", -12345LL);
	CMP("[%020lld]", -12345LL);
	CMP("[%+.25lld]", 12345LL);
	CMP("[%.25llo]", ULLONG_MAX);
	CMP("[%+ld|% ld]", 1L, 1L);
	/* mixing sizes in one call keeps va_arg in step */
	CMP("%hhd %hd %d %ld %lld %zu %c %s", 1, 2, 3, 4L, 5LL, (size_t)6, '7', "8");
}

/* The places where ringlab's output is defined by printf.h, not by C99. */
static void test_printf_ringlab_specific(void **state)
{
	(void)state;
	/* %p: 0x and 16 hex digits (glibc prints "(nil)" and no padding) */
	EXPECT("0x0000000000000000", "%p", (void *)0);
	EXPECT("0x00000000deadbeef", "%p", (void *)(uintptr_t)0xdeadbeef);
	EXPECT("0xffffffffffffffff", "%p", (void *)(uintptr_t)UINTPTR_MAX);
	EXPECT("0xffff800000001000", "%p", (void *)(uintptr_t)0xffff800000001000ull);
	EXPECT("[0x0000000000000010|x]", "[%p|%c]", (void *)16, 'x');
	/* %s of NULL */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-overflow"
	EXPECT("(null)", "%s", (char *)NULL);
	EXPECT("[(nu]", "[%.3s]", (char *)NULL);
	EXPECT("[  (null)]", "[%8s]", (char *)NULL);
#pragma GCC diagnostic pop

	/* Unknown conversions are printed verbatim so the bug shows; the
	 * arguments are not consumed, so later conversions stay in step. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
	EXPECT("%y", "%y");
	EXPECT("a%qb", "a%qb");
	EXPECT("%k 7", "%k %d", 7);
	EXPECT("%f", "%f", 1.5);	/* no floating point in the kernel */
	EXPECT("%n|3", "%n|%d", 3);	/* %n is not supported: nothing stored */
	/* a lone '%' at the end is dropped */
	EXPECT("abc", "abc%");
	EXPECT("abc", "abc%-08");
	/* '0' with '-' : '-' wins (C99), same as glibc */
	EXPECT("[42   ]", "[%-05d]", 42);
	EXPECT("[42   ]", "[%0-5d]", 42);
	/* '+' and ' ' only apply to signed conversions */
	EXPECT("[5|5|5|5]", "[%+u|% u|%+x|% o]", 5u, 5u, 5u, 5u);
	/* '%' with flags and width prints a single '%' */
	EXPECT("%", "%5%");
#pragma GCC diagnostic pop
}

static void test_printf_truncation(void **state)
{
	(void)state;
	char b[16];

	/* return value is the untruncated length; always terminated */
	memset(b, 'X', sizeof(b));
	assert_int_equal(rl_snprintf(b, 5, "hello world"), 11);
	assert_string_equal(b, "hell");
	assert_int_equal(b[5], 'X');
	memset(b, 'X', sizeof(b));
	assert_int_equal(rl_snprintf(b, 1, "hello"), 5);
	assert_int_equal(b[0], '\0');
	assert_int_equal(b[1], 'X');
	memset(b, 'X', sizeof(b));
	assert_int_equal(rl_snprintf(b, 0, "hello"), 5);
	assert_int_equal(b[0], 'X');	/* size 0: nothing written at all */
	assert_int_equal(rl_snprintf(NULL, 0, "%d-%s", 12345, "abc"), 9);
	/* exact fit */
	assert_int_equal(rl_snprintf(b, 6, "hello"), 5);
	assert_string_equal(b, "hello");
	assert_int_equal(rl_snprintf(b, 5, "hello"), 5);
	assert_string_equal(b, "hell");
	/* truncation in the middle of a padded number */
	assert_int_equal(rl_snprintf(b, 4, "%08d", -42), 8);
	assert_string_equal(b, "-00");
	assert_int_equal(rl_snprintf(b, 3, "%p", (void *)1), 18);
	assert_string_equal(b, "0x");
	/* a long output: every length counted */
	char big[3000];

	memset(big, 'q', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(rl_snprintf(b, sizeof(b), "%s|%s", big, big), 2 * 2999 + 1);
	assert_int_equal(strlen(b), sizeof(b) - 1);
	assert_int_equal(rl_snprintf(b, sizeof(b), "%*d", 1000, 1), 1000);
	assert_int_equal(strlen(b), sizeof(b) - 1);
}

static int vwrap(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int vwrap(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	int n = rl_vsnprintf(buf, size, fmt, ap);

	va_end(ap);
	return n;
}

static void test_printf_vsnprintf_and_random(void **state)
{
	(void)state;
	char b[64];

	assert_int_equal(vwrap(b, sizeof(b), "%s=%llu", "n", 18446744073709551615ull), 22);
	assert_string_equal(b, "n=18446744073709551615");

	/* random values through every integer conversion, vs. libc */
	struct rng r;

	rng_seed(&r, 0x5eed);
	for (int i = 0; i < 3000; i++) {
		uint64_t v = rng_next(&r) >> rng_below(&r, 64);
		int w = (int)rng_below(&r, 24) - 4, p = (int)rng_below(&r, 24) - 4;

		CMP("[%*.*lld]", w, p, (long long)v);
		CMP("[%-*.*lld]", w, p, -(long long)v);
		CMP("[%+0*lld]", w, (long long)v);
		CMP("[%*.*llu]", w, p, (unsigned long long)v);
		CMP("[%0*llx]", w, (unsigned long long)v);
		CMP("[%*.*llX]", w, p, (unsigned long long)v);
		CMP("[%-*.*llo]", w, p, (unsigned long long)v);
		CMP("[%*.*d]", w, p, (int)v);
		CMP("[%0*hd]", w, (short)v);
		CMP("[%*.*hhu]", w, p, (unsigned char)v);
	}
}

/* ============================================================= crc32 === */

/* Bit-at-a-time reference (the definition). */
static uint32_t crc_ref(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;

	while (n--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
	}
	return ~c;
}

static void test_crc32_vectors(void **state)
{
	(void)state;
	assert_int_equal(crc32_update(0, "", 0), 0);
	assert_int_equal(crc32_update(0, NULL, 0), 0);
	assert_int_equal(crc32_update(0, "123456789", 9), 0xcbf43926u);
	assert_int_equal(crc32_update(0, "a", 1), 0xe8b7be43u);
	assert_int_equal(crc32_update(0, "abc", 3), 0x352441c2u);
	assert_int_equal(crc32_update(0, "The quick brown fox jumps over the lazy dog", 43),
			 0x414fa339u);
	uint8_t zeros[32] = { 0 }, ones[32];

	memset(ones, 0xff, sizeof(ones));
	assert_int_equal(crc32_update(0, zeros, 32), 0x190a55adu);
	assert_int_equal(crc32_update(0, ones, 32), 0xff6cab0bu);
	/* feeding zero bytes does not change the CRC */
	assert_int_equal(crc32_update(0xcbf43926u, "x", 0), 0xcbf43926u);
}

static void test_crc32_incremental(void **state)
{
	(void)state;
	uint8_t buf[1024];
	struct rng r;

	rng_seed(&r, 32);
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)rng_next(&r);
	uint32_t whole = crc32_update(0, buf, sizeof(buf));

	assert_int_equal(whole, crc_ref(buf, sizeof(buf)));
	/* every split point */
	for (size_t cut = 0; cut <= sizeof(buf); cut++) {
		uint32_t c = crc32_update(0, buf, cut);

		assert_int_equal(crc32_update(c, buf + cut, sizeof(buf) - cut), whole);
	}
	/* byte by byte, and random chunks */
	uint32_t c = 0;

	for (size_t i = 0; i < sizeof(buf); i++)
		c = crc32_update(c, buf + i, 1);
	assert_int_equal(c, whole);
	for (int t = 0; t < 200; t++) {
		size_t off = 0;

		c = 0;
		while (off < sizeof(buf)) {
			size_t k = rng_below(&r, 40);

			if (k > sizeof(buf) - off)
				k = sizeof(buf) - off;
			c = crc32_update(c, buf + off, k);
			off += k;
		}
		assert_int_equal(c, whole);
	}
	/* random lengths vs. the reference */
	for (size_t n = 0; n < 300; n++)
		assert_int_equal(crc32_update(0, buf + n, n), crc_ref(buf + n, n));
}

/* ============================================================= stats === */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void fill_random(struct rng *r, uint64_t *a, size_t n, int kind)
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

static void test_sort_u64(void **state)
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

static void test_percentile(void **state)
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

static void test_isqrt(void **state)
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

static void test_stats_compute_small(void **state)
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

static void test_stats_compute_random_exact(void **state)
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

static void test_stats_compute_large(void **state)
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

static void test_hist_format_exact(void **state)
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

static void test_hist_format_truncation(void **state)
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

static void test_hist_format_random(void **state)
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

/* ============================================================= parse === */

static struct slice S(const char *s)
{
	return slice_cstr(s);
}

#define PARSE_OK(str, want)                                                     \
	do {                                                                    \
		uint64_t v_ = 0xabababab;                                       \
		assert_true(parse_u64(S(str), &v_));                            \
		assert_int_equal(v_, want);                                     \
	} while (0)
#define PARSE_BAD(str)                                                          \
	do {                                                                    \
		uint64_t v_ = 0xabababab;                                       \
		if (parse_u64(S(str), &v_))                                     \
			fail_msg("parse_u64(\"%s\") accepted", str);            \
		assert_int_equal(v_, 0xabababab);	/* untouched */         \
	} while (0)

static void test_parse_u64(void **state)
{
	(void)state;
	PARSE_OK("0", 0);
	PARSE_OK("7", 7);
	PARSE_OK("007", 7);		/* leading zeros are decimal, not octal */
	PARSE_OK("1234567890", 1234567890);
	PARSE_OK("18446744073709551615", UINT64_MAX);
	PARSE_OK("0x0", 0);
	PARSE_OK("0x10", 16);
	PARSE_OK("0X1F", 31);
	PARSE_OK("0xAbCdEf", 0xabcdef);
	PARSE_OK("0xffffffffffffffff", UINT64_MAX);
	PARSE_OK("0x00000000000000000001", 1);	/* many leading zeros */
	PARSE_OK("0x3f8", 0x3f8);
	PARSE_BAD("");
	PARSE_BAD("0x");
	PARSE_BAD("0X");
	PARSE_BAD("18446744073709551616");	/* 2^64 */
	PARSE_BAD("18446744073709551620");
	PARSE_BAD("99999999999999999999");
	PARSE_BAD("0x10000000000000000");
	PARSE_BAD("-1");
	PARSE_BAD("+1");
	PARSE_BAD(" 1");
	PARSE_BAD("1 ");
	PARSE_BAD("12a");
	PARSE_BAD("a");
	PARSE_BAD("0xg");
	PARSE_BAD("0x1g");
	PARSE_BAD("1e3");
	PARSE_BAD("0b101");
	PARSE_BAD("x10");
	PARSE_BAD("0xx1");
	PARSE_BAD("1.5");

	/* the slice bounds the number, not a NUL */
	uint64_t v;

	assert_true(parse_u64(slice_of("12345", 3), &v));
	assert_int_equal(v, 123);
	assert_true(parse_u64(slice_of("0x1fz", 4), &v));
	assert_int_equal(v, 0x1f);
	assert_false(parse_u64(slice_of("0x1f", 2), &v));
	assert_false(parse_u64(slice_of("5", 0), &v));
	/* an embedded NUL is not a digit */
	assert_false(parse_u64(slice_of("1\0" "2", 3), &v));

	/* random values vs. strtoull, decimal and hex */
	struct rng r;
	char b[40];

	rng_seed(&r, 64);
	for (int t = 0; t < 20000; t++) {
		uint64_t x = rng_next(&r) >> rng_below(&r, 64);

		snprintf(b, sizeof(b), t % 2 ? "%" PRIu64 : "0x%" PRIx64, x);
		assert_true(parse_u64(S(b), &v));
		assert_int_equal(v, x);
		assert_int_equal(v, strtoull(b, NULL, 0));
	}
	/* every value just past 2^64 - 1 in the last digit */
	for (char c = '6'; c <= '9'; c++) {
		snprintf(b, sizeof(b), "1844674407370955161%c", c);
		assert_false(parse_u64(S(b), &v));
	}
}

static void assert_slice(struct slice s, const char *want)
{
	if (!slice_eq(s, want))
		fail_msg("slice \"%.*s\" != \"%s\"", (int)s.n, s.p, want);
}

static void test_slice_next(void **state)
{
	(void)state;
	const char *text = "  quick,,tests=a.b \t skip=c\n,";
	struct slice rest = S(text), tok;

	assert_true(slice_next(&rest, " \t\n,", &tok));
	assert_slice(tok, "quick");
	assert_ptr_equal(tok.p, text + 2);	/* points into the input */
	assert_true(slice_next(&rest, " \t\n,", &tok));
	assert_slice(tok, "tests=a.b");
	assert_true(slice_next(&rest, " \t\n,", &tok));
	assert_slice(tok, "skip=c");
	tok = S("unchanged");
	assert_false(slice_next(&rest, " \t\n,", &tok));
	assert_int_equal(rest.n, 0);
	assert_slice(tok, "unchanged");		/* not written when false */
	assert_false(slice_next(&rest, " ", &tok));

	/* empty and all-separator input */
	rest = S("");
	assert_false(slice_next(&rest, " ", &tok));
	rest = S(" , ,, ");
	assert_false(slice_next(&rest, " ,", &tok));
	assert_int_equal(rest.n, 0);

	/* no separator at all: one token, the whole slice */
	rest = S("abc");
	assert_true(slice_next(&rest, " ", &tok));
	assert_slice(tok, "abc");
	assert_int_equal(rest.n, 0);
	assert_false(slice_next(&rest, " ", &tok));

	/* the slice length bounds the scan */
	rest = slice_of("ab cd ef", 4);
	assert_true(slice_next(&rest, " ", &tok));
	assert_slice(tok, "ab");
	assert_true(slice_next(&rest, " ", &tok));
	assert_slice(tok, "c");
	assert_false(slice_next(&rest, " ", &tok));

	/* a separator set that is empty: everything is one token */
	rest = S("a b,c");
	assert_true(slice_next(&rest, "", &tok));
	assert_slice(tok, "a b,c");

	/* count tokens in random strings vs. strtok */
	struct rng r;
	char b[64], c[64];

	rng_seed(&r, 5);
	for (int t = 0; t < 5000; t++) {
		size_t n = rng_below(&r, sizeof(b) - 1);

		for (size_t i = 0; i < n; i++)
			b[i] = " ,xy"[rng_below(&r, 4)];
		b[n] = '\0';
		memcpy(c, b, n + 1);
		rest = S(b);
		char *save, *lt = strtok_r(c, " ,", &save);

		while (slice_next(&rest, " ,", &tok)) {
			assert_non_null(lt);
			assert_int_equal(tok.n, strlen(lt));
			assert_memory_equal(tok.p, lt, tok.n);
			assert_ptr_equal(tok.p, b + (lt - c));
			lt = strtok_r(NULL, " ,", &save);
		}
		assert_null(lt);
	}
}

static void test_slice_split(void **state)
{
	(void)state;
	struct slice h, t;
	const char *kv = "key=val=x";

	assert_true(slice_split(S(kv), '=', &h, &t));
	assert_slice(h, "key");
	assert_slice(t, "val=x");
	assert_ptr_equal(t.p, kv + 4);

	const char *nv = "novalue";

	assert_false(slice_split(S(nv), '=', &h, &t));
	assert_slice(h, "novalue");
	assert_ptr_equal(h.p, nv);
	assert_int_equal(t.n, 0);
	assert_ptr_equal(t.p, nv + 7);

	assert_true(slice_split(S("=x"), '=', &h, &t));
	assert_int_equal(h.n, 0);
	assert_slice(t, "x");
	assert_true(slice_split(S("x="), '=', &h, &t));
	assert_slice(h, "x");
	assert_int_equal(t.n, 0);
	assert_true(slice_split(S("="), '=', &h, &t));
	assert_int_equal(h.n, 0);
	assert_int_equal(t.n, 0);
	assert_false(slice_split(S(""), '=', &h, &t));
	assert_int_equal(h.n, 0);
	assert_int_equal(t.n, 0);
	/* bounded by the slice */
	assert_false(slice_split(slice_of("ab=c", 2), '=', &h, &t));
	assert_slice(h, "ab");
	assert_true(slice_split(slice_of("ttyS0,9600", 10), ',', &h, &t));
	assert_slice(h, "ttyS0");
	assert_slice(t, "9600");
}

static void test_slice_eq_cstr(void **state)
{
	(void)state;
	assert_true(slice_eq(S("abc"), "abc"));
	assert_false(slice_eq(S("abc"), "ab"));
	assert_false(slice_eq(S("ab"), "abc"));
	assert_true(slice_eq(slice_of("abcdef", 3), "abc"));
	assert_true(slice_eq(slice_of("", 0), ""));
	assert_false(slice_eq(slice_of("a", 1), ""));
	struct slice s = slice_cstr("hello");

	assert_int_equal(s.n, 5);
	assert_memory_equal(s.p, "hello", 5);
	assert_int_equal(slice_cstr("").n, 0);
}

/* ============================================================ string === */

static void test_str_copy(void **state)
{
	(void)state;
	char b[8];

	memset(b, 'X', sizeof(b));
	assert_int_equal(str_copy(b, "abc", sizeof(b)), 3);
	assert_string_equal(b, "abc");
	assert_int_equal(b[4], 'X');		/* no padding like strncpy */

	memset(b, 'X', sizeof(b));
	assert_int_equal(str_copy(b, "abcdefghij", sizeof(b)), 10);	/* >= size: truncated */
	assert_string_equal(b, "abcdefg");

	memset(b, 'X', sizeof(b));
	assert_int_equal(str_copy(b, "abcdefg", sizeof(b)), 7);	/* exact fit */
	assert_string_equal(b, "abcdefg");
	assert_int_equal(str_copy(b, "abcdefgh", sizeof(b)), 8);	/* one too many */
	assert_string_equal(b, "abcdefg");

	memset(b, 'X', sizeof(b));
	assert_int_equal(str_copy(b, "abc", 1), 3);
	assert_int_equal(b[0], '\0');
	assert_int_equal(b[1], 'X');

	memset(b, 'X', sizeof(b));
	assert_int_equal(str_copy(b, "abc", 0), 3);	/* size 0: nothing written */
	assert_int_equal(b[0], 'X');
	assert_int_equal(str_copy(NULL, "abc", 0), 3);

	assert_int_equal(str_copy(b, "", sizeof(b)), 0);
	assert_string_equal(b, "");

	/* from an exact-size source buffer (ASan checks the reads) */
	char *src = malloc(4);

	assert_non_null(src);
	memcpy(src, "xyz", 4);
	assert_int_equal(str_copy(b, src, 3), 3);
	assert_string_equal(b, "xy");
	free(src);
}

static void test_str_eq_n(void **state)
{
	(void)state;
	assert_true(str_eq_n("abc", 3, "abc"));
	assert_true(str_eq_n("abcdef", 3, "abc"));	/* only n bytes of s */
	assert_false(str_eq_n("abc", 2, "abc"));
	assert_false(str_eq_n("abd", 3, "abc"));
	assert_false(str_eq_n("abc", 3, "abcd"));
	assert_true(str_eq_n("", 0, ""));
	assert_true(str_eq_n("xyz", 0, ""));
	assert_false(str_eq_n("x", 1, ""));
	assert_false(str_eq_n("a\0c", 3, "a"));	/* a NUL inside s is a byte */
	assert_false(str_eq_n("ABC", 3, "abc"));	/* case-sensitive */
	/* s need not be terminated */
	char *s = malloc(5);

	assert_non_null(s);
	memcpy(s, "quick", 5);
	assert_true(str_eq_n(s, 5, "quick"));
	assert_false(str_eq_n(s, 5, "quic"));
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_printf_integers),
		cmocka_unit_test(test_printf_flags_width_precision),
		cmocka_unit_test(test_printf_star),
		cmocka_unit_test(test_printf_length_modifiers),
		cmocka_unit_test(test_printf_ringlab_specific),
		cmocka_unit_test(test_printf_truncation),
		cmocka_unit_test(test_printf_vsnprintf_and_random),
		cmocka_unit_test(test_crc32_vectors),
		cmocka_unit_test(test_crc32_incremental),
		cmocka_unit_test(test_sort_u64),
		cmocka_unit_test(test_percentile),
		cmocka_unit_test(test_isqrt),
		cmocka_unit_test(test_stats_compute_small),
		cmocka_unit_test(test_stats_compute_random_exact),
		cmocka_unit_test(test_stats_compute_large),
		cmocka_unit_test(test_hist_format_exact),
		cmocka_unit_test(test_hist_format_truncation),
		cmocka_unit_test(test_hist_format_random),
		cmocka_unit_test(test_parse_u64),
		cmocka_unit_test(test_slice_next),
		cmocka_unit_test(test_slice_split),
		cmocka_unit_test(test_slice_eq_cstr),
		cmocka_unit_test(test_str_copy),
		cmocka_unit_test(test_str_eq_n),
	};

	return cmocka_run_group_tests_name("lib", tests, NULL, NULL);
}
