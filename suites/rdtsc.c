/* SPDX-License-Identifier: GPL-2.0-only */
/* rdtsc: what each way of reading the TSC costs, and how finely it ticks.
 * Builds into the kernel and into ringlab-hosted (Linux user space), so
 * ring 0 and ring 3 can be compared on one machine.
 *
 * Cost: nanoBench's method.  Time U and 2U reads in one loop, unrolled by
 * 4, between LFENCE;RDTSC stamps; (T(2U) - T(U)) / U is one read with the
 * stamps, the call and the loop set-up removed.  What remains per read is
 * the read itself plus a quarter of a loop iteration (add, compare,
 * branch), about one cycle that overlaps the read on an out-of-order
 * core.  Reported per variant over many trials: min and median, in TSC
 * cycles.
 *
 * Resolution: two back-to-back reads of the same variant; the difference
 * is how far apart two consecutive readings are (min and median).  That
 * span is the quantity itself, so no overhead is removed from it (the
 * cost metrics say theirs: t_u2u_overhead_text()). */
#include "kernel/test.h"
#include "lib/printf.h"
#include "lib/stats.h"
#include "lib/string.h"

SUITE_HOSTED(rdtsc, 90, "cost and back-to-back resolution of each way to read the TSC");

#define U 64

/* Per reader (arch/x86/tsc_read.h, TSC_READERS): a timed loop of `reps`
 * reads, unrolled by 4, and a back-to-back pair filler. */
#define X(name, insns, after, before) \
	static uint64_t loop_##name(unsigned reps, void *arg) \
	{ \
		uint64_t sink = 0, t0 = lfence_rdtsc(); \
		(void)arg; \
		for (unsigned i = 0; i < reps; i += 4) { \
			sink += name(); \
			sink += name(); \
			sink += name(); \
			sink += name(); \
		} \
		uint64_t t1 = lfence_rdtsc(); \
		__asm__ volatile("" ::"r"(sink)); \
		return t1 - t0; \
	} \
	static void b2b_##name(uint64_t *d, size_t n) \
	{ \
		for (size_t i = 0; i < n; i++) { \
			uint64_t a = name(); \
			uint64_t b = name(); \
			d[i] = b - a; \
		} \
	}
TSC_READERS(X)
#undef X

static const struct variant {
	t_timed_fn loop;
	void (*b2b)(uint64_t *d, size_t n);
} variants[TSC_NREADERS] = {
#define X(name, insns, after, before) [TSC_READER_##name] = { loop_##name, b2b_##name },
	TSC_READERS(X)
#undef X
};

/* Whether reader r can run here; why says what is missing. */
static bool available(enum tsc_reader r, char *why, size_t size)
{
	struct x86_cpu_feature need;

	if (!tsc_reader_needs(r, &need) || plat_cpu_has(need))
		return true;
	x86_feature_absent_why(need, tsc_readers[r].insns, why, size);
	return false;
}

/* Sample memory, unzeroed (every slot is written before it is read):
 * where every ring-0 store is emulated, zeroing resolution's 40 KB took
 * 25 ms. */
static uint64_t *alloc_samples(struct test_ctx *t, size_t n)
{
	return t_alloc_big(t, n * sizeof(uint64_t));
}

/* quick without iters=: the end of the next reader's equal share of what
 * is left of the case's quick budget (t_share), one reader fewer to go;
 * 0 outside quick or with iters= (resolution's pairs, which are not
 * U/2U trials). */
static uint64_t share_end(const struct test_ctx *t, struct t_share *sh)
{
	if (!t_budgeted(t))
		return 0;
	uint64_t now = lfence_rdtsc(), end = now + t_share_cycles(t, sh, now);

	t_share_skip(sh);
	return end;
}

static unsigned count_available(void)
{
	unsigned k = 0;
	char why[80];

	for (unsigned i = 0; i < TSC_NREADERS; i++)
		k += available((enum tsc_reader)i, why, sizeof(why));
	return k;
}

/* quick without iters=: each reader's equal share of what is left of the
 * case's quick budget (t_u2u_share), in chunks of four trials, the first
 * always run: enough for a median and the "more than half usable" check.  A
 * hypervisor that emulates every ring-0 instruction takes ~4 us a read
 * (a trial's 3U reads ~1 ms; CPUID;RDTSC far more), where 100 trials of
 * every reader were 0.9 s. */
#define COST_CHUNK	4

