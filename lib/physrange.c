/* SPDX-License-Identifier: GPL-2.0-only */
/* Firmware address range checks; see physrange.h. */
#include "lib/physrange.h"

#include <stddef.h>

static int overlaps(uint64_t base, uint64_t end, struct phys_span s)
{
	return s.base < end && base < s.end;
}

enum phys_range_verdict phys_range_check(uint64_t base, uint64_t len, unsigned phys_bits,
					 const struct phys_span *ram, unsigned nram,
					 struct phys_span kernel)
{
	if (!len)
		return PHYS_RANGE_EMPTY;
	if (base + len < base)
		return PHYS_RANGE_WRAPS;

	uint64_t end = base + len;

	if (base >= PHYS_IDMAP_LIMIT || end > PHYS_IDMAP_LIMIT)
		return PHYS_RANGE_NONCANONICAL;
	if (phys_bits < 64 && end > (1ull << phys_bits))
		return PHYS_RANGE_ABOVE_MAXPHYADDR;
	if (kernel.end > kernel.base && overlaps(base, end, kernel))
		return PHYS_RANGE_OVERLAPS_KERNEL;
	for (unsigned i = 0; ram && i < nram; i++)
		if (ram[i].end > ram[i].base && overlaps(base, end, ram[i]))
			return PHYS_RANGE_OVERLAPS_RAM;
	return PHYS_RANGE_OK;
}

bool phys_map_ram_only(const uint32_t *types, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (types[i] != PHYS_MAP_TYPE_RAM)
			return false;
	return n > 0;	/* no map at all says nothing about holes */
}

enum phys_range_verdict phys_fw_hole_check(uint64_t base, uint64_t len, unsigned phys_bits,
					   const struct phys_span *ram, unsigned nram,
					   struct phys_span kernel)
{
	enum phys_range_verdict v = phys_range_check(base, len, phys_bits, ram, nram, kernel);

	if (v != PHYS_RANGE_OK)
		return v;
	if (len > PHYS_FW_HOLE_MAX_LEN)
		return PHYS_RANGE_TOO_LONG;
	if (base < 0x100000)
		return PHYS_RANGE_BELOW_1M;
	if (base + len > (4ull << 30))
		return PHYS_RANGE_ABOVE_4G;
	if (overlaps(base, base + len, (struct phys_span){ PHYS_FW_WINDOW_BASE, PHYS_FW_WINDOW_END }))
		return PHYS_RANGE_DEVICE_WINDOW;
	return PHYS_RANGE_OK;
}

const char *phys_range_text(enum phys_range_verdict v)
{
	static const char *const text[] = {
		[PHYS_RANGE_OK] = "ok",
		[PHYS_RANGE_EMPTY] = "has zero length",
		[PHYS_RANGE_WRAPS] = "wraps past 2^64",
		[PHYS_RANGE_NONCANONICAL] = "is not a canonical lower-half address (the identity map ends at 2^47)",
		[PHYS_RANGE_ABOVE_MAXPHYADDR] = "lies above 2^MAXPHYADDR",
		[PHYS_RANGE_OVERLAPS_RAM] = "overlaps RAM (memory-map type 1/3/4)",
		[PHYS_RANGE_OVERLAPS_KERNEL] = "overlaps the kernel image",
		[PHYS_RANGE_TOO_LONG] = "is longer than any firmware table (16 MiB)",
		[PHYS_RANGE_BELOW_1M] = "starts below 1 MiB (the BIOS area has its own rule)",
		[PHYS_RANGE_ABOVE_4G] = "lies above 4 GiB, where only RAM is mapped",
		[PHYS_RANGE_DEVICE_WINDOW] = "overlaps the APIC/HPET/chipset window 0xfec00000-0xfeffffff",
	};

	if ((unsigned)v >= sizeof(text) / sizeof(text[0]))
		return "invalid verdict";
	return text[v];
}
