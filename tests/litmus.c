/* litmus: the x86 memory model, observed.  Each test runs a fixed number
 * of iterations (200000, IRIW 100000, quick 2000, or iters=; stopped early
 * after 2 s, or 0.3 s in ring 0 under an emulator or hypervisor (CI
 * boots full runs under TCG); quick with iters=: 0.3 s; quick without
 * iters=, a time budget: 40 ms a variant, 150 ms for a two-thread
 * negative control; which the log says) on two (IRIW: four)
 * CPUs.  The start is balanced: before every iteration each
 * shared variable (each on its own 128-byte block: no false sharing, no
 * adjacent-line prefetch) is reset by exactly one thread -- the thread
 * that writes it (own-reset, the classic tests) or one that reads it
 * (cross-reset, the WRMSR variants: every store then waits for its line
 * in the store buffer while the load hits) -- and each thread resets its
 * own result slot (double-buffered by iteration parity, so CPU 0 may
 * still be counting the previous one); then all meet at a barrier whose
 * last arrival sets a release instant a little ahead, and all leave when
 * their TSC passes it.  Each waits a random skew of 0..63 loop turns (its
 * own seeded generator, so seed= reproduces the schedule), runs its few
 * instructions and meets the others at a second barrier; CPU 0 counts the
 * outcome and how the threads left the release spin (lib/litmus.c:
 * balance=balanced|lopsided|too-few).  The old harness had CPU 0 reset
 * everything, so CPU 0 arrived last and held both lines in its cache.
 *
 * What x86-TSO allows and forbids (SDM vol. 3 §9.2.3 "Examples
 * Illustrating the Memory-Ordering Principles"; Sewell et al., "x86-TSO",
 * CACM 2010):
 *   SB    store x; load y || store y; load x.  r0=0,r1=0 is ALLOWED without
 *         a fence (§9.2.3.4: loads may be reordered with older stores to
 *         other locations: the store buffer) -- the negative control, it
 *         shows up on real hardware; with MFENCE, a LOCKed instruction or
 *         XCHG between store and load it is FORBIDDEN (§9.2.3.9, §9.2.3.8).
 *   MP    data=1; flag=1 || r0=flag; r1=data.  r0=1,r1=0 FORBIDDEN with
 *         write-back stores (§9.2.3.2: stores are not reordered with other
 *         stores, loads not with other loads).  Control: the reader reads
 *         data first and waits before reading flag, which makes the same
 *         outcome a plain interleaving: it must show up.
 *   MP_NT data written by MOVNTI, flag by an ordinary store.  NT stores
 *         are weakly ordered (SDM vol. 1 §10.4.6.2, vol. 3 §9.2.2), so
 *         r0=1,r1=0 is ALLOWED without a fence (reported) and FORBIDDEN
 *         with SFENCE between them (why clear_page_nt ends with SFENCE).
 *   IRIW  x=1 || y=1 || r0=x; r1=y || r2=y; r3=x.  The two readers seeing
 *         the writes in opposite orders (1,0,1,0) is FORBIDDEN (§9.2.3.7:
 *         stores are seen in a consistent order by other processors).
 *         Control: the second reader reads x first and waits, which makes
 *         the counted outcome a plain interleaving.
 *   SB with WRMSR as thread A's only barrier (ring 0): see
 *         "WRMSR as the only barrier" below; litmus.wrmsr_cost times each
 *         WRMSR after 32 pending stores against the stores alone.
 * A forbidden outcome seen even once fails the case; an allowed one is
 * reported with its count.  Metrics: litmus.<test>.<variant> = count of
 * the named outcome, with iters=, every outcome's count, start= and
 * env=. */
#include "kernel/test.h"
#include "kernel/platform.h"
#include "lib/litmus.h"
#include "lib/printf.h"
#include "lib/string.h"

SUITE_HOSTED(litmus, 105, "x86-TSO litmus tests: SB, MP, MP with MOVNTI data, IRIW; WRMSR as SB's only barrier and its store-drain cost; negative controls");

#define SKEW_MAX	64
#define CONTROL_DELAY	400	/* loop turns between a control reader's loads */
#define RELEASE_NS	1000
/* A CPU that has not reached the iteration barrier after this long is
 * reported and the test stopped: five times T_LOST, because the nested KVM
 * on this project's build machine stalls a vCPU for over 2 s under load. */
#define BARRIER_TIMEOUT_US	(5ull * T_LOST_US)
#define MAX_THREADS	LITMUS_MAX_THREADS
#define CAP_QUICK_MS	300	/* also full runs of ring 0 under an emulator or hypervisor */
/* quick: the time budget of one variant; a negative control keeps a
 * longer one (a control is worth more than speed) */
#define CAP_QUICK_PLAIN_MS	40
#define CAP_QUICK_CONTROL_MS	150	/* not IRIW's: four threads, which under TCG
					 * complete ~30 iterations in 1 s and never
					 * fired (README); on hardware 2000 take ms */
#define CAP_FULL_MS	2000
/* the cost form: stores pending before the instruction (fence suite's shape) */
#define NSTORES		32
#define LINE_WORDS	8	/* uint64_t per 64-byte line */
#define COST_U		16

enum test { T_SB, T_MP, T_MP_NT, T_IRIW };
enum variant {
	V_NOFENCE, V_MFENCE, V_LOCKED, V_XCHG,	/* SB */
	V_WB, V_CONTROL,			/* MP, IRIW */
	V_NT_NOFENCE, V_NT_SFENCE,		/* MP_NT */
	V_PLAIN,				/* IRIW */
	V_WRMSR, V_MFLF_WRMSR,			/* SB thread A (ring 0): WRMSR; MFENCE;LFENCE;WRMSR */
};

