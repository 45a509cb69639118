/* SPDX-License-Identifier: GPL-2.0-only */
/* litmus: what the suite's files share (suites/litmus/).  A SUITE_HOSTED
 * suite: every file here also builds into ringlab-hosted, so none includes
 * arch/x86/ (tests/host/check-seam.sh).
 *
 *   suite.c    the suite, and the list of its cases in run order
 *   harness.c  the threads, their barriers and balanced start, one run of
 *              a test (lit_run_one) and the fields every metric ends with
 *   classic.c  cases sb, mp, mp_nt, iriw: SB, MP, MP with MOVNTI data,
 *              IRIW and their controls
 *   msr.c      the WRMSR variants' MSRs: usable here?, their values, the
 *              check that each still holds its value after a run
 *   wrmsr.c    SB with WRMSR as thread A's only barrier, beside a delay as
 *              long as the WRMSR (and, for the x2APIC ICR, the WRMSR
 *              before the store), and its verdict (part of case sb)
 *   cost.c     case wrmsr_cost: each barrier after 32 pending stores
 *
 * The x86 memory model, observed.  Each test runs a fixed number
 * of iterations (200000, IRIW 100000, quick 2000 (500 for a variant
 * that is not a negative control of the classic tests, without iters=),
 * or iters=; stopped early
 * after 2 s, or in a full run of ring 0 under an emulator or hypervisor
 * after the runner's cap, t_guest_cap_ms() (0.3 s; CI boots full runs
 * under TCG), with a budget: line; quick with iters=: 0.3 s; quick without
 * iters=, the case's quick sample budget shared equally by the runs still
 * to come, a negative control of the classic tests never less than
 * CAP_QUICK_CONTROL_MS, a control of the WRMSR family not run once the
 * budget is spent; each run completes at least one iteration, and one
 * `# budget:` line per case says how many runs the budget cut short) on two
 * (IRIW: four) CPUs.  The start is balanced: before every iteration each
 * shared variable (each on its own 128-byte block: no false sharing, no
 * adjacent-line prefetch) is reset by exactly one thread -- the thread
 * that writes it (own-reset, the classic tests) or one that reads it
 * (cross-reset, the WRMSR variants: every store then waits for its line
 * in the store buffer while the load hits) -- and each thread resets its
 * own result slot (double-buffered by iteration parity, so CPU 0 may
 * still be counting the previous one); then all meet at a barrier whose
 * last arrival sets a release instant a little ahead, and all leave when
 * their TSC passes it (a spin of one RDTSC a turn, whose last reading is
 * the thread's start).  Each waits a random skew of 0..63 loop turns (its
 * own seeded generator, so seed= reproduces the schedule), runs its few
 * instructions and meets the others at a second barrier; CPU 0 counts the
 * outcome and how the threads left the release spin.  Each run's balance
 * (lib/litmus.h "the balance of a run": lateness, which thread started
 * first, and for SB shapes whose threads run the same instructions, the
 * two one-sided outcomes) is printed as balance=balanced|unbalanced|
 * too-few; the answers rest only on balanced runs and say so where a run
 * was not.  The old harness had CPU 0 reset everything, so CPU 0 arrived
 * last and held both lines in its cache.
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
 *   SB with WRMSR as thread A's only barrier (ring 0): see wrmsr.c;
 *         litmus.wrmsr_cost times each WRMSR after 32 pending stores
 *         against the stores alone.
 * A forbidden outcome seen even once fails the case; an allowed one is
 * reported with its count.  Metrics: litmus.<test>.<variant> = count of
 * the named outcome, with iters=, every outcome's count, start= and
 * env=. */
#ifndef RINGLAB_TESTS_LITMUS_LITMUS_H
#define RINGLAB_TESTS_LITMUS_LITMUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "kernel/test.h"
#include "lib/litmus.h"

/* The suite record (suite.c), for the TEST()s of the job files. */
SUITE_EXTERN(litmus);

#define SKEW_MAX	64	/* the random start skew, loop turns: 0..63 */
#define MAX_THREADS	LITMUS_MAX_THREADS
#define CAP_QUICK_MS	300	/* quick with iters= (a full run of ring 0 under an
				 * emulator or hypervisor: t_guest_cap_ms()) */
/* quick without iters=: a negative control's time floor, from its first
 * release.  Its 2000 iterations take 5-10 ms under QEMU TCG on a quiet
 * host (nofence_cross and a_none_b_mfence see r0=0,r1=0 tens to hundreds
 * of times in them); the floor leaves room for a host that also runs a
 * second QEMU (`make test` runs two cases at once), so TCG still finishes
 * the count it needs to fire.  Under the KVM that emulates ring 0 an
 * iteration costs ~10 ms, and the control stops after a few, "not
 * observed ... no verdict" (the budget note says so), never a pass. */
#define CAP_QUICK_CONTROL_MS	60	/* not IRIW's: four threads, which under TCG
					 * complete ~30 iterations in 1 s and never
					 * fired (docs/suites.md "litmus") */
/* quick without iters=: the iterations of a variant that is not a
 * negative control (the controls run 2000: they must fire); under an
 * emulator every iteration's two barriers wait for both vCPUs to hold a
 * host core */
#define QUICK_ITERS_PLAIN	500
#define CAP_FULL_MS	2000

