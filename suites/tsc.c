/* SPDX-License-Identifier: GPL-2.0-only */
/* tsc: calibration references agree; the TSC never goes backwards on one
 * CPU.  (Cross-CPU synchronization is in tsc_sync cases below.) */
#include "kernel/test.h"
#include "arch/x86/cpu.h"
#include "arch/x86/fault.h"
#include "arch/x86/msr.h"
#include "arch/x86/tsc.h"
#include "kernel/platform.h"

SUITE(tsc, 40, "TSC calibration agreement, monotonicity, invariance, TSC_ADJUST, cross-CPU sync");

/* Agreement tolerance between a reference and the chosen frequency:
 * TSC_AGREE_PPM (0.1%) plus the measurement's own uncertainty; nominal
 * CPUID 0x16 values only within TSC_NOMINAL_PPM (2%) (arch/x86/tsc.h). */

TEST(tsc, calibration)
{
	const struct tsc_calibration *cal = tsc_get_calibration();
	unsigned usable = 0;

	/* A declared frequency that the agreeing measured references
	 * contradict was not chosen (arch/x86/tsc.h); it still fails below. */
	if (cal->overruled)
		t_diag(t, "chosen: %s (%s)", cal->source, cal->why);

	for (unsigned i = 0; i < TSC_NREFS; i++) {
		const struct tsc_ref *r = &cal->ref[i];

		if (!r->ok) {
			t_diag(t, "%s: %s", r->name, r->note);
			continue;
		}
		int64_t dev = tsc_dev_ppm(r->hz);
		uint64_t adev = (uint64_t)(dev < 0 ? -dev : dev);
		bool nominal = i == TSC_REF_CPUID16;
		uint64_t tol = nominal ? TSC_NOMINAL_PPM : TSC_AGREE_PPM + r->err_ppm;

		t_metric_value(t, r->name, (int64_t)r->hz, "Hz",
			       "dev_ppm=%lld err_ppm=%llu tolerance_ppm=%llu kind=%s chosen=%s",
			       (long long)dev, (unsigned long long)r->err_ppm,
			       (unsigned long long)tol, r->measured ? "measured" : "declared",
			       cal->source == r->name ? "yes" : "no");
		if (!nominal)
			usable++;
		t_check(t, adev <= tol, "%s says %llu Hz, %lld ppm from the chosen %llu Hz (%s); tolerance %llu ppm",
			r->name, (unsigned long long)r->hz, (long long)dev,
			(unsigned long long)cal->hz, cal->source, (unsigned long long)tol);
	}
	if (usable < 2 && !t_failed(t))
		t_skip(t, "only %u reference(s) besides CPUID 0x16: nothing to cross-check", usable);
}

/* Count backward steps in a sequence of timestamps. */
static size_t count_backwards(const uint64_t *v, size_t n, uint64_t *worst)
{
	size_t back = 0;

	*worst = 0;
	for (size_t i = 1; i < n; i++)
		if (v[i] < v[i - 1]) {
			back++;
			if (v[i - 1] - v[i] > *worst)
				*worst = v[i - 1] - v[i];
		}
	return back;
}

/* Reads per chunk: each chunk is taken with interrupts off, then checked
 * (its first read against the previous chunk's last), so no buffer larger
 * than a chunk is needed and, in quick without iters=, reading stops
 * once the quick budget is spent.  A hypervisor that emulates every
 * ring-0 instruction takes ~4 us a read and as long to check it: 100000
 * reads into a zeroed 0.8 MB buffer were 1.5 s there. */
#define MONO_CHUNK	256

