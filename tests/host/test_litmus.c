/* SPDX-License-Identifier: GPL-2.0-only */
/* Host unit tests for the litmus outcome bookkeeping (lib/litmus.c): every
 * iteration lands under exactly one outcome, a planted forbidden outcome
 * is counted (so the suite's "forbidden outcome seen" verdict can fire),
 * and out-of-range register values are counted as invalid, not folded
 * into an outcome.  The barrier verdict rule (not-serializing /
 * serializing-not-observed-to-fail / inconclusive) on planted outcome
 * tables, and its combination over two shapes; the WRMSR rule against
 * the delay-matched and late-store controls (a WRMSR is called
 * serializing only where a delay of its length still shows r0=0,r1=0).
 * Who resets what (each variable by its one writer); the balance bound on
 * planted start times and one-sided outcomes; the claim an answer makes
 * from one run (never a strong "not seen" from an unbalanced run or below
 * the claims bounds). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "lib/litmus.h"
#include "arch/x86/msr.h"
#include "arch/x86/vectors.h"

static void sb_outcomes(void **state)
{
	(void)state;
	struct litmus_tally t;
	const uint64_t seq[][2] = { { 0, 1 }, { 1, 0 }, { 1, 1 }, { 0, 0 }, { 0, 1 }, { 0, 0 } };

	litmus_tally_init(&t, 2);
	for (unsigned i = 0; i < 6; i++)
		litmus_record(&t, seq[i]);
	assert_int_equal(t.iters, 6);
	assert_int_equal(litmus_count(&t, LITMUS_OUTCOME2(0, 0)), 2);
	assert_int_equal(litmus_count(&t, LITMUS_OUTCOME2(0, 1)), 2);
	assert_int_equal(litmus_count(&t, LITMUS_OUTCOME2(1, 0)), 1);
	assert_int_equal(litmus_count(&t, LITMUS_OUTCOME2(1, 1)), 1);
	assert_int_equal(t.invalid, 0);

	char b[96];

	litmus_format(&t, b, sizeof(b));
	assert_string_equal(b, "00:2,10:1,01:2,11:1");
	litmus_outcome_name(LITMUS_OUTCOME2(1, 0), 2, b, sizeof(b));
	assert_string_equal(b, "r0=1,r1=0");
}

static void iriw_planted(void **state)
{
	(void)state;
	struct litmus_tally t;
	const uint64_t ok[4] = { 1, 1, 1, 1 };
	const uint64_t split[4] = { 1, 0, 1, 0 };	/* the forbidden IRIW outcome */

	litmus_tally_init(&t, 4);
	for (int i = 0; i < 10; i++)
		litmus_record(&t, ok);
	assert_int_equal(litmus_count(&t, LITMUS_OUTCOME4(1, 0, 1, 0)), 0);
	assert_int_equal(litmus_record(&t, split), (int)LITMUS_OUTCOME4(1, 0, 1, 0));
	assert_int_equal(litmus_count(&t, LITMUS_OUTCOME4(1, 0, 1, 0)), 1);
	assert_int_equal(LITMUS_OUTCOME4(1, 0, 1, 0), 5);

	char b[160];

	litmus_outcome_name(5, 4, b, sizeof(b));
	assert_string_equal(b, "r0=1,r1=0,r2=1,r3=0");
	litmus_format(&t, b, sizeof(b));
	assert_string_equal(b, "0000:0,1000:0,0100:0,1100:0,0010:0,1010:1,0110:0,1110:0,"
			       "0001:0,1001:0,0101:0,1101:0,0011:0,1011:0,0111:0,1111:10");
}

