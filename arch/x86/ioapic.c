/* SPDX-License-Identifier: GPL-2.0-only */
/* I/O APIC access; see ioapic.h. */
#include "arch/x86/ioapic.h"
#include "arch/x86/acpi.h"
#include "arch/x86/paging.h"
#include "lib/printf.h"

uint32_t ioapic_read(volatile uint32_t *base, unsigned reg)
{
	base[IOAPIC_REGSEL / 4] = reg & 0xff;
	return base[IOAPIC_IOWIN / 4];
}

void ioapic_write(volatile uint32_t *base, unsigned reg, uint32_t val)
{
	base[IOAPIC_REGSEL / 4] = reg & 0xff;
	base[IOAPIC_IOWIN / 4] = val;
}

uint64_t ioapic_rte_read(const struct ioapic_pin *p)
{
	uint32_t lo = ioapic_read(p->base, IOAPIC_REG_RTE_LO(p->pin));
	uint32_t hi = ioapic_read(p->base, IOAPIC_REG_RTE_HI(p->pin));

	return (uint64_t)hi << 32 | lo;
}

void ioapic_rte_write(const struct ioapic_pin *p, uint64_t rte)
{
	uint32_t lo = ioapic_read(p->base, IOAPIC_REG_RTE_LO(p->pin));

	ioapic_write(p->base, IOAPIC_REG_RTE_LO(p->pin), lo | (uint32_t)IOAPIC_RTE_MASKED);
	ioapic_write(p->base, IOAPIC_REG_RTE_HI(p->pin), (uint32_t)(rte >> 32));
	ioapic_write(p->base, IOAPIC_REG_RTE_LO(p->pin), (uint32_t)rte);
}

/* The window must be mapped, and uncached: below 4 GiB paging.c maps
 * every non-RAM 2 MiB page UC (PCD|PWT); paging_map_mmio() adds one
 * above.  A cached window would turn IOREGSEL/IOWIN accesses into cache
 * hits. */
static volatile uint32_t *map_window(uint64_t phys, char *why, size_t why_size)
{
	uint64_t leaf;
	unsigned level;

	if (!phys || (phys & 0xf) || !paging_map_mmio(phys, IOAPIC_WINDOW)) {
		rl_snprintf(why, why_size, "I/O APIC window 0x%llx cannot be mapped",
			    (unsigned long long)phys);
		return NULL;
	}
	if (paging_translate(phys, NULL, &leaf, &level) && !(leaf & PTE_PCD)) {
		rl_snprintf(why, why_size, "I/O APIC window 0x%llx is mapped cacheable (a RAM page?)",
			    (unsigned long long)phys);
		return NULL;
	}
	return (volatile uint32_t *)(uintptr_t)phys;
}

bool ioapic_find_gsi(const struct acpi_info *ai, uint32_t gsi, struct ioapic_pin *p,
		     char *why, size_t why_size)
{
	uint32_t bases[ACPI_MAX_IOAPICS];
	unsigned npins[ACPI_MAX_IOAPICS], pin = 0, n = ai->nioapics;
	volatile uint32_t *win[ACPI_MAX_IOAPICS];

	*p = (struct ioapic_pin){ 0 };
	if (why_size)
		why[0] = 0;
	if (!n) {
		rl_snprintf(why, why_size, "the MADT lists no I/O APIC");
		return false;
	}
	if (n > ACPI_MAX_IOAPICS)
		n = ACPI_MAX_IOAPICS;
	for (unsigned i = 0; i < n; i++) {
		bases[i] = ai->ioapics[i].gsi_base;
		npins[i] = 0;
		win[i] = NULL;
		/* Only the candidates are touched. */
		if (ai->ioapics[i].gsi_base > gsi)
			continue;
		win[i] = map_window(ai->ioapics[i].addr, why, why_size);
		if (win[i])
			npins[i] = ioapic_ver_pins(ioapic_read(win[i], IOAPIC_REG_VER));
	}
	int i = ioapic_gsi_lookup(bases, npins, n, gsi, &pin);

	if (i < 0) {
		/* why may already hold a mapping failure of a candidate */
		if (!why[0])
			rl_snprintf(why, why_size, "no I/O APIC of %u serves GSI %u", n, gsi);
		return false;
	}
	*p = (struct ioapic_pin){ win[i], ai->ioapics[i].addr, ai->ioapics[i].id, (unsigned)i,
				  npins[i], pin, gsi };
	why[0] = 0;
	return true;
}
