/* SPDX-License-Identifier: GPL-2.0-only */
/* tsc_order: can time go backwards across CPUs?  The four shapes of Andy
 * Lutomirski's evil-clock-test (luto/misc-tests), the question behind the
 * rejected "x86/vdso: Use non-serializing instruction rdtsc" patch.  Each
 * shape runs for every way of reading the clock:
 *
 *   now    the writer keeps storing its clock into a shared word; the
 *          reader loads the word, then reads its own clock.  The value
 *          loaded was taken before the reader's read, so it must not be
 *          larger.
 *   load   the writer stores ++seq, then takes a strict MFENCE;LFENCE;RDTSC
 *          stamp W(seq).  The reader reads its clock, then loads seq = s.
 *          Having seen s and not s+1, its read happened before s+1 was
 *          stored, so clock <= W(s+1).
 *   load3  three CPUs.  The writer increments seq.  A loads seq, then reads
 *          its clock; B reads its clock, then loads seq.  A time B took
 *          before seeing a value below k must not exceed a time A took
 *          after seeing k.
 *   store  like load, but the writer stamps with the variant under test
 *          right after the store: a clock that does not wait for earlier
 *          stores can stamp before the store is visible, so errors are
 *          expected for every variant except MFENCE;LFENCE;RDTSC.  They are
 *          reported, not failed.
 *
 * The "error" is how many cycles a clock went backwards at worst over all
 * samples, and `backward` how many samples did.
 *
 * Verdicts follow what the SDM guarantees for each shape (vol. 2, RDTSC,
 * RDTSCP, LFENCE; AMD APM vol. 3 RDTSC), because a shape needs a specific
 * ordering:
 *   - now (load, then clock) needs the read to wait for the earlier load:
 *     LFENCE;RDTSC, RDTSCP, MFENCE;LFENCE;RDTSC, LFENCE;RDTSC;LFENCE;
 *   - load (clock, then load) needs later loads to wait for the read,
 *     which only a trailing LFENCE gives: RDTSC;LFENCE, LFENCE;RDTSC;LFENCE.
 *     The SDM says outright that instructions after RDTSC and RDTSCP may
 *     start before the counter is read, so LFENCE;RDTSC, RDTSCP and
 *     MFENCE;LFENCE;RDTSC may go backwards here (seen on AMD EPYC: RDTSCP
 *     by 73 cycles);
 *   - load3 has both orders: only LFENCE;RDTSC;LFENCE is guaranteed.
 * A guaranteed variant going backwards fails the case; every other result
 * is the measured answer, reported with verdict=reported, never failed.
 * (Checking LFENCE;RDTSC, RDTSCP and MFENCE;LFENCE;RDTSC in load and
 * load3 too would fail machines that behave as documented.)  Cross-CPU
 * TSC offsets show up as errors too (tsc.sync bounds them), which is
 * right: to software, time went backwards.
 *
 * Negative control (case `control`): the `now` shape with the reader's
 * clock shifted back by a planted step S must report S as a backward
 * error.  S is scaled to the detection floor, the freshest value a reader
 * saw in an unshifted run (the smallest margin by which a check passed:
 * no step smaller than that can show at all): CONTROL_FLOOR_X times it, so
 * the control shows the detector catching steps of the size that matter
 * here, not one far beyond them.  Where it is not caught (an emulator that
 * runs the two vCPUs in turns leaves most values far staler than the
 * freshest), S is escalated, and each attempt says so.
 *
 * The answer (given by `control`, which runs last, for the shapes that ran
 * before it) rests on the evidence per claim: every check records its
 * margin, how far the clocks compared stayed on the right side, in a
 * histogram.  A clock error of S in the direction the shape checks turns
 * every check whose margin was below S into a backward step, so the number
 * of such checks is how many sightings a real step of the planted size
 * would have given in that claim's own samples (its expected count, lib/
 * claims.h), and the planted run shows the detector does report them.
 *
 * Runs in the kernel and in ringlab-hosted. */
