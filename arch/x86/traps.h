/* SPDX-License-Identifier: GPL-2.0-only */
/* Interrupt and exception dispatch.  Exceptions go to the innermost catch
 * point (arch/x86/catch.h) or end in a panic; vectors >= 32 go to the
 * handler registered for them. */
#ifndef RINGLAB_ARCH_X86_TRAPS_H
#define RINGLAB_ARCH_X86_TRAPS_H

#include <stdbool.h>
#include <stdint.h>
#include "arch/x86/regs.h"
#include "arch/x86/trapnr.h"

typedef void (*irq_handler_t)(struct regs *r);

void irq_set_handler(unsigned vector, irq_handler_t fn);
/* A free vector in VEC_DYN_FIRST..VEC_DYN_LAST for a test, or 0. */
unsigned irq_alloc_vector(irq_handler_t fn);
void irq_free_vector(unsigned vector);

const char *exception_mnemonic(unsigned vector);	/* "#PF" */
const char *exception_name(unsigned vector);		/* "page fault" */

/* The common entry from arch/x86/isr.asm; tests may also call it with a
 * synthesized frame to exercise a vector's path without an INT
 * instruction (which some hypervisors cannot emulate). */
void isr_dispatch(struct regs *r);

/* The boot CPU's NMI tick hook (kernel/arch_hooks.c registers
 * kernel/nmi_watch.c's): called first in every NMI on the boot CPU.  It
 * may set the CPU's timeout_req (then the NMI unwinds the case as
 * TIMEOUT) and returns true while a periodic NMI source is or was armed,
 * so that an NMI with nothing to do is a quiet tick, not "unexpected". */
void nmi_register_tick(bool (*fn)(void));

/* Print the register dump for an unexpected exception. */
void exception_dump(const struct regs *r);

#endif
