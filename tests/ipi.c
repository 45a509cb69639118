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
 * both work on this machine (kernel/smp.h: smp_apic_mode_allowed).
 * A "call" is synchronous like smp_call_function_single(): the sender
 * bumps a request counter, sends the IPI, and waits until the receiver's
 * handler copies it to the acknowledge counter.  An IPI that is never
 * acknowledged within T_LOST_US is counted lost and fails the case.
 *
 * Pairs: CPU 0 with up to K CPUs of each relation (SMT sibling, same
 * package, other package), sampled with seed=, so big machines stay
 * bounded. */
#include "kernel/test.h"
#include "arch/x86/apic.h"
#include "arch/x86/cpu.h"
#include "arch/x86/traps.h"
#include "arch/x86/tsc.h"
#include "arch/x86/tsc_read.h"
#include "kernel/percpu.h"
#include "kernel/platform.h"
#include "kernel/smp.h"

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
static struct rx *rxs;		/* indexed by receiver CPU */
static unsigned vec_call, vec_ping, vec_pong;
static volatile uint64_t pong_tsc;
static volatile unsigned pong_from;

static void call_irq(struct regs *r)
{
	uint64_t t = lfence_rdtsc();
	struct rx *x = &rxs[this_cpu()->index];

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
	slots = plat_alloc(plat_ncpus() * sizeof(*slots));
	rxs = plat_alloc(plat_ncpus() * sizeof(*rxs));
	vec_call = irq_alloc_vector(call_irq);
	vec_ping = irq_alloc_vector(ping_irq);
	vec_pong = irq_alloc_vector(pong_irq);
	if (!slots || !rxs || !vec_call || !vec_ping || !vec_pong)
		return t_fail(t, "no memory or vectors");
	return true;
}

/* The APIC modes to measure, boot mode first. */
static unsigned modes_to_run(struct test_ctx *t, enum apic_mode *m)
{
	char why[120];
	unsigned n = 0;
	enum apic_mode other = apic_boot_mode == APIC_MODE_X2APIC ? APIC_MODE_XAPIC : APIC_MODE_X2APIC;

	m[n++] = apic_boot_mode;
	if (smp_apic_mode_allowed(other, why, sizeof(why)))
		m[n++] = other;
	else
		t_diag(t, "%s mode not measured: %s", apic_mode_name(other), why);
	return n;
}

static bool enter_mode(struct test_ctx *t, enum apic_mode m)
{
	char why[120];

	if (smp_set_apic_mode(m, why, sizeof(why)))
		return true;
	return t_fail(t, "switching to %s failed: %s", apic_mode_name(m), why);
}

static bool wait_ack(struct slot *s, uint64_t q)
{
	uint64_t end = rdtsc_ordered() + tsc_us_to_cycles(T_LOST_US);

	while (__atomic_load_n(&s->ack, __ATOMIC_ACQUIRE) != q)
		if (rdtsc_ordered() > end)
			return false;
	return true;
}

/* CPU 0's partners: up to k of each relation. */
static unsigned partners(struct test_ctx *t, unsigned *cpu, enum cpu_rel *rel, unsigned k)
{
	static const enum cpu_rel rels[] = { REL_SMT, REL_CORE, REL_PACKAGE };
	unsigned n = 0;

	for (unsigned i = 0; i < 3; i++) {
		unsigned got = cpus_with_relation(0, rels[i], cpu + n, k, &t->rng);

		for (unsigned j = 0; j < got; j++)
			rel[n + j] = rels[i];
		n += got;
	}
	return n;
}

static void metric_name(char *buf, size_t size, const char *what, enum apic_mode m,
			enum fence f, const char *rel)
{
	rl_snprintf(buf, size, "%s.%s.%s%s%s", what, apic_mode_name(m), fence_name[f],
		    rel ? "." : "", rel ? rel : "");
}

/* What oneway and roundtrip share: partners of CPU 0, the modes to
 * measure, and a sample buffer. */
struct pair_plan {
	size_t n;
	uint64_t *samples;
	unsigned cpu[9];
	enum cpu_rel rel[9];
	unsigned np;
	enum apic_mode modes[2];
	unsigned nm;
};

