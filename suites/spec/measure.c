/* SPDX-License-Identifier: GPL-2.0-only */
/* spec: the timing bracket, its overhead, the samples and the spec_cost
 * answer (suites/spec/spec.h says how a sample is taken). */
#include "suites/spec/spec.h"
#include "kernel/test.h"
#include "kernel/platform.h"
#include "lib/printf.h"

struct t_overhead spec_overhead;
char spec_overhead_text[120];

void spec_say_env(struct test_ctx *t)
{
	static bool said;

	/* quick: once a run (every metric carries env= too; the line is
	 * ~30 ms of console under a KVM that emulates ring 0) */
	if (t_budgeted(t) && said)
		return;
	said = true;
	if (plat_under_emulator())
		t_conclude(t, "WRMSRs and VERW may be VM exits or emulated here: these costs are those of %s, not the CPU's",
			   plat_env());
}

void spec_answer_cost(struct test_ctx *t, const char *what, const char *label, const uint64_t *s,
		      size_t n)
{
	char from[128];

	if (!n)
		return;
	/* a cost: a measurement with no effect to see, and so no control
	 * (lib/claims.h); its words are its n */
	struct claim c = { .control = NULL, .state = T_CONTROL_NONE, .n = n, .measured = true };

	rl_snprintf(from, sizeof(from), "%s.%s", t->full_name, what);
	t_answer_claim(t, ANSWER_SPEC_COST, from, &c, "%s p50 %llu cycles", label,
		       (unsigned long long)s[(n - 1) / 2]);
}

#define OVERHEAD_PAIRS 64

void spec_measure_overhead(void)
{
	t_overhead_measure(&spec_overhead, T_BRACKET_LFENCE, OVERHEAD_PAIRS);
	t_overhead_text(&spec_overhead, spec_overhead_text, sizeof(spec_overhead_text));
}

size_t spec_iters(struct test_ctx *t)
{
	return (size_t)t_iters(t, 10000, 64);
}

uint64_t *spec_samples(struct test_ctx *t, size_t n)
{
	return t_alloc(t, n * sizeof(uint64_t));
}

static struct t_share budget;
static const struct test_ctx *budget_t;

void spec_budget_begin(struct test_ctx *t, unsigned measurements)
{
	budget_t = t;
	t_share_begin(&budget, measurements);
}

void spec_budget_skip(void)
{
	t_share_skip(&budget);
}

uint64_t spec_budget_end(void)
{
	if (!budget_t || !t_budgeted(budget_t))
		return 0;
	uint64_t now = lfence_rdtsc();

	/* a spent budget: "now", so the measurement takes its minimum */
	return now + t_share_cycles(budget_t, &budget, now);
}

void spec_budget_took(size_t done, size_t planned)
{
	spec_budget_skip();
	t_share_took(&budget, done, planned);
}

void spec_budget_note(struct test_ctx *t)
{
	t_share_note(t, &budget, "measurements", "each metric's n= is its count");
}
