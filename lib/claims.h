/* SPDX-License-Identifier: GPL-2.0-only */
/* What a claim may say, given its evidence: pure, so host unit tests cover
 * every rule (tests/host/test_claims.c); the runner uses it for the
 * answers block (kernel/answers.c, kernel/test.h "claims").
 *
 * A claim is one sentence of an answer.  It owns its evidence: its
 * negative control (the planted or deliberately bad case that shows the
 * effect can be seen here) and that control's state in this run, the
 * number of samples it rests on, how often the effect was seen in them,
 * and, for a claim that the effect was not seen, its power: how many
 * sightings the control predicts in as many samples, and the smallest
 * effect the control showed to be visible (the detection floor).
 *
 * The words of strength follow from those (docs/log-format.md "Claims"):
 *   seen        the effect was seen: "seen K of N"
 *   not seen    with n >= CLAIM_MIN_N and a control that fired and
 *               predicts >= CLAIM_MIN_EXPECTED_X10 / 10 sightings in n:
 *               "not observed in N (control <name> fired, expected E;
 *               floor F)"; the only state that may be worded "never",
 *               "forbidden", "serializing", "not needed"
 *   too few     n < CLAIM_MIN_N: "too few samples (n=N)"
 *   no power    not seen, but the control did not fire or predicts fewer
 *               than the bound: "no power (control <name> expected E)"
 *   no control  not seen and nothing could show it: "not observed in N
 *               (no control)"
 * The bounds: 30 samples; an expected count of 3.0, under which a real
 * effect of the control's size escapes n samples with probability at most
 * e^-3 = 5 % (a Poisson count). */
#ifndef RINGLAB_LIB_CLAIMS_H
#define RINGLAB_LIB_CLAIMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CLAIM_MIN_N		30
#define CLAIM_MIN_EXPECTED_X10	30

/* The state of a negative control in this run. */
enum t_control {
	T_CONTROL_NONE,		/* no control applies (a cost, a count) */
	T_CONTROL_FIRED,	/* the planted case was detected */
	T_CONTROL_NOT_OBSERVED,	/* it was not: "absent" and "invisible" look alike */
};

struct claim {
	const char *control;	/* the control's name; NULL when none applies */
	enum t_control state;	/* its state in this run */
	uint64_t n;		/* samples the claim rests on */
	uint64_t seen;		/* sightings of the effect in them */
	uint64_t expected_x10;	/* sightings the control predicts in n, x10 (0: unknown;
				 * CLAIM_EXPECTED_ZERO: computed, and none) */
	const char *floor;	/* the detection floor ("a 96-cycle backward step"); NULL */
	bool measured;		/* a measurement (a cost, a rate): no effect to see;
				 * its words are "n=N" */
};

/* expected_x10 for a prediction that was computed and came out 0 */
#define CLAIM_EXPECTED_ZERO	UINT64_MAX

enum claim_strength {
	CLAIM_MEASURED,		/* a measurement: "n=N" */
	CLAIM_SEEN,
	CLAIM_NOT_OBSERVED,	/* the strong negative: n, control and power suffice */
	CLAIM_TOO_FEW,
	CLAIM_NO_POWER,
	CLAIM_NO_CONTROL,
};

enum claim_strength claim_strength(const struct claim *c);
/* The words above, for the claim's sentence.  Returns like snprintf. */
int claim_words(const struct claim *c, char *buf, size_t size);
/* "fired", "not-observed", "none" */
const char *claim_control_name(enum t_control s);

/* An answer's claims, tallied for its control= summary. */
struct claim_tally {
	unsigned claims;	/* with a control */
	unsigned fired;
	char missing[160];	/* "name,name": claims whose control did not fire */
	bool missing_cut;
};
void claim_tally_add(struct claim_tally *t, const char *control, enum t_control state);
/* control= for the answer: "fired" when every claim with a control fired,
 * "partial" when some did, "not-observed" when none did, "none" when no
 * claim has a control. */
const char *claim_tally_summary(const struct claim_tally *t);

#endif
