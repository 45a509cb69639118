/* SPDX-License-Identifier: GPL-2.0-only */
/* lib/ host tests: crc32 against a bit-at-a-time reference and known
 * vectors. */
#include "tests/host/test_lib/lib_test.h"

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

void test_crc32_vectors(void **state)
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

void test_crc32_incremental(void **state)
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
