/* SPDX-License-Identifier: GPL-2.0-only */
/* SMBIOS machine identity: BIOS (type 0), system (type 1) and baseboard
 * (type 2) strings for the `# id.bios`, `# id.system` and `# id.board`
 * header lines.  Layouts: DMTF DSP0134 (SMBIOS 3.x) §5.2 (entry points),
 * §6.1 (structure and string set), §7.1-7.3 (types 0-2).
 *
 * Pure parsing over phys_view()/phys_view_fw() (lib/physmem.h), like
 * arch/x86/acpi.c, so host tests and fuzzers feed it fake memory.  Every
 * length is checked against the bytes a view gave: the entry point's own
 * length and checksums, the table length (capped), each structure's
 * formatted-area length, its string set's double-NUL terminator, and each
 * string index.  Strings are kept as printable ASCII (other bytes become
 * '?'), at most SMBIOS_STR_MAX - 1 bytes.  Problems give one line in
 * si->error (the first one); parsing never faults on bad data. */
#ifndef RINGLAB_ARCH_X86_SMBIOS_H
#define RINGLAB_ARCH_X86_SMBIOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SMBIOS_STR_MAX		65	/* 64 characters + NUL */
#define SMBIOS_TABLE_MAX_LEN	(1u << 20)	/* refuse longer structure tables */
#define SMBIOS_MAX_STRUCTS	4096	/* stop the walk after this many */
#define SMBIOS_ERROR_LEN	160
#define SMBIOS_SCAN_BASE	0xF0000u	/* DSP0134 §5.2.1: paragraph scan */
#define SMBIOS_SCAN_END		0x100000u

struct smbios_info {
	bool found;			/* a valid entry point, table walked */
	const char *source;		/* "multiboot2-tag13", "efi-smbios3", "efi-smbios", "bios-scan" */
	bool v3;			/* _SM3_ (64-bit) entry point */
	uint8_t major, minor;
	uint64_t ep_phys;		/* 0 when taken from a multiboot2 copy */
	uint64_t table_phys;
	uint32_t table_len;		/* 2.x: exact length; 3.x: maximum size */
	unsigned nstructs;		/* structures walked */

	bool have_bios, have_system, have_board;
	char bios_vendor[SMBIOS_STR_MAX], bios_version[SMBIOS_STR_MAX], bios_date[SMBIOS_STR_MAX];
	char sys_vendor[SMBIOS_STR_MAX], sys_product[SMBIOS_STR_MAX], sys_serial[SMBIOS_STR_MAX];
	char board_vendor[SMBIOS_STR_MAX], board_product[SMBIOS_STR_MAX];

	char why[96];			/* when !found: why not (for `# id.smbios: none (why)`) */
	char error[SMBIOS_ERROR_LEN];	/* the first problem, "smbios: ..."; empty if none */
};

/* Find the entry point and parse.  Sources in order: the multiboot2 tag 13
 * copy (tag/tag_len, NULL when none), the EFI configuration table of the
 * system table at efi_systab (0 when none; efi64 picks the 64-bit layout:
 * SMBIOS3 GUID first, then SMBIOS), then the 0xF0000-0xFFFFF scan on
 * 16-byte steps.  A source whose entry point is present but bad is named
 * in si->error and the next source is tried.  Returns si->found. */
bool smbios_init(struct smbios_info *si, const void *tag, size_t tag_len,
		 uint64_t efi_systab, bool efi64);

/* Pieces, for host tests.  smbios_ep_check(): NULL when p/avail is a
 * valid 2.x or 3.x entry point (filling major/minor/table fields of si),
 * else a phrase saying what is wrong. */
const char *smbios_ep_check(struct smbios_info *si, const uint8_t *p, size_t avail);
/* Walk `len` bytes of structures at t (already viewed); false after
 * setting si->error when the table is broken (what came before is kept). */
bool smbios_walk(struct smbios_info *si, const uint8_t *t, uint32_t len, bool len_is_max);

/* Write s as "..." with \" and \\ escaped into dst (always terminated). */
void smbios_quote(char *dst, size_t size, const char *s);

#endif