static bool plan_pairs(struct test_ctx *t, struct pair_plan *pp)
{
	if (!setup(t))
		return false;
	pp->n = (size_t)t_iters(t, 10000, 300);
	pp->samples = plat_alloc(pp->n * sizeof(uint64_t));
	pp->np = partners(t, pp->cpu, pp->rel, t->quick ? 1 : 3);
	pp->nm = modes_to_run(t, pp->modes);
	return pp->samples || t_fail(t, "no memory");
}

TEST(ipi, oneway)
{
	struct pair_plan pp;

	if (!plan_pairs(t, &pp))
		return;
	struct slot *s = &slots[0];	/* allocated by plan_pairs() */
	size_t n = pp.n;
	uint64_t *samples = pp.samples;
	unsigned *cpu = pp.cpu, np = pp.np, nm = pp.nm;
	enum cpu_rel *rel = pp.rel;
	enum apic_mode *modes = pp.modes;
	for (unsigned mi = 0; mi < nm; mi++) {
		if (!enter_mode(t, modes[mi]))
			return;
		for (unsigned p = 0; p < np; p++) {
			rxs[cpu[p]].n = 1;
			rxs[cpu[p]].senders[0] = 0;
			uint32_t dest = plat_cpu_apic_id(cpu[p]);

			for (int f = 0; f < 2; f++) {
				size_t k = 0, lost = 0, negative = 0;

				for (size_t i = 0; i < n; i++) {
					uint64_t q = s->req + 1;

					apic_wait_icr_idle(1000);
					s->req = q;
					uint64_t t0 = lfence_rdtsc();

					s->t_send = t0;
					pre_icr((enum fence)f);
					apic_icr_write_raw(dest, APIC_DM_FIXED | vec_call);
					if (!wait_ack(s, q)) {
						lost++;
						s->ack = q;
						continue;
					}
					if (s->t_recv < t0)
						negative++;
					else
						samples[k++] = s->t_recv - t0;
				}
				char name[96];

				metric_name(name, sizeof(name), "cycles", modes[mi], (enum fence)f,
					    cpu_rel_name(rel[p]));
				t_metric_dist(t, name, samples, k, "cycles",
					      "cpu=%u negative=%zu method=tsc-delta-sender-to-handler", cpu[p], negative);
				t_check(t, lost == 0, "%s: %zu of %zu IPIs to cpu %u never acknowledged",
					name, lost, n, cpu[p]);
			}
			rxs[cpu[p]].n = 0;
		}
	}
	if (!np)
		t_skip(t, "no partner CPUs");
}

TEST(ipi, roundtrip)
{
	struct pair_plan pp;

	if (!plan_pairs(t, &pp))
		return;
	size_t n = pp.n;
	uint64_t *samples = pp.samples;
	unsigned *cpu = pp.cpu, np = pp.np, nm = pp.nm;
	enum cpu_rel *rel = pp.rel;
	enum apic_mode *modes = pp.modes;
	pong_from = 0;
	for (unsigned mi = 0; mi < nm; mi++) {
		if (!enter_mode(t, modes[mi]))
			return;
		for (unsigned p = 0; p < np; p++) {
			uint32_t dest = plat_cpu_apic_id(cpu[p]);

			for (int f = 0; f < 2; f++) {
				size_t k = 0, lost = 0;

				for (size_t i = 0; i < n; i++) {
					apic_wait_icr_idle(1000);
					pong_tsc = 0;
					uint64_t t0 = lfence_rdtsc();

					pre_icr((enum fence)f);
					apic_icr_write_raw(dest, APIC_DM_FIXED | vec_ping);
					uint64_t end = t0 + tsc_us_to_cycles(T_LOST_US);

					while (!pong_tsc && rdtsc_ordered() < end)
						;
					if (!pong_tsc)
						lost++;
					else
						samples[k++] = pong_tsc - t0;
				}
				char name[96];

				metric_name(name, sizeof(name), "cycles", modes[mi], (enum fence)f,
					    cpu_rel_name(rel[p]));
				t_metric_dist(t, name, samples, k, "cycles",
					      "cpu=%u method=tsc-delta-one-clock", cpu[p]);
				t_check(t, lost == 0, "%s: %zu of %zu ping-pongs with cpu %u lost", name,
					lost, n, cpu[p]);
			}
		}
	}
}

