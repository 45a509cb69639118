/* SPDX-License-Identifier: GPL-2.0-only */
/* spec: each operation timed alone -- IA32_SPEC_CTRL writes (same value,
 * toggled), the BHB-clearing loops, the TSX abort, VERW, and the IBPB and
 * L1D_FLUSH command MSRs (suites/spec/spec.h says how a sample is taken). */
#include "suites/spec/spec.h"
#include "kernel/test.h"
#include "kernel/platform.h"
#include "arch/x86/cpu.h"
#include "arch/x86/desc.h"
#include "arch/x86/fault.h"
#include "arch/x86/msr.h"
#include "arch/x86/spec_seq.h"
#include "arch/x86/trapnr.h"

/* ---- spec_ctrl ---- */

struct spec_ctrl_run {
	uint64_t *s;
	size_t n;
	uint64_t a, b, last;
	const char *what;
};

static void op_spec_ctrl_same(void *p, size_t i)
{
	(void)i;
	wrmsr(MSR_IA32_SPEC_CTRL, *(const uint64_t *)p);
}

static void op_spec_ctrl_toggle(void *p, size_t i)
{
	struct spec_ctrl_run *r = p;

	r->last = (i & 1) ? r->a : r->b;
	wrmsr(MSR_IA32_SPEC_CTRL, r->last);
}

static void spec_ctrl_body(struct test_ctx *t, void *p)
{
	struct spec_ctrl_run *r = p;
	uint64_t cur = spec_saved_value(MSR_IA32_SPEC_CTRL);

	/* same value: what a host pays when guest and host values agree and
	 * the write is still done */
	size_t k = sample_op(r->s, r->n, op_spec_ctrl_same, &cur);

	t_metric_dist(t, "same_value", r->s, k, "cycles", "value=0x%llx env=%s %s " METHOD,
		      (unsigned long long)cur, plat_env(), spec_overhead_text);
	spec_answer_cost(t, "same_value", "SPEC_CTRL write of the same value", r->s, k);
	wrmsr(MSR_IA32_SPEC_CTRL, r->a);
	k = sample_op(r->s, r->n, op_spec_ctrl_toggle, r);
	t_metric_dist(t, "toggle", r->s, k, "cycles", "values=0x%llx,0x%llx bits=%s env=%s %s " METHOD,
		      (unsigned long long)r->a, (unsigned long long)r->b, r->what, plat_env(),
		      spec_overhead_text);
	spec_answer_cost(t, "toggle", "SPEC_CTRL toggle", r->s, k);
	/* the toggle really changed the register */
	uint64_t now = rdmsr(MSR_IA32_SPEC_CTRL);
	uint64_t other = r->last == r->a ? r->b : r->a;

	wrmsr(MSR_IA32_SPEC_CTRL, other);
	uint64_t now2 = rdmsr(MSR_IA32_SPEC_CTRL);

	t_check(t, now == r->last && now2 == other,
		"IA32_SPEC_CTRL did not take the toggled values: wrote 0x%llx, read 0x%llx; wrote 0x%llx, read 0x%llx",
		(unsigned long long)r->last, (unsigned long long)now, (unsigned long long)other,
		(unsigned long long)now2);
}

TEST(spec, spec_ctrl, .order = 10)
{
	if (!spec_has_spec_ctrl()) {
		t_skip(t, "%s", spec_no_spec_ctrl());
		return;
	}
	struct spec_ctrl_run r = { .n = spec_iters(t) };

	r.s = spec_samples(t, r.n);
	if (!spec_msr_save(t, MSR_IA32_SPEC_CTRL, "IA32_SPEC_CTRL"))
		return;
	spec_say_env(t);
	spec_measure_overhead();
	spec_budget_begin(t, 2);
	spec_ctrl_pair(spec_saved_value(MSR_IA32_SPEC_CTRL), &r.a, &r.b, &r.what);
	char bhi[40];

	x86_feature_source(X86_FEATURE_BHI_CTRL, bhi, sizeof(bhi));
	t_diag(t, "toggle %s: 0x%llx <-> 0x%llx (BHI_CTRL %s%s%s)", r.what, (unsigned long long)r.a,
	       (unsigned long long)r.b, plat_cpu_has(X86_FEATURE_BHI_CTRL) ? "enumerated" : "not enumerated (",
	       plat_cpu_has(X86_FEATURE_BHI_CTRL) ? "" : bhi, plat_cpu_has(X86_FEATURE_BHI_CTRL) ? "" : ")");
	spec_guarded(t, spec_ctrl_body, &r, EXPECT_RETURN);
	spec_budget_note(t);
}

