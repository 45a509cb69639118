/* SPDX-License-Identifier: GPL-2.0-only */
/* TSC calibration; see tsc.h. */
#include "arch/x86/tsc.h"
#include "arch/x86/acpi.h"
#include "arch/x86/cpu.h"
#include "arch/x86/hpet.h"
#include "arch/x86/log.h"
#include "arch/x86/pit.h"
#include "arch/x86/tsc_read.h"
#include "lib/printf.h"
#include "lib/stats.h"
#include "lib/string.h"

#define ACPI_PM_TIMER_HZ	3579545u	/* ACPI spec §4.8.3.3 */

uint64_t tsc_hz = 3000000000ull;
static struct tsc_calibration cal;

void tsc_early_guess(void)
{
	/* Timeouts before calibration use this; over-estimating only makes
	 * them longer.  CPUID 0x16 base MHz is close where it exists. */
	if (cpuid(0).eax >= 0x16) {
		uint32_t mhz = cpuid(0x16).eax & 0xffff;

		if (mhz >= 100 && mhz < 10000)
			tsc_hz = (uint64_t)mhz * 1000000u;
	}
}

void tsc_delay_us(uint64_t us)
{
	uint64_t end = rdtsc_ordered() + tsc_us_to_cycles(us);

	while (rdtsc_ordered() < end)
		cpu_relax();
}

int64_t tsc_dev_ppm(uint64_t hz)
{
	if (!cal.hz)
		return 0;
	int64_t d = (int64_t)hz - (int64_t)cal.hz;

	return (int64_t)(((__int128)d * 1000000) / (int64_t)cal.hz);
}

/* ---- free-running counters (PM timer, HPET) ---- */

struct counter {
	uint64_t (*read)(const void *ctx);
	const void *ctx;
	uint64_t mask;		/* counter width */
	uint64_t hz;
};

struct stamp {
	uint64_t tsc_mid, width, count;
};

/* Read the counter bracketed by two TSC reads; keep the narrowest of a few
 * tries, so an interruption (SMI, host preemption) does not widen it. */
static struct stamp stamp_counter(const struct counter *c)
{
	struct stamp best = { 0, UINT64_MAX, 0 };

	for (int i = 0; i < 5; i++) {
		uint64_t a = rdtsc_ordered();
		uint64_t v = c->read(c->ctx);
		uint64_t b = rdtsc_ordered();

		if (b - a < best.width)
			best = (struct stamp){ a + (b - a) / 2, b - a, v };
	}
	return best;
}

/* One counter's part of a window: its opening stamp, then the ticks seen
 * so far (summed modulo its width, so a wrap inside the window counts). */
struct cwin {
	const struct counter *c;
	struct tsc_ref *r;
	struct stamp s0;
	uint64_t prev, elapsed, target;
	bool done, failed;
	uint64_t hz[3], err[3];
	unsigned n;
};

static uint64_t read_pmtimer(const void *ctx)
{
	return inl((uint16_t)(uintptr_t)ctx);
}

static uint64_t read_hpet(const void *ctx)
{
	return hpet_read(ctx);
}

static void cwin_open(struct cwin *w, uint64_t window_us)
{
	w->s0 = stamp_counter(w->c);
	w->prev = w->s0.count;
	w->elapsed = 0;
	w->target = w->c->hz * window_us / 1000000u;
	w->done = w->failed = false;
}

static void cwin_poll(struct cwin *w)
{
	uint64_t v = w->c->read(w->c->ctx);

	w->elapsed += (v - w->prev) & w->c->mask;
	w->prev = v;
	w->done = w->elapsed >= w->target;
}

/* Close the window: the closing stamp, the frequency and its bound. */
static void cwin_close(struct cwin *w)
{
	struct stamp s1 = stamp_counter(w->c);
	uint64_t elapsed = w->elapsed + ((s1.count - w->prev) & w->c->mask);
	uint64_t dtsc = s1.tsc_mid - w->s0.tsc_mid;

	if (!elapsed || !dtsc) {
		rl_snprintf(w->r->note, sizeof(w->r->note), "no progress");
		return;
	}
	w->hz[w->n] = (uint64_t)(((unsigned __int128)dtsc * w->c->hz) / elapsed);
	/* Bracket half-widths at both ends, plus one counter tick. */
	w->err[w->n] = (uint64_t)(((unsigned __int128)(w->s0.width + s1.width) / 2 * 1000000u) / dtsc) +
		       1000000u / elapsed + 1;
	w->n++;
}

/* The PIT's runs: each run's brackets must be narrower than 0.1% of it (the
 * CPU was not interrupted or descheduled at an end), else it is retried, up
 * to three times the runs asked for. */
struct pitwin {
	struct tsc_ref *r;
	uint64_t ticks, v[3], e[3];
	unsigned n, tries, noisy, at_once, runs;
	bool dead;
};

