/* SPDX-License-Identifier: GPL-2.0-only */
/* A firmware memory map entry, as Multiboot and E820 give it (ACPI 6.5
 * §15, "Address Range Types"): used by kernel/mbi.c to parse and by the
 * paging code to decide what is RAM. */
#ifndef RINGLAB_ARCH_X86_E820_H
#define RINGLAB_ARCH_X86_E820_H

#include <stdint.h>

#define MMAP_RAM		1
#define MMAP_RESERVED		2
#define MMAP_ACPI_RECLAIM	3
#define MMAP_ACPI_NVS		4
#define MMAP_BAD		5

struct mem_region {
	uint64_t base, len;
	uint32_t type;
};

#endif
