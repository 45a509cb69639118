/* SPDX-License-Identifier: GPL-2.0-only */
/* Core performance counters; see pmu.h. */
#include "arch/x86/pmu.h"
#include "arch/x86/msr.h"
#include "lib/printf.h"
#include "lib/string.h"

#define AMD_CTR_WIDTH		48	/* APM vol. 2 §13.2.1 */
#define AMD_LEGACY_COUNTERS	4
#define AMD_EXT_COUNTERS	6
#define PROBE_VALUE		0x5a5au

void pmu_describe(struct pmu_desc *d, const struct cpuinfo *ci)
{
	memset(d, 0, sizeof(*d));
	d->vendor = ci->vendor;
	d->family = ci->family;
	d->model = ci->model;
	if (ci->pmu_version >= 1 && ci->pmu_gp_counters >= 1) {
		d->kind = PMU_INTEL_ARCH;
		d->version = ci->pmu_version;
		d->ngp = ci->pmu_gp_counters < PMU_MAX_GP ? ci->pmu_gp_counters : PMU_MAX_GP;
		d->gp_width = ci->pmu_gp_width;
		d->nfixed = ci->pmu_fixed_counters;
		d->fixed_width = ci->pmu_fixed_width;
		d->events_absent = ci->pmu_events_absent;
		d->events_len = ci->pmu_events_len;
		if (d->gp_width < 8 || d->gp_width > 64) {
			d->kind = PMU_NONE;
			rl_snprintf(d->why, sizeof(d->why),
				    "CPUID.0AH reports %u-bit counters, not a usable width", d->gp_width);
		}
		return;
	}
	if ((ci->vendor == VENDOR_AMD || ci->vendor == VENDOR_HYGON) && ci->family >= 6) {
		d->kind = PMU_AMD_CORE;
		d->amd_ext = ci->perfctr_core;
		d->ngp = ci->perfctr_core ? AMD_EXT_COUNTERS : AMD_LEGACY_COUNTERS;
		d->gp_width = AMD_CTR_WIDTH;
		return;
	}
	rl_snprintf(d->why, sizeof(d->why), "no architectural PMU (CPUID.0AH:EAX version %u, %u counters) and not an AMD core PMU",
		    ci->pmu_version, ci->pmu_gp_counters);
}

int pmu_desc_format(const struct pmu_desc *d, char *buf, size_t size)
{
	switch (d->kind) {
	case PMU_INTEL_ARCH:
		return rl_snprintf(buf, size, "kind=intel-arch version=%u gp=%u gp_width=%u fixed=%u fixed_width=%u events_len=%u events_absent=0x%x",
				   d->version, d->ngp, d->gp_width, d->nfixed, d->fixed_width,
				   d->events_len, d->events_absent);
	case PMU_AMD_CORE:
		return rl_snprintf(buf, size, "kind=amd-core gp=%u gp_width=%u perfctr_core=%s",
				   d->ngp, d->gp_width, d->amd_ext ? "yes" : "no");
	default:
		return rl_snprintf(buf, size, "kind=none");
	}
}

const char *pmu_event_name(enum pmu_event ev)
{
	static const char *const names[PMU_NEVENTS] = {
		"cycles", "instructions", "llc_refs", "llc_misses", "rfo",
	};

	return (unsigned)ev < PMU_NEVENTS ? names[ev] : "?";
}

/* Intel architectural events: EBX bit, event select | umask << 8. */
static const struct {
	unsigned ebx_bit;
	uint64_t sel;
} intel_arch[PMU_NEVENTS] = {
	[PMU_EV_CYCLES] = { 0, 0x003c },	/* UnHalted Core Cycles */
	[PMU_EV_INSTRUCTIONS] = { 1, 0x00c0 },	/* Instruction Retired */
	[PMU_EV_LLC_REFS] = { 3, 0x4f2e },	/* LLC Reference */
	[PMU_EV_LLC_MISSES] = { 4, 0x412e },	/* LLC Misses */
};

/* OFFCORE_REQUESTS.DEMAND_RFO by family-6 model: event B0H umask 04H
 * ("demand RFO requests, including regular RFOs, locks, ItoM") in the
 * SDM vol. 3B model-specific event tables (chapter "Performance Monitoring
 * Events") from Sandy Bridge (2AH, 2DH) and Ivy Bridge (3AH, 3EH) through
 * Haswell, Broadwell, Skylake, Cascade Lake, Comet Lake, Ice Lake, Rocket
 * Lake (A7H) and Tiger Lake; event 21H umask 04H on Golden Cove cores and
 * later (Intel's perfmon event files for Alder Lake, Sapphire Rapids and
 * their successors, which the SDM defers to). */
