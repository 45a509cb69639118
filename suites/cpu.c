/* SPDX-License-Identifier: GPL-2.0-only */
/* cpu: identification and the feature table the project relies on. */
#include "kernel/test.h"
#include "arch/x86/cpu.h"
#include "arch/x86/fault.h"
#include "arch/x86/msr.h"
#include "kernel/platform.h"
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
	const struct cpuinfo *ci = plat_cpu_info();

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

	t_check(t, r.eax == ci->signature, "the signature (CPUID leaf 1, EAX) changed: 0x%08x then 0x%08x",
		ci->signature, r.eax);
	t_check(t, (r.ebx >> 24) == ci->initial_apic_id, "initial APIC ID changed on the BSP");
}

TEST(cpu, features)
{
	const struct cpuinfo *ci = plat_cpu_info();
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
		struct x86_cpu_feature bit;
		const char *what;
	} required[] = {
		{ X86_FEATURE_TSC, "TSC" },
		{ X86_FEATURE_MSR, "RDMSR/WRMSR" },
		{ X86_FEATURE_APIC, "local APIC" },
	};
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
		char src[32];

		x86_feature_source(required[i].bit, src, sizeof(src));
		t_check(t, plat_cpu_has(required[i].bit), "no %s (%s)", required[i].what, src);
	}
	/* Internal consistency of the enumeration. */
	if (plat_cpu_has(X86_FEATURE_X2APIC) || plat_cpu_has(X86_FEATURE_TSC_DEADLINE_TIMER))
		t_check(t, plat_cpu_has(X86_FEATURE_APIC),
			"x2APIC/TSC-deadline claimed without an APIC");
	if (plat_cpu_has(X86_FEATURE_INVPCID))
		t_check(t, plat_cpu_has(X86_FEATURE_PCID), "INVPCID claimed without PCID");
	if (plat_cpu_has(X86_FEATURE_INVLPGB))
		t_check(t, ci->invlpgb_max_pages >= 1, "INVLPGB with a max count of 0");
	if (ci->pmu_version == 0)
		t_check(t, ci->pmu_gp_counters == 0 || ci->max_leaf < 0xa,
			"PMU version 0 but %u GP counters", ci->pmu_gp_counters);
	t_check(t, ci->phys_bits >= 32 && ci->phys_bits <= 52, "physical address bits %u",
		ci->phys_bits);
}

/* Claimed features must work.  The boot probes (kernel/cpu_probe.c)
 * executed every instruction a suite uses because CPUID claims it, once,
 * under the fault catch; this case shows their table.  A claimed feature
 * whose instruction faulted is a real finding on bare metal (fail); under
 * an emulator or hypervisor it is the virtual CPU's CPUID lying (a
 * software KVM passes RTM but injects #UD for XBEGIN), so a warning; with
 * simulate=cpuid:+NAME the fault is the expected outcome.  Either way the
 * feature was treated as absent from boot on. */
TEST(cpu, probes)
{
	const struct cpu_probe_result *pr;
	unsigned n = plat_cpu_probes(&pr), probed = 0, faulted = 0, real = 0;
	bool bare = !plat_under_emulator();
	struct fault_result r;
	uint64_t v;

	for (unsigned i = 0; i < n; i++) {
		const struct cpu_probe_result *p = &pr[i];

		switch (p->state) {
		case CPU_PROBE_NOT_CLAIMED:
			t_verbose(t, "probe %s: %s not claimed: %s not executed", p->name, p->feature,
				  p->insn);
			break;
		case CPU_PROBE_NO_STATE:
			t_diag(t, "probe %s: %s claimed, but its register state cannot be enabled (XCR0): %s not executed",
			       p->name, p->feature, p->insn);
			break;
		case CPU_PROBE_MISMATCH:
			probed++;
			faulted++;
			if (p->simulated) {
				t_diag(t, "probe %s: %s claimed by simulate=cpuid:+...; %s: treated as absent",
				       p->name, p->feature, p->seen);
			} else if (bare) {
				real++;
				t_fail(t, "%s is set but %s on bare metal: the CPU or its firmware misreports the feature (treated as absent)",
				       p->feature, p->seen);
			} else {
				t_diag(t, "warning: probe %s: %s is set but %s under %s: the virtual CPU claims what it does not do (treated as absent)",
				       p->name, p->feature, p->seen, plat_env());
			}
			break;
		case CPU_PROBE_NOT_RUN:
			t_diag(t, "probe %s: %s claimed, but %s not executed: this hypervisor emulates ring-0 instructions (REP STOSB %llu MB/s on a cached page) and an emulator without it ends the guest; treated as absent",
			       p->name, p->feature, p->insn, (unsigned long long)plat_emulated_mbps());
			break;
		case CPU_PROBE_OK:
			probed++;
			t_diag(t, "probe %s: %s claimed; %s ran without a fault", p->name, p->feature,
			       p->insn);
			break;
		case CPU_PROBE_FAULT:
			probed++;
			faulted++;
			if (p->simulated) {
				t_diag(t, "probe %s: %s claimed by simulate=cpuid:+...; %s raised vector %d as expected: treated as absent",
				       p->name, p->feature, p->insn, p->vector);
			} else if (bare) {
				real++;
				t_fail(t, "%s is set but %s raised vector %d on bare metal: the CPU or its firmware misreports the feature (treated as absent)",
				       p->feature, p->insn, p->vector);
			} else {
				t_diag(t, "warning: probe %s: %s is set but %s raised vector %d under %s: the virtual CPU claims what it cannot do (treated as absent)",
				       p->name, p->feature, p->insn, p->vector, plat_env());
			}
			break;
		}
	}
	/* Not a CPUID feature but what every suite needs. */
	r = rdmsr_safe(MSR_IA32_APICBASE, &v);
	t_check(t, fault_none(r), "IA32_APIC_BASE unreadable (vector %d)", r.vector);
	probed++;
	t_metric_value(t, "probed", probed, "count", "faulted=%u real_mismatch=%u env=%s", faulted,
		       real, plat_env());
}
