/* SPDX-License-Identifier: GPL-2.0-only */
/* Firmware address checks at boot; see fwcheck.h. */
#include "kernel/fwcheck.h"
#include "arch/x86/acpi.h"
#include "arch/x86/hpet.h"
#include "arch/x86/paging.h"
#include "kernel/mbi.h"
#include "kernel/report.h"

#define IOAPIC_WINDOW	0x20	/* IOREGSEL + IOWIN (I/O APIC datasheet §3.1) */
#define LAPIC_WINDOW	0x1000	/* SDM vol. 3 §11.4.1: one 4 KiB page */

unsigned fw_addresses_check(struct boot_info *bi, struct acpi_info *ai)
{
	unsigned dropped = 0;
	const char *why;

	if (ai->have_hpet && (why = paging_mmio_check(ai->hpet_addr, HPET_BLOCK_SIZE))) {
		rep_error("acpi", "HPET base 0x%llx %s; HPET left out, TSC calibration uses the other references",
			  (unsigned long long)ai->hpet_addr, why);
		ai->have_hpet = false;
		dropped++;
	}
	if (ai->have_madt && ai->lapic_addr &&
	    (why = paging_mmio_check(ai->lapic_addr, LAPIC_WINDOW)))
		rep_error("acpi", "MADT local APIC address 0x%llx %s; ignored (IA32_APIC_BASE is used)",
			  (unsigned long long)ai->lapic_addr, why);
	for (unsigned i = 0; i < ai->nioapics;) {
		const struct acpi_ioapic *io = &ai->ioapics[i];

		why = paging_mmio_check(io->addr, IOAPIC_WINDOW);
		if (!why) {
			i++;
			continue;
		}
		rep_error("acpi", "MADT I/O APIC %u at 0x%x %s; left out", io->id, io->addr, why);
		for (unsigned j = i + 1; j < ai->nioapics; j++)
			ai->ioapics[j - 1] = ai->ioapics[j];
		ai->nioapics--;
		dropped++;
	}
	if (bi->has_fb) {
		/* pitch * height bytes; both 32-bit, so no 64-bit overflow.  An
		 * EGA text framebuffer (type 2) counts in characters, but its
		 * pitch is still in bytes (multiboot2 spec §3.6.12). */
		uint64_t len = (uint64_t)bi->fb.pitch * bi->fb.height;

		why = paging_mmio_check(bi->fb.addr, len);
		if (why) {
			rep_error("mbi", "framebuffer 0x%llx+0x%llx (%ux%u pitch %u) %s; left out",
				  (unsigned long long)bi->fb.addr, (unsigned long long)len,
				  bi->fb.width, bi->fb.height, bi->fb.pitch, why);
			bi->has_fb = false;
			dropped++;
		}
	}
	return dropped;
}
