/* SPDX-License-Identifier: GPL-2.0-only */
/* CRC-32 as in IEEE 802.3 / zlib / PNG (reflected polynomial 0xEDB88320,
 * initial value and final XOR 0xFFFFFFFF).  The log's integrity line uses
 * it, so any zlib.crc32() can check a log. */
#ifndef RINGLAB_LIB_CRC32_H
#define RINGLAB_LIB_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* Start with crc = 0; feed data in pieces; the result after each call is
 * the CRC of everything fed so far. */
uint32_t crc32_update(uint32_t crc, const void *data, size_t len);

#endif
