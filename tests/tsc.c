/* tsc: calibration references agree; the TSC never goes backwards on one
 * CPU.  (Cross-CPU synchronization is in tsc_sync cases below.) */
#include "kernel/test.h"
#include "arch/x86/tsc.h"
#include "arch/x86/tsc_read.h"
#include "kernel/platform.h"

SUITE(tsc, 40, "TSC calibration agreement, monotonicity");

/* Agreement tolerance between a measured reference and the chosen
 * frequency: the measurement's own uncertainty plus 0.1% (1000 ppm);
 * nominal CPUID 0x16 values are only expected within 2%. */
#define TSC_AGREE_PPM		1000
#define TSC_NOMINAL_PPM		20000

TEST(tsc, calibration)
{
	const struct tsc_calibration *cal = tsc_get_calibration();
	unsigned usable = 0;

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
	if (usable < 2 && t->result != RES_FAIL)
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

TEST(tsc, monotonic)
{
	size_t n = (size_t)t_iters(t, 1000000, 100000);
	uint64_t *v = plat_alloc(n * sizeof(uint64_t));
	uint64_t worst;

	if (!v) {
		t_fail(t, "no memory for %zu samples", n);
		return;
	}
	/* Negative control: the checker must see an injected step back. */
	uint64_t fake[4] = { 10, 20, 15, 30 };

	t_check(t, count_backwards(fake, 4, &worst) == 1 && worst == 5,
		"backward-step checker misses an injected step");

	uint64_t flags = plat_irq_save();

	for (size_t i = 0; i < n; i++)
		v[i] = rdtsc_plain();
	plat_irq_restore(flags);
	size_t back = count_backwards(v, n, &worst);

	t_metric_value(t, "backward_steps", (int64_t)back, "count",
		       "n=%zu worst=%llu variant=rdtsc", n, (unsigned long long)worst);
	t_check(t, back == 0, "plain RDTSC went backwards %zu times on one CPU (worst %llu cycles)",
		back, (unsigned long long)worst);
}