#include "kernel/test.h"
#include "kernel/platform.h"
#include "lib/printf.h"
#include "lib/string.h"

SUITE_HOSTED(tsc_order, 95, "cross-CPU TSC monotonicity, evil-clock-test shapes now/load/load3/store");

/* The planted step: CONTROL_FLOOR_X times the detection floor, at least
 * CONTROL_MIN_STEP cycles (a floor of a few cycles, two CPUs sharing a
 * core, would plant a step below one read's own cost); CONTROL_NO_FLOOR
 * where the unshifted run passed no check at all and has no floor. */
#define CONTROL_FLOOR_X		4
#define CONTROL_MIN_STEP	64
#define CONTROL_NO_FLOOR	100000
#define CONTROL_SHIFT_MAX (1ll << 40)	/* minutes of TSC: stale beyond that is a lost CPU */

/* Margins, in quarter-octave buckets: values 0-3 exactly, then four
 * buckets per power of two (a bucket spans at most a quarter of its lower
 * bound).  Counting the checks "below S" takes only the buckets that end
 * at or below S, so the count is a lower bound, never an overstatement. */
#define MARGIN_BUCKETS	252

static inline unsigned margin_bucket(uint64_t m)
{
	if (m < 4)
		return (unsigned)m;
	unsigned e = 63u - (unsigned)__builtin_clzll(m);

	return 4 * (e - 1) + (unsigned)((m >> (e - 2)) & 3);
}

/* The first margin above bucket b's values (saturated). */
static uint64_t margin_bucket_end(unsigned b)
{
	if (b < 4)
		return b + 1;
	unsigned e = b / 4 + 1;
	unsigned __int128 end = (unsigned __int128)(5 + b % 4) << (e - 2);

	return end > UINT64_MAX ? UINT64_MAX : (uint64_t)end;
}

/* Checks whose margin was surely below s (a saturated end bounds
 * nothing). */
static uint64_t margins_below(const uint64_t *h, uint64_t s)
{
	uint64_t n = 0;

	for (unsigned b = 0; b < MARGIN_BUCKETS; b++) {
		uint64_t end = margin_bucket_end(b);

		if (end > s || end == UINT64_MAX)
			break;
		n += h[b];
	}
	return n;
}

/* The readers under test: the shared list (arch/x86/tsc_read.h) up to
 * LFENCE;RDTSC;LFENCE.  CPUID;RDTSC and SERIALIZE;RDTSC are left out: both
 * serialize fully (no ordering question), and CPUID exits to the
 * hypervisor in a guest. */
#define NV (TSC_READER_lfence_rdtsc_lfence + 1)
#define vname(v) (tsc_readers[v].name)

enum shape { S_NOW, S_LOAD, S_LOAD3, S_STORE };

struct vt {
	uint64_t v, t;
};

struct run {
	enum shape shape;
	enum tsc_reader var;
	int64_t reader_shift;		/* negative control */
	unsigned writer, a, b;		/* CPUs; b only for load3 */
	struct tsc_barrier bar;
	uint64_t duration;
	size_t cap;

	volatile uint64_t word __attribute__((aligned(64)));	/* now: clock; else seq */
	volatile int stop __attribute__((aligned(64)));
	volatile int ready_a, ready_b;	/* readers are sampling */
	volatile int seen_write;	/* now: the reader has loaded a writer value */

	uint64_t *wstamp;		/* load/store: W(seq), index seq */
	size_t nw;
	struct vt *sa, *sb;		/* per-distinct-value samples of A and B */
	size_t na, nb;
	/* now: computed inline by the reader */
	uint64_t worst, backward, samples;
	uint64_t checks;		/* comparisons made (a sample with a value to compare) */
	uint64_t margin[MARGIN_BUCKETS];	/* the checks that passed, by margin */
	uint64_t samples_b;		/* B's own count (load3), summed later */
	uint64_t min_margin;		/* now: smallest (reader time - value seen) */
	volatile unsigned failed_barrier;
};
static struct run order_run;

