/* SPDX-License-Identifier: GPL-2.0-only */
/* ipi: what an IPI costs, measured the way ipi-bench and the "x86/barrier:
 * Do not serialize MSR accesses on AMD" thread argue about it:
 *
 *   oneway       sender's TSC before the ICR write -> receiver's TSC at
 *                handler entry (needs synchronized TSCs: see tsc.sync)
 *   roundtrip    ping-pong: A -> B, B's handler -> A, on A's clock only
 *   icr_cost     the ICR write alone (x2APIC: WRMSR 0x830; xAPIC: two MMIO
 *                stores plus the delivery-status wait the kernel must do)
 *   mesh         disjoint CPU pairs sending to each other as fast as a
 *                synchronous call allows, in calls per second
 *   many_to_one  up to 16 CPUs calling CPU 0
 *
 * Every measurement runs without and with MFENCE;LFENCE before the ICR
 * write (Linux's weak_wrmsr_fence()), and in x2APIC and xAPIC mode where
 * both work on this machine (plat_apic_mode_allowed()); quick on its time
 * budget measures a subset and names what it leaves out (quick_configs).
 * A "call" is synchronous like smp_call_function_single(): the sender
 * bumps a request counter, sends the IPI, and waits until the receiver's
 * handler copies it to the acknowledge counter.  An IPI that is never
 * acknowledged within T_LOST_US is counted lost and fails the case.
 *
 * The ipi_cost answer gathers, per case, the figures a reader asks for
 * first (ans_begin .. ans_end): the one-way latency to CPU 0's first
 * partner in the boot mode without the fence; the ICR write itself in the
 * boot mode, with and without the fence; and the mesh throughput in every
 * mode and fence measured.  Each is a measured value, so its claim has no
 * control; the other configurations are in the metrics (an answer's
 * metric list has room for a few names only).
 *
 * Pairs: CPU 0 with up to K CPUs of each relation (SMT sibling, same
 * package, other package), sampled with seed=, so big machines stay
 * bounded.  A partner's metrics are named by its relation and its place
 * among that relation's partners (same_package.0, same_package.1, ...), not
 * by its CPU number, which depends on the seed: two runs of one machine
 * then have the same metric names and tools/ringlab-report compare lines
 * them up; the CPU number is in the cpu= field. */
#include <stdarg.h>
#include "kernel/test.h"
#include "arch/x86/apic.h"
#include "arch/x86/cpu.h"
#include "arch/x86/traps.h"
#include "kernel/platform.h"
#include "lib/printf.h"
#include "lib/stats.h"
#include "lib/string.h"

SUITE(ipi, 70, "IPI latency, round trip, ICR cost, throughput; unfenced vs MFENCE;LFENCE; x2APIC vs xAPIC");

#define MAX_M2O		16
#define MAX_PAIRS	32

enum fence { NOFENCE, MFENCE_LFENCE };
static const char *const fence_name[] = { "nofence", "mfence_lfence" };

static inline __attribute__((always_inline)) void pre_icr(enum fence f)
{
	if (f == MFENCE_LFENCE)
		__asm__ volatile("mfence; lfence" ::: "memory");
}

struct slot {
	volatile uint64_t req, ack;
	volatile uint64_t t_send, t_recv;
} __attribute__((aligned(64)));

struct rx {
	unsigned n;
	unsigned senders[MAX_M2O];
} __attribute__((aligned(64)));

static struct slot *slots;	/* indexed by sender CPU */
static struct rx *receivers;		/* indexed by receiver CPU */
static unsigned vec_call, vec_ping, vec_pong;
static volatile uint64_t pong_tsc;
static volatile unsigned pong_from;

static void call_irq(struct regs *r)
{
	uint64_t t = lfence_rdtsc();
	struct rx *x = &receivers[plat_this_cpu()];

	(void)r;
	for (unsigned i = 0; i < x->n; i++) {
		struct slot *s = &slots[x->senders[i]];
		uint64_t q = s->req;

		if (q != s->ack) {
			s->t_recv = t;
			__atomic_store_n(&s->ack, q, __ATOMIC_RELEASE);
		}
	}
}

