/* SPDX-License-Identifier: GPL-2.0-only */
/* CPUID decoding for the memory experiments; see meminfo.h.
 *
 * Cache leaves: Intel CPUID.4 (SDM vol. 2 CPUID, "Deterministic Cache
 * Parameters Leaf") and AMD CPUID 8000_001Dh (APM vol. 3 E.4.15, present
 * with TopologyExtensions, CPUID 8000_0001h:ECX[22]) share one layout:
 * EAX[4:0] type (0 = no more caches, 1 data, 2 instruction, 3 unified),
 * EAX[7:5] level, EBX[31:22] ways-1, EBX[21:12] partitions-1, EBX[11:0]
 * line size-1, ECX sets-1; size = ways * partitions * line * sets.  Older
 * AMD parts only have CPUID 8000_0006h (APM vol. 3 E.4.7): ECX[31:16] L2
 * KiB, EDX[31:18] L3 in 512 KiB units.
 *
 * Vendor, maximum leaves and feature bits come from the one CPUID decoder
 * (arch/x86/cpuinfo.c) and the feature table (arch/x86/cpufeature.h);
 * this file decodes only what is its own: the cache leaves and XCR0's
 * supported components. */
#include "arch/x86/meminfo.h"
#include "lib/string.h"

#define CACHE_TYPE_NONE		0
#define CACHE_TYPE_INSTRUCTION	2
#define CPUID_4_MAX_SUBLEAF	16

static uint64_t leaf_cache_size(struct cpuid_regs r)
{
	uint64_t ways = ((r.ebx >> 22) & 0x3ff) + 1, parts = ((r.ebx >> 12) & 0x3ff) + 1;
	uint64_t line = (r.ebx & 0xfff) + 1, sets = (uint64_t)r.ecx + 1;

	return ways * parts * line * sets;
}

/* The largest data or unified cache at the highest level of leaf `leaf`. */
static bool walk_cache_leaf(struct meminfo *mi, cpuid_fn fn, void *ctx, uint32_t leaf)
{
	bool found = false;

	for (uint32_t sub = 0; sub < CPUID_4_MAX_SUBLEAF; sub++) {
		struct cpuid_regs r = fn(leaf, sub, ctx);
		unsigned type = r.eax & 0x1f, level = (r.eax >> 5) & 7;

		if (type == CACHE_TYPE_NONE)
			break;
		if (type == CACHE_TYPE_INSTRUCTION)
			continue;
		uint64_t size = leaf_cache_size(r);

		if (level > mi->llc_level || (level == mi->llc_level && size > mi->llc_bytes)) {
			mi->llc_level = level;
			mi->llc_bytes = size;
			found = true;
		}
	}
	return found;
}

void meminfo_decode(struct meminfo *mi, cpuid_fn fn, void *ctx)
{
	struct cpuinfo ci;
	struct cpuid_regs r;

	memset(mi, 0, sizeof(*mi));
	mi->llc_source = "none";
	/* vendor, maximum leaves and the feature table's rows: one decoder */
	cpuinfo_decode(&ci, fn, ctx);
	bool amd = ci.vendor == VENDOR_AMD || ci.vendor == VENDOR_HYGON;

	if (ci.max_leaf >= CPUID_LEAF_XSTATE && ci.xsave) {
		r = fn(CPUID_LEAF_XSTATE, 0, ctx);
		mi->xcr0_supported = ((uint64_t)r.edx << 32) | r.eax;
	}

	if (!amd && ci.max_leaf >= 4 && walk_cache_leaf(mi, fn, ctx, 4)) {
		mi->llc_source = "CPUID.4";
	} else if (amd && ci.topoext && ci.max_ext_leaf >= 0x8000001du &&
		   walk_cache_leaf(mi, fn, ctx, 0x8000001du)) {
		mi->llc_source = "CPUID.8000001DH";
	} else if (ci.max_ext_leaf >= 0x80000006u) {
		r = fn(0x80000006u, 0, ctx);
		uint64_t l3 = (uint64_t)(r.edx >> 18) * 512 * 1024;
		uint64_t l2 = (uint64_t)(r.ecx >> 16) * 1024;

		if (l3) {
			mi->llc_bytes = l3;
			mi->llc_level = 3;
		} else if (l2) {
			mi->llc_bytes = l2;
			mi->llc_level = 2;
		}
		if (l3 || l2)
			mi->llc_source = "CPUID.80000006H";
	}
}
