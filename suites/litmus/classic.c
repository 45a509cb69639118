/* SPDX-License-Identifier: GPL-2.0-only */
/* litmus: the classic tests -- SB (no fence, MFENCE, LOCKed, XCHG, and
 * the cross-reset placement with its own controls), MP, MP
 * with MOVNTI data, IRIW -- each with its negative control. */
#include "suites/litmus/litmus.h"
#include "kernel/test.h"
#include "kernel/platform.h"
#include "lib/litmus.h"
#include "lib/printf.h"
#include "lib/string.h"

/* The classic tests: a forbidden outcome seen even once fails the case.
 * *res (when given) gets what the run left for the answer's claims. */
static bool run_litmus(struct test_ctx *t, enum test test, enum variant v, enum variant vb,
		       enum litmus_reset reset, const char *what, struct outcome_def d,
		       struct lit_result *res)
{
	struct spec sp = { test, v, vb, reset, what, d, 0, { 0, 0 }, 0, false };
	struct lit *l = NULL;

	if (res)
		lit_result_of(NULL, res);
	if (!lit_run_one(t, &sp, &l))
		return false;
	char name[64], all[160], cpulist[48], tail[200];
	uint64_t n = litmus_count(&l->tally, d.outcome);

	litmus_outcome_name(d.outcome, l->tally.nregs, name, sizeof(name));
	litmus_format(&l->tally, all, sizeof(all));
	lit_cpu_list(l, cpulist, sizeof(cpulist));
	lit_metric_tail(t, l, what, tail, sizeof(tail));
	t_metric_value(t, what, (int64_t)n, "count",
		       "outcome=%s iters=%llu verdict=%s outcomes=%s invalid=%llu cpus=%s skew_max=%u %s",
		       name, (unsigned long long)l->tally.iters,
		       d.forbidden ? "forbidden" : d.control ? "allowed-control" : "allowed",
		       all, (unsigned long long)l->tally.invalid, cpulist, SKEW_MAX, tail);
	if (res)
		lit_result_of(l, res);
	/* quick without iters=: a control the budget cut short says so */
	bool cut = t_budgeted(t) && lit_cut(l);

	if (d.forbidden)
		t_check(t, n == 0, "%s: forbidden outcome %s observed %llu times in %llu iterations env=%s",
			what, name, (unsigned long long)n, (unsigned long long)l->tally.iters, plat_env());
	else if (d.control)
		t_diag(t, "%s: negative control %s (%s seen %llu times in %llu iterations%s) env=%s", what,
		       n ? "FIRED" : cut ? "not observed" : "did not fire", name,
		       (unsigned long long)n, (unsigned long long)l->tally.iters,
		       !n && cut ? "; cut short by the quick budget: no verdict" : "", plat_env());
	else
		t_diag(t, "%s: allowed outcome %s seen %llu times in %llu iterations env=%s", what, name,
		       (unsigned long long)n, (unsigned long long)l->tally.iters, plat_env());
	return true;
}

/* One claim of the litmus answer: run `what` of case `c`, its outcome
 * `o` ("(0,0)"), and the control of the same shape, where the outcome
 * must show (ctl; NULL with cname NULL: the run is itself an allowed
 * outcome, no control applies).  x86-TSO forbids the outcome in
 * `forbidden` runs: the word "forbidden" is printed only where the claim
 * is the strong negative (lib/claims.h), "FORBIDDEN, seen" where it was
 * seen.  A run whose start was not balanced says so; its "not seen"
 * counts no samples (litmus_claim).  Expected sightings: the control's
 * count in its own balanced run times this run's n over the control's
 * iterations; the floor is that count. */
static void litmus_claim_of(struct test_ctx *t, const char *c, const char *what, const char *label,
			    const char *o, unsigned outcome, bool forbidden,
			    const struct lit_result *run, const struct lit_result *ctl, const char *cname)
{
	struct claim cl;
	char from[96], floor[64] = "", tag[40] = "";

	if (!run->ran)
		return;
	/* a run too short to judge its start has fewer samples than any
	 * claim needs: its words say "too few" with its real n */
	litmus_claim(&cl, &run->tally, run->bal != LITMUS_UNBALANCED, outcome,
		     ctl && ctl->ran ? &ctl->tally : NULL, ctl && ctl->balanced, cname);
	if (ctl && ctl->ran) {
		rl_snprintf(floor, sizeof(floor), "%llu of %llu", (unsigned long long)litmus_count(&ctl->tally, outcome),
			    (unsigned long long)ctl->tally.iters);
		cl.floor = floor;
	}
	if (cl.seen && forbidden)
		rl_snprintf(tag, sizeof(tag), " FORBIDDEN, seen");
	else if (forbidden && claim_strength(&cl) == CLAIM_NOT_OBSERVED)
		rl_snprintf(tag, sizeof(tag), " forbidden");
	rl_snprintf(from, sizeof(from), "litmus.%s.%s", c, what);
	t_answer_claim(t, ANSWER_LITMUS, from, &cl, "%s %s%s%s%s", label, o, tag,
		       run->bal == LITMUS_UNBALANCED ? ", start unbalanced" : "",
		       ctl && ctl->ran && ctl->bal == LITMUS_UNBALANCED && !cl.seen ?
			       " (control's start unbalanced)" : "");
}