static void invalid_values(void **state)
{
	(void)state;
	struct litmus_tally t;
	const uint64_t stale[2] = { 2, 0 };	/* "not written" marker */
	const uint64_t junk[2] = { 0, 0xdeadbeef };

	litmus_tally_init(&t, 2);
	assert_int_equal(litmus_record(&t, stale), -1);
	assert_int_equal(litmus_record(&t, junk), -1);
	assert_int_equal(t.invalid, 2);
	assert_int_equal(t.iters, 2);
	for (unsigned o = 0; o < 4; o++)
		assert_int_equal(litmus_count(&t, o), 0);
	assert_int_equal(litmus_count(&t, 99), 0);
	/* more registers than supported are clamped */
	litmus_tally_init(&t, 9);
	assert_int_equal(t.nregs, LITMUS_MAX_REGS);
}

static void truncation(void **state)
{
	(void)state;
	struct litmus_tally t;
	char b[8];

	litmus_tally_init(&t, 4);
	litmus_format(&t, b, sizeof(b));
	assert_true(b[sizeof(b) - 1] == '\0' || b[0] != '\0');
	litmus_outcome_name(0, 4, b, sizeof(b));
	assert_int_equal(b[7], '\0');
}

/* A tally with `n00` iterations of r0=0,r1=0 among `iters`. */
static void plant(struct litmus_tally *t, uint64_t iters, uint64_t n00)
{
	const uint64_t relaxed[2] = { 0, 0 }, seq[2] = { 0, 1 };

	litmus_tally_init(t, 2);
	for (uint64_t i = 0; i < iters; i++)
		litmus_record(t, i < n00 ? relaxed : seq);
}

static void barrier_verdict(void **state)
{
	(void)state;
	struct litmus_tally t, control;
	uint64_t e;
	const unsigned r = LITMUS_OUTCOME2(0, 0);

	/* the control fired 10 times in 1000: 2000 iterations expect 20 */
	plant(&control, 1000, 10);
	plant(&t, 2000, 0);
	assert_int_equal(litmus_barrier_verdict(&t, r, &control, true, &e), LITMUS_V_NOT_OBSERVED);
	assert_int_equal(e, 20000);
	assert_string_equal(litmus_verdict_name(LITMUS_V_NOT_OBSERVED), "serializing-not-observed-to-fail");
	/* one relaxed outcome is enough to fail the barrier: the verdict can fail */
	plant(&t, 2000, 1);
	assert_int_equal(litmus_barrier_verdict(&t, r, &control, true, &e), LITMUS_V_NOT_SERIALIZING);
	assert_string_equal(litmus_verdict_name(LITMUS_V_NOT_SERIALIZING), "not-serializing");
	/* not-serializing does not need the control at all */
	assert_int_equal(litmus_barrier_verdict(&t, r, NULL, true, NULL), LITMUS_V_NOT_SERIALIZING);
	/* "never" in a run whose start was unbalanced proves nothing either */
	plant(&t, 2000, 0);
	assert_int_equal(litmus_barrier_verdict(&t, r, &control, false, &e), LITMUS_V_INCONCLUSIVE);
	assert_int_equal(e, 20000);
	/* but a relaxed outcome seen in it is still proof */
	plant(&t, 2000, 3);
	assert_int_equal(litmus_barrier_verdict(&t, r, &control, false, &e), LITMUS_V_NOT_SERIALIZING);
	/* "never" with a control that predicts fewer than 3 hits proves nothing */
	plant(&t, 200, 0);		/* expects 2.000 */
	assert_int_equal(litmus_barrier_verdict(&t, r, &control, true, &e), LITMUS_V_INCONCLUSIVE);
	assert_int_equal(e, 2000);
	plant(&t, 300, 0);		/* expects exactly 3 */
	assert_int_equal(litmus_barrier_verdict(&t, r, &control, true, &e), LITMUS_V_NOT_OBSERVED);
	/* fewer than 30 iterations: never a verdict of "not observed",
	 * however often the control fired */
	plant(&control, 10, 9);
	plant(&t, 29, 0);
	assert_int_equal(litmus_barrier_verdict(&t, r, &control, true, &e), LITMUS_V_INCONCLUSIVE);
	assert_int_equal(e, 26100);
	plant(&t, 30, 0);
	assert_int_equal(litmus_barrier_verdict(&t, r, &control, true, &e), LITMUS_V_NOT_OBSERVED);
	/* a control that did not fire, or none at all */
	plant(&control, 1000, 0);
	plant(&t, 100000, 0);
	assert_int_equal(litmus_barrier_verdict(&t, r, &control, true, &e), LITMUS_V_INCONCLUSIVE);
	assert_int_equal(e, 0);
	assert_int_equal(litmus_barrier_verdict(&t, r, NULL, true, &e), LITMUS_V_INCONCLUSIVE);
	/* no iterations; a broken harness wins over a relaxed outcome */
	litmus_tally_init(&t, 2);
	assert_int_equal(litmus_barrier_verdict(&t, r, &control, true, NULL), LITMUS_V_NO_DATA);
	plant(&t, 10, 5);
	const uint64_t bad[2] = { 2, 0 };

	litmus_record(&t, bad);
	assert_int_equal(litmus_barrier_verdict(&t, r, NULL, true, NULL), LITMUS_V_HARNESS_BROKEN);
	/* a control with another register count is not used */
	struct litmus_tally c4;

	litmus_tally_init(&c4, 4);
	plant(&t, 1000, 0);
	assert_int_equal(litmus_barrier_verdict(&t, r, &c4, true, &e), LITMUS_V_INCONCLUSIVE);
	assert_int_equal(e, 0);
}