TEST(rdtsc, cost)
{
	size_t trials = (size_t)t_iters(t, 2000, 100);
	uint64_t *c = alloc_samples(t, trials);
	unsigned measured = 0;
	struct t_share sh;
	size_t fewest = trials;
	/* for the answer: each reader's p50, and how many usable trials the
	 * fewest of them rest on */
	char costs[256] = "", from[256] = "";
	size_t cl = 0, fl = 0, fewest_usable = trials;

	t_share_begin(&sh, count_available());

	for (unsigned i = 0; i < TSC_NREADERS; i++) {
		const char *name = tsc_readers[i].name;
		char why[80];

		if (!available((enum tsc_reader)i, why, sizeof(why))) {
			t_diag(t, "%s not measured: %s", name, why);
			continue;
		}
		size_t dropped = 0, ran = 0;
		size_t k = t_u2u_share(t, &sh, variants[i].loop, NULL, U, trials, COST_CHUNK, c,
				       &dropped, &ran);

		t_share_took(&sh, ran, trials);
		if (ran < fewest)
			fewest = ran;
		t_metric_dist(t, name, c, k, "cycles", "method=u2u u=%d unroll=4 dropped=%zu %s", U,
			      dropped, t_u2u_overhead_text());
		t_check_usable(t, name, k, ran, 1, false);
		measured++;
		/* the readers tsc_order compares (its answer is this one's):
		 * CPUID;RDTSC and SERIALIZE;RDTSC are left out there */
		if (k && i <= TSC_READER_lfence_rdtsc_lfence && cl < sizeof(costs) && fl < sizeof(from)) {
			cl += (size_t)rl_snprintf(costs + cl, sizeof(costs) - cl, "%s%s %llu", cl ? ", " : "",
						  name, (unsigned long long)percentile_sorted(c, k, 50));
			fl += (size_t)rl_snprintf(from + fl, sizeof(from) - fl, "%srdtsc.cost.%s",
						  fl ? "," : "", name);
			if (k < fewest_usable)
				fewest_usable = k;
		}
	}
	/* one line for all readers (each metric's n says its own count):
	 * where every ring-0 instruction is emulated a line costs ~7 ms */
	t_budget_note(t, "trials per reader (fewest)", fewest, trials);
	t_check(t, measured >= 5, "only %u variants could be measured", measured);
	if (cl) {
		/* a cost: no control applies; every usable trial measured it */
		struct claim c = { NULL, T_CONTROL_NONE, fewest_usable, fewest_usable, 0, NULL, true };

		uint64_t mhz = plat_tsc_hz() / 1000000;

		t_answer_claim(t, ANSWER_RDTSC_ORDER, from, &c, "Read cost p50 in cycles (TSC %llu.%02llu GHz): %s",
			       (unsigned long long)(mhz / 1000), (unsigned long long)(mhz % 1000 / 10), costs);
	}
}

/* quick without iters=: the pairs every reader takes (timed, to size the
 * rest of its share) */
#define RES_PROBE	32

TEST(rdtsc, resolution)
{
	size_t n = (size_t)t_iters(t, 100000, 5000);
	uint64_t *d = alloc_samples(t, n);
	struct t_share sh;
	size_t fewest = n;

	t_share_begin(&sh, count_available());

	for (unsigned i = 0; i < TSC_NREADERS; i++) {
		const char *name = tsc_readers[i].name;
		char why[80];

		if (!available((enum tsc_reader)i, why, sizeof(why)))
			continue;
		size_t m = n;
		uint64_t end = share_end(t, &sh);

		/* quick without iters=: as many pairs as this reader's share of
		 * the quick budget holds, the probe's included.  A pair costs
		 * its taking, timed on the probe, and its analysis (the count
		 * below, t_metric_dist's sort and statistics), estimated as
		 * twice a sort of the probe's pairs: where every ring-0
		 * instruction is emulated that is ~150 us a pair, 20 times the
		 * taking, and 500 pairs a reader made the case 0.6 s. */
		if (end && n > RES_PROBE) {
			uint64_t cp[RES_PROBE], t0 = lfence_rdtsc(), flags = plat_irq_save();

			variants[i].b2b(d, RES_PROBE);
			plat_irq_restore(flags);
			uint64_t t1 = lfence_rdtsc();

			memcpy(cp, d, sizeof(cp));
			sort_u64(cp, RES_PROBE);
			uint64_t t2 = lfence_rdtsc();
			uint64_t per = (t1 - t0 + 2 * (t2 - t1)) / RES_PROBE + 1;
			uint64_t fit = end > t2 ? (end - t2) / per : 0;

			m = RES_PROBE + (fit < n - RES_PROBE ? (size_t)fit : n - RES_PROBE);
			flags = plat_irq_save();
			variants[i].b2b(d + RES_PROBE, m - RES_PROBE);
			plat_irq_restore(flags);
		} else {
			uint64_t flags = plat_irq_save();

			variants[i].b2b(d, m);
			plat_irq_restore(flags);
		}
		if (m < fewest)
			fewest = m;
		size_t zero = 0, backwards = 0;

		for (size_t k = 0; k < m; k++) {
			if (d[k] == 0)
				zero++;
			else if ((int64_t)d[k] < 0)
				backwards++;
		}
		/* A second read of the same CPU's TSC can never be earlier. */
		t_check(t, backwards == 0, "%s: %zu back-to-back pairs went backwards on one CPU",
			name, backwards);
		t_metric_dist(t, name, d, backwards ? 0 : m, "cycles",
			      "method=back-to-back zero_steps=%zu", zero);
	}
	/* one line for all readers (each metric's n says its own count) */
	t_budget_note(t, "pairs per reader (fewest)", fewest, n);
}
