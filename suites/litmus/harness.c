/* SPDX-License-Identifier: GPL-2.0-only */
/* litmus: the harness -- the threads, their barriers and balanced start,
 * the instructions under test, one run of a test and the fields every
 * metric ends with (suites/litmus/litmus.h says how a run goes). */
#include "suites/litmus/litmus.h"
#include "kernel/test.h"
#include "kernel/platform.h"
#include "lib/litmus.h"
#include "lib/printf.h"
#include "lib/string.h"

#define CONTROL_DELAY	400	/* loop turns between a control reader's loads */
#define RELEASE_NS	1000
/* A CPU that has not reached the iteration barrier after this long is
 * reported and the test stopped: five times T_LOST, because the nested KVM
 * on this project's build machine stalls a vCPU for over 2 s under load. */
#define BARRIER_TIMEOUT_US	(5ull * T_LOST_US)

/* The wait for the last arrival: done once the generation moved or
 * another thread gave up; a PAUSE after each look that finds neither (see
 * lbar_wait). */
/* The iteration loop (lit_thread, with the test bodies inlined) and the
 * barrier it spins in each start on a 4 KiB page of their own.  Under
 * QEMU TCG the SB controls' rate depended on where the linker put them:
 * with both on one page (an unrelated suite's code had grown above them)
 * nofence_cross and a_none_b_mfence saw r0=0,r1=0 0 times in 2000
 * iterations on 2 vCPUs in 19 boots of 19, against 160-490 (nofence_cross)
 * with the barrier's spin loop on another page; a page each gave 430-630
 * whatever came before them.  On hardware it costs two partly empty
 * pages. */
#define LIT_HOT_PAGE	__attribute__((aligned(4096)))

static inline bool arrived_or_pause(const struct lit *l, uint32_t g)
{
	if (__atomic_load_n(&l->bar.gen, __ATOMIC_ACQUIRE) != g || l->abort)
		return true;
	__asm__ volatile("pause");
	return false;
}

/* All threads meet; with `timed` the last to arrive sets a release instant
 * a little ahead and all leave at that TSC instant (the release spin has
 * no PAUSE, so that nobody leaves it late, and one RDTSC a turn: its last
 * reading, the first at or past the instant, is the thread's start in
 * *start; the kernel's bounded spin read the TSC twice a turn, one of
 * them ordered, and a separate RDTSC after it, which an out-of-order core
 * may execute before the spin ends.  On this project's KVM build machine
 * the hosted start's "first" moved from 58-86 % for one thread to 45-57 %
 * with it, and the unfenced SB one-sided outcomes from up to 43x apart to
 * within 5x).  The wait for the last
 * arrival keeps its PAUSE: on an emulator whose vCPU threads share host
 * cores, a waiter spinning without it starved the thread it waited for
 * (QEMU TCG, 2 vCPUs on a loaded 2-core host: 8-13 iterations in 0.3 s
 * without PAUSE, 30-37 with it).  Both waits are bounded by
 * BARRIER_TIMEOUT_US (plat_spin_until; the release spin by its own end). */
static bool LIT_HOT_PAGE lbar_wait(struct lit *l, uint64_t iter, bool timed, uint64_t *start)
{
	struct lbar *b = &l->bar;
	uint32_t g = __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE);

	if (__atomic_add_fetch(&b->count, 1, __ATOMIC_ACQ_REL) == l->nthreads) {
		__atomic_store_n(&b->count, 0, __ATOMIC_RELAXED);
		if (timed)
			__atomic_store_n(&b->release, rdtsc() + l->release_cycles, __ATOMIC_RELAXED);
		__atomic_store_n(&b->gen, g + 1, __ATOMIC_RELEASE);
	} else if (!plat_spin_until(arrived_or_pause(l, g), BARRIER_TIMEOUT_US)) {
		l->abort_iter = iter;
		l->abort = 1;
		return false;
	} else if (__atomic_load_n(&b->gen, __ATOMIC_ACQUIRE) == g) {
		return false;	/* another thread gave up */
	}
	if (!timed)
		return true;
	uint64_t rel = __atomic_load_n(&b->release, __ATOMIC_RELAXED), now;
	uint64_t end = rel + plat_us_to_cycles(BARRIER_TIMEOUT_US);

	/* bounded by end; a CPU whose TSC runs ahead just goes at once */
	do
		now = rdtsc();
	while (now < rel && now < end);
	*start = now;
	return true;
}