struct lbar {
	volatile uint32_t count;
	volatile uint32_t gen;
	volatile uint64_t release;
} __attribute__((aligned(128)));

struct slot {
	volatile uint64_t v;
} __attribute__((aligned(128)));

struct res {
	uint64_t r[2];
	uint64_t start;		/* TSC when this thread left the release spin */
} __attribute__((aligned(128)));

struct lit {
	struct slot var[LITMUS_NVARS];	/* x / data, y / flag */
	/* [iteration parity][thread]: a thread resets its own slot for the
	 * next iteration while CPU 0 may still be reading this one's */
	struct res res[2][MAX_THREADS];
	struct lbar bar;
	volatile int abort;
	volatile int stop;		/* set by CPU 0 when the time cap is reached */
	uint64_t stop_tsc;
	volatile uint64_t abort_iter;
	enum test test;
	enum variant va, vb;		/* SB: thread A's and thread B's barrier */
	enum litmus_reset reset;	/* who resets which variable */
	uint32_t msr;			/* V_WRMSR / V_MFLF_WRMSR: ECX */
	uint64_t msr_val[MAX_THREADS];	/* the value it already holds, per thread's CPU */
	unsigned nthreads;
	unsigned cpus[MAX_THREADS];
	uint64_t iters, seed;
	uint64_t release_cycles;
	struct litmus_tally tally;
	struct litmus_start start;
} __attribute__((aligned(128)));

/* The wait for the last arrival: done once the generation moved or
 * another thread gave up; a PAUSE after each look that finds neither (see
 * lbar_wait). */
static inline bool arrived_or_pause(const struct lit *l, uint32_t g)
{
	if (__atomic_load_n(&l->bar.gen, __ATOMIC_ACQUIRE) != g || l->abort)
		return true;
	__asm__ volatile("pause");
	return false;
}

/* All threads meet; with `timed` the last to arrive sets a release instant
 * a little ahead and all leave at that TSC instant (the release spin has
 * no PAUSE, so that nobody leaves it late).  The wait for the last
 * arrival keeps its PAUSE: on an emulator whose vCPU threads share host
 * cores, a waiter spinning without it starved the thread it waited for
 * (QEMU TCG, 2 vCPUs on a loaded 2-core host: 8-13 iterations in 0.3 s
 * without PAUSE, 30-37 with it).  Both waits are bounded by
 * BARRIER_TIMEOUT_US (plat_spin_until). */
static bool lbar_wait(struct lit *l, uint64_t iter, bool timed)
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
	uint64_t rel = __atomic_load_n(&b->release, __ATOMIC_RELAXED);

	/* bounded: a CPU whose TSC runs ahead just goes at once */
	(void)plat_spin_until(rdtsc() >= rel, BARRIER_TIMEOUT_US);
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

static void lit_thread(void *arg)
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
		if (!lbar_wait(l, i, true))
			return;
		mine->start = rdtsc();
		if (l->stop)	/* written by CPU 0 before it arrived */
			return;
		spin(rng_below(&rng, SKEW_MAX));
		body(l, tid, mine->r);
		if (!lbar_wait(l, i, false))
			return;
		if (tid == 0) {
			record(l, (unsigned)(i & 1));
			if (rdtsc() > l->stop_tsc)
				l->stop = 1;
		}
	}
}

struct outcome_def {
	unsigned outcome;
	bool forbidden;
	bool control;	/* expected to show up: a negative control */
};

/* One run's description.  SB: va is thread A's barrier, vb thread B's
 * (V_NOFENCE: the same as va, the symmetric shape). */
struct spec {
	enum test test;
	enum variant va, vb;
	enum litmus_reset reset;
	const char *what;
	struct outcome_def d;
	uint32_t msr;
	uint64_t msr_val[2];	/* SB thread A's, thread B's */
};

/* The start fields every litmus metric ends with (a metric line's
 * key=value part is at most 400 characters: keep them short). */
static void metric_tail(struct test_ctx *t, const struct lit *l, const char *what, char *buf,
			size_t size)
{
	char why[120];
	const char *bal = litmus_start_verdict(&l->start, why, sizeof(why));

	char first[64];
	size_t k = 0;

	first[0] = '\0';
	for (unsigned i = 0; i < l->nthreads && k < sizeof(first); i++)
		k += (size_t)rl_snprintf(first + k, sizeof(first) - k, "%s%llu", i ? "/" : "",
					 (unsigned long long)l->start.first[i]);
	rl_snprintf(buf, size, "start=%s,tsc-release balance=%s late=%llu first=%s env=%s",
		    litmus_reset_name(l->reset), bal, (unsigned long long)l->start.late, first, plat_env());
	if (strcmp(bal, "balanced") != 0)
		t_diag(t, "%s: start %s: %s; ties %llu, worst lateness %llu ns env=%s", what, bal, why,
		       (unsigned long long)l->start.ties,
		       (unsigned long long)plat_cycles_to_ns(l->start.max_late), plat_env());
}

/* Run one test; false when it could not run (skipped or failed, said).
 * *out gets the tally. */
