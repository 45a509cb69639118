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
 * instruction, the baseline to subtract).  `after_stores` also times each
 * instruction of the suite's own loops after NSTORES stores that miss
 * every cache level (metrics miss.*, baseline miss.none): the lines are
 * flushed with CLFLUSH before each trial, each iteration stores to fresh
 * lines of its own 4 KiB page (slot_at()), so a fence there waits for
 * RFOs from memory, not for L1 writes; IRET to self and MOV to CR2 time
 * in the platform's loop, which stores to the same lines, and have no
 * miss variant.  Interrupts are off around each
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
 * (u= says which); a "budget:" line says what was cut.  The miss loops
 * start from U = MISS_U_QUICK and take MISS_TRIALS_QUICK trials there.  The `alone`
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
 * The fence_cost answer: the alone medians, and the hit and miss deltas
 * with their noise, of LFENCE, SFENCE, MFENCE, MFENCE;LFENCE and LOCK ADD,
 * each a measured claim (a cost: no control; n = the fewest usable trials
 * among those it names).
 *
 * Instructions: LFENCE, SFENCE, MFENCE, MFENCE;LFENCE (SDM vol. 2), LOCK ADD to the stack
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

/* The miss variant: iteration i's stores go to slots (128-byte pairs of
 * lines) first + i * nlines + k of a buffer flushed before the trial
 * (flush_slots()), so no store finds its line in any cache level.  Each
 * iteration covers one 4 KiB page of 32 slots, visited in a scrambled
 * order (slot r of the page at r * 13 mod 32) so the stream prefetchers,
 * which follow ascending or descending runs within a page, do not fetch
 * the lines ahead of the stores; one line per 128-byte pair, so the
 * adjacent-line prefetcher's fetch of the buddy line is never used.  The
 * address arithmetic is in the baseline too (loop_miss_none). */
#define SLOT_BYTES	128
#define PAGE_SLOTS	32
static inline volatile uint64_t *slot_at(uint8_t *buf, unsigned j)
{
	unsigned s = (j & ~(PAGE_SLOTS - 1u)) | ((j * 13u) & (PAGE_SLOTS - 1u));

	return (volatile uint64_t *)(buf + (size_t)s * SLOT_BYTES);
}

