/* SPDX-License-Identifier: GPL-2.0-only */
/* Per-CPU area bookkeeping; see percpu.h. */
#include "arch/x86/percpu.h"
#include "arch/x86/cpu.h"
#include "arch/x86/msr.h"

struct percpu *cpus[MAX_CPUS];
unsigned ncpus;

void percpu_install(struct percpu *p)
{
	p->self = p;
	wrmsr(MSR_GS_BASE, (uint64_t)(uintptr_t)p);
}

struct percpu *cpu_by_apic_id(uint32_t apic_id)
{
	for (unsigned i = 0; i < ncpus; i++)
		if (cpus[i] && cpus[i]->apic_id == apic_id)
			return cpus[i];
	return 0;
}
