/* SPDX-License-Identifier: GPL-2.0-only */
/* litmus: wrmsr_cost, the cost form.
 *
 * The fence suite's after_stores shape: one iteration is NSTORES stores to
 * distinct 64-byte lines of an L1-resident buffer, then the instruction;
 * nanoBench's U/2U (t_u2u) removes the timing, call and loop set-up;
 * `none` (the stores alone) is the baseline, and each <what>_over_stores
 * metric is that instrument's median minus none's: the cycles the
 * instruction adds after 32 pending stores.  That is its cost, not a
 * drain: an instruction that drains the store buffer (MFENCE, SERIALIZE,
 * a serializing WRMSR) includes the 32 stores reaching the cache in it,
 * one that does not pays only for itself, and the two cannot be told
 * apart from this number alone (the SB variants, wrmsr.c, can).  The
 * WRMSRs write back the value the MSR holds, on CPU 0, as in the SB
 * variants; the x2APIC ICR's sends this CPU a doorbell IPI, taken between
 * trials (t_u2u runs each with interrupts off). */
#include "suites/litmus/litmus.h"
#include "kernel/test.h"
#include "kernel/platform.h"
#include "lib/litmus.h"
#include "lib/printf.h"

/* the cost form: stores pending before the instruction (fence suite's shape) */
#define NSTORES		32
#define LINE_WORDS	8	/* uint64_t per 64-byte line */
#define COST_U		16

struct cost {
	volatile uint64_t *lines;
	uint32_t msr, lo, hi;
};

#define DEFINE_COST(name, insn) \
	static uint64_t cost_##name(unsigned count, void *arg) \
	{ \
		struct cost *c = arg; \
		volatile uint64_t *lines = c->lines; \
		uint64_t t0 = lfence_rdtsc(); \
		for (unsigned i = 0; i < count; i++) { \
			for (unsigned k = 0; k < NSTORES; k++) \
				lines[k * LINE_WORDS] = i; \
			__asm__ volatile(insn : : "c"(c->msr), "a"(c->lo), "d"(c->hi) : "memory"); \
		} \
		return lfence_rdtsc() - t0; \
	}

DEFINE_COST(none, "")
DEFINE_COST(mfence, "mfence")
DEFINE_COST(serialize, ".byte 0x0f, 0x01, 0xe8")	/* SERIALIZE, as bytes for old assemblers */
DEFINE_COST(wrmsr, "wrmsr")
DEFINE_COST(mflf_wrmsr, "mfence\n\tlfence\n\twrmsr")

/* quick without iters=: the trials an instrument always runs (the
 * median of 3 U/2U differences), then more while its equal share of what
 * is left of the case's quick budget lasts (t_u2u_share()), and one at a
 * time, up to
 * QUICK_MAX_RETRY, while no more than half were usable (k > ran / 2 is
 * checked).  Under the KVM that emulates ring 0 one trial (48 iterations
 * of 32 stores) costs 5-20 ms and a host preemption inside the U run
 * drops it, so a count-sized minimum there would be the whole case. */
#define QUICK_MIN_TRIALS	3
#define QUICK_MAX_RETRY		16

/* what the quick budget cut, for one budget: line */
static struct t_share budget;

static size_t cost_trials(struct test_ctx *t, t_timed_fn fn, struct cost *c, uint64_t *s,
			  size_t planned, size_t *dropped, size_t *ran)
{
	if (!t_budgeted(t))
		return t_u2u_budget(t, fn, c, COST_U, planned, planned, s, dropped, ran);
	size_t done = 0, d = 0;
	size_t k = t_u2u_share(t, &budget, fn, c, COST_U, planned, QUICK_MIN_TRIALS, s, dropped, &done);

	for (; k * 2 <= done && done < QUICK_MAX_RETRY && done < planned; done++) {
		k += t_u2u(fn, c, COST_U, 1, s + k, &d);
		*dropped += d;
	}
	t_share_took(&budget, done, planned);
	*ran = done;
	return k;
}

