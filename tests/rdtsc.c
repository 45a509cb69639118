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
 * is how far apart two consecutive readings are (min and median). */
#include "kernel/test.h"
#include "arch/x86/cpuinfo.h"
#include "arch/x86/tsc_read.h"
#include "kernel/platform.h"

SUITE_HOSTED(rdtsc, 90, "cost and back-to-back resolution of each way to read the TSC");

#define U 64

#define DEFINE_VARIANT(name, expr) \
	static uint64_t loop_##name(unsigned reps) \
	{ \
		uint64_t sink = 0, t0 = lfence_rdtsc(); \
		for (unsigned i = 0; i < reps; i += 4) { \
			sink += expr; \
			sink += expr; \
			sink += expr; \
			sink += expr; \
		} \
		uint64_t t1 = lfence_rdtsc(); \
		__asm__ volatile("" ::"r"(sink)); \
		return t1 - t0; \
	} \
	static void b2b_##name(uint64_t *d, size_t n) \
	{ \
		for (size_t i = 0; i < n; i++) { \
			uint64_t a = expr; \
			uint64_t b = expr; \
			d[i] = b - a; \
		} \
	}

DEFINE_VARIANT(rdtsc, rdtsc())
DEFINE_VARIANT(lfence_rdtsc, lfence_rdtsc())
DEFINE_VARIANT(rdtsc_lfence, rdtsc_lfence())
DEFINE_VARIANT(rdtscp, rdtscp())
DEFINE_VARIANT(mfence_lfence_rdtsc, mfence_lfence_rdtsc())
DEFINE_VARIANT(lfence_rdtsc_lfence, lfence_rdtsc_lfence())
DEFINE_VARIANT(cpuid_rdtsc, cpuid_rdtsc())
DEFINE_VARIANT(serialize_rdtsc, serialize_rdtsc())

enum need { NEED_NONE, NEED_RDTSCP, NEED_SERIALIZE };

static const struct variant {
	const char *name;
	uint64_t (*loop)(unsigned reps);
	void (*b2b)(uint64_t *d, size_t n);
	enum need need;
} variants[] = {
#define V(n, need) { #n, loop_##n, b2b_##n, need }
	V(rdtsc, NEED_NONE),
	V(lfence_rdtsc, NEED_NONE),
	V(rdtsc_lfence, NEED_NONE),
	V(rdtscp, NEED_RDTSCP),
	V(mfence_lfence_rdtsc, NEED_NONE),
	V(lfence_rdtsc_lfence, NEED_NONE),
	V(cpuid_rdtsc, NEED_NONE),
	V(serialize_rdtsc, NEED_SERIALIZE),
#undef V
};
#define NVARIANTS (sizeof(variants) / sizeof(variants[0]))

static bool available(const struct cpuinfo *ci, const struct variant *v, const char **why)
{
	if (v->need == NEED_RDTSCP && !ci->rdtscp) {
		*why = "CPU lacks RDTSCP (CPUID.80000001H:EDX[27])";
		return false;
	}
	if (v->need == NEED_SERIALIZE && !ci->serialize) {
		*why = "CPU lacks SERIALIZE (CPUID.7.0:EDX[14])";
		return false;
	}
	return true;
}

TEST(rdtsc, cost)
{
	struct cpuinfo ci;
	size_t trials = (size_t)t_iters(t, 2000, 100);
	uint64_t *c = plat_alloc(trials * sizeof(uint64_t));
	unsigned measured = 0;

	if (!c) {
		t_fail(t, "no memory");
		return;
	}
	cpuinfo_read(&ci);
	for (unsigned i = 0; i < NVARIANTS; i++) {
		const struct variant *v = &variants[i];
		const char *why;

		if (!available(&ci, v, &why)) {
			t_diag(t, "%s not measured: %s", v->name, why);
			continue;
		}
		size_t k = 0, dropped = 0;
		uint64_t flags = plat_irq_save();

		(void)v->loop(U);	/* warm up */
		for (size_t n = 0; n < trials; n++) {
			uint64_t a = v->loop(U), b = v->loop(2 * U);

			if (b > a)
				c[k++] = (b - a) / U;
			else
				dropped++;	/* an interruption made U slower than 2U */
		}
		plat_irq_restore(flags);
		t_metric_dist(t, v->name, c, k, "cycles", "method=u2u u=%d unroll=4 dropped=%zu", U,
			      dropped);
		t_check(t, k > trials / 2, "%s: only %zu of %zu trials usable", v->name, k, trials);
		measured++;
	}
	t_check(t, measured >= 5, "only %u variants could be measured", measured);
}

TEST(rdtsc, resolution)
{
	struct cpuinfo ci;
	size_t n = (size_t)t_iters(t, 100000, 5000);
	uint64_t *d = plat_alloc(n * sizeof(uint64_t));

	if (!d) {
		t_fail(t, "no memory");
		return;
	}
	cpuinfo_read(&ci);
	for (unsigned i = 0; i < NVARIANTS; i++) {
		const struct variant *v = &variants[i];
		const char *why;

		if (!available(&ci, v, &why))
			continue;
		uint64_t flags = plat_irq_save();

		v->b2b(d, n);
		plat_irq_restore(flags);
		size_t zero = 0, backwards = 0;

		for (size_t k = 0; k < n; k++) {
			if (d[k] == 0)
				zero++;
			else if ((int64_t)d[k] < 0)
				backwards++;
		}
		/* A second read of the same CPU's TSC can never be earlier. */
		t_check(t, backwards == 0, "%s: %zu back-to-back pairs went backwards on one CPU",
			v->name, backwards);
		t_metric_dist(t, v->name, d, backwards ? 0 : n, "cycles",
			      "method=back-to-back zero_steps=%zu", zero);
	}
}
