/* SPDX-License-Identifier: GPL-2.0-only */
/* litmus: the classic tests -- SB (no fence, MFENCE, LOCKed, XCHG, and
 * the cross-reset controls the WRMSR family is judged against), MP, MP
 * with MOVNTI data, IRIW -- each with its negative control. */
#include "suites/litmus/litmus.h"
#include "kernel/test.h"
#include "kernel/platform.h"
#include "lib/litmus.h"
#include "lib/printf.h"
#include "lib/string.h"

/* The classic tests: a forbidden outcome seen even once fails the case. */
static bool run_litmus(struct test_ctx *t, enum test test, enum variant v, enum variant vb,
		       enum litmus_reset reset, const char *what, struct outcome_def d,
		       struct litmus_tally *tally_out)
{
	struct spec sp = { test, v, vb, reset, what, d, 0, { 0, 0 } };
	struct lit *l = NULL;

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
	if (tally_out)
		*tally_out = l->tally;
	/* the litmus answer: SB without and with MFENCE, MP with MOVNTI
	 * without and with SFENCE */
	if ((test == T_SB && (!strcmp(what, "nofence") || !strcmp(what, "nofence_cross") ||
			      !strcmp(what, "mfence"))) || test == T_MP_NT) {
		char from[96];

		rl_snprintf(from, sizeof(from), "%s.%s", t->full_name, what);
		t_answer(t, ANSWER_LITMUS, from,
			 d.control ? (n ? T_CONTROL_FIRED : T_CONTROL_NOT_OBSERVED) : T_CONTROL_NONE,
			 "%s %s: %s %llu of %llu%s;", test == T_SB ? "SB" : "MP with MOVNTI", what, name,
			 (unsigned long long)n, (unsigned long long)l->tally.iters,
			 d.forbidden ? (n ? " (FORBIDDEN, seen)" : " (forbidden)") : "");
	}
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

TEST(litmus, sb, .order = 10, .budget_ms = 120000)
{
	struct litmus_tally sym, asym;
	bool have_sym, have_asym;

	lit_plan(15);	/* 7 here, 8 WRMSR runs (lit_sb_wrmsr) */
	/* the classic variants, balanced start with own resets */
	run_litmus(t, T_SB, V_NOFENCE, V_NOFENCE, LITMUS_RESET_OWN, "nofence", (struct outcome_def){ SB_RELAXED, false, true }, NULL);
	run_litmus(t, T_SB, V_MFENCE, V_NOFENCE, LITMUS_RESET_OWN, "mfence", (struct outcome_def){ SB_RELAXED, true, false }, NULL);
	run_litmus(t, T_SB, V_LOCKED, V_NOFENCE, LITMUS_RESET_OWN, "locked", (struct outcome_def){ SB_RELAXED, true, false }, NULL);
	run_litmus(t, T_SB, V_XCHG, V_NOFENCE, LITMUS_RESET_OWN, "xchg", (struct outcome_def){ SB_RELAXED, true, false }, NULL);
	/* The WRMSR family and its controls, with cross resets:
	 * each store has to fetch its line back while the load hits, so a
	 * barrier that does not drain the store buffer shows at the highest
	 * rate.  nofence_cross: the control of the symmetric (_both) shape;
	 * a_none_b_mfence: of the one-sided shape; mfence_cross: the
	 * forbidden reference in the same placement. */
	have_sym = run_litmus(t, T_SB, V_NOFENCE, V_NOFENCE, LITMUS_RESET_CROSS, "nofence_cross",
			      (struct outcome_def){ SB_RELAXED, false, true }, &sym);
	run_litmus(t, T_SB, V_MFENCE, V_NOFENCE, LITMUS_RESET_CROSS, "mfence_cross",
		   (struct outcome_def){ SB_RELAXED, true, false }, NULL);
	have_asym = run_litmus(t, T_SB, V_NOFENCE, V_MFENCE, LITMUS_RESET_CROSS, "a_none_b_mfence",
			       (struct outcome_def){ SB_RELAXED, false, true }, &asym);
	const struct litmus_tally *cs = have_sym ? &sym : NULL, *ca = have_asym ? &asym : NULL;
	lit_sb_wrmsr(t, cs, ca);
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
	lit_plan(2);
	run_litmus(t, T_MP_NT, V_NT_NOFENCE, V_NOFENCE, LITMUS_RESET_OWN, "nofence", (struct outcome_def){ MP_STALE, false, false }, NULL);
	run_litmus(t, T_MP_NT, V_NT_SFENCE, V_NOFENCE, LITMUS_RESET_OWN, "sfence", (struct outcome_def){ MP_STALE, true, false }, NULL);
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