static void verdict_combine(void **state)
{
	(void)state;
	assert_int_equal(litmus_verdict_combine(LITMUS_V_NOT_OBSERVED, LITMUS_V_NOT_SERIALIZING),
			 LITMUS_V_NOT_SERIALIZING);
	assert_int_equal(litmus_verdict_combine(LITMUS_V_NOT_SERIALIZING, LITMUS_V_INCONCLUSIVE),
			 LITMUS_V_NOT_SERIALIZING);
	assert_int_equal(litmus_verdict_combine(LITMUS_V_INCONCLUSIVE, LITMUS_V_NOT_OBSERVED),
			 LITMUS_V_NOT_OBSERVED);
	assert_int_equal(litmus_verdict_combine(LITMUS_V_NO_DATA, LITMUS_V_INCONCLUSIVE),
			 LITMUS_V_INCONCLUSIVE);
	assert_int_equal(litmus_verdict_combine(LITMUS_V_NOT_SERIALIZING, LITMUS_V_HARNESS_BROKEN),
			 LITMUS_V_HARNESS_BROKEN);
	assert_int_equal(litmus_verdict_combine(LITMUS_V_NO_DATA, LITMUS_V_NO_DATA), LITMUS_V_NO_DATA);
}

/* Every variable is reset by exactly one thread (never CPU 0 for
 * all of them); with own resets by the thread that writes it, with cross
 * resets by a thread that reads it and does not write it. */
