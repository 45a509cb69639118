/* SPDX-License-Identifier: GPL-2.0-only */
/* See litmus.h. */
#include "lib/litmus.h"
#include "lib/printf.h"
#include "lib/string.h"
#include <stdbool.h>

void litmus_tally_init(struct litmus_tally *t, unsigned nregs)
{
	memset(t, 0, sizeof(*t));
	t->nregs = nregs > LITMUS_MAX_REGS ? LITMUS_MAX_REGS : nregs;
}

int litmus_record(struct litmus_tally *t, const uint64_t *regs)
{
	unsigned o = 0;

	t->iters++;
	for (unsigned i = 0; i < t->nregs; i++) {
		if (regs[i] > 1) {
			t->invalid++;
			return -1;
		}
		o |= (unsigned)regs[i] << i;
	}
	t->count[o]++;
	return (int)o;
}

uint64_t litmus_count(const struct litmus_tally *t, unsigned outcome)
{
	return outcome < LITMUS_MAX_OUTCOMES ? t->count[outcome] : 0;
}

void litmus_outcome_name(unsigned outcome, unsigned nregs, char *buf, size_t size)
{
	size_t k = 0;

	if (size)
		buf[0] = '\0';
	for (unsigned i = 0; i < nregs && k < size; i++)
		k += (size_t)rl_snprintf(buf + k, size - k, "%sr%u=%u", i ? "," : "", i,
					 (outcome >> i) & 1);
}

void litmus_format(const struct litmus_tally *t, char *buf, size_t size)
{
	size_t k = 0;

	if (size)
		buf[0] = '\0';
	for (unsigned o = 0; o < (1u << t->nregs) && k < size; o++) {
		char bits[LITMUS_MAX_REGS + 1];

		for (unsigned i = 0; i < t->nregs; i++)
			bits[i] = (char)('0' + ((o >> i) & 1));
		bits[t->nregs] = '\0';
		k += (size_t)rl_snprintf(buf + k, size - k, "%s%s:%llu", o ? "," : "", bits,
					 (unsigned long long)t->count[o]);
	}
}

unsigned litmus_reset_mask(enum litmus_shape s, enum litmus_reset r, unsigned tid)
{
	bool own = r == LITMUS_RESET_OWN;

	switch (s) {
	case LITMUS_SHAPE_SB:	/* A writes x and reads y, B the reverse */
		return tid == 0 ? (own ? 1u : 2u) : tid == 1 ? (own ? 2u : 1u) : 0u;
	case LITMUS_SHAPE_IRIW:	/* writers 0 (x), 1 (y); reader 2 reads x first, reader 3 y */
		return own ? (tid == 0 ? 1u : tid == 1 ? 2u : 0u)
			   : (tid == 2 ? 1u : tid == 3 ? 2u : 0u);
	case LITMUS_SHAPE_MP:	/* the writer writes data and flag, the reader reads both */
		return tid == (own ? 0u : 1u) ? 3u : 0u;
	}
	return 0;
}

const char *litmus_reset_name(enum litmus_reset r)
{
	return r == LITMUS_RESET_OWN ? "own-reset" : "cross-reset";
}

void litmus_start_init(struct litmus_start *s, unsigned nthreads)
{
	memset(s, 0, sizeof(*s));
	s->nthreads = nthreads > LITMUS_MAX_THREADS ? LITMUS_MAX_THREADS : nthreads;
}

void litmus_start_record(struct litmus_start *s, const uint64_t *start, uint64_t release,
			 uint64_t late_cycles)
{
	unsigned first = 0, nfirst = 1;
	bool late = false;

	s->n++;
	for (unsigned i = 0; i < s->nthreads; i++) {
		uint64_t l = start[i] > release ? start[i] - release : 0;

		if (l > late_cycles)
			late = true;
		if (l > s->max_late)
			s->max_late = l;
		if (i == 0)
			continue;
		if (start[i] < start[first]) {
			first = i;
			nfirst = 1;
		} else if (start[i] == start[first]) {
			nfirst++;
		}
	}
	if (late)
		s->late++;
	if (nfirst > 1)
		s->ties++;
	else
		s->first[first]++;
}