static inline void spin(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		__asm__ volatile("");
}

#define DELAY_ASM "mov $" "400" ", %%ecx\n\t1: dec %%ecx\n\tjnz 1b\n\t"
_Static_assert(CONTROL_DELAY == 400, "DELAY_ASM spells CONTROL_DELAY");

/* ---- the instructions under test, one function per role ---- */
static uint64_t sb_thread(const struct lit *l, unsigned tid, enum variant v,
			  volatile uint64_t *mine, volatile uint64_t *other)
{
	uint64_t r;
	uint32_t lo = (uint32_t)l->msr_val[tid], hi = (uint32_t)(l->msr_val[tid] >> 32);

	switch (v) {
	case V_MFENCE:
		__asm__ volatile("movq $1, %1\n\tmfence\n\tmovq %2, %0"
				 : "=&r"(r), "=m"(*mine) : "m"(*other) : "memory");
		break;
	case V_LOCKED:
		__asm__ volatile("movq $1, %1\n\tlock addl $0, (%%rsp)\n\tmovq %2, %0"
				 : "=&r"(r), "=m"(*mine) : "m"(*other) : "memory", "cc");
		break;
	case V_XCHG:
		__asm__ volatile("movq $1, %0\n\txchgq %0, %1\n\tmovq %2, %0"
				 : "=&r"(r), "+m"(*mine) : "m"(*other) : "memory");
		break;
	case V_WRMSR:
		/* the WRMSR is the only instruction between the store and the
		 * load; it writes the value the MSR already holds */
		__asm__ volatile("movq $1, %1\n\twrmsr\n\tmovq %2, %0"
				 : "=&r"(r), "=m"(*mine)
				 : "m"(*other), "c"(l->msr), "a"(lo), "d"(hi) : "memory");
		break;
	case V_MFLF_WRMSR:
		/* Linux's weak_wrmsr_fence() shape: MFENCE alone orders the
		 * store before the load (SDM vol. 2 MFENCE: earlier loads and
		 * stores are globally visible before later ones), so this must
		 * never show r0=0,r1=0 */
		__asm__ volatile("movq $1, %1\n\tmfence\n\tlfence\n\twrmsr\n\tmovq %2, %0"
				 : "=&r"(r), "=m"(*mine)
				 : "m"(*other), "c"(l->msr), "a"(lo), "d"(hi) : "memory");
		break;
	case V_DELAY: {
		/* a stall, not a barrier: the load's address waits for a
		 * chain of dependent multiplies (each needs the last one's
		 * result) about as long as the WRMSR under test (wrmsr.c
		 * sizes it); nothing in it drains the store buffer, so the
		 * store may still be buffered when the load executes */
		uint64_t n = l->delay_steps, z;

		__asm__ volatile("movq $1, %[mine]\n\t"
				 "xorl %k[z], %k[z]\n\t"
				 "1: imulq $1, %[z], %[z]\n\t"
				 "decq %[n]\n\t"
				 "jnz 1b\n\t"
				 "movq (%[other], %[z]), %[r]"
				 : [r] "=&r"(r), [mine] "=m"(*mine), [z] "=&r"(z), [n] "+r"(n)
				 : [other] "r"(other) : "memory", "cc");
		break;
	}
	case V_LATE_WRMSR:
		/* the late-store control: the WRMSR before the store, so it
		 * cannot order the store before the load; r0=0,r1=0 must
		 * still show (whatever the WRMSR and its IPI do to the
		 * timing) */
		__asm__ volatile("wrmsr\n\tmovq $1, %1\n\tmovq %2, %0"
				 : "=&r"(r), "=m"(*mine)
				 : "m"(*other), "c"(l->msr), "a"(lo), "d"(hi) : "memory");
		break;
	default:
		__asm__ volatile("movq $1, %1\n\tmovq %2, %0"
				 : "=&r"(r), "=m"(*mine) : "m"(*other) : "memory");
		break;
	}
	return r;
}

