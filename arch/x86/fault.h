/* SPDX-License-Identifier: GPL-2.0-only */
/* The expected-fault API: run code and learn whether it faulted, with
 * which vector and error code.  Nothing is printed for these faults.
 *
 * Note (docs/platform-notes.md "QEMU TCG and KVM behaviour"): QEMU TCG returns 0 for unknown MSRs without a
 * #GP, so "no fault" from rdmsr_safe() does not prove an MSR exists; check
 * CPUID for the feature first. */
#ifndef RINGLAB_ARCH_X86_FAULT_H
#define RINGLAB_ARCH_X86_FAULT_H

#include <stdbool.h>
#include <stdint.h>

struct fault_result {
	int vector;		/* -1: no fault */
	uint64_t error_code;
	uint64_t rip;		/* faulting instruction */
	uint64_t cr2;		/* for #PF */
};

/* Run fn(arg); any exception it raises (except #DF/#MC) returns here. */
struct fault_result fault_catch(void (*fn)(void *arg), void *arg);

static inline bool fault_none(struct fault_result r)
{
	return r.vector < 0;
}

/* MSR access that reports a fault instead of taking it. */
struct fault_result rdmsr_safe(uint32_t msr, uint64_t *val);
struct fault_result wrmsr_safe(uint32_t msr, uint64_t val);

/* Instruction probes built on fault_catch. */
struct fault_result probe_rdtscp(void);
struct fault_result probe_serialize(void);

#endif
