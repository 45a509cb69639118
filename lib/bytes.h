/* SPDX-License-Identifier: GPL-2.0-only */
/* Little-endian field reads and the byte checksum of firmware structures
 * (ACPI tables, the MP table, multiboot information).  Byte by byte, so
 * that any alignment is fine and nothing depends on the host's byte order
 * (the host unit tests and fuzz harnesses run these on the same data). */
#ifndef RINGLAB_LIB_BYTES_H
#define RINGLAB_LIB_BYTES_H

#include <stddef.h>
#include <stdint.h>

static inline uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* The sum of n bytes modulo 256: 0 for a structure whose checksum byte is
 * right (ACPI 6.5 §5.2.5.3 and §5.2.6; MP spec 1.4 §4.1 and §4.2). */
static inline uint8_t byte_sum(const uint8_t *p, size_t n)
{
	uint8_t s = 0;

	while (n--)
		s = (uint8_t)(s + *p++);
	return s;
}

#endif