/* The writer's loops below run for a measured window (r->duration of
 * TSC): the shape's samples are taken while it stores, so they are work,
 * not waits for a condition, and stay loops on the TSC (plat_spin_until
 * is for waits). */
static void writer(struct run *r)
{
	/* Start the clock only once the readers are really running: on an
	 * emulator sharing host cores a reader's vCPU can be descheduled for
	 * the whole window otherwise, and see nothing. */
	(void)plat_spin_until(r->ready_a && (r->shape != S_LOAD3 || r->ready_b), 2000000);
	uint64_t end = lfence_rdtsc() + r->duration;
	size_t s = 0;

	switch (r->shape) {
	case S_NOW: {
		/* Past the window only while the reader has seen no value at
		 * all (its vCPU was descheduled for the whole window on a
		 * loaded emulator host): without overlap the shape measures
		 * nothing and the control cannot fire.  Bounded by T_LOST_US. */
		uint64_t late = end + plat_us_to_cycles(T_LOST_US);

		while (rdtsc() < end || (!r->seen_write && rdtsc() < late))
			r->word = tsc_read(r->var);
		break;
	}
	case S_LOAD:
	case S_STORE:
		while (s + 1 < r->cap && rdtsc() < end) {
			s++;
			r->word = s;
			r->wstamp[s] = r->shape == S_LOAD ? mfence_lfence_rdtsc() : tsc_read(r->var);
		}
		r->nw = s;
		break;
	case S_LOAD3:
		while (rdtsc() < end)
			r->word = r->word + 1;
		break;
	}
	r->stop = 1;
}

/* The readers sample for as long as the writer's window lasts (until it
 * sets r->stop): that is their work, not a wait; a reader whose writer
 * never stops is unwound when run_one's plat_call_many() times out. */

/* Reader that loads then reads the clock (now; A of load3). */
static void load_then_clock(struct run *r, bool is_a)
{
	uint64_t last = ~0ull;

	r->ready_a = 1;
	while (!r->stop) {
		uint64_t x = r->word;
		/* Signed: a control shift larger than the clock itself must
		 * read as "far in the past", not wrap to the far future
		 * (unsigned, 2 of ~40 runs on a loaded host failed that way). */
		__int128 ts = (__int128)tsc_read(r->var) - r->reader_shift;
		uint64_t t = (uint64_t)ts;

		if (!is_a) {
			r->samples++;
			if (!x)
				continue;	/* the writer has stored nothing yet */
			if (!r->seen_write)
				r->seen_write = 1;
			r->checks++;
			if ((__int128)x <= ts) {
				unsigned __int128 m = (unsigned __int128)(ts - x);
				uint64_t m64 = m > UINT64_MAX ? UINT64_MAX : (uint64_t)m;

				if (m64 < r->min_margin)
					r->min_margin = m64;
				r->margin[margin_bucket(m64)]++;
			} else {
				unsigned __int128 d = (unsigned __int128)((__int128)x - ts);
				uint64_t d64 = d > UINT64_MAX ? UINT64_MAX : (uint64_t)d;

				r->backward++;
				if (d64 > r->worst)
					r->worst = d64;
			}
			continue;
		}
		/* load3 A: the first sample after seeing a value has the
		 * smallest time for it. */
		if (x != last && r->na < r->cap) {
			r->sa[r->na++] = (struct vt){ x, t };
			last = x;
		}
		r->samples++;
	}
}

/* Reader that reads the clock then loads (load/store reader; B of load3):
 * keep, per value seen, the latest time. */
