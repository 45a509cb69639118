/* SPDX-License-Identifier: GPL-2.0-only */
/* litmus: WRMSR as the only barrier.
 *
 * SDM vol. 3A 9.3 "Serializing Instructions" (8.3 in editions before
 * 2023) lists WRMSR among the privileged serializing instructions, with a
 * footnote: WRMSR to IA32_TSC_DEADLINE (6E0H) and to the x2APIC MSRs
 * (802H-83FH) is not serializing; the x2APIC chapter ("MSR Access in
 * x2APIC Mode") adds that such a WRMSR "may complete before all preceding
 * stores are globally visible" and that software should put MFENCE or a
 * serializing instruction before it -- Linux's weak_wrmsr_fence() is
 * MFENCE;LFENCE.  AMD serializes every WRMSR.  A serializing instruction
 * drains the store buffer before the next instruction executes, so in SB
 *	A: x=1; WRMSR; r0=y	B: y=1; MFENCE; r1=x
 * r0=0,r1=0 is forbidden if the WRMSR serializes and allowed (store
 * buffering, 9.2.3.4) if it does not.  All of them run with cross
 * resets (each store waits for its line in the store buffer while the
 * load hits: the widest window).  Controls: the same shape with no
 * barrier (a_none_b_mfence; nofence_cross for the _both shape, where both
 * threads execute the WRMSR): their rate is what "never" is judged
 * against (lib/litmus.c, litmus_barrier_verdict); MFENCE in the same
 * placement (mfence_cross) and a WRMSR the SDM calls serializing
 * (IA32_KERNEL_GS_BASE written back with its own value: it exists in
 * every 64-bit CPU, and ringlab never executes SWAPGS) must never show
 * r0=0,r1=0.
 *
 * Every WRMSR writes back the value its MSR already holds on that CPU:
 * nothing to restore (suites/litmus/msr.c). */
#include "suites/litmus/litmus.h"
#include "kernel/test.h"
#include "kernel/platform.h"
#include "lib/litmus.h"
#include "lib/printf.h"
#include "lib/string.h"

struct judged {
	bool ran;
	enum litmus_verdict v;
	uint64_t n, iters, expected_x1000;
	char what[48];
};

/* One WRMSR run.  both=false: A executes the barrier, B MFENCE (the
 * one-sided shape; control a_none_b_mfence).  both=true: both threads
 * execute it, each on its own CPU with its own value (control: nofence).
 * The one-sided shape alone lacks power: with B fenced, r0=0,r1=0 needs
 * A's store to stay buffered through B's whole store-MFENCE-load, and on
 * the AMD EPYC behind this project's build machine the no-barrier
 * control of that shape fired 0-1 times in 20000 iterations while the
 * symmetric one fired 50-240 times; a barrier that does not drain shows
 * in the symmetric shape at the rate SB without a fence does.
 * combined: the verdict over both shapes, printed on the one-sided
 * metric (named without _both) when given. */