static bool intel_rfo(uint32_t model, uint64_t *sel)
{
	static const uint8_t b0[] = { 0x2a, 0x2d, 0x3a, 0x3e, 0x3c, 0x3f, 0x45, 0x46, 0x3d, 0x47,
				      0x4f, 0x56, 0x4e, 0x5e, 0x55, 0x8e, 0x9e, 0xa5, 0xa6, 0x6a,
				      0x6c, 0x7d, 0x7e, 0xa7, 0x8c, 0x8d };
	static const uint8_t x21[] = { 0x8f, 0xcf, 0x97, 0x9a, 0xb7, 0xba, 0xbf, 0xaa, 0xac, 0xad, 0xae };

	for (size_t i = 0; i < sizeof(b0); i++)
		if (model == b0[i]) {
			*sel = 0x04b0;
			return true;
		}
	for (size_t i = 0; i < sizeof(x21); i++)
		if (model == x21[i]) {
			*sel = 0x0421;
			return true;
		}
	return false;
}

/* AMD's RFO count: PMCx060 L2RequestG1 (the core's requests to the L2),
 * unit mask bit 6 RdBlkX, "data cache stores" -- an L1D store miss asking
 * for the line in a writable state, the read-for-ownership a cacheable
 * store costs and a non-temporal one does not.  PPR for AMD family 17h
 * (Zen, Zen 2; Hygon's 18h is the same core) and family 19h (Zen 3, Zen
 * 4), core PMC event tables.  Other families: none known. */
static bool amd_rfo(const struct pmu_desc *d, uint64_t *sel)
{
	if (d->family != 0x17 && d->family != 0x18 && d->family != 0x19)
		return false;
	*sel = 0x4060;
	return true;
}

bool pmu_encode(const struct pmu_desc *d, enum pmu_event ev, uint64_t *sel, const char **why)
{
	*why = NULL;
	if ((unsigned)ev >= PMU_NEVENTS) {
		*why = "unknown event";
		return false;
	}
	if (d->kind == PMU_INTEL_ARCH) {
		if (ev == PMU_EV_RFO) {
			if (d->family == 6 && intel_rfo(d->model, sel))
				return true;
			*why = "no OFFCORE_REQUESTS.DEMAND_RFO encoding known for this model";
			return false;
		}
		unsigned bit = intel_arch[ev].ebx_bit;

		if (bit >= d->events_len || (d->events_absent & (1u << bit))) {
			*why = "CPUID.0AH:EBX marks the architectural event absent";
			return false;
		}
		*sel = intel_arch[ev].sel;
		return true;
	}
	if (d->kind == PMU_AMD_CORE) {
		/* PPR for AMD family 17h+: PMCx076 cycles not in halt,
		 * PMCx0C0 retired instructions.  The L3 has its own PMU. */
		if (ev == PMU_EV_RFO && amd_rfo(d, sel))
			return true;
		if (ev == PMU_EV_CYCLES) {
			*sel = 0x76;
			return true;
		}
		if (ev == PMU_EV_INSTRUCTIONS) {
			*sel = 0xc0;
			return true;
		}
		*why = ev == PMU_EV_RFO ?
		       "no L2RequestG1.RdBlkX encoding known for this family (PPR for family 17h/19h)" :
		       "not a core-PMU event on AMD (the L3 has its own PMU)";
		return false;
	}
	*why = d->why[0] ? d->why : "no PMU";
	return false;
}

uint32_t pmu_ctl_msr(const struct pmu_desc *d, unsigned i)
{
	if (d->kind == PMU_AMD_CORE)
		return d->amd_ext ? MSR_F15H_PERF_CTL + 2 * i : MSR_K7_EVNTSEL0 + i;
	return MSR_ARCH_PERFMON_EVENTSEL0 + i;
}

uint32_t pmu_ctr_msr(const struct pmu_desc *d, unsigned i)
{
	if (d->kind == PMU_AMD_CORE)
		return d->amd_ext ? MSR_F15H_PERF_CTR + 2 * i : MSR_K7_PERFCTR0 + i;
	return MSR_ARCH_PERFMON_PERFCTR0 + i;
}

static uint64_t width_mask(const struct pmu_desc *d)
{
	return d->gp_width >= 64 ? ~0ull : (1ull << d->gp_width) - 1;
}

uint64_t pmu_delta(const struct pmu_set *s, uint64_t before, uint64_t after)
{
	return (after - before) & width_mask(s->d);
}

static void restore(struct pmu_set *s, unsigned upto)
{
	const struct pmu_msr_ops *o = s->ops;

	if (s->has_global)
		o->wr(o->ctx, MSR_CORE_PERF_GLOBAL_CTRL, s->saved_global);
	for (unsigned i = 0; i < upto; i++) {
		o->wr(o->ctx, pmu_ctl_msr(s->d, i), s->saved_ctl[i]);
		o->wr(o->ctx, pmu_ctr_msr(s->d, i), s->saved_ctr[i]);
	}
}

