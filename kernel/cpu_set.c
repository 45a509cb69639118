/* SPDX-License-Identifier: GPL-2.0-only */
/* The parts of the CPU-set API in kernel/platform.h that need only the
 * platform's primitives (plat_ncpus, plat_online, plat_cpu_relation,
 * plat_call_many): shared by the kernel and the hosted build. */
#include "kernel/platform.h"
#include "lib/rand.h"

/* Enough for the kernel's MAX_CPUS and the hosted build's threads. */
#define CPU_SET_MAX 4096

unsigned plat_other_cpus(unsigned *out, unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 1; i < plat_ncpus() && n < max; i++)
		if (plat_online(i))
			out[n++] = i;
	return n;
}

unsigned plat_online_cpus(unsigned *out, unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < plat_ncpus() && n < max; i++)
		if (plat_online(i))
			out[n++] = i;
	return n;
}

int plat_call_online(plat_fn fn, void *arg, uint64_t timeout_ms, int *status)
{
	static unsigned list[CPU_SET_MAX];
	static int st[CPU_SET_MAX];
	unsigned n = plat_online_cpus(list, CPU_SET_MAX);
	int rc = plat_call_many(list, n, fn, arg, timeout_ms, st);

	if (status) {
		for (unsigned i = 0; i < plat_ncpus() && i < CPU_SET_MAX; i++)
			status[i] = PLAT_OFFLINE;
		for (unsigned i = 0; i < n; i++)
			status[list[i]] = st[i];
	}
	return rc;
}

const char *plat_cpu_rel_name(enum cpu_rel r)
{
	switch (r) {
	case REL_SELF: return "self";
	case REL_SMT_SIBLING: return "smt_sibling";
	case REL_SAME_PACKAGE: return "same_package";
	case REL_OTHER_PACKAGE: return "other_package";
	}
	return "?";
}

unsigned plat_cpus_with_relation(unsigned from, enum cpu_rel r, unsigned *out, unsigned max,
				 struct rng *rng)
{
	unsigned seen = 0, n = 0;

	/* Reservoir sampling: one pass, uniform, bounded output. */
	for (unsigned i = 0; i < plat_ncpus(); i++) {
		if (i == from || !plat_online(i) || plat_cpu_relation(from, i) != r)
			continue;
		seen++;
		if (n < max) {
			out[n++] = i;
		} else {
			uint64_t k = rng_below(rng, seen);

			if (k < max)
				out[k] = i;
		}
	}
	return n;
}