static bool run_one(struct test_ctx *t, const struct spec *sp, struct lit **out)
{
	enum test test = sp->test;
	unsigned want = test == T_IRIW ? 4 : 2, cpus[MAX_THREADS];
	unsigned others[MAX_THREADS];
	unsigned got = plat_other_cpus(others, want - 1);

	if (got + 1 < want) {
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
	l->nthreads = want;
	memcpy(l->cpus, cpus, sizeof(cpus));
	l->iters = t_iters(t, test == T_IRIW ? 100000 : 200000, 2000);
	l->seed = t->seed ^ ((uint64_t)test << 32 | (uint64_t)sp->va << 8 | sp->vb);
	l->release_cycles = plat_ns_to_cycles(RELEASE_NS);
	litmus_tally_init(&l->tally, test == T_IRIW ? 4 : 2);
	litmus_start_init(&l->start, want);
	int st[MAX_THREADS];
	uint64_t t0 = lfence_rdtsc();

	/* a fixed count, capped in time (an emulator on a busy host) */
	struct plat_mem_info mi;

	plat_mem_info(&mi);
	uint64_t cap_ms = mi.ring0 && plat_under_emulator() ? CAP_QUICK_MS : CAP_FULL_MS;

	if (t->quick_end_tsc)
		cap_ms = sp->d.control && test != T_IRIW ? CAP_QUICK_CONTROL_MS : CAP_QUICK_PLAIN_MS;
	else if (t->quick)
		cap_ms = CAP_QUICK_MS;
	l->stop_tsc = t0 + plat_ns_to_cycles(cap_ms * 1000000ull);
	int rc = plat_call_many(cpus, want, lit_thread, l,
				BARRIER_TIMEOUT_US / 1000 + cap_ms + 10000, st);
	uint64_t us = (lfence_rdtsc() - t0) * 1000000 / plat_tsc_hz();

	*out = l;
	if (rc != PLAT_OK) {
		t_fail(t, "%s: a CPU did not finish: %s", sp->what, plat_strerror(rc));
		return false;
	}
	if (l->abort) {
		t_fail(t, "%s: a CPU missed the iteration barrier for %llu ms at iteration %llu; stopped",
		       sp->what, BARRIER_TIMEOUT_US / 1000, (unsigned long long)l->abort_iter);
		return false;
	}
	if (l->tally.iters < l->iters)
		t_diag(t, "%s: stopped by the time cap after %llu of %llu iterations (%llu us)%s", sp->what,
		       (unsigned long long)l->tally.iters, (unsigned long long)l->iters,
		       (unsigned long long)us, t->quick_end_tsc ? " (quick budget)" : "");
	t_check(t, l->tally.iters > 0, "%s: no iteration completed", sp->what);
	t_check(t, l->tally.invalid == 0,
		"%s: %llu iterations read a value other than 0 or 1 (harness broken)", sp->what,
		(unsigned long long)l->tally.invalid);
	return true;
}

static void cpu_list(const struct lit *l, char *buf, size_t size)
{
	size_t k = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < l->nthreads && k < size; i++)
		k += (size_t)rl_snprintf(buf + k, size - k, "%s%u", i ? "," : "", l->cpus[i]);
}

/* The classic tests: a forbidden outcome seen even once fails the case. */
static bool run_litmus(struct test_ctx *t, enum test test, enum variant v, enum variant vb,
		       enum litmus_reset reset, const char *what, struct outcome_def d,
		       struct litmus_tally *tally_out)
{
	struct spec sp = { test, v, vb, reset, what, d, 0, { 0, 0 } };
	struct lit *l = NULL;

	if (!run_one(t, &sp, &l))
		return false;
	char name[64], all[160], cpulist[48], tail[200];
	uint64_t n = litmus_count(&l->tally, d.outcome);

	litmus_outcome_name(d.outcome, l->tally.nregs, name, sizeof(name));
	litmus_format(&l->tally, all, sizeof(all));
	cpu_list(l, cpulist, sizeof(cpulist));
	metric_tail(t, l, what, tail, sizeof(tail));
	t_metric_value(t, what, (int64_t)n, "count",
		       "outcome=%s iters=%llu verdict=%s outcomes=%s invalid=%llu cpus=%s skew_max=%u %s",
		       name, (unsigned long long)l->tally.iters,
		       d.forbidden ? "forbidden" : d.control ? "allowed-control" : "allowed",
		       all, (unsigned long long)l->tally.invalid, cpulist, SKEW_MAX, tail);
	if (tally_out)
		*tally_out = l->tally;
	/* the litmus answer: SB without and with MFENCE, MP with MOVNTI
	 * without and with SFENCE */
	if ((test == T_SB && (!strcmp(what, "nofence") || !strcmp(what, "nofence_cross") ||
			      !strcmp(what, "mfence"))) || test == T_MP_NT) {
		char from[96];

		rl_snprintf(from, sizeof(from), "%s.%s", t->full_name, what);
		t_answer(t, ANSWER_LITMUS, from,
			 d.control ? (n ? T_CONTROL_FIRED : T_CONTROL_NOT_OBSERVED) : T_CONTROL_NONE,
			 "%s %s: %s %llu of %llu%s;", test == T_SB ? "SB" : "MP with MOVNTI", what, name,
			 (unsigned long long)n, (unsigned long long)l->tally.iters,
			 d.forbidden ? (n ? " (FORBIDDEN, seen)" : " (forbidden)") : "");
	}
	if (d.forbidden)
		t_check(t, n == 0, "%s: forbidden outcome %s observed %llu times in %llu iterations env=%s",
			what, name, (unsigned long long)n, (unsigned long long)l->tally.iters, plat_env());
	else if (d.control)
		t_diag(t, "%s: negative control %s (%s seen %llu times in %llu iterations) env=%s", what,
		       n ? "FIRED" : "did not fire", name, (unsigned long long)n,
		       (unsigned long long)l->tally.iters, plat_env());
	else
		t_diag(t, "%s: allowed outcome %s seen %llu times in %llu iterations env=%s", what, name,
		       (unsigned long long)n, (unsigned long long)l->tally.iters, plat_env());
	return true;
}