TEST(tsc, monotonic)
{
	size_t n = (size_t)t_iters(t, 1000000, 100000);
	uint64_t v[MONO_CHUNK + 1];	/* v[0]: the previous chunk's last read */
	uint64_t worst = 0, w;
	size_t back = 0, done = 0;
	/* quick without iters=: where its sample budget ends (0: never) */
	uint64_t end = t_budgeted(t) ? t_soft_end_tsc(t) : 0;

	/* Negative control: the checker must see an injected step back. */
	uint64_t fake[4] = { 10, 20, 15, 30 };

	t_check(t, count_backwards(fake, 4, &w) == 1 && w == 5,
		"backward-step checker misses an injected step");

	/* At least one chunk.  The budget is read off the samples, which are
	 * TSC values, so checking it adds no read between two of them. */
	while (done < n) {
		size_t k = n - done < MONO_CHUNK ? n - done : MONO_CHUNK;
		size_t first = done ? 0 : 1;	/* the first chunk has no v[0] */
		uint64_t flags = plat_irq_save();

		for (size_t i = 1; i <= k; i++)
			v[i] = rdtsc();
		plat_irq_restore(flags);
		back += count_backwards(v + first, k + 1 - first, &w);
		if (w > worst)
			worst = w;
		done += k;
		v[0] = v[k];
		if (end && v[k] >= end)
			break;
	}
	t_budget_note(t, "rdtsc reads", done, n);

	t_metric_value(t, "backward_steps", (int64_t)back, "count",
		       "n=%zu worst=%llu variant=rdtsc", done, (unsigned long long)worst);
	t_check(t, back == 0, "plain RDTSC went backwards %zu times on one CPU (worst %llu cycles)",
		back, (unsigned long long)worst);
}

/* ---- invariant TSC, TSC_ADJUST, cross-CPU synchronization ---- */

/* A CPU that claims an invariant TSC fails tsc.sync when its TSC is
 * proven to differ from the boot CPU's by more than this. */
#define TSC_SYNC_LIMIT_NS	1000
/* Smallest synthetic offset for the negative control, in cycles. */
#define TSC_SYNC_CONTROL	100000

TEST(tsc, invariant)
{
	const struct tsc_calibration *cal = tsc_get_calibration();

	char src[32];

	x86_feature_source(X86_FEATURE_CONSTANT_TSC, src, sizeof(src));
	t_diag(t, "invariant TSC (%s): %s", src, plat_cpu_has(X86_FEATURE_CONSTANT_TSC) ? "yes" : "no");
	if (!t_require(t, X86_FEATURE_CONSTANT_TSC, "an invariant TSC"))
		return;
	/* An invariant TSC keeps its rate: re-measure now, after the run has
	 * loaded the machine, against the same reference as at boot. */
	const struct tsc_ref *r = NULL;

	for (unsigned i = TSC_REF_HPET; i <= TSC_REF_PIT; i++)
		if (cal->ref[i].ok && cal->ref[i].measured) {
			r = &cal->ref[i];
			break;
		}
	if (!r) {
		t_skip(t, "no measured reference to re-check the rate against");
		return;
	}
	uint64_t boot_hz = r->hz;

	static struct tsc_calibration now;
	uint64_t hz = 0;

	tsc_measure(&now, plat_acpi(), true);
	for (unsigned i = 0; i < TSC_NREFS; i++)
		if (now.ref[i].name == r->name && now.ref[i].ok)
			hz = now.ref[i].hz;
	int64_t d = (int64_t)hz - (int64_t)boot_hz;
	int64_t ppm = boot_hz ? d * 1000000 / (int64_t)boot_hz : 0;

	t_metric_value(t, "rate_change", ppm, "ppm", "ref=%s boot_hz=%llu now_hz=%llu", r->name,
		       (unsigned long long)boot_hz, (unsigned long long)hz);
	t_check(t, hz && (ppm < 0 ? -ppm : ppm) <= (int64_t)(TSC_AGREE_PPM + 2 * r->err_ppm),
		"TSC rate against %s changed by %lld ppm since boot", r->name, (long long)ppm);
}

static uint64_t *adj;
static bool *adj_ok;

static void read_adjust(void *p)
{
	(void)p;
	unsigned me = plat_this_cpu();

	adj_ok[me] = fault_none(rdmsr_safe(MSR_IA32_TSC_ADJUST, &adj[me]));
}

