/* SPDX-License-Identifier: GPL-2.0-only */
/* tscdeadline: how the TSC-deadline timer behaves, and what an immediate
 * deadline costs up to its interrupt (`immediate`: the path of
 * kvm-unit-tests' vmexit `tscdeadline_immed`, whose loop writes a deadline
 * already past and takes the interrupt at the NOP after the WRMSR; the
 * WRMSR alone, with the interrupt taken after the timed window, is
 * spec.immed_arm in suites/spec/immed.c).
 *
 * The LVT timer is put in TSC-deadline mode before the deadline MSR is
 * written (SDM vol. 3 §11.5.4.1: otherwise the write is ignored), with the
 * MFENCE Linux uses between the two (arch/x86/apic_timer.c).  The timer is
 * claimed from the runner's watchdog for each case (timer_claim), so every
 * wait here is bounded on its own:
 *   - spin waits by the TSC (plat_spin_until);
 *   - HLT waits by a backstop: a second CPU sends an IPI if the timer has
 *     not fired T_LOST_US after its deadline, so a lost timer interrupt cannot
 *     leave the CPU halted forever.  Without a second CPU the HLT
 *     measurements are skipped, with that reason.
 * Latency = TSC at handler entry - deadline, in ns; it includes interrupt
 * delivery and the entry stub (a few hundred cycles), nothing is
 * subtracted.
 *
 * Where the CPU lacks TSC-deadline, those cases skip and oneshot_latency
 * runs the same measurement on the LAPIC one-shot count timer, whose rate
 * was calibrated against the TSC at boot (timer_count_hz).  The answer then
 * says why TSC-deadline was not measured (the CPU has no TSC-deadline
 * mode: QEMU TCG offers none) and gives the one-shot latency, labelled as
 * that timer's. */
#include "kernel/test.h"
#include "arch/x86/apic.h"
#include "arch/x86/apic_timer.h"
#include "arch/x86/cpu.h"
#include "arch/x86/msr.h"
#include "arch/x86/traps.h"
#include "kernel/platform.h"
#include "lib/stats.h"

SUITE(tscdeadline, 80, "TSC-deadline timer: latency (HLT/spin), disarm, re-arm, past deadline, no loss, immediate cost; one-shot fallback");

/* A timer interrupt not seen this long after its deadline is lost. */
#define BACKSTOP_MS	(T_LOST_US / 1000)

static volatile uint64_t fired_tsc, fired_count;

static void timer_cb(struct regs *r)
{
	(void)r;
	fired_tsc = lfence_rdtsc();
	fired_count++;
}

/* ---- the backstop CPU for HLT waits ---- */

static struct {
	volatile uint64_t when;		/* TSC at which to wake the BSP; 0 = idle */
	volatile int stop;
	volatile uint64_t sent;
	unsigned vec;
	unsigned cpu;
	bool running;
} bs;

static void backstop_irq(struct regs *r)
{
	(void)r;
}

