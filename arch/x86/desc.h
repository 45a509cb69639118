/* SPDX-License-Identifier: GPL-2.0-only */
/* GDT, TSS and IDT.  One IDT shared by all CPUs; a GDT and TSS per CPU
 * (the TSS holds the CPU's IST stacks). */
#ifndef RINGLAB_ARCH_X86_DESC_H
#define RINGLAB_ARCH_X86_DESC_H

#include "arch/x86/percpu.h"

#define KERNEL_CS	0x08
#define KERNEL_DS	0x10
#define KERNEL_TSS	0x18

/* A 64-bit IDT gate (SDM vol. 3 §6.14.1, Figure 6-8). */
struct idt_gate {
	uint16_t off_lo;
	uint16_t sel;
	uint8_t ist;
	uint8_t type_attr;
	uint16_t off_mid;
	uint32_t off_hi;
	uint32_t reserved;
} __attribute__((packed));

#define GATE_INTERRUPT_P_DPL0	0x8e	/* present, DPL 0, 64-bit interrupt gate */

/* An interrupt gate to handler through code selector sel, on IST ist (0:
 * the current stack). */
static inline struct idt_gate idt_interrupt_gate(uint64_t handler, uint16_t sel, uint8_t ist)
{
	return (struct idt_gate){
		.off_lo = (uint16_t)handler,
		.sel = sel,
		.ist = ist,
		.type_attr = GATE_INTERRUPT_P_DPL0,
		.off_mid = (uint16_t)(handler >> 16),
		.off_hi = (uint32_t)(handler >> 32),
	};
}

/* Build the shared IDT (once, on the boot CPU). */
void idt_build(void);
/* Load p's GDT and TSS and the shared IDT on the calling CPU; p's stacks
 * must already be set. */
void desc_load_cpu(struct percpu *p);

#endif