/* nanoBench-style overhead removal: time U and 2U back-to-back ICR
 * writes; (T(2U) - T(U)) / U is the cost of one, free of the loop and TSC
 * read overhead that both runs share. */
#define ICR_U 32

static uint64_t time_icr_writes(uint32_t dest, uint32_t icr, unsigned count, enum fence f)
{
	bool xapic = apic_mode == APIC_MODE_XAPIC;
	uint64_t t0 = lfence_rdtsc();

	for (unsigned i = 0; i < count; i++) {
		pre_icr(f);
		apic_icr_write_raw(dest, icr);
		if (xapic)
			apic_wait_icr_idle(1000);
	}
	return lfence_rdtsc() - t0;
}

TEST(ipi, icr_cost)
{
	unsigned cpu[9];
	enum cpu_rel rel[9];
	enum apic_mode modes[2];

	if (!setup(t))
		return;
	size_t trials = (size_t)t_iters(t, 2000, 100);
	uint64_t *samples = plat_alloc(trials * sizeof(uint64_t));
	unsigned np = partners(t, cpu, rel, 1), nm = modes_to_run(t, modes);

	if (!samples || !np)
		return (void)t_fail(t, "no memory or no partner");
	/* The target's handler for vec_call is a no-op here (rx list empty);
	 * back-to-back IPIs to it coalesce in its IRR, which is fine: we are
	 * timing the sender. */
	uint32_t dest = plat_cpu_apic_id(cpu[0]);

	for (unsigned mi = 0; mi < nm; mi++) {
		if (!enter_mode(t, modes[mi]))
			return;
		for (int f = 0; f < 2; f++) {
			size_t k = 0, clamped = 0;
			uint64_t flags = plat_irq_save();

			for (size_t i = 0; i < trials; i++) {
				uint64_t a = time_icr_writes(dest, APIC_DM_FIXED | vec_call, ICR_U, (enum fence)f);
				uint64_t b = time_icr_writes(dest, APIC_DM_FIXED | vec_call, 2 * ICR_U, (enum fence)f);

				if (b > a)
					samples[k++] = (b - a) / ICR_U;
				else
					clamped++;
			}
			plat_irq_restore(flags);
			char name[96];

			metric_name(name, sizeof(name), "cycles", modes[mi], (enum fence)f, NULL);
			t_metric_dist(t, name, samples, k, "cycles",
				      "op=%s method=u2u u=%d dropped=%zu",
				      modes[mi] == APIC_MODE_X2APIC ? "wrmsr" : "mmio+wait-idle", ICR_U,
				      clamped);
			t_check(t, k > 0, "%s: no usable trial", name);
		}
	}
}

/* ---- throughput ---- */

struct tp_ctx {
	struct tsc_barrier bar;
	uint64_t duration;
	enum fence f;
	unsigned *partner;	/* per CPU: whom to call, or ~0u to only receive */
	uint64_t *count;	/* per CPU: calls completed */
	volatile unsigned lost;
};
static struct tp_ctx tp;

