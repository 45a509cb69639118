/* SPDX-License-Identifier: GPL-2.0-only */
/* spec: immed_arm -- an immediate TSC-deadline arm (WRMSR
 * IA32_TSC_DEADLINE with a deadline already past, not waiting for the
 * interrupt) alone and right after each operation of ops.c: the WRMSR of
 * kvm-unit-tests' vmexit tscdeadline_immed, timed alone.  That loop takes
 * the interrupt too (at the NOP after its WRMSR, interrupts on); here it
 * is taken, and counted, after the timed window, and tscdeadline.immediate
 * times the whole path, interrupt included. */
#include "suites/spec/spec.h"
#include "kernel/test.h"
#include "kernel/platform.h"
#include "arch/x86/cpu.h"
#include "arch/x86/apic.h"
#include "arch/x86/apic_timer.h"
#include "arch/x86/desc.h"
#include "arch/x86/msr.h"
#include "arch/x86/regs.h"
#include "arch/x86/spec_seq.h"
#include "lib/stats.h"

static volatile uint64_t fired;

static void immed_irq(struct regs *r)
{
	(void)r;
	fired++;
}

static struct {
	uint64_t a, b;
	unsigned k;
} tog;

static void pre_none(void) {}
static void pre_spec_ctrl(void) { wrmsr(MSR_IA32_SPEC_CTRL, (tog.k++ & 1) ? tog.a : tog.b); }
static void pre_bhb_short(void) { bhb_clear_short(); }
static void pre_bhb_long(void) { bhb_clear_long(); }
static void pre_tsx_abort(void) { rtm_abort_seq(); }
static void pre_verw(void) { verw(KERNEL_DS); }
static void pre_ibpb(void) { wrmsr(MSR_IA32_PRED_CMD, PRED_CMD_IBPB); }
static void pre_l1d(void) { wrmsr(MSR_IA32_FLUSH_CMD, L1D_FLUSH); }

enum need { N_NONE, N_SPEC_CTRL, N_RTM, N_VERW, N_IBPB, N_L1D };

static const struct variant {
	const char *metric;	/* the metric name, greppable as written */
	const char *delta;	/* its difference from "alone" */
	enum need need;
} variants[] = {
	{ "alone", NULL, N_NONE },
	{ "after_spec_ctrl_toggle", "delta_spec_ctrl_toggle", N_SPEC_CTRL },
	{ "after_bhb_short", "delta_bhb_short", N_NONE },
	{ "after_bhb_long", "delta_bhb_long", N_NONE },
	{ "after_tsx_abort", "delta_tsx_abort", N_RTM },
	{ "after_verw", "delta_verw", N_VERW },
	{ "after_ibpb", "delta_ibpb", N_IBPB },
	{ "after_l1d_flush", "delta_l1d_flush", N_L1D },
};
#define NVARIANTS (sizeof(variants) / sizeof(variants[0]))
_Static_assert(NVARIANTS == 8, "immed_body's switch lists the variants in this order");

struct immed_run {
	uint64_t *s;
	size_t n;
	size_t done;	/* the last variant's samples (the quick budget may cut n) */
	bool rtm;
};

static bool variant_ok(struct test_ctx *t, const struct variant *v, const struct immed_run *r)
{
	const char *why = NULL;

	switch (v->need) {
	case N_NONE:
		return true;
	case N_SPEC_CTRL:
		why = spec_has_spec_ctrl() ? NULL : spec_no_spec_ctrl();
		break;
	case N_RTM:
		why = r->rtm ? NULL : "RTM absent or unusable (see tsx_abort)";
		break;
	case N_VERW:
		why = spec_has_verw_clear() ? NULL : spec_no_verw();
		break;
	case N_IBPB:
		why = spec_has_ibpb() ? NULL : spec_no_ibpb();
		break;
	case N_L1D:
		why = plat_cpu_has(X86_FEATURE_FLUSH_L1D) ? NULL : spec_no_l1d();
		break;
	}
	if (why) {
		spec_budget_skip();
		/* quick: the operation's own case says why (each line is
		 * ~10 ms of console under a KVM that emulates ring 0) */
		if (t_budgeted(t))
			t_diag(t, "%s: skipped (as its own case)", v->metric);
		else
			t_diag(t, "%s: skipped: %s", v->metric, why);
	}
	return !why;
}

/* Wait (interrupts on) for the interrupt of the shot armed before. */
static bool consume(uint64_t before)
{
	return plat_spin_until(fired != before, T_LOST_US);
}

/* n immediate arms, each after pre(); inlined per constant pre. */
static inline __attribute__((always_inline)) void immed_sample(struct immed_run *r, void (*pre)(void),
							      size_t *lost, size_t *extra)
{
	uint64_t end = spec_budget_end();
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (end && i >= SPEC_MIN_SAMPLES && lfence_rdtsc() >= end)
			break;
		uint64_t flags = plat_irq_save();
		uint64_t before = fired;
		uint64_t t0 = lfence_rdtsc();

		pre();
		wrmsr(MSR_IA32_TSC_DEADLINE, rdtsc());
		uint64_t t1 = lfence_rdtsc();

		plat_irq_restore(flags);	/* the pending interrupt is taken here */
		r->s[i] = t1 - t0;
		if (!consume(before))
			(*lost)++;
		else if (fired != before + 1)
			(*extra)++;
	}
	t_overhead_remove(&spec_overhead, r->s, i);
	spec_budget_took(i, r->n);
	r->done = i;
}