static void mp_writer(enum variant v, volatile uint64_t *data, volatile uint64_t *flag)
{
	uint64_t one = 1;

	switch (v) {
	case V_NT_NOFENCE:
		__asm__ volatile("movnti %2, %0\n\tmovq $1, %1"
				 : "=m"(*data), "=m"(*flag) : "r"(one) : "memory");
		break;
	case V_NT_SFENCE:
		__asm__ volatile("movnti %2, %0\n\tsfence\n\tmovq $1, %1"
				 : "=m"(*data), "=m"(*flag) : "r"(one) : "memory");
		break;
	default:
		__asm__ volatile("movq $1, %0\n\tmovq $1, %1"
				 : "=m"(*data), "=m"(*flag) : : "memory");
		break;
	}
}

/* r[0] = first location's value, r[1] = second's, read in program order
 * a then b, or (control) b first, a delay, then a. */
static void read_pair(bool control, volatile uint64_t *a, volatile uint64_t *b, uint64_t *r)
{
	uint64_t ra, rb;

	if (control)
		__asm__ volatile("movq %3, %1\n\t" DELAY_ASM "movq %2, %0"
				 : "=&r"(ra), "=&r"(rb) : "m"(*a), "m"(*b) : "rcx", "memory", "cc");
	else
		__asm__ volatile("movq %2, %0\n\tmovq %3, %1"
				 : "=&r"(ra), "=&r"(rb) : "m"(*a), "m"(*b) : "memory");
	r[0] = ra;
	r[1] = rb;
}

static void body(struct lit *l, unsigned tid, uint64_t *r)
{
	volatile uint64_t *x = &l->var[0].v, *y = &l->var[1].v;

	switch (l->test) {
	case T_SB:
		r[0] = tid == 0 ? sb_thread(l, 0, l->va, x, y) : sb_thread(l, 1, l->vb, y, x);
		break;
	case T_MP:
	case T_MP_NT:
		if (tid == 0)
			mp_writer(l->va, x, y);
		else	/* r0 = flag, r1 = data */
			read_pair(l->va == V_CONTROL, y, x, r);
		break;
	case T_IRIW:
		if (tid == 0)
			*x = 1;
		else if (tid == 1)
			*y = 1;
		else if (tid == 2)	/* r0 = x, r1 = y */
			read_pair(false, x, y, r);
		else			/* r2 = y, r3 = x */
			read_pair(l->va == V_CONTROL, y, x, r);
		break;
	}
}

/* CPU 0, after the end barrier: count the outcome and how the threads
 * started.  It resets nothing: each thread resets its own variables and
 * result slot (balanced start). */
static void record(struct lit *l, unsigned p)
{
	uint64_t regs[LITMUS_MAX_REGS], start[MAX_THREADS];
	struct res *rs = l->res[p];

	switch (l->test) {
	case T_SB:
		regs[0] = rs[0].r[0];
		regs[1] = rs[1].r[0];
		break;
	case T_MP:
	case T_MP_NT:
		regs[0] = rs[1].r[0];
		regs[1] = rs[1].r[1];
		break;
	case T_IRIW:
		regs[0] = rs[2].r[0];
		regs[1] = rs[2].r[1];
		regs[2] = rs[3].r[0];
		regs[3] = rs[3].r[1];
		break;
	}
	(void)litmus_record(&l->tally, regs);
	for (unsigned i = 0; i < l->nthreads; i++)
		start[i] = rs[i].start;
	/* the end barrier is untimed, so bar.release is still this
	 * iteration's release instant */
	litmus_start_record(&l->start, start, l->bar.release, l->release_cycles);
}

static enum litmus_shape shape_of(enum test t)
{
	return t == T_SB ? LITMUS_SHAPE_SB : t == T_IRIW ? LITMUS_SHAPE_IRIW : LITMUS_SHAPE_MP;
}

/* A negative control past its share without the floor whose start has
 * been late in every iteration (at least CONTROL_GIVEUP_ITERS): a
 * thread late at every release, so the two threads' windows never
 * overlap and the reordering it looks for cannot show (under a KVM that
 * emulates ring 0, every iteration; the floor only bought time for
 * nothing).  Called by CPU 0 only; inlined, so that it runs from the
 * thread's own page (see LIT_HOT_PAGE). */
#define CONTROL_GIVEUP_ITERS	32

static inline __attribute__((always_inline)) bool late_throughout(const struct lit *l)
{
	return l->giveup_tsc && l->tally.iters >= CONTROL_GIVEUP_ITERS &&
	       l->start.late == l->tally.iters && rdtsc() > l->giveup_tsc;
}

