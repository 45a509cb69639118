/* SPDX-License-Identifier: GPL-2.0-only */
/* ACPI table discovery and the parsers ringlab needs: RSDP, RSDT/XSDT,
 * MADT (CPU enumeration, I/O APICs, LAPIC address), FADT (PM timer), HPET.
 * Layouts: ACPI 6.5 §5.2 (docs/platform-notes.md "ACPI tables").
 *
 * Every read goes through phys_view() (lib/physmem.h) and is bounded by the
 * table's own length field, itself checked against what phys_view() can
 * give.  A table with a bad checksum or impossible lengths is reported in
 * ai->errors and ignored; parsing never crashes on bad data. */
#ifndef RINGLAB_ARCH_X86_ACPI_H
#define RINGLAB_ARCH_X86_ACPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ACPI_MAX_CPUS		8192	/* MADT processor entries kept */
#define ACPI_MAX_IOAPICS	32
#define ACPI_MAX_TABLES		64
#define ACPI_MAX_ERRORS		16
#define ACPI_ERROR_LEN		160

/* MADT Local APIC / Local x2APIC flags (ACPI 6.5 §5.2.12.2). */
#define ACPI_MADT_ENABLED		(1u << 0)
#define ACPI_MADT_ONLINE_CAPABLE	(1u << 1)
/* MADT header Flags (ACPI 6.5 §5.2.12, table "Multiple APIC Flags"):
 * PCAT_COMPAT, the system also has the dual 8259 PICs (Linux's name). */
#define ACPI_MADT_PCAT_COMPAT		(1u << 0)

struct acpi_cpu {
	uint32_t apic_id;	/* 8-bit xAPIC ID or 32-bit x2APIC ID */
	uint32_t uid;		/* ACPI processor UID */
	uint32_t flags;		/* ACPI_MADT_* */
	uint8_t type;		/* MADT entry type: 0 Local APIC, 9 Local x2APIC */
};

struct acpi_ioapic {
	uint8_t id;
	uint32_t addr;
	uint32_t gsi_base;
};

/* MADT Interrupt Source Override (type 2, ACPI 6.5 §5.2.12.5) for an ISA
 * IRQ.  flags are MPS INTI flags: bits 1:0 polarity (00 as the bus, i.e.
 * active high for ISA; 01 high; 11 low), bits 3:2 trigger mode (00 as the
 * bus, i.e. edge for ISA; 01 edge; 11 level). */
#define ACPI_ISA_IRQS			16
#define ACPI_INTI_POLARITY_MASK		0x3
#define ACPI_INTI_POLARITY_LOW		0x3
#define ACPI_INTI_TRIGGER_MASK		0xc
#define ACPI_INTI_TRIGGER_LEVEL		0xc

struct acpi_isa_override {
	bool present;
	uint32_t gsi;
	uint16_t flags;
};

struct acpi_table_ref {
	char sig[5];
	uint64_t phys;
	uint32_t length;
	uint8_t revision;
	bool checksum_ok;
};

/* Generic Address Structure address spaces (ACPI 6.5 §5.2.3.2). */
#define ACPI_ADR_SPACE_SYSTEM_MEMORY	0
#define ACPI_ADR_SPACE_SYSTEM_IO	1

/* SPCR, the Serial Port Console Redirection table (Microsoft's SPCR spec,
 * rev 2/4): the port the firmware and the BMC use.  Parsed by
 * arch/x86/acpi_spcr.c. */
struct acpi_spcr {
	bool present;
	bool usable;		/* a 16550-compatible UART in system I/O space */
	uint8_t interface_type;	/* 0 full 16550, 1 16450 subset, 0x12 16550 with GAS */
	uint8_t space;		/* GAS address space of the base address */
	uint64_t addr;
	uint32_t baud;		/* 0: as the firmware left it */
	char why[96];		/* when !usable: why not */
};

struct acpi_info {
	/* RSDP */
	bool have_rsdp;
	uint64_t rsdp_phys;		/* 0 when taken from a multiboot2 copy */
	const char *rsdp_source;	/* "acpi_rsdp=", "multiboot2-tag15", "multiboot2-tag14", "ebda", "bios-rom" */
	uint8_t revision;		/* RSDP revision: 0 = ACPI 1.0, 2 = 2.0+ */
	char oem_id[7];			/* NUL-terminated, trailing blanks kept */
	uint64_t root_phys;		/* XSDT if usable, else RSDT */
	bool root_is_xsdt;