static void reset_plan(void **state)
{
	(void)state;
	const struct {
		enum litmus_shape s;
		unsigned n;
		unsigned writer[LITMUS_NVARS], reader[LITMUS_NVARS];
	} plans[] = {
		{ LITMUS_SHAPE_SB, 2, { 0, 1 }, { 1, 0 } },	/* A: x=1; r=y  B: y=1; r=x */
		{ LITMUS_SHAPE_MP, 2, { 0, 0 }, { 1, 1 } },	/* writer data, flag; reader both */
		{ LITMUS_SHAPE_IRIW, 4, { 0, 1 }, { 2, 3 } },	/* reader 2 reads x first, 3 y first */
	};

	for (unsigned p = 0; p < sizeof(plans) / sizeof(plans[0]); p++)
		for (unsigned r = 0; r < 2; r++)
			for (unsigned v = 0; v < LITMUS_NVARS; v++) {
				unsigned owners = 0;

				for (unsigned tid = 0; tid < plans[p].n; tid++)
					if (litmus_reset_mask(plans[p].s, (enum litmus_reset)r, tid) & (1u << v)) {
						owners++;
						assert_int_equal(tid, r == LITMUS_RESET_OWN ? plans[p].writer[v]
											    : plans[p].reader[v]);
					}
				assert_int_equal(owners, 1);
			}
	/* SB is symmetric either way: one variable per thread */
	assert_int_equal(litmus_reset_mask(LITMUS_SHAPE_SB, LITMUS_RESET_OWN, 0), 1);
	assert_int_equal(litmus_reset_mask(LITMUS_SHAPE_SB, LITMUS_RESET_OWN, 1), 2);
	assert_int_equal(litmus_reset_mask(LITMUS_SHAPE_SB, LITMUS_RESET_CROSS, 0), 2);
	assert_int_equal(litmus_reset_mask(LITMUS_SHAPE_SB, LITMUS_RESET_CROSS, 1), 1);
	assert_int_equal(litmus_reset_mask(LITMUS_SHAPE_IRIW, LITMUS_RESET_OWN, 2), 0);
	assert_int_equal(litmus_reset_mask(LITMUS_SHAPE_MP, LITMUS_RESET_OWN, 1), 0);
	assert_string_equal(litmus_reset_name(LITMUS_RESET_OWN), "own-reset");
	assert_string_equal(litmus_reset_name(LITMUS_RESET_CROSS), "cross-reset");
}

static void start_balance(void **state)
{
	(void)state;
	struct litmus_start s;
	char why[160];
	const uint64_t rel = 1000000, late = 2000;

	/* alternating first, all on time: balanced */
	litmus_start_init(&s, 2);
	for (unsigned i = 0; i < 100; i++) {
		uint64_t t[2] = { rel + (i & 1 ? 10 : 20), rel + (i & 1 ? 20 : 10) };

		litmus_start_record(&s, t, rel, late);
	}
	assert_int_equal(litmus_balance(&s, NULL, why, sizeof(why)), LITMUS_BALANCED);
	assert_string_equal(litmus_balance_name(LITMUS_BALANCED), "balanced");
	assert_int_equal(s.first[0], 50);
	assert_int_equal(s.first[1], 50);
	assert_int_equal(s.late, 0);
	assert_int_equal(s.max_late, 20);
	/* the old harness's shape: thread 0 always first, the other late */
	litmus_start_init(&s, 2);
	for (unsigned i = 0; i < 100; i++) {
		uint64_t t[2] = { rel + 5, rel + 5000000 };

		litmus_start_record(&s, t, rel, late);
	}
	assert_int_equal(litmus_balance(&s, NULL, why, sizeof(why)), LITMUS_UNBALANCED);
	assert_string_equal(litmus_balance_name(LITMUS_UNBALANCED), "unbalanced");
	assert_non_null(strstr(why, "missed the release instant in 100 of 100"));
	/* on time, but one thread first 88 times in 100 (a run the old
	 * bound, 9 in 10, called balanced): unbalanced */
	litmus_start_init(&s, 2);
	for (unsigned i = 0; i < 100; i++) {
		uint64_t t[2] = { rel + (i < 88 ? 1 : 30), rel + 20 };

		litmus_start_record(&s, t, rel, late);
	}
	assert_int_equal(litmus_balance(&s, NULL, why, sizeof(why)), LITMUS_UNBALANCED);
	assert_non_null(strstr(why, "thread 0 started first in 88 of 100 untied iterations (bound 71)"));
	/* 60 of 100 is within the bound (71 of 100) */
	litmus_start_init(&s, 2);
	for (unsigned i = 0; i < 100; i++) {
		uint64_t t[2] = { rel + (i < 60 ? 1 : 30), rel + 20 };

		litmus_start_record(&s, t, rel, late);
	}
	assert_int_equal(litmus_balance(&s, NULL, why, sizeof(why)), LITMUS_BALANCED);
	/* ties count for nobody; too few iterations say nothing */
	litmus_start_init(&s, 4);
	for (unsigned i = 0; i < 10; i++) {
		uint64_t t[4] = { rel, rel, rel + 1, rel + 1 };

		litmus_start_record(&s, t, rel, late);
	}
	assert_int_equal(s.ties, 10);
	assert_int_equal(litmus_balance(&s, NULL, why, sizeof(why)), LITMUS_TOO_FEW);
	assert_string_equal(litmus_balance_name(LITMUS_TOO_FEW), "too-few");
	/* a TSC that runs ahead (start before the release) is not late */
	litmus_start_init(&s, 2);
	uint64_t early[2] = { rel - 100, rel + 3 };

	litmus_start_record(&s, early, rel, late);
	assert_int_equal(s.late, 0);
	assert_int_equal(s.first[0], 1);
}