static struct judged run_wrmsr(struct test_ctx *t, enum variant va, enum msr_kind k, bool both,
			       const struct litmus_tally *control, bool forbidden,
			       const struct judged *other)
{
	struct judged j = { 0 };
	char why[200];
	const char *no;
	uint64_t v[2] = { 0, 0 };
	unsigned b;

	rl_snprintf(j.what, sizeof(j.what), "%swrmsr_%s%s", va == V_WRMSR ? "" : "mfence_lfence_",
		    lit_msrs[k].tag, both ? "_both" : "");
	no = lit_msr_unusable(k, why, sizeof(why));
	if (!no && !plat_other_cpus(&b, 1))
		no = "needs 2 CPUs";
	if (!no && !lit_msr_value(k, 0, &v[0], why, sizeof(why)))
		no = why;
	if (!no && both && !lit_msr_value(k, b, &v[1], why, sizeof(why)))
		no = why;
	if (no) {
		lit_plan_skip();
		t_diag(t, "litmus.sb.%s: SKIP %s env=%s", j.what, no, plat_env());
		return j;
	}
	struct spec sp = { T_SB, va, both ? va : V_MFENCE, LITMUS_RESET_CROSS, j.what,
			   { SB_RELAXED, forbidden, false },
			   lit_msrs[k].msr, { v[0], v[1] } };
	struct lit *l = NULL;
	bool ran = lit_run_one(t, &sp, &l);

	/* every path: the value must still be there (it is never changed) */
	lit_msr_check_restore(t, k, 0, v[0], j.what);
	if (both)
		lit_msr_check_restore(t, k, b, v[1], j.what);
	if (!ran)
		return j;
	char all[160], cpulist[48], tail[200], comb[120] = "";
	uint64_t n = litmus_count(&l->tally, SB_RELAXED), e;
	char bwhy[120];
	bool balanced = strcmp(litmus_start_verdict(&l->start, bwhy, sizeof(bwhy)), "balanced") == 0;
	enum litmus_verdict vd = litmus_barrier_verdict(&l->tally, SB_RELAXED, control, balanced, &e);
	enum litmus_verdict shown = vd;

	j.ran = true;
	j.v = vd;
	j.n = n;
	j.iters = l->tally.iters;
	j.expected_x1000 = e;
	if (other && other->ran) {
		shown = litmus_verdict_combine(vd, other->v);
		rl_snprintf(comb, sizeof(comb), "shape=%s both=%s ", litmus_verdict_name(vd),
			    litmus_verdict_name(other->v));
	}
	litmus_format(&l->tally, all, sizeof(all));
	lit_cpu_list(l, cpulist, sizeof(cpulist));
	lit_metric_tail(t, l, j.what, tail, sizeof(tail));
	/* value = r0=0,r1=0 count; a=/b= the threads' barriers; control_hits
	 * = the control's r0=0,r1=0 count / its iterations (control: nofence
	 * for _both, a_none_b_mfence otherwise); shape= this shape's verdict
	 * and both= the symmetric one's, when verdict= combines them */
	t_metric_value(t, j.what, (int64_t)n, "count",
		       "iters=%llu verdict=%s %sexpect=%s msr=0x%x a=%s b=%s control_hits=%llu/%llu "
		       "expected_x1000=%llu outcomes=%s invalid=%llu cpus=%s %s",
		       (unsigned long long)l->tally.iters, litmus_verdict_name(shown), comb,
		       forbidden ? "forbidden" : "open", (unsigned)lit_msrs[k].msr,
		       va == V_WRMSR ? "wrmsr" : "mfence;lfence;wrmsr",
		       both ? (va == V_WRMSR ? "wrmsr" : "mfence;lfence;wrmsr") : "mfence",
		       (unsigned long long)(control ? litmus_count(control, SB_RELAXED) : 0),
		       (unsigned long long)(control ? control->iters : 0), (unsigned long long)e, all,
		       (unsigned long long)l->tally.invalid, cpulist, tail);
	if (!both)	/* the summary, once per MSR, on the one-sided metric */
		t_diag(t, "WRMSR to %s (0x%x)%s on this CPU: %s: (0,0) observed %llu of %llu with B fenced (control predicts %llu.%03llu)%s, by the SB test env=%s%s%s",
		       lit_msrs[k].name, (unsigned)lit_msrs[k].msr, va == V_WRMSR ? "" : " after MFENCE;LFENCE",
		       litmus_verdict_name(shown), (unsigned long long)n, (unsigned long long)l->tally.iters,
		       (unsigned long long)(e / 1000), (unsigned long long)(e % 1000),
		       other && other->ran ? "" : "; no symmetric run", plat_env(),
		       plat_env_note()[0] ? "; " : "", plat_env_note());
	if (!both && va == V_WRMSR) {
		char from[96];

		rl_snprintf(from, sizeof(from), "litmus.sb.%s", j.what);
		t_answer(t, ANSWER_WRMSR_FENCE, from,
			 control ? (litmus_count(control, SB_RELAXED) ? T_CONTROL_FIRED : T_CONTROL_NOT_OBSERVED) :
				   T_CONTROL_NONE,
			 "WRMSR to %s alone as the barrier: %s by the SB test ((0,0) %llu of %llu).",
			 lit_msrs[k].name, litmus_verdict_name(shown), (unsigned long long)n,
			 (unsigned long long)l->tally.iters);
	}
	if (other && other->ran)
		t_diag(t, "  and %llu of %llu with the WRMSR on both sides (control predicts %llu.%03llu) env=%s",
		       (unsigned long long)other->n, (unsigned long long)other->iters,
		       (unsigned long long)(other->expected_x1000 / 1000),
		       (unsigned long long)(other->expected_x1000 % 1000), plat_env());
	if (forbidden)
		t_check(t, n == 0, "%s: r0=0,r1=0 observed %llu times in %llu iterations: %s env=%s", j.what,
			(unsigned long long)n, (unsigned long long)l->tally.iters,
			va == V_WRMSR ? "a WRMSR the SDM calls serializing did not drain the store buffer"
				      : "MFENCE before the WRMSR did not order the store before the load",
			plat_env());
	return j;
}

void lit_sb_wrmsr(struct test_ctx *t, const struct litmus_tally *cs, const struct litmus_tally *ca)
{
	static const struct { enum variant va; enum msr_kind k; bool forbidden, sym; } w[] = {
		{ V_WRMSR, M_TSC_DEADLINE, false, true },
		{ V_WRMSR, M_X2APIC_TPR, false, true },
		{ V_WRMSR, M_SERIALIZING, true, true },
		{ V_MFLF_WRMSR, M_TSC_DEADLINE, true, false },
		{ V_MFLF_WRMSR, M_X2APIC_TPR, true, false },
	};

	for (unsigned i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		struct judged none = { 0 }, s = none;

		if (w[i].sym)
			s = run_wrmsr(t, w[i].va, w[i].k, true, cs, w[i].forbidden, NULL);
		(void)run_wrmsr(t, w[i].va, w[i].k, false, ca, w[i].forbidden,
				w[i].sym ? &s : NULL);
	}
}
