/* SPDX-License-Identifier: GPL-2.0-only */
/* Local APIC register offsets and fields, named as Linux's apicdef.h
 * (SDM vol. 3A ch. 11 "Advanced Programmable Interrupt Controller"). */
#ifndef RINGLAB_ARCH_X86_APICDEF_H
#define RINGLAB_ARCH_X86_APICDEF_H

#define APIC_DEFAULT_PHYS_BASE	0xfee00000ull

#define APIC_ID		0x020
#define APIC_LVR	0x030
#define  APIC_LVR_MAXLVT(v)	(((v) >> 16) & 0xff)
#define  APIC_LVR_VERSION(v)	((v) & 0xff)
#define APIC_TASKPRI	0x080
#define APIC_PROCPRI	0x0a0
#define APIC_EOI	0x0b0
#define APIC_LDR	0x0d0
#define APIC_DFR	0x0e0
#define APIC_SPIV	0x0f0
#define  APIC_SPIV_APIC_ENABLED	(1u << 8)
#define APIC_ISR	0x100
#define APIC_TMR	0x180
#define APIC_IRR	0x200
#define APIC_ESR	0x280
#define  APIC_ESR_SEND_ILLEGAL_VECTOR	(1u << 5)
#define  APIC_ESR_RECV_ILLEGAL_VECTOR	(1u << 6)
#define  APIC_ESR_ILLEGAL_REGISTER	(1u << 7)
#define APIC_LVTCMCI	0x2f0
#define APIC_ICR	0x300
#define APIC_ICR2	0x310
#define  APIC_DM_FIXED		0x00000
#define  APIC_DM_NMI		0x00400
#define  APIC_DM_INIT		0x00500
#define  APIC_DM_STARTUP	0x00600
#define  APIC_ICR_BUSY		0x01000
#define  APIC_INT_ASSERT	0x04000
#define  APIC_INT_LEVELTRIG	0x08000
#define  APIC_DEST_SELF		0x40000
#define  APIC_DEST_ALLINC	0x80000
#define  APIC_DEST_ALLBUT	0xc0000
#define APIC_LVTT	0x320
#define  APIC_LVT_TIMER_ONESHOT		(0u << 17)
#define  APIC_LVT_TIMER_PERIODIC	(1u << 17)
#define  APIC_LVT_TIMER_TSCDEADLINE	(2u << 17)
#define APIC_LVTTHMR	0x330
#define APIC_LVTPC	0x340
#define APIC_LVT0	0x350
#define APIC_LVT1	0x360
#define  APIC_LVT_DM_NMI	0x00400
#define  APIC_LVT_DM_EXTINT	0x00700
#define  APIC_LVT_MASKED	(1u << 16)
#define APIC_LVTERR	0x370
#define APIC_TMICT	0x380
#define APIC_TMCCT	0x390
#define APIC_TDCR	0x3e0
#define  APIC_TDR_DIV_1		0xb
#define  APIC_TDR_DIV_16	0x3
#define  APIC_TDR_DIV_128	0xa
#define APIC_SELF_IPI	0x3f0	/* x2APIC only (MSR 0x83f) */

#endif
