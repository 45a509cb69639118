/* SPDX-License-Identifier: GPL-2.0-only */
/* CPU identification and the feature table ringlab uses, decoded from
 * CPUID values.  The decoder takes a CPUID function so host unit tests can
 * feed it recorded or invented leaves (e.g. an AMD part with INVLPGB). */
#ifndef RINGLAB_ARCH_X86_CPUINFO_H
#define RINGLAB_ARCH_X86_CPUINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "arch/x86/cpufeature.h"

enum cpu_vendor { VENDOR_OTHER, VENDOR_INTEL, VENDOR_AMD, VENDOR_HYGON };

typedef struct cpuid_regs (*cpuid_fn)(uint32_t leaf, uint32_t subleaf, void *ctx);

struct cpuinfo {
	char vendor_str[13];
	enum cpu_vendor vendor;
	uint32_t max_leaf, max_ext_leaf;
	uint32_t family, model, stepping;	/* display values (SDM vol. 2 CPUID) */
	uint32_t signature;			/* CPUID.1:EAX */
	char brand[49];
	uint32_t initial_apic_id;		/* CPUID.1:EBX[31:24] */

	bool hypervisor;
	char hv_signature[13];
	uint32_t hv_max_leaf;

	/* feature table */
	bool apic, tsc, msr, pge, x2apic, tsc_deadline, invariant_tsc, rdtscp;
	bool erms, fsrm, pcid, invpcid, invlpgb, clzero, serialize, rtm;
	bool tsc_adjust, gbpages, nx, lfence_serializing;
	/* speculation control (separate rows of the table) */
	bool spec_ctrl, stibp, flush_l1d, arch_capabilities, md_clear, ssbd, bhi_ctrl;
	bool amd_ibpb, amd_ibrs, amd_stibp, amd_ssbd, verw_clear, perfctr_core;
	bool avx, avx2, avx512f;		/* the instructions; the state is XCR0's */
	bool sse2, xsave, osxsave, topoext;
	uint32_t invlpgb_max_pages;	/* CPUID_SOURCE_INVLPGB_MAX_PAGES */
	uint8_t pmu_version, pmu_gp_counters, pmu_gp_width, pmu_fixed_counters;
	uint8_t pmu_fixed_width, pmu_events_len;	/* CPUID.0AH:EDX[12:5], EAX[31:24] */
	uint32_t pmu_events_absent;		/* CPUID.0AH:EBX: bit set = event absent */
	uint8_t phys_bits, virt_bits;
	bool has_leaf_0b, has_leaf_1f;
};

/* Where the decoded fields that are not feature bits come from, for the
 * log (AMD APM vol. 3 E.4.10: INVLPGB's page count). */
#define CPUID_SOURCE_INVLPGB_MAX_PAGES	"CPUID.80000008H:EDX[15:0]+1"

void cpuinfo_decode(struct cpuinfo *ci, cpuid_fn fn, void *ctx);
/* The running CPU (uses the CPUID instruction). */
void cpuinfo_read(struct cpuinfo *ci);
/* The CPUID instruction as a cpuid_fn (ctx unused), for every decoder. */
struct cpuid_regs cpuid_native(uint32_t leaf, uint32_t subleaf, void *ctx);
/* cpuid_native with the feature overrides (cpufeature.h) applied: what
 * every decoder of the running CPU uses. */
struct cpuid_regs cpuid_effective(uint32_t leaf, uint32_t subleaf, void *ctx);

/* One feature per entry, for the log and the cpu suite.  The bit is
 * defined once in arch/x86/cpufeature.h; x86_feature_source(f->bit, ...)
 * prints where it lives ("CPUID.1:ECX[21]"). */
struct cpu_feature {
	const char *name;
	struct x86_cpu_feature bit;
	size_t offset;		/* of the bool in struct cpuinfo */
};
extern const struct cpu_feature cpu_features[];
extern const unsigned cpu_nfeatures;

static inline bool cpu_feature_on(const struct cpuinfo *ci, const struct cpu_feature *f)
{
	return *(const bool *)((const char *)ci + f->offset);
}

const char *cpu_vendor_name(enum cpu_vendor v);

#endif
