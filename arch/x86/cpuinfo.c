/* SPDX-License-Identifier: GPL-2.0-only */
/* CPUID decoding; see cpuinfo.h.  Bits: SDM vol. 2A CPUID (Table 3-8),
 * AMD APM vol. 3 appendix E. */
#include "arch/x86/cpuinfo.h"
#include "lib/printf.h"
#include "lib/string.h"

#define F(name, feat) { #name, feat, offsetof(struct cpuinfo, name) }
/* Listed in the log (cpu suite) in this order. */
const struct cpu_feature cpu_features[] = {
	F(x2apic, X86_FEATURE_X2APIC),
	F(tsc_deadline, X86_FEATURE_TSC_DEADLINE_TIMER),
	F(invariant_tsc, X86_FEATURE_CONSTANT_TSC),
	F(rdtscp, X86_FEATURE_RDTSCP),
	F(erms, X86_FEATURE_ERMS),
	F(fsrm, X86_FEATURE_FSRM),
	F(pcid, X86_FEATURE_PCID),
	F(invpcid, X86_FEATURE_INVPCID),
	F(invlpgb, X86_FEATURE_INVLPGB),
	F(clzero, X86_FEATURE_CLZERO),
	F(serialize, X86_FEATURE_SERIALIZE),
	F(rtm, X86_FEATURE_RTM),
	F(tsc_adjust, X86_FEATURE_TSC_ADJUST),
	F(gbpages, X86_FEATURE_GBPAGES),
	F(lfence_serializing, X86_FEATURE_LFENCE_RDTSC),
	/* speculation control and PMU */
	F(spec_ctrl, X86_FEATURE_SPEC_CTRL),
	F(stibp, X86_FEATURE_INTEL_STIBP),
	F(flush_l1d, X86_FEATURE_FLUSH_L1D),
	F(arch_capabilities, X86_FEATURE_ARCH_CAPABILITIES),
	F(md_clear, X86_FEATURE_MD_CLEAR),
	F(ssbd, X86_FEATURE_SPEC_CTRL_SSBD),
	F(bhi_ctrl, X86_FEATURE_BHI_CTRL),
	F(amd_ibpb, X86_FEATURE_AMD_IBPB),
	F(amd_ibrs, X86_FEATURE_AMD_IBRS),
	F(amd_stibp, X86_FEATURE_AMD_STIBP),
	F(amd_ssbd, X86_FEATURE_AMD_SSBD),
	F(verw_clear, X86_FEATURE_VERW_CLEAR),
	F(perfctr_core, X86_FEATURE_PERFCTR_CORE),
	F(avx, X86_FEATURE_AVX),
	F(avx2, X86_FEATURE_AVX2),
	F(avx512f, X86_FEATURE_AVX512F),
};
const unsigned cpu_nfeatures = sizeof(cpu_features) / sizeof(cpu_features[0]);
/* Decoded into struct cpuinfo too, not listed. */
static const struct cpu_feature decoded_only[] = {
	F(apic, X86_FEATURE_APIC),
	F(tsc, X86_FEATURE_TSC),
	F(msr, X86_FEATURE_MSR),
	F(pge, X86_FEATURE_PGE),
	F(nx, X86_FEATURE_NX),
	F(sse2, X86_FEATURE_SSE2),
	F(xsave, X86_FEATURE_XSAVE),
	F(osxsave, X86_FEATURE_OSXSAVE),
	F(topoext, X86_FEATURE_TOPOEXT),
	F(hypervisor, X86_FEATURE_HYPERVISOR),
};
#undef F

/* Leaves that take a sub-leaf in ECX (SDM vol. 2A CPUID, Table 3-8). */
static bool leaf_indexed(uint32_t leaf)
{
	static const uint32_t indexed[] = { 0x4, 0x7, 0xb, 0xd, 0xf, 0x10, 0x12, 0x14, 0x17,
					    0x18, 0x1a, 0x1b, 0x1d, 0x1e, 0x1f, 0x20, 0x23, 0x24,
					    0x8000001d, 0x80000020, 0x80000026 };

	for (size_t i = 0; i < sizeof(indexed) / sizeof(indexed[0]); i++)
		if (indexed[i] == leaf)
			return true;
	return false;
}

int x86_feature_source(struct x86_cpu_feature f, char *buf, size_t size)
{
	static const char regs[4][4] = { "EAX", "EBX", "ECX", "EDX" };
	char leaf[16], sub[16] = "";

	if (f.leaf < 10)
		rl_snprintf(leaf, sizeof(leaf), "%u", f.leaf);
	else
		rl_snprintf(leaf, sizeof(leaf), "%XH", f.leaf);
	if (leaf_indexed(f.leaf))
		rl_snprintf(sub, sizeof(sub), ".%u", f.subleaf);
	return rl_snprintf(buf, size, "CPUID.%s%s:%s[%u]", leaf, sub, regs[f.reg & 3], f.bit);
}