static bool cost_one(struct test_ctx *t, const char *what, t_timed_fn fn, struct cost *c, uint64_t *s,
		     size_t trials, uint64_t base_p50, uint64_t *p50_out, const char *extra)
{
	size_t dropped = 0, planned = trials;
	size_t k = cost_trials(t, fn, c, s, planned, &dropped, &trials);

	if (!k) {
		t_fail(t, "%s: no usable trial of %zu (%zu dropped)", what, trials, dropped);
		return false;
	}
	/* t_metric_dist sorts s */
	t_metric_dist(t, what, s, k, "cycles",
		      "method=u2u u=%u stores=%u trials=%zu dropped=%zu%s%s tsc_hz=%llu env=%s", COST_U,
		      NSTORES, trials, dropped, base_p50 == UINT64_MAX ? " what=stores-only-baseline" : " baseline=litmus.wrmsr_cost.none",
		      extra, (unsigned long long)plat_tsc_hz(), plat_env());
	uint64_t p50 = s[(k - 1) / 2];

	if (p50_out)
		*p50_out = p50;
	/* quick: the _over_stores metric says the same (each line is ~10 ms
	 * of console under a KVM that emulates ring 0) */
	if (base_p50 != UINT64_MAX && !t_budgeted(t))
		t_diag(t, "%s after %u stores: median %llu cycles, %+lld vs the stores alone env=%s",
		       what, NSTORES, (unsigned long long)p50, (long long)p50 - (long long)base_p50, plat_env());
	t_check(t, k > trials / 2, "%s: only %zu of %zu trials usable", what, k, trials);
	return true;
}

TEST(litmus, wrmsr_cost, .order = 50, .budget_ms = 120000)
{
	size_t trials = (size_t)t_iters(t, 1000, 50);
	uint64_t *s = t_alloc(t, trials * sizeof(uint64_t));
	struct cost c = { t_alloc(t, NSTORES * 64), 0, 0, 0 };
	uint64_t base = 0, p50;
	char why[200], extra[96];

	/* the instruments that may run: none, mfence, serialize, 7 WRMSRs */
	t_share_begin(&budget, 10);
	if (!cost_one(t, "none", cost_none, &c, s, trials, UINT64_MAX, &base, ""))
		return;
	if (cost_one(t, "mfence", cost_mfence, &c, s, trials, base, &p50, ""))
		t_metric_value(t, "mfence_over_stores", (int64_t)p50 - (int64_t)base, "cycles",
			       "method=median-minus-none-median env=%s", plat_env());
	struct probe pr = { 0, true, false, 0 };

	if (!plat_cpu_has(X86_FEATURE_SERIALIZE)) {
		x86_feature_absent_why(X86_FEATURE_SERIALIZE, "SERIALIZE", why, sizeof(why));
		t_diag(t, "serialize: SKIP %s env=%s", why, plat_env());
	} else if (!lit_probe_elsewhere(&pr, why, sizeof(why), "SERIALIZE")) {
		t_diag(t, "serialize: SKIP %s env=%s", why, plat_env());
	} else if (cost_one(t, "serialize", cost_serialize, &c, s, trials, base, &p50, ""))
		t_metric_value(t, "serialize_over_stores", (int64_t)p50 - (int64_t)base, "cycles",
			       "method=median-minus-none-median env=%s", plat_env());
	static const struct { enum msr_kind k; bool mflf; } w[] = {
		{ M_TSC_DEADLINE, false }, { M_X2APIC_TPR, false }, { M_X2APIC_ICR, false },
		{ M_SERIALIZING, false }, { M_TSC_DEADLINE, true }, { M_X2APIC_TPR, true },
		{ M_X2APIC_ICR, true },
	};
	for (unsigned i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		enum msr_kind k = w[i].k;
		char what[64], dname[80];
		const char *no = lit_msr_unusable(k, why, sizeof(why));
		uint64_t v;

		rl_snprintf(what, sizeof(what), "%swrmsr_%s", w[i].mflf ? "mfence_lfence_" : "", lit_msrs[k].tag);
		if (!no && !lit_msr_value(k, 0, &v, why, sizeof(why)))
			no = why;
		if (no) {
			t_diag(t, "litmus.wrmsr_cost.%s: SKIP %s env=%s", what, no, plat_env());
			continue;
		}
		c.msr = lit_msrs[k].msr;
		c.lo = (uint32_t)v;
		c.hi = (uint32_t)(v >> 32);
		rl_snprintf(extra, sizeof(extra), " msr=0x%x", (unsigned)c.msr);
		bool ok = cost_one(t, what, w[i].mflf ? cost_mflf_wrmsr : cost_wrmsr, &c, s, trials, base,
				   &p50, extra);

		lit_msr_check_restore(t, k, 0, v, what);
		if (ok) {
			rl_snprintf(dname, sizeof(dname), "%s_over_stores", what);
			t_metric_value(t, dname, (int64_t)p50 - (int64_t)base, "cycles",
				       "method=median-minus-none-median msr=0x%x env=%s", (unsigned)c.msr, plat_env());
		}
	}
	t_share_note(t, &budget, "instruments", "each metric's trials= is its n");
}