static void clock_then_load(struct run *r, bool is_b)
{
	size_t n = 0;
	uint64_t cur = ~0ull, tmax = 0;

	if (is_b)
		r->ready_b = 1;
	else
		r->ready_a = 1;
	while (!r->stop) {
		uint64_t t = tsc_read(r->var);
		uint64_t x = r->word;

		if (x != cur) {
			if (cur != ~0ull && n < r->cap)
				r->sb[n++] = (struct vt){ cur, tmax };
			cur = x;
		}
		tmax = t;
		r->samples_b++;
	}
	if (cur != ~0ull && n < r->cap)
		r->sb[n++] = (struct vt){ cur, tmax };
	r->nb = n;
}

static void participant(void *arg)
{
	struct run *r = arg;
	unsigned me = plat_this_cpu();

	if (!tsc_barrier_wait(&r->bar, plat_ns_to_cycles(T_LOST_US * 1000ull))) {
		r->failed_barrier++;
		r->stop = 1;
		return;
	}
	if (me == r->writer)
		writer(r);
	else if (me == r->a)
		r->shape == S_NOW || r->shape == S_LOAD3 ? load_then_clock(r, r->shape == S_LOAD3)
							 : clock_then_load(r, false);
	else if (me == r->b)
		clock_then_load(r, true);
}

static void analyse(struct run *r)
{
	r->samples += r->samples_b;
	if (r->shape == S_NOW)
		return;
	r->worst = r->backward = r->checks = 0;
	if (r->shape == S_LOAD || r->shape == S_STORE) {
		/* reader saw value v at time t: must be <= W(v+1) */
		for (size_t i = 0; i < r->nb; i++) {
			uint64_t v = r->sb[i].v, t = r->sb[i].t;

			if (v + 1 > r->nw)
				continue;	/* no later store to compare with */
			uint64_t w = r->wstamp[v + 1];

			r->checks++;
			if (t > w) {
				r->backward++;
				if (t - w > r->worst)
					r->worst = t - w;
			} else {
				r->margin[margin_bucket(w - t)]++;
			}
		}
		return;
	}
	/* load3: both lists are in increasing value order (x86 loads of one
	 * location see its stores in order).  For each A sample (vA, tA),
	 * compare with the latest B time among values below vA. */
	size_t j = 0;
	uint64_t bmax = 0;
	bool have = false;

	for (size_t i = 0; i < r->na; i++) {
		while (j < r->nb && r->sb[j].v < r->sa[i].v) {
			if (!have || r->sb[j].t > bmax)
				bmax = r->sb[j].t;
			have = true;
			j++;
		}
		if (!have)
			continue;
		r->checks++;
		if (bmax > r->sa[i].t) {
			r->backward++;
			if (bmax - r->sa[i].t > r->worst)
				r->worst = bmax - r->sa[i].t;
		} else {
			r->margin[margin_bucket(r->sa[i].t - bmax)]++;
		}
	}
}

/* quick without iters= (a time budget): the window of a shape's variant,
 * and of the planted control's runs (kept at 2 ms: its detection needs
 * the reader to overlap the writer) */
#define QUICK_SHAPE_NS		1000000ull
#define QUICK_CONTROL_NS	2000000ull
/* quick with iters=: a variant's window */
#define QUICK_ITERS_SHAPE_NS	20000000ull
/* a variant's window in a full run.  In ring 0 under QEMU TCG, whose TSC
 * is one software counter for every vCPU, the runner caps it
 * (T_CAP_TSC_ORDER_WINDOW, TCG only): the 500 ms were 10 s of a 59 s full
 * run there and cannot show a hardware clock going backwards. */
#define FULL_SHAPE_NS		500000000ull

static uint64_t full_window_ns(const struct test_ctx *t)
{
	unsigned cap_ms = t_guest_cap_ms(t, T_CAP_TSC_ORDER_WINDOW);

	return cap_ms ? cap_ms * 1000000ull : FULL_SHAPE_NS;
}

