/* SPDX-License-Identifier: GPL-2.0-only */
/* 8259A remap and mask (ICW1-ICW4 sequence, Intel 8259A data sheet). */
#include "arch/x86/pic.h"
#include "arch/x86/cpu.h"

#define PIC1_CMD	0x20
#define PIC1_DATA	0x21
#define PIC2_CMD	0xa0
#define PIC2_DATA	0xa1
#define ICW1_INIT_ICW4	0x11
#define ICW4_8086	0x01

void pic_remap_and_mask(unsigned base)
{
	outb(PIC1_CMD, ICW1_INIT_ICW4);
	outb(PIC2_CMD, ICW1_INIT_ICW4);
	outb(PIC1_DATA, (uint8_t)base);		/* ICW2: vector base */
	outb(PIC2_DATA, (uint8_t)(base + 8));
	outb(PIC1_DATA, 0x04);			/* ICW3: slave on IRQ2 */
	outb(PIC2_DATA, 0x02);
	outb(PIC1_DATA, ICW4_8086);
	outb(PIC2_DATA, ICW4_8086);
	outb(PIC1_DATA, 0xff);			/* mask everything */
	outb(PIC2_DATA, 0xff);
}

bool pic_irq_masked(unsigned irq)
{
	/* OCW1: a read of the data port returns the interrupt mask register. */
	if (irq < 8)
		return inb(PIC1_DATA) & (1u << irq);
	if (irq < 16)
		return inb(PIC2_DATA) & (1u << (irq - 8));
	return true;
}
