/* SPDX-License-Identifier: GPL-2.0-only */
/* CRC-32 (zlib flavour), byte-table implementation.  The 1 KiB table is
 * built from the polynomial on first use (no data to get wrong, nothing
 * to run at boot): one lookup per byte, where the former nibble table
 * took two, and the console feeds every logged byte through here. */
#include "lib/crc32.h"
#include <stdbool.h>

#define CRC32_POLY_REFLECTED	0xedb88320u

static uint32_t crc_table[256];
static bool crc_table_ready;

static void crc_table_build(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int b = 0; b < 8; b++)
			c = (c >> 1) ^ (CRC32_POLY_REFLECTED & (0u - (c & 1)));
		crc_table[i] = c;
	}
	__atomic_store_n(&crc_table_ready, true, __ATOMIC_RELEASE);
}

uint32_t crc32_update(uint32_t crc, const void *data, size_t len)
{
	const unsigned char *p = data;

	if (!__atomic_load_n(&crc_table_ready, __ATOMIC_ACQUIRE))
		crc_table_build();	/* idempotent: a racing second build writes the same */
	crc = ~crc;
	while (len--)
		crc = (crc >> 8) ^ crc_table[(crc ^ *p++) & 0xff];
	return ~crc;
}