static bool pit_wants(const struct pitwin *p)
{
	return !p->dead && p->n < p->runs && p->n < 3 && p->tries < 3 * p->runs;
}

static void pit_run(struct pitwin *p)
{
	uint64_t cyc, err;
	bool at_once;

	p->tries++;
	if (!pit_measure_tsc((uint16_t)p->ticks, tsc_ms_to_cycles(1000), &cyc, &err, &at_once) || !cyc) {
		p->dead = true;
		return;
	}
	/* OUT2 high before the count could have run: no PIT, or this CPU was
	 * away for the whole count; retried like a disturbed run, and only
	 * every try so is taken for no PIT (the note says which) */
	if (at_once) {
		p->at_once++;
		return;
	}
	if (err * 1000 > cyc) {
		p->noisy++;
		return;
	}
	p->v[p->n] = (uint64_t)(((unsigned __int128)cyc * PIT_HZ) / p->ticks);
	p->e[p->n] = err * 1000000u / cyc + 1000000u / p->ticks + 1;
	p->n++;
}

/* Median of up to 3 values, and the largest bound. */
static void keep_median(struct tsc_ref *r, const uint64_t *v, const uint64_t *e, unsigned n)
{
	uint64_t sorted[3];

	memcpy(sorted, v, n * sizeof(v[0]));
	sort_u64(sorted, n);
	r->hz = sorted[(n - 1) / 2];
	r->err_ppm = 0;
	for (unsigned i = 0; i < n; i++)
		if (e[i] > r->err_ppm)
			r->err_ppm = e[i];
	r->ok = true;
}

/* Time every measured reference at once: each run is one window in which
 * the HPET and the PM timer are stamped at both ends and the PIT times one
 * count inside it, so the runs cost one window each rather than one per
 * reference.  Each reference's frequency still comes from its own stamps
 * over at least the window, so neither the window nor the uncertainty of
 * any of them changes; nothing reads the counters while the PIT runs.
 * Median of up to 3 runs, to be robust against one disturbed window. */
static void measure_joint(struct cwin *w, unsigned nw, struct pitwin *p, uint64_t window_us,
			  unsigned runs)
{
	for (unsigned run = 0; run < runs && run < 3; run++) {
		uint64_t limit = tsc_us_to_cycles(window_us) * 20 + tsc_us_to_cycles(100000);
		uint64_t t_start = rdtsc_ordered();
		bool open = false;

		for (unsigned i = 0; i < nw; i++)
			if (!w[i].failed)
				cwin_open(&w[i], window_us);
		if (p && pit_wants(p))
			pit_run(p);
		for (unsigned i = 0; i < nw; i++)
			open |= !w[i].failed;
		while (open) {
			open = false;
			for (unsigned i = 0; i < nw; i++) {
				if (w[i].failed || w[i].done)
					continue;
				cwin_poll(&w[i]);
				open |= !w[i].done;
			}
			if (open && rdtsc_ordered() - t_start > limit) {
				for (unsigned i = 0; i < nw; i++) {
					if (w[i].failed || w[i].done)
						continue;
					rl_snprintf(w[i].r->note, sizeof(w[i].r->note),
						    "counter advanced %llu of %llu ticks before timeout",
						    (unsigned long long)w[i].elapsed,
						    (unsigned long long)w[i].target);
					w[i].failed = true;
				}
				break;
			}
		}
		for (unsigned i = 0; i < nw; i++)
			if (!w[i].failed)
				cwin_close(&w[i]);
	}
	/* disturbed PIT runs are retried on their own */
	while (p && pit_wants(p))
		pit_run(p);
	for (unsigned i = 0; i < nw; i++) {
		if (!w[i].n)
			continue;
		keep_median(w[i].r, w[i].hz, w[i].err, w[i].n);
		rl_snprintf(w[i].r->note, sizeof(w[i].r->note), "%u runs of %llu us", w[i].n,
			    (unsigned long long)window_us);
	}
	if (!p)
		return;
	if (!p->n) {
		if (p->at_once == p->tries)
			rl_snprintf(p->r->note, sizeof(p->r->note),
				    "OUT2 already high at the first poll of all %u runs: no PIT counting", p->tries);
		else
			rl_snprintf(p->r->note, sizeof(p->r->note), p->noisy || p->at_once ?
				    "every run was disturbed (%u)" : "OUT2 never rose: PIT absent or clock-gated",
				    p->noisy + p->at_once);
		return;
	}
	keep_median(p->r, p->v, p->e, p->n);
	rl_snprintf(p->r->note, sizeof(p->r->note), "%u runs of %llu ticks, %u disturbed", p->n,
		    (unsigned long long)p->ticks, p->noisy + p->at_once);
}