static void ping_irq(struct regs *r)
{
	(void)r;
	apic_icr_write_raw(plat_cpu_apic_id(pong_from), APIC_DM_FIXED | vec_pong);
}

static void pong_irq(struct regs *r)
{
	(void)r;
	pong_tsc = lfence_rdtsc();
}

static bool setup(struct test_ctx *t)
{
	unsigned others[1];

	if (!plat_other_cpus(others, 1)) {
		t_skip(t, "needs a second CPU");
		return false;
	}
	slots = t_alloc(t, plat_ncpus() * sizeof(*slots));
	receivers = t_alloc(t, plat_ncpus() * sizeof(*receivers));
	vec_call = irq_alloc_vector(call_irq);
	vec_ping = irq_alloc_vector(ping_irq);
	vec_pong = irq_alloc_vector(pong_irq);
	if (!vec_call || !vec_ping || !vec_pong)
		return t_fail(t, "no free vectors");
	return true;
}

/* The APIC modes to measure, boot mode first. */
static unsigned modes_to_run(struct test_ctx *t, enum apic_mode *m)
{
	char why[240];
	unsigned n = 0;
	enum apic_mode other = apic_boot_mode == APIC_MODE_X2APIC ? APIC_MODE_XAPIC : APIC_MODE_X2APIC;

	m[n++] = apic_boot_mode;
	if (plat_apic_mode_allowed(other, why, sizeof(why)))
		m[n++] = other;
	else
		t_diag(t, "%s mode not measured: %s", apic_mode_name(other), why);
	return n;
}

static bool enter_mode(struct test_ctx *t, enum apic_mode m)
{
	char why[240];

	if (plat_set_apic_mode(m, why, sizeof(why)))
		return true;
	return t_fail(t, "switching to %s failed: %s", apic_mode_name(m), why);
}

static bool wait_ack(struct slot *s, uint64_t q)
{
	return plat_spin_until(__atomic_load_n(&s->ack, __ATOMIC_ACQUIRE) == q, T_LOST_US);
}

/* CPU 0's partners: up to k of each relation; idx[] is the place of each
 * among the partners of its relation (the stable part of its name). */
static unsigned partners(struct test_ctx *t, unsigned *cpu, enum cpu_rel *rel, unsigned *idx,
			 unsigned k)
{
	static const enum cpu_rel rels[] = { REL_SMT_SIBLING, REL_SAME_PACKAGE, REL_OTHER_PACKAGE };
	unsigned n = 0;

	for (unsigned i = 0; i < 3; i++) {
		unsigned got = plat_cpus_with_relation(0, rels[i], cpu + n, k, &t->rng);

		for (unsigned j = 0; j < got; j++) {
			rel[n + j] = rels[i];
			idx[n + j] = j;
		}
		n += got;
	}
	return n;
}

/* What every case measures over: partners of CPU 0, the modes, and a
 * sample buffer. */
struct pair_plan {
	size_t n;
	uint64_t *samples;
	unsigned cpu[9];
	enum cpu_rel rel[9];
	unsigned idx[9];
	unsigned np;
	enum apic_mode modes[2];
	unsigned nm;
	unsigned nf;		/* fences to run (the first nf of fence_name); 0: both */
};

static bool plan_pairs(struct test_ctx *t, struct pair_plan *plan, size_t full, size_t quick,
		       unsigned per_relation)
{
	if (!setup(t))
		return false;
	plan->n = (size_t)t_iters(t, full, quick);
	plan->samples = t_alloc(t, plan->n * sizeof(uint64_t));
	plan->np = partners(t, plan->cpu, plan->rel, plan->idx, per_relation);
	plan->nm = modes_to_run(t, plan->modes);
	return true;
}

/* quick on its time budget (no iters=) measures only the first nm modes
 * (boot mode first) and nf fences (nofence first) of a case, and says
 * which it leaves out.  Reporting one configuration, a metric line and
 * its histogram, costs some 35 ms under a hypervisor that emulates every
 * port write of the serial console, more than its samples; all of them
 * would make a smoke run cost a second there.  So quick stays in the
 * boot mode (a switch of every CPU's APIC mode, and the runner's switch
 * back, cost 50-100 ms each there when the host is busy); oneway and
 * roundtrip still compare the fences, so two runs with different seeds
 * still have several per-partner metrics to line up, and so do icr_cost
 * and mesh, whose fence comparison the answer gives; many_to_one runs
 * without a fence.  Full runs and quick with iters= measure every
 * configuration; runs that boot in xAPIC mode (apic=xapic, CPUs without
 * x2APIC) measure that mode in quick too. */