static bool run_one(struct test_ctx *t, enum shape sh, enum tsc_reader v, int64_t shift,
		    uint64_t quick_ns)
{
	unsigned others[2];
	unsigned need = sh == S_LOAD3 ? 2 : 1;

	if (plat_other_cpus(others, need) < need) {
		t_skip(t, "needs %u CPUs", need + 1);
		return false;
	}
	struct run *r = &order_run;
	uint64_t *ws = r->wstamp;
	struct vt *sa = r->sa, *sb = r->sb;
	size_t cap = r->cap;

	memset(r, 0, sizeof(*r));
	r->min_margin = UINT64_MAX;
	r->wstamp = ws;
	r->sa = sa;
	r->sb = sb;
	r->cap = cap;
	r->shape = sh;
	r->var = v;
	r->reader_shift = shift;
	r->writer = 0;
	r->a = others[0];
	r->b = sh == S_LOAD3 ? others[1] : ~0u;
	/* quick without iters=: quick_ns a variant (a time budget) */
	r->duration = plat_ns_to_cycles(t_pick(t, full_window_ns(t), QUICK_ITERS_SHAPE_NS, quick_ns));
	unsigned list[3] = { others[0], sh == S_LOAD3 ? others[1] : 0, 0 };
	unsigned n = sh == S_LOAD3 ? 3 : 2;

	list[n - 1] = 0;	/* CPU 0 last: it runs inline */
	tsc_barrier_init(&r->bar, n, plat_ns_to_cycles(100000));
	int rc = plat_call_many(list, n, participant, r,
				2 * T_LOST_US / 1000 + 1000 + (t_quick(t) ? 20 : 500), NULL);

	if (rc != PLAT_OK || r->failed_barrier) {
		t_fail(t, "%s: cross-CPU run failed: %s", vname(v),
		       rc ? plat_strerror(rc) : "barrier timeout");
		return false;
	}
	analyse(r);
	return true;
}

/* One unzeroed allocation for the three sample arrays: every slot is
 * written before it is read (wstamp[1..nw], sa[0..na), sb[0..nb)), and
 * zeroing them is what a case cost under a software KVM that emulates
 * every ring-0 store: 0.8 MB (the quick size) took ~0.4 s of each
 * case's ~0.5 s there, the larger buffers 1.6 s. */
static void alloc_buffers(struct test_ctx *t)
{
	/* quick without iters= (a 1-2 ms window a variant): 20000 samples */
	size_t cap = t_budgeted(t) ? 20000 : (size_t)t_iters(t, 2000000, 100000);
	size_t bytes = cap * (sizeof(uint64_t) + 2 * sizeof(struct vt));
	uint8_t *p = t_alloc_big(t, bytes);

	order_run.cap = cap;
	order_run.wstamp = (uint64_t *)p;
	order_run.sa = (struct vt *)(p + cap * sizeof(uint64_t));
	order_run.sb = order_run.sa + cap;
}

/* ---- the answer's evidence: one record per shape and reader ----
 * The claims pool them in three groups: plain RDTSC in now/load/load3;
 * the readers the SDM orders for their shape (the checked ones); the rest
 * (unordered fenced readers, and every reader in `store`, whose errors are
 * expected).  The control case, which knows the planted step, turns each
 * record's margins into its expected count. */
enum group { G_PLAIN, G_ORDERED, G_OTHER, NGROUPS };

static const char *const shape_names[] = { "now", "load", "load3", "store" };

struct member {
	bool ran;
	uint64_t n, seen, worst;
	uint64_t margin[MARGIN_BUCKETS];
};
static struct member members[4][NV];

static enum group group_of(enum shape sh, int v, bool verdict)
{
	if (sh == S_STORE)
		return G_OTHER;
	if (v == TSC_READER_rdtsc)
		return G_PLAIN;
	return verdict ? G_ORDERED : G_OTHER;
}

static bool reader_verdict(enum shape sh, int v)
{
	const struct tsc_reader_info *ri = &tsc_readers[v];

	return sh == S_NOW ? ri->after_loads :
	       sh == S_LOAD ? ri->before_loads :
	       sh == S_LOAD3 ? ri->after_loads && ri->before_loads : false;
}

