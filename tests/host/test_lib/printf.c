/* SPDX-License-Identifier: GPL-2.0-only */
/* lib/ host tests: rl_snprintf and rl_vsnprintf against the C library's
 * snprintf, and ringlab's own conversions. */
#include "tests/host/test_lib/lib_test.h"

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

void test_printf_integers(void **state)
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

void test_printf_flags_width_precision(void **state)
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

void test_printf_star(void **state)
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

void test_printf_length_modifiers(void **state)
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
void test_printf_ringlab_specific(void **state)
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

void test_printf_truncation(void **state)
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

void test_printf_vsnprintf_and_random(void **state)
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