static void quick_configs(struct test_ctx *t, struct pair_plan *plan, unsigned nm, unsigned nf)
{
	unsigned had_nf = plan->nf ? plan->nf : 2;
	char kept[64] = "", left[64] = "";
	size_t lk = 0, ll = 0;

	if (!t_budgeted(t))
		return;
	if (nm > plan->nm)
		nm = plan->nm;
	if (nf > had_nf)
		nf = had_nf;
	/* "x2apic+xapic nofence" kept, "mfence_lfence" left out */
	for (unsigned i = 0; i < plan->nm; i++)
		if (i < nm)
			lk += (size_t)rl_snprintf(kept + lk, sizeof(kept) - lk, "%s%s", lk ? "+" : "",
						  apic_mode_name(plan->modes[i]));
		else
			ll += (size_t)rl_snprintf(left + ll, sizeof(left) - ll, "%s%s", ll ? "," : "",
						  apic_mode_name(plan->modes[i]));
	for (unsigned f = 0; f < had_nf; f++)
		if (f < nf)
			lk += (size_t)rl_snprintf(kept + lk, sizeof(kept) - lk, "%s%s", f ? "+" : " ",
						  fence_name[f]);
		else
			ll += (size_t)rl_snprintf(left + ll, sizeof(left) - ll, "%s%s", ll ? "," : "",
						  fence_name[f]);
	if (ll)
		t_diag(t, "budget: quick: %s only (not %s)", kept, left);
	plan->nm = nm;
	plan->nf = nf;
}

/* ---- the ipi_cost answer, one claim per case ---- */
static struct {
	char text[240];
	char from[240];
	size_t tl, fl;
	uint64_t n;		/* the fewest samples behind one of the figures */
	unsigned figures;
} ans;

static void ans_begin(void)
{
	ans.tl = ans.fl = 0;
	ans.text[0] = ans.from[0] = '\0';
	ans.n = UINT64_MAX;
	ans.figures = 0;
}

