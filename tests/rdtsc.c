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

TEST(rdtsc, cost)
{
	size_t trials = (size_t)t_iters(t, 2000, 100);
	uint64_t *c = t_alloc(t, trials * sizeof(uint64_t));
	unsigned measured = 0;

	for (unsigned i = 0; i < TSC_NREADERS; i++) {
		const char *name = tsc_readers[i].name;
		char why[80];

		if (!available((enum tsc_reader)i, why, sizeof(why))) {
			t_diag(t, "%s not measured: %s", name, why);
			continue;
		}
		size_t dropped;
		size_t k = t_u2u(variants[i].loop, NULL, U, trials, c, &dropped);

		t_metric_dist(t, name, c, k, "cycles", "method=u2u u=%d unroll=4 dropped=%zu %s", U,
			      dropped, t_u2u_overhead_text());
		t_check(t, k > trials / 2, "%s: only %zu of %zu trials usable", name, k, trials);
		measured++;
	}
	t_check(t, measured >= 5, "only %u variants could be measured", measured);
}

#define RES_PROBE	64

TEST(rdtsc, resolution)
{
	size_t n = (size_t)t_iters(t, 100000, 5000);
	uint64_t *d = t_alloc(t, n * sizeof(uint64_t));

	for (unsigned i = 0; i < TSC_NREADERS; i++) {
		const char *name = tsc_readers[i].name;
		char why[80];

		if (!available((enum tsc_reader)i, why, sizeof(why)))
			continue;
		size_t m = n;

		/* quick without iters=: as many pairs as this reader's share of
		 * the quick budget holds, timed on a first 64 (a hypervisor that
		 * traps RDTSC makes each read cost ~100 us) */
		if (t->quick_end_tsc && n > RES_PROBE) {
			uint64_t t0 = lfence_rdtsc(), flags = plat_irq_save();

			variants[i].b2b(d, RES_PROBE);
			plat_irq_restore(flags);
			uint64_t per = (lfence_rdtsc() - t0) / RES_PROBE + 1;
			uint64_t fit = t_quick_budget_cycles(t) / TSC_NREADERS / per;

			if (fit < m)
				m = fit > RES_PROBE ? (size_t)fit : RES_PROBE;
		}
		uint64_t flags = plat_irq_save();

		variants[i].b2b(d, m);
		plat_irq_restore(flags);
		t_budget_note(t, name, m, n);
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
}
