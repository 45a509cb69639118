/* SPDX-License-Identifier: GPL-2.0-only */
/* Host unit tests for the litmus outcome bookkeeping (lib/litmus.c): every
 * iteration lands under exactly one outcome, a planted forbidden outcome
 * is counted (so the suite's "forbidden outcome seen" verdict can fire),
 * and out-of-range register values are counted as invalid, not folded
 * into an outcome.  The barrier verdict rule (not-serializing /
 * serializing-not-observed-to-fail / inconclusive) on planted outcome
 * tables, and its combination over two shapes.  Who resets what
 * (each variable by its one writer) and the balance verdict on planted
 * start times. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "lib/litmus.h"
#include "arch/x86/msr.h"

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
	/* "never" in a run whose start was lopsided proves nothing either */
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
	assert_string_equal(litmus_start_verdict(&s, why, sizeof(why)), "balanced");
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
	assert_string_equal(litmus_start_verdict(&s, why, sizeof(why)), "lopsided");
	assert_non_null(strstr(why, "missed the release instant in 100 of 100"));
	/* on time, but one thread first 95 times in 100: lopsided */
	litmus_start_init(&s, 2);
	for (unsigned i = 0; i < 100; i++) {
		uint64_t t[2] = { rel + (i < 95 ? 1 : 30), rel + 20 };

		litmus_start_record(&s, t, rel, late);
	}
	assert_string_equal(litmus_start_verdict(&s, why, sizeof(why)), "lopsided");
	assert_non_null(strstr(why, "thread 0 started first in 95 of 100"));
	/* ties count for nobody; too few iterations say nothing */
	litmus_start_init(&s, 4);
	for (unsigned i = 0; i < 10; i++) {
		uint64_t t[4] = { rel, rel, rel + 1, rel + 1 };

		litmus_start_record(&s, t, rel, late);
	}
	assert_int_equal(s.ties, 10);
	assert_string_equal(litmus_start_verdict(&s, why, sizeof(why)), "too-few");
	/* a TSC that runs ahead (start before the release) is not late */
	litmus_start_init(&s, 2);
	uint64_t early[2] = { rel - 100, rel + 3 };

	litmus_start_record(&s, early, rel, late);
	assert_int_equal(s.late, 0);
	assert_int_equal(s.first[0], 1);
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
		cmocka_unit_test(msr_numbers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