int pmu_open(struct pmu_set *s, const struct pmu_desc *d, const struct pmu_msr_ops *ops,
	     const enum pmu_event *ev, unsigned n, char *why, size_t whylen)
{
	const char *r;

	memset(s, 0, sizeof(*s));
	s->d = d;
	s->ops = ops;
	if (d->kind == PMU_NONE) {
		rl_snprintf(why, whylen, "%s", d->why);
		return -1;
	}
	if (n == 0 || n > d->ngp) {
		rl_snprintf(why, whylen, "%u events asked, %u general-purpose counters", n, d->ngp);
		return -1;
	}
	for (unsigned i = 0; i < n; i++) {
		if (!pmu_encode(d, ev[i], &s->sel[i], &r)) {
			rl_snprintf(why, whylen, "%s: %s", pmu_event_name(ev[i]), r);
			return -1;
		}
		s->ev[i] = ev[i];
	}
	/* Save first; if any save faults nothing has been written yet. */
	s->has_global = d->kind == PMU_INTEL_ARCH && d->version >= 2;
	if (s->has_global && ops->rd(ops->ctx, MSR_CORE_PERF_GLOBAL_CTRL, &s->saved_global)) {
		rl_snprintf(why, whylen, "RDMSR IA32_PERF_GLOBAL_CTRL faulted");
		return -1;
	}
	for (unsigned i = 0; i < n; i++)
		if (ops->rd(ops->ctx, pmu_ctl_msr(d, i), &s->saved_ctl[i]) ||
		    ops->rd(ops->ctx, pmu_ctr_msr(d, i), &s->saved_ctr[i])) {
			rl_snprintf(why, whylen, "RDMSR of counter %u (0x%x/0x%x) faulted", i,
				    pmu_ctl_msr(d, i), pmu_ctr_msr(d, i));
			return -1;
		}
	/* Counter 0 must hold a value written to it while stopped. */
	uint64_t back = 0;

	if (ops->wr(ops->ctx, pmu_ctl_msr(d, 0), 0) ||
	    ops->wr(ops->ctx, pmu_ctr_msr(d, 0), PROBE_VALUE) ||
	    ops->rd(ops->ctx, pmu_ctr_msr(d, 0), &back) || (back & width_mask(d)) != PROBE_VALUE) {
		restore(s, 1);
		rl_snprintf(why, whylen, "counter 0 (MSR 0x%x) does not hold a written value (wrote 0x%x, read 0x%llx): no working PMU (an emulator or a hypervisor without a virtual PMU)",
			    pmu_ctr_msr(d, 0), PROBE_VALUE, (unsigned long long)back);
		return -1;
	}
	uint64_t mask = 0;

	for (unsigned i = 0; i < n; i++) {
		uint64_t v = s->sel[i] | ARCH_PERFMON_EVENTSEL_USR | ARCH_PERFMON_EVENTSEL_OS |
			     ARCH_PERFMON_EVENTSEL_ENABLE;

		if (ops->wr(ops->ctx, pmu_ctr_msr(d, i), 0) || ops->wr(ops->ctx, pmu_ctl_msr(d, i), v)) {
			restore(s, n);
			rl_snprintf(why, whylen, "WRMSR of counter %u faulted", i);
			return -1;
		}
		s->sel[i] = v;
		mask |= 1ull << i;
	}
	if (s->has_global &&
	    ops->wr(ops->ctx, MSR_CORE_PERF_GLOBAL_CTRL, s->saved_global | mask)) {
		restore(s, n);
		rl_snprintf(why, whylen, "WRMSR IA32_PERF_GLOBAL_CTRL faulted");
		return -1;
	}
	s->n = n;
	s->open = true;
	return 0;
}

int pmu_read(const struct pmu_set *s, uint64_t *vals)
{
	if (!s->open)
		return -1;
	for (unsigned i = 0; i < s->n; i++)
		if (s->ops->rd(s->ops->ctx, pmu_ctr_msr(s->d, i), &vals[i]))
			return -1;
	return 0;
}

void pmu_close(struct pmu_set *s)
{
	if (!s->open)
		return;
	restore(s, s->n);
	s->open = false;
}

int pmu_verify_restored(const struct pmu_set *s, unsigned n, uint32_t *bad_msr, uint64_t *got)
{
	const struct pmu_msr_ops *o = s->ops;
	uint64_t v = 0;

	if (s->has_global && (o->rd(o->ctx, MSR_CORE_PERF_GLOBAL_CTRL, &v) || v != s->saved_global)) {
		*bad_msr = MSR_CORE_PERF_GLOBAL_CTRL;
		*got = v;
		return -1;
	}
	for (unsigned i = 0; i < n; i++)
		if (o->rd(o->ctx, pmu_ctl_msr(s->d, i), &v) || v != s->saved_ctl[i]) {
			*bad_msr = pmu_ctl_msr(s->d, i);
			*got = v;
			return -1;
		}
	return 0;
}
