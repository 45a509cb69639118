/* SPDX-License-Identifier: GPL-2.0-only */
/* CPU topology decoding; see topology.h. */
#include "arch/x86/topology.h"
#include "lib/string.h"

#define LEVEL_INVALID	0
#define LEVEL_SMT	1
#define MAX_SUBLEAVES	8

static int decode_leaf(struct cpu_topo *t, uint32_t leaf, cpuid_fn fn, void *ctx)
{
	uint8_t smt = 0, last = 0;
	int levels = 0;

	for (uint32_t sub = 0; sub < MAX_SUBLEAVES; sub++) {
		struct cpuid_regs r = fn(leaf, sub, ctx);
		uint32_t type = (r.ecx >> 8) & 0xff;

		if (type == LEVEL_INVALID)
			break;
		if (sub == 0)
			t->x2apic_id = r.edx;
		uint8_t shift = r.eax & 0x1f;

		if (type == LEVEL_SMT)
			smt = shift;
		last = shift;
		levels++;
	}
	if (!levels)
		return 0;
	t->smt_shift = smt;
	t->pkg_shift = last;
	t->leaf = (uint8_t)leaf;
	return levels;
}

static uint8_t ceil_log2(uint32_t v)
{
	uint8_t s = 0;

	while ((1u << s) < v && s < 31)
		s++;
	return s;
}

void topo_decode(struct cpu_topo *t, cpuid_fn fn, void *ctx)
{
	uint32_t max = fn(0, 0, ctx).eax;

	memset(t, 0, sizeof(*t));
	if (!((max >= 0x1f && decode_leaf(t, 0x1f, fn, ctx)) ||
	      (max >= 0xb && decode_leaf(t, 0xb, fn, ctx)))) {
		struct cpuid_regs r = fn(1, 0, ctx);
		/* CPUID.1:EBX[23:16]: addressable logical processors per
		 * package, valid when EDX[28] (HTT) is set. */
		uint32_t count = x86_feature_in(X86_FEATURE_HT, &r) ? (r.ebx >> 16) & 0xff : 1;

		t->x2apic_id = r.ebx >> 24;
		t->pkg_shift = ceil_log2(count ? count : 1);
		t->smt_shift = 0;	/* unknown without the leaves */
		t->leaf = 1;
	}
	if (t->smt_shift > t->pkg_shift)
		t->smt_shift = t->pkg_shift;
	t->thread = t->x2apic_id & ((1u << t->smt_shift) - 1);
	t->core = (t->x2apic_id >> t->smt_shift) & ((1u << (t->pkg_shift - t->smt_shift)) - 1);
	t->package = t->pkg_shift >= 32 ? 0 : t->x2apic_id >> t->pkg_shift;
}

#ifndef RINGLAB_HOST
void topo_read(struct cpu_topo *t)
{
	topo_decode(t, cpuid_native, 0);
}
#endif
