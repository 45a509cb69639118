/* SPDX-License-Identifier: GPL-2.0-only */
/* The claims rules; see claims.h. */
#include "lib/claims.h"
#include "lib/printf.h"
#include "lib/string.h"

enum claim_strength claim_strength(const struct claim *c)
{
	if (c->measured)
		return c->n ? CLAIM_MEASURED : CLAIM_TOO_FEW;
	if (c->seen)
		return CLAIM_SEEN;
	if (c->n < CLAIM_MIN_N)
		return CLAIM_TOO_FEW;
	if (!c->control || c->state == T_CONTROL_NONE)
		return CLAIM_NO_CONTROL;
	if (c->state != T_CONTROL_FIRED || c->expected_x10 == CLAIM_EXPECTED_ZERO ||
	    c->expected_x10 < CLAIM_MIN_EXPECTED_X10)
		return CLAIM_NO_POWER;
	return CLAIM_NOT_OBSERVED;
}

const char *claim_control_name(enum t_control s)
{
	return s == T_CONTROL_FIRED ? "fired" : s == T_CONTROL_NOT_OBSERVED ? "not-observed" : "none";
}

/* "E" as d.d from the x10 count, or "unknown" */
static void expected_text(uint64_t x10, char *buf, size_t size)
{
	if (x10 == CLAIM_EXPECTED_ZERO)
		rl_snprintf(buf, size, "0.0");
	else if (!x10)
		rl_snprintf(buf, size, "unknown");
	else
		rl_snprintf(buf, size, "%llu.%llu", (unsigned long long)(x10 / 10),
			    (unsigned long long)(x10 % 10));
}

int claim_words(const struct claim *c, char *buf, size_t size)
{
	char e[32];
	unsigned long long n = (unsigned long long)c->n;

	expected_text(c->expected_x10, e, sizeof(e));
	switch (claim_strength(c)) {
	case CLAIM_MEASURED:
		return rl_snprintf(buf, size, "n=%llu", n);
	case CLAIM_SEEN:
		return rl_snprintf(buf, size, "seen %llu of %llu", (unsigned long long)c->seen, n);
	case CLAIM_TOO_FEW:
		return rl_snprintf(buf, size, "too few samples (n=%llu, fewer than %u)", n, CLAIM_MIN_N);
	case CLAIM_NO_CONTROL:
		return rl_snprintf(buf, size, "not observed in %llu (no control)", n);
	case CLAIM_NO_POWER:
		if (c->state != T_CONTROL_FIRED)
			return rl_snprintf(buf, size, "no power (control %s %s; n=%llu)",
					   c->control, claim_control_name(c->state), n);
		return rl_snprintf(buf, size, "no power (control %s expected %s in %llu, fewer than %u.%u)",
				   c->control, e, n, CLAIM_MIN_EXPECTED_X10 / 10,
				   CLAIM_MIN_EXPECTED_X10 % 10);
	default:
		return rl_snprintf(buf, size, "not observed in %llu (control %s fired, expected %s; floor %s)",
				   n, c->control, e, c->floor && c->floor[0] ? c->floor : "not stated");
	}
}

void claim_tally_add(struct claim_tally *t, const char *control, enum t_control state)
{
	if (state == T_CONTROL_NONE)
		return;
	t->claims++;
	if (state == T_CONTROL_FIRED) {
		t->fired++;
		return;
	}
	const char *name = control && control[0] ? control : "unnamed";
	size_t len = strlen(t->missing), add = (len ? 1 : 0) + strlen(name);

	if (len + add + 1 > sizeof(t->missing)) {
		t->missing_cut = true;
		return;
	}
	rl_snprintf(t->missing + len, sizeof(t->missing) - len, "%s%s", len ? "," : "", name);
}

const char *claim_tally_summary(const struct claim_tally *t)
{
	if (!t->claims)
		return "none";
	if (t->fired == t->claims)
		return "fired";
	return t->fired ? "partial" : "not-observed";
}