enum test { T_SB, T_MP, T_MP_NT, T_IRIW };
enum variant {
	V_NOFENCE, V_MFENCE, V_LOCKED, V_XCHG,	/* SB */
	V_WB, V_CONTROL,			/* MP, IRIW */
	V_NT_NOFENCE, V_NT_SFENCE,		/* MP_NT */
	V_PLAIN,				/* IRIW */
	V_WRMSR, V_MFLF_WRMSR,			/* SB thread A (ring 0): WRMSR; MFENCE;LFENCE;WRMSR */
	V_DELAY,				/* SB: a stall as long as the WRMSR, no barrier */
	V_LATE_WRMSR,				/* SB (ring 0): the WRMSR, then the store and load */
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
	uint64_t stop_rel;		/* quick: stop_tsc is this long after the first release */
	/* quick, a negative control: its share without the floor (from the
	 * first release, as stop_rel), after which a start that was
	 * late in every iteration so far ends it (0: never) */
	uint64_t giveup_rel, giveup_tsc;
	volatile uint64_t abort_iter;
	enum test test;
	enum variant va, vb;		/* SB: thread A's and thread B's barrier */
	enum litmus_reset reset;	/* who resets which variable */
	uint32_t msr;			/* V_WRMSR / V_MFLF_WRMSR: ECX */
	uint64_t msr_val[MAX_THREADS];	/* the value it already holds, per thread's CPU */
	uint64_t delay_steps;		/* V_DELAY: the chain's links (>= 1) */
	bool irq_off;			/* interrupts off from the release to the end of the body */
	unsigned nthreads;
	unsigned cpus[MAX_THREADS];
	uint64_t iters, seed;
	uint64_t release_cycles;
	struct litmus_tally tally;
	struct litmus_start start;
	enum litmus_balance bal;	/* set when the run is done */
} __attribute__((aligned(128)));

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
	uint64_t delay_steps;	/* V_DELAY */
	bool irq_off;		/* the x2APIC ICR family: its self-IPI waits for the body's end */
};

/* What one run left for the verdicts and the answers. */
struct lit_result {
	bool ran;
	bool balanced;		/* bal == LITMUS_BALANCED */
	enum litmus_balance bal;
	struct litmus_tally tally;
};

#define SB_RELAXED	LITMUS_OUTCOME2(0, 0)
#define MP_STALE	LITMUS_OUTCOME2(1, 0)
#define IRIW_SPLIT	LITMUS_OUTCOME4(1, 0, 1, 0)

/* ---- harness.c ---- */

/* Run one test; false when it could not run (skipped or failed, said).
 * *out gets the tally. */
bool lit_run_one(struct test_ctx *t, const struct spec *sp, struct lit **out);
/* quick without iters=: the case's sample budget is shared by its runs.
 * lit_plan(n) at the case's start: n runs to come; lit_plan_skip() for
 * one that will not run (so the others get its share); lit_plan_note()
 * at the end: one `# budget:` line if the budget cut any run short. */
void lit_plan(unsigned runs);
void lit_plan_skip(void);
/* quick without iters=: nothing is left of the case's sample budget */
bool lit_plan_spent(const struct test_ctx *t);
void lit_plan_note(struct test_ctx *t);
/* Whether the last run stopped before its planned iterations. */
bool lit_cut(const struct lit *l);
bool lit_balanced(const struct lit *l);
/* The result of a run for later claims (ran=false when l is NULL). */
void lit_result_of(const struct lit *l, struct lit_result *r);
/* The start fields every litmus metric ends with. */
void lit_metric_tail(struct test_ctx *t, const struct lit *l, const char *what, char *buf,
		     size_t size);
void lit_cpu_list(const struct lit *l, char *buf, size_t size);

/* ---- msr.c: the MSRs of the WRMSR variants ---- */

enum msr_kind { M_TSC_DEADLINE, M_X2APIC_TPR, M_X2APIC_ICR, M_SERIALIZING, M_NKINDS };

struct msr_desc {
	const char *tag;	/* metric suffix */
	const char *name;
	uint32_t msr;
	const char *brief;	/* in the answer */
};
extern const struct msr_desc lit_msrs[];

/* What lit_probe_elsewhere() runs on another CPU: a read-and-write-back of
 * msr (with set, a write of val instead: the ICR, whose read-back would
 * resend the last IPI), or (serialize) SERIALIZE. */
struct probe {
	uint32_t msr;
	bool serialize;
	bool set;
	uint64_t val;
};

bool lit_probe_elsewhere(struct probe *p, char *why, size_t size, const char *what);
/* NULL if the WRMSR of kind k can run here, else why not. */
const char *lit_msr_unusable(enum msr_kind k, char *why, size_t size);
bool lit_msr_value(enum msr_kind k, unsigned cpu, uint64_t *v, char *why, size_t size);
void lit_msr_check_restore(struct test_ctx *t, enum msr_kind k, unsigned cpu, uint64_t v,
			   const char *what);

/* ---- wrmsr.c ---- */

/* litmus.sb's WRMSR family: each WRMSR judged against a delay of its own
 * length in the same shape (and the x2APIC ICR also against its
 * late-store control); the no-barrier control of the one-sided shape
 * (a_none_b_mfence, ca; NULL: it did not run or its start was not
 * balanced) judges the MFENCE;LFENCE;WRMSR references. */
void lit_sb_wrmsr(struct test_ctx *t, const struct litmus_tally *ca);
/* The runs lit_sb_wrmsr() will make at most (for lit_plan). */
#define LIT_WRMSR_RUNS	21

#endif
