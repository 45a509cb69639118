/* SPDX-License-Identifier: GPL-2.0-only */
/* libFuzzer harness: arch/x86/acpi.c and arch/x86/mptable.c.
 * Byte 0 picks the entry point: 0-2 one table parser (MADT, FADT, HPET) on
 * the rest; 3 acpi_init() with the first 36 bytes as the loader's RSDP copy
 * and the rest as memory at 0x7ffe0000 (where QEMU puts the tables);
 * 4 the MP table search, the rest at 0xF0000 (BIOS ROM); 5 the SPCR
 * parser (arch/x86/acpi_spcr.c), which acpi_init() reaches only through a
 * checksummed RSDP and RSDT that a mutation seldom keeps. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "arch/x86/acpi.h"
#include "arch/x86/mptable.h"
#include "tests/fuzz/fuzz_phys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct acpi_info ai;
	static struct mp_info mp;

	if (size < 1)
		return 0;
	unsigned mode = data[0] % 6;

	data++, size--;
	/* Everything but the 128 KiB CPU array, which ncpus bounds. */
	memset(&ai, 0, offsetof(struct acpi_info, cpus));
	memset(&ai.ncpus, 0, sizeof(ai) - offsetof(struct acpi_info, ncpus));
	switch (mode) {
	case 0:
		acpi_parse_madt(&ai, data, (uint32_t)size);
		break;
	case 1:
		acpi_parse_fadt(&ai, data, (uint32_t)size);
		break;
	case 2:
		acpi_parse_hpet(&ai, data, (uint32_t)size);
		break;
	case 3: {
		size_t r = size < 36 ? size : 36;

		fz_mem_add(0x7ffe0000u, size - r + 1, data + r, size - r);
		acpi_init(&ai, data, r, "fuzz");
		break;
	}
	case 4:
		/* the BDA (EBDA segment, base memory size) and the BIOS ROM */
		fz_mem_add(0, 0x1000, NULL, 0);
		fz_mem_add(0xF0000, size < 0x10000 ? size + 1 : 0x10000, data, size);
		mptable_fill(&ai, &mp);
		break;
	case 5:
		acpi_parse_spcr(&ai, data, (uint32_t)size);
		break;
	}
	if (ai.ncpus > ACPI_MAX_CPUS || ai.nioapics > ACPI_MAX_IOAPICS || ai.nerrors > ACPI_MAX_ERRORS)
		__builtin_trap();
	fz_mem_reset();
	return 0;
}
