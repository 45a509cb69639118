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
 * load hits: the widest window).
 *
 * But a WRMSR that merely takes long stalls the load behind it, and a
 * store that drains within that stall is visible before the load
 * whether the WRMSR serializes or not.  So each WRMSR's control is a
 * delay of its own length in the same shape (delay_<msr>): the load's
 * address waits for a chain of dependent multiplies sized from the
 * WRMSR's measured cost (back to back, no stores pending: what it costs
 * the instruction after it), which drains nothing.  "Serializing" needs
 * the delay to still show r0=0,r1=0 often enough to predict at least 3
 * in the WRMSR run's iterations, and the WRMSR run to show none
 * (lib/litmus.c, litmus_wrmsr_verdict); where the delay hides it as
 * well, the verdict is not-distinguished-from-delay.  The x2APIC ICR
 * (seed 000's question: the IPI a store must precede) sends this CPU an
 * IPI on the doorbell vector, with interrupts off until the iteration's
 * load is done; its own late-store control (late_x2apic_icr) executes
 * the same WRMSR before the store, where it cannot order anything: if
 * the IPI or the WRMSR's side effects hid the outcome, that control
 * would not fire.  MFENCE;LFENCE;WRMSR and a WRMSR the SDM calls
 * serializing (IA32_KERNEL_GS_BASE written back with its own value: it
 * exists in every 64-bit CPU, and ringlab never executes SWAPGS) must
 * never show r0=0,r1=0.
 *
 * Every WRMSR writes back the value its MSR already holds on that CPU:
 * nothing to restore (suites/litmus/msr.c). */
#include "suites/litmus/litmus.h"
#include "kernel/test.h"
#include "kernel/platform.h"
#include "lib/litmus.h"
#include "lib/printf.h"
#include "lib/stats.h"
#include "lib/string.h"

/* ---- sizing the delay: the WRMSR's cost and a link of the chain ---- */

#define CHAIN_UNIT	64	/* links per timed chain operation */
#define SIZE_U		8	/* U/2U: 8 and 16 operations a trial */
#define SIZE_TRIALS	9	/* quick without iters=: 5 */
#define DELAY_MAX_STEPS	(1u << 20)	/* ~3M cycles: a WRMSR that is a VM exit */

struct wrop {
	uint32_t msr, lo, hi;
};

static uint64_t time_wrmsr(unsigned count, void *arg)
{
	const struct wrop *w = arg;
	uint64_t t0 = lfence_rdtsc();

	for (unsigned i = 0; i < count; i++)
		__asm__ volatile("wrmsr" : : "c"(w->msr), "a"(w->lo), "d"(w->hi) : "memory");
	return lfence_rdtsc() - t0;
}

/* the chain of harness.c's V_DELAY body, CHAIN_UNIT links an operation,
 * each operation's chain continuing the last one's */
static uint64_t time_chain(unsigned count, void *arg)
{
	uint64_t z = 0, t0 = lfence_rdtsc();

	(void)arg;
	for (unsigned i = 0; i < count; i++) {
		uint64_t n = CHAIN_UNIT;

		__asm__ volatile("1: imulq $1, %[z], %[z]\n\tdecq %[n]\n\tjnz 1b"
				 : [z] "+r"(z), [n] "+r"(n) : : "cc");
	}
	__asm__ volatile("" : : "r"(z));
	return lfence_rdtsc() - t0;
}

static uint64_t median_u2u(const struct test_ctx *t, t_timed_fn fn, void *arg)
{
	uint64_t s[SIZE_TRIALS];
	size_t k = t_u2u(fn, arg, SIZE_U, t_budgeted(t) ? 5 : SIZE_TRIALS, s, NULL);

	if (!k)
		return 0;
	sort_u64(s, k);
	return s[(k - 1) / 2];
}

/* How one MSR's delay is sized: the WRMSR's cost on CPU 0 and the
 * chain's links that take as long (at least 1). */
struct sizing {
	uint64_t wrmsr_cycles, link_x64, steps, delay_cycles;
};

static void size_delay(const struct test_ctx *t, enum msr_kind k, uint64_t v, struct sizing *z)
{
	struct wrop w = { lit_msrs[k].msr, (uint32_t)v, (uint32_t)(v >> 32) };

	z->wrmsr_cycles = median_u2u(t, time_wrmsr, &w);
	z->link_x64 = median_u2u(t, time_chain, NULL);
	if (!z->link_x64)
		z->link_x64 = CHAIN_UNIT;
	z->steps = (z->wrmsr_cycles * CHAIN_UNIT + z->link_x64 - 1) / z->link_x64;
	if (z->steps < 1)
		z->steps = 1;
	if (z->steps > DELAY_MAX_STEPS)
		z->steps = DELAY_MAX_STEPS;
	z->delay_cycles = z->steps * z->link_x64 / CHAIN_UNIT;
}

/* ---- one MSR's runs ---- */

enum { ONE_SIDED, BOTH };

struct family {
	enum msr_kind k;
	bool icr;			/* the x2APIC ICR: interrupts off, late-store control */
	struct sizing z;
	struct lit_result delay[2], late[2], wr[2];
	enum litmus_verdict v[2];
	uint64_t e[2];			/* the weaker control's prediction, x1000 */
	int lim[2];			/* 0: the delay is the weaker, 1: the late store */
	char dname[2][48], lname[2][48], wname[2][48];
};

static const char *shape_b(enum variant va, bool both)
{
	if (!both)
		return "mfence";
	return va == V_WRMSR ? "wrmsr" : va == V_DELAY ? "delay" : va == V_LATE_WRMSR ? "wrmsr;store" :
									"mfence;lfence;wrmsr";
}

static const char *shape_a(enum variant va)
{
	return va == V_WRMSR ? "wrmsr" : va == V_DELAY ? "delay" : va == V_LATE_WRMSR ? "wrmsr;store" :
								     "mfence;lfence;wrmsr";
}

/* Why the shape cannot run (NULL if it can), with the values to write
 * back on CPU 0 and (both) on the other CPU. */
static const char *shape_usable(enum msr_kind k, bool both, uint64_t *v, char *why, size_t size)
{
	unsigned b;
	const char *no = lit_msr_unusable(k, why, size);

	if (!no && !plat_other_cpus(&b, 1))
		no = "needs 2 CPUs";
	if (!no && !lit_msr_value(k, 0, &v[0], why, size))
		no = why;
	if (!no && both && !lit_msr_value(k, b, &v[1], why, size))
		no = why;
	return no;
}

/* One SB run of the family: va in thread A, B fenced by MFENCE or (both)
 * running the same.  Returns the run (NULL: it did not run). */
static struct lit *family_run(struct test_ctx *t, struct family *f, enum variant va, bool both,
			      bool control, bool forbidden, const char *what, const uint64_t *v)
{
	unsigned b = 0;
	struct spec sp = { T_SB, va, both ? va : V_MFENCE, LITMUS_RESET_CROSS, what,
			   { SB_RELAXED, forbidden, control },
			   lit_msrs[f->k].msr, { v[0], v[1] }, f->z.steps, f->icr };
	struct lit *l = NULL;
	bool ran = lit_run_one(t, &sp, &l);

	/* every path: the value must still be there (it is never changed) */
	if (va != V_DELAY) {
		lit_msr_check_restore(t, f->k, 0, v[0], what);
		if (both && plat_other_cpus(&b, 1))
			lit_msr_check_restore(t, f->k, b, v[1], what);
	}
	return ran ? l : NULL;
}

/* A control run (the delay or the late store): its metric.  Quick
 * without iters=, once the case's sample budget is spent, a control is
 * not run: every run completes at least one iteration, a starved one
 * (QEMU TCG on a loaded host: ~10 ms an iteration) only that, and a
 * control of one iteration predicts nothing; the WRMSR run it judges
 * says inconclusive. */
static void control_run(struct test_ctx *t, struct family *f, enum variant va, bool both,
			const uint64_t *v, struct lit_result *res, const char *what)
{
	lit_result_of(NULL, res);
	if (lit_plan_spent(t)) {
		lit_plan_skip();
		t_diag(t, "litmus.sb.%s: SKIP the quick sample budget is spent (a control of one iteration predicts nothing) env=%s",
		       what, plat_env());
		t_metric_not_run(t, what, "count", "budget", "iters=0 verdict=not-run msr=0x%x a=%s b=%s",
				 (unsigned)lit_msrs[f->k].msr, shape_a(va), shape_b(va, both));
		return;
	}
	struct lit *l = family_run(t, f, va, both, true, false, what, v);

	lit_result_of(l, res);
	if (!l)
		return;
	char all[80], tail[200];
	uint64_t n = litmus_count(&l->tally, SB_RELAXED);

	litmus_format(&l->tally, all, sizeof(all));
	lit_metric_tail(t, l, what, tail, sizeof(tail));
	/* value = r0=0,r1=0 count; steps=/delay_cycles= the chain and what
	 * it takes (wrmsr_cycles= the WRMSR it matches) */
	t_metric_value(t, what, (int64_t)n, "count",
		       "iters=%llu verdict=allowed-control msr=0x%x a=%s b=%s steps=%llu delay_cycles=%llu wrmsr_cycles=%llu outcomes=%s invalid=%llu %s",
		       (unsigned long long)l->tally.iters, (unsigned)lit_msrs[f->k].msr, shape_a(va),
		       shape_b(va, both), (unsigned long long)(va == V_DELAY ? f->z.steps : 0),
		       (unsigned long long)(va == V_DELAY ? f->z.delay_cycles : 0),
		       (unsigned long long)f->z.wrmsr_cycles, all, (unsigned long long)l->tally.invalid, tail);
	/* quick: the metric's value= says it (each line is ~10 ms of
	 * console under a KVM that emulates ring 0, and the family has up
	 * to 10 controls) */
	if (!t_budgeted(t))
		t_diag(t, "%s: %s control %s (r0=0,r1=0 %llu of %llu) env=%s", what,
		       va == V_DELAY ? "delay-matched" : "late-store", n ? "FIRED" : "did not fire",
		       (unsigned long long)n, (unsigned long long)l->tally.iters, plat_env());
}

/* The WRMSR run of one shape, judged against this shape's controls. */
static void wrmsr_run(struct test_ctx *t, struct family *f, int sh, const uint64_t *v,
		      bool forbidden)
{
	bool both = sh == BOTH;
	const char *what = f->wname[sh];
	struct lit *l = family_run(t, f, V_WRMSR, both, false, forbidden, what, v);

	lit_result_of(l, &f->wr[sh]);
	if (!l)
		return;
	const struct lit_result *d = &f->delay[sh], *lt = &f->late[sh];

	f->v[sh] = litmus_wrmsr_verdict(&l->tally, lit_balanced(l), d->ran ? &d->tally : NULL, d->balanced,
					f->icr ? (lt->ran ? &lt->tally : NULL) : NULL, lt->balanced && f->icr,
					SB_RELAXED, &f->e[sh], &f->lim[sh]);
	if (f->icr && !lt->ran)
		f->v[sh] = f->v[sh] == LITMUS_V_NOT_OBSERVED ? LITMUS_V_INCONCLUSIVE : f->v[sh];
	enum litmus_verdict shown = f->v[sh];
	char all[80], tail[200], comb[96] = "";
	const struct lit_result *ctl = f->lim[sh] ? lt : d;
	uint64_t n = litmus_count(&l->tally, SB_RELAXED);

	if (!both && f->wr[BOTH].ran) {
		shown = litmus_verdict_combine(f->v[sh], f->v[BOTH]);
		rl_snprintf(comb, sizeof(comb), "shape=%s both=%s ", litmus_verdict_name(f->v[sh]),
			    litmus_verdict_name(f->v[BOTH]));
	}
	litmus_format(&l->tally, all, sizeof(all));
	lit_metric_tail(t, l, what, tail, sizeof(tail));
	/* value = r0=0,r1=0 count; control= the control that sets the
	 * power (delay: this shape's delay_<msr>; late: for the ICR, its
	 * late_<msr> when that is the weaker of the two) and control_hits=
	 * its count / iterations (the metric line's key=value part is at
	 * most 400 characters: names are short);
	 * expected_x1000= what it predicts in iters=; shape= this shape's
	 * verdict and both= the symmetric one's, when verdict= combines them */
	t_metric_value(t, what, (int64_t)n, "count",
		       "iters=%llu verdict=%s %sexpect=%s msr=0x%x a=wrmsr b=%s control=%s control_hits=%llu/%llu "
		       "expected_x1000=%llu outcomes=%s invalid=%llu %s",
		       (unsigned long long)l->tally.iters, litmus_verdict_name(shown), comb,
		       forbidden ? "forbidden" : "open", (unsigned)lit_msrs[f->k].msr, shape_b(V_WRMSR, both),
		       f->lim[sh] ? "late" : "delay",
		       (unsigned long long)(ctl->ran ? litmus_count(&ctl->tally, SB_RELAXED) : 0),
		       (unsigned long long)(ctl->ran ? ctl->tally.iters : 0), (unsigned long long)f->e[sh], all,
		       (unsigned long long)l->tally.invalid, tail);
	if (!both)	/* the summary, once per MSR, on the one-sided metric */
		t_diag(t, "WRMSR to %s (0x%x) on this CPU: %s: (0,0) observed %llu of %llu with B fenced (a %llu-cycle delay predicts %llu.%03llu)%s, by the SB test env=%s%s%s",
		       lit_msrs[f->k].name, (unsigned)lit_msrs[f->k].msr, litmus_verdict_name(shown),
		       (unsigned long long)n, (unsigned long long)l->tally.iters,
		       (unsigned long long)f->z.delay_cycles, (unsigned long long)(f->e[sh] / 1000),
		       (unsigned long long)(f->e[sh] % 1000),
		       f->wr[BOTH].ran ? "" : "; no symmetric run", plat_env(),
		       plat_env_note()[0] ? "; " : "", plat_env_note());
	if (!both && f->wr[BOTH].ran)
		t_diag(t, "  and %llu of %llu with the WRMSR on both sides (a delay predicts %llu.%03llu) env=%s",
		       (unsigned long long)litmus_count(&f->wr[BOTH].tally, SB_RELAXED),
		       (unsigned long long)f->wr[BOTH].tally.iters, (unsigned long long)(f->e[BOTH] / 1000),
		       (unsigned long long)(f->e[BOTH] % 1000), plat_env());
	if (forbidden)
		t_check(t, n == 0, "%s: r0=0,r1=0 observed %llu times in %llu iterations: %s env=%s", what,
			(unsigned long long)n, (unsigned long long)l->tally.iters,
			"a WRMSR the SDM calls serializing did not drain the store buffer", plat_env());
}

/* MFENCE;LFENCE;WRMSR, one-sided: forbidden, against the no-barrier
 * control of the shape (a_none_b_mfence). */
static void mflf_run(struct test_ctx *t, struct family *f, const struct litmus_tally *ca)
{
	char what[48], why[200], all[80], tail[200];
	uint64_t v[2] = { 0, 0 }, e;

	rl_snprintf(what, sizeof(what), "mfence_lfence_wrmsr_%s", lit_msrs[f->k].tag);
	const char *no = shape_usable(f->k, false, v, why, sizeof(why));

	if (no) {
		lit_plan_skip();
		t_diag(t, "litmus.sb.%s: SKIP %s env=%s", what, no, plat_env());
		return;
	}
	struct lit *l = family_run(t, f, V_MFLF_WRMSR, false, false, true, what, v);

	if (!l)
		return;
	uint64_t n = litmus_count(&l->tally, SB_RELAXED);
	enum litmus_verdict vd = litmus_barrier_verdict(&l->tally, SB_RELAXED, ca, lit_balanced(l), &e);

	litmus_format(&l->tally, all, sizeof(all));
	lit_metric_tail(t, l, what, tail, sizeof(tail));
	t_metric_value(t, what, (int64_t)n, "count",
		       "iters=%llu verdict=%s expect=forbidden msr=0x%x a=mfence;lfence;wrmsr b=mfence control=a_none_b_mfence control_hits=%llu/%llu "
		       "expected_x1000=%llu outcomes=%s invalid=%llu %s",
		       (unsigned long long)l->tally.iters, litmus_verdict_name(vd), (unsigned)lit_msrs[f->k].msr,
		       (unsigned long long)(ca ? litmus_count(ca, SB_RELAXED) : 0),
		       (unsigned long long)(ca ? ca->iters : 0), (unsigned long long)e, all,
		       (unsigned long long)l->tally.invalid, tail);
	if (!t_budgeted(t))	/* quick: the metric says it */
		t_diag(t, "WRMSR to %s (0x%x) after MFENCE;LFENCE on this CPU: %s: (0,0) observed %llu of %llu with B fenced (control predicts %llu.%03llu), by the SB test env=%s",
		       lit_msrs[f->k].name, (unsigned)lit_msrs[f->k].msr, litmus_verdict_name(vd),
		       (unsigned long long)n, (unsigned long long)l->tally.iters,
		       (unsigned long long)(e / 1000), (unsigned long long)(e % 1000), plat_env());
	t_check(t, n == 0, "%s: r0=0,r1=0 observed %llu times in %llu iterations: %s env=%s", what,
		(unsigned long long)n, (unsigned long long)l->tally.iters,
		"MFENCE before the WRMSR did not order the store before the load", plat_env());
}

/* The wrmsr_fence answer's claim for one MSR: the WRMSR alone as SB's
 * barrier, resting on one shape's run -- one that saw r0=0,r1=0 if any
 * did, else the symmetric shape if its start was balanced (the
 * one-sided shape alone lacks power: with B fenced, r0=0,r1=0 needs A's
 * store to stay buffered through B's whole store-MFENCE-load), else the
 * one-sided.  Its control is that shape's delay (for the ICR, the weaker
 * of the delay and the late store, litmus_wrmsr_verdict's limit), with
 * the expected sightings its rate predicts in the run's n and the floor
 * the delay's length: the control shows r0=0,r1=0 survives a stall that
 * long. */
static void family_claim(struct test_ctx *t, struct family *f)
{
	int sh = -1;

	for (int i = BOTH; i >= ONE_SIDED && sh < 0; i--)
		if (f->wr[i].ran && litmus_count(&f->wr[i].tally, SB_RELAXED))
			sh = i;
	for (int i = BOTH; i >= ONE_SIDED && sh < 0; i--)
		if (f->wr[i].ran && f->wr[i].balanced)
			sh = i;
	for (int i = BOTH; i >= ONE_SIDED && sh < 0; i--)
		if (f->wr[i].ran)
			sh = i;
	if (sh < 0)
		return;
	const struct lit_result *ctl = f->lim[sh] ? &f->late[sh] : &f->delay[sh];
	const char *cname = f->lim[sh] ? f->lname[sh] : f->dname[sh];
	struct claim cl;
	char from[64], floor[48], label[64];

	litmus_claim(&cl, &f->wr[sh].tally, f->wr[sh].bal != LITMUS_UNBALANCED, SB_RELAXED,
		     ctl->ran ? &ctl->tally : NULL, ctl->balanced, cname);
	if (f->lim[sh])
		rl_snprintf(floor, sizeof(floor), "the store after the WRMSR");
	else
		rl_snprintf(floor, sizeof(floor), "a %llu-cycle stall", (unsigned long long)f->z.delay_cycles);
	cl.floor = floor;
	/* the verdict's word only where the claim may carry it */
	label[0] = '\0';
	if (cl.seen)
		rl_snprintf(label, sizeof(label), ", not serializing");
	else if (claim_strength(&cl) == CLAIM_NOT_OBSERVED && f->v[sh] == LITMUS_V_NOT_OBSERVED)
		rl_snprintf(label, sizeof(label), ", serializing");
	else if (f->v[sh] == LITMUS_V_DELAY_ALIKE)
		rl_snprintf(label, sizeof(label), ", like a %llu-cycle delay",
			    (unsigned long long)f->z.delay_cycles);
	else if (f->wr[sh].bal == LITMUS_UNBALANCED)
		rl_snprintf(label, sizeof(label), ", start unbalanced");
	rl_snprintf(from, sizeof(from), "litmus.sb.%s", f->wname[sh]);
	t_answer_claim(t, ANSWER_WRMSR_FENCE, from, &cl, "%s WRMSR alone, SB %s%s, (0,0)",
		       lit_msrs[f->k].brief, sh == BOTH ? "both" : "one-sided", label);
}

static void family(struct test_ctx *t, enum msr_kind k, bool forbidden, bool mflf,
		   const struct litmus_tally *ca)
{
	static struct family fam;
	struct family *f = &fam;
	uint64_t v[2][2] = { { 0, 0 }, { 0, 0 } };
	const char *no[2];
	char why[2][200];

	memset(f, 0, sizeof(*f));
	f->k = k;
	f->icr = k == M_X2APIC_ICR;
	for (int sh = ONE_SIDED; sh <= BOTH; sh++) {
		const char *suffix = sh == BOTH ? "_both" : "";

		rl_snprintf(f->wname[sh], sizeof(f->wname[sh]), "wrmsr_%s%s", lit_msrs[k].tag, suffix);
		rl_snprintf(f->dname[sh], sizeof(f->dname[sh]), "litmus.sb.delay_%s%s", lit_msrs[k].tag, suffix);
		rl_snprintf(f->lname[sh], sizeof(f->lname[sh]), "litmus.sb.late_%s%s", lit_msrs[k].tag, suffix);
		no[sh] = shape_usable(k, sh == BOTH, v[sh], why[sh], sizeof(why[sh]));
	}
	if (!no[ONE_SIDED] || !no[BOTH])
		size_delay(t, k, no[ONE_SIDED] ? v[BOTH][0] : v[ONE_SIDED][0], &f->z);
	/* the symmetric shape first (the one-sided metric's verdict=
	 * combines both), each shape's controls before its WRMSR run */
	for (int sh = BOTH; sh >= ONE_SIDED; sh--) {
		bool both = sh == BOTH;

		if (no[sh]) {
			unsigned skipped = f->icr ? 3 : 2;

			while (skipped--)
				lit_plan_skip();
			t_diag(t, "%s: SKIP %s env=%s", f->dname[sh], no[sh], plat_env());
			if (f->icr)
				t_diag(t, "%s: SKIP %s env=%s", f->lname[sh], no[sh], plat_env());
			t_diag(t, "litmus.sb.%s: SKIP %s env=%s", f->wname[sh], no[sh], plat_env());
			continue;
		}
		control_run(t, f, V_DELAY, both, v[sh], &f->delay[sh], f->dname[sh] + strlen("litmus.sb."));
		if (f->icr)
			control_run(t, f, V_LATE_WRMSR, both, v[sh], &f->late[sh],
				    f->lname[sh] + strlen("litmus.sb."));
		wrmsr_run(t, f, sh, v[sh], forbidden);
	}
	/* the answer is about the MSRs the SDM exempts; KERNEL_GS_BASE is
	 * the serializing reference, in its metrics */
	if (k != M_SERIALIZING)
		family_claim(t, f);
	if (mflf)
		mflf_run(t, f, ca);
}

void lit_sb_wrmsr(struct test_ctx *t, const struct litmus_tally *ca)
{
	static const struct { enum msr_kind k; bool forbidden, mflf; } w[] = {
		{ M_TSC_DEADLINE, false, true },
		{ M_X2APIC_TPR, false, true },
		{ M_X2APIC_ICR, false, true },
		{ M_SERIALIZING, true, false },
	};

	for (unsigned i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		family(t, w[i].k, w[i].forbidden, w[i].mflf, ca);
}