/* ---- bhb_clear ---- */

struct bhb_run {
	uint32_t want, got, bad;
};

static void op_bhb_short(void *p, size_t i)
{
	struct bhb_run *r = p;

	(void)i;
	r->got = bhb_clear_short();
	r->bad += r->got != r->want;
}

static void op_bhb_long(void *p, size_t i)
{
	struct bhb_run *r = p;

	(void)i;
	r->got = bhb_clear_long();
	r->bad += r->got != r->want;
}

TEST(spec, bhb_clear, .order = 20)
{
	size_t n = spec_iters(t);
	uint64_t *s = spec_samples(t, n);

	spec_say_env(t);
	spec_measure_overhead();
	spec_budget_begin(t, 2);
	/* hardware counts beside the timing, over all n runs (pmu=none where
	 * there is no PMU) */
	static const enum plat_event ev[2] = { PLAT_EV_CYCLES, PLAT_EV_INSTRUCTIONS };
	bool counting[2];
	char why[200], counts[120];

	for (int which = 0; which < 2; which++) {
		uint32_t want = which ? BHB_LONG_ITERS : BHB_SHORT_ITERS, bad = 0, got = 0;
		uint64_t c0[2] = { 0, 0 }, c1[2] = { 0, 0 }, cd[2] = { 0, 0 };
		bool counted = plat_counters_open(ev, 2, counting, why, sizeof(why)) &&
			       plat_counters_read(c0);

		struct bhb_run r = { want, 0, 0 };
		size_t k = which ? sample_op(s, n, op_bhb_long, &r) : sample_op(s, n, op_bhb_short, &r);

		bad = r.bad;
		got = r.got;
		if (counted && plat_counters_read(c1))
			plat_counters_delta(c0, c1, cd);
		else
			counting[0] = counting[1] = false;
		plat_counters_close();
		plat_counts_format(counts, sizeof(counts), ev, 2, counting, cd);
		if (which) {
			t_metric_dist(t, "long_12x7", s, k, "cycles", "inner_iterations=%u env=%s %s %s pmu_window=all-runs " METHOD,
				      want, plat_env(), spec_overhead_text, counts);
			spec_answer_cost(t, "long_12x7", "BHB clear (long, 12x7)", s, k);
		} else {
			t_metric_dist(t, "short_5x5", s, k, "cycles", "inner_iterations=%u env=%s %s %s pmu_window=all-runs " METHOD,
				      want, plat_env(), spec_overhead_text, counts);
			spec_answer_cost(t, "short_5x5", "BHB clear (short, 5x5)", s, k);
		}
		t_check(t, bad == 0, "%s loop: %u of %zu runs returned %u inner iterations, expected %u",
			which ? "long" : "short", bad, k, got, want);
	}
	spec_budget_note(t);
}

/* ---- tsx_abort ---- */

struct tsx_run {
	uint32_t last;
	size_t odd;
};

static void op_tsx_abort(void *p, size_t i)
{
	struct tsx_run *r = p;

	(void)i;
	r->last = rtm_abort_seq();
	/* explicit abort with our code; anything else means the transaction
	 * never began or aborted for another reason */
	r->odd += !(r->last & XABORT_EXPLICIT) || XABORT_CODE(r->last) != 0xff;
}

TEST(spec, tsx_abort, .order = 30)
{
	char why[200];

	if (!spec_rtm_usable(why, sizeof(why))) {
		t_skip(t, "%s", why);
		return;
	}
	size_t n = spec_iters(t), odd = 0;
	uint64_t *s = spec_samples(t, n);
	uint32_t st = 0;

	spec_say_env(t);
	spec_measure_overhead();
	spec_budget_begin(t, 1);
	struct tsx_run r = { 0, 0 };

	n = sample_op(s, n, op_tsx_abort, &r);
	odd = r.odd;
	st = r.last;
	t_metric_dist(t, "xbegin_xabort", s, n, "cycles", "odd_status=%zu env=%s %s " METHOD,
		      odd, plat_env(), spec_overhead_text);
	spec_answer_cost(t, "xbegin_xabort", "TSX abort", s, n);
	t_check(t, odd * 10 <= n, "%zu of %zu aborts were not our XABORT 0xff (last status 0x%x)", odd, n, st);
	spec_budget_note(t);
}

