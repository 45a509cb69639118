/* SPDX-License-Identifier: GPL-2.0-only */
/* CPUID feature bits, each defined once as (leaf, subleaf, register, bit)
 * in the style of kvm-unit-tests' X86_FEATURE_*, with Linux's names.  The
 * same definition decodes the bit (cpuinfo_decode, x86_cpu_has) and prints
 * where it came from ("CPUID.7.0:EBX[10]") in the log and in skip reasons.
 * Sources: SDM vol. 2A CPUID (Table 3-8), AMD APM vol. 3 appendix E. */
#ifndef RINGLAB_ARCH_X86_CPUFEATURE_H
#define RINGLAB_ARCH_X86_CPUFEATURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What CPUID returns: the one register struct for every CPUID user. */
struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

enum cpuid_reg { CPUID_EAX, CPUID_EBX, CPUID_ECX, CPUID_EDX };

struct x86_cpu_feature {
	uint32_t leaf, subleaf;
	uint8_t reg;		/* enum cpuid_reg */
	uint8_t bit;
};

#define X86_CPU_FEATURE(leaf_, subleaf_, reg_, bit_) \
	((struct x86_cpu_feature){ (leaf_), (subleaf_), CPUID_##reg_, (bit_) })

#define X86_FEATURE_TSC			X86_CPU_FEATURE(0x1, 0, EDX, 4)
#define X86_FEATURE_MSR			X86_CPU_FEATURE(0x1, 0, EDX, 5)
#define X86_FEATURE_APIC		X86_CPU_FEATURE(0x1, 0, EDX, 9)
#define X86_FEATURE_PGE			X86_CPU_FEATURE(0x1, 0, EDX, 13)
#define X86_FEATURE_CLFLUSH		X86_CPU_FEATURE(0x1, 0, EDX, 19)
#define X86_FEATURE_HT			X86_CPU_FEATURE(0x1, 0, EDX, 28)
#define X86_FEATURE_SSE2		X86_CPU_FEATURE(0x1, 0, EDX, 26)
#define X86_FEATURE_XSAVE		X86_CPU_FEATURE(0x1, 0, ECX, 26)
#define X86_FEATURE_OSXSAVE		X86_CPU_FEATURE(0x1, 0, ECX, 27)
#define X86_FEATURE_AVX			X86_CPU_FEATURE(0x1, 0, ECX, 28)
#define X86_FEATURE_PCID		X86_CPU_FEATURE(0x1, 0, ECX, 17)
#define X86_FEATURE_X2APIC		X86_CPU_FEATURE(0x1, 0, ECX, 21)
#define X86_FEATURE_TSC_DEADLINE_TIMER	X86_CPU_FEATURE(0x1, 0, ECX, 24)
#define X86_FEATURE_HYPERVISOR		X86_CPU_FEATURE(0x1, 0, ECX, 31)
#define X86_FEATURE_TSC_ADJUST		X86_CPU_FEATURE(0x7, 0, EBX, 1)
#define X86_FEATURE_ERMS		X86_CPU_FEATURE(0x7, 0, EBX, 9)
#define X86_FEATURE_INVPCID		X86_CPU_FEATURE(0x7, 0, EBX, 10)
#define X86_FEATURE_RTM			X86_CPU_FEATURE(0x7, 0, EBX, 11)
#define X86_FEATURE_AVX2		X86_CPU_FEATURE(0x7, 0, EBX, 5)
#define X86_FEATURE_AVX512F		X86_CPU_FEATURE(0x7, 0, EBX, 16)
#define X86_FEATURE_RDPID		X86_CPU_FEATURE(0x7, 0, ECX, 22)
#define X86_FEATURE_FSRM		X86_CPU_FEATURE(0x7, 0, EDX, 4)
#define X86_FEATURE_MD_CLEAR		X86_CPU_FEATURE(0x7, 0, EDX, 10)
#define X86_FEATURE_SERIALIZE		X86_CPU_FEATURE(0x7, 0, EDX, 14)
/* speculation control (SDM vol. 2A CPUID leaf 7; Intel "Speculative
 * Execution Side Channel Mitigations"; AMD APM vol. 3 appendix E) */
#define X86_FEATURE_SPEC_CTRL		X86_CPU_FEATURE(0x7, 0, EDX, 26)	/* IBRS and IBPB */
#define X86_FEATURE_INTEL_STIBP		X86_CPU_FEATURE(0x7, 0, EDX, 27)
#define X86_FEATURE_FLUSH_L1D		X86_CPU_FEATURE(0x7, 0, EDX, 28)
#define X86_FEATURE_ARCH_CAPABILITIES	X86_CPU_FEATURE(0x7, 0, EDX, 29)
#define X86_FEATURE_SPEC_CTRL_SSBD	X86_CPU_FEATURE(0x7, 0, EDX, 31)
#define X86_FEATURE_BHI_CTRL		X86_CPU_FEATURE(0x7, 2, EDX, 4)
#define X86_FEATURE_NX			X86_CPU_FEATURE(0x80000001, 0, EDX, 20)
#define X86_FEATURE_GBPAGES		X86_CPU_FEATURE(0x80000001, 0, EDX, 26)
#define X86_FEATURE_RDTSCP		X86_CPU_FEATURE(0x80000001, 0, EDX, 27)
#define X86_FEATURE_TOPOEXT		X86_CPU_FEATURE(0x80000001, 0, ECX, 22)
#define X86_FEATURE_PERFCTR_CORE	X86_CPU_FEATURE(0x80000001, 0, ECX, 23)
#define X86_FEATURE_CONSTANT_TSC	X86_CPU_FEATURE(0x80000007, 0, EDX, 8)	/* invariant TSC */
#define X86_FEATURE_CLZERO		X86_CPU_FEATURE(0x80000008, 0, EBX, 0)
#define X86_FEATURE_INVLPGB		X86_CPU_FEATURE(0x80000008, 0, EBX, 3)
#define X86_FEATURE_AMD_IBPB		X86_CPU_FEATURE(0x80000008, 0, EBX, 12)
#define X86_FEATURE_AMD_IBRS		X86_CPU_FEATURE(0x80000008, 0, EBX, 14)
#define X86_FEATURE_AMD_STIBP		X86_CPU_FEATURE(0x80000008, 0, EBX, 15)
#define X86_FEATURE_AMD_SSBD		X86_CPU_FEATURE(0x80000008, 0, EBX, 24)
/* LFENCE is always dispatch-serializing (AMD APM vol. 3 LFENCE) */
#define X86_FEATURE_LFENCE_RDTSC	X86_CPU_FEATURE(0x80000021, 0, EAX, 2)
/* VERW clears CPU buffers (AMD, "Transient Scheduler Attacks") */
#define X86_FEATURE_VERW_CLEAR		X86_CPU_FEATURE(0x80000021, 0, EAX, 5)

/* The bit in regs (what CPUID(f.leaf, f.subleaf) returned). */
static inline bool x86_feature_in(struct x86_cpu_feature f, const struct cpuid_regs *r)
{
	const uint32_t v[4] = { r->eax, r->ebx, r->ecx, r->edx };

	return (v[f.reg & 3] >> (f.bit & 31)) & 1;
}

/* "CPUID.1:ECX[21]", "CPUID.7.0:EBX[10]", "CPUID.80000008H:EBX[3]"; the
 * sub-leaf is shown for leaves that take one.  Returns like snprintf. */
int x86_feature_source(struct x86_cpu_feature f, char *buf, size_t size);

/* Whether the running CPU has f: executes CPUID, leaf range checked (a
 * leaf above the maximum reads as 0), with the overrides below applied.
 * Not in host unit tests. */
bool x86_cpu_has(struct x86_cpu_feature f);

/* ---- overrides: what CPUID says, corrected ----
 * A feature is forced on or off for the rest of the run, either by the
 * user (simulate=cpuid:+rtm: make the table claim a feature the CPU lacks,
 * to exercise the path where CPUID lies) or by a boot probe that executed
 * the instruction under the fault catch and saw it fault (the feature is
 * then treated as absent).  Every CPUID decoder reads through
 * cpuid_effective(), so the whole kernel agrees. */
enum x86_override_why { X86_OVR_SIMULATED, X86_OVR_PROBE_FAULT, X86_OVR_NOT_PROBED,
			    X86_OVR_PROBE_MISMATCH /* insn: what was seen instead */ };

struct x86_feature_override {
	struct x86_cpu_feature f;
	bool on;
	uint8_t why;		/* enum x86_override_why */
	int vector;		/* X86_OVR_PROBE_FAULT: what the probe raised */
	/* X86_OVR_NOT_PROBED: claimed, but too dangerous to execute here */
	const char *insn;	/* X86_OVR_PROBE_FAULT: what was executed */
	const char *name;	/* the feature's short name ("rtm") */
};

#define X86_MAX_OVERRIDES	24

/* Add (or replace) the override of f; false when the table is full. */
bool x86_feature_override(struct x86_cpu_feature f, bool on, enum x86_override_why why,
			  const char *name, const char *insn, int vector);
/* The override of f, or NULL. */
const struct x86_feature_override *x86_feature_override_of(struct x86_cpu_feature f);
/* Apply every override for (leaf, subleaf) to r. */
void x86_overrides_apply(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r);
void x86_overrides_clear(void);

/* Why f is absent, for a skip reason naming `what` ("RTM"): "CPU lacks RTM
 * (CPUID.7.0:EBX[11])", or, when a boot probe faulted, "RTM: CPUID.7.0:
 * EBX[11] is set but XBEGIN raised vector 6 in the boot probe: treated as
 * absent", or "... cleared by simulate=cpuid:-rtm".  Returns like snprintf. */
int x86_feature_absent_why(struct x86_cpu_feature f, const char *what, char *buf, size_t size);

#endif
