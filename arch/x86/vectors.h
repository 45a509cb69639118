/* SPDX-License-Identifier: GPL-2.0-only */
/* Interrupt vector map.  The priority class is vector >> 4 (SDM vol. 3
 * §11.8.3): timer and IPI plumbing sit above test vectors. */
#ifndef RINGLAB_ARCH_X86_VECTORS_H
#define RINGLAB_ARCH_X86_VECTORS_H

#define VEC_EXCEPTIONS_END	0x20
#define VEC_PIC_BASE		0x20	/* 8259 remapped here, all masked */
#define VEC_PIC_END		0x30
#define VEC_DYN_FIRST		0x30	/* irq_alloc_vector() range for tests */
#define VEC_DYN_LAST		0xdf
#define VEC_TIMER		0xe0	/* LAPIC timer: watchdog or its borrower */
#define VEC_CALL		0xf0	/* cross-CPU call doorbell */
#define VEC_APIC_ERROR		0xfe
#define VEC_SPURIOUS		0xff	/* must have bits 3:0 = 1111 on P6 */

#endif