/* The bit, reading the leaf only when the CPU has it. */
static bool feature_from(struct x86_cpu_feature f, uint32_t max_leaf, uint32_t max_ext_leaf,
			 cpuid_fn fn, void *ctx)
{
	uint32_t max = f.leaf >= 0x80000000u ? max_ext_leaf : max_leaf;
	struct cpuid_regs r;

	if (f.leaf > max)
		return false;
	r = fn(f.leaf, f.subleaf, ctx);
	return x86_feature_in(f, &r);
}

static void decode_bits(struct cpuinfo *ci, const struct cpu_feature *t, size_t n, cpuid_fn fn,
			void *ctx)
{
	for (size_t i = 0; i < n; i++)
		*(bool *)((char *)ci + t[i].offset) =
			feature_from(t[i].bit, ci->max_leaf, ci->max_ext_leaf, fn, ctx);
}

const char *cpu_vendor_name(enum cpu_vendor v)
{
	return v == VENDOR_INTEL ? "Intel" : v == VENDOR_AMD ? "AMD" :
	       v == VENDOR_HYGON ? "Hygon" : "other";
}

static void regs_str(char *dst, uint32_t a, uint32_t b, uint32_t c)
{
	memcpy(dst, &a, 4);
	memcpy(dst + 4, &b, 4);
	memcpy(dst + 8, &c, 4);
	dst[12] = '\0';
}

void cpuinfo_decode(struct cpuinfo *ci, cpuid_fn fn, void *ctx)
{
	struct cpuid_regs r;

	memset(ci, 0, sizeof(*ci));
	r = fn(0, 0, ctx);
	ci->max_leaf = r.eax;
	regs_str(ci->vendor_str, r.ebx, r.edx, r.ecx);	/* EBX, EDX, ECX order */
	if (!strcmp(ci->vendor_str, "GenuineIntel"))
		ci->vendor = VENDOR_INTEL;
	else if (!strcmp(ci->vendor_str, "AuthenticAMD"))
		ci->vendor = VENDOR_AMD;
	else if (!strcmp(ci->vendor_str, "HygonGenuine"))
		ci->vendor = VENDOR_HYGON;

	if (ci->max_leaf >= 1) {
		r = fn(1, 0, ctx);
		ci->signature = r.eax;
		uint32_t base_family = (r.eax >> 8) & 0xf, base_model = (r.eax >> 4) & 0xf;

		ci->stepping = r.eax & 0xf;
		/* SDM vol. 2 CPUID: extended family only when base family is
		 * 0xF; extended model when family is 6 or 0xF. */
		ci->family = base_family == 0xf ? base_family + ((r.eax >> 20) & 0xff) : base_family;
		ci->model = (base_family == 6 || base_family == 0xf) ?
			    base_model | (((r.eax >> 16) & 0xf) << 4) : base_model;
		ci->initial_apic_id = r.ebx >> 24;
	}
	if (ci->max_leaf >= 0xa) {
		r = fn(0xa, 0, ctx);
		ci->pmu_version = (uint8_t)r.eax;
		ci->pmu_gp_counters = (uint8_t)(r.eax >> 8);
		ci->pmu_gp_width = (uint8_t)(r.eax >> 16);
		ci->pmu_fixed_counters = ci->pmu_version > 1 ? (uint8_t)(r.edx & 0x1f) : 0;
		ci->pmu_fixed_width = ci->pmu_version > 1 ? (uint8_t)((r.edx >> 5) & 0xff) : 0;
		ci->pmu_events_len = (uint8_t)(r.eax >> 24);
		ci->pmu_events_absent = r.ebx;
	}
	ci->has_leaf_0b = ci->max_leaf >= 0xb && (fn(0xb, 0, ctx).ebx & 0xffff);
	ci->has_leaf_1f = ci->max_leaf >= 0x1f && (fn(0x1f, 0, ctx).ebx & 0xffff);

	r = fn(0x80000000, 0, ctx);
	ci->max_ext_leaf = (r.eax & 0xffff0000u) == 0x80000000u ? r.eax : 0;
	decode_bits(ci, cpu_features, cpu_nfeatures, fn, ctx);
	decode_bits(ci, decoded_only, sizeof(decoded_only) / sizeof(decoded_only[0]), fn, ctx);

	if (ci->hypervisor) {
		r = fn(0x40000000, 0, ctx);
		ci->hv_max_leaf = r.eax;
		regs_str(ci->hv_signature, r.ebx, r.ecx, r.edx);	/* EBX, ECX, EDX */
		for (int i = 0; i < 12; i++)
			if (ci->hv_signature[i] && (ci->hv_signature[i] < 0x20 ||
						    ci->hv_signature[i] > 0x7e))
				ci->hv_signature[i] = '?';
	}

	if (ci->max_ext_leaf >= 0x80000004) {
		for (uint32_t i = 0; i < 3; i++) {
			r = fn(0x80000002 + i, 0, ctx);
			memcpy(ci->brand + 16 * i, &r, 16);
		}
		ci->brand[48] = '\0';
		/* trim leading blanks (Intel pads on the left) and make printable */
		size_t s = 0;

		while (ci->brand[s] == ' ')
			s++;
		memmove(ci->brand, ci->brand + s, 49 - s);
		for (char *c = ci->brand; *c; c++)
			if (*c < 0x20 || *c > 0x7e)
				*c = '?';
	}
	if (ci->max_ext_leaf >= 0x80000008) {
		r = fn(0x80000008, 0, ctx);
		ci->phys_bits = (uint8_t)r.eax;
		ci->virt_bits = (uint8_t)(r.eax >> 8);
		/* EDX[15:0] is the largest ECX[15:0] INVLPGB accepts, i.e. the
		 * count of additional pages (Linux: invlpgb_count_max). */
		ci->invlpgb_max_pages = ci->invlpgb ? (r.edx & 0xffff) + 1 : 0;
	}
}