/* The share bound: a third above the fair share, or three standard
 * deviations of a fair count, whichever is more. */
static void share_bound(void **state)
{
	(void)state;
	/* two threads: 2 to 1 on large counts */
	assert_false(litmus_over_share(1333, 2000, 2));
	assert_true(litmus_over_share(1334, 2000, 2));
	/* small counts: chance is allowed for */
	assert_false(litmus_over_share(19, 20, 2));
	assert_true(litmus_over_share(20, 20, 2));
	assert_false(litmus_over_share(71, 100, 2));
	assert_true(litmus_over_share(72, 100, 2));
	/* four threads: a fair share is a quarter */
	assert_false(litmus_over_share(660, 2000, 4));
	assert_true(litmus_over_share(700, 2000, 4));
	assert_int_equal(litmus_share_bound(2000, 2), 1333);
	assert_int_equal(litmus_share_bound(100, 2), 71);
	assert_int_equal(litmus_share_bound(20, 2), 19);
	assert_int_equal(litmus_share_bound(3, 2), 3);	/* never more than all */
	/* one or two one-sided outcomes say nothing (a hosted mfence_cross
	 * run with 1 against 0 was once called unbalanced) */
	assert_int_equal(litmus_share_bound(1, 2), 1);
	assert_false(litmus_over_share(1, 1, 2));
	assert_false(litmus_over_share(2, 2, 2));
	assert_false(litmus_over_share(5, 5, 2));
	/* nothing to judge */
	assert_false(litmus_over_share(0, 0, 2));
	assert_false(litmus_over_share(5, 5, 0));
}

/* A symmetric SB shape's one-sided outcomes say who went first as the
 * memory system saw it: the hosted run whose TSC order looked even but
 * whose outcomes were 262 against 6 is unbalanced; 36 against 14 is not. */
static void mirror_balance(void **state)
{
	(void)state;
	struct litmus_start s;
	struct litmus_tally m;
	char why[160];
	const uint64_t rel = 1000000;
	const uint64_t b_first[2] = { 1, 0 }, a_first[2] = { 0, 1 }, both[2] = { 1, 1 };

	litmus_start_init(&s, 2);
	for (unsigned i = 0; i < 2000; i++) {
		uint64_t t[2] = { rel + (i & 1), rel + !(i & 1) };

		litmus_start_record(&s, t, rel, 2000);
	}
	litmus_tally_init(&m, 2);
	for (unsigned i = 0; i < 2000; i++)
		litmus_record(&m, i < 262 ? b_first : i < 268 ? a_first : both);
	assert_int_equal(litmus_balance(&s, NULL, why, sizeof(why)), LITMUS_BALANCED);
	assert_int_equal(litmus_balance(&s, &m, why, sizeof(why)), LITMUS_UNBALANCED);
	assert_non_null(strstr(why, "r0=1,r1=0 262 and r0=0,r1=1 6 (bound 178 of the two)"));
	litmus_tally_init(&m, 2);
	for (unsigned i = 0; i < 2000; i++)
		litmus_record(&m, i < 36 ? b_first : i < 50 ? a_first : both);
	assert_int_equal(litmus_balance(&s, &m, why, sizeof(why)), LITMUS_BALANCED);
	/* a handful of one-sided outcomes is no evidence either way */
	litmus_tally_init(&m, 2);
	for (unsigned i = 0; i < 2000; i++)
		litmus_record(&m, i < 5 ? b_first : both);
	assert_int_equal(litmus_balance(&s, &m, why, sizeof(why)), LITMUS_BALANCED);
}