static void backstop_worker(void *p)
{
	(void)p;
	uint32_t bsp = plat_cpu_apic_id(0);

	/* Serves until backstop_stop(); if the case ends first, the
	 * runner's cleanup unwinds it by NMI (smp_quiesce, kernel/smp.c). */
	while (!bs.stop) {
		uint64_t w = bs.when, now = rdtsc_ordered();

		/* Keep waking the BSP every 10 ms until it clears `when`, so
		 * an unsynchronized TSC cannot make it go back to sleep. */
		if (w && now > w &&
		    __atomic_compare_exchange_n(&bs.when, &w, now + plat_ms_to_cycles(10), 0,
						__ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
			bs.sent++;
			apic_send(bsp, APIC_DM_FIXED | bs.vec);
		}
		cpu_relax();
	}
}

static bool backstop_start(void)
{
	unsigned other[1];

	bs.running = false;
	if (!plat_other_cpus(other, 1))
		return false;
	bs.vec = irq_alloc_vector(backstop_irq);
	if (!bs.vec)
		return false;
	bs.cpu = other[0];
	bs.stop = 0;
	bs.when = 0;
	bs.sent = 0;
	bs.running = plat_post(bs.cpu, backstop_worker, 0) == PLAT_OK;
	return bs.running;
}

static void backstop_stop(void)
{
	if (!bs.running)
		return;
	bs.stop = 1;
	plat_wait(bs.cpu, 2000);
	bs.running = false;
}

enum wait_kind { WAIT_SPIN, WAIT_HLT };

/* Microseconds from now to the TSC instant `limit` (0 once it passed): a
 * plat_spin_until() timeout that ends at a given instant. */
static uint64_t us_until(uint64_t limit)
{
	uint64_t now = rdtsc_ordered();

	return limit > now ? plat_cycles_to_ns(limit - now) / 1000 + 1 : 0;
}

/* Wait for the shot armed with `deadline`; true if the timer fired. */
static bool wait_fire(enum wait_kind w, uint64_t count_before, uint64_t deadline)
{
	uint64_t limit = deadline + plat_ms_to_cycles(BACKSTOP_MS);

	if (w == WAIT_SPIN)
		return plat_spin_until(fired_count != count_before, us_until(limit));
	/* The HLT wait is what the hlt series measures (wake-up from HLT),
	 * so it halts between looks instead of spinning in
	 * plat_spin_until(); the same limit bounds it, and the backstop
	 * CPU's IPI ends a halt the lost timer would not. */
	bs.when = limit;
	for (;;) {
		cli();
		if (fired_count != count_before || rdtsc_ordered() > limit) {
			sti();
			break;
		}
		safe_halt();	/* sti; hlt: no lost-wakeup window */
	}
	bs.when = 0;
	return fired_count != count_before;
}

typedef void (*arm_fn)(uint64_t deadline_tsc);

/* How early a shot may legitimately be, in cycles: 0 for TSC-deadline; for
 * the one-shot timer, its calibration error over the shot's length plus
 * one tick (the deadline is only as good as the calibrated rate). */
typedef uint64_t (*slack_fn)(uint64_t delta_cycles);

static uint64_t slack_none(uint64_t d)
{
	(void)d;
	return 0;
}

static uint64_t slack_oneshot(uint64_t d)
{
	return d * timer_count_err_ppm / 1000000u + plat_tsc_hz() / timer_count_hz + 1;
}

static void arm_deadline(uint64_t d)
{
	wrmsr(MSR_IA32_TSC_DEADLINE, d);
}

/* One-shot count mode, expressed as a TSC deadline: the count for the
 * remaining cycles at the calibrated rate, divide 1. */
static void arm_oneshot(uint64_t d)
{
	uint64_t now = lfence_rdtsc();
	uint64_t left = d > now ? d - now : 1;
	uint64_t ticks = (uint64_t)(((unsigned __int128)left * timer_count_hz) / plat_tsc_hz());

	if (ticks == 0)
		ticks = 1;
	if (ticks > 0xffffffffu)
		ticks = 0xffffffffu;
	timer_oneshot((uint32_t)ticks, APIC_TDR_DIV_1);
}

static const uint64_t deltas_ns[] = { 1000, 10000, 100000, 1000000, 10000000 };

/* quick on its time budget (no iters=) measures one series: the 100 us
 * deadline, waiting in HLT (the wait an idle kernel uses) where a second
 * CPU can be the backstop, else spinning.  Reporting a series is two long
 * lines, which under a hypervisor that emulates every port write (the
 * serial console) cost some 35 ms a series, more than its samples; full
 * runs keep both waits and every deadline, quick with iters= the middle
 * three deadlines. */
#define QUICK_DELTA	2	/* deltas_ns[2] = 100 us */

/* The answer from the first series of a latency run (lat[] sorted by
 * t_metric_dist): the lateness, a measured value (no control), and the
 * early or lost interrupts, which nothing planted here could show (no
 * control either).  From the one-shot timer only where there is no
 * TSC-deadline mode, and then labelled as the one-shot timer's. */
static void answer_latency(struct test_ctx *t, bool deadline, const char *what, const uint64_t *lat,
			   size_t k, size_t shots, size_t early, size_t lost, bool hlt, uint64_t delta_ns)
{
	struct claim cost = { NULL, T_CONTROL_NONE, k, k, 0, NULL, true };
	struct claim bad = { NULL, T_CONTROL_NONE, shots, early + lost, 0, NULL, false };
	char from[96], lead[240] = "";

	rl_snprintf(from, sizeof(from), "tscdeadline.%s.%s", deadline ? "latency" : "oneshot_latency", what);
	if (!deadline) {
		char why[160];

		x86_feature_absent_why(X86_FEATURE_TSC_DEADLINE_TIMER, "TSC-deadline", why, sizeof(why));
		rl_snprintf(lead, sizeof(lead),
			    "TSC-deadline not measured: no TSC-deadline mode (%s). Measured instead, the LAPIC one-shot timer (not TSC-deadline): ",
			    why);
	}
	t_answer_claim(t, ANSWER_TSCDEADLINE, from, &cost,
		       "%s%s interrupts arrive late by p50 %llu ns, p99 %llu ns (%s wait, deadline %llu ns ahead)",
		       lead, deadline ? "TSC-deadline" : "one-shot",
		       (unsigned long long)percentile_sorted(lat, k, 50),
		       (unsigned long long)percentile_sorted(lat, k, 99), hlt ? "HLT" : "spin",
		       (unsigned long long)delta_ns);
	t_answer_claim(t, ANSWER_TSCDEADLINE, NULL, &bad, "%s interrupts early (%zu) or lost (%zu)",
		       deadline ? "TSC-deadline" : "one-shot", early, lost);
}

static void latency_run(struct test_ctx *t, arm_fn arm, slack_fn slack)
{
	size_t shots = (size_t)t_iters(t, 200, 10);
	uint64_t *lat = t_alloc(t, shots * sizeof(uint64_t));
	bool have_bs = backstop_start();
	unsigned nd = sizeof(deltas_ns) / sizeof(deltas_ns[0]);
	unsigned d_lo = t_quick(t) ? 1 : 0, d_hi = nd - (t_quick(t) ? 1 : 0);
	int w_lo = WAIT_SPIN, w_hi = have_bs ? WAIT_HLT : WAIT_SPIN;
	bool answered = false;

	if (!have_bs)
		t_diag(t, "HLT waits skipped: no second CPU to act as the wake-up backstop");
	if (t_budgeted(t)) {
		d_lo = QUICK_DELTA;
		d_hi = QUICK_DELTA + 1;
		w_lo = w_hi;
		t_diag(t, "budget: quick: %s.d%lluns only", w_hi == WAIT_HLT ? "hlt" : "spin",
		       (unsigned long long)deltas_ns[QUICK_DELTA]);
	}
	for (int w = w_lo; w <= w_hi; w++) {
		for (unsigned di = d_lo; di < d_hi; di++) {
			uint64_t delta = plat_ns_to_cycles(deltas_ns[di]);
			size_t k = 0, lost = 0, early = 0, i;

			for (i = 0; i < shots; i++) {
				uint64_t before = fired_count;

				/* quick: deliberate waits within the sample budget */
				if (i >= 3 && t_quick_spent(t))
					break;
				uint64_t d = lfence_rdtsc() + delta;

				arm(d);
				if (!wait_fire((enum wait_kind)w, before, d)) {
					lost++;
					continue;
				}
				if (fired_tsc + slack(delta) < d)
					early++;
				else if (fired_tsc < d)
					lat[k++] = 0;	/* early, within the calibration error */
				else
					lat[k++] = plat_cycles_to_ns(fired_tsc - d);
			}
			char what[64];

			rl_snprintf(what, sizeof(what), "%s.d%lluns", w == WAIT_HLT ? "hlt" : "spin",
				    (unsigned long long)deltas_ns[di]);
			t_metric_dist(t, what, lat, k, "ns", "delta_ns=%llu lost=%zu early=%zu method=handler-tsc-minus-deadline",
				      (unsigned long long)deltas_ns[di], lost, early);
			t_budget_note(t, what, i, shots);
			t_check(t, early == 0, "%s: %zu interrupts arrived before their deadline", what, early);
			/* the answer: the first series (lat[] is sorted by
			 * t_metric_dist); the one-shot timer's only where there
			 * is no TSC-deadline mode */
			if ((arm == arm_deadline || !timer_has_tscdeadline) && !answered && k) {
				answered = true;
				answer_latency(t, arm == arm_deadline, what, lat, k, i, early, lost,
					       w == WAIT_HLT, deltas_ns[di]);
			}
			t_check(t, lost == 0, "%s: %zu of %zu timer interrupts never arrived (backstop woke the CPU)",
				what, lost, i);
		}
	}
	backstop_stop();
}

static bool claim_deadline(struct test_ctx *t)
{
	if (!timer_has_tscdeadline) {
		char why[200];

		x86_feature_absent_why(X86_FEATURE_TSC_DEADLINE_TIMER, "TSC-deadline", why, sizeof(why));
		t_skip(t, "%s; see oneshot_latency", why);
		return false;
	}
	if (plat_apic_mode() == APIC_MODE_NONE) {
		t_skip(t, "no local APIC");
		return false;
	}
	timer_claim(timer_cb);
	timer_tscdeadline_mode();
	return true;
}

TEST(tscdeadline, latency, .budget_ms = 120000)
{
	if (!claim_deadline(t))
		return;
	latency_run(t, arm_deadline, slack_none);
	timer_release();
}

TEST(tscdeadline, disarm)
{
	if (!claim_deadline(t))
		return;
	uint64_t delta = plat_ns_to_cycles(1000000);	/* 1 ms */
	uint64_t before = fired_count;
	uint64_t d = lfence_rdtsc() + delta;

	/* Positive control first: the same wait sees an armed shot. */
	arm_deadline(d);
	t_check(t, wait_fire(WAIT_SPIN, before, d), "control: an armed 1 ms deadline never fired");
	before = fired_count;
	d = lfence_rdtsc() + delta;
	arm_deadline(d);
	arm_deadline(0);
	/* Watch until 2 delta from arming: the watch ends early only on an
	 * interrupt, which fails the check below. */
	(void)plat_spin_until(fired_count != before, us_until(d + delta));
	t_check(t, fired_count == before, "writing 0 did not disarm: %llu interrupt(s) within 2 ms",
		(unsigned long long)(fired_count - before));
	uint64_t v = rdmsr(MSR_IA32_TSC_DEADLINE);

	t_check(t, v == 0, "IA32_TSC_DEADLINE reads 0x%llx after disarm", (unsigned long long)v);
	timer_release();
}

TEST(tscdeadline, rearm)
{
	if (!claim_deadline(t))
		return;
	uint64_t before = fired_count;
	uint64_t now = lfence_rdtsc();
	uint64_t d1 = now + plat_ns_to_cycles(20000000);	/* 20 ms */
	uint64_t d2 = now + plat_ns_to_cycles(2000000);	/* 2 ms */

	arm_deadline(d1);
	arm_deadline(d2);	/* replaces d1 (SDM: one deadline at a time) */
	bool got = wait_fire(WAIT_SPIN, before, d2);

	t_check(t, got, "the re-armed 2 ms deadline never fired");
	if (got) {
		t_check(t, fired_tsc >= d2, "fired %lld cycles before the re-armed deadline",
			(long long)(d2 - fired_tsc));
		t_check(t, fired_tsc < d1, "fired only at the replaced 20 ms deadline");
	}
	uint64_t after = fired_count;

	/* Watch until 5 ms past the replaced deadline: the watch ends early
	 * only on an interrupt, which fails the check below. */
	(void)plat_spin_until(fired_count != after, us_until(d1 + plat_ns_to_cycles(5000000)));
	t_check(t, fired_count == after, "the replaced deadline still fired (%llu extra interrupts)",
		(unsigned long long)(fired_count - after));
	timer_release();
}

TEST(tscdeadline, past)
{
	if (!claim_deadline(t))
		return;
	size_t n = (size_t)t_iters(t, 100, 10);
	uint64_t *lat = t_alloc(t, n * sizeof(uint64_t));
	size_t k = 0, lost = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t before = fired_count;
		uint64_t now = lfence_rdtsc();
		/* alternately just past, and far in the past */
		uint64_t d = (i & 1) ? 1 : now - plat_ns_to_cycles(1000);

		arm_deadline(d);
		if (!wait_fire(WAIT_SPIN, before, now)) {
			lost++;
			continue;
		}
		lat[k++] = plat_cycles_to_ns(fired_tsc - now);
	}
	t_metric_dist(t, "arm_to_irq", lat, k, "ns", "lost=%zu method=handler-tsc-minus-arm-tsc", lost);
	t_check(t, lost == 0, "%zu of %zu past deadlines did not fire within %llu ms", lost, n,
		(unsigned long long)BACKSTOP_MS);
	timer_release();
}

