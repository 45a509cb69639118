/* SPDX-License-Identifier: GPL-2.0-only */
/* I/O APIC access (Intel 82093AA I/O APIC datasheet, §3; later I/O APICs
 * in chipsets keep the same registers): just enough to route one pin, the
 * uniprocessor NMI watchdog's (kernel/nmi_watch.c).
 *
 * The registers sit behind an index/data pair: IOREGSEL at +0x00 selects a
 * register (8 bits), IOWIN at +0x10 reads or writes it, 32 bits at a time.
 * Register 0x01 (version) gives the highest redirection entry in bits
 * 23:16; entry n is registers 0x10+2n (low half) and 0x11+2n (high half).
 *
 * Access is not locked: only the boot CPU programs an I/O APIC, and never
 * from interrupt or NMI context except on the panic path. */
#ifndef RINGLAB_ARCH_X86_IOAPIC_H
#define RINGLAB_ARCH_X86_IOAPIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IOAPIC_WINDOW		0x20	/* IOREGSEL + IOWIN */
#define IOAPIC_REGSEL		0x00
#define IOAPIC_IOWIN		0x10

#define IOAPIC_REG_ID		0x00
#define IOAPIC_REG_VER		0x01
#define IOAPIC_REG_RTE_LO(pin)	(0x10u + 2u * (pin))
#define IOAPIC_REG_RTE_HI(pin)	(0x11u + 2u * (pin))
/* IOREGSEL is 8 bits wide: entries past 119 cannot be addressed. */
#define IOAPIC_MAX_PINS		120u

/* Redirection table entry (datasheet §3.2.4), as one 64-bit value. */
#define IOAPIC_RTE_VECTOR_MASK	0xffull
#define IOAPIC_RTE_DM_SHIFT	8
#define IOAPIC_RTE_DM_MASK	(7ull << 8)
#define IOAPIC_RTE_DM_FIXED	(0ull << 8)
#define IOAPIC_RTE_DM_NMI	(4ull << 8)	/* 100b */
#define IOAPIC_RTE_DM_EXTINT	(7ull << 8)
#define IOAPIC_RTE_DEST_LOGICAL	(1ull << 11)
#define IOAPIC_RTE_DELIVS	(1ull << 12)	/* read-only: send pending */
#define IOAPIC_RTE_ACTIVE_LOW	(1ull << 13)
#define IOAPIC_RTE_REMOTE_IRR	(1ull << 14)	/* read-only */
#define IOAPIC_RTE_LEVEL	(1ull << 15)
#define IOAPIC_RTE_MASKED	(1ull << 16)
#define IOAPIC_RTE_DEST_SHIFT	56		/* physical mode: APIC ID, 8 bits */

/* Entries an I/O APIC has, from its version register (0 for a register
 * that reads as all ones: nothing answers there). */
static inline unsigned ioapic_ver_pins(uint32_t ver)
{
	unsigned n;

	if (ver == 0xffffffffu)
		return 0;
	n = ((ver >> 16) & 0xff) + 1;
	return n > IOAPIC_MAX_PINS ? IOAPIC_MAX_PINS : n;
}

/* An RTE that delivers an NMI to one CPU: delivery mode NMI, physical
 * destination `apic_id`, edge-triggered (the datasheet requires edge for
 * NMI: a level NMI would be re-sent while the line stays asserted), the
 * polarity the firmware gave the line.  The vector is ignored for NMI;
 * 2 is written.  False when apic_id does not fit the 8-bit destination
 * (an x2APIC ID above 255 needs interrupt remapping). */
static inline bool ioapic_rte_nmi(uint32_t apic_id, bool active_low, bool masked, uint64_t *rte)
{
	uint64_t v = IOAPIC_RTE_DM_NMI | 2;

	if (apic_id > 0xff)
		return false;
	if (active_low)
		v |= IOAPIC_RTE_ACTIVE_LOW;
	if (masked)
		v |= IOAPIC_RTE_MASKED;
	*rte = v | ((uint64_t)apic_id << IOAPIC_RTE_DEST_SHIFT);
	return true;
}

/* Which of n I/O APICs (GSI base gsi_base[i], npins[i] entries) serves
 * `gsi`: its index, with the pin in *pin, or -1.  The first match wins
 * when firmware lists overlapping ranges. */
static inline int ioapic_gsi_lookup(const uint32_t *gsi_base, const unsigned *npins, unsigned n,
				    uint32_t gsi, unsigned *pin)
{
	for (unsigned i = 0; i < n; i++) {
		if (npins[i] && gsi >= gsi_base[i] && gsi - gsi_base[i] < npins[i]) {
			*pin = gsi - gsi_base[i];
			return (int)i;
		}
	}
	return -1;
}

struct acpi_info;

/* One redirection entry of one I/O APIC. */
struct ioapic_pin {
	volatile uint32_t *base;	/* the mapped register window */
	uint64_t phys;
	uint8_t id;			/* MADT I/O APIC ID */
	unsigned index;			/* in acpi_info.ioapics */
	unsigned npins;			/* from the version register */
	unsigned pin;
	uint32_t gsi;
};

/* Find the I/O APIC that serves `gsi` among the MADT's, with its register
 * window mapped uncached, and fill *p.  False with the reason in why. */
bool ioapic_find_gsi(const struct acpi_info *ai, uint32_t gsi, struct ioapic_pin *p,
		     char *why, size_t why_size);
uint32_t ioapic_read(volatile uint32_t *base, unsigned reg);
void ioapic_write(volatile uint32_t *base, unsigned reg, uint32_t val);
uint64_t ioapic_rte_read(const struct ioapic_pin *p);
/* Write an entry: the current one is masked first, then the high half
 * (destination) and last the low half (mask bit as in rte), so the pin
 * never fires half-programmed. */
void ioapic_rte_write(const struct ioapic_pin *p, uint64_t rte);

#endif
