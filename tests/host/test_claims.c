/* SPDX-License-Identifier: GPL-2.0-only */
/* Host unit tests for the claims rules (lib/claims.c): planted tables of
 * evidence, one per rule, and the words each may use; the answer's
 * control= summary over several claims. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "lib/claims.h"

struct row {
	struct claim c;
	enum claim_strength want;
	const char *words;	/* a fragment the words must hold */
};

static void strength_table(void **state)
{
	(void)state;
	static const struct row rows[] = {
		/* seen: whatever the control says */
		{ { "late-store", T_CONTROL_FIRED, 2000, 12, 340, NULL, false }, CLAIM_SEEN, "seen 12 of 2000" },
		{ { NULL, T_CONTROL_NONE, 2, 1, 0, NULL, false }, CLAIM_SEEN, "seen 1 of 2" },
		/* "(forbidden)" on two samples: too few */
		{ { "unfenced SB", T_CONTROL_FIRED, 2, 0, 340, NULL, false }, CLAIM_TOO_FEW, "too few samples (n=2" },
		{ { "unfenced SB", T_CONTROL_FIRED, 29, 0, 1000, NULL, false }, CLAIM_TOO_FEW, "n=29" },
		/* enough samples, control fired with power: the strong negative */
		{ { "late-store", T_CONTROL_FIRED, 2000, 0, 340, "1 stale read in 2000", false }, CLAIM_NOT_OBSERVED,
		  "not observed in 2000 (control late-store fired, expected 34.0; floor 1 stale read in 2000)" },
		{ { "late-store", T_CONTROL_FIRED, 30, 0, 30, NULL, false }, CLAIM_NOT_OBSERVED, "floor not stated" },
		/* control fired, but predicts too little in n: no power */
		{ { "delay-matched", T_CONTROL_FIRED, 2000, 0, 4, NULL, false }, CLAIM_NO_POWER,
		  "no power (control delay-matched expected 0.4 in 2000, fewer than 3.0)" },
		{ { "delay-matched", T_CONTROL_FIRED, 2000, 0, 29, NULL, false }, CLAIM_NO_POWER, "expected 2.9" },
		{ { "delay-matched", T_CONTROL_FIRED, 2000, 0, 0, NULL, false }, CLAIM_NO_POWER, "expected unknown" },
		/* control did not fire: no power, whatever n */
		{ { "planted offset", T_CONTROL_NOT_OBSERVED, 100000, 0, 500, NULL, false }, CLAIM_NO_POWER,
		  "no power (control planted offset not-observed; n=100000)" },
		/* nothing could show it */
		{ { NULL, T_CONTROL_NONE, 500, 0, 0, NULL, false }, CLAIM_NO_CONTROL, "not observed in 500 (no control)" },
		{ { "named", T_CONTROL_NONE, 500, 0, 0, NULL, false }, CLAIM_NO_CONTROL, "(no control)" },
		/* a computed prediction of none is not "unknown" */
		{ { "ctl", T_CONTROL_FIRED, 500, 0, CLAIM_EXPECTED_ZERO, NULL, false }, CLAIM_NO_POWER, "expected 0.0 in 500" },
		/* a measurement: its n, whatever the sample size (a cost is not
		 * a negative claim) */
		{ { NULL, T_CONTROL_NONE, 7, 7, 0, NULL, true }, CLAIM_MEASURED, "n=7" },
		{ { NULL, T_CONTROL_NONE, 0, 0, 0, NULL, true }, CLAIM_TOO_FEW, "n=0" },
	};
	char b[200];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_int_equal(claim_strength(&rows[i].c), rows[i].want);
		claim_words(&rows[i].c, b, sizeof(b));
		if (!strstr(b, rows[i].words))
			fail_msg("row %zu: words '%s' lack '%s'", i, b, rows[i].words);
	}
}

/* A strong word is never printed below the bounds: sweep n and the
 * expectation around them. */
static void bounds_sweep(void **state)
{
	(void)state;
	for (uint64_t n = 0; n < 64; n++)
		for (uint64_t e = 0; e < 64; e++) {
			struct claim c = { "ctl", T_CONTROL_FIRED, n, 0, e, "f", false };
			bool strong = claim_strength(&c) == CLAIM_NOT_OBSERVED;

			assert_int_equal(strong, n >= CLAIM_MIN_N && e >= CLAIM_MIN_EXPECTED_X10);
		}
}

static void tally_summary(void **state)
{
	(void)state;
	struct claim_tally t;

	memset(&t, 0, sizeof(t));
	assert_string_equal(claim_tally_summary(&t), "none");
	claim_tally_add(&t, "cost", T_CONTROL_NONE);	/* a cost: no control */
	assert_string_equal(claim_tally_summary(&t), "none");
	claim_tally_add(&t, "late-store", T_CONTROL_FIRED);
	assert_string_equal(claim_tally_summary(&t), "fired");
	/* one fired control no longer speaks for the whole answer */
	claim_tally_add(&t, "delay-matched", T_CONTROL_NOT_OBSERVED);
	assert_string_equal(claim_tally_summary(&t), "partial");
	assert_string_equal(t.missing, "delay-matched");
	claim_tally_add(&t, NULL, T_CONTROL_NOT_OBSERVED);
	assert_string_equal(t.missing, "delay-matched,unnamed");

	memset(&t, 0, sizeof(t));
	claim_tally_add(&t, "a", T_CONTROL_NOT_OBSERVED);
	assert_string_equal(claim_tally_summary(&t), "not-observed");

	/* a long list is cut whole, and says so */
	memset(&t, 0, sizeof(t));
	for (int i = 0; i < 40; i++)
		claim_tally_add(&t, "a-rather-long-control-name", T_CONTROL_NOT_OBSERVED);
	assert_true(t.missing_cut);
	assert_true(strlen(t.missing) < sizeof(t.missing));
	assert_int_equal(t.claims, 40);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strength_table),
		cmocka_unit_test(bounds_sweep),
		cmocka_unit_test(tally_summary),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
