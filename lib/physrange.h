/* SPDX-License-Identifier: GPL-2.0-only */
/* Checks on a physical address range that came from firmware (an ACPI
 * table, a multiboot tag, an MSR) before the kernel maps or touches it.
 *
 * Pure arithmetic, no hardware access, so the host unit tests drive it
 * (tests/host/test_physrange.c).  The kernel's identity map makes a
 * physical address also a virtual one, so the range must be canonical in
 * the lower half of 4-level paging (SDM vol. 1 §3.3.7.1: bits 63:47 all
 * equal; as physical addresses only the all-zero half makes sense), below
 * 2^MAXPHYADDR (CPUID 0x80000008:EAX[7:0], SDM vol. 3 §4.1.4: higher bits
 * of a paging-structure address are reserved and fault), and must not
 * overlap RAM or the kernel image: a device window there is a firmware
 * error, and writing "device registers" there would corrupt memory. */
#ifndef RINGLAB_LIB_PHYSRANGE_H
#define RINGLAB_LIB_PHYSRANGE_H

#include <stdbool.h>
#include <stdint.h>

#define PHYS_IDMAP_LIMIT	(1ull << 47)	/* 4-level paging, lower half */

struct phys_span {
	uint64_t base, end;	/* [base, end) */
};

enum phys_range_verdict {
	PHYS_RANGE_OK,
	PHYS_RANGE_EMPTY,		/* zero length */
	PHYS_RANGE_WRAPS,		/* base + len overflows 64 bits */
	PHYS_RANGE_NONCANONICAL,	/* not in the canonical lower half */
	PHYS_RANGE_ABOVE_MAXPHYADDR,
	PHYS_RANGE_OVERLAPS_RAM,
	PHYS_RANGE_OVERLAPS_KERNEL,
	/* only from phys_fw_hole_check() */
	PHYS_RANGE_TOO_LONG,		/* longer than any firmware table */
	PHYS_RANGE_BELOW_1M,		/* the BIOS area has its own rule */
	PHYS_RANGE_ABOVE_4G,		/* only RAM is identity-mapped there */
	PHYS_RANGE_DEVICE_WINDOW,	/* I/O APIC, HPET/chipset, LAPIC/MSI */
	PHYS_RANGE_NVERDICTS
};

/* Judge [base, base + len) against phys_bits (MAXPHYADDR), the RAM spans
 * and the kernel image span (may be empty). */
enum phys_range_verdict phys_range_check(uint64_t base, uint64_t len, unsigned phys_bits,
					 const struct phys_span *ram, unsigned nram,
					 struct phys_span kernel);

/* Firmware tables in memory-map holes (loaders whose map lists only RAM).
 *
 * The Multiboot 1 spec (§3.3, mmap_*) only promises that type 1 is
 * "available RAM" and "all other values" are reserved; it does not promise
 * that the reserved ranges are listed at all, and iPXE's multiboot1 map
 * (like the mem_lower/mem_upper fallback, kernel/mbi.c) lists RAM only.
 * The firmware's ACPI tables (ACPI 6.5 §5.2: the RSDP points, through
 * checksummed tables, at physical addresses the E820 map reports as type 3
 * or 2, §15) then lie in what looks like a hole.  A map is "RAM-only" when
 * it has at least one entry and every entry of nonzero length is type 1:
 * one reserved, ACPI, NVS, bad or unknown entry shows the loader passes the
 * firmware's types through, and then a hole is a real hole (MMIO).
 * `types` are the types of the entries of nonzero length. */
#define PHYS_MAP_TYPE_RAM	1
bool phys_map_ram_only(const uint32_t *types, unsigned n);

/* Where such a table may be read from, on a RAM-only map only: whatever
 * phys_range_check() accepts (canonical, below MAXPHYADDR, clear of RAM and
 * the kernel image), and also at most PHYS_FW_HOLE_MAX_LEN long, at or
 * above 1 MiB (below it the BIOS-area rule of phys_view() applies), below
 * 4 GiB (the holes the kernel maps UC; above it only RAM is mapped), and
 * clear of the fixed device windows [0xFEC00000, 0xFF000000): I/O APICs at
 * 0xFEC00000 (ICH/PCH datasheets; ACPI §5.2.12.3 gives the address), HPET
 * and chipset registers at 0xFED00000 (IA-PC HPET spec §2.1, TPM at
 * 0xFED40000), and the LAPIC/MSI window at 0xFEE00000 (SDM vol. 3
 * §11.4.1, §11.11.1), where a read has side effects or no meaning.  ACPI
 * tables are never there; the BIOS flash above 0xFF000000 is ROM. */
#define PHYS_FW_HOLE_MAX_LEN	(16ull << 20)	/* acpi.c ACPI_TABLE_MAX_LEN */
#define PHYS_FW_WINDOW_BASE	0xFEC00000ull
#define PHYS_FW_WINDOW_END	0xFF000000ull
enum phys_range_verdict phys_fw_hole_check(uint64_t base, uint64_t len, unsigned phys_bits,
					   const struct phys_span *ram, unsigned nram,
					   struct phys_span kernel);

/* One phrase for a log line: "overlaps RAM", ... */
const char *phys_range_text(enum phys_range_verdict v);

#endif