static void shape_case(struct test_ctx *t, enum shape sh, const char *shape_name)
{
	unsigned nskip = 0;

	memset(members[sh], 0, sizeof(members[sh]));
	alloc_buffers(t);
	if (t_guest_cap_ms(t, T_CAP_TSC_ORDER_WINDOW))
		t_guest_cap_note(t, T_CAP_TSC_ORDER_WINDOW,
				 "%llu ms elsewhere (QEMU TCG's TSC is one software counter for every vCPU)",
				 FULL_SHAPE_NS / 1000000);
	if (sh == S_STORE)
		t_diag(t, "store: errors are expected for every clock that does not wait for earlier stores (all but mfence_lfence_rdtsc); reported, not failed");
	else
		t_diag(t, "checked (must not go backwards): the variants the SDM orders for this shape; the rest are reported");
	for (int v = 0; v < NV; v++) {
		struct x86_cpu_feature need;

		if (tsc_reader_needs((enum tsc_reader)v, &need) && !plat_cpu_has(need)) {
			char why[200];

			x86_feature_absent_why(need, vname(v), why, sizeof(why));
			t_diag(t, "%s not run: %s", vname(v), why);
			continue;
		}
		bool verdict = reader_verdict(sh, v);

		/* quick without iters= (a time budget): the three-CPU shape
		 * runs the variants it checks and plain RDTSC (the answer's)
		 * only; under an emulator each run waits for three vCPUs to
		 * share the host's cores (QEMU TCG on 2 host cores: ~8 ms a
		 * variant, against ~1 ms for the two-CPU shapes) */
		if (sh == S_LOAD3 && t_budgeted(t) && !verdict && v != TSC_READER_rdtsc) {
			nskip++;
			continue;
		}
		if (!run_one(t, sh, (enum tsc_reader)v, 0, QUICK_SHAPE_NS))
			return;

		t_metric_value(t, vname(v), (int64_t)order_run.worst, "cycles",
			       "backward=%llu samples=%llu guaranteed=%s verdict=%s env=%s checks=%llu",
			       (unsigned long long)order_run.backward, (unsigned long long)order_run.samples,
			       verdict ? "yes" : "no", verdict ? "checked" : "reported", plat_env(),
			       (unsigned long long)order_run.checks);
		if (verdict)
			t_check(t, order_run.backward == 0,
				"%s %s: time went backwards %llu times, by up to %llu cycles", shape_name,
				vname(v), (unsigned long long)order_run.backward, (unsigned long long)order_run.worst);
		t_check(t, order_run.samples > 0, "%s %s: no samples", shape_name, vname(v));

		struct member *m = &members[sh][v];

		m->ran = true;
		m->n = order_run.checks;
		m->seen = order_run.backward;
		m->worst = order_run.worst;
		memcpy(m->margin, order_run.margin, sizeof(m->margin));
	}
	if (nskip)
		t_diag(t, "budget: %s: %u reported-only variants not run (quick budget)", shape_name, nskip);
}

TEST(tsc_order, now, .budget_ms = 60000)
{
	shape_case(t, S_NOW, "now");
}

TEST(tsc_order, load, .budget_ms = 60000)
{
	shape_case(t, S_LOAD, "load");
}

TEST(tsc_order, load3, .budget_ms = 60000)
{
	shape_case(t, S_LOAD3, "load3");
}

TEST(tsc_order, store, .budget_ms = 60000)
{
	shape_case(t, S_STORE, "store");
}

/* ---- the answer (given by the control case, which knows the step) ---- */

struct planted {
	uint64_t step;		/* cycles; 0: the control did not run */
	enum t_control state;
	char floor[48];		/* the claims' floor text */
};

/* One group's claim.  Seen anywhere: "seen K of N" over the whole group,
 * with the worst step and where.  Seen nowhere: the claim rests on the
 * member with the fewest expected sightings (its own n and count), so
 * that "never" is said only where every member alone would have shown a
 * step of the planted size at least CLAIM_MIN_EXPECTED_X10 / 10 times. */
