/* SPDX-License-Identifier: GPL-2.0-only */
/* What the memory experiments need to know about the CPU: the last-level
 * cache size (from the CPUID cache leaves) and the SIMD store instructions
 * it has.  Decoded through a cpuid_fn so host unit tests can feed invented
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

struct meminfo {
	uint64_t llc_bytes;	/* 0: no cache leaf described one */
	unsigned llc_level;
	const char *llc_source;	/* "CPUID.4", "CPUID.8000001DH", "CPUID.80000006H", "none" */
	bool sse2;		/* CPUID.1:EDX[26] */
	bool xsave;		/* CPUID.1:ECX[26] */
	bool avx;		/* CPUID.1:ECX[28] */
	bool avx2;		/* CPUID.7.0:EBX[5] */
	bool avx512f;		/* CPUID.7.0:EBX[16] */
	bool clzero;		/* CPUID.80000008H:EBX[0] */
	uint64_t xcr0_supported;	/* CPUID.0DH.0:EDX:EAX, 0 without XSAVE */
};

void meminfo_decode(struct meminfo *mi, cpuid_fn fn, void *ctx);

#endif
