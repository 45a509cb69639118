/* GDT, TSS and IDT.  One IDT shared by all CPUs; a GDT and TSS per CPU
 * (the TSS holds the CPU's IST stacks). */
#ifndef RINGLAB_ARCH_X86_DESC_H
#define RINGLAB_ARCH_X86_DESC_H

#include "arch/x86/percpu.h"

#define KERNEL_CS	0x08
#define KERNEL_DS	0x10
#define KERNEL_TSS	0x18

/* Build the shared IDT (once, on the boot CPU). */
void idt_build(void);
/* Load p's GDT and TSS and the shared IDT on the calling CPU; p's stacks
 * must already be set. */
void desc_load_cpu(struct percpu *p);

#endif
