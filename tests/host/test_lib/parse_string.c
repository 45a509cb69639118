/* SPDX-License-Identifier: GPL-2.0-only */
/* lib/ host tests: parse.c (numbers, slices) and string.c. */
#include "tests/host/test_lib/lib_test.h"

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

void test_parse_u64(void **state)
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

void test_slice_next(void **state)
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

void test_slice_split(void **state)
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

void test_slice_eq_cstr(void **state)
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

void test_str_copy(void **state)
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

void test_str_eq_n(void **state)
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
