/* SPDX-License-Identifier: GPL-2.0-only */
/* CRC-32 (zlib flavour), slicing by 8: eight 1 KiB tables built from the
 * polynomial on first use (no data to get wrong, nothing to run at boot).
 * Eight bytes cost eight lookups and one 64-bit load instead of eight
 * dependent byte steps; the console feeds every logged byte through here,
 * and under a hypervisor that emulates ring 0 each instruction counts.
 * Table k holds the CRC of a byte followed by k zero bytes (the standard
 * slicing construction); the byte-at-a-time loop (table 0) does the rest. */
#include "lib/crc32.h"
#include <stdbool.h>

#define CRC32_POLY_REFLECTED	0xedb88320u

static uint32_t crc_table[8][256];
static bool crc_table_ready;

static void crc_table_build(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int b = 0; b < 8; b++)
			c = (c >> 1) ^ (CRC32_POLY_REFLECTED & (0u - (c & 1)));
		crc_table[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int k = 1; k < 8; k++)
			crc_table[k][i] = (crc_table[k - 1][i] >> 8) ^
					  crc_table[0][crc_table[k - 1][i] & 0xff];
	__atomic_store_n(&crc_table_ready, true, __ATOMIC_RELEASE);
}

uint32_t crc32_update(uint32_t crc, const void *data, size_t len)
{
	const unsigned char *p = data;

	if (!__atomic_load_n(&crc_table_ready, __ATOMIC_ACQUIRE))
		crc_table_build();	/* idempotent: a racing second build writes the same */
	crc = ~crc;
	while (len >= 8) {
		uint64_t w;

		__builtin_memcpy(&w, p, 8);	/* x86: little-endian, unaligned loads allowed */
		w ^= crc;
		crc = crc_table[7][w & 0xff] ^ crc_table[6][(w >> 8) & 0xff] ^
		      crc_table[5][(w >> 16) & 0xff] ^ crc_table[4][(w >> 24) & 0xff] ^
		      crc_table[3][(w >> 32) & 0xff] ^ crc_table[2][(w >> 40) & 0xff] ^
		      crc_table[1][(w >> 48) & 0xff] ^ crc_table[0][w >> 56];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = (crc >> 8) ^ crc_table[0][(crc ^ *p++) & 0xff];
	return ~crc;
}