#define SB_RELAXED	LITMUS_OUTCOME2(0, 0)
#define MP_STALE	LITMUS_OUTCOME2(1, 0)
#define IRIW_SPLIT	LITMUS_OUTCOME4(1, 0, 1, 0)

/* ---- WRMSR as the only barrier ----
 *
 * SDM vol. 3A 9.3 "Serializing Instructions" (8.3 in editions before
 * 2023) lists WRMSR among the privileged serializing instructions, with a
 * footnote: WRMSR to IA32_TSC_DEADLINE (6E0H) and to the x2APIC MSRs
 * (802H-83FH) is not serializing; the x2APIC chapter ("MSR Access in
 * x2APIC Mode") adds that such a WRMSR "may complete before all preceding
 * stores are globally visible" and that software should put MFENCE or a
 * serializing instruction before it -- Linux's weak_wrmsr_fence() is
 * MFENCE;LFENCE.  AMD serializes every WRMSR.  A serializing instruction
 * drains the store buffer before the next instruction executes, so in SB
 *	A: x=1; WRMSR; r0=y	B: y=1; MFENCE; r1=x
 * r0=0,r1=0 is forbidden if the WRMSR serializes and allowed (store
 * buffering, 9.2.3.4) if it does not.  All of them run with cross
 * resets (each store waits for its line in the store buffer while the
 * load hits: the widest window).  Controls: the same shape with no
 * barrier (a_none_b_mfence; nofence_cross for the _both shape, where both
 * threads execute the WRMSR): their rate is what "never" is judged
 * against (lib/litmus.c, litmus_barrier_verdict); MFENCE in the same
 * placement (mfence_cross) and a WRMSR the SDM calls serializing
 * (IA32_KERNEL_GS_BASE written back with its own value: it exists in
 * every 64-bit CPU, and ringlab never executes SWAPGS) must never show
 * r0=0,r1=0.
 *
 * Every WRMSR writes back the value its MSR already holds on that CPU
 * (read just before): the TPR keeps its priority, the KERNEL_GS_BASE its
 * base, and IA32_TSC_DEADLINE the deadline it holds -- the runner's
 * watchdog deadline for this case, seconds ahead, or 0 when disarmed --
 * so the register never holds another value and there is nothing to
 * restore, whether the case ends normally, faults or is stopped; after
 * each run the value is read back and, if it differs, written back and
 * the case fails.  Under an emulator or hypervisor the WRMSR is emulated
 * (or a VM exit): the verdict there is the emulator's, not the CPU's. */
enum msr_kind { M_TSC_DEADLINE, M_X2APIC_TPR, M_SERIALIZING };

static const struct msr_desc {
	const char *tag;	/* metric suffix */
	const char *name;
	uint32_t msr;
} msrs[] = {
	[M_TSC_DEADLINE] = { "tsc_deadline", "IA32_TSC_DEADLINE", LITMUS_MSR_TSC_DEADLINE },
	[M_X2APIC_TPR] = { "x2apic_tpr", "IA32_X2APIC_TPR", LITMUS_MSR_X2APIC_TPR },
	[M_SERIALIZING] = { "serializing", "IA32_KERNEL_GS_BASE", LITMUS_MSR_KERNEL_GS_BASE },
};

/* Only ever executed in ring 0 (plat_mem_info().ring0). */
static inline uint64_t lit_rdmsr(uint32_t msr)
{
	uint32_t lo, hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return (uint64_t)hi << 32 | lo;
}

static inline void lit_wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)) : "memory");
}

/* One read-and-write-back of the MSR on another CPU: plat_call runs it
 * under the cross-call fault catch, so an MSR that #GPs comes back as
 * PLAT_FAULT instead of taking the case down (QEMU TCG returns 0 for
 * unknown MSRs without a fault, so CPUID is checked first). */
struct probe {
	uint32_t msr;
	bool serialize;
};

static void probe_fn(void *arg)
{
	struct probe *p = arg;

	if (p->serialize) {
		__asm__ volatile(".byte 0x0f, 0x01, 0xe8" ::: "memory");	/* SERIALIZE */
		return;
	}
	uint64_t flags = plat_irq_save();

	lit_wrmsr(p->msr, lit_rdmsr(p->msr));
	plat_irq_restore(flags);
}

static bool probe_elsewhere(struct probe *p, char *why, size_t size, const char *what)
{
	unsigned other;

	if (!plat_other_cpus(&other, 1)) {
		rl_snprintf(why, size, "no second CPU to try %s on under the cross-call fault catch", what);
		return false;
	}
	int rc = plat_call(other, probe_fn, p, 1000);

	if (rc != PLAT_OK) {
		rl_snprintf(why, size, "%s on cpu %u: %s", what, other, plat_strerror(rc));
		return false;
	}
	return true;
}

/* Whether the WRMSR of kind k can run here; NULL if yes, else why not
 * (naming the CPUID bit where the MSR does not exist). */