/* The WRMSR rule: "serializing" only where the delay-matched control
 * (a stall as long as the WRMSR, draining nothing) still shows the
 * outcome at a rate that predicts at least 3 in the WRMSR run's n. */
static void wrmsr_verdict(void **state)
{
	(void)state;
	struct litmus_tally wr, delay, late;
	uint64_t e;
	int lim;
	const unsigned r = LITMUS_OUTCOME2(0, 0);

	/* the delay still shows it (20 in 1000): 2000 iterations expect 40 */
	plant(&delay, 1000, 20);
	plant(&wr, 2000, 0);
	assert_int_equal(litmus_wrmsr_verdict(&wr, true, &delay, true, NULL, false, r, &e, &lim),
			 LITMUS_V_NOT_OBSERVED);
	assert_int_equal(e, 40000);
	assert_int_equal(lim, 0);
	/* the delay suppresses it too (a TCG TPR WRMSR: 0 of 2000 beside a
	 * 128-cycle cost): the WRMSR's zero is no evidence of serializing */
	plant(&delay, 2000, 0);
	assert_int_equal(litmus_wrmsr_verdict(&wr, true, &delay, true, NULL, false, r, &e, &lim),
			 LITMUS_V_DELAY_ALIKE);
	assert_string_equal(litmus_verdict_name(LITMUS_V_DELAY_ALIKE), "not-distinguished-from-delay");
	assert_int_equal(e, 0);
	/* ... or shows it too rarely to predict 3 (1 in 1000 -> 2.0) */
	plant(&delay, 1000, 1);
	assert_int_equal(litmus_wrmsr_verdict(&wr, true, &delay, true, NULL, false, r, &e, &lim),
			 LITMUS_V_DELAY_ALIKE);
	assert_int_equal(e, 2000);
	/* the WRMSR showing the outcome fails it, whatever the controls */
	plant(&wr, 2000, 1);
	assert_int_equal(litmus_wrmsr_verdict(&wr, false, NULL, false, NULL, false, r, &e, &lim),
			 LITMUS_V_NOT_SERIALIZING);
	/* a delay control from an unbalanced run counts for nothing:
	 * inconclusive, not "alike" */
	plant(&delay, 1000, 20);
	plant(&wr, 2000, 0);
	assert_int_equal(litmus_wrmsr_verdict(&wr, true, &delay, false, NULL, false, r, &e, &lim),
			 LITMUS_V_INCONCLUSIVE);
	assert_int_equal(e, 0);
	/* nor does a WRMSR run that was unbalanced or too short */
	assert_int_equal(litmus_wrmsr_verdict(&wr, false, &delay, true, NULL, false, r, &e, &lim),
			 LITMUS_V_INCONCLUSIVE);
	plant(&wr, 29, 0);
	assert_int_equal(litmus_wrmsr_verdict(&wr, true, &delay, true, NULL, false, r, &e, &lim),
			 LITMUS_V_INCONCLUSIVE);
	/* no delay control ran: inconclusive */
	plant(&wr, 2000, 0);
	assert_int_equal(litmus_wrmsr_verdict(&wr, true, NULL, false, NULL, false, r, &e, &lim),
			 LITMUS_V_INCONCLUSIVE);
	/* a delay control cut to a few iterations says nothing of the delay */
	plant(&delay, 10, 0);
	assert_int_equal(litmus_wrmsr_verdict(&wr, true, &delay, true, NULL, false, r, &e, &lim),
			 LITMUS_V_INCONCLUSIVE);
	/* the x2APIC ICR: the late-store control must fire as well, and the
	 * weaker of the two sets the power */
	plant(&delay, 1000, 20);
	plant(&late, 1000, 100);
	assert_int_equal(litmus_wrmsr_verdict(&wr, true, &delay, true, &late, true, r, &e, &lim),
			 LITMUS_V_NOT_OBSERVED);
	assert_int_equal(e, 40000);
	assert_int_equal(lim, 0);
	plant(&late, 1000, 1);
	assert_int_equal(litmus_wrmsr_verdict(&wr, true, &delay, true, &late, true, r, &e, &lim),
			 LITMUS_V_INCONCLUSIVE);
	assert_int_equal(e, 2000);
	assert_int_equal(lim, 1);
	assert_int_equal(litmus_wrmsr_verdict(&wr, true, &delay, true, &late, false, r, &e, &lim),
			 LITMUS_V_INCONCLUSIVE);
	assert_int_equal(e, 0);
	assert_int_equal(lim, 1);
	/* invalid reads and no data, as in the barrier rule */
	litmus_tally_init(&wr, 2);
	assert_int_equal(litmus_wrmsr_verdict(&wr, true, &delay, true, NULL, false, r, NULL, NULL),
			 LITMUS_V_NO_DATA);
	const uint64_t bad[2] = { 2, 0 };

	plant(&wr, 100, 0);
	litmus_record(&wr, bad);
	assert_int_equal(litmus_wrmsr_verdict(&wr, true, &delay, true, NULL, false, r, NULL, NULL),
			 LITMUS_V_HARNESS_BROKEN);
	/* over two shapes: one with power wins over one like the delay */
	assert_int_equal(litmus_verdict_combine(LITMUS_V_DELAY_ALIKE, LITMUS_V_NOT_OBSERVED),
			 LITMUS_V_NOT_OBSERVED);
	assert_int_equal(litmus_verdict_combine(LITMUS_V_INCONCLUSIVE, LITMUS_V_DELAY_ALIKE),
			 LITMUS_V_DELAY_ALIKE);
	assert_int_equal(litmus_verdict_combine(LITMUS_V_DELAY_ALIKE, LITMUS_V_NOT_SERIALIZING),
			 LITMUS_V_NOT_SERIALIZING);
}

