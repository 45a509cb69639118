/* SPDX-License-Identifier: GPL-2.0-only */
/* Intel MultiProcessor Specification 1.4 tables: the CPU list of machines
 * (and emulators started with acpi=off) that have no usable ACPI MADT.
 * memtest86+ falls back the same way.
 *
 * Reads go through phys_view() like the ACPI parser: bounded, checksummed,
 * byte-assembled; bad data is one line in mp->errors, never a crash. */
#ifndef RINGLAB_ARCH_X86_MPTABLE_H
#define RINGLAB_ARCH_X86_MPTABLE_H

#include <stdbool.h>
#include <stdint.h>

struct acpi_info;

#define MP_MAX_ERRORS	8
#define MP_ERROR_LEN	160

struct mp_info {
	bool found;			/* a floating pointer with a good checksum */
	uint64_t fps_phys;		/* where it was */
	const char *fps_where;		/* "EBDA", "base memory top", "BIOS ROM" */
	uint8_t spec_rev;		/* 1 = 1.1, 4 = 1.4 */
	uint8_t default_config;		/* feature byte 1: nonzero = a default config, no table */
	uint64_t table_phys;		/* the configuration table, 0 if none */
	unsigned ncpus, ncpus_enabled;
	char errors[MP_MAX_ERRORS][MP_ERROR_LEN];
	unsigned nerrors;
};

/* Find and parse the MP tables.  On success (true) the processor entries
 * and I/O APICs replace ai's CPU list, ai->have_madt is set (it means "a
 * CPU list is present") and ai->cpus_source is "mptable". */
bool mptable_fill(struct acpi_info *ai, struct mp_info *mp);

#endif
