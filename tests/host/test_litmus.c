/* Host unit tests for the litmus outcome bookkeeping (lib/litmus.c): every
 * iteration lands under exactly one outcome, a planted forbidden outcome
 * is counted (so the suite's "forbidden outcome seen" verdict can fire),
 * and out-of-range register values are counted as invalid, not folded
 * into an outcome. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "lib/litmus.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sb_outcomes),
		cmocka_unit_test(iriw_planted),
		cmocka_unit_test(invalid_values),
		cmocka_unit_test(truncation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