TEST(tsc, tsc_adjust)
{
	static unsigned list[PLAT_MAX_CPUS];
	unsigned n = 0;

	if (!t_require(t, X86_FEATURE_TSC_ADJUST, "IA32_TSC_ADJUST"))
		return;
	adj = t_alloc(t, plat_ncpus() * sizeof(uint64_t));
	adj_ok = t_alloc(t, plat_ncpus() * sizeof(bool));
	n = plat_online_cpus(list, sizeof(list) / sizeof(list[0]));
	if (plat_call_many(list, n, read_adjust, 0, 2000, NULL) != PLAT_OK) {
		t_fail(t, "could not read TSC_ADJUST on every CPU");
		return;
	}
	unsigned nonzero = 0;

	for (unsigned k = 0; k < n; k++) {
		unsigned i = list[k];

		if (!adj_ok[i]) {
			t_fail(t, "cpu %u: RDMSR IA32_TSC_ADJUST faulted", i);
			continue;
		}
		if (adj[i])
			nonzero++;
		if (adj[i] || t->verbose)
			t_diag(t, "cpu %u: TSC_ADJUST %lld", i, (long long)adj[i]);
		/* Within a package the firmware must have written the same
		 * value everywhere (Linux corrects and warns otherwise). */
		for (unsigned m = 0; m < k; m++) {
			unsigned j = list[m];

			if (plat_cpu_package(i) == plat_cpu_package(j) && adj[i] != adj[j]) {
				t_fail(t, "TSC_ADJUST differs inside package %u: cpu %u %lld, cpu %u %lld",
				       plat_cpu_package(i), j, (long long)adj[j], i, (long long)adj[i]);
				break;
			}
		}
	}
	t_metric_value(t, "nonzero", nonzero, "count", "cpus=%u", n);
}

/* Offset of a CPU's TSC against CPU 0's, by round trips through one cache
 * line: CPU 0 reads t0, posts a request; the other CPU reads t1 on seeing
 * it and answers; CPU 0 reads t2.  The other clock's offset theta obeys
 * t0 <= t1 - theta <= t2, so each round bounds theta to [t1-t2, t1-t0];
 * the intersection over all rounds is the measured bound.  An offset is
 * proven when the whole interval lies on one side of 0. */
struct sync_line {
	volatile uint64_t req __attribute__((aligned(64)));
	volatile uint64_t ack;
	volatile uint64_t t1;
	int64_t fake_offset;	/* negative control: added to the answer */
	volatile int stop;
};
/* Static, not t_alloc()ed: each measurement sets every field it reads,
 * and zeroing a page takes ~3 ms where every ring-0 store is emulated. */
static struct sync_line sync_line_mem;
static struct sync_line *const sl = &sync_line_mem;

/* Answers every request until measure_sync() sets stop; its plat_wait()
 * unwinds it by NMI should that never come. */
static void sync_responder(void *p)
{
	(void)p;
	uint64_t seen = 0;

	while (!sl->stop) {
		uint64_t q = __atomic_load_n(&sl->req, __ATOMIC_ACQUIRE);

		if (q == seen) {
			cpu_relax();
			continue;
		}
		sl->t1 = lfence_rdtsc() + (uint64_t)sl->fake_offset;
		__atomic_store_n(&sl->ack, q, __ATOMIC_RELEASE);
		seen = q;
	}
}

static int64_t llabs_i64(int64_t v)
{
	return v < 0 ? -v : v;
}

struct sync_bound {
	int64_t lo, hi;		/* theta in [lo, hi] cycles */
	uint64_t best_rtt;
	unsigned rounds;
};

/* Longest interrupt-off window of the measurement (a round that waits
 * longer for its answer is lost anyway). */
#define SYNC_IRQOFF_SLICE_NS	10000000ull
/* Fewest rounds a measurement cut short by its budget share still counts
 * with: every round's bound is valid, fewer only make it looser. */
#define SYNC_MIN_ROUNDS		1
static struct test_ctx *sync_t;	/* for t_expired() between slices */
static uint64_t share_end;	/* this measurement's share of the budget (TSC) */
#define SYNC_CONTROL_FLOOR_MS	100	/* quick: the control's least share */
#define SYNC_CONTROL_ATTEMPTS	3	/* plants, each larger than the last's rounds */
static unsigned fewest_rounds;	/* over the measurements that counted */
static bool control_mode;	/* the planted run: done once the plant is proven */

