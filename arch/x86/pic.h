/* SPDX-License-Identifier: GPL-2.0-only */
/* Legacy 8259 PICs: remapped away from the exception vectors and masked,
 * so nothing but their spurious IRQ7/15 can reach the CPU. */
#ifndef RINGLAB_ARCH_X86_PIC_H
#define RINGLAB_ARCH_X86_PIC_H

#include <stdbool.h>

void pic_remap_and_mask(unsigned base_vector);
/* The 8259 mask bit of ISA IRQ `irq` (master for 0-7, slave for 8-15). */
bool pic_irq_masked(unsigned irq);

#endif
