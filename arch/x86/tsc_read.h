/* The named ways to read the TSC.  Each differs in what it waits for
 * (SDM vol. 2B RDTSC, RDTSCP; vol. 2A LFENCE, MFENCE; AMD APM vol. 3 RDTSC):
 *
 *   rdtsc_plain          RDTSC            not ordered at all
 *   rdtsc_lfence         LFENCE;RDTSC     after earlier instructions retire
 *                                         and earlier loads are visible
 *   rdtsc_then_lfence    RDTSC;LFENCE     later instructions wait for it
 *   rdtscp_read          RDTSCP           like LFENCE;RDTSC, not for stores
 *   rdtsc_mfence_lfence  MFENCE;LFENCE;RDTSC  also waits for earlier stores
 *   rdtsc_fenced         LFENCE;RDTSC;LFENCE  after earlier loads, and before
 *                                         later ones (both sides)
 *   rdtsc_cpuid          CPUID;RDTSC      fully serialized (VM-exits in guests)
 *   rdtsc_serialize      SERIALIZE;RDTSC  serialized, needs CPUID 7.EDX[14]
 *
 * All work in ring 3 too, so the hosted build shares them. */
#ifndef RINGLAB_ARCH_X86_TSC_READ_H
#define RINGLAB_ARCH_X86_TSC_READ_H

#include <stdint.h>

#define TSC_COMBINE(lo, hi) (((uint64_t)(hi) << 32) | (uint32_t)(lo))

static inline __attribute__((always_inline)) uint64_t rdtsc_plain(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi)::"memory");
	return TSC_COMBINE(lo, hi);
}

static inline __attribute__((always_inline)) uint64_t rdtsc_lfence(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi)::"memory");
	return TSC_COMBINE(lo, hi);
}

static inline __attribute__((always_inline)) uint64_t rdtsc_then_lfence(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc; lfence" : "=a"(lo), "=d"(hi)::"memory");
	return TSC_COMBINE(lo, hi);
}

static inline __attribute__((always_inline)) uint64_t rdtscp_aux(uint32_t *aux)
{
	uint32_t lo, hi, c;

	__asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(c)::"memory");
	if (aux)
		*aux = c;
	return TSC_COMBINE(lo, hi);
}

static inline __attribute__((always_inline)) uint64_t rdtscp_read(void)
{
	return rdtscp_aux(0);
}

static inline __attribute__((always_inline)) uint64_t rdtsc_mfence_lfence(void)
{
	uint32_t lo, hi;

	__asm__ volatile("mfence; lfence; rdtsc" : "=a"(lo), "=d"(hi)::"memory");
	return TSC_COMBINE(lo, hi);
}

static inline __attribute__((always_inline)) uint64_t rdtsc_fenced(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi)::"memory");
	return TSC_COMBINE(lo, hi);
}

static inline __attribute__((always_inline)) uint64_t rdtsc_cpuid(void)
{
	uint32_t lo, hi;

	__asm__ volatile("xor %%eax, %%eax; cpuid; rdtsc"
			 : "=a"(lo), "=d"(hi)::"rbx", "rcx", "memory");
	return TSC_COMBINE(lo, hi);
}

/* SERIALIZE is 0F 01 E8; spelled as bytes so old assemblers accept it. */
static inline __attribute__((always_inline)) uint64_t rdtsc_serialize(void)
{
	uint32_t lo, hi;

	__asm__ volatile(".byte 0x0f, 0x01, 0xe8; rdtsc" : "=a"(lo), "=d"(hi)::"memory");
	return TSC_COMBINE(lo, hi);
}

/* The kernel's ordinary clock for timeouts and timestamps. */
static inline __attribute__((always_inline)) uint64_t rdtsc(void)
{
	return rdtsc_lfence();
}

#endif
