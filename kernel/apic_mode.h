/* SPDX-License-Identifier: GPL-2.0-only */
/* APIC mode switching for the ipi suite (kernel only: it reprograms every
 * CPU's local APIC). */
#ifndef RINGLAB_KERNEL_APIC_MODE_H
#define RINGLAB_KERNEL_APIC_MODE_H

#include <stdbool.h>
#include "arch/x86/apic.h"

/* Modes the ipi suite may use on this machine: the boot mode always; the
 * other one only when the firmware handed over in xAPIC mode, CPUID has
 * x2APIC, nothing forced or simulated a mode, and every online APIC ID
 * fits xAPIC's 8 bits.  why explains a refusal. */
bool smp_apic_mode_allowed(enum apic_mode m, char *why, unsigned why_size);
/* Switch every online CPU's APIC to m (through the disabled state, SDM
 * vol. 3 §11.12.5) and reprogram it.  Nothing may be in flight. */
bool smp_set_apic_mode(enum apic_mode m, char *why, unsigned why_size);

#endif
