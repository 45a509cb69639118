/* SPDX-License-Identifier: GPL-2.0-only */
/* The event-count API (kernel/platform.h) on the core PMU: arch/x86/pmu.c
 * with MSR access that reports faults instead of taking them. */
#include "kernel/platform.h"
#include "arch/x86/fault.h"
#include "arch/x86/pmu.h"
#include "kernel/kernel.h"
#include "kernel/report.h"
#include "lib/printf.h"
#include "lib/string.h"

static struct pmu_desc desc;
static bool described;
static struct pmu_set set;
static int slot[PLAT_NEVENTS];		/* counter index per asked event, -1 if none */
static unsigned asked;

static int msr_rd(void *ctx, uint32_t msr, uint64_t *v)
{
	(void)ctx;
	return fault_none(rdmsr_safe(msr, v)) ? 0 : -1;
}

static int msr_wr(void *ctx, uint32_t msr, uint64_t v)
{
	(void)ctx;
	return fault_none(wrmsr_safe(msr, v)) ? 0 : -1;
}

static const struct pmu_msr_ops ops = { msr_rd, msr_wr, 0 };

static const struct pmu_desc *get_desc(void)
{
	if (!described) {
		pmu_describe(&desc, &boot_cpu);
		described = true;
	}
	return &desc;
}

/* The plat_event and pmu_event lists are in the same order. */
_Static_assert((int)PLAT_NEVENTS == (int)PMU_NEVENTS, "event lists differ");

void plat_pmu_info(struct plat_pmu_info *info)
{
	const struct pmu_desc *d = get_desc();

	memset(info, 0, sizeof(*info));
	pmu_desc_format(d, info->desc, sizeof(info->desc));
	if (d->kind == PMU_NONE) {
		rl_snprintf(info->why, sizeof(info->why), "%s", d->why);
		return;
	}
	/* CPUID describes it; the probe in pmu_open decides whether it works */
	enum pmu_event ev = PMU_EV_INSTRUCTIONS;
	struct pmu_set probe;

	if (pmu_open(&probe, d, &ops, &ev, 1, info->why, sizeof(info->why)))
		return;
	pmu_close(&probe);
	info->present = true;
	info->counters = d->ngp;
	info->width = d->gp_width;
}

unsigned plat_counters_open(const enum plat_event *ev, unsigned n, bool *counting, char *why,
			    size_t whylen)
{
	const struct pmu_desc *d = get_desc();
	enum pmu_event use[PMU_MAX_GP];
	unsigned k = 0;

	plat_counters_close();
	if (why && whylen)
		why[0] = '\0';
	for (unsigned i = 0; i < n; i++) {
		uint64_t sel;
		const char *r;

		counting[i] = false;
		if (i < PLAT_NEVENTS)
			slot[i] = -1;
		if (i >= PLAT_NEVENTS || !pmu_encode(d, (enum pmu_event)ev[i], &sel, &r)) {
			if (why && !why[0])
				rl_snprintf(why, whylen, "%s: %s", plat_event_name(ev[i]),
					    i >= PLAT_NEVENTS ? "too many events" : r);
			continue;
		}
		if (k == d->ngp) {
			if (why && !why[0])
				rl_snprintf(why, whylen, "%s: all %u counters in use", plat_event_name(ev[i]), d->ngp);
			continue;
		}
		slot[i] = (int)k;
		use[k++] = (enum pmu_event)ev[i];
	}
	asked = n < PLAT_NEVENTS ? n : PLAT_NEVENTS;
	if (!k)
		return 0;
	char r[240];

	if (pmu_open(&set, d, &ops, use, k, r, sizeof(r))) {
		if (why)
			rl_snprintf(why, whylen, "%s", r);
		return 0;
	}
	for (unsigned i = 0; i < asked; i++)
		counting[i] = slot[i] >= 0;
	return k;
}

bool plat_counters_read(uint64_t *vals)
{
	uint64_t raw[PMU_MAX_GP];

	if (!set.open || pmu_read(&set, raw))
		return false;
	for (unsigned i = 0; i < asked; i++)
		vals[i] = slot[i] >= 0 ? raw[slot[i]] : 0;
	return true;
}

void plat_counters_delta(const uint64_t *before, const uint64_t *after, uint64_t *delta)
{
	for (unsigned i = 0; i < asked; i++)
		delta[i] = set.d && slot[i] >= 0 ? pmu_delta(&set, before[i], after[i]) : 0;
}

/* Called by the runner after every case: when something was open, put
 * the MSRs back and say so in the log, read back. */
void plat_counters_close(void)
{
	if (!set.open)
		return;
	unsigned n = set.n;
	uint32_t bad = 0;
	uint64_t got = 0;

	pmu_close(&set);
	if (pmu_verify_restored(&set, n, &bad, &got))
		rep_error("pmu", "MSR 0x%x reads 0x%llx after restoring the counters", bad,
			  (unsigned long long)got);
	else
		rep_diag("restore: PMU selectors 0x%x..0x%x%s back to their saved values (read back)",
			 pmu_ctl_msr(set.d, 0), pmu_ctl_msr(set.d, n - 1),
			 set.has_global ? " and IA32_PERF_GLOBAL_CTRL" : "");
}
