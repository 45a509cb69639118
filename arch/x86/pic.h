/* Legacy 8259 PICs: remapped away from the exception vectors and masked,
 * so nothing but their spurious IRQ7/15 can reach the CPU. */
#ifndef RINGLAB_ARCH_X86_PIC_H
#define RINGLAB_ARCH_X86_PIC_H

void pic_remap_and_mask(unsigned base_vector);

#endif