/* The claim an answer makes of one run: never n from an unbalanced run's
 * "not seen", never a strong negative below the claims bounds (30
 * samples, an expected 3.0), a sighting always. */
static void claims_from_runs(void **state)
{
	(void)state;
	struct litmus_tally t, c;
	struct claim cl;
	const unsigned r = LITMUS_OUTCOME2(0, 0);

	/* "SB mfence 0 of 2 (forbidden)": two samples are too few */
	plant(&c, 2000, 340);
	plant(&t, 2, 0);
	litmus_claim(&cl, &t, false, r, &c, true, "litmus.sb.nofence");
	assert_int_equal(cl.n, 0);	/* 2 iterations: too few to be balanced either */
	assert_true(cl.n < CLAIM_MIN_N);
	litmus_claim(&cl, &t, true, r, &c, true, "litmus.sb.nofence");
	assert_int_equal(cl.n, 2);
	assert_true(cl.n < CLAIM_MIN_N);
	/* a balanced run of 500 against a control of 340 in 2000: 85.0 */
	plant(&t, 500, 0);
	litmus_claim(&cl, &t, true, r, &c, true, "litmus.sb.nofence");
	assert_int_equal(cl.n, 500);
	assert_int_equal(cl.seen, 0);
	assert_int_equal(cl.state, T_CONTROL_FIRED);
	assert_int_equal(cl.expected_x10, 850);
	assert_string_equal(cl.control, "litmus.sb.nofence");
	/* the same run unbalanced: its "not seen" is no evidence (n=0) */
	litmus_claim(&cl, &t, false, r, &c, true, "litmus.sb.nofence");
	assert_int_equal(cl.n, 0);
	assert_int_equal(cl.expected_x10, 0);
	/* the control unbalanced: it fired, but its rate predicts nothing */
	litmus_claim(&cl, &t, true, r, &c, false, "litmus.sb.nofence");
	assert_int_equal(cl.n, 500);
	assert_int_equal(cl.state, T_CONTROL_FIRED);
	assert_int_equal(cl.expected_x10, 0);
	/* a control that never fired (TCG's MOVNTI: 0 of 500) */
	plant(&c, 500, 0);
	litmus_claim(&cl, &t, true, r, &c, true, "litmus.mp_nt.nofence");
	assert_int_equal(cl.state, T_CONTROL_NOT_OBSERVED);
	assert_int_equal(cl.expected_x10, 0);
	/* a control that did not run */
	litmus_claim(&cl, &t, true, r, NULL, false, "litmus.sb.delay_x2apic_tpr");
	assert_int_equal(cl.state, T_CONTROL_NOT_OBSERVED);
	/* a sighting stands in an unbalanced run, with its n */
	plant(&t, 700, 3);
	litmus_claim(&cl, &t, false, r, NULL, false, NULL);
	assert_int_equal(cl.seen, 3);
	assert_int_equal(cl.n, 700);
	assert_int_equal(cl.state, T_CONTROL_NONE);
	assert_null(cl.control);
}