static const char *msr_unusable(enum msr_kind k, char *why, size_t size)
{
	struct plat_mem_info mi;

	plat_mem_info(&mi);
	if (!mi.ring0)
		return "WRMSR needs ring 0 (the hosted build runs in ring 3)";
	switch (k) {
	case M_TSC_DEADLINE:
		if (!plat_cpu_has(X86_FEATURE_TSC_DEADLINE_TIMER)) {
			x86_feature_absent_why(X86_FEATURE_TSC_DEADLINE_TIMER, "TSC-deadline", why, size);
			return why;
		}
		break;
	case M_X2APIC_TPR:
		if (!plat_cpu_has(X86_FEATURE_X2APIC)) {
			x86_feature_absent_why(X86_FEATURE_X2APIC, "x2APIC", why, size);
			return why;
		}
		/* the x2APIC MSRs #GP outside x2APIC mode (SDM vol. 3A
		 * "x2APIC Register Availability") */
		if (!(lit_rdmsr(LITMUS_MSR_APICBASE) & LITMUS_MSR_APICBASE_EXTD)) {
			char src[40];

			x86_feature_source(X86_FEATURE_X2APIC, src, sizeof(src));
			rl_snprintf(why, size, "the kernel is not in x2APIC mode (IA32_APIC_BASE.EXTD=0; %s says the CPU has it)",
				    src);
			return why;
		}
		break;
	case M_SERIALIZING:
		break;
	}
	char what[64];
	struct probe p = { msrs[k].msr, false };

	rl_snprintf(what, sizeof(what), "WRMSR %s (0x%x)", msrs[k].name, (unsigned)msrs[k].msr);
	if (!probe_elsewhere(&p, why, size, what))
		return why;
	return NULL;
}

/* RDMSR or WRMSR on a given CPU (CPU 0, the caller, directly; another
 * through plat_call, under its fault catch), interrupts off around it. */
struct msrop {
	uint32_t msr;
	bool write;
	uint64_t val;
};

static void msrop_fn(void *arg)
{
	struct msrop *o = arg;
	uint64_t flags = plat_irq_save();

	if (o->write)
		lit_wrmsr(o->msr, o->val);
	else
		o->val = lit_rdmsr(o->msr);
	plat_irq_restore(flags);
}

static bool msr_on(unsigned cpu, struct msrop *o)
{
	if (cpu == plat_this_cpu()) {
		msrop_fn(o);
		return true;
	}
	return plat_call(cpu, msrop_fn, o, 1000) == PLAT_OK;
}

/* The value to write back on `cpu`; false with why when it cannot be read
 * or IA32_TSC_DEADLINE holds a deadline that could pass during the run
 * (writing a passed deadline back would raise an interrupt per iteration). */
static bool msr_value(enum msr_kind k, unsigned cpu, uint64_t *v, char *why, size_t size)
{
	struct msrop o = { msrs[k].msr, false, 0 };

	if (!msr_on(cpu, &o)) {
		rl_snprintf(why, size, "RDMSR %s on cpu %u failed", msrs[k].name, cpu);
		return false;
	}
	*v = o.val;
	if (k == M_TSC_DEADLINE && *v) {
		uint64_t now = rdtsc(), need = plat_ms_to_cycles(CAP_FULL_MS + 5000);

		if (*v < now + need) {
			rl_snprintf(why, size, "IA32_TSC_DEADLINE on cpu %u holds a deadline %llu ms ahead (a tick or a watchdog); writing it back during a run could re-arm a passed deadline",
				    cpu, (unsigned long long)(*v > now ? plat_cycles_to_ns(*v - now) / 1000000 : 0));
			return false;
		}
	}
	return true;
}

/* After a run (every path that returns): the MSR must still hold its
 * value on `cpu`; if not, it is written back and the case fails. */
static void msr_check_restore(struct test_ctx *t, enum msr_kind k, unsigned cpu, uint64_t v,
			      const char *what)
{
	struct msrop o = { msrs[k].msr, false, 0 };

	if (!msr_on(cpu, &o)) {
		t_fail(t, "%s: could not read %s back on cpu %u", what, msrs[k].name, cpu);
		return;
	}
	/* a deadline that passed reads 0 (SDM vol. 3A "TSC-Deadline Mode") */
	if (o.val == v || (k == M_TSC_DEADLINE && o.val == 0 && rdtsc() >= v))
		return;
	uint64_t was = o.val;

	o = (struct msrop){ msrs[k].msr, true, v };
	(void)msr_on(cpu, &o);
	o = (struct msrop){ msrs[k].msr, false, 0 };
	(void)msr_on(cpu, &o);
	t_fail(t, "%s: %s on cpu %u read 0x%llx after the run, not 0x%llx; written back (reads 0x%llx)",
	       what, msrs[k].name, cpu, (unsigned long long)was, (unsigned long long)v,
	       (unsigned long long)o.val);
}

struct judged {
	bool ran;
	enum litmus_verdict v;
	uint64_t n, iters, expected_x1000;
	char what[48];
};

/* One WRMSR run.  both=false: A executes the barrier, B MFENCE (the
 * one-sided shape; control a_none_b_mfence).  both=true: both threads
 * execute it, each on its own CPU with its own value (control: nofence).
 * The one-sided shape alone lacks power: with B fenced, r0=0,r1=0 needs
 * A's store to stay buffered through B's whole store-MFENCE-load, and on
 * the AMD EPYC behind this project's build machine the no-barrier
 * control of that shape fired 0-1 times in 20000 iterations while the
 * symmetric one fired 50-240 times; a barrier that does not drain shows
 * in the symmetric shape at the rate SB without a fence does.
 * combined: the verdict over both shapes, printed on the one-sided
 * metric (named without _both) when given. */
