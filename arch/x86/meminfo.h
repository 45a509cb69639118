/* SPDX-License-Identifier: GPL-2.0-only */
/* What the memory experiments need to know about the CPU: the last-level
 * cache size (from the CPUID cache leaves) and the XCR0 state components
 * the CPU supports; its instructions are the feature table's
 * (arch/x86/cpufeature.h, asked through cpuinfo or x86_cpu_has).  Decoded through a cpuid_fn so host unit tests can feed invented
 * leaves (tests/host/test_memsize.c). */
#ifndef RINGLAB_ARCH_X86_MEMINFO_H
#define RINGLAB_ARCH_X86_MEMINFO_H

#include <stdbool.h>
#include <stdint.h>
#include "arch/x86/cpuinfo.h"

/* CPUID.(EAX=0DH,ECX=0):EAX: XCR0 state components (SDM vol. 1 §13.1). */
#define XFEATURE_MASK_FP	(1ull << 0)
#define XFEATURE_MASK_SSE	(1ull << 1)
#define XFEATURE_MASK_YMM	(1ull << 2)
#define XFEATURE_MASK_OPMASK	(1ull << 5)
#define XFEATURE_MASK_ZMM_Hi256	(1ull << 6)
#define XFEATURE_MASK_Hi16_ZMM	(1ull << 7)
#define XFEATURE_MASK_AVX512	(XFEATURE_MASK_OPMASK | XFEATURE_MASK_ZMM_Hi256 | XFEATURE_MASK_Hi16_ZMM)

/* CPUID leaf 0DH: processor extended state enumeration (SDM vol. 2A CPUID) */
#define CPUID_LEAF_XSTATE	0xd

struct meminfo {
	uint64_t llc_bytes;	/* 0: no cache leaf described one */
	unsigned llc_level;
	const char *llc_source;	/* "CPUID.4", "CPUID.8000001DH", "CPUID.80000006H", "none" */
	uint64_t xcr0_supported;	/* CPUID.0DH.0:EDX:EAX, 0 without XSAVE */
};

void meminfo_decode(struct meminfo *mi, cpuid_fn fn, void *ctx);

#endif