TEST(litmus, sb, .order = 10, .budget_ms = 120000)
{
	struct lit_result nofence, mfence, cross, mfence_cross, asym;

	/* 7 here, the WRMSR family (lit_sb_wrmsr) in ring 0 only: the
	 * hosted build's classic runs keep their share of the budget */
	lit_plan(7 + (plat_ring0() ? LIT_WRMSR_RUNS : 0));
	/* the classic variants, balanced start with own resets */
	run_litmus(t, T_SB, V_NOFENCE, V_NOFENCE, LITMUS_RESET_OWN, "nofence", (struct outcome_def){ SB_RELAXED, false, true }, &nofence);
	run_litmus(t, T_SB, V_MFENCE, V_NOFENCE, LITMUS_RESET_OWN, "mfence", (struct outcome_def){ SB_RELAXED, true, false }, &mfence);
	run_litmus(t, T_SB, V_LOCKED, V_NOFENCE, LITMUS_RESET_OWN, "locked", (struct outcome_def){ SB_RELAXED, true, false }, NULL);
	run_litmus(t, T_SB, V_XCHG, V_NOFENCE, LITMUS_RESET_OWN, "xchg", (struct outcome_def){ SB_RELAXED, true, false }, NULL);
	/* The WRMSR family and its controls, with cross resets:
	 * each store has to fetch its line back while the load hits, so a
	 * barrier that does not drain the store buffer shows at the highest
	 * rate.  nofence_cross: the control of the symmetric (_both) shape;
	 * a_none_b_mfence: of the one-sided shape; mfence_cross: the
	 * forbidden reference in the same placement. */
	run_litmus(t, T_SB, V_NOFENCE, V_NOFENCE, LITMUS_RESET_CROSS, "nofence_cross",
		   (struct outcome_def){ SB_RELAXED, false, true }, &cross);
	run_litmus(t, T_SB, V_MFENCE, V_NOFENCE, LITMUS_RESET_CROSS, "mfence_cross",
		   (struct outcome_def){ SB_RELAXED, true, false }, &mfence_cross);
	run_litmus(t, T_SB, V_NOFENCE, V_MFENCE, LITMUS_RESET_CROSS, "a_none_b_mfence",
		   (struct outcome_def){ SB_RELAXED, false, true }, &asym);
	/* the litmus answer: SB without and with MFENCE in each placement,
	 * each fenced shape against its own no-fence control */
	litmus_claim_of(t, "sb", "nofence", "SB nofence", "(0,0)", SB_RELAXED, false, &nofence, NULL, NULL);
	litmus_claim_of(t, "sb", "mfence", "SB mfence", "(0,0)", SB_RELAXED, true, &mfence, &nofence,
			"litmus.sb.nofence");
	litmus_claim_of(t, "sb", "nofence_cross", "SB nofence_cross", "(0,0)", SB_RELAXED, false, &cross,
			NULL, NULL);
	litmus_claim_of(t, "sb", "mfence_cross", "SB mfence_cross", "(0,0)", SB_RELAXED, true,
			&mfence_cross, &cross, "litmus.sb.nofence_cross");
	/* a control's rate counts only from a balanced run */
	lit_sb_wrmsr(t, asym.balanced ? &asym.tally : NULL);
	lit_plan_note(t);
}

TEST(litmus, mp, .order = 20)
{
	lit_plan(2);
	run_litmus(t, T_MP, V_WB, V_NOFENCE, LITMUS_RESET_OWN, "wb", (struct outcome_def){ MP_STALE, true, false }, NULL);
	run_litmus(t, T_MP, V_CONTROL, V_NOFENCE, LITMUS_RESET_OWN, "swapped_reads", (struct outcome_def){ MP_STALE, false, true }, NULL);
	lit_plan_note(t);
}

TEST(litmus, mp_nt, .order = 30)
{
	char lacks[200];

	if (!plat_cpu_has(X86_FEATURE_SSE2)) {
		x86_feature_absent_why(X86_FEATURE_SSE2, "MOVNTI (SSE2)", lacks, sizeof(lacks));
		t_skip(t, "%s", lacks);
		return;
	}
	struct lit_result nofence, sfence;

	lit_plan(2);
	run_litmus(t, T_MP_NT, V_NT_NOFENCE, V_NOFENCE, LITMUS_RESET_OWN, "nofence", (struct outcome_def){ MP_STALE, false, false }, &nofence);
	run_litmus(t, T_MP_NT, V_NT_SFENCE, V_NOFENCE, LITMUS_RESET_OWN, "sfence", (struct outcome_def){ MP_STALE, true, false }, &sfence);
	/* SFENCE's "never" against the same shape without it (under QEMU
	 * TCG MOVNTI is an ordinary store and that never fires) */
	litmus_claim_of(t, "mp_nt", "nofence", "MP+MOVNTI nofence", "(1,0)", MP_STALE, false, &nofence, NULL,
			NULL);
	litmus_claim_of(t, "mp_nt", "sfence", "MP+MOVNTI sfence", "(1,0)", MP_STALE, true, &sfence, &nofence,
			"litmus.mp_nt.nofence");
	lit_plan_note(t);
}

/* quick: 12 ms of samples, 6 ms a variant (four threads meet at a barrier
 * every iteration: under an emulator on fewer host cores than vCPUs each
 * iteration waits for host time slices, and its control has never fired
 * there; on hardware 2000 iterations take a few ms) */
TEST(litmus, iriw, .order = 40, .quick_budget_ms = 12)
{
	unsigned others[3];

	if (plat_other_cpus(others, 3) < 3) {
		t_skip(t, "IRIW needs 4 CPUs, %u online", plat_other_cpus(others, 3) + 1);
		return;
	}
	lit_plan(2);
	run_litmus(t, T_IRIW, V_PLAIN, V_NOFENCE, LITMUS_RESET_OWN, "plain", (struct outcome_def){ IRIW_SPLIT, true, false }, NULL);
	run_litmus(t, T_IRIW, V_CONTROL, V_NOFENCE, LITMUS_RESET_OWN, "swapped_reads", (struct outcome_def){ IRIW_SPLIT, false, true }, NULL);
	lit_plan_note(t);
}
