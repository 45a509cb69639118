/* CPUID decoding; see cpuinfo.h.  Bits: x86-facts.md §1. */
#include "arch/x86/cpuinfo.h"
#include "lib/string.h"

#define F(name, src) { #name, src, offsetof(struct cpuinfo, name) }
const struct cpu_feature cpu_features[] = {
	F(x2apic, "CPUID.1:ECX[21]"),
	F(tsc_deadline, "CPUID.1:ECX[24]"),
	F(invariant_tsc, "CPUID.80000007H:EDX[8]"),
	F(rdtscp, "CPUID.80000001H:EDX[27]"),
	F(erms, "CPUID.7.0:EBX[9]"),
	F(fsrm, "CPUID.7.0:EDX[4]"),
	F(pcid, "CPUID.1:ECX[17]"),
	F(invpcid, "CPUID.7.0:EBX[10]"),
	F(invlpgb, "CPUID.80000008H:EBX[3]"),
	F(clzero, "CPUID.80000008H:EBX[0]"),
	F(serialize, "CPUID.7.0:EDX[14]"),
	F(rtm, "CPUID.7.0:EBX[11]"),
	F(tsc_adjust, "CPUID.7.0:EBX[1]"),
	F(gbpages, "CPUID.80000001H:EDX[26]"),
	F(lfence_serializing, "CPUID.80000021H:EAX[2]"),
	/* speculation control and PMU (issue 13) */
	F(spec_ctrl, "CPUID.7.0:EDX[26]"),
	F(stibp, "CPUID.7.0:EDX[27]"),
	F(flush_l1d, "CPUID.7.0:EDX[28]"),
	F(arch_capabilities, "CPUID.7.0:EDX[29]"),
	F(md_clear, "CPUID.7.0:EDX[10]"),
	F(ssbd, "CPUID.7.0:EDX[31]"),
	F(bhi_ctrl, "CPUID.7.2:EDX[4]"),
	F(amd_ibpb, "CPUID.80000008H:EBX[12]"),
	F(amd_ibrs, "CPUID.80000008H:EBX[14]"),
	F(amd_stibp, "CPUID.80000008H:EBX[15]"),
	F(amd_ssbd, "CPUID.80000008H:EBX[24]"),
	F(verw_clear, "CPUID.80000021H:EAX[5]"),
	F(perfctr_core, "CPUID.80000001H:ECX[23]"),
};
#undef F
const unsigned cpu_nfeatures = sizeof(cpu_features) / sizeof(cpu_features[0]);

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
	struct cpuid_out r;

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
		ci->apic = r.edx & (1u << 9);
		ci->tsc = r.edx & (1u << 4);
		ci->msr = r.edx & (1u << 5);
		ci->pge = r.edx & (1u << 13);
		ci->pcid = r.ecx & (1u << 17);
		ci->x2apic = r.ecx & (1u << 21);
		ci->tsc_deadline = r.ecx & (1u << 24);
		ci->hypervisor = r.ecx & (1u << 31);
	}
	if (ci->max_leaf >= 7) {
		r = fn(7, 0, ctx);
		ci->tsc_adjust = r.ebx & (1u << 1);
		ci->erms = r.ebx & (1u << 9);
		ci->invpcid = r.ebx & (1u << 10);
		ci->rtm = r.ebx & (1u << 11);
		ci->fsrm = r.edx & (1u << 4);
		ci->serialize = r.edx & (1u << 14);
		ci->md_clear = r.edx & (1u << 10);
		ci->spec_ctrl = r.edx & (1u << 26);	/* IBRS and IBPB */
		ci->stibp = r.edx & (1u << 27);
		ci->flush_l1d = r.edx & (1u << 28);
		ci->arch_capabilities = r.edx & (1u << 29);
		ci->ssbd = r.edx & (1u << 31);
		/* An invalid leaf-7 sub-leaf returns zeros (SDM vol. 2
		 * CPUID), so 7.2 is read without checking 7.0:EAX. */
		ci->bhi_ctrl = fn(7, 2, ctx).edx & (1u << 4);
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

	if (ci->hypervisor) {
		r = fn(0x40000000, 0, ctx);
		ci->hv_max_leaf = r.eax;
		regs_str(ci->hv_signature, r.ebx, r.ecx, r.edx);	/* EBX, ECX, EDX */
		for (int i = 0; i < 12; i++)
			if (ci->hv_signature[i] && (ci->hv_signature[i] < 0x20 ||
						    ci->hv_signature[i] > 0x7e))
				ci->hv_signature[i] = '?';
	}

	r = fn(0x80000000, 0, ctx);
	ci->max_ext_leaf = (r.eax & 0xffff0000u) == 0x80000000u ? r.eax : 0;
	if (ci->max_ext_leaf >= 0x80000001) {
		r = fn(0x80000001, 0, ctx);
		ci->nx = r.edx & (1u << 20);
		ci->gbpages = r.edx & (1u << 26);
		ci->rdtscp = r.edx & (1u << 27);
		ci->perfctr_core = r.ecx & (1u << 23);
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
	if (ci->max_ext_leaf >= 0x80000007)
		ci->invariant_tsc = fn(0x80000007, 0, ctx).edx & (1u << 8);
	if (ci->max_ext_leaf >= 0x80000008) {
		r = fn(0x80000008, 0, ctx);
		ci->phys_bits = (uint8_t)r.eax;
		ci->virt_bits = (uint8_t)(r.eax >> 8);
		ci->clzero = r.ebx & (1u << 0);
		ci->invlpgb = r.ebx & (1u << 3);
		ci->amd_ibpb = r.ebx & (1u << 12);
		ci->amd_ibrs = r.ebx & (1u << 14);
		ci->amd_stibp = r.ebx & (1u << 15);
		ci->amd_ssbd = r.ebx & (1u << 24);
		/* EDX[15:0] is the largest ECX[15:0] INVLPGB accepts, i.e. the
		 * count of additional pages (Linux: invlpgb_count_max). */
		ci->invlpgb_max_pages = ci->invlpgb ? (r.edx & 0xffff) + 1 : 0;
	}
	if (ci->max_ext_leaf >= 0x80000021) {
		r = fn(0x80000021, 0, ctx);
		ci->lfence_serializing = r.eax & (1u << 2);
		ci->verw_clear = r.eax & (1u << 5);
	}
}

#ifndef RINGLAB_HOST
#include "arch/x86/cpu.h"

struct cpuid_out cpuid_native(uint32_t leaf, uint32_t sub, void *ctx)
{
	(void)ctx;
	struct cpuid_regs r = cpuid_count(leaf, sub);

	return (struct cpuid_out){ r.eax, r.ebx, r.ecx, r.edx };
}

void cpuinfo_read(struct cpuinfo *ci)
{
	cpuinfo_decode(ci, cpuid_native, 0);
}
#endif
