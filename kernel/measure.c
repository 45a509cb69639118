/* SPDX-License-Identifier: GPL-2.0-only */
/* Measurement and test-body helpers of kernel/test.h built only on the
 * platform API: shared by the kernel and the hosted build. */
#include <stdarg.h>
#include "kernel/test.h"
#include "arch/x86/tsc_read.h"
#include "lib/printf.h"
#include "lib/stats.h"

void t_abort(struct test_ctx *t, const char *fmt, ...)
{
	char buf[200];
	va_list ap;

	va_start(ap, fmt);
	rl_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	t_fail(t, "%s", buf);
	plat_abort_case();
}

void *t_alloc(struct test_ctx *t, size_t bytes)
{
	void *p = plat_alloc(bytes);

	if (!p)
		t_abort(t, "no memory for %zu bytes", bytes);
	return p;
}

static void free_big(struct test_ctx *t, void *p)
{
	(void)t;
	plat_free_big(p);
}

void *t_alloc_big(struct test_ctx *t, size_t bytes)
{
	void *p = plat_alloc_big(bytes, NULL, 0);

	if (!p)
		t_abort(t, "no memory for %zu bytes", bytes);
	t_defer(t, free_big, p);
	return p;
}

bool t_require(struct test_ctx *t, struct x86_cpu_feature f, const char *what)
{
	char src[200];

	if (plat_cpu_has(f))
		return true;
	x86_feature_absent_why(f, what, src, sizeof(src));
	t_skip(t, "%s", src);
	return false;
}

const char *t_absent_why(struct x86_cpu_feature f, const char *what, const char *fallback)
{
	static char buf[8][200];
	static unsigned k;
	const struct x86_feature_override *o = x86_feature_override_of(f);

	if (!o || o->on)
		return fallback;
	k = (k + 1) % 8;
	x86_feature_absent_why(f, what, buf[k], sizeof(buf[k]));
	return buf[k];
}

size_t t_u2u(t_timed_fn run, void *arg, unsigned u, size_t trials, uint64_t *out,
	     size_t *dropped)
{
	size_t k = 0, bad = 0;

	/* Interrupts off per trial (its U and 2U runs), on between trials:
	 * no interrupt-off window is longer than one trial, whatever the
	 * number of trials, so the maskable watchdog and cross-CPU calls are
	 * served in between (an interrupt-off overrun could otherwise only
	 * be stopped by the NMI watchdog, kernel/nmi_watch.c).  An interrupt
	 * still pending from before is taken between trials, not inside one. */
	for (size_t i = 0; i < trials; i++) {
		uint64_t flags = plat_irq_save();

		if (i == 0)
			(void)run(u, arg);	/* warm up caches and predictors */
		uint64_t a = run(u, arg), b = run(2 * u, arg);

		plat_irq_restore(flags);
		if (b > a)
			out[k++] = (b - a) / u;
		else
			bad++;	/* an interruption made U slower than 2U */
	}
	if (dropped)
		*dropped = bad;
	return k;
}

size_t t_u2u_budget(struct test_ctx *t, t_timed_fn run, void *arg, unsigned u, size_t trials,
		    size_t min_trials, uint64_t *out, size_t *dropped, size_t *ran)
{
	size_t k = 0, bad = 0, done = 0;

	while (done < trials) {
		size_t n = trials - done < T_U2U_CHUNK ? trials - done : T_U2U_CHUNK, d = 0;

		k += t_u2u(run, arg, u, n, out + k, &d);
		bad += d;
		done += n;
		if (done >= min_trials && t_quick_spent(t))
			break;
	}
	if (dropped)
		*dropped = bad;
	if (ran)
		*ran = done;
	return k;
}

size_t t_u2u_share(struct test_ctx *t, struct t_share *s, t_timed_fn run, void *arg, unsigned u,
		   size_t trials, size_t min_trials, uint64_t *out, size_t *dropped, size_t *ran)
{
	uint64_t now = lfence_rdtsc();
	uint64_t end = t_budgeted(t) ? now + t_share_cycles(t, s, now) : 0;
	size_t k = 0, bad = 0, done = 0;
	size_t chunk = min_trials && min_trials < T_U2U_CHUNK ? min_trials : T_U2U_CHUNK;

	t_share_skip(s);
	while (done < trials) {
		/* the minimum first, in one go; then chunks while the share lasts */
		size_t want = done < min_trials ? min_trials - done : chunk, d = 0;
		size_t n = trials - done < want ? trials - done : want;

		if (done >= min_trials && end && lfence_rdtsc() >= end)
			break;
		k += t_u2u(run, arg, u, n, out + k, &d);
		bad += d;
		done += n;
	}
	if (dropped)
		*dropped = bad;
	if (ran)
		*ran = done;
	return k;
}

void t_conclude(struct test_ctx *t, const char *fmt, ...)
{
	char buf[400];
	const char *note = plat_env_note();
	va_list ap;

	va_start(ap, fmt);
	rl_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	t_diag(t, "%s (env=%s%s%s)", buf, plat_env(), note[0] ? "; " : "", note);
}

/* ---- bracket overhead ---- */

static const char *bracket_name(enum t_bracket b)
{
	return b == T_BRACKET_RDTSCP ? "rdtscp" : "lfence-rdtsc";
}

void t_overhead_measure(struct t_overhead *o, enum t_bracket b, size_t n)
{
	/* CPU 0 measures between cases' other work; one buffer is enough */
	static uint64_t s[T_OVERHEAD_MAX_N];

	if (n > T_OVERHEAD_MAX_N)
		n = T_OVERHEAD_MAX_N;
	if (!n)
		n = 1;
	uint64_t flags = plat_irq_save();

	for (size_t i = 0; i < n; i++) {
		uint64_t a, z;

		if (b == T_BRACKET_RDTSCP) {
			a = rdtscp();
			z = rdtscp();
		} else {
			a = lfence_rdtsc();
			z = lfence_rdtsc();
		}
		s[i] = z - a;
	}
	plat_irq_restore(flags);
	sort_u64(s, n);
	o->cycles = percentile_sorted(s, n, 50);
	o->n = n;
	o->bracket = b;
}

void t_overhead_remove(const struct t_overhead *o, uint64_t *samples, size_t n)
{
	for (size_t i = 0; i < n; i++)
		samples[i] = samples[i] > o->cycles ? samples[i] - o->cycles : 0;
}

int t_overhead_text(const struct t_overhead *o, char *buf, size_t size)
{
	return rl_snprintf(buf, size, "overhead=bracket-median:%s overhead_cycles=%llu overhead_n=%zu",
			   bracket_name(o->bracket), (unsigned long long)o->cycles, o->n);
}

const char *t_u2u_overhead_text(void)
{
	return "overhead=u2u";
}