/* One figure: its words and the metric (suite.case.name) it quotes. */
static void ans_add(struct test_ctx *t, const char *metric, uint64_t n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void ans_add(struct test_ctx *t, const char *metric, uint64_t n, const char *fmt, ...)
{
	va_list ap;

	if (ans.tl + 2 >= sizeof(ans.text) || ans.fl + strlen(t->full_name) + strlen(metric) + 3 > sizeof(ans.from))
		return;
	if (ans.tl)
		ans.tl += (size_t)rl_snprintf(ans.text + ans.tl, sizeof(ans.text) - ans.tl, ", ");
	va_start(ap, fmt);
	ans.tl += (size_t)rl_vsnprintf(ans.text + ans.tl, sizeof(ans.text) - ans.tl, fmt, ap);
	va_end(ap);
	if (ans.tl >= sizeof(ans.text))
		ans.tl = sizeof(ans.text) - 1;
	ans.fl += (size_t)rl_snprintf(ans.from + ans.fl, sizeof(ans.from) - ans.fl, "%s%s.%s",
				      ans.fl ? "," : "", t->full_name, metric);
	if (n < ans.n)
		ans.n = n;
	ans.figures++;
}

/* A measured value: no control applies, and every sample measured it. */
static void ans_end(struct test_ctx *t, const char *what, const char *note)
{
	struct claim c = { NULL, T_CONTROL_NONE, ans.n, ans.n, 0, NULL, true };

	if (!ans.figures)
		return;
	t_answer_claim(t, ANSWER_IPI_COST, ans.from, &c, "%s: %s%s", what, ans.text, note);
}

/* " (xapic not measured)" where the boot mode's other mode was left out
 * (quick, or not allowed here: the case's diagnostics say why) */
static const char *other_mode_note(const struct pair_plan *plan)
{
	if (plan->nm > 1)
		return "";
	return apic_boot_mode == APIC_MODE_X2APIC ? " (xapic not measured)" : " (x2apic not measured)";
}

/* One configuration of the iterator below. */
struct ipi_config {
	enum apic_mode mode;
	unsigned cpu;		/* the partner (when per partner) */
	enum cpu_rel rel;
	unsigned idx;		/* its place among the partners of rel */
	enum fence fence;
};

typedef bool (*ipi_body)(struct test_ctx *t, const struct ipi_config *c,
			 const struct pair_plan *plan, void *arg);

/* The suite's one loop: mode (entered here) -> partner of CPU 0 (when
 * per_partner) -> fence -> body, which runs the iterations.  Stops when a
 * mode switch fails or body returns false. */
static void for_each_config(struct test_ctx *t, const struct pair_plan *plan, bool per_partner,
			    ipi_body body, void *arg)
{
	for (unsigned mi = 0; mi < plan->nm; mi++) {
		if (!enter_mode(t, plan->modes[mi]))
			return;
		for (unsigned p = 0; p < (per_partner ? plan->np : 1); p++) {
			for (int f = 0; f < (plan->nf ? (int)plan->nf : 2); f++) {
				struct ipi_config c = {
					.mode = plan->modes[mi], .fence = (enum fence)f,
					.cpu = per_partner ? plan->cpu[p] : ~0u,
					.rel = per_partner ? plan->rel[p] : REL_SELF,
					.idx = per_partner ? plan->idx[p] : 0,
				};

				if (!body(t, &c, plan, arg))
					return;
			}
		}
	}
}

/* One timed IPI exchange with c->cpu: the cycles, or false if lost;
 * *negative when the clock difference came out below zero. */
typedef bool (*ipi_sample)(const struct ipi_config *c, uint64_t *cycles, bool *negative);

struct pair_case {
	ipi_sample sample;
	const char *method;
	bool answer;		/* gives the answer's one-way latency */
};

/* The iterations of oneway and roundtrip: plan->n samples with one
 * partner, as metric cycles.<mode>.<fence>.<relation>.<index> (the suite's
 * header says why not the CPU number). */
#define IPI_MIN_QUICK	5	/* samples a configuration gets in quick */
#define IPI_QUICK_SAMPLES	50	/* quick's count (iters= overrides) */

static bool run_pair(struct test_ctx *t, const struct ipi_config *c, const struct pair_plan *plan,
		     void *arg)
{
	const struct pair_case *pc = arg;
	size_t k = 0, lost = 0, negative = 0;
	char name[96], ovh_text[96];
	struct t_overhead ovh;

	size_t i;

	for (i = 0; i < plan->n; i++) {
		uint64_t cycles;
		bool neg = false;

		if (i >= IPI_MIN_QUICK && t_quick_spent(t))
			break;	/* quick: the budget is used; what we have */

		if (!pc->sample(c, &cycles, &neg))
			lost++;
		else if (neg)
			negative++;
		else
			plan->samples[k++] = cycles;
	}
	/* each sample spans one LFENCE;RDTSC read on each end: the bracket's
	 * own median cost is removed */
	t_overhead_measure(&ovh, T_BRACKET_LFENCE, 64);
	t_overhead_remove(&ovh, plan->samples, k);
	t_overhead_text(&ovh, ovh_text, sizeof(ovh_text));
	rl_snprintf(name, sizeof(name), "cycles.%s.%s.%s.%u", apic_mode_name(c->mode),
		    fence_name[c->fence], plat_cpu_rel_name(c->rel), c->idx);
	t_metric_dist(t, name, plan->samples, k, "cycles", "cpu=%u negative=%zu method=%s %s", c->cpu,
		      negative, pc->method, ovh_text);
	t_budget_note(t, name, i, plan->n);
	/* the answer: the boot mode's first partner, without the fence
	 * (samples sorted by t_metric_dist) */
	if (k && pc->answer && c->mode == plan->modes[0] && c->cpu == plan->cpu[0] && c->fence == NOFENCE) {
		uint64_t p50 = percentile_sorted(plan->samples, k, 50);

		ans_add(t, name, k, "p50 %llu cycles (%llu ns) to %s.%u, %s, unfenced",
			   (unsigned long long)p50, (unsigned long long)plat_cycles_to_ns(p50),
			   plat_cpu_rel_name(c->rel), c->idx, apic_mode_name(c->mode));
	}
	t_check(t, lost == 0, "%s: %zu of %zu IPIs to cpu %u never acknowledged or answered",
		name, lost, i, c->cpu);
	return true;
}

static bool oneway_sample(const struct ipi_config *c, uint64_t *cycles, bool *negative)
{
	struct slot *s = &slots[0];
	uint64_t q = s->req + 1;

	apic_wait_icr_idle(1000);
	s->req = q;
	uint64_t t0 = lfence_rdtsc();

	s->t_send = t0;
	pre_icr(c->fence);
	apic_icr_write_raw(plat_cpu_apic_id(c->cpu), APIC_DM_FIXED | vec_call);
	if (!wait_ack(s, q)) {
		s->ack = q;
		return false;
	}
	*negative = s->t_recv < t0;
	*cycles = s->t_recv - t0;
	return true;
}

static bool oneway_pair(struct test_ctx *t, const struct ipi_config *c,
			const struct pair_plan *plan, void *arg)
{
	receivers[c->cpu].n = 1;
	receivers[c->cpu].senders[0] = 0;
	run_pair(t, c, plan, arg);
	receivers[c->cpu].n = 0;
	return true;
}

/* quick: 10 ms of sample budget, at least IPI_MIN_QUICK samples */
TEST(ipi, oneway, .quick_budget_ms = 10)
{
	static const struct pair_case pc = { oneway_sample, "tsc-delta-sender-to-handler", true };
	struct pair_plan plan;

	if (!plan_pairs(t, &plan, 10000, IPI_QUICK_SAMPLES, t_quick(t) ? 1 : 3))
		return;
	quick_configs(t, &plan, 1, 2);
	ans_begin();
	for_each_config(t, &plan, true, oneway_pair, (void *)&pc);
	ans_end(t, "One-way IPI, ICR write to handler", "");
	if (!plan.np)
		t_skip(t, "no partner CPUs");
}

static bool roundtrip_sample(const struct ipi_config *c, uint64_t *cycles, bool *negative)
{
	(void)negative;
	apic_wait_icr_idle(1000);
	pong_tsc = 0;
	uint64_t t0 = lfence_rdtsc();

	pre_icr(c->fence);
	apic_icr_write_raw(plat_cpu_apic_id(c->cpu), APIC_DM_FIXED | vec_ping);
	if (!plat_spin_until(pong_tsc != 0, T_LOST_US))
		return false;
	*cycles = pong_tsc - t0;
	return true;
}

/* quick: 10 ms of sample budget, at least IPI_MIN_QUICK samples */
TEST(ipi, roundtrip, .quick_budget_ms = 10)
{
	static const struct pair_case pc = { roundtrip_sample, "tsc-delta-one-clock", false };
	struct pair_plan plan;

	if (!plan_pairs(t, &plan, 10000, IPI_QUICK_SAMPLES, t_quick(t) ? 1 : 3))
		return;
	quick_configs(t, &plan, 1, 2);
	pong_from = 0;
	for_each_config(t, &plan, true, run_pair, (void *)&pc);
}

/* nanoBench-style overhead removal (t_u2u): time U and 2U back-to-back ICR
 * writes; (T(2U) - T(U)) / U is the cost of one, free of the loop and TSC
 * read overhead that both runs share. */
#define ICR_U 32
/* quick on its time budget: U of 8 (3 x 8 ICR writes a trial instead of 3
 * x 32, plus the warm-up) still dwarfs the loop and TSC overhead that U/2U
 * removes anyway, and keeps T_U2U_CHUNK trials under a hypervisor that
 * emulates the ICR write (~50k cycles each) near the sample budget. */
#define ICR_U_QUICK 8

struct icr_timing {
	uint32_t dest, icr;
	enum fence f;
};

static uint64_t time_icr_writes(unsigned count, void *arg)
{
	const struct icr_timing *it = arg;
	bool xapic = plat_apic_mode() == APIC_MODE_XAPIC;
	uint64_t t0 = lfence_rdtsc();

	for (unsigned i = 0; i < count; i++) {
		pre_icr(it->f);
		apic_icr_write_raw(it->dest, it->icr);
		if (xapic)
			apic_wait_icr_idle(1000);
	}
	return lfence_rdtsc() - t0;
}

static bool icr_cost_fence(struct test_ctx *t, const struct ipi_config *c,
			   const struct pair_plan *plan, void *arg)
{
	/* The target's handler for vec_call is a no-op here (rx list empty);
	 * back-to-back IPIs to it coalesce in its IRR, which is fine: we are
	 * timing the sender. */
	struct icr_timing it = { plat_cpu_apic_id(*(const unsigned *)arg),
				 APIC_DM_FIXED | vec_call, c->fence };
	unsigned u = (unsigned)t_pick(t, ICR_U, ICR_U, ICR_U_QUICK);
	size_t dropped, ran, k = t_u2u_budget(t, time_icr_writes, &it, u, plan->n, T_U2U_CHUNK,
					      plan->samples, &dropped, &ran);
	char name[96];

	rl_snprintf(name, sizeof(name), "cycles.%s.%s", apic_mode_name(c->mode), fence_name[c->fence]);
	t_metric_dist(t, name, plan->samples, k, "cycles", "op=%s method=u2u u=%d dropped=%zu %s",
		      c->mode == APIC_MODE_X2APIC ? "wrmsr" : "mmio+wait-idle", u, dropped,
		      t_u2u_overhead_text());
	t_budget_note(t, name, ran, plan->n);
	t_check(t, k > 0, "%s: no usable trial", name);
	/* the answer: the boot mode's (samples sorted by t_metric_dist) */
	if (k && c->mode == plan->modes[0])
		ans_add(t, name, k, "%s %llu", fence_name[c->fence],
			   (unsigned long long)percentile_sorted(plan->samples, k, 50));
	return true;
}

/* quick: 10 ms of sample budget (at least T_U2U_CHUNK trials a configuration) */
TEST(ipi, icr_cost, .quick_budget_ms = 10)
{
	struct pair_plan plan;

	if (!plan_pairs(t, &plan, 2000, 100, 1))
		return;
	if (!plan.np)
		return (void)t_fail(t, "no partner");
	quick_configs(t, &plan, 1, 2);
	ans_begin();
	for_each_config(t, &plan, false, icr_cost_fence, &plan.cpu[0]);
	if (ans.figures) {
		char what[96];

		rl_snprintf(what, sizeof(what), "ICR write alone (%s), p50 cycles",
			    apic_boot_mode == APIC_MODE_X2APIC ? "x2apic WRMSR" : "xapic MMIO + wait for idle");
		ans_end(t, what, "");
	}
}

/* ---- throughput ---- */

struct throughput_ctx {
	struct tsc_barrier bar;
	uint64_t duration;
	enum fence f;
	unsigned *partner;	/* per CPU: whom to call, or ~0u to only receive */
	uint64_t *count;	/* per CPU: calls completed */
	volatile unsigned lost;
};
static struct throughput_ctx throughput;
/* quick without iters= (a time budget): the throughput window, and the
 * rates in the boot APIC mode only (quick_configs): mesh with and without
 * the fence (the answer compares them), many_to_one without.  Under
 * an emulator a configuration costs host time slices beyond its window
 * (QEMU TCG, 4 vCPUs on 2 host cores: 20-70 ms for a 5 ms window,
 * 100-200 ms in xAPIC mode, whose MMIO takes QEMU's global lock); on
 * hardware 2 ms still holds thousands of calls.  The same host slices are
 * why quick also takes fewer CPUs: every CPU of a throughput run spins
 * (sending, or waiting for the window to close), so with more of them
 * than host cores a call waits for its partner's vCPU to be scheduled,
 * and the run outlasts its window many times over.  quick: mesh one pair
 * (the metric's pairs= says so), many_to_one up to QUICK_SENDERS
 * senders (senders=).  The mesh's two configurations share the window
 * one configuration has (QUICK_WINDOW_MS / 2 each): 1 ms still holds
 * thousands of calls on hardware. */
#define QUICK_WINDOW_MS	2
#define QUICK_PAIRS	1
#define QUICK_SENDERS	2

/* A configuration's window: 200 ms in full runs, 20 ms in quick with
 * iters=, QUICK_WINDOW_MS on quick's time budget, shared by nconfigs. */
static uint64_t throughput_ms(const struct test_ctx *t, unsigned nconfigs)
{
	uint64_t q = QUICK_WINDOW_MS / (nconfigs ? nconfigs : 1);

	return t_pick(t, 200, 20, q ? q : 1);
}

static void throughput_worker(void *arg)
{
	struct throughput_ctx *c = arg;
	unsigned me = plat_this_cpu(), to = c->partner[me];
	struct slot *s = &slots[me];
	uint64_t done = 0;

	if (!tsc_barrier_wait(&c->bar, plat_us_to_cycles(T_LOST_US))) {	/* scaled at boot (kernel/lost.c) */
		c->lost++;
		return;
	}
	uint64_t end = lfence_rdtsc() + c->duration;

	if (to == ~0u) {
		/* receiver only: interrupts on, its handler answers until the
		 * window closes (bounded in case the TSC misbehaves) */
		(void)plat_spin_until(lfence_rdtsc() >= end, T_LOST_US);
		return;
	}
	uint32_t dest = plat_cpu_apic_id(to);

	while (lfence_rdtsc() < end) {
		uint64_t q = s->req + 1;

		apic_wait_icr_idle(1000);
		s->req = q;
		pre_icr(c->f);
		apic_icr_write_raw(dest, APIC_DM_FIXED | vec_call);
		if (!wait_ack(s, q)) {
			__atomic_add_fetch(&c->lost, 1, __ATOMIC_RELAXED);
			rep_diag("lost: cpu %u -> cpu %u, request %llu unacknowledged after %llu calls",
				 me, to, (unsigned long long)q, (unsigned long long)done);
			break;
		}
		done++;
	}
	c->count[me] = done;
}

static bool run_throughput(struct test_ctx *t, const unsigned *part, const unsigned *list,
			   unsigned n, enum fence f, uint64_t *total, uint64_t duration_ms)
{
	throughput.duration = plat_ms_to_cycles(duration_ms);
	throughput.f = f;
	throughput.partner = (unsigned *)part;
	throughput.lost = 0;
	for (unsigned i = 0; i < plat_ncpus(); i++)
		throughput.count[i] = 0;
	tsc_barrier_init(&throughput.bar, n, plat_us_to_cycles(200));
	int rc = plat_call_many(list, n, throughput_worker, &throughput, duration_ms + 2 * T_LOST_US / 1000, NULL);

	*total = 0;
	for (unsigned i = 0; i < n; i++)
		*total += throughput.count[list[i]];
	if (rc)
		return t_fail(t, "throughput run: %s", plat_strerror(rc));
	return throughput.lost == 0 || t_fail(t, "%u calls were never acknowledged", throughput.lost);
}

/* Who calls whom in a throughput case, for the iterator. */
struct throughput_plan {
	const unsigned *part, *list;
	unsigned n;		/* CPUs in list */
	uint64_t ms;
	uint64_t total;		/* out: calls completed */
	char name[48];		/* out: rate.<mode>.<fence> */
};

static bool throughput_config(struct test_ctx *t, const struct ipi_config *c,
			      const struct pair_plan *plan, void *arg)
{
	struct throughput_plan *tp = arg;

	(void)plan;
	rl_snprintf(tp->name, sizeof(tp->name), "rate.%s.%s", apic_mode_name(c->mode),
		    fence_name[c->fence]);
	if (!run_throughput(t, tp->part, tp->list, tp->n, c->fence, &tp->total, tp->ms))
		return false;
	t_check(t, tp->total > 0, "%s: no call completed", tp->name);
	return true;
}

static bool mesh_config(struct test_ctx *t, const struct ipi_config *c,
			const struct pair_plan *plan, void *arg)
{
	struct throughput_plan *tp = arg;

	if (!throughput_config(t, c, plan, arg))
		return false;
	uint64_t rate = tp->total * 1000 / tp->ms;

	t_metric_value(t, tp->name, (int64_t)rate, "ipi_per_s",
		       "pairs=%u calls=%llu duration_ms=%llu", tp->n / 2,
		       (unsigned long long)tp->total, (unsigned long long)tp->ms);
	ans_add(t, tp->name, tp->total, "%s %s %llu", apic_mode_name(c->mode), fence_name[c->fence],
		   (unsigned long long)rate);
	return true;
}

TEST(ipi, mesh)
{
	static unsigned list[2 * MAX_PAIRS], part[PLAT_MAX_CPUS];
	struct pair_plan plan = { 0 };

	if (!setup(t))
		return;
	throughput.count = t_alloc(t, plat_ncpus() * sizeof(uint64_t));
	plan.nm = modes_to_run(t, plan.modes);
	/* quick: the boot mode, with and without the fence (the answer's
	 * comparison), a window each */
	quick_configs(t, &plan, 1, 2);
	/* Disjoint pairs of consecutive online CPUs, bounded. */
	unsigned pairs = (unsigned)t_pick(t, MAX_PAIRS, MAX_PAIRS, QUICK_PAIRS);
	unsigned n = plat_online_cpus(list, 2 * pairs) & ~1u;

	for (unsigned i = 0; i < n; i += 2) {
		part[list[i]] = list[i + 1];
		part[list[i + 1]] = list[i];
		receivers[list[i]] = (struct rx){ 1, { list[i + 1] } };
		receivers[list[i + 1]] = (struct rx){ 1, { list[i] } };
	}
	struct throughput_plan tp = { part, list, n, throughput_ms(t, plan.nm * plan.nf), 0, "" };
	char what[64];

	ans_begin();
	for_each_config(t, &plan, false, mesh_config, &tp);
	rl_snprintf(what, sizeof(what), "Mesh of %u pair%s, IPI/s", n / 2, n == 2 ? "" : "s");
	ans_end(t, what, other_mode_note(&plan));
}

static bool many_to_one_config(struct test_ctx *t, const struct ipi_config *c,
			       const struct pair_plan *plan, void *arg)
{
	struct throughput_plan *tp = arg;

	if (!throughput_config(t, c, plan, arg))
		return false;
	t_metric_value(t, tp->name, (int64_t)(tp->total * 1000 / tp->ms), "ipi_per_s",
		       "senders=%u calls=%llu duration_ms=%llu", tp->n - 1,
		       (unsigned long long)tp->total, (unsigned long long)tp->ms);
	return true;
}

TEST(ipi, many_to_one)
{
	static unsigned list[MAX_M2O + 1], part[PLAT_MAX_CPUS];
	struct pair_plan plan = { 0 };

	if (!setup(t))
		return;
	throughput.count = t_alloc(t, plat_ncpus() * sizeof(uint64_t));
	plan.nm = modes_to_run(t, plan.modes);
	quick_configs(t, &plan, 1, 1);
	unsigned ns = 0;
	/* Senders: a uniform sample of up to MAX_M2O other CPUs (quick:
	 * QUICK_SENDERS, above). */
	static const enum cpu_rel rels[] = { REL_SMT_SIBLING, REL_SAME_PACKAGE, REL_OTHER_PACKAGE };
	unsigned most = (unsigned)t_pick(t, MAX_M2O, MAX_M2O, QUICK_SENDERS);
	unsigned per = (unsigned)t_pick(t, MAX_M2O / 3 + 1, MAX_M2O / 3 + 1, most);

	for (unsigned r = 0; r < 3 && ns < most; r++)
		ns += plat_cpus_with_relation(0, rels[r], list + 1 + ns,
					      per < most - ns ? per : most - ns, &t->rng);
	list[0] = 0;
	part[0] = ~0u;
	receivers[0].n = ns;
	for (unsigned i = 0; i < ns; i++) {
		part[list[1 + i]] = 0;
		receivers[0].senders[i] = list[1 + i];
	}
	struct throughput_plan tp = { part, list, ns + 1, throughput_ms(t, 1), 0, "" };

	for_each_config(t, &plan, false, many_to_one_config, &tp);
}