static struct judged run_wrmsr(struct test_ctx *t, enum variant va, enum msr_kind k, bool both,
			       const struct litmus_tally *control, bool forbidden,
			       const struct judged *other)
{
	struct judged j = { 0 };
	char why[200];
	const char *no;
	uint64_t v[2] = { 0, 0 };
	unsigned b;

	rl_snprintf(j.what, sizeof(j.what), "%swrmsr_%s%s", va == V_WRMSR ? "" : "mfence_lfence_",
		    msrs[k].tag, both ? "_both" : "");
	no = msr_unusable(k, why, sizeof(why));
	if (!no && !plat_other_cpus(&b, 1))
		no = "needs 2 CPUs";
	if (!no && !msr_value(k, 0, &v[0], why, sizeof(why)))
		no = why;
	if (!no && both && !msr_value(k, b, &v[1], why, sizeof(why)))
		no = why;
	if (no) {
		t_diag(t, "litmus.sb.%s: SKIP %s env=%s", j.what, no, plat_env());
		return j;
	}
	struct spec sp = { T_SB, va, both ? va : V_MFENCE, LITMUS_RESET_CROSS, j.what,
			   { SB_RELAXED, forbidden, false },
			   msrs[k].msr, { v[0], v[1] } };
	struct lit *l = NULL;
	bool ran = run_one(t, &sp, &l);

	/* every path: the value must still be there (it is never changed) */
	msr_check_restore(t, k, 0, v[0], j.what);
	if (both)
		msr_check_restore(t, k, b, v[1], j.what);
	if (!ran)
		return j;
	char all[160], cpulist[48], tail[200], comb[120] = "";
	uint64_t n = litmus_count(&l->tally, SB_RELAXED), e;
	char bwhy[120];
	bool balanced = strcmp(litmus_start_verdict(&l->start, bwhy, sizeof(bwhy)), "balanced") == 0;
	enum litmus_verdict vd = litmus_barrier_verdict(&l->tally, SB_RELAXED, control, balanced, &e);
	enum litmus_verdict shown = vd;

	j.ran = true;
	j.v = vd;
	j.n = n;
	j.iters = l->tally.iters;
	j.expected_x1000 = e;
	if (other && other->ran) {
		shown = litmus_verdict_combine(vd, other->v);
		rl_snprintf(comb, sizeof(comb), "shape=%s both=%s ", litmus_verdict_name(vd),
			    litmus_verdict_name(other->v));
	}
	litmus_format(&l->tally, all, sizeof(all));
	cpu_list(l, cpulist, sizeof(cpulist));
	metric_tail(t, l, j.what, tail, sizeof(tail));
	/* value = r0=0,r1=0 count; a=/b= the threads' barriers; control_hits
	 * = the control's r0=0,r1=0 count / its iterations (control: nofence
	 * for _both, a_none_b_mfence otherwise); shape= this shape's verdict
	 * and both= the symmetric one's, when verdict= combines them */
	t_metric_value(t, j.what, (int64_t)n, "count",
		       "iters=%llu verdict=%s %sexpect=%s msr=0x%x a=%s b=%s control_hits=%llu/%llu "
		       "expected_x1000=%llu outcomes=%s invalid=%llu cpus=%s %s",
		       (unsigned long long)l->tally.iters, litmus_verdict_name(shown), comb,
		       forbidden ? "forbidden" : "open", (unsigned)msrs[k].msr,
		       va == V_WRMSR ? "wrmsr" : "mfence;lfence;wrmsr",
		       both ? (va == V_WRMSR ? "wrmsr" : "mfence;lfence;wrmsr") : "mfence",
		       (unsigned long long)(control ? litmus_count(control, SB_RELAXED) : 0),
		       (unsigned long long)(control ? control->iters : 0), (unsigned long long)e, all,
		       (unsigned long long)l->tally.invalid, cpulist, tail);
	if (!both)	/* the summary, once per MSR, on the one-sided metric */
		t_diag(t, "WRMSR to %s (0x%x)%s on this CPU: %s: (0,0) observed %llu of %llu with B fenced (control predicts %llu.%03llu)%s, by the SB test env=%s%s%s",
		       msrs[k].name, (unsigned)msrs[k].msr, va == V_WRMSR ? "" : " after MFENCE;LFENCE",
		       litmus_verdict_name(shown), (unsigned long long)n, (unsigned long long)l->tally.iters,
		       (unsigned long long)(e / 1000), (unsigned long long)(e % 1000),
		       other && other->ran ? "" : "; no symmetric run", plat_env(),
		       plat_env_note()[0] ? "; " : "", plat_env_note());
	if (!both && va == V_WRMSR) {
		char from[96];

		rl_snprintf(from, sizeof(from), "litmus.sb.%s", j.what);
		t_answer(t, ANSWER_WRMSR_FENCE, from,
			 control ? (litmus_count(control, SB_RELAXED) ? T_CONTROL_FIRED : T_CONTROL_NOT_OBSERVED) :
				   T_CONTROL_NONE,
			 "WRMSR to %s alone as the barrier: %s by the SB test ((0,0) %llu of %llu).",
			 msrs[k].name, litmus_verdict_name(shown), (unsigned long long)n,
			 (unsigned long long)l->tally.iters);
	}
	if (other && other->ran)
		t_diag(t, "  and %llu of %llu with the WRMSR on both sides (control predicts %llu.%03llu) env=%s",
		       (unsigned long long)other->n, (unsigned long long)other->iters,
		       (unsigned long long)(other->expected_x1000 / 1000),
		       (unsigned long long)(other->expected_x1000 % 1000), plat_env());
	if (forbidden)
		t_check(t, n == 0, "%s: r0=0,r1=0 observed %llu times in %llu iterations: %s env=%s", j.what,
			(unsigned long long)n, (unsigned long long)l->tally.iters,
			va == V_WRMSR ? "a WRMSR the SDM calls serializing did not drain the store buffer"
				      : "MFENCE before the WRMSR did not order the store before the load",
			plat_env());
	return j;
}

