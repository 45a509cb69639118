/* SPDX-License-Identifier: GPL-2.0-only */
/* TSC-release barrier; see platform.h.  Shared by the kernel and the
 * hosted build (only RDTSC and atomics). */
#include "kernel/platform.h"
#include "arch/x86/tsc_read.h"

void tsc_barrier_init(struct tsc_barrier *b, unsigned n, uint64_t margin_cycles)
{
	b->arrived = 0;
	b->release_tsc = 0;
	b->n = n;
	b->margin_cycles = margin_cycles;
}

bool tsc_barrier_wait(struct tsc_barrier *b, uint64_t timeout_cycles)
{
	uint64_t start = lfence_rdtsc();

	if (__atomic_add_fetch(&b->arrived, 1, __ATOMIC_ACQ_REL) == b->n)
		__atomic_store_n(&b->release_tsc, lfence_rdtsc() + b->margin_cycles,
				 __ATOMIC_RELEASE);
	uint64_t rel;

	while (!(rel = __atomic_load_n(&b->release_tsc, __ATOMIC_ACQUIRE))) {
		if (lfence_rdtsc() - start > timeout_cycles)
			return false;
		__asm__ volatile("pause");
	}
	/* Bounded too: a CPU whose TSC lags the releaser's would otherwise
	 * spin for the whole offset. */
	while (lfence_rdtsc() < rel) {
		if (lfence_rdtsc() - start > timeout_cycles + b->margin_cycles)
			return false;
		__asm__ volatile("pause");
	}
	return true;
}