/* Give the next measurement (s counts those to come, itself included)
 * an equal share of what is left: in quick on its time budget of the
 * sample budget (t_share_cycles()), otherwise of the case's budget (its
 * soft three quarters), so that a slow host (12 vCPUs on one core) gets
 * fewer rounds per CPU instead of a TIMEOUT. */
static void set_share(struct test_ctx *t, const struct t_share *s)
{
	uint64_t now = lfence_rdtsc(), c = t_share_case_cycles(t, s, now);

	share_end = c > UINT64_MAX - now ? UINT64_MAX : now + c;
}

static bool out_of_share(void)
{
	return rdtsc() > share_end || (sync_t && t_expired(sync_t));
}

/* CPU 0's interrupt-off slice and the round it awaits. */
struct sync_wait {
	uint64_t k;		/* the round whose answer is awaited */
	uint64_t flags;		/* plat_irq_save()'s, while irqs_off */
	uint64_t slice_end;
	bool irqs_off;
};

/* One look of the wait for round w->k's answer: true once it came, or
 * once the case's budget is used (the round in flight may use more than
 * its share, at least one round per CPU, not more than the budget);
 * interrupts are let in when the slice ends. */
static bool answered_or_spent(struct sync_wait *w)
{
	if (__atomic_load_n(&sl->ack, __ATOMIC_ACQUIRE) == w->k)
		return true;
	if (w->irqs_off && rdtsc() > w->slice_end) {
		plat_irq_restore(w->flags);
		w->irqs_off = false;
	}
	return !w->irqs_off && sync_t && t_expired(sync_t);
}

static bool measure_sync(unsigned cpu, unsigned rounds, int64_t fake, struct sync_bound *b)
{
	sl->req = sl->ack = 0;
	sl->stop = 0;
	sl->fake_offset = fake;
	*b = (struct sync_bound){ INT64_MIN, INT64_MAX, UINT64_MAX, 0 };
	if (plat_post(cpu, sync_responder, 0) != PLAT_OK)
		return false;
	/* Interrupts off only for bounded slices, so that no interrupt-off
	 * window outlasts SYNC_IRQOFF_SLICE_NS however many rounds run:
	 * between slices, and while a slow answer is awaited, they are let in
	 * so that the watchdog can stop a case that used its budget, and the
	 * budget is checked.  Each round's bound stays valid whatever
	 * interrupts do: one only widens [t1-t2, t1-t0]. */
	struct sync_wait w = { 0, plat_irq_save(), 0, true };

	w.slice_end = lfence_rdtsc() + plat_ns_to_cycles(SYNC_IRQOFF_SLICE_NS);
	for (unsigned k = 1; k <= rounds; k++) {
		if (!w.irqs_off || rdtsc() > w.slice_end) {
			if (w.irqs_off)
				plat_irq_restore(w.flags);
			w.irqs_off = false;
			if (out_of_share())
				break;
			w.flags = plat_irq_save();
			w.irqs_off = true;
			w.slice_end = lfence_rdtsc() + plat_ns_to_cycles(SYNC_IRQOFF_SLICE_NS);
		}
		uint64_t t0 = lfence_rdtsc();

		__atomic_store_n(&sl->req, k, __ATOMIC_RELEASE);
		w.k = k;
		if (!plat_spin_until(answered_or_spent(&w), T_LOST_US) ||
		    __atomic_load_n(&sl->ack, __ATOMIC_ACQUIRE) != k)
			break;
		uint64_t t2 = lfence_rdtsc(), t1 = sl->t1;
		int64_t lo = (int64_t)(t1 - t2), hi = (int64_t)(t1 - t0);

		if (lo > b->lo)
			b->lo = lo;
		if (hi < b->hi)
			b->hi = hi;
		if (t2 - t0 < b->best_rtt)
			b->best_rtt = t2 - t0;
		b->rounds++;
		if (control_mode && b->lo > 0)
			break;	/* the planted offset is proven: the control is done */
	}
	if (w.irqs_off)
		plat_irq_restore(w.flags);
	sl->stop = 1;
	if (plat_wait(cpu, T_LOST_US / 1000) != PLAT_OK)
		return false;
	if (b->rounds < rounds && !(control_mode && b->lo > 0) &&
	    (b->rounds < SYNC_MIN_ROUNDS || !out_of_share()))
		return false;
	if (!control_mode && b->rounds < fewest_rounds)
		fewest_rounds = b->rounds;
	return true;
}

