/* SPDX-License-Identifier: GPL-2.0-only */
/* How two CPUs relate in the topology, from the CPUID topology each CPU
 * read of itself at bring-up (arch/x86/topology.c).  The rest of the
 * relation API is shared with the hosted build (kernel/cpu_set.c). */
#include "kernel/platform.h"
#include "arch/x86/percpu.h"

enum cpu_rel plat_cpu_relation(unsigned a, unsigned b)
{
	const struct cpu_topo *x = &cpus[a]->topo, *y = &cpus[b]->topo;

	if (a == b)
		return REL_SELF;
	if (x->package != y->package)
		return REL_OTHER_PACKAGE;
	if (x->core != y->core)
		return REL_SAME_PACKAGE;
	return REL_SMT_SIBLING;
}
