/* SPDX-License-Identifier: GPL-2.0-only */
/* libFuzzer harness: arch/x86/smbios.c.
 * Byte 0 picks the entry point: 0 smbios_walk() on the rest (a structure
 * table, exact length), 1 the same as a 3.x maximum length; 2
 * smbios_init() with the first 32 bytes as the loader's tag copy and the
 * rest as memory at 0x7f000000 (where a table may sit); 3 the 0xF0000
 * scan over the rest; 4 a 64-bit EFI system table at 0x7e000000 made of
 * the rest (its configuration table and SMBIOS data inside it). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "arch/x86/smbios.h"
#include "tests/fuzz/fuzz_phys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct smbios_info si;

	if (size < 1)
		return 0;
	unsigned mode = data[0] % 5;

	data++, size--;
	memset(&si, 0, sizeof(si));
	switch (mode) {
	case 0:
	case 1:
		smbios_walk(&si, data, (uint32_t)size, mode == 1);
		break;
	case 2: {
		size_t r = size < 32 ? size : 32;

		fz_mem_add(0x7f000000u, size - r + 1, data + r, size - r);
		smbios_init(&si, data, r, 0, false);
		break;
	}
	case 3:
		fz_mem_add(0xF0000, 0x10000, data, size);
		smbios_init(&si, NULL, 0, 0, false);
		break;
	case 4:
		fz_mem_add(0x7e000000u, size + 1, data, size);
		smbios_init(&si, NULL, 0, 0x7e000000u, true);
		break;
	}
	/* every string NUL-terminated within its buffer */
	const char *strs[] = { si.bios_vendor, si.bios_version, si.bios_date, si.sys_vendor,
			       si.sys_product, si.sys_serial, si.board_vendor, si.board_product,
			       si.error, si.why };
	const size_t lens[] = { SMBIOS_STR_MAX, SMBIOS_STR_MAX, SMBIOS_STR_MAX, SMBIOS_STR_MAX,
				SMBIOS_STR_MAX, SMBIOS_STR_MAX, SMBIOS_STR_MAX, SMBIOS_STR_MAX,
				SMBIOS_ERROR_LEN, sizeof(si.why) };

	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
		if (!memchr(strs[i], 0, lens[i]))
			__builtin_trap();
		for (const char *c = strs[i]; *c; c++)
			if (i < 8 && (*c < 0x20 || *c > 0x7e))
				__builtin_trap();
	}
	char q[2 * SMBIOS_STR_MAX + 4];

	smbios_quote(q, sizeof(q), si.sys_product);
	if (si.nstructs > SMBIOS_MAX_STRUCTS)
		__builtin_trap();
	fz_mem_reset();
	return 0;
}