static uint64_t proven_ns(const struct sync_bound *b)
{
	int64_t c = b->lo > 0 ? b->lo : b->hi < 0 ? -b->hi : 0;

	return plat_cycles_to_ns((uint64_t)c);
}

/* quick without iters=: the default sample budget, shared by the
 * measurements (set_share()).  A slow host gets fewer rounds, whose
 * bounds stay valid, only looser, and the control stops as soon as its
 * plant is proven; where every ring-0 instruction is emulated the
 * measurements' cross-CPU starts and stops and the report lines cost as
 * much again as the budget. */
TEST(tsc, sync)
{
	unsigned others[32];
	unsigned n = 0;
	unsigned rounds = (unsigned)t_iters(t, 20000, 500);

	sync_t = t;
	fewest_rounds = rounds;
	/* A bounded sample of CPUs: every relation represented. */
	static const enum cpu_rel rels[] = { REL_SMT_SIBLING, REL_SAME_PACKAGE, REL_OTHER_PACKAGE };

	for (unsigned r = 0; r < 3; r++)
		n += plat_cpus_with_relation(0, rels[r], others + n, 32 / 3, &t->rng);
	if (!n) {
		t_skip(t, "needs a second CPU");
		return;
	}
	/* Negative control: a planted offset must be measured and proven.
	 * It is planted well above what this machine can resolve (20 best
	 * round trips), so that a slow or starved CPU (an emulator sharing
	 * host cores) makes the control bigger, not inconclusive. */
	struct sync_bound b;
	/* quick without iters=: this plain run is also others[0]'s
	 * measurement below, not repeated (where every ring-0 instruction is
	 * emulated a measurement's cross-CPU start and stop alone take
	 * ~10 ms) */
	bool reuse = t_budgeted(t);
	/* the measurements to come: this plain run, the control, each CPU's */
	struct t_share sh, half;

	t_share_begin(&sh, n + (reuse ? 1 : 2));
	set_share(t, &sh);
	t_share_skip(&sh);
	if (!measure_sync(others[0], rounds, 0, &b)) {
		t_fail(t, "cpu %u: %u of %u sync rounds answered%s", others[0], b.rounds, rounds,
		       t_expired(t) ? " before the case budget ran out" : "");
		return;
	}
	struct sync_bound b0 = b;
	int64_t plant = TSC_SYNC_CONTROL;

	if ((int64_t)b.best_rtt * 20 > plant)
		plant = (int64_t)b.best_rtt * 20;
	/* The control may use half of what is left, and in quick at least
	 * SYNC_CONTROL_FLOOR_MS: it stops as soon as the plant is proven, so
	 * a healthy host never waits for the floor.  On a starved one (-smp 8
	 * on two host cores, beside another QEMU) every round of the control
	 * can take a scheduler slice, ~10 ms, far above the plant sized from
	 * the plain run's best round: then it is planted again at 20 times
	 * the control's own best round (SYNC_CONTROL_ATTEMPTS in all), so
	 * that a busy host makes the control bigger, not a failure. */
	bool ok = false;

	t_share_begin(&half, 2);	/* the control, and all after it */
	t_share_skip(&sh);
	for (unsigned attempt = 1; attempt <= SYNC_CONTROL_ATTEMPTS; attempt++) {
		set_share(t, &half);
		if (t_budgeted(t)) {
			uint64_t floor = lfence_rdtsc() + plat_ms_to_cycles(SYNC_CONTROL_FLOOR_MS);

			if (share_end < floor)
				share_end = floor;
		}
		control_mode = true;
		ok = measure_sync(others[0], rounds, plant, &b);
		control_mode = false;
		if (!ok || b.lo > 0 || b.best_rtt == UINT64_MAX || (int64_t)b.best_rtt * 2 <= plant ||
		    attempt == SYNC_CONTROL_ATTEMPTS)
			break;
		t_diag(t, "control: planted %lld cycles not provable with rounds of at least %llu cycles (a starved host): planted again at 20 times that",
		       (long long)plant, (unsigned long long)b.best_rtt);
		plant = (int64_t)b.best_rtt * 20;
	}
	if (!ok) {
		t_fail(t, "control run with cpu %u did not complete", others[0]);
		return;
	}
	/* The planted run must prove an offset, and agree with the plain run
	 * shifted by the plant (whatever real offset the CPU has). */
	t_check(t, b.lo > 0 && b.lo <= plant + b0.hi && b.hi >= plant + b0.lo,
		"control: planted offset %lld cycles measured as [%lld, %lld], plain run [%lld, %lld]",
		(long long)plant, (long long)b.lo, (long long)b.hi, (long long)b0.lo,
		(long long)b0.hi);
	t_diag(t, "control: planted %lld cycles, measured [%lld, %lld]", (long long)plant,
	       (long long)b.lo, (long long)b.hi);

	uint64_t bound[sizeof(others) / sizeof(others[0])] = { 0 };
	uint64_t worst = 0;

	for (unsigned i = 0; i < n; i++) {
		unsigned c = others[i];

		if (i == 0 && reuse) {
			b = b0;
		} else {
			set_share(t, &sh);
			t_share_skip(&sh);
			if (!measure_sync(c, rounds, 0, &b)) {
				t_fail(t, "cpu %u: %u of %u sync rounds answered%s", c, b.rounds,
				       rounds, t_expired(t) ? " before the case budget ran out" : "");
				continue;
			}
		}
		uint64_t pr = proven_ns(&b);
		uint64_t mag = plat_cycles_to_ns((uint64_t)(b.hi - b.lo) / 2);

		bound[i] = plat_cycles_to_ns((uint64_t)(llabs_i64(b.lo) > llabs_i64(b.hi) ? llabs_i64(b.lo) : llabs_i64(b.hi)));
		if (pr > worst)
			worst = pr;
		if (b.lo > b.hi)
			t_diag(t, "cpu %u: bounds cross ([%lld, %lld]): the offset changed during the measurement",
			       c, (long long)b.lo, (long long)b.hi);
		if (pr || t->verbose || i < 4)
			t_diag(t, "cpu %u (%s): offset in [%lld, %lld] cycles, best round trip %llu; proven offset %llu ns, +-%llu ns",
			       c, plat_cpu_rel_name(plat_cpu_relation(0, c)), (long long)b.lo, (long long)b.hi,
			       (unsigned long long)b.best_rtt, (unsigned long long)pr,
			       (unsigned long long)mag);
		if (plat_cpu_has(X86_FEATURE_CONSTANT_TSC))
			t_check(t, pr <= TSC_SYNC_LIMIT_NS,
				"cpu %u: TSC differs from cpu 0 by at least %llu ns (limit %d ns) although the TSC is invariant",
				c, (unsigned long long)pr, TSC_SYNC_LIMIT_NS);
	}
	t_metric_dist(t, "offset_bound", bound, n, "ns",
		      "worst_proven_ns=%llu limit_ns=%d invariant=%s rounds=%u fewest_rounds=%u method=round-trip-intersection",
		      (unsigned long long)worst, TSC_SYNC_LIMIT_NS, plat_cpu_has(X86_FEATURE_CONSTANT_TSC) ? "yes" : "no",
		      rounds, fewest_rounds);
	if (fewest_rounds < rounds)
		t_diag(t, "slow host: some measurements were cut to %u of %u rounds by their share of the budget (bounds stay valid, only looser)",
		       fewest_rounds, rounds);
	if (!plat_cpu_has(X86_FEATURE_CONSTANT_TSC) && worst > TSC_SYNC_LIMIT_NS)
		t_diag(t, "offsets above the limit are reported, not failed: the CPU does not claim an invariant TSC");
}