static void ref_cpuid(struct tsc_calibration *c)
{
	uint32_t max = cpuid(0).eax;
	struct tsc_ref *r15 = &c->ref[TSC_REF_CPUID15], *r16 = &c->ref[TSC_REF_CPUID16];

	if (max >= 0x15) {
		struct cpuid_regs l = cpuid(0x15);

		if (l.eax && l.ebx) {
			r15->present = true;
			if (l.ecx) {
				r15->hz = (uint64_t)l.ecx * l.ebx / l.eax;
				r15->ok = true;
				rl_snprintf(r15->note, sizeof(r15->note), "crystal %u Hz x %u/%u",
					    l.ecx, l.ebx, l.eax);
			} else {
				rl_snprintf(r15->note, sizeof(r15->note),
					    "ratio %u/%u but crystal not enumerated", l.ebx, l.eax);
			}
		}
	}
	if (!r15->present)
		rl_snprintf(r15->note, sizeof(r15->note), "CPUID leaf 0x15 absent or zero");
	if (max >= 0x16 && (cpuid(0x16).eax & 0xffff)) {
		r16->present = r16->ok = true;
		r16->hz = (uint64_t)(cpuid(0x16).eax & 0xffff) * 1000000u;
		rl_snprintf(r16->note, sizeof(r16->note), "nominal base frequency");
	} else {
		rl_snprintf(r16->note, sizeof(r16->note), "CPUID leaf 0x16 absent or zero");
	}
	struct tsc_ref *rh = &c->ref[TSC_REF_HYPERVISOR];

	if (x86_cpu_has(X86_FEATURE_HYPERVISOR)) {
		uint32_t hmax = cpuid(0x40000000).eax;

		if (hmax >= 0x40000010 && hmax < 0x40010000 && cpuid(0x40000010).eax) {
			rh->present = rh->ok = true;
			rh->hz = (uint64_t)cpuid(0x40000010).eax * 1000u;
			rl_snprintf(rh->note, sizeof(rh->note), "leaf 0x40000010 TSC kHz");
		} else {
			rl_snprintf(rh->note, sizeof(rh->note), "hypervisor has no leaf 0x40000010");
		}
	} else {
		rl_snprintf(rh->note, sizeof(rh->note), "no hypervisor");
	}
}

/* |a - b| in ppm of b. */
static uint64_t abs_ppm(uint64_t a, uint64_t b)
{
	uint64_t d = a > b ? a - b : b - a;

	return b ? (uint64_t)(((unsigned __int128)d * 1000000u) / b) : UINT64_MAX;
}

static bool refs_agree(const struct tsc_ref *a, const struct tsc_ref *b)
{
	return abs_ppm(a->hz, b->hz) <= TSC_AGREE_PPM + a->err_ppm + b->err_ppm;
}

/* When the chosen source is declared (CPUID 0x15, hypervisor leaf) and
 * measured references that agree among themselves contradict it, choose
 * the first of them (HPET, PM timer, PIT order) instead; see tsc.h.  One
 * measured reference alone never overrules a declaration: it may be the
 * broken one.  A declared value within tolerance stays chosen (it has no
 * measurement noise). */
static void overrule_declared(struct tsc_calibration *c)
{
	static const enum tsc_ref_id measured[] = { TSC_REF_HPET, TSC_REF_PMTIMER, TSC_REF_PIT };
	struct tsc_ref *d = NULL, *m = NULL;
	unsigned nagree = 0;
	char also[48] = "";

	for (unsigned i = 0; i < TSC_NREFS; i++)
		if (c->ref[i].ok && c->source == c->ref[i].name && !c->ref[i].measured &&
		    i != TSC_REF_CPUID16)
			d = &c->ref[i];
	if (!d)
		return;
	/* The first measured reference that another one confirms. */
	for (unsigned i = 0; i < 3 && !m; i++) {
		struct tsc_ref *a = &c->ref[measured[i]];

		if (!a->ok)
			continue;
		nagree = 0;
		also[0] = '\0';
		for (unsigned j = 0; j < 3; j++) {
			struct tsc_ref *b = &c->ref[measured[j]];

			if (j == i || !b->ok || !refs_agree(a, b))
				continue;
			nagree++;
			size_t l = strlen(also);

			rl_snprintf(also + l, sizeof(also) - l, "%s%s", l ? " and " : "", b->name);
		}
		if (nagree)
			m = a;
	}
	if (!m || abs_ppm(d->hz, m->hz) <= TSC_AGREE_PPM + m->err_ppm)
		return;
	int64_t dev = (int64_t)(((__int128)((int64_t)d->hz - (int64_t)m->hz)) * 1000000 /
				(int64_t)m->hz);

	c->overruled = d->name;
	c->hz = m->hz;
	c->source = m->name;
	rl_snprintf(c->why, sizeof(c->why),
		    "%s declares %llu Hz, %+lld ppm from %s's %llu Hz, which %s confirm%s; chose %s, the measured one",
		    d->name, (unsigned long long)d->hz, (long long)dev, m->name,
		    (unsigned long long)m->hz, also, nagree > 1 ? "" : "s", m->name);
	size_t l = strlen(d->note);

	rl_snprintf(d->note + l, sizeof(d->note) - l, "; NOT CHOSEN: %+lld ppm from %s, confirmed by %s",
		    (long long)dev, m->name, also);
}

