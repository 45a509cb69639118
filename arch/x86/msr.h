/* SPDX-License-Identifier: GPL-2.0-only */
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

/* Speculation control (SDM vol. 4 table 2-2; Intel "Speculative Execution
 * Side Channel Mitigations"; AMD "Software Techniques for Managing
 * Speculation"). */
#define MSR_IA32_SPEC_CTRL		0x00000048
#define  SPEC_CTRL_IBRS			(1ull << 0)
#define  SPEC_CTRL_STIBP		(1ull << 1)
#define  SPEC_CTRL_SSBD			(1ull << 2)
#define  SPEC_CTRL_BHI_DIS_S		(1ull << 10)	/* CPUID.7.2:EDX[4] */
#define MSR_IA32_PRED_CMD		0x00000049	/* write-only command */
#define  PRED_CMD_IBPB			(1ull << 0)
#define MSR_IA32_ARCH_CAPABILITIES	0x0000010a
#define MSR_IA32_FLUSH_CMD		0x0000010b	/* write-only command */
#define  L1D_FLUSH			(1ull << 0)

/* Architectural performance monitoring (SDM vol. 3 ch. 21 "Performance
 * Monitoring", §21.2). */
#define MSR_ARCH_PERFMON_PERFCTR0	0x000000c1	/* IA32_PMCx = 0xc1 + x */
#define MSR_ARCH_PERFMON_EVENTSEL0	0x00000186	/* IA32_PERFEVTSELx = 0x186 + x */
#define  ARCH_PERFMON_EVENTSEL_USR	(1ull << 16)
#define  ARCH_PERFMON_EVENTSEL_OS	(1ull << 17)
#define  ARCH_PERFMON_EVENTSEL_EDGE	(1ull << 18)
#define  ARCH_PERFMON_EVENTSEL_INT	(1ull << 20)
#define  ARCH_PERFMON_EVENTSEL_ENABLE	(1ull << 22)
#define  ARCH_PERFMON_EVENTSEL_INV	(1ull << 23)
#define MSR_ARCH_PERFMON_FIXED_CTR0	0x00000309	/* IA32_FIXED_CTRx = 0x309 + x */
#define MSR_CORE_PERF_FIXED_CTR_CTRL	0x0000038d	/* 4 bits per fixed counter */
#define MSR_CORE_PERF_GLOBAL_STATUS	0x0000038e
#define MSR_CORE_PERF_GLOBAL_CTRL	0x0000038f	/* PMCx at bit x, FIXED_CTRx at 32+x */
#define MSR_CORE_PERF_GLOBAL_OVF_CTRL	0x00000390

/* AMD core performance counters (APM vol. 2 §13.2): four legacy pairs,
 * six interleaved ones when CPUID 8000_0001h:ECX[23] (PerfCtrExtCore). */
#define MSR_K7_EVNTSEL0			0xc0010000	/* + x, x < 4 */
#define MSR_K7_PERFCTR0			0xc0010004	/* + x, x < 4 */
#define MSR_F15H_PERF_CTL		0xc0010200	/* + 2x, x < 6 */
#define MSR_F15H_PERF_CTR		0xc0010201	/* + 2x, x < 6 */

/* x2APIC register block: MSR = 0x800 + (xAPIC MMIO offset >> 4), §3. */
#define MSR_X2APIC_BASE			0x00000800
#define MSR_X2APIC_TPR			0x00000808	/* task priority; WRMSR to 802H-83FH is not serializing (SDM vol. 3A 9.3) */
#define MSR_X2APIC_ICR			0x00000830
#define MSR_X2APIC_SELF_IPI		0x0000083f

/* MSR_EFER and EFER_*: arch/x86/processor-flags.h (shared with asm) */
#define MSR_FS_BASE			0xc0000100
#define MSR_GS_BASE			0xc0000101
#define MSR_KERNEL_GS_BASE		0xc0000102
#define MSR_TSC_AUX			0xc0000103

#endif