/* ---- overrides (cpufeature.h) ---- */
static struct x86_feature_override overrides[X86_MAX_OVERRIDES];
static unsigned noverrides;

static bool same_bit(struct x86_cpu_feature a, struct x86_cpu_feature b)
{
	return a.leaf == b.leaf && a.subleaf == b.subleaf && a.reg == b.reg && a.bit == b.bit;
}

bool x86_feature_override(struct x86_cpu_feature f, bool on, enum x86_override_why why,
			  const char *name, const char *insn, int vector)
{
	struct x86_feature_override *o = NULL;

	for (unsigned i = 0; i < noverrides; i++)
		if (same_bit(overrides[i].f, f))
			o = &overrides[i];
	if (!o) {
		if (noverrides >= X86_MAX_OVERRIDES)
			return false;
		o = &overrides[noverrides++];
	}
	*o = (struct x86_feature_override){ f, on, (uint8_t)why, vector, insn, name };
	return true;
}

const struct x86_feature_override *x86_feature_override_of(struct x86_cpu_feature f)
{
	for (unsigned i = 0; i < noverrides; i++)
		if (same_bit(overrides[i].f, f))
			return &overrides[i];
	return NULL;
}

void x86_overrides_apply(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	uint32_t *v[4] = { &r->eax, &r->ebx, &r->ecx, &r->edx };

	for (unsigned i = 0; i < noverrides; i++) {
		const struct x86_feature_override *o = &overrides[i];

		if (o->f.leaf != leaf || (leaf_indexed(leaf) && o->f.subleaf != subleaf))
			continue;
		if (o->on)
			*v[o->f.reg & 3] |= 1u << (o->f.bit & 31);
		else
			*v[o->f.reg & 3] &= ~(1u << (o->f.bit & 31));
	}
}

void x86_overrides_clear(void)
{
	noverrides = 0;
}

int x86_feature_absent_why(struct x86_cpu_feature f, const char *what, char *buf, size_t size)
{
	const struct x86_feature_override *o = x86_feature_override_of(f);
	char src[40];

	x86_feature_source(f, src, sizeof(src));
	if (o && !o->on && o->why == X86_OVR_PROBE_FAULT)
		return rl_snprintf(buf, size,
				   "%s: %s is set but %s raised vector %d in the boot probe (cpu.probes): treated as absent",
				   what, src, o->insn ? o->insn : "its instruction", o->vector);
	if (o && !o->on && o->why == X86_OVR_PROBE_MISMATCH)
		return rl_snprintf(buf, size,
				   "%s: %s is set but in the boot probe %s (cpu.probes): treated as absent",
				   what, src, o->insn ? o->insn : "it did not behave as the SDM says");
	if (o && !o->on && o->why == X86_OVR_NOT_PROBED)
		return rl_snprintf(buf, size,
				   "%s: %s is set but %s was not executed: this hypervisor emulates ring-0 instructions and an emulator without it ends the guest (cpu.probes): treated as absent",
				   what, src, o->insn ? o->insn : "its instruction");
	if (o && !o->on)
		return rl_snprintf(buf, size, "%s: %s cleared by simulate=cpuid:-%s", what, src,
				   o->name ? o->name : "?");
	return rl_snprintf(buf, size, "CPU lacks %s (%s)", what, src);
}

#ifndef RINGLAB_HOST
#include "arch/x86/cpu.h"

struct cpuid_regs cpuid_native(uint32_t leaf, uint32_t sub, void *ctx)
{
	(void)ctx;
	struct cpuid_regs r = cpuid_count(leaf, sub);

	return (struct cpuid_regs){ r.eax, r.ebx, r.ecx, r.edx };
}

struct cpuid_regs cpuid_effective(uint32_t leaf, uint32_t sub, void *ctx)
{
	struct cpuid_regs r = cpuid_native(leaf, sub, ctx);

	x86_overrides_apply(leaf, sub, &r);
	return r;
}

void cpuinfo_read(struct cpuinfo *ci)
{
	cpuinfo_decode(ci, cpuid_effective, 0);
}

bool x86_cpu_has(struct x86_cpu_feature f)
{
	uint32_t max_ext = cpuid_native(0x80000000u, 0, 0).eax;

	if ((max_ext & 0xffff0000u) != 0x80000000u)
		max_ext = 0;
	return feature_from(f, cpuid_native(0, 0, 0).eax, max_ext, cpuid_effective, 0);
}
#endif
