/* SPDX-License-Identifier: GPL-2.0-only */
/* fence: what each fence and serializing instruction costs, alone and
 * right after a burst of stores (a fence has to wait for the store buffer
 * to drain, so it costs more when stores are outstanding).
 *
 * Method (nanoBench's, as in the rdtsc suite): time U and 2U iterations of
 * one loop between LFENCE;RDTSC stamps; (T(2U) - T(U)) / U is one
 * iteration with the stamps, the call and the loop set-up removed.  An
 * iteration is the instruction alone (case `alone`) or NSTORES stores to
 * distinct 64-byte lines of an L1-resident buffer followed by the
 * instruction (case `after_stores`; `none` is the stores with no
 * instruction, the baseline to subtract).  Interrupts are off around each
 * trial in ring 0.  1000 trials (quick 50, or iters=), stopped after
 * 1.5 s (0.2 s when quick; in a full run of ring 0 under an emulator or
 * hypervisor the runner's cap, t_guest_cap_ms(), with a budget: line) per
 * instruction, once 3 were usable; trials= says how many ran.  Reported
 * in TSC cycles: min, median, p99.
 *
 * Quick without iters= is a time budget: each of the loops (the baseline
 * and each instruction) gets an equal share of what is left of the case's
 * quick budget (t_share_cycles(); an instruction not measured leaves its
 * share to the rest) and stops once 1 trial was usable; the warm-up runs
 * min(U, 8) iterations, and where it shows that one trial (U + 2U iterations)
 * would overrun the share (an emulator that interprets ring 0: ~100 us
 * per iteration of 32 stores), U is halved until it fits, at least 1
 * (u= says which); a "budget:" line says what was cut.  The `alone`
 * conclusions are left out there (the fence_cost answer gives each
 * median, the metrics each delta and verdict): under such an emulator
 * each line costs milliseconds.
 *
 * Noise bound: every delta (an instruction's median minus its baseline's:
 * the stores alone after stores, the empty loop alone) carries
 * noise = (IQR(op) + IQR(baseline)) / 2, at least 1 cycle (the U/2U
 * difference is quantized to whole cycles), IQR = p75 - p25 of the
 * trials.  A delta with |delta| <= noise reads "indistinguishable from
 * none" in the conclusion line and delta_verdict=indistinguishable in the
 * metric; a negative delta outside it reads below-noise (the fence sped
 * the loop up: a measurement artefact to look at, not a cost).
 *
 * Instructions: LFENCE, SFENCE, MFENCE (SDM vol. 2), LOCK ADD to the stack
 * and XCHG with memory (locked read-modify-writes, SDM vol. 3 §9.1.2),
 * SERIALIZE (X86_FEATURE_SERIALIZE), CPUID (leaf 0; a VM exit in a guest),
 * and through the platform seam IRET to self and, in ring 0 only, MOV to
 * CR2 (serializing instructions, SDM vol. 3 §10.3).  Published anchors on
 * one Intel machine: CPUID ~83 ns, IRET to self ~110 ns, MOV CR2 ~42 ns. */
#include "kernel/test.h"
#include "kernel/platform.h"
#include "lib/printf.h"
#include "lib/stats.h"
#include "lib/string.h"

SUITE_HOSTED(fence, 110, "cost of fences and serializing instructions, alone and after outstanding stores");

#define NSTORES		32
/* trials per instruction stop early after this long (an emulator) */
#define CAP_QUICK_MS	200
#define CAP_FULL_MS	1500	/* ring 0 under an emulator: t_guest_cap_ms() */
#define MIN_USABLE	3
#define MIN_USABLE_QUICK	1	/* quick without iters=: one honest trial */
#define WARMUP_QUICK	8	/* quick without iters=: warm-up iterations, at most */
#define LINE_WORDS	8	/* uint64_t per 64-byte line */

