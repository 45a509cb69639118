/* SPDX-License-Identifier: GPL-2.0-only */
/* Run policy: how much a case does.  The runner answers from the profile
 * (full, quick, quick with iters=), the environment (bare metal, hosted,
 * hypervisor, emulator) and the case's budget; suites ask (kernel/test.h
 * "run policy") and never decide it from the context's fields themselves.
 * Shared by the kernel and the hosted build.
 *
 * Everything that cuts a measurement short says so in a "budget:" line
 * (t_budget_note, t_share_note, t_guest_cap_note), so a reader of the log
 * knows which n= are smaller than the profile's. */
#include <stdarg.h>
#include "kernel/test.h"
#include "kernel/platform.h"
#include "lib/printf.h"
#include "lib/string.h"

/* ---- the profile ---- */

enum t_profile t_profile(const struct test_ctx *t)
{
	if (!t->quick)
		return T_PROFILE_FULL;
	return t->quick_end_tsc ? T_PROFILE_QUICK : T_PROFILE_QUICK_ITERS;
}

bool t_quick(const struct test_ctx *t)
{
	return t->quick;
}

bool t_budgeted(const struct test_ctx *t)
{
	return t->quick_end_tsc != 0;
}

uint64_t t_pick(const struct test_ctx *t, uint64_t full, uint64_t quick_iters, uint64_t quick)
{
	switch (t_profile(t)) {
	case T_PROFILE_QUICK:
		return quick;
	case T_PROFILE_QUICK_ITERS:
		return quick_iters;
	default:
		return full;
	}
}

uint64_t t_iters(const struct test_ctx *t, uint64_t full, uint64_t quick)
{
	if (t->iters)
		return t->iters;
	return t->quick ? quick : full;
}

bool t_iters_given(const struct test_ctx *t)
{
	return t->iters != 0;
}

bool t_failed(const struct test_ctx *t)
{
	return t->result == RES_FAIL;
}

/* ---- the one emulator-cap rule ----
 * A full run of ring 0 under an emulator or hypervisor times the
 * emulator's instructions, not the hardware's (docs/testing.md "Full runs
 * under an emulator"), so its long loops stop early.  Which loops, how
 * long, and the two exceptions (a cap that iters= does not lift, a cap
 * that only QEMU TCG's single software TSC warrants) are this table. */
static const struct guest_cap {
	const char *what;	/* the loop it caps, for the budget: line */
	unsigned ms;
	bool with_iters;	/* also applies when iters= is given */
	bool tcg_only;		/* only under QEMU TCG (env=emulator:qemu-tcg): a
				 * KVM guest with the hypervisor bit hidden can
				 * also call itself emulator:qemu or :bochs, and
				 * its TSC is the hardware's */
} guest_caps[T_NCAPS] = {
	[T_CAP_CLEAR_SIZE] = { "clear: the sizes measured", 5000, true, false },
	[T_CAP_FENCE_TRIALS] = { "fence: one instruction's trials", 200, true, false },
	[T_CAP_LITMUS_RUN] = { "litmus: one test's iterations", 300, true, false },
	[T_CAP_TSC_ORDER_WINDOW] = { "tsc_order: one variant's window", 150, true, true },
	[T_CAP_WRMSR_VARIANT] = { "wrmsr_order: one variant's rounds", 500, false, false },
};

unsigned t_guest_cap_ms(const struct test_ctx *t, enum t_guest_cap c)
{
	if ((unsigned)c >= T_NCAPS)
		return 0;
	const struct guest_cap *g = &guest_caps[c];

	if (t->quick || !plat_ring0() || !plat_under_emulator())
		return 0;
	if (t->iters && !g->with_iters)
		return 0;
	if (g->tcg_only && strcmp(plat_env(), "emulator:qemu-tcg"))
		return 0;
	return g->ms;
}

void t_guest_cap_note(struct test_ctx *t, enum t_guest_cap c, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	if ((unsigned)c >= T_NCAPS)
		return;
	va_start(ap, fmt);
	rl_vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	t_diag(t, "budget: full run in ring 0 under an emulator or hypervisor (env=%s): %s capped at %u ms: %s%s",
	       plat_env(), guest_caps[c].what, guest_caps[c].ms, what,
	       guest_caps[c].with_iters ? "" : " (iters= runs them all)");
}