static void LIT_HOT_PAGE lit_thread(void *arg)
{
	struct lit *l = arg;
	unsigned me = plat_this_cpu(), tid = 0;

	while (tid < l->nthreads && l->cpus[tid] != me)
		tid++;
	if (tid == l->nthreads)
		return;
	struct rng rng;
	unsigned own = litmus_reset_mask(shape_of(l->test), l->reset, tid);

	rng_seed(&rng, l->seed ^ (0x1000193ull * (tid + 1)));
	for (uint64_t i = 0; i < l->iters; i++) {
		struct res *mine = &l->res[i & 1][tid];

		/* Balanced start: this thread resets what it writes and its
		 * own result slot, then arrives; nobody arrives late because
		 * it had everybody's resets to do. */
		for (unsigned v = 0; v < LITMUS_NVARS; v++)
			if (own & (1u << v))
				l->var[v].v = 0;
		mine->r[0] = mine->r[1] = 2;	/* "not written": counted invalid */
		if (!lbar_wait(l, i, true, &mine->start))
			return;
		/* the x2APIC ICR family: its self-IPI is taken after the
		 * body, not between the WRMSR and the load */
		uint64_t flags = l->irq_off ? plat_irq_save() : 0;

		if (i == 0 && tid == 0 && l->stop_rel) {	/* quick: from the first release */
			l->stop_tsc = mine->start + l->stop_rel;
			if (l->giveup_rel)
				l->giveup_tsc = mine->start + l->giveup_rel;
		}
		spin(rng_below(&rng, SKEW_MAX));
		body(l, tid, mine->r);
		if (l->irq_off)
			plat_irq_restore(flags);
		/* CPU 0 decides before the end barrier (its instructions under
		 * test are done) whether this iteration is the last, so that
		 * everybody leaves after it without one more barrier round:
		 * under an emulator on fewer host cores than vCPUs each round
		 * waits for host time slices */
		if (tid == 0 && (rdtsc() > l->stop_tsc || late_throughout(l)))
			l->stop = 1;
		if (!lbar_wait(l, i, false, NULL))
			return;
		if (tid == 0)
			record(l, (unsigned)(i & 1));
		if (l->stop)
			return;
	}
}

/* SB whose two threads run the same instructions: its one-sided
 * outcomes are mirror images, part of its balance */
static const struct litmus_tally *mirror_of(const struct lit *l)
{
	return l->test == T_SB && l->va == l->vb ? &l->tally : NULL;
}

bool lit_balanced(const struct lit *l)
{
	return l->bal == LITMUS_BALANCED;
}

void lit_result_of(const struct lit *l, struct lit_result *r)
{
	memset(r, 0, sizeof(*r));
	if (!l)
		return;
	r->ran = true;
	r->balanced = lit_balanced(l);
	r->bal = l->bal;
	r->tally = l->tally;
}

/* The start fields every litmus metric ends with (a metric line's
 * key=value part is at most 400 characters: keep them short). */
void lit_metric_tail(struct test_ctx *t, const struct lit *l, const char *what, char *buf,
		     size_t size)
{
	char why[120];
	const char *bal = litmus_balance_name(l->bal);

	(void)litmus_balance(&l->start, mirror_of(l), why, sizeof(why));
	char first[64];
	size_t k = 0;

	first[0] = '\0';
	for (unsigned i = 0; i < l->nthreads && k < sizeof(first); i++)
		k += (size_t)rl_snprintf(first + k, sizeof(first) - k, "%s%llu", i ? "/" : "",
					 (unsigned long long)l->start.first[i]);
	rl_snprintf(buf, size, "start=%s,tsc-release balance=%s late=%llu first=%s env=%s",
		    litmus_reset_name(l->reset), bal, (unsigned long long)l->start.late, first, plat_env());
	/* quick: a start judged on too few iterations says nothing more
	 * than its balance=too-few and iters= (the ties and lateness of a
	 * handful mean nothing; each line is ~10 ms of console under a KVM
	 * that emulates ring 0, where every run of the case is too short) */
	if (t_budgeted(t) && l->bal == LITMUS_TOO_FEW)
		return;
	if (l->bal != LITMUS_BALANCED)
		t_diag(t, "%s: start %s: %s; ties %llu, worst lateness %llu ns env=%s", what, bal, why,
		       (unsigned long long)l->start.ties,
		       (unsigned long long)plat_cycles_to_ns(l->start.max_late), plat_env());
}