static void tp_worker(void *arg)
{
	struct tp_ctx *c = arg;
	unsigned me = plat_this_cpu(), to = c->partner[me];
	struct slot *s = &slots[me];
	uint64_t done = 0;

	if (!tsc_barrier_wait(&c->bar, tsc_us_to_cycles(T_LOST_US))) {	/* scaled: issue 12 D6 */
		c->lost++;
		return;
	}
	uint64_t end = lfence_rdtsc() + c->duration;

	if (to == ~0u) {
		/* receiver only: interrupts on, just wait */
		while (lfence_rdtsc() < end)
			cpu_relax();
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
	tp.duration = tsc_ms_to_cycles(duration_ms);
	tp.f = f;
	tp.partner = (unsigned *)part;
	tp.lost = 0;
	for (unsigned i = 0; i < plat_ncpus(); i++)
		tp.count[i] = 0;
	tsc_barrier_init(&tp.bar, n, tsc_us_to_cycles(200));
	int rc = plat_call_many(list, n, tp_worker, &tp, duration_ms + 2 * T_LOST_US / 1000, NULL);

	*total = 0;
	for (unsigned i = 0; i < n; i++)
		*total += tp.count[list[i]];
	if (rc)
		return t_fail(t, "throughput run: %s", plat_strerror(rc));
	return tp.lost == 0 || t_fail(t, "%u calls were never acknowledged", tp.lost);
}

TEST(ipi, mesh)
{
	static unsigned list[2 * MAX_PAIRS], part[MAX_CPUS];
	enum apic_mode modes[2];

	if (!setup(t))
		return;
	tp.count = plat_alloc(plat_ncpus() * sizeof(uint64_t));
	unsigned n = 0, nm = modes_to_run(t, modes);
	uint64_t ms = t->quick ? 20 : 200;

	/* Disjoint pairs of consecutive online CPUs, bounded. */
	for (unsigned i = 0; i < plat_ncpus() && n < 2 * MAX_PAIRS; i++)
		if (plat_online(i))
			list[n++] = i;
	n &= ~1u;
	for (unsigned i = 0; i < n; i += 2) {
		part[list[i]] = list[i + 1];
		part[list[i + 1]] = list[i];
		rxs[list[i]] = (struct rx){ 1, { list[i + 1] } };
		rxs[list[i + 1]] = (struct rx){ 1, { list[i] } };
	}
	for (unsigned mi = 0; mi < nm; mi++) {
		if (!enter_mode(t, modes[mi]))
			return;
		for (int f = 0; f < 2; f++) {
			uint64_t total;
			char name[96];

			if (!run_throughput(t, part, list, n, (enum fence)f, &total, ms))
				return;
			metric_name(name, sizeof(name), "rate", modes[mi], (enum fence)f, NULL);
			t_metric_value(t, name, (int64_t)(total * 1000 / ms), "ipi_per_s",
				       "pairs=%u calls=%llu duration_ms=%llu", n / 2,
				       (unsigned long long)total, (unsigned long long)ms);
			t_check(t, total > 0, "%s: no call completed", name);
		}
	}
}

TEST(ipi, many_to_one)
{
	static unsigned list[MAX_M2O + 1], part[MAX_CPUS];
	enum apic_mode modes[2];

	if (!setup(t))
		return;
	tp.count = plat_alloc(plat_ncpus() * sizeof(uint64_t));
	unsigned nm = modes_to_run(t, modes), ns = 0;
	uint64_t ms = t->quick ? 20 : 200;
	/* Senders: a uniform sample of up to MAX_M2O other CPUs. */
	static const enum cpu_rel rels[] = { REL_SMT, REL_CORE, REL_PACKAGE };
	unsigned per = MAX_M2O / 3 + 1;

	for (unsigned r = 0; r < 3 && ns < MAX_M2O; r++)
		ns += cpus_with_relation(0, rels[r], list + 1 + ns,
					 per < MAX_M2O - ns ? per : MAX_M2O - ns, &t->rng);
	list[0] = 0;
	part[0] = ~0u;
	rxs[0].n = ns;
	for (unsigned i = 0; i < ns; i++) {
		part[list[1 + i]] = 0;
		rxs[0].senders[i] = list[1 + i];
	}
	for (unsigned mi = 0; mi < nm; mi++) {
		if (!enter_mode(t, modes[mi]))
			return;
		for (int f = 0; f < 2; f++) {
			uint64_t total;
			char name[96];

			if (!run_throughput(t, part, list, ns + 1, (enum fence)f, &total, ms))
				return;
			metric_name(name, sizeof(name), "rate", modes[mi], (enum fence)f, NULL);
			t_metric_value(t, name, (int64_t)(total * 1000 / ms), "ipi_per_s",
				       "senders=%u calls=%llu duration_ms=%llu", ns,
				       (unsigned long long)total, (unsigned long long)ms);
			t_check(t, total > 0, "%s: no call completed", name);
		}
	}
}