static void answer_group(struct test_ctx *t, const struct planted *p, enum group g, const char *label)
{
	struct claim c = { "planted", p->state, 0, 0, 0, p->floor, false };
	char worst_at[48] = "", weak_at[48] = "", seen_in[96] = "", from[64];
	uint64_t n_all = 0, worst = 0, weak_e = UINT64_MAX, weak_n = 0;
	size_t sl = 0;

	for (int sh = S_NOW; sh <= S_STORE; sh++)
		for (int v = 0; v < NV; v++) {
			const struct member *m = &members[sh][v];

			if (!m->ran || group_of((enum shape)sh, v, reader_verdict((enum shape)sh, v)) != g)
				continue;
			uint64_t e = margins_below(m->margin, p->step);

			n_all += m->n;
			if (e < weak_e || (e == weak_e && m->n < weak_n)) {
				weak_e = e;
				weak_n = m->n;
				rl_snprintf(weak_at, sizeof(weak_at), "%s.%s", shape_names[sh], vname(v));
			}
			if (!m->seen)
				continue;
			if (!c.seen || m->worst > worst) {
				worst = m->worst;
				rl_snprintf(worst_at, sizeof(worst_at), "%s.%s", shape_names[sh], vname(v));
			}
			c.seen += m->seen;
			if (g == G_PLAIN)	/* which shapes, for the plain reader */
				sl += (size_t)rl_snprintf(seen_in + sl, sizeof(seen_in) - sl, " %s %llu/%llu",
							  shape_names[sh], (unsigned long long)m->seen,
							  (unsigned long long)m->n);
		}
	if (!weak_at[0])
		return;		/* no member ran */
	if (c.seen) {
		c.n = n_all;
		rl_snprintf(from, sizeof(from), "tsc_order.%s", worst_at);
		t_answer_claim(t, ANSWER_RDTSC_ORDER, from, &c,
			       "%s backwards%s%s, worst %llu cycles (%llu ns, %s)", label, sl ? " in" : "",
			       seen_in, (unsigned long long)worst,
			       (unsigned long long)plat_cycles_to_ns(worst), worst_at);
		return;
	}
	c.n = weak_n;
	c.expected_x10 = weak_e > UINT64_MAX / 10 ? UINT64_MAX : weak_e * 10;
	rl_snprintf(from, sizeof(from), "tsc_order.%s", weak_at);
	t_answer_claim(t, ANSWER_RDTSC_ORDER, from, &c, "%s %s backwards (weakest %s)", label,
		       claim_strength(&c) == CLAIM_NOT_OBSERVED ? "never" : "not seen", weak_at);
}