#define DEFINE_FENCE(name, insn, ...) \
	static uint64_t loop_##name(unsigned reps, volatile uint64_t *lines, unsigned nlines) \
	{ \
		uint64_t scratch = 0, t0 = lfence_rdtsc(); \
		for (unsigned i = 0; i < reps; i++) { \
			for (unsigned k = 0; k < nlines; k++) \
				lines[k * LINE_WORDS] = i; \
			__asm__ volatile(insn : "+m"(scratch) : : "memory", ##__VA_ARGS__); \
		} \
		return lfence_rdtsc() - t0; \
	}

DEFINE_FENCE(none, "")
DEFINE_FENCE(lfence, "lfence")
DEFINE_FENCE(sfence, "sfence")
DEFINE_FENCE(mfence, "mfence")
DEFINE_FENCE(lock_add, "lock addq $0, %0", "cc")
DEFINE_FENCE(xchg, "xchgq %%rax, %0", "rax")
DEFINE_FENCE(cpuid, "xor %%eax, %%eax\n\tcpuid", "rax", "rbx", "rcx", "rdx")
/* SERIALIZE is 0F 01 E8, spelled as bytes for old assemblers */
DEFINE_FENCE(serialize, ".byte 0x0f, 0x01, 0xe8")

enum kind { K_INLINE, K_SERIALIZE, K_PRIV };

static const struct fence {
	const char *name;
	uint64_t (*loop)(unsigned reps, volatile uint64_t *lines, unsigned nlines);
	enum kind kind;
	enum plat_priv_op op;
	unsigned u;		/* U: fewer for the slow ones */
} fences[] = {
	{ "lfence", loop_lfence, K_INLINE, 0, 64 },
	{ "sfence", loop_sfence, K_INLINE, 0, 64 },
	{ "mfence", loop_mfence, K_INLINE, 0, 64 },
	{ "lock_add", loop_lock_add, K_INLINE, 0, 64 },
	{ "xchg", loop_xchg, K_INLINE, 0, 64 },
	{ "serialize", loop_serialize, K_SERIALIZE, 0, 16 },
	{ "cpuid", loop_cpuid, K_INLINE, 0, 16 },
	{ "iret_self", NULL, K_PRIV, PLAT_PRIV_IRET_SELF, 16 },
	{ "mov_cr2", NULL, K_PRIV, PLAT_PRIV_MOV_CR2, 16 },
};
#define NFENCES (sizeof(fences) / sizeof(fences[0]))

/* One timed loop; false (with why) if the platform cannot run it. */
static bool timed(const struct fence *f, unsigned reps, volatile uint64_t *lines, unsigned nlines,
		  uint64_t *cycles, const char **why)
{
	if (f->kind == K_PRIV)
		return plat_priv_loop(f->op, reps, lines, nlines, cycles, why);
	*cycles = f->loop(reps, lines, nlines);
	return true;
}

static const struct fence none = { "none", loop_none, K_INLINE, 0, 64 };

/* Per-iteration cost distribution of f with nlines stores before each;
 * returns the number of usable trials (0: not available, why set).  *u
 * gets the U the trials ran; quick: the loop's share of the case's quick
 * budget (0 otherwise). */
static size_t measure(const struct fence *f, unsigned nlines, volatile uint64_t *lines,
		      uint64_t *c, size_t *trials, size_t *dropped, const char **why, uint64_t cap,
		      uint64_t quick, unsigned *u)
{
	uint64_t a, b, end;
	size_t k = 0, want = *trials, min_usable = quick ? MIN_USABLE_QUICK : MIN_USABLE;
	unsigned w = quick && f->u > WARMUP_QUICK ? WARMUP_QUICK : f->u;

	*dropped = 0;
	*u = f->u;
	if (!timed(f, w, lines, nlines, &a, why))	/* warm-up, and availability */
		return 0;
	/* quick: one trial, U + 2U iterations, must fit the loop's share */
	while (quick && *u > 1 && 3 * (uint64_t)*u * a / w > quick)
		*u /= 2;
	end = lfence_rdtsc() + (quick ? quick : cap);
	for (size_t n = 0; n < want; n++) {
		/* The time cap ends the run once 3 trials (quick: 1) were
		 * usable: under a hypervisor an exit inside the window often
		 * makes U slower than 2U, and 3 trials with 2 dropped say
		 * nothing. */
		if (k >= min_usable && lfence_rdtsc() > end) {
			*trials = n;
			break;
		}
		uint64_t flags = plat_irq_save();

		(void)timed(f, *u, lines, nlines, &a, why);
		(void)timed(f, 2 * *u, lines, nlines, &b, why);
		plat_irq_restore(flags);
		if (b > a)
			c[k++] = (b - a) / *u;
		else
			(*dropped)++;	/* an interruption made U slower than 2U */
	}
	return k;
}

/* quick without iters=: the next loop's share of what is left of the
 * case's quick budget, at least 1 cycle (a spent budget still leaves the
 * loop its one usable trial, at the smallest U); 0 outside it. */
static uint64_t next_share(const struct test_ctx *t, struct t_share *sh)
{
	if (!t_budgeted(t))
		return 0;
	uint64_t c = t_share_cycles(t, sh, lfence_rdtsc());

	t_share_skip(sh);
	return c ? c : 1;
}

/* The noise bound of a delta (see the top). */
struct spread {
	uint64_t p25, p50, p75;
	bool ok;
};

static struct spread spread_of(uint64_t *c, size_t k)
{
	struct spread s = { 0, 0, 0, false };

	if (!k)
		return s;
	sort_u64(c, k);
	s.p25 = percentile_sorted(c, k, 25);
	s.p50 = percentile_sorted(c, k, 50);
	s.p75 = percentile_sorted(c, k, 75);
	s.ok = true;
	return s;
}

static uint64_t noise_of(const struct spread *op, const struct spread *base)
{
	uint64_t n = ((op->p75 - op->p25) + (base->p75 - base->p25)) / 2;

	return n ? n : 1;
}

static const char *delta_verdict(int64_t delta, uint64_t noise)
{
	if (delta >= -(int64_t)noise && delta <= (int64_t)noise)
		return "indistinguishable";
	return delta > 0 ? "above-noise" : "below-noise";
}

/* What the answer needs, per instruction of the answer (by fences[]
 * index): the alone median and the after-stores delta with its noise. */
static struct {
	bool alone, after;
	uint64_t alone_p50;
	int64_t delta;
	uint64_t noise;
} ans[16];

/* The instructions the answer names, in its order. */
static const char *const ans_names[] = { "lfence", "sfence", "mfence", "lock_add", "cpuid", "serialize" };
#define NANS (sizeof(ans_names) / sizeof(ans_names[0]))

static void answer(struct test_ctx *t, unsigned nlines)
{
	char text[400] = "", from[300] = "";
	const char *cname = nlines ? "after_stores" : "alone";
	bool any = false;

	for (unsigned a = 0; a < NANS; a++)
		for (unsigned i = 0; i < NFENCES; i++) {
			size_t lt = strlen(text), lf = strlen(from);

			if (strcmp(fences[i].name, ans_names[a]) || !(nlines ? ans[i].after : ans[i].alone))
				continue;
			if (nlines && !strcmp(delta_verdict(ans[i].delta, ans[i].noise), "indistinguishable"))
				rl_snprintf(text + lt, sizeof(text) - lt, "%s%s indistinguishable from none (%+lld, noise %llu)",
					    lt ? ", " : "", fences[i].name, (long long)ans[i].delta,
					    (unsigned long long)ans[i].noise);
			else if (nlines)
				rl_snprintf(text + lt, sizeof(text) - lt, "%s%s %+lld (noise %llu%s)", lt ? ", " : "",
					    fences[i].name, (long long)ans[i].delta,
					    (unsigned long long)ans[i].noise,
					    ans[i].delta < 0 ? ", below the baseline: an artefact" : "");
			else
				rl_snprintf(text + lt, sizeof(text) - lt, "%s%s %llu", lt ? ", " : "", fences[i].name,
					    (unsigned long long)ans[i].alone_p50);
			rl_snprintf(from + lf, sizeof(from) - lf, "%sfence.%s.%s", lf ? "," : "", cname,
				    fences[i].name);
			any = true;
		}
	if (!any)
		return;
	if (nlines) {
		size_t lf = strlen(from);

		rl_snprintf(from + lf, sizeof(from) - lf, ",fence.after_stores.none");
		t_answer(t, ANSWER_FENCE_COST, from, T_CONTROL_NONE,
			 "After %u stores, over the stores alone (p50 delta, cycles): %s; a delta inside the noise (half the summed p25..p75 spreads) reads indistinguishable.",
			 nlines, text);
	} else {
		t_answer(t, ANSWER_FENCE_COST, from, T_CONTROL_NONE,
			 "Alone (p50 cycles per instruction and loop iteration): %s.", text);
	}
}

static void run(struct test_ctx *t, unsigned nlines)
{
	size_t trials = (size_t)t_iters(t, 1000, 50);
	uint64_t *c = t_alloc(t, trials * sizeof(uint64_t));
	volatile uint64_t *lines = t_alloc(t, NSTORES * 64);
	unsigned measured = 0;
	struct spread base = { 0, 0, 0, false };
	size_t dropped, want = trials;
	const char *why = "";
	/* quick without iters=: the baseline and each instruction share the
	 * quick budget (next_share()), and sh tallies what it cut */
	bool budgeted = t_budgeted(t);
	struct t_share sh;
	unsigned u, u_cut = 0, loops = 0, capped = 0;
	unsigned guest = t_guest_cap_ms(t, T_CAP_FENCE_TRIALS);
	uint64_t cap = plat_ns_to_cycles((t_quick(t) ? CAP_QUICK_MS : guest ? guest : CAP_FULL_MS) *
					 1000000ull);

	t_share_begin(&sh, NFENCES + 1);
	/* the baseline: the stores with no instruction (after_stores), the
	 * empty loop (alone) */
	{
		size_t k = measure(&none, nlines, lines, c, &trials, &dropped, &why, cap,
				   next_share(t, &sh), &u);

		base = spread_of(c, k);
		t_share_took(&sh, trials, want);
		u_cut += u < none.u, loops++, capped += guest && trials < want;
		t_metric_dist(t, "none", c, k, "cycles",
			      "method=u2u u=%u stores=%u dropped=%zu p25=%llu p75=%llu what=%s",
			      u, nlines, dropped, (unsigned long long)base.p25,
			      (unsigned long long)base.p75, nlines ? "stores-only-baseline" : "empty-loop-baseline");
	}
	for (unsigned i = 0; i < NFENCES; i++) {
		const struct fence *f = &fences[i];

		if (f->kind == K_SERIALIZE && !plat_cpu_has(X86_FEATURE_SERIALIZE)) {
			char lacks[200];

			x86_feature_absent_why(X86_FEATURE_SERIALIZE, "SERIALIZE", lacks, sizeof(lacks));
			t_diag(t, "%s not measured: %s", f->name, lacks);
			t_share_skip(&sh);
			continue;
		}
		trials = want;
		size_t k = measure(f, nlines, lines, c, &trials, &dropped, &why, cap,
				   next_share(t, &sh), &u);

		if (!k && dropped == 0) {
			t_diag(t, "%s not measured: %s", f->name, why);
			continue;
		}
		t_share_took(&sh, trials, want);
		u_cut += u < f->u, loops++, capped += guest && trials < want;
		struct spread sp = spread_of(c, k);
		char dfields[200] = "";
		int64_t delta = 0;
		uint64_t noise = 0;

		if (k && base.ok) {
			delta = (int64_t)sp.p50 - (int64_t)base.p50;
			noise = noise_of(&sp, &base);
			rl_snprintf(dfields, sizeof(dfields),
				    " delta=%lld noise=%llu noise_rule=half-sum-of-p25-p75-spreads delta_verdict=%s",
				    (long long)delta, (unsigned long long)noise, delta_verdict(delta, noise));
		}
		t_metric_dist(t, f->name, c, k, "cycles",
			      "method=u2u u=%u stores=%u dropped=%zu trials=%zu tsc_hz=%llu p25=%llu p75=%llu baseline=fence.%s.none%s",
			      u, nlines, dropped, trials, (unsigned long long)plat_tsc_hz(),
			      (unsigned long long)sp.p25, (unsigned long long)sp.p75,
			      nlines ? "after_stores" : "alone", dfields);
		if (k) {
			uint64_t p50 = sp.p50;
			char dtext[160] = "";
			bool same = base.ok && !strcmp(delta_verdict(delta, noise), "indistinguishable");

			if (base.ok)
				rl_snprintf(dtext, sizeof(dtext), "%+lld vs %s, noise %llu: %s", (long long)delta,
					    nlines ? "the stores alone" : "the empty loop",
					    (unsigned long long)noise,
					    same ? "indistinguishable from none" :
					    delta > 0 ? "above the noise" : "below the noise (faster than the baseline?)");
			else
				str_copy(dtext, "baseline not measured", sizeof(dtext));
			if (i < 16) {
				if (nlines) {
					ans[i].after = base.ok;
					ans[i].delta = delta;
					ans[i].noise = noise;
				} else {
					ans[i].alone = true;
					ans[i].alone_p50 = p50;
				}
			}
			if (nlines)
				t_conclude(t, "%s after %u stores: median %llu cycles (%llu ns), %s",
				       f->name, nlines, (unsigned long long)p50,
				       (unsigned long long)(p50 * 1000000000ull / plat_tsc_hz()), dtext);
			else if (!budgeted)	/* quick: the answer and the metrics say it */
				t_conclude(t, "%s alone: median %llu cycles (%llu ns), %s", f->name,
				       (unsigned long long)p50,
				       (unsigned long long)(p50 * 1000000000ull / plat_tsc_hz()), dtext);
		}
		/* Most trials must be usable (else the window was interrupted
		 * more often than not); a time-capped run of a few trials needs
		 * only its 3 usable ones (quick without iters=: 1), and so does
		 * quick under an emulator (two QEMUs on two host cores dropped
		 * 36 of 50): t_check_usable(). */
		t_check_usable(t, f->name, k, trials, budgeted ? MIN_USABLE_QUICK : MIN_USABLE,
			       trials < 20);
		measured++;
	}
	t_check(t, measured >= 6, "only %u instructions could be measured", measured);
	if (capped)
		t_guest_cap_note(t, T_CAP_FENCE_TRIALS, "%u of %u loops stopped before %zu trials (trials= says how many ran)",
				 capped, loops, want);
	if (budgeted) {
		char what[160];

		rl_snprintf(what, sizeof(what), "trials over all loops, %u with U cut to fit (u=)%s", u_cut,
			    nlines ? "" : "; per-instruction conclusions in the answer and metrics");
		t_budget_note(t, what, sh.done, sh.planned);
		if (sh.done >= sh.planned && (u_cut || !nlines))
			t_diag(t, "budget: %s", what);
	}
	answer(t, nlines);
}

TEST(fence, alone)
{
	run(t, 0);
}

TEST(fence, after_stores)
{
	run(t, NSTORES);
}
