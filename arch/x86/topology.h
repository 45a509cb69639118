/* SPDX-License-Identifier: GPL-2.0-only */
/* CPU topology from the x2APIC ID and CPUID leaf 0x1F (preferred) or 0xB
 * (SDM vol. 3A §10.9, SDM vol. 2A CPUID leaf 0BH/1FH): each sub-leaf gives a level type
 * (1 SMT, 2 core, 5 die, ...) and the shift to the next level; the last
 * level's shift separates the package number.  Without those leaves, the
 * CPUID.1 logical-processor count bounds the package field. */
#ifndef RINGLAB_ARCH_X86_TOPOLOGY_H
#define RINGLAB_ARCH_X86_TOPOLOGY_H

#include <stdbool.h>
#include <stdint.h>
#include "arch/x86/cpuinfo.h"

struct cpu_topo {
	uint32_t x2apic_id;	/* from the leaf's EDX, or CPUID.1:EBX[31:24] */
	uint32_t package, core, thread;
	uint8_t smt_shift, pkg_shift;
	uint8_t leaf;		/* 0x1f, 0xb, or 1 for the fallback */
};

/* Decode the calling CPU's topology through fn (host-testable). */
void topo_decode(struct cpu_topo *t, cpuid_fn fn, void *ctx);
/* The running CPU. */
void topo_read(struct cpu_topo *t);

#endif
