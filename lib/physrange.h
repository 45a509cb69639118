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
};

/* Judge [base, base + len) against phys_bits (MAXPHYADDR), the RAM spans
 * and the kernel image span (may be empty). */
enum phys_range_verdict phys_range_check(uint64_t base, uint64_t len, unsigned phys_bits,
					 const struct phys_span *ram, unsigned nram,
					 struct phys_span kernel);
/* One phrase for a log line: "overlaps RAM", ... */
const char *phys_range_text(enum phys_range_verdict v);

#endif
