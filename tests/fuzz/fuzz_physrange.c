/* SPDX-License-Identifier: GPL-2.0-only */
/* libFuzzer harness: lib/physrange.c.  Whatever it accepts must be a
 * mappable device window (the invariant the kernel's mapper relies on),
 * and whatever the firmware-table hole rule accepts a range between 1 MiB
 * and 4 GiB clear of the APIC/HPET window. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/physrange.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t v[4] = { 0 };
	struct phys_span ram[4];
	unsigned nram = 0;

	if (size < 17)
		return 0;
	memcpy(v, data, size < sizeof(v) ? size : sizeof(v));
	for (size_t off = 32; off + 16 <= size && nram < 4; off += 16, nram++)
		memcpy(&ram[nram], data + off, 16);
	unsigned bits = 32 + (unsigned)(v[2] % 33);
	struct phys_span kernel = { v[3] & 0xffffff, (v[3] & 0xffffff) + 0x100000 };
	uint64_t len = v[1] & 0xffffffff;

	uint64_t end = v[0] + len;
	uint32_t types[4];

	/* The RAM-only-map predicate: true exactly when there is a map and
	 * every entry is RAM. */
	for (unsigned i = 0; i < nram; i++)
		types[i] = (uint32_t)(ram[i].base >> 60) % 6;
	bool all_ram = nram > 0;

	for (unsigned i = 0; i < nram; i++)
		all_ram = all_ram && types[i] == PHYS_MAP_TYPE_RAM;
	if (phys_map_ram_only(types, nram) != all_ram)
		__builtin_trap();
	/* Every verdict has a text for the error line. */
	const char *why = phys_range_text(phys_range_check(v[0], len, bits, ram, nram, kernel));

	if (!why || !why[0])
		__builtin_trap();

	/* The RAM-only-map rule for firmware tables: stricter still. */
	if (phys_fw_hole_check(v[0], len, bits, ram, nram, kernel) == PHYS_RANGE_OK) {
		if (phys_range_check(v[0], len, bits, ram, nram, kernel) != PHYS_RANGE_OK ||
		    len > PHYS_FW_HOLE_MAX_LEN || v[0] < 0x100000 || end > (4ull << 30) ||
		    (v[0] < PHYS_FW_WINDOW_END && PHYS_FW_WINDOW_BASE < end))
			__builtin_trap();
	}
	if (phys_range_check(v[0], len, bits, ram, nram, kernel) != PHYS_RANGE_OK)
		return 0;

	if (!len || end < v[0] || end > PHYS_IDMAP_LIMIT || (bits < 64 && end > (1ull << bits)))
		__builtin_trap();
	for (unsigned i = 0; i < nram; i++)
		if (ram[i].end > ram[i].base && ram[i].base < end && v[0] < ram[i].end)
			__builtin_trap();
	if (kernel.base < end && v[0] < kernel.end)
		__builtin_trap();
	return 0;
}