TEST_EX(litmus, sb, 0, 120000)
{
	struct litmus_tally sym, asym;
	bool have_sym, have_asym;

	/* the classic variants, balanced start with own resets */
	run_litmus(t, T_SB, V_NOFENCE, V_NOFENCE, LITMUS_RESET_OWN, "nofence", (struct outcome_def){ SB_RELAXED, false, true }, NULL);
	run_litmus(t, T_SB, V_MFENCE, V_NOFENCE, LITMUS_RESET_OWN, "mfence", (struct outcome_def){ SB_RELAXED, true, false }, NULL);
	run_litmus(t, T_SB, V_LOCKED, V_NOFENCE, LITMUS_RESET_OWN, "locked", (struct outcome_def){ SB_RELAXED, true, false }, NULL);
	run_litmus(t, T_SB, V_XCHG, V_NOFENCE, LITMUS_RESET_OWN, "xchg", (struct outcome_def){ SB_RELAXED, true, false }, NULL);
	/* The WRMSR family and its controls, with cross resets:
	 * each store has to fetch its line back while the load hits, so a
	 * barrier that does not drain the store buffer shows at the highest
	 * rate.  nofence_cross: the control of the symmetric (_both) shape;
	 * a_none_b_mfence: of the one-sided shape; mfence_cross: the
	 * forbidden reference in the same placement. */
	have_sym = run_litmus(t, T_SB, V_NOFENCE, V_NOFENCE, LITMUS_RESET_CROSS, "nofence_cross",
			      (struct outcome_def){ SB_RELAXED, false, true }, &sym);
	run_litmus(t, T_SB, V_MFENCE, V_NOFENCE, LITMUS_RESET_CROSS, "mfence_cross",
		   (struct outcome_def){ SB_RELAXED, true, false }, NULL);
	have_asym = run_litmus(t, T_SB, V_NOFENCE, V_MFENCE, LITMUS_RESET_CROSS, "a_none_b_mfence",
			       (struct outcome_def){ SB_RELAXED, false, true }, &asym);
	const struct litmus_tally *cs = have_sym ? &sym : NULL, *ca = have_asym ? &asym : NULL;
	static const struct { enum variant va; enum msr_kind k; bool forbidden, sym; } w[] = {
		{ V_WRMSR, M_TSC_DEADLINE, false, true },
		{ V_WRMSR, M_X2APIC_TPR, false, true },
		{ V_WRMSR, M_SERIALIZING, true, true },
		{ V_MFLF_WRMSR, M_TSC_DEADLINE, true, false },
		{ V_MFLF_WRMSR, M_X2APIC_TPR, true, false },
	};

	for (unsigned i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		struct judged none = { 0 }, s = none;

		if (w[i].sym)
			s = run_wrmsr(t, w[i].va, w[i].k, true, cs, w[i].forbidden, NULL);
		(void)run_wrmsr(t, w[i].va, w[i].k, false, ca, w[i].forbidden,
				w[i].sym ? &s : NULL);
	}
}

TEST(litmus, mp)
{
	run_litmus(t, T_MP, V_WB, V_NOFENCE, LITMUS_RESET_OWN, "wb", (struct outcome_def){ MP_STALE, true, false }, NULL);
	run_litmus(t, T_MP, V_CONTROL, V_NOFENCE, LITMUS_RESET_OWN, "swapped_reads", (struct outcome_def){ MP_STALE, false, true }, NULL);
}

TEST(litmus, mp_nt)
{
	struct plat_mem_info mi;
	char lacks[200];

	plat_mem_info(&mi);
	if (!mi.sse2) {
		x86_feature_absent_why(X86_FEATURE_SSE2, "MOVNTI (SSE2)", lacks, sizeof(lacks));
		t_skip(t, "%s", lacks);
		return;
	}
	run_litmus(t, T_MP_NT, V_NT_NOFENCE, V_NOFENCE, LITMUS_RESET_OWN, "nofence", (struct outcome_def){ MP_STALE, false, false }, NULL);
	run_litmus(t, T_MP_NT, V_NT_SFENCE, V_NOFENCE, LITMUS_RESET_OWN, "sfence", (struct outcome_def){ MP_STALE, true, false }, NULL);
}

TEST(litmus, iriw)
{
	unsigned others[3];

	if (plat_other_cpus(others, 3) < 3) {
		t_skip(t, "IRIW needs 4 CPUs, %u online", plat_other_cpus(others, 3) + 1);
		return;
	}
	run_litmus(t, T_IRIW, V_PLAIN, V_NOFENCE, LITMUS_RESET_OWN, "plain", (struct outcome_def){ IRIW_SPLIT, true, false }, NULL);
	run_litmus(t, T_IRIW, V_CONTROL, V_NOFENCE, LITMUS_RESET_OWN, "swapped_reads", (struct outcome_def){ IRIW_SPLIT, false, true }, NULL);
}

/* ---- the cost form ----
 *
 * The fence suite's after_stores shape: one iteration is NSTORES stores to
 * distinct 64-byte lines of an L1-resident buffer, then the instruction;
 * nanoBench's U/2U (t_u2u) removes the timing, call and loop set-up;
 * `none` (the stores alone) is the baseline, and drain_p50= is each
 * median minus none's.  An instruction that drains the store buffer
 * (MFENCE, SERIALIZE, a serializing WRMSR) pays for the 32 stores to
 * reach the cache; one that does not pays only for itself.  The WRMSRs
 * write back the value the MSR holds, on CPU 0, as in the SB variants. */
struct cost {
	volatile uint64_t *lines;
	uint32_t msr, lo, hi;
};