/* quick: 10 ms of sample budget, at least NO_LOSS_MIN_QUICK shots (each
 * costs most of a millisecond under a hypervisor that emulates the APIC
 * timer and the TSC reads that wait for it) */
#define NO_LOSS_MIN_QUICK	8

TEST(tscdeadline, no_loss, .quick_budget_ms = 10)
{
	if (!claim_deadline(t))
		return;
	uint64_t want = t_iters(t, 10000, 200), n = 0, lost = 0;
	uint64_t start = fired_count;

	for (; n < want && !t_expired(t); n++) {
		if (n >= NO_LOSS_MIN_QUICK && t_quick_spent(t))
			break;
		uint64_t before = fired_count;
		uint64_t d = lfence_rdtsc() + plat_ns_to_cycles(20000);

		arm_deadline(d);
		if (!wait_fire(WAIT_SPIN, before, d))
			lost++;
	}
	/* settle, then count: exactly one interrupt per shot */
	plat_delay_us(1000);
	uint64_t got = fired_count - start;

	t_metric_value(t, "shots", (int64_t)n, "count", "interrupts=%llu lost=%llu",
		       (unsigned long long)got, (unsigned long long)lost);
	t_budget_note(t, "shots", n, want);
	t_check(t, lost == 0 && got == n, "%llu shots, %llu interrupts, %llu lost",
		(unsigned long long)n, (unsigned long long)got, (unsigned long long)lost);
	timer_release();
}

