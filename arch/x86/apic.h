/* SPDX-License-Identifier: GPL-2.0-only */
/* Local APIC: one API over xAPIC (MMIO) and x2APIC (MSRs).
 *
 * Mode choice (apic_bsp_init): x2APIC when CPUID.1:ECX[21] has it unless
 * apic=xapic; if the firmware already enabled x2APIC (EXTD=1) we stay in it,
 * since leaving x2APIC needs a full APIC disable (SDM vol. 3 §11.12.5) and
 * x2APIC -> xAPIC directly #GPs.  The enable is verified (EXTD reads back,
 * the x2APIC ID MSR answers); if it does not stick, as on QEMU 7.2's TCG,
 * the run falls back to xAPIC and says why. */
#ifndef RINGLAB_ARCH_X86_APIC_H
#define RINGLAB_ARCH_X86_APIC_H

#include <stdbool.h>
#include <stdint.h>
#include "arch/x86/apicdef.h"

enum apic_mode { APIC_MODE_NONE = 0, APIC_MODE_XAPIC, APIC_MODE_X2APIC };

/* What apic_bsp_init() needs from the command line (filled by kmain). */
struct apic_params {
	enum apic_pref_mode { APIC_PREF_AUTO, APIC_PREF_XAPIC, APIC_PREF_X2APIC } pref;
	bool sim_x2apic_nostick;	/* simulate=x2apic-nostick */
};
struct acpi_info;

extern enum apic_mode apic_mode;
extern enum apic_mode apic_boot_mode;	/* the mode chosen at boot */
extern bool apic_mode_forced;	/* apic= given or fallback happened */
extern bool apic_fw_x2apic;	/* firmware handed over in x2APIC mode */

const char *apic_mode_name(enum apic_mode m);

/* Decide the mode, enable the BSP's APIC and mask the 8259s.  Returns
 * false when there is no usable APIC at all. */
bool apic_bsp_init(const struct apic_params *p, const struct acpi_info *ai);
/* Program this CPU's APIC (BSP or AP) in apic_mode: SVR, TPR, LVTs
 * masked, ESR cleared, stale ISR bits acknowledged. */
void apic_cpu_init(bool bsp);
/* Switch this CPU's APIC to mode m through the disabled state, then
 * reprogram it.  Only between tests, with nothing in flight. */
bool apic_cpu_switch_mode(enum apic_mode m);

uint32_t apic_read(unsigned reg);
void apic_write(unsigned reg, uint32_t v);
uint32_t apic_id(void);		/* full x2APIC ID or 8-bit xAPIC ID */

void apic_eoi(void);

/* Send an IPI.  icr_low holds vector, delivery mode, level/trigger and
 * shorthand bits; dest is ignored with a shorthand.  In xAPIC mode waits
 * (bounded) for the previous IPI's delivery status to clear first and
 * returns false if it stays busy; dest > 0xff is refused there. */
bool apic_send(uint32_t dest, uint32_t icr_low);
/* The ICR write alone, with no waiting and no checks, for measurements:
 * x2APIC: one WRMSR to 0x830; xAPIC: ICR2 then ICR. */
void apic_icr_write_raw(uint32_t dest, uint32_t icr_low);
/* Delivery-status wait (xAPIC only; true at once in x2APIC mode). */
bool apic_wait_icr_idle(uint64_t timeout_us);

/* Write ESR then read it: the SDM requires the write to latch errors. */
uint32_t apic_read_esr(void);

/* Physical address of the xAPIC MMIO window (0 in x2APIC mode). */
uint64_t apic_mmio_phys(void);

/* Number of errors the APIC error interrupt has seen on all CPUs. */
extern volatile uint64_t apic_error_irqs;
extern volatile uint32_t apic_last_esr;

#endif