#define DEFINE_COST(name, insn) \
	static uint64_t cost_##name(unsigned count, void *arg) \
	{ \
		struct cost *c = arg; \
		volatile uint64_t *lines = c->lines; \
		uint64_t t0 = lfence_rdtsc(); \
		for (unsigned i = 0; i < count; i++) { \
			for (unsigned k = 0; k < NSTORES; k++) \
				lines[k * LINE_WORDS] = i; \
			__asm__ volatile(insn : : "c"(c->msr), "a"(c->lo), "d"(c->hi) : "memory"); \
		} \
		return lfence_rdtsc() - t0; \
	}

DEFINE_COST(none, "")
DEFINE_COST(mfence, "mfence")
DEFINE_COST(serialize, ".byte 0x0f, 0x01, 0xe8")	/* SERIALIZE, as bytes for old assemblers */
DEFINE_COST(wrmsr, "wrmsr")
DEFINE_COST(mflf_wrmsr, "mfence\n\tlfence\n\twrmsr")

static bool cost_one(struct test_ctx *t, const char *what, t_timed_fn fn, struct cost *c, uint64_t *s,
		     size_t trials, uint64_t base_p50, uint64_t *p50_out, const char *extra)
{
	size_t dropped = 0, planned = trials;
	/* quick without iters=: at least 16 trials, more while the budget lasts */
	size_t k = t_u2u_budget(t, fn, c, COST_U, planned, 16, s, &dropped, &trials);

	t_budget_note(t, what, trials, planned);
	if (!k) {
		t_fail(t, "%s: no usable trial of %zu (%zu dropped)", what, trials, dropped);
		return false;
	}
	/* t_metric_dist sorts s */
	t_metric_dist(t, what, s, k, "cycles",
		      "method=u2u u=%u stores=%u trials=%zu dropped=%zu%s%s tsc_hz=%llu env=%s", COST_U,
		      NSTORES, trials, dropped, base_p50 == UINT64_MAX ? " what=stores-only-baseline" : " baseline=litmus.wrmsr_cost.none",
		      extra, (unsigned long long)plat_tsc_hz(), plat_env());
	uint64_t p50 = s[(k - 1) / 2];

	if (p50_out)
		*p50_out = p50;
	if (base_p50 != UINT64_MAX)
		t_diag(t, "%s after %u stores: median %llu cycles, %+lld vs the stores alone (the drain) env=%s",
		       what, NSTORES, (unsigned long long)p50, (long long)p50 - (long long)base_p50, plat_env());
	t_check(t, k > trials / 2, "%s: only %zu of %zu trials usable", what, k, trials);
	return true;
}

TEST_EX(litmus, wrmsr_cost, 0, 120000)
{
	struct plat_mem_info mi;
	size_t trials = (size_t)t_iters(t, 1000, 50);
	uint64_t *s = t_alloc(t, trials * sizeof(uint64_t));
	struct cost c = { t_alloc(t, NSTORES * 64), 0, 0, 0 };
	uint64_t base = 0, p50;
	char why[200], extra[96];

	plat_mem_info(&mi);
	if (!cost_one(t, "none", cost_none, &c, s, trials, UINT64_MAX, &base, ""))
		return;
	if (cost_one(t, "mfence", cost_mfence, &c, s, trials, base, &p50, ""))
		t_metric_value(t, "mfence_drain", (int64_t)p50 - (int64_t)base, "cycles",
			       "method=median-minus-none-median env=%s", plat_env());
	struct probe pr = { 0, true };

	if (!mi.serialize) {
		x86_feature_absent_why(X86_FEATURE_SERIALIZE, "SERIALIZE", why, sizeof(why));
		t_diag(t, "serialize: SKIP %s env=%s", why, plat_env());
	} else if (!probe_elsewhere(&pr, why, sizeof(why), "SERIALIZE"))
		t_diag(t, "serialize: SKIP %s env=%s", why, plat_env());
	else if (cost_one(t, "serialize", cost_serialize, &c, s, trials, base, &p50, ""))
		t_metric_value(t, "serialize_drain", (int64_t)p50 - (int64_t)base, "cycles",
			       "method=median-minus-none-median env=%s", plat_env());
	static const struct { enum msr_kind k; bool mflf; } w[] = {
		{ M_TSC_DEADLINE, false }, { M_X2APIC_TPR, false }, { M_SERIALIZING, false },
		{ M_TSC_DEADLINE, true }, { M_X2APIC_TPR, true },
	};
	for (unsigned i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		enum msr_kind k = w[i].k;
		char what[64], dname[80];
		const char *no = msr_unusable(k, why, sizeof(why));
		uint64_t v;

		rl_snprintf(what, sizeof(what), "%swrmsr_%s", w[i].mflf ? "mfence_lfence_" : "", msrs[k].tag);
		if (!no && !msr_value(k, 0, &v, why, sizeof(why)))
			no = why;
		if (no) {
			t_diag(t, "litmus.wrmsr_cost.%s: SKIP %s env=%s", what, no, plat_env());
			continue;
		}
		c.msr = msrs[k].msr;
		c.lo = (uint32_t)v;
		c.hi = (uint32_t)(v >> 32);
		rl_snprintf(extra, sizeof(extra), " msr=0x%x", (unsigned)c.msr);
		bool ok = cost_one(t, what, w[i].mflf ? cost_mflf_wrmsr : cost_wrmsr, &c, s, trials, base,
				   &p50, extra);

		msr_check_restore(t, k, 0, v, what);
		if (ok) {
			rl_snprintf(dname, sizeof(dname), "%s_drain", what);
			t_metric_value(t, dname, (int64_t)p50 - (int64_t)base, "cycles",
				       "method=median-minus-none-median msr=0x%x env=%s", (unsigned)c.msr, plat_env());
		}
	}
}