static uint64_t isqrt(uint64_t v)
{
	uint64_t r = 0;

	for (uint64_t b = 1ull << 62; b; b >>= 2) {
		if (v >= r + b) {
			v -= r + b;
			r = (r >> 1) + b;
		} else {
			r >>= 1;
		}
	}
	return r;
}

uint64_t litmus_share_bound(uint64_t m, unsigned k)
{
	if (!k)
		return m;
	/* in 9ths of an iteration, to keep 4f/3 and 3*sqrt(f) exact enough
	 * (9 * 3 * sqrt(f) = sqrt(729 f)): f = m/k; bound = max(4f/3, f +
	 * 3*sqrt(f)), at most m */
	uint64_t f9 = m * 9 / k, by_third = f9 * 4 / 3, by_sd = f9 + isqrt(729 * m / k);
	uint64_t b = (by_third > by_sd ? by_third : by_sd) / 9;

	return b < m ? b : m;
}

bool litmus_over_share(uint64_t c, uint64_t m, unsigned k)
{
	return k && m && c > litmus_share_bound(m, k);
}

const char *litmus_balance_name(enum litmus_balance b)
{
	return b == LITMUS_BALANCED ? "balanced" : b == LITMUS_TOO_FEW ? "too-few" : "unbalanced";
}

enum litmus_balance litmus_balance(const struct litmus_start *s, const struct litmus_tally *mirror,
				   char *why, size_t size)
{
	uint64_t untied = s->n - s->ties;

	if (size)
		why[0] = '\0';
	if (s->n < LITMUS_START_MIN) {
		rl_snprintf(why, size, "%llu iterations, fewer than %u", (unsigned long long)s->n,
			    LITMUS_START_MIN);
		return LITMUS_TOO_FEW;
	}
	if (s->late * 10 > s->n) {
		rl_snprintf(why, size, "a thread missed the release instant in %llu of %llu iterations",
			    (unsigned long long)s->late, (unsigned long long)s->n);
		return LITMUS_UNBALANCED;
	}
	for (unsigned i = 0; i < s->nthreads; i++)
		if (litmus_over_share(s->first[i], untied, s->nthreads)) {
			rl_snprintf(why, size, "thread %u started first in %llu of %llu untied iterations (bound %llu)",
				    i, (unsigned long long)s->first[i], (unsigned long long)untied,
				    (unsigned long long)litmus_share_bound(untied, s->nthreads));
			return LITMUS_UNBALANCED;
		}
	if (mirror && mirror->nregs == 2) {
		uint64_t b_first = litmus_count(mirror, LITMUS_OUTCOME2(1, 0));
		uint64_t a_first = litmus_count(mirror, LITMUS_OUTCOME2(0, 1));

		if (litmus_over_share(b_first, a_first + b_first, 2) ||
		    litmus_over_share(a_first, a_first + b_first, 2)) {
			rl_snprintf(why, size, "one-sided outcomes r0=1,r1=0 %llu and r0=0,r1=1 %llu (bound %llu of the two)",
				    (unsigned long long)b_first, (unsigned long long)a_first,
				    (unsigned long long)litmus_share_bound(a_first + b_first, 2));
			return LITMUS_UNBALANCED;
		}
	}
	return LITMUS_BALANCED;
}

uint64_t litmus_expected_x1000(const struct litmus_tally *control, unsigned outcome, uint64_t n)
{
	if (!control || !control->iters)
		return 0;
	return (uint64_t)(((unsigned __int128)litmus_count(control, outcome) * n * 1000u) /
			  control->iters);
}

enum litmus_verdict litmus_barrier_verdict(const struct litmus_tally *t, unsigned relaxed,
					   const struct litmus_tally *control, bool balanced,
					   uint64_t *expected_x1000)
{
	uint64_t e = 0;

	if (control && control->nregs == t->nregs)
		e = litmus_expected_x1000(control, relaxed, t->iters);
	if (expected_x1000)
		*expected_x1000 = e;
	if (t->iters == 0)
		return LITMUS_V_NO_DATA;
	if (t->invalid)
		return LITMUS_V_HARNESS_BROKEN;
	if (litmus_count(t, relaxed))
		return LITMUS_V_NOT_SERIALIZING;
	return balanced && t->iters >= LITMUS_MIN_N && e >= LITMUS_MIN_EXPECTED * 1000u ?
		       LITMUS_V_NOT_OBSERVED : LITMUS_V_INCONCLUSIVE;
}