	struct acpi_table_ref tables[ACPI_MAX_TABLES];
	unsigned ntables;

	/* MADT ("APIC") */
	bool have_madt;			/* a CPU list: from the MADT, or the MP table (cpus_source) */
	const char *cpus_source;	/* "madt", "mptable" (arch/x86/mptable.c), NULL = none */
	bool madt_invalid;		/* a MADT was listed but rejected, or its entry walk stopped */
	uint64_t lapic_addr;		/* after any type-5 override */
	uint32_t madt_flags;		/* ACPI_MADT_PCAT_COMPAT: 8259s present */
	uint8_t madt_revision;
	struct acpi_cpu cpus[ACPI_MAX_CPUS];	/* in MADT order */
	unsigned ncpus;			/* entries stored (<= ACPI_MAX_CPUS) */
	unsigned ncpus_dropped;		/* entries beyond ACPI_MAX_CPUS */
	unsigned ncpus_ignored;		/* entries with ID 0xff / 0xffffffff, or neither flag */
	struct acpi_ioapic ioapics[ACPI_MAX_IOAPICS];
	unsigned nioapics;
	/* Interrupt Source Overrides by ISA IRQ (bus 0); absent: identity */
	struct acpi_isa_override isa_irq[ACPI_ISA_IRQS];

	/* FADT ("FACP") */
	bool have_fadt;
	uint8_t fadt_revision;
	uint16_t pm_tmr_port;		/* 0 = none; from X_PM_TMR_BLK when it is system I/O, else PM_TMR_BLK */
	bool pm_tmr_32bit;		/* FADT flags TMR_VAL_EXT (bit 8) */
	bool hw_reduced;		/* FADT flags HW_REDUCED_ACPI (bit 20) */

	/* HPET ("HPET") */
	bool have_hpet;
	uint64_t hpet_addr;		/* system-memory GAS only */
	uint8_t hpet_number;
	uint16_t hpet_min_tick;

	/* SPCR ("SPCR"): the firmware's serial redirection port */
	struct acpi_spcr spcr;

	char errors[ACPI_MAX_ERRORS][ACPI_ERROR_LEN];
	unsigned nerrors;
};

/* Find the RSDP and parse everything.  rsdp_copy/len is the copy from a
 * multiboot2 tag 15 (preferred) or 14 when the loader gave one (NULL
 * otherwise); without it the EBDA's first KiB and 0xE0000-0xFFFFF are
 * scanned on 16-byte steps.  tag_source names where the copy came from.
 * Returns true when an RSDP with a valid checksum was found (tables may
 * still have been rejected; see errors). */
bool acpi_init(struct acpi_info *ai, const void *rsdp_copy, size_t len,
	       const char *tag_source);
/* The same, trying first the RSDP at physical address user_rsdp (the
 * acpi_rsdp= option, Linux's name for it: a kexec from a UEFI Linux passes
 * no RSDP and the BIOS area holds none); 0 = not given.  An address outside
 * the memory map and the BIOS area, or no valid RSDP there, is one error
 * line and the search goes on as above. */
bool acpi_init_at(struct acpi_info *ai, uint64_t user_rsdp, const void *rsdp_copy, size_t len,
		  const char *tag_source);

/* Individual pieces, exposed for host unit tests. */
bool acpi_checksum_ok(const void *p, size_t len);
/* Validate an RSDP image (20 bytes for rev 0, `length` bytes for rev >= 2). */
bool acpi_rsdp_valid(const void *p, size_t avail);
/* Parse one table already checked to be `len` bytes at p. */
void acpi_parse_madt(struct acpi_info *ai, const void *p, uint32_t len);
void acpi_parse_fadt(struct acpi_info *ai, const void *p, uint32_t len);
void acpi_parse_hpet(struct acpi_info *ai, const void *p, uint32_t len);
void acpi_parse_spcr(struct acpi_info *ai, const void *p, uint32_t len);

/* Usable CPUs per the MADT: Enabled set (Online-capable-only entries are
 * hot-plug slots and are not started). */
unsigned acpi_enabled_cpus(const struct acpi_info *ai);

/* The GSI that ISA IRQ `irq` (< 16) arrives at, and its INTI flags (0 =
 * as the bus: edge, active high): the MADT override if one was given,
 * else the identity that ACPI 6.5 §5.2.12.5 assumes. */
uint32_t acpi_isa_irq_gsi(const struct acpi_info *ai, unsigned irq, uint16_t *flags);

#endif
