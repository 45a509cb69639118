/* cpu: identification and the feature table the project relies on. */
#include "kernel/test.h"
#include "arch/x86/cpu.h"
#include "arch/x86/cpuinfo.h"
#include "arch/x86/fault.h"
#include "arch/x86/msr.h"
#include "kernel/kernel.h"
#include "lib/string.h"

SUITE(cpu, 20, "CPU identification, feature table, probes of claimed features");

static bool printable(const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			return false;
	return true;
}

TEST(cpu, identify)
{
	const struct cpuinfo *ci = &boot_cpu;

	t_diag(t, "vendor %s (%s), family 0x%x model 0x%x stepping 0x%x, max leaf 0x%x / 0x%x",
	       ci->vendor_str, cpu_vendor_name(ci->vendor), ci->family, ci->model, ci->stepping,
	       ci->max_leaf, ci->max_ext_leaf);
	t_diag(t, "brand '%s'", ci->brand);
	t_check(t, ci->max_leaf >= 1, "CPUID max leaf %u < 1", ci->max_leaf);
	t_check(t, strlen(ci->vendor_str) == 12 && printable(ci->vendor_str, 12),
		"vendor string is not 12 printable characters");
	t_check(t, ci->max_ext_leaf >= 0x80000001, "no extended CPUID leaves (max 0x%x)",
		ci->max_ext_leaf);
	t_check(t, ci->family != 0, "family decodes to 0 (signature 0x%08x)", ci->signature);
	if (ci->vendor == VENDOR_OTHER)
		t_diag(t, "warning: vendor '%s' is not one ringlab knows", ci->vendor_str);
	/* CPUID must be stable: a second read of leaf 1 gives the same
	 * signature and (on this CPU) the same initial APIC ID. */
	struct cpuid_regs r = cpuid(1);

	t_check(t, r.eax == ci->signature, "CPUID.1:EAX changed: 0x%08x then 0x%08x",
		ci->signature, r.eax);
	t_check(t, (r.ebx >> 24) == ci->initial_apic_id, "initial APIC ID changed on the BSP");
}

TEST(cpu, features)
{
	const struct cpuinfo *ci = &boot_cpu;
	char line[1000];
	size_t len = 0;

	for (unsigned i = 0; i < cpu_nfeatures; i++)
		len += (size_t)rl_snprintf(line + len, sizeof(line) - len, "%s%s=%s",
					   i ? " " : "", cpu_features[i].name,
					   cpu_feature_on(ci, &cpu_features[i]) ? "yes" : "no");
	t_diag(t, "feature %s", line);
	t_diag(t, "feature invlpgb_max_pages=%u pmu_version=%u pmu_gp=%u pmu_gp_width=%u pmu_fixed=%u phys_bits=%u virt_bits=%u",
	       ci->invlpgb_max_pages, ci->pmu_version, ci->pmu_gp_counters, ci->pmu_gp_width,
	       ci->pmu_fixed_counters, ci->phys_bits, ci->virt_bits);
	/* What ringlab cannot work without. */
	static const struct {
		size_t offset;
		struct x86_cpu_feature bit;
		const char *what;
	} required[] = {
		{ offsetof(struct cpuinfo, tsc), X86_FEATURE_TSC, "TSC" },
		{ offsetof(struct cpuinfo, msr), X86_FEATURE_MSR, "RDMSR/WRMSR" },
		{ offsetof(struct cpuinfo, apic), X86_FEATURE_APIC, "local APIC" },
	};
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
		char src[32];

		x86_feature_source(required[i].bit, src, sizeof(src));
		t_check(t, *(const bool *)((const char *)ci + required[i].offset), "no %s (%s)",
			required[i].what, src);
	}
	/* Internal consistency of the enumeration. */
	if (ci->x2apic || ci->tsc_deadline)
		t_check(t, ci->apic, "x2APIC/TSC-deadline claimed without an APIC");
	if (ci->invpcid)
		t_check(t, ci->pcid, "INVPCID claimed without PCID");
	if (ci->invlpgb)
		t_check(t, ci->invlpgb_max_pages >= 1, "INVLPGB with a max count of 0");
	if (ci->pmu_version == 0)
		t_check(t, ci->pmu_gp_counters == 0 || ci->max_leaf < 0xa,
			"PMU version 0 but %u GP counters", ci->pmu_gp_counters);
	t_check(t, ci->phys_bits >= 32 && ci->phys_bits <= 52, "physical address bits %u",
		ci->phys_bits);
}

/* Claimed features must work.  Only instructions that are harmless when
 * present are executed, and only when CPUID claims them: an absent
 * INVLPGB, for one, kills the guest under some hypervisors. */
TEST(cpu, probes)
{
	const struct cpuinfo *ci = &boot_cpu;
	unsigned probed = 0;
	struct fault_result r;
	uint64_t v;

	if (ci->rdtscp) {
		r = probe_rdtscp();
		t_check(t, fault_none(r), "RDTSCP claimed but raised vector %d", r.vector);
		probed++;
	}
	if (ci->serialize) {
		r = probe_serialize();
		t_check(t, fault_none(r), "SERIALIZE claimed but raised vector %d", r.vector);
		probed++;
	}
	if (ci->tsc_adjust) {
		r = rdmsr_safe(MSR_IA32_TSC_ADJUST, &v);
		t_check(t, fault_none(r), "TSC_ADJUST claimed but RDMSR 0x3b raised vector %d",
			r.vector);
		probed++;
	}
	if (ci->rdtscp) {
		r = rdmsr_safe(MSR_TSC_AUX, &v);
		t_check(t, fault_none(r), "RDTSCP claimed but TSC_AUX (0xc0000103) raised vector %d",
			r.vector);
		probed++;
	}
	r = rdmsr_safe(MSR_IA32_APICBASE, &v);
	t_check(t, fault_none(r), "IA32_APIC_BASE unreadable (vector %d)", r.vector);
	probed++;
	t_metric_value(t, "probed", probed, "count", NULL);
}