/* quick without iters=: the case's runs still to come and what the
 * budget cut (lit_plan); credit: the cycles the negative controls ran,
 * not charged to the others */
static struct t_share plan;
/* a full run of ring 0 under an emulator or hypervisor: the runs the
 * runner's cap (t_guest_cap_ms()) stopped, of those that ran, and their
 * iterations, for lit_plan_note()'s budget: line */
static struct {
	unsigned runs, cut;
	uint64_t done, planned;
} guest_cut;

void lit_plan(unsigned runs)
{
	t_share_begin(&plan, runs);
	guest_cut.runs = guest_cut.cut = 0;
	guest_cut.done = guest_cut.planned = 0;
}

void lit_plan_skip(void)
{
	t_share_skip(&plan);
}

bool lit_plan_spent(const struct test_ctx *t)
{
	return t_budgeted(t) && !t_share_cycles(t, &plan, lfence_rdtsc());
}

void lit_plan_note(struct test_ctx *t)
{
	t_share_note(t, &plan, "runs", "each metric's iters= is its n");
	if (guest_cut.cut)
		t_guest_cap_note(t, T_CAP_LITMUS_RUN,
				 "%u of %u runs stopped, after %llu of %llu iterations in all (each metric's iters= is its n)",
				 guest_cut.cut, guest_cut.runs, (unsigned long long)guest_cut.done,
				 (unsigned long long)guest_cut.planned);
}

bool lit_cut(const struct lit *l)
{
	return l->tally.iters < l->iters;
}

/* quick without iters=: a negative control of the classic tests keeps
 * its 2000 iterations and CAP_QUICK_CONTROL_MS floor (not IRIW's).  The
 * WRMSR family's own controls (the delay, the late store) run as the
 * variants they judge do: eleven floors of 60 ms would make the case
 * several times longer under TCG; there the quick family rarely has the
 * samples for a verdict anyway, and its claims say so. */
static bool floored(const struct spec *sp)
{
	return sp->d.control && sp->test != T_IRIW && sp->va != V_DELAY && sp->va != V_LATE_WRMSR;
}

/* The time cap of this run: cap_ms of TSC from t0 (CAP_FULL_MS; in quick
 * with iters=, CAP_QUICK_MS; in a full run of ring 0 under an emulator or
 * hypervisor, the runner's cap, t_guest_cap_ms()); or, in quick without
 * iters=, stop_rel cycles from the first release (when every thread is
 * in: waking the other vCPUs can take milliseconds on a busy host), this
 * run's equal share of what is left of the case's quick sample budget.
 * A two-thread negative control of the classic tests (floored()) gets at
 * least CAP_QUICK_CONTROL_MS, and the time it ran is not taken from the
 * others' budget (plan.credit).
 * Every run completes at least one iteration (the stop is tested after
 * each), so a spent budget still gives one honest sample. */
static uint64_t stop_instant(const struct test_ctx *t, const struct spec *sp, uint64_t t0,
			     uint64_t *cap_ms, uint64_t *stop_rel, uint64_t *giveup_rel)
{
	*stop_rel = *giveup_rel = 0;
	if (!t_budgeted(t)) {
		unsigned guest = t_guest_cap_ms(t, T_CAP_LITMUS_RUN);

		*cap_ms = t_quick(t) ? CAP_QUICK_MS : guest ? guest : CAP_FULL_MS;
		return t0 + plat_ns_to_cycles(*cap_ms * 1000000ull);
	}
	uint64_t share = t_share_cycles(t, &plan, t0);
	uint64_t floor = plat_ns_to_cycles(CAP_QUICK_CONTROL_MS * 1000000ull);

	if (floored(sp) && share < floor) {
		*giveup_rel = share ? share : 1;
		share = floor;
	}
	*cap_ms = plat_cycles_to_ns(share) / 1000000 + 1;
	*stop_rel = share ? share : 1;
	return UINT64_MAX;	/* set at the first release */
}