/* WRMSR(TSC_DEADLINE, now), delivery, handler, EOI, measured from before
 * the WRMSR to the handler's flag as seen by the spinning CPU, with and
 * without MFENCE;LFENCE before the WRMSR (Linux dropped it from
 * lapic_next_deadline in 2026).  This is the path of kvm-unit-tests'
 * vmexit `tscdeadline_immed`: its loop writes rdtsc() as the deadline with
 * interrupts on and takes the interrupt at the NOP that follows, so each
 * of its iterations includes delivery, handler and EOI too.  (Its
 * `tscdeadline` arms 3000 cycles ahead and spins until the handler, which
 * adds that wait; spec.immed_arm times the WRMSR alone, interrupts off.)
 *
 * quick on its time budget (no iters=): 10 ms of sample budget, at least
 * IMMEDIATE_MIN_QUICK shots (one takes most of a millisecond under a
 * hypervisor that emulates the WRMSR and the interrupt), and the unfenced
 * series only: reporting a series costs some 30 ms of emulated serial
 * output there.  Full runs and quick with iters= measure both. */
#define IMMEDIATE_MIN_QUICK	5

TEST(tscdeadline, immediate, .quick_budget_ms = 10)
{
	if (!claim_deadline(t))
		return;
	size_t n = (size_t)t_iters(t, 10000, 200);
	uint64_t *c = t_alloc(t, n * sizeof(uint64_t));
	int nf = (int)t_pick(t, 2, 2, 1);

	if (nf < 2)
		t_diag(t, "budget: quick: nofence only (not mfence_lfence)");
	for (int f = 0; f < nf; f++) {
		size_t k = 0, lost = 0, i;

		for (i = 0; i < n; i++) {
			if (i >= IMMEDIATE_MIN_QUICK && t_quick_spent(t))
				break;
			uint64_t before = fired_count;
			uint64_t t0 = lfence_rdtsc();

			if (f)
				__asm__ volatile("mfence; lfence" ::: "memory");
			wrmsr(MSR_IA32_TSC_DEADLINE, rdtsc());
			(void)plat_spin_until(fired_count != before, BACKSTOP_MS * 1000);
			uint64_t t1 = lfence_rdtsc();

			if (fired_count == before)
				lost++;
			else
				c[k++] = t1 - t0;
		}
		t_metric_dist(t, f ? "mfence_lfence" : "nofence", c, k, "cycles",
			      "lost=%zu method=wrmsr-to-handler-flag", lost);
		t_budget_note(t, f ? "mfence_lfence" : "nofence", i, n);
		if (k) {
			struct claim cost = { NULL, T_CONTROL_NONE, k, k, 0, NULL, true };

			t_answer_claim(t, ANSWER_TSCDEADLINE,
				       f ? "tscdeadline.immediate.mfence_lfence" : "tscdeadline.immediate.nofence",
				       &cost, "An immediate deadline%s takes p50 %llu cycles from WRMSR to the handler (the path of kvm-unit-tests' tscdeadline_immed)",
				       f ? " after MFENCE;LFENCE" : "",
				       (unsigned long long)percentile_sorted(c, k, 50));
		}
		t_check(t, lost == 0, "%zu immediate deadlines never fired", lost);
	}
	timer_release();
}

/* quick: 10 ms of sample budget (at least 3 shots a series): the
 * LAPIC one-shot series only complement the TSC-deadline ones */
TEST(tscdeadline, oneshot_latency, .budget_ms = 120000, .quick_budget_ms = 10)
{
	if (plat_apic_mode() == APIC_MODE_NONE || !timer_count_hz) {
		t_skip(t, "no calibrated LAPIC timer");
		return;
	}
	t_diag(t, "LAPIC one-shot timer at %llu Hz (divide 1), calibrated against the TSC to +-%llu ppm; an interrupt that early counts as on time (latency 0)",
	       (unsigned long long)timer_count_hz, (unsigned long long)timer_count_err_ppm);
	timer_claim(timer_cb);
	latency_run(t, arm_oneshot, slack_oneshot);
	timer_release();
}