void tsc_calibrate(const struct acpi_info *ai, bool quick)
{
	tsc_measure(&cal, ai, quick);
	tsc_hz = cal.hz;
	if (cal.overruled)
		arch_warn("tsc", "%s", cal.why);
}

void tsc_measure(struct tsc_calibration *out, const struct acpi_info *ai, bool quick)
{
	struct tsc_calibration cal;

	static const char *const names[TSC_NREFS] = {
		[TSC_REF_CPUID15] = "cpuid15", [TSC_REF_HYPERVISOR] = "hypervisor",
		[TSC_REF_HPET] = "hpet", [TSC_REF_PMTIMER] = "pmtimer",
		[TSC_REF_PIT] = "pit", [TSC_REF_CPUID16] = "cpuid16",
	};
	uint64_t window = quick ? TSC_CAL_QUICK_WINDOW_US : TSC_CAL_WINDOW_US;
	unsigned runs = TSC_CAL_RUNS;	/* median of 3 even when quick: one disturbed window must not decide */
	uint64_t flags = irq_save();

	memset(&cal, 0, sizeof(cal));
	cal.quick = quick;
	cal.window_us = window;
	cal.runs = runs;
	for (unsigned i = 0; i < TSC_NREFS; i++)
		cal.ref[i].name = names[i];
	ref_cpuid(&cal);

	struct cwin w[2];
	unsigned nw = 0;
	struct tsc_ref *rp = &cal.ref[TSC_REF_PMTIMER];
	struct counter pm_c;

	if (ai && ai->have_fadt && ai->pm_tmr_port) {
		pm_c = (struct counter){ read_pmtimer, (const void *)(uintptr_t)ai->pm_tmr_port,
					 ai->pm_tmr_32bit ? 0xffffffffu : 0xffffffu, ACPI_PM_TIMER_HZ };
		rp->present = rp->measured = true;
		rp->window_us = window;
		w[nw++] = (struct cwin){ .c = &pm_c, .r = rp };
	} else {
		rl_snprintf(rp->note, sizeof(rp->note), "no PM timer in the FADT");
	}

	struct tsc_ref *rh = &cal.ref[TSC_REF_HPET];
	struct hpet h;
	struct counter hpet_c;
	bool hpet_opened = false;

	if (ai && ai->have_hpet) {
		rh->present = true;
		if (hpet_open(&h, ai->hpet_addr, rh->note, sizeof(rh->note))) {
			hpet_opened = true;
			hpet_c = (struct counter){ read_hpet, &h,
						   h.counter_64bit ? UINT64_MAX : 0xffffffffu, h.hz };
			rh->measured = true;
			rh->window_us = window;
			w[nw++] = (struct cwin){ .c = &hpet_c, .r = rh };
		}
	} else {
		rl_snprintf(rh->note, sizeof(rh->note), "no HPET table, or its base was refused (see the error lines)");
	}

	struct tsc_ref *rt = &cal.ref[TSC_REF_PIT];
	struct pitwin pw = { .r = rt, .runs = runs, .ticks = (uint64_t)PIT_HZ * window / 1000000u };

	if (pw.ticks > 0xffff)
		pw.ticks = 0xffff;
	rt->present = rt->measured = true;
	rt->window_us = pw.ticks * 1000000u / PIT_HZ;
	measure_joint(w, nw, &pw, window, runs);
	if (hpet_opened)
		hpet_restore(&h);
	irq_restore(flags);

	static const enum tsc_ref_id pref[] = {
		TSC_REF_CPUID15, TSC_REF_HYPERVISOR, TSC_REF_HPET,
		TSC_REF_PMTIMER, TSC_REF_PIT, TSC_REF_CPUID16,
	};
	for (unsigned i = 0; i < TSC_NREFS; i++)
		if (cal.ref[i].ok)
			cal.nok++;
	for (unsigned i = 0; i < sizeof(pref) / sizeof(pref[0]); i++) {
		if (cal.ref[pref[i]].ok) {
			cal.hz = cal.ref[pref[i]].hz;
			cal.source = cal.ref[pref[i]].name;
			break;
		}
	}
	overrule_declared(&cal);
	if (!cal.hz) {
		cal.hz = tsc_hz;
		cal.source = "guess";
	}
	*out = cal;
}

const struct tsc_calibration *tsc_get_calibration(void)
{
	return &cal;
}