static void immed_body(struct test_ctx *t, void *p)
{
	struct immed_run *r = p;
	uint64_t alone_p50 = 0;

	for (unsigned vi = 0; vi < NVARIANTS; vi++) {
		const struct variant *v = &variants[vi];
		size_t lost = 0, extra = 0;

		if (!variant_ok(t, v, r))
			continue;
		/* one call site per sequence, so each is a direct call */
		switch (vi) {
		case 0: immed_sample(r, pre_none, &lost, &extra); break;
		case 1: immed_sample(r, pre_spec_ctrl, &lost, &extra); break;
		case 2: immed_sample(r, pre_bhb_short, &lost, &extra); break;
		case 3: immed_sample(r, pre_bhb_long, &lost, &extra); break;
		case 4: immed_sample(r, pre_tsx_abort, &lost, &extra); break;
		case 5: immed_sample(r, pre_verw, &lost, &extra); break;
		case 6: immed_sample(r, pre_ibpb, &lost, &extra); break;
		default: immed_sample(r, pre_l1d, &lost, &extra); break;
		}
		t_metric_dist(t, v->metric, r->s, r->done, "cycles",
			      "lost=%zu env=%s %s method=lfence-rdtsc-around-sequence-and-wrmsr-tsc-deadline-irqs-off-interrupt-taken-after",
			      lost, plat_env(), spec_overhead_text);
		spec_answer_cost(t, v->metric, v->delta ? v->metric : "immediate TSC-deadline arm alone", r->s,
				 r->done);
		uint64_t p50 = percentile_sorted(r->s, r->done, 50);	/* sorted by t_metric_dist */

		if (!v->delta)
			alone_p50 = p50;
		else
			t_metric_value(t, v->delta, (int64_t)p50 - (int64_t)alone_p50, "cycles",
				       "method=median-minus-alone-median env=%s %s", plat_env(),
				       spec_overhead_text);
		t_check(t, lost == 0 && extra == 0,
			"%s: %zu immediate deadlines raised no interrupt, %zu raised more than one", v->metric,
			lost, extra);
	}
	/* Negative control for the interrupt accounting: a deadline armed far
	 * ahead and disarmed (0) before interrupts are enabled must raise
	 * nothing; an armed immediate one must (checked above). */
	uint64_t flags = plat_irq_save();
	uint64_t before = fired;

	wrmsr(MSR_IA32_TSC_DEADLINE, rdtsc() + plat_ns_to_cycles(1000000));
	wrmsr(MSR_IA32_TSC_DEADLINE, 0);
	plat_irq_restore(flags);
	/* 3 ms for a wrong interrupt to arrive; one ends the wait early */
	(void)plat_spin_until(fired != before, 3000);
	t_check(t, fired == before, "control: a disarmed deadline still raised %llu interrupt(s)",
		(unsigned long long)(fired - before));
}

TEST(spec, immed_arm, .order = 70, .budget_ms = 120000)
{
	if (!timer_has_tscdeadline) {
		char why[200];

		x86_feature_absent_why(X86_FEATURE_TSC_DEADLINE_TIMER, "TSC-deadline", why, sizeof(why));
		t_skip(t, "%s", why);
		return;
	}
	if (apic_mode == APIC_MODE_NONE) {
		t_skip(t, "no local APIC");
		return;
	}
	char why[200];
	struct immed_run r = { .n = spec_iters(t) };

	r.rtm = spec_rtm_usable(why, sizeof(why));
	r.s = spec_samples(t, r.n);
	spec_say_env(t);
	if (!t_budgeted(t))	/* quick: the line costs ~20 ms under a KVM that emulates ring 0 */
		t_diag(t, "the WRMSR of kvm-unit-tests' vmexit tscdeadline_immed, timed alone: WRMSR IA32_TSC_DEADLINE <- now with interrupts off; the interrupt, which tscdeadline_immed's loop takes at once, is taken and counted after the window (tscdeadline.immediate times that whole path)");
	if (spec_has_spec_ctrl()) {
		const char *what;

		if (!spec_msr_save(t, MSR_IA32_SPEC_CTRL, "IA32_SPEC_CTRL"))
			return;
		spec_ctrl_pair(spec_saved_value(MSR_IA32_SPEC_CTRL), &tog.a, &tog.b, &what);
		tog.k = 0;
		t_diag(t, "after_spec_ctrl_toggle alternates %s: 0x%llx <-> 0x%llx", what,
		       (unsigned long long)tog.a, (unsigned long long)tog.b);
	}
	spec_measure_overhead();
	spec_budget_begin(t, NVARIANTS);
	timer_claim(immed_irq);
	timer_tscdeadline_mode();
	spec_guarded(t, immed_body, &r, EXPECT_RETURN);
	timer_release();
	t_diag(t, "timer: IA32_TSC_DEADLINE disarmed and the LAPIC timer handed back to the watchdog");
	spec_budget_note(t);
}