/* ---- all-CPU steps in quick under an emulator ----
 * An emulator runs every vCPU on a few host threads, so an all-CPU step
 * costs it the sum of every CPU's work: at 288 CPUs, a quick that takes a
 * second at -smp 4 took a minute.  There the step's total is held to
 * T_QUICK_ALLCPU_CPUS CPUs' worth, shared out so every CPU still takes
 * part.  On bare metal, in the hosted build and outside quick: unchanged. */
bool t_allcpu_bounded(const struct test_ctx *t, unsigned ncpus)
{
	return t->quick && ncpus > T_QUICK_ALLCPU_CPUS && plat_ring0() && plat_under_emulator();
}

uint64_t t_allcpu_share(const struct test_ctx *t, uint64_t work, unsigned ncpus, uint64_t min)
{
	if (!t_allcpu_bounded(t, ncpus))
		return work;
	uint64_t w = work * T_QUICK_ALLCPU_CPUS / ncpus;

	return w < min ? min : w;
}

/* ---- the quick sample budget ---- */


bool t_expired(const struct test_ctx *t)
{
	/* Leave a quarter of the budget for reporting. */
	if (!t->deadline_tsc)
		return false;
	uint64_t soft = t->start_tsc + (t->deadline_tsc - t->start_tsc) / 4 * 3;

	return lfence_rdtsc() >= soft;
}

uint64_t t_quick_budget_cycles(const struct test_ctx *t)
{
	return t->quick_end_tsc ? t->quick_end_tsc - t->start_tsc : 0;
}

bool t_quick_spent(const struct test_ctx *t)
{
	return t->quick_end_tsc && lfence_rdtsc() >= t->quick_end_tsc;
}

uint64_t t_soft_end_tsc(const struct test_ctx *t)
{
	uint64_t soft = 0;

	if (t->deadline_tsc)
		soft = t->start_tsc + (t->deadline_tsc - t->start_tsc) / 4 * 3;
	if (t->quick_end_tsc && (!soft || t->quick_end_tsc < soft))
		soft = t->quick_end_tsc;
	return soft;
}

void t_budget_note(struct test_ctx *t, const char *what, uint64_t done, uint64_t planned)
{
	if (done >= planned)
		return;
	t_diag(t, "budget: %s%sstopped after %llu of %llu samples (quick budget %llu ms)",
	       what ? what : "", what && *what ? ": " : "", (unsigned long long)done,
	       (unsigned long long)planned, (unsigned long long)t->quick_budget_ms);
}

void t_share_begin(struct t_share *s, unsigned measurements)
{
	*s = (struct t_share){ .left = measurements };
}

void t_share_skip(struct t_share *s)
{
	if (s->left)
		s->left--;
}

uint64_t t_share_cycles(const struct test_ctx *t, const struct t_share *s, uint64_t from)
{
	uint64_t end = t->quick_end_tsc ? t->quick_end_tsc + s->credit : 0;

	return end > from ? (end - from) / (s->left ? s->left : 1) : 0;
}

uint64_t t_share_case_cycles(const struct test_ctx *t, const struct t_share *s, uint64_t from)
{
	if (t_budgeted(t))
		return t_share_cycles(t, s, from);
	uint64_t soft = t_soft_end_tsc(t);

	if (!soft)
		return UINT64_MAX;
	return soft > from ? (soft - from) / (s->left ? s->left : 1) : 0;
}

void t_share_took(struct t_share *s, uint64_t done, uint64_t planned)
{
	s->runs++;
	s->cut += done < planned;
	s->done += done;
	s->planned += planned;
}

void t_share_note(struct test_ctx *t, const struct t_share *s, const char *unit, const char *how_n)
{
	char what[128];

	if (!s->cut)
		return;
	rl_snprintf(what, sizeof(what), "%u of %u %s cut short (%s)", s->cut, s->runs, unit, how_n);
	t_budget_note(t, what, s->done, s->planned);
}

bool t_check_usable(struct test_ctx *t, const char *what, size_t usable, size_t ran,
		    size_t min_usable, bool few)
{
	bool host_noise = t->quick && plat_under_emulator();

	if (usable > ran / 2)
		return true;
	if ((few || host_noise) && usable >= min_usable) {
		if (host_noise)
			t_diag(t, "%s: %zu of %zu trials usable: the host interrupted the rest (env=%s)",
			       what, usable, ran, plat_env());
		return true;
	}
	return t_fail(t, "%s: only %zu of %zu trials usable", what, usable, ran);
}

