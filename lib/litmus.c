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

const char *litmus_start_verdict(const struct litmus_start *s, char *why, size_t size)
{
	uint64_t untied = s->n - s->ties;

	if (size)
		why[0] = '\0';
	if (s->n < LITMUS_START_MIN) {
		rl_snprintf(why, size, "%llu iterations, fewer than %u", (unsigned long long)s->n,
			    LITMUS_START_MIN);
		return "too-few";
	}
	if (s->late * 10 > s->n) {
		rl_snprintf(why, size, "a thread missed the release instant in %llu of %llu iterations",
			    (unsigned long long)s->late, (unsigned long long)s->n);
		return "lopsided";
	}
	for (unsigned i = 0; i < s->nthreads; i++)
		if (untied >= LITMUS_START_MIN && s->first[i] * 10 > untied * 9) {
			rl_snprintf(why, size, "thread %u started first in %llu of %llu untied iterations", i,
				    (unsigned long long)s->first[i], (unsigned long long)untied);
			return "lopsided";
		}
	return "balanced";
}

enum litmus_verdict litmus_barrier_verdict(const struct litmus_tally *t, unsigned relaxed,
					   const struct litmus_tally *control, bool balanced,
					   uint64_t *expected_x1000)
{
	uint64_t e = 0;

	if (control && control->iters && control->nregs == t->nregs)
		e = (uint64_t)(((unsigned __int128)litmus_count(control, relaxed) * t->iters * 1000u) /
			       control->iters);
	if (expected_x1000)
		*expected_x1000 = e;
	if (t->iters == 0)
		return LITMUS_V_NO_DATA;
	if (t->invalid)
		return LITMUS_V_HARNESS_BROKEN;
	if (litmus_count(t, relaxed))
		return LITMUS_V_NOT_SERIALIZING;
	return balanced && e >= LITMUS_MIN_EXPECTED * 1000u ? LITMUS_V_NOT_OBSERVED : LITMUS_V_INCONCLUSIVE;
}

const char *litmus_verdict_name(enum litmus_verdict v)
{
	switch (v) {
	case LITMUS_V_NO_DATA:		return "no-data";
	case LITMUS_V_HARNESS_BROKEN:	return "harness-broken";
	case LITMUS_V_NOT_SERIALIZING:	return "not-serializing";
	case LITMUS_V_INCONCLUSIVE:	return "inconclusive";
	case LITMUS_V_NOT_OBSERVED:	return "serializing-not-observed-to-fail";
	}
	return "?";
}

static int verdict_rank(enum litmus_verdict v)
{
	switch (v) {
	case LITMUS_V_HARNESS_BROKEN:	return 4;
	case LITMUS_V_NOT_SERIALIZING:	return 3;
	case LITMUS_V_NOT_OBSERVED:	return 2;
	case LITMUS_V_INCONCLUSIVE:	return 1;
	case LITMUS_V_NO_DATA:		return 0;
	}
	return 0;
}

enum litmus_verdict litmus_verdict_combine(enum litmus_verdict a, enum litmus_verdict b)
{
	return verdict_rank(a) >= verdict_rank(b) ? a : b;
}