/* A control's prediction for n iterations, counted only from a balanced
 * run of the same register count. */
static uint64_t control_x1000(const struct litmus_tally *c, bool balanced, const struct litmus_tally *t,
			      unsigned relaxed)
{
	return c && balanced && c->nregs == t->nregs ? litmus_expected_x1000(c, relaxed, t->iters) : 0;
}

enum litmus_verdict litmus_wrmsr_verdict(const struct litmus_tally *wr, bool wr_balanced,
					 const struct litmus_tally *delay, bool delay_balanced,
					 const struct litmus_tally *late, bool late_balanced,
					 unsigned relaxed, uint64_t *expected_x1000, int *limit)
{
	uint64_t ed = control_x1000(delay, delay_balanced, wr, relaxed), e = ed;
	int lim = 0;

	if (late) {
		uint64_t el = control_x1000(late, late_balanced, wr, relaxed);

		if (el < ed) {
			e = el;
			lim = 1;
		}
	}
	if (expected_x1000)
		*expected_x1000 = e;
	if (limit)
		*limit = lim;
	if (wr->iters == 0)
		return LITMUS_V_NO_DATA;
	if (wr->invalid)
		return LITMUS_V_HARNESS_BROKEN;
	if (litmus_count(wr, relaxed))
		return LITMUS_V_NOT_SERIALIZING;
	if (!wr_balanced || wr->iters < LITMUS_MIN_N)
		return LITMUS_V_INCONCLUSIVE;
	if (e >= LITMUS_MIN_EXPECTED * 1000u)
		return LITMUS_V_NOT_OBSERVED;
	if (delay && delay_balanced && delay->iters >= LITMUS_MIN_N && !delay->invalid &&
	    ed < LITMUS_MIN_EXPECTED * 1000u)
		return LITMUS_V_DELAY_ALIKE;
	return LITMUS_V_INCONCLUSIVE;
}

void litmus_claim(struct claim *c, const struct litmus_tally *t, bool balanced, unsigned outcome,
		  const struct litmus_tally *control, bool control_balanced, const char *control_name)
{
	uint64_t seen = litmus_count(t, outcome);

	memset(c, 0, sizeof(*c));
	c->seen = seen;
	c->n = seen || balanced ? t->iters : 0;
	c->control = control_name;
	if (!control_name) {
		c->state = T_CONTROL_NONE;
		return;
	}
	c->state = control && litmus_count(control, outcome) ? T_CONTROL_FIRED : T_CONTROL_NOT_OBSERVED;
	if (control && control_balanced && control->nregs == t->nregs)
		c->expected_x10 = litmus_expected_x1000(control, outcome, c->n) / 100;
}

const char *litmus_verdict_name(enum litmus_verdict v)
{
	switch (v) {
	case LITMUS_V_NO_DATA:		return "no-data";
	case LITMUS_V_HARNESS_BROKEN:	return "harness-broken";
	case LITMUS_V_NOT_SERIALIZING:	return "not-serializing";
	case LITMUS_V_INCONCLUSIVE:	return "inconclusive";
	case LITMUS_V_NOT_OBSERVED:	return "serializing-not-observed-to-fail";
	case LITMUS_V_DELAY_ALIKE:	return "not-distinguished-from-delay";
	}
	return "?";
}

static int verdict_rank(enum litmus_verdict v)
{
	switch (v) {
	case LITMUS_V_HARNESS_BROKEN:	return 5;
	case LITMUS_V_NOT_SERIALIZING:	return 4;
	case LITMUS_V_NOT_OBSERVED:	return 3;
	case LITMUS_V_DELAY_ALIKE:	return 2;
	case LITMUS_V_INCONCLUSIVE:	return 1;
	case LITMUS_V_NO_DATA:		return 0;
	}
	return 0;
}

enum litmus_verdict litmus_verdict_combine(enum litmus_verdict a, enum litmus_verdict b)
{
	return verdict_rank(a) >= verdict_rank(b) ? a : b;
}