TEST(tsc_order, control)
{
	static uint64_t margin0[MARGIN_BUCKETS];	/* the unshifted run's */
	struct planted p = { 0, T_CONTROL_NOT_OBSERVED, "" };

	alloc_buffers(t);
	if (!run_one(t, S_NOW, TSC_READER_mfence_lfence_rdtsc, 0, QUICK_CONTROL_NS))
		return;
	uint64_t fresh = order_run.min_margin, checks0 = order_run.checks;
	int64_t shift, tried;
	int attempts = 0;
	bool seen = false;

	memcpy(margin0, order_run.margin, sizeof(margin0));
	/* A few times the floor; capped, so that neither this nor the x16
	 * steps below overflow. */
	if (fresh == UINT64_MAX)
		shift = CONTROL_NO_FLOOR;
	else if (fresh >= (uint64_t)CONTROL_SHIFT_MAX / CONTROL_FLOOR_X)
		shift = CONTROL_SHIFT_MAX;
	else
		shift = (int64_t)fresh * CONTROL_FLOOR_X < CONTROL_MIN_STEP ? CONTROL_MIN_STEP :
										 (int64_t)fresh * CONTROL_FLOOR_X;
	tried = shift;
	/* How stale most values are varies from run to run under an
	 * emulator, so escalate the step (x16) until it is caught; on
	 * hardware the first try decides.  The last try uses
	 * CONTROL_SHIFT_MAX outright: on an overloaded host a descheduled
	 * writer vCPU has left the word ~11 s (2.8e10 cycles) stale, beyond
	 * three x16 steps. */
	for (int attempt = 0; attempt < 4 && !seen;
	     attempt++, shift = attempt == 3 || shift > CONTROL_SHIFT_MAX / 16 ? CONTROL_SHIFT_MAX :
								      shift * 16) {
		tried = shift;
		if (!run_one(t, S_NOW, TSC_READER_mfence_lfence_rdtsc, shift, QUICK_CONTROL_NS))
			return;
		seen = order_run.backward > 0 && order_run.worst >= (uint64_t)shift / 2;
		attempts = attempt + 1;
		/* each attempt a diagnostic; one metric, the last attempt's,
		 * so the names of a run do not depend on how many it took
		 * (ringlab-report compare lines runs up by name).  predicted:
		 * the unshifted run's checks with a margin below the step,
		 * scaled to this run's checks -- what the claims' expected
		 * counts assume the planted step does */
		uint64_t pred = checks0 ? (uint64_t)((unsigned __int128)margins_below(margin0, (uint64_t)shift) *
						     order_run.checks / checks0) : 0;

		t_diag(t, "planted attempt %d: offset=%lld (%llu ns) worst=%llu cycles freshest=%llu backward=%llu predicted=%llu checks=%llu samples=%llu detected=%s",
		       attempts, (long long)shift, (unsigned long long)plat_cycles_to_ns((uint64_t)shift),
		       (unsigned long long)order_run.worst,
		       (unsigned long long)fresh, (unsigned long long)order_run.backward,
		       (unsigned long long)pred, (unsigned long long)order_run.checks,
		       (unsigned long long)order_run.samples, seen ? "yes" : "no");
	}
	t_metric_value(t, "planted", (int64_t)order_run.worst, "cycles",
		       "offset=%lld attempts=%d freshest=%llu backward=%llu samples=%llu detected=%s floor_x=%llu checks=%llu",
		       (long long)tried, attempts, (unsigned long long)fresh,
		       (unsigned long long)order_run.backward, (unsigned long long)order_run.samples,
		       seen ? "yes" : "no",
		       (unsigned long long)(fresh && fresh != UINT64_MAX ? (uint64_t)tried / fresh : 0),
		       (unsigned long long)order_run.checks);
	t_check(t, seen, "a reader clock shifted back by up to %lld cycles was never detected",
		(long long)tried);

	p.step = (uint64_t)tried;
	p.state = seen ? T_CONTROL_FIRED : T_CONTROL_NOT_OBSERVED;
	rl_snprintf(p.floor, sizeof(p.floor), "%llu cycles", (unsigned long long)p.step);

	struct claim pc = { "planted", p.state, order_run.checks, seen ? order_run.backward : 0,
			    0, p.floor, false };

	if (fresh == UINT64_MAX)
		t_answer_claim(t, ANSWER_RDTSC_ORDER, "tsc_order.control.planted", &pc,
			       "Planted %llu-cycle step (%llu ns; no floor measured)",
			       (unsigned long long)p.step, (unsigned long long)plat_cycles_to_ns(p.step));
	else
		t_answer_claim(t, ANSWER_RDTSC_ORDER, "tsc_order.control.planted", &pc,
			       "Planted %llu-cycle step (%llu ns; floor %llu cycles)",
			       (unsigned long long)p.step, (unsigned long long)plat_cycles_to_ns(p.step),
			       (unsigned long long)fresh);
	answer_group(t, &p, G_PLAIN, "Plain rdtsc");
	answer_group(t, &p, G_ORDERED, "SDM-ordered reads");
	answer_group(t, &p, G_OTHER, "Other reads");
	memset(members, 0, sizeof(members));
}
