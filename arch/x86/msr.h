/* Model-specific register numbers and fields, named as the SDM and Linux's
 * msr-index.h name them.  Sources: SDM vol. 4 ch. 2, AMD APM vol. 2 appendix A. */
#ifndef RINGLAB_ARCH_X86_MSR_H
#define RINGLAB_ARCH_X86_MSR_H

#include "arch/x86/processor-flags.h"

#define MSR_IA32_TSC			0x00000010
#define MSR_IA32_APICBASE		0x0000001b
#define  MSR_IA32_APICBASE_BSP		(1ull << 8)
#define  MSR_IA32_APICBASE_EXTD		(1ull << 10)	/* x2APIC mode */
#define  MSR_IA32_APICBASE_ENABLE	(1ull << 11)	/* global enable */
#define  MSR_IA32_APICBASE_BASE		0x000ffffffffff000ull
#define MSR_IA32_TSC_ADJUST		0x0000003b
#define MSR_IA32_UCODE_REV		0x0000008b	/* Intel BIOS_SIGN_ID; AMD PATCH_LEVEL */
#define MSR_IA32_TSC_DEADLINE		0x000006e0

/* x2APIC register block: MSR = 0x800 + (xAPIC MMIO offset >> 4), §3. */
#define MSR_X2APIC_BASE			0x00000800
#define MSR_X2APIC_ICR			0x00000830
#define MSR_X2APIC_SELF_IPI		0x0000083f

/* MSR_EFER and EFER_*: arch/x86/processor-flags.h (shared with asm) */
#define MSR_FS_BASE			0xc0000100
#define MSR_GS_BASE			0xc0000101
#define MSR_KERNEL_GS_BASE		0xc0000102
#define MSR_TSC_AUX			0xc0000103

#endif
