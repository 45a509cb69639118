/* SPDX-License-Identifier: GPL-2.0-only */
/* End of interrupt, through whichever interrupt controller owns delivery:
 * its driver registers its EOI (arch/x86/apic.c registers the local
 * APIC's, as Linux's apic->eoi), and the interrupt entry (traps.c) and the
 * catch unwind (catch.c) acknowledge through irq_eoi() without depending
 * on the APIC driver.  Before a driver registers, nothing can deliver an
 * interrupt that needs one (the 8259s are masked), so irq_eoi() does
 * nothing. */
#ifndef RINGLAB_ARCH_X86_IRQ_EOI_H
#define RINGLAB_ARCH_X86_IRQ_EOI_H

void irq_eoi_register(void (*eoi)(void));
void irq_eoi(void);

#endif