bool lit_run_one(struct test_ctx *t, const struct spec *sp, struct lit **out)
{
	enum test test = sp->test;
	unsigned want = test == T_IRIW ? 4 : 2, cpus[MAX_THREADS];
	unsigned others[MAX_THREADS];
	unsigned got = plat_other_cpus(others, want - 1);

	if (got + 1 < want) {
		lit_plan_skip();
		t_skip(t, "needs %u CPUs, %u online", want, got + 1);
		return false;
	}
	cpus[0] = 0;
	for (unsigned i = 0; i < got; i++)
		cpus[i + 1] = others[i];
	struct lit *l = t_alloc(t, sizeof(*l));

	l->test = test;
	l->va = sp->va;
	l->vb = sp->vb == V_NOFENCE ? sp->va : sp->vb;
	l->reset = sp->reset;
	l->msr = sp->msr;
	l->msr_val[0] = sp->msr_val[0];
	l->msr_val[1] = sp->msr_val[1];
	l->delay_steps = sp->delay_steps ? sp->delay_steps : 1;
	l->irq_off = sp->irq_off;
	l->nthreads = want;
	memcpy(l->cpus, cpus, sizeof(cpus));
	l->iters = t_iters(t, test == T_IRIW ? 100000 : 200000, 2000);
	/* quick without iters= (a time budget): a variant that is not a
	 * floored negative control runs a quarter of the count; the
	 * controls keep theirs */
	if (t_budgeted(t) && !floored(sp))
		l->iters = QUICK_ITERS_PLAIN;
	l->seed = t->seed ^ ((uint64_t)test << 32 | (uint64_t)sp->va << 8 | sp->vb);
	l->release_cycles = plat_ns_to_cycles(RELEASE_NS);
	litmus_tally_init(&l->tally, test == T_IRIW ? 4 : 2);
	litmus_start_init(&l->start, want);
	int st[MAX_THREADS];
	uint64_t t0 = lfence_rdtsc(), cap_ms;

	/* a fixed count, capped in time (an emulator on a busy host; in
	 * quick, the case's budget) */
	l->stop_tsc = stop_instant(t, sp, t0, &cap_ms, &l->stop_rel, &l->giveup_rel);
	lit_plan_skip();
	int rc = plat_call_many(cpus, want, lit_thread, l,
				BARRIER_TIMEOUT_US / 1000 + cap_ms + 10000, st);
	uint64_t us = (lfence_rdtsc() - t0) * 1000000 / plat_tsc_hz();

	*out = l;
	{
		char why[120];

		l->bal = litmus_balance(&l->start, mirror_of(l), why, sizeof(why));
	}
	if (rc != PLAT_OK) {
		t_fail(t, "%s: a CPU did not finish: %s", sp->what, plat_strerror(rc));
		return false;
	}
	if (l->abort) {
		t_fail(t, "%s: a CPU missed the iteration barrier for %llu ms at iteration %llu; stopped",
		       sp->what, BARRIER_TIMEOUT_US / 1000, (unsigned long long)l->abort_iter);
		return false;
	}
	if (t_budgeted(t)) {
		/* one line for the case (lit_plan_note): the metric's iters=
		 * is this run's n */
		if (floored(sp))
			plan.credit += lfence_rdtsc() - t0;
		t_share_took(&plan, l->tally.iters, l->iters);
	} else {
		if (lit_cut(l))
			t_diag(t, "%s: stopped by the time cap after %llu of %llu iterations (%llu us)",
			       sp->what, (unsigned long long)l->tally.iters,
			       (unsigned long long)l->iters, (unsigned long long)us);
		if (t_guest_cap_ms(t, T_CAP_LITMUS_RUN)) {
			guest_cut.runs++;
			guest_cut.cut += lit_cut(l);
			guest_cut.done += l->tally.iters;
			guest_cut.planned += l->iters;
		}
	}
	t_check(t, l->tally.iters > 0, "%s: no iteration completed", sp->what);
	t_check(t, l->tally.invalid == 0,
		"%s: %llu iterations read a value other than 0 or 1 (harness broken)", sp->what,
		(unsigned long long)l->tally.invalid);
	return true;
}

void lit_cpu_list(const struct lit *l, char *buf, size_t size)
{
	size_t k = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < l->nthreads && k < size; i++)
		k += (size_t)rl_snprintf(buf + k, size - k, "%s%u", i ? "," : "", l->cpus[i]);
}
