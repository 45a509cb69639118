/* SPDX-License-Identifier: GPL-2.0-only */
/* Firmware-supplied device addresses, checked once at boot before anything
 * maps or touches them (lib/physrange.h says what is checked).  A bad
 * optional device is reported with an error line and left out; the run
 * goes on with what remains. */
#ifndef RINGLAB_KERNEL_FWCHECK_H
#define RINGLAB_KERNEL_FWCHECK_H

struct boot_info;
struct acpi_info;

/* Drops the HPET (calibration then uses the other references), the
 * framebuffer and I/O APIC entries whose ranges are unusable, and says
 * when the MADT's LAPIC address is.  Returns how many were left out. */
unsigned fw_addresses_check(struct boot_info *bi, struct acpi_info *ai);

#endif