/* The suite's MSR numbers (lib/litmus.h, for a hosted suite) are msr.h's. */
static void msr_numbers(void **state)
{
	(void)state;
	assert_int_equal(LITMUS_MSR_APICBASE, MSR_IA32_APICBASE);
	assert_int_equal(LITMUS_MSR_APICBASE_EXTD, MSR_IA32_APICBASE_EXTD);
	assert_int_equal(LITMUS_MSR_TSC_DEADLINE, MSR_IA32_TSC_DEADLINE);
	assert_int_equal(LITMUS_MSR_X2APIC_TPR, MSR_X2APIC_TPR);
	assert_int_equal(LITMUS_MSR_KERNEL_GS_BASE, MSR_KERNEL_GS_BASE);
	/* the x2APIC MSRs the SDM exempts from serialization: 802H-83FH */
	assert_true(LITMUS_MSR_X2APIC_TPR >= 0x802 && LITMUS_MSR_X2APIC_TPR <= 0x83f);
	assert_int_equal(LITMUS_MSR_X2APIC_ICR, MSR_X2APIC_ICR);
	assert_true(LITMUS_MSR_X2APIC_ICR >= 0x802 && LITMUS_MSR_X2APIC_ICR <= 0x83f);
	/* the ICR variants' self-IPI lands on the doorbell, whose handler
	 * only returns; shorthand 01b (self) in bits 19:18, fixed delivery */
	assert_int_equal(LITMUS_ICR_VECTOR, VEC_CALL);
	assert_int_equal(LITMUS_ICR_SELF_DOORBELL, 0x400f0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sb_outcomes),
		cmocka_unit_test(iriw_planted),
		cmocka_unit_test(invalid_values),
		cmocka_unit_test(truncation),
		cmocka_unit_test(barrier_verdict),
		cmocka_unit_test(verdict_combine),
		cmocka_unit_test(reset_plan),
		cmocka_unit_test(start_balance),
		cmocka_unit_test(share_bound),
		cmocka_unit_test(mirror_balance),
		cmocka_unit_test(wrmsr_verdict),
		cmocka_unit_test(claims_from_runs),
		cmocka_unit_test(msr_numbers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