#define DEFINE_MISS(name, insn, ...) \
	static uint64_t miss_##name(unsigned reps, uint8_t *buf, unsigned nlines) \
	{ \
		uint64_t scratch = 0, t0 = lfence_rdtsc(); \
		for (unsigned i = 0; i < reps; i++) { \
			for (unsigned k = 0; k < nlines; k++) \
				*slot_at(buf, i * nlines + k) = i; \
			__asm__ volatile(insn : "+m"(scratch) : : "memory", ##__VA_ARGS__); \
		} \
		return lfence_rdtsc() - t0; \
	}

#define DEFINE_BOTH(name, insn, ...) \
	DEFINE_FENCE(name, insn, ##__VA_ARGS__) \
	DEFINE_MISS(name, insn, ##__VA_ARGS__)

DEFINE_BOTH(none, "")
DEFINE_BOTH(lfence, "lfence")
DEFINE_BOTH(sfence, "sfence")
DEFINE_BOTH(mfence, "mfence")
/* the pair Linux's weak_wrmsr_fence() puts before an x2APIC ICR write */
DEFINE_BOTH(mfence_lfence, "mfence\n\tlfence")
DEFINE_BOTH(lock_add, "lock addq $0, %0", "cc")
DEFINE_BOTH(xchg, "xchgq %%rax, %0", "rax")
DEFINE_BOTH(cpuid, "xor %%eax, %%eax\n\tcpuid", "rax", "rbx", "rcx", "rdx")
/* SERIALIZE is 0F 01 E8, spelled as bytes for old assemblers */
DEFINE_BOTH(serialize, ".byte 0x0f, 0x01, 0xe8")

enum kind { K_INLINE, K_SERIALIZE, K_PRIV };

static const struct fence {
	const char *name;
	uint64_t (*loop)(unsigned reps, volatile uint64_t *lines, unsigned nlines);
	enum kind kind;
	enum plat_priv_op op;
	unsigned u;		/* U: fewer for the slow ones */
	/* the miss variant (NULL: the platform seam's loop stores to the
	 * same lines every iteration, so it has none) */
	uint64_t (*miss)(unsigned reps, uint8_t *buf, unsigned nlines);
} fences[] = {
	{ "lfence", loop_lfence, K_INLINE, 0, 64, miss_lfence },
	{ "sfence", loop_sfence, K_INLINE, 0, 64, miss_sfence },
	{ "mfence", loop_mfence, K_INLINE, 0, 64, miss_mfence },
	{ "mfence_lfence", loop_mfence_lfence, K_INLINE, 0, 64, miss_mfence_lfence },
	{ "lock_add", loop_lock_add, K_INLINE, 0, 64, miss_lock_add },
	{ "xchg", loop_xchg, K_INLINE, 0, 64, miss_xchg },
	{ "serialize", loop_serialize, K_SERIALIZE, 0, 16, miss_serialize },
	{ "cpuid", loop_cpuid, K_INLINE, 0, 16, miss_cpuid },
	{ "iret_self", NULL, K_PRIV, PLAT_PRIV_IRET_SELF, 16, NULL },
	{ "mov_cr2", NULL, K_PRIV, PLAT_PRIV_MOV_CR2, 16, NULL },
};
#define NFENCES (sizeof(fences) / sizeof(fences[0]))

/* The miss variant's buffer: three U-iteration runs (the warm-up, U, 2U)
 * at the largest U, one 4 KiB page of slots per iteration. */
#define MISS_U_MAX	64
#define MISS_SLOTS	(3 * MISS_U_MAX * NSTORES)

/* Evict the first n slots' lines of buf from every level of the cache
 * hierarchy: CLFLUSH invalidates the line everywhere, writing it back if
 * dirty (SDM vol. 2A CLFLUSH); MFENCE orders CLFLUSH (SDM vol. 2A MFENCE),
 * so every flush is done before the timed loop reads the TSC. */
static void flush_slots(uint8_t *buf, unsigned n)
{
	for (unsigned j = 0; j < n; j++)
		__asm__ volatile("clflush %0" : "+m"(*(volatile uint8_t *)(buf + (size_t)j * SLOT_BYTES)));
	__asm__ volatile("mfence" : : : "memory");
}

/* One timed loop; false (with why) if the platform cannot run it.  miss:
 * the miss variant, its stores from the start of miss on. */
static bool timed(const struct fence *f, unsigned reps, volatile uint64_t *lines, unsigned nlines,
		  uint8_t *miss, uint64_t *cycles, const char **why)
{
	if (miss) {
		*cycles = f->miss(reps, miss, nlines);
		return true;
	}
	if (f->kind == K_PRIV)
		return plat_priv_loop(f->op, reps, lines, nlines, cycles, why);
	*cycles = f->loop(reps, lines, nlines);
	return true;
}

static const struct fence none = { "none", loop_none, K_INLINE, 0, 64, miss_none };

/* quick without iters=: a miss trial flushes and refills 3U pages (about
 * half a millisecond at U = 64 on one machine), so the miss loops start
 * from a smaller U and take fewer trials, to keep the case near its time
 * before they were added; the budget: line counts what they cut. */
#define MISS_U_QUICK		8
#define MISS_TRIALS_QUICK	5

static unsigned start_u(const struct fence *f, const uint8_t *miss, uint64_t quick)
{
	return miss && quick && f->u > MISS_U_QUICK ? MISS_U_QUICK : f->u;
}

/* Per-iteration cost distribution of f with nlines stores before each
 * (miss: the miss variant on that buffer, flushed before each trial);
 * returns the number of usable trials (0: not available, why set).  *u
 * gets the U the trials ran; quick: the loop's share of the case's quick
 * budget (0 otherwise). */
static size_t measure(const struct fence *f, unsigned nlines, volatile uint64_t *lines, uint8_t *miss,
		      uint64_t *c, size_t *trials, size_t *dropped, const char **why, uint64_t cap,
		      uint64_t quick, unsigned *u)
{
	uint64_t a, b, end, t0 = lfence_rdtsc();
	size_t k = 0, want = *trials, min_usable = quick ? MIN_USABLE_QUICK : MIN_USABLE;
	unsigned w = quick && start_u(f, miss, quick) > WARMUP_QUICK ? WARMUP_QUICK : start_u(f, miss, quick);

	*dropped = 0;
	*u = start_u(f, miss, quick);
	if (miss)
		flush_slots(miss, w * nlines);
	if (!timed(f, w, lines, nlines, miss, &a, why))	/* warm-up, and availability */
		return 0;
	if (miss)	/* the fit below counts the flush too */
		a = lfence_rdtsc() - t0;
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
		if (miss)
			flush_slots(miss, 3 * *u * nlines);
		uint64_t flags = plat_irq_save();

		(void)timed(f, *u, lines, nlines, miss, &a, why);
		(void)timed(f, 2 * *u, lines, nlines, miss ? miss + (size_t)*u * nlines * SLOT_BYTES : NULL,
			    &b, why);
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

/* What the answer needs, per instruction (by fences[] index) and
 * variant: the alone median, the after-stores deltas with their noise,
 * and the usable trials each rests on. */
enum variant { V_ALONE, V_HIT, V_MISS, NVARIANTS };
static struct res {
	bool ok;
	uint64_t p50;
	int64_t delta;
	uint64_t noise;
	size_t n;
} ans[16][NVARIANTS];

/* The instructions the answer names, in its order (the serializing ones
 * are in the metrics and conclusion lines: the answer line has room for
 * the fences' three costs). */
static const char *const ans_names[] = { "lfence", "sfence", "mfence", "mfence_lfence", "lock_add" };
#define NANS (sizeof(ans_names) / sizeof(ans_names[0]))
static const unsigned from_order[NANS] = { 2, 3, 4, 1, 0 };

/* The answer's from= is held to this much (kernel/answers.c keeps 400,
 * and the answer line is at most REP_LINE_MAX with from= and the
 * environment's note in it): the miss claim, named last, lists the metrics
 * that fit, MFENCE's first (from_order), so the line is never cut short. */
#define FROM_ROOM	340
static size_t from_used;

static const char *const metric_prefix[NVARIANTS] = { "fence.alone.", "fence.after_stores.",
						      "fence.after_stores.miss." };

/* One claim of the fence_cost answer: each named instruction's cost in
 * variant v.  A cost has no effect to see and no control: a measured
 * claim on the fewest usable trials among those it names. */
static void answer(struct test_ctx *t, enum variant v)
{
	char text[400] = "", from[FROM_ROOM + 1] = "";
	size_t fewest = SIZE_MAX;

	for (unsigned a = 0; a < NANS; a++)
		for (unsigned i = 0; i < NFENCES && i < 16; i++) {
			const struct res *r = &ans[i][v];
			size_t lt = strlen(text);

			if (strcmp(fences[i].name, ans_names[a]) || !r->ok)
				continue;
			if (v == V_ALONE)
				rl_snprintf(text + lt, sizeof(text) - lt, "%s%s %llu", lt ? ", " : "",
					    fences[i].name, (unsigned long long)r->p50);
			else
				rl_snprintf(text + lt, sizeof(text) - lt, "%s%s %+lld+-%llu", lt ? ", " : "",
					    fences[i].name, (long long)r->delta, (unsigned long long)r->noise);
			if (r->n < fewest)
				fewest = r->n;
		}
	for (unsigned a = 0; a < NANS; a++)
		for (unsigned i = 0; i < NFENCES && i < 16; i++) {
			const char *n = ans_names[v == V_MISS ? from_order[a] : a];
			size_t lf = strlen(from);
			char name[64];

			if (strcmp(fences[i].name, n) || !ans[i][v].ok)
				continue;
			rl_snprintf(name, sizeof(name), "%s%s", metric_prefix[v], n);
			if (from_used + lf + strlen(name) + 2 <= FROM_ROOM)
				rl_snprintf(from + lf, sizeof(from) - lf, "%s%s", lf ? "," : "", name);
		}
	if (fewest == SIZE_MAX)
		return;
	from_used += strlen(from) + 1;

	struct claim cl = { NULL, T_CONTROL_NONE, fewest, fewest, 0, NULL, true };

	if (v == V_ALONE)
		t_answer_claim(t, ANSWER_FENCE_COST, from, &cl, "Alone (p50 cycles): %s", text);
	else if (v == V_HIT)
		t_answer_claim(t, ANSWER_FENCE_COST, from, &cl,
			       "After %u stores, p50 delta over the stores alone in cycles +-noise (within it: no measurable cost; below it: an artefact), L1 hits: %s",
			       NSTORES, text);
	else
		t_answer_claim(t, ANSWER_FENCE_COST, from, &cl, "misses (lines CLFLUSHed): %s", text);
}

/* What one case's loops share. */
struct run {
	struct test_ctx *t;
	unsigned nlines;
	uint64_t *c;
	volatile uint64_t *lines;
	size_t want;
	uint64_t cap;
	bool budgeted;
	unsigned guest;
	/* quick without iters=: the baseline and each instruction share the
	 * quick budget (next_share()), and sh tallies what it cut */
	struct t_share sh;
	unsigned u_cut, loops, capped;
};

static size_t want_of(const struct run *r, const uint8_t *miss)
{
	return miss && r->budgeted && r->want > MISS_TRIALS_QUICK ? MISS_TRIALS_QUICK : r->want;
}

/* A baseline: the stores with no instruction (after_stores; miss: the
 * missing stores), the empty loop (alone). */
static struct spread baseline(struct run *r, uint8_t *miss)
{
	struct test_ctx *t = r->t;
	size_t want = want_of(r, miss), trials = want, dropped;
	const char *why = "";
	unsigned u;
	uint64_t share = next_share(t, &r->sh);
	size_t k = measure(&none, r->nlines, r->lines, miss, r->c, &trials, &dropped, &why, r->cap, share, &u);
	struct spread base = spread_of(r->c, k);

	t_share_took(&r->sh, trials, want);
	r->u_cut += u < start_u(&none, miss, share), r->loops++, r->capped += r->guest && trials < want;
	t_metric_dist(t, miss ? "miss.none" : "none", r->c, k, "cycles",
		      "method=u2u u=%u stores=%u dropped=%zu p25=%llu p75=%llu what=%s%s",
		      u, r->nlines, dropped, (unsigned long long)base.p25, (unsigned long long)base.p75,
		      !r->nlines ? "empty-loop-baseline" : miss ? "missing-stores-only-baseline" :
		      "stores-only-baseline", miss ? " evict=clflush" : "");
	return base;
}

/* One instruction in one variant; true if it was measured. */
static bool one(struct run *r, unsigned i, uint8_t *miss, const struct spread *base)
{
	struct test_ctx *t = r->t;
	const struct fence *f = &fences[i];
	enum variant v = !r->nlines ? V_ALONE : miss ? V_MISS : V_HIT;
	size_t want = want_of(r, miss), trials = want, dropped;
	const char *why = "";
	char mname[48];
	unsigned u;
	uint64_t share = next_share(t, &r->sh);

	rl_snprintf(mname, sizeof(mname), miss ? "miss.%s" : "%s", f->name);
	size_t k = measure(f, r->nlines, r->lines, miss, r->c, &trials, &dropped, &why, r->cap, share, &u);

	if (!k && dropped == 0) {
		t_diag(t, "%s not measured: %s", mname, why);
		return false;
	}
	t_share_took(&r->sh, trials, want);
	r->u_cut += u < start_u(f, miss, share), r->loops++, r->capped += r->guest && trials < want;
	struct spread sp = spread_of(r->c, k);
	char dfields[200] = "";
	int64_t delta = 0;
	uint64_t noise = 0;

	if (k && base->ok) {
		delta = (int64_t)sp.p50 - (int64_t)base->p50;
		noise = noise_of(&sp, base);
		rl_snprintf(dfields, sizeof(dfields),
			    " delta=%lld noise=%llu noise_rule=half-sum-of-p25-p75-spreads delta_verdict=%s",
			    (long long)delta, (unsigned long long)noise, delta_verdict(delta, noise));
	}
	t_metric_dist(t, mname, r->c, k, "cycles",
		      "method=u2u u=%u stores=%u dropped=%zu trials=%zu tsc_hz=%llu p25=%llu p75=%llu baseline=fence.%s.%s%s%s",
		      u, r->nlines, dropped, trials, (unsigned long long)plat_tsc_hz(),
		      (unsigned long long)sp.p25, (unsigned long long)sp.p75,
		      r->nlines ? "after_stores" : "alone", miss ? "miss.none" : "none",
		      miss ? " evict=clflush" : "", dfields);
	if (k) {
		uint64_t p50 = sp.p50;
		char dtext[160] = "";
		bool same = base->ok && !strcmp(delta_verdict(delta, noise), "indistinguishable");

		if (base->ok)
			rl_snprintf(dtext, sizeof(dtext), "%+lld vs %s, noise %llu: %s", (long long)delta,
				    v == V_ALONE ? "the empty loop" : v == V_HIT ? "the stores alone" :
				    "the missing stores alone",
				    (unsigned long long)noise,
				    same ? "indistinguishable from none" :
				    delta > 0 ? "above the noise" : "below the noise (faster than the baseline?)");
		else
			str_copy(dtext, "baseline not measured", sizeof(dtext));
		if (i < 16) {
			struct res *a = &ans[i][v];

			a->ok = v == V_ALONE || base->ok;
			a->p50 = p50;
			a->delta = delta;
			a->noise = noise;
			a->n = k;
		}
		/* quick: the answer and the metrics give alone and miss */
		if (v == V_HIT)
			t_conclude(t, "%s after %u stores: median %llu cycles (%llu ns), %s",
				   f->name, r->nlines, (unsigned long long)p50,
				   (unsigned long long)(p50 * 1000000000ull / plat_tsc_hz()), dtext);
		else if (v == V_MISS && !r->budgeted)
			t_conclude(t, "%s after %u stores that miss: median %llu cycles (%llu ns), %s",
				   f->name, r->nlines, (unsigned long long)p50,
				   (unsigned long long)(p50 * 1000000000ull / plat_tsc_hz()), dtext);
		else if (!r->budgeted)
			t_conclude(t, "%s alone: median %llu cycles (%llu ns), %s", f->name,
				   (unsigned long long)p50,
				   (unsigned long long)(p50 * 1000000000ull / plat_tsc_hz()), dtext);
	}
	/* Most trials must be usable (else the window was interrupted more
	 * often than not); a time-capped run of a few trials needs only its
	 * 3 usable ones (quick without iters=: 1), and so does quick under an
	 * emulator (two QEMUs on two host cores dropped 36 of 50):
	 * t_check_usable(). */
	t_check_usable(t, mname, k, trials, r->budgeted ? MIN_USABLE_QUICK : MIN_USABLE, trials < 20);
	return true;
}

static bool serialize_absent(struct test_ctx *t, const struct fence *f, bool say)
{
	if (f->kind != K_SERIALIZE || plat_cpu_has(X86_FEATURE_SERIALIZE))
		return false;
	if (say) {
		char lacks[200];

		x86_feature_absent_why(X86_FEATURE_SERIALIZE, "SERIALIZE", lacks, sizeof(lacks));
		t_diag(t, "%s not measured: %s", f->name, lacks);
	}
	return true;
}

static void run(struct test_ctx *t, unsigned nlines)
{
	struct run r = { .t = t, .nlines = nlines, .budgeted = t_budgeted(t) };
	size_t trials = (size_t)t_iters(t, 1000, 50);
	unsigned measured = 0, nmiss = 0, missed = 0;
	/* the miss variant: after stores only, and only where CLFLUSH
	 * evicts the lines (CPUID.1:EDX[19]) */
	bool miss_on = nlines && plat_cpu_has(X86_FEATURE_CLFLUSH);
	uint8_t *miss = NULL;

	r.c = t_alloc(t, trials * sizeof(uint64_t));
	r.lines = t_alloc(t, NSTORES * 64);
	r.want = trials;
	r.guest = t_guest_cap_ms(t, T_CAP_FENCE_TRIALS);
	r.cap = plat_ns_to_cycles((t_quick(t) ? CAP_QUICK_MS : r.guest ? r.guest : CAP_FULL_MS) * 1000000ull);
	for (unsigned i = 0; i < NFENCES; i++)
		nmiss += fences[i].miss != NULL;
	if (miss_on) {
		miss = t_alloc_big(t, (size_t)MISS_SLOTS * SLOT_BYTES);
		/* one store a page, so no page is first touched (a fault
		 * where the OS backs pages lazily) inside a timed loop */
		for (size_t p = 0; p < (size_t)MISS_SLOTS * SLOT_BYTES; p += 4096)
			((volatile uint8_t *)miss)[p] = 0;
	} else if (nlines) {
		char lacks[200];

		x86_feature_absent_why(X86_FEATURE_CLFLUSH, "CLFLUSH", lacks, sizeof(lacks));
		t_diag(t, "stores that miss not measured: %s", lacks);
	}
	t_share_begin(&r.sh, NFENCES + 1 + (miss_on ? nmiss + 1 : 0));

	struct spread base = baseline(&r, NULL);

	for (unsigned i = 0; i < NFENCES; i++) {
		if (serialize_absent(t, &fences[i], true)) {
			t_share_skip(&r.sh);
			continue;
		}
		measured += one(&r, i, NULL, &base);
	}
	t_check(t, measured >= 6, "only %u instructions could be measured", measured);
	if (miss_on) {
		struct spread mbase = baseline(&r, miss);

		for (unsigned i = 0; i < NFENCES; i++) {
			if (!fences[i].miss)
				continue;
			if (serialize_absent(t, &fences[i], false)) {
				t_share_skip(&r.sh);
				continue;
			}
			missed += one(&r, i, miss, &mbase);
		}
		t_check(t, missed >= 5, "only %u instructions could be measured after stores that miss", missed);
		t_diag(t, "after stores that miss: the seam's loops (iret_self, mov_cr2) store to the same lines each iteration, so they have no miss variant");
	}
	if (r.capped)
		t_guest_cap_note(t, T_CAP_FENCE_TRIALS, "%u of %u loops stopped before %zu trials (trials= says how many ran)",
				 r.capped, r.loops, r.want);
	if (r.budgeted) {
		char what[160];

		rl_snprintf(what, sizeof(what), "trials over all loops, %u with U cut to fit (u=)%s", r.u_cut,
			    nlines ? "" : "; per-instruction conclusions in the answer and metrics");
		t_budget_note(t, what, r.sh.done, r.sh.planned);
		if (r.sh.done >= r.sh.planned && (r.u_cut || !nlines))
			t_diag(t, "budget: %s", what);
	}
	if (!nlines) {
		from_used = 0;
		answer(t, V_ALONE);
		return;
	}
	answer(t, V_HIT);
	if (miss_on)
		answer(t, V_MISS);
	else
		t_answer(t, ANSWER_FENCE_COST, NULL, T_CONTROL_NONE,
			 "After stores that miss: not measured (no CLFLUSH).");
}

TEST(fence, alone)
{
	run(t, 0);
}

TEST(fence, after_stores)
{
	run(t, NSTORES);
}
