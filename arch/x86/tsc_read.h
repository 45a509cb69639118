/* SPDX-License-Identifier: GPL-2.0-only */
/* The named ways to read the TSC.  Each function is named after its
 * instruction sequence, exactly as its token in the log (rdtsc.cost.<name>,
 * tsc_order.<shape>.<name>), and differs in what it waits for (SDM vol. 2B
 * RDTSC, RDTSCP; vol. 2A LFENCE, MFENCE; AMD APM vol. 3 RDTSC):
 *
 *   rdtsc                RDTSC            not ordered at all (as in Linux)
 *   lfence_rdtsc         LFENCE;RDTSC     after earlier instructions retire
 *                                         and earlier loads are visible
 *   rdtsc_lfence         RDTSC;LFENCE     later instructions wait for it
 *   rdtscp               RDTSCP           like LFENCE;RDTSC, not for stores
 *   mfence_lfence_rdtsc  MFENCE;LFENCE;RDTSC  also waits for earlier stores
 *   lfence_rdtsc_lfence  LFENCE;RDTSC;LFENCE  after earlier loads, and before
 *                                         later ones (both sides)
 *   cpuid_rdtsc          CPUID;RDTSC      fully serialized (VM-exits in guests)
 *   serialize_rdtsc      SERIALIZE;RDTSC  serialized, needs CPUID.7.0:EDX[14]
 *
 * rdtsc_ordered() is the kernel's ordinary clock for timeouts and
 * timestamps (LFENCE;RDTSC, like Linux's rdtsc_ordered()).
 *
 * TSC_READERS() is the one list of them, used by both the rdtsc suite
 * (cost) and the tsc_order suite (monotonicity).  All work in ring 3 too,
 * so the hosted build shares them. */
#ifndef RINGLAB_ARCH_X86_TSC_READ_H
#define RINGLAB_ARCH_X86_TSC_READ_H

#include <stdbool.h>
#include <stdint.h>
#include "arch/x86/cpufeature.h"

#define TSC_COMBINE(lo, hi) (((uint64_t)(hi) << 32) | (uint32_t)(lo))

#define TSC_READ_ASM(name, insns, ...) \
	static inline __attribute__((always_inline)) uint64_t name(void) \
	{ \
		uint32_t lo, hi; \
		__asm__ volatile(insns : "=a"(lo), "=d"(hi) : : "memory", ##__VA_ARGS__); \
		return TSC_COMBINE(lo, hi); \
	}

TSC_READ_ASM(rdtsc, "rdtsc")
TSC_READ_ASM(lfence_rdtsc, "lfence; rdtsc")
TSC_READ_ASM(rdtsc_lfence, "rdtsc; lfence")
TSC_READ_ASM(mfence_lfence_rdtsc, "mfence; lfence; rdtsc")
TSC_READ_ASM(lfence_rdtsc_lfence, "lfence; rdtsc; lfence")
TSC_READ_ASM(cpuid_rdtsc, "xor %%eax, %%eax; cpuid; rdtsc", "rbx", "rcx")
/* SERIALIZE is 0F 01 E8; spelled as bytes so old assemblers accept it. */
TSC_READ_ASM(serialize_rdtsc, ".byte 0x0f, 0x01, 0xe8; rdtsc")
#undef TSC_READ_ASM

static inline __attribute__((always_inline)) uint64_t rdtscp_aux(uint32_t *aux)
{
	uint32_t lo, hi, c;

	__asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(c)::"memory");
	if (aux)
		*aux = c;
	return TSC_COMBINE(lo, hi);
}

static inline __attribute__((always_inline)) uint64_t rdtscp(void)
{
	return rdtscp_aux(0);
}

/* The kernel's ordinary clock for timeouts and timestamps. */
static inline __attribute__((always_inline)) uint64_t rdtsc_ordered(void)
{
	return lfence_rdtsc();
}

/* X(name, instruction sequence, waits for earlier loads, later loads wait
 *   for it) -- the orderings the SDM guarantees (suites/tsc_order.c). */
#define TSC_READERS(X) \
	X(rdtsc,               "RDTSC",               false, false) \
	X(lfence_rdtsc,        "LFENCE;RDTSC",        true,  false) \
	X(rdtsc_lfence,        "RDTSC;LFENCE",        false, true) \
	X(rdtscp,              "RDTSCP",              true,  false) \
	X(mfence_lfence_rdtsc, "MFENCE;LFENCE;RDTSC", true,  false) \
	X(lfence_rdtsc_lfence, "LFENCE;RDTSC;LFENCE", true,  true) \
	X(cpuid_rdtsc,         "CPUID;RDTSC",         true,  true) \
	X(serialize_rdtsc,     "SERIALIZE;RDTSC",     true,  true)

enum tsc_reader {
#define X(name, insns, after, before) TSC_READER_##name,
	TSC_READERS(X)
#undef X
	TSC_NREADERS
};

struct tsc_reader_info {
	const char *name;	/* the log token and the function name */
	const char *insns;
	bool after_loads;	/* waits for earlier loads */
	bool before_loads;	/* later loads wait for it */
};

static const struct tsc_reader_info tsc_readers[TSC_NREADERS] __attribute__((unused)) = {
#define X(name, insns, after, before) { #name, insns, after, before },
	TSC_READERS(X)
#undef X
};

/* The CPUID bit a reader needs, or false when it needs none. */
static inline bool tsc_reader_needs(enum tsc_reader r, struct x86_cpu_feature *f)
{
	if (r == TSC_READER_rdtscp) {
		*f = X86_FEATURE_RDTSCP;
		return true;
	}
	if (r == TSC_READER_serialize_rdtsc) {
		*f = X86_FEATURE_SERIALIZE;
		return true;
	}
	return false;
}

/* Read with reader r; r is a constant where it matters, so this inlines to
 * the one sequence. */
static inline __attribute__((always_inline)) uint64_t tsc_read(enum tsc_reader r)
{
	switch (r) {
#define X(name, insns, after, before) case TSC_READER_##name: return name();
	TSC_READERS(X)
#undef X
	default: return rdtsc_ordered();
	}
}

#endif