/* ---- verw ---- */

static void op_verw(void *p, size_t i)
{
	(void)i;
	*(size_t *)p += !verw(KERNEL_DS);
}

TEST(spec, verw, .order = 40)
{
	if (!spec_has_verw_clear()) {
		t_skip(t, "%s", spec_no_verw());
		return;
	}
	size_t n = spec_iters(t), notz = 0;
	uint64_t *s = spec_samples(t, n);

	spec_say_env(t);
	spec_measure_overhead();
	spec_budget_begin(t, 1);
	n = sample_op(s, n, op_verw, &notz);
	t_metric_dist(t, "verw_kernel_ds", s, n, "cycles", "selector=0x%x env=%s %s " METHOD,
		      KERNEL_DS, plat_env(), spec_overhead_text);
	spec_answer_cost(t, "verw_kernel_ds", "VERW", s, n);
	t_check(t, notz == 0, "VERW of the kernel data selector 0x%x cleared ZF %zu times (it is writable)",
		KERNEL_DS, notz);
	/* negative control: the code selector is not writable, ZF must be 0 */
	t_check(t, !verw(KERNEL_CS), "control: VERW of the code selector 0x%x set ZF", KERNEL_CS);
	spec_budget_note(t);
}

/* ---- ibpb and l1d_flush: command MSRs, nothing to restore ---- */

struct command_op {
	uint32_t msr;
	uint64_t cmd;
};

static void op_command(void *p, size_t i)
{
	const struct command_op *c = p;

	(void)i;
	wrmsr(c->msr, c->cmd);
}

static void command_msr(struct test_ctx *t, uint32_t msr, uint64_t cmd, const char *what)
{
	size_t n = spec_iters(t);
	uint64_t *s = spec_samples(t, n);

	spec_say_env(t);
	t_diag(t, "MSR 0x%x is a write-only command register: no state to save or restore", msr);
	struct fault_result r = wrmsr_safe(msr, cmd);

	if (!t_check(t, fault_none(r), "WRMSR 0x%x <- 0x%llx faulted (vector %d) although CPUID enumerates it",
		     msr, (unsigned long long)cmd, r.vector))
		return;
	spec_measure_overhead();
	spec_budget_begin(t, 1);
	struct command_op op = { msr, cmd };

	n = sample_op(s, n, op_command, &op);
	t_metric_dist(t, what, s, n, "cycles", "msr=0x%x value=0x%llx env=%s %s " METHOD, msr,
		      (unsigned long long)cmd, plat_env(), spec_overhead_text);
	spec_answer_cost(t, what, msr == MSR_IA32_PRED_CMD ? "IBPB" : "L1D flush", s, n);
	/* negative control for the fault path: a reserved bit must #GP */
	r = wrmsr_safe(msr, 1ull << 63);
	t_check(t, r.vector == X86_TRAP_GP, "control: WRMSR 0x%x with reserved bit 63 gave vector %d, expected #GP (%d)",
		msr, r.vector, X86_TRAP_GP);
	spec_budget_note(t);
}

TEST(spec, ibpb, .order = 50)
{
	if (!spec_has_ibpb()) {
		t_skip(t, "%s", spec_no_ibpb());
		return;
	}
	command_msr(t, MSR_IA32_PRED_CMD, PRED_CMD_IBPB, "pred_cmd_ibpb");
}

TEST(spec, l1d_flush, .order = 60)
{
	if (!plat_cpu_has(X86_FEATURE_FLUSH_L1D)) {
		t_skip(t, "%s", spec_no_l1d());
		return;
	}
	command_msr(t, MSR_IA32_FLUSH_CMD, L1D_FLUSH, "flush_cmd_l1d");
}
