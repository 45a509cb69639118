/* SPDX-License-Identifier: GPL-2.0-only */
/* Writing a test.
 *
 * A suite is one file suites/<suite>.c:
 *
 *	#include "kernel/test.h"
 *	SUITE(mysuite, 50, "what the suite checks");
 *
 *	TEST(mysuite, does_thing)
 *	{
 *		if (!t_require(t, X86_FEATURE_INVPCID, "INVPCID"))
 *			return;		// skipped: "CPU lacks INVPCID (CPUID.7.0:EBX[10])"
 *		t_check(t, a == b, "a=%d, expected %d", a, b);
 *	}
 *
 * The Makefile compiles every file in suites/; the linker collects the SUITE
 * and TEST records (sections ringlab_suites / ringlab_tests), so adding a
 * file adds a suite with no other edit.  Suites run in ascending `order`,
 * cases in ascending .order, then in the order they appear in the file (a
 * suite split over files, suites/tlb/, orders every case: TEST below).
 *
 * A case ends passed unless it called t_fail() (or t_check() failed), or
 * skipped if it called t_skip().  An unexpected exception or an overrun of
 * the time budget stops it and marks it failed; the run continues.
 * TEST(suite, case, .flags = T_EXPLICIT, .budget_ms = N) sets what differs
 * from the defaults by name (the fields are listed at TEST below).
 *
 * The seam: a suite that needs no ring 0 talks only to this header,
 * kernel/platform.h and lib/, and is marked SUITE_HOSTED instead of SUITE;
 * it then also builds, unchanged, into the hosted (Linux user-space)
 * runner.  What the seam offers is declared in this header and
 * kernel/platform.h, in sections headed "---- <title> ----"; the list of
 * its names is derived from the two (tools/gen-seam writes docs/seam.md,
 * and `make test` checks every suite against it: tests/host/check-seam.sh).
 * Run policy (how much a case does in quick, full and iters= runs, under
 * an emulator, at many CPUs) is the runner's: a suite asks t_pick(),
 * t_budgeted(), t_guest_cap_ms() and the others of "run policy" below.
 *
 * docs/suites.md says which suites are hosted and why the others are not. */
#ifndef RINGLAB_KERNEL_TEST_H
#define RINGLAB_KERNEL_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "kernel/report.h"
#include "lib/claims.h"
#include "lib/rand.h"
#include "kernel/platform.h"

struct test_ctx;

/* ---- runner-owned cleanup (KUnit's kunit_add_action is the model) ---- */
#define T_DEFER_MAX 8
typedef void (*t_defer_fn)(struct test_ctx *t, void *arg);

struct suite {
	const char *name;
	int order;
	const char *summary;
	bool hosted;		/* also built into ringlab-hosted */
};

#define T_EXPLICIT	(1u << 0)	/* run only when named as suite.case */

#define TEST_BUDGET_DEFAULT_MS	30000
/* quick: each case's time budget for its samples (t_quick_spent()), not
 * its hard budget; TEST(..., .quick_budget_ms = N) sets another one. */
#define TEST_QUICK_BUDGET_MS	40


struct test_case {
	const struct suite *suite;
	const char *name;
	void (*fn)(struct test_ctx *t);
	unsigned flags;
	unsigned budget_ms;	/* 0: TEST_BUDGET_DEFAULT_MS */
	const char *file;
	int line;
	unsigned quick_budget_ms;	/* quick: 0 = TEST_QUICK_BUDGET_MS; with
					 * quick_hard, also the hard budget */
	bool quick_hard;
	unsigned order;		/* 0: none (a one-file suite: source order) */
};

struct test_ctx {
	const struct test_case *tc;
	char full_name[96];	/* "suite.case" */
	enum result result;
	char reason[256];
	unsigned failures;	/* t_fail calls */
	bool quick, verbose;
	uint64_t iters;		/* from iters=, 0 if not given */
	uint64_t seed;
	struct rng rng;
	uint64_t start_tsc;
	uint64_t deadline_tsc;	/* budget end on the TSC; 0 = none */
	uint64_t budget_ms;
	bool budget_given;	/* budget_ms is the user's timeout= */
	/* quick (and no iters=): the sample budget's end on the TSC, 0 = none */
	uint64_t quick_end_tsc;
	uint64_t quick_budget_ms;
	/* t_defer(): run when the case ends, newest first */
	struct {
		t_defer_fn fn;
		void *arg;
	} defer[T_DEFER_MAX];
	unsigned ndefer;
};

/* The suite record is global (suite_<id>), so that a suite split over
 * files can put each TEST in its job's file: its header says
 * SUITE_EXTERN(id). */
#define SUITE_DEFINE(id, order_, summary_, hosted_) \
	const struct suite suite_##id = { #id, order_, summary_, hosted_ }; \
	static const struct suite *const suite_ptr_##id \
		__attribute__((section("ringlab_suites"), used)) = &suite_##id

#define SUITE_EXTERN(id) extern const struct suite suite_##id
#define SUITE(id, order_, summary_) SUITE_DEFINE(id, order_, summary_, false)
#define SUITE_HOSTED(id, order_, summary_) SUITE_DEFINE(id, order_, summary_, true)

/* A case.  Optional named fields after the case's name set what differs
 * from the defaults:
 *
 *	TEST(tlb, flush_2m, .budget_ms = 120000, .order = 3)
 *
 *	.flags		T_EXPLICIT: run only when named in tests=suite.case
 *	.budget_ms	the hard budget (0: TEST_BUDGET_DEFAULT_MS)
 *	.quick_budget_ms  quick's sample budget (0: TEST_QUICK_BUDGET_MS)
 *	.quick_hard	in quick, quick_budget_ms is also the hard budget (a
 *			case that overruns its budget on purpose)
 *	.order		the case's place in its suite: cases run in ascending
 *			order, then in source order.  A suite whose cases
 *			live in more than one file (suites/tlb/) gives every
 *			case an order, distinct within the suite; the runner
 *			refuses it otherwise (a config error naming the case),
 *			since source lines of two files say nothing about
 *			which comes first. */
#define TEST(suite_id, case_id, ...) \
	static void test_##suite_id##__##case_id(struct test_ctx *t); \
	static const struct test_case tc_##suite_id##__##case_id = { \
		.suite = &suite_##suite_id, .name = #case_id, \
		.fn = test_##suite_id##__##case_id, .file = __FILE__, .line = __LINE__, \
		__VA_ARGS__ }; \
	static const struct test_case *const tcp_##suite_id##__##case_id \
		__attribute__((section("ringlab_tests"), used)) = &tc_##suite_id##__##case_id; \
	static void test_##suite_id##__##case_id(struct test_ctx *t __attribute__((unused)))

/* Record a failure (the first reason is the result line's; later ones are
 * printed as diagnostics).  Returns false so callers can `return t_fail()`. */
bool t_fail(struct test_ctx *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Mark the case skipped with a reason. */
void t_skip(struct test_ctx *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A diagnostic line in the case's output. */
void t_diag(struct test_ctx *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A line that states a conclusion (a summary, a crossover, a verdict):
 * printed as a diagnostic with the environment it was drawn in appended,
 * "<text> (env=<plat_env()>)", and under an emulator or hypervisor its
 * note that timings there are not the hardware's: "(env=emulator:qemu-tcg;
 * under QEMU TCG: ... not a hardware result)". */
void t_conclude(struct test_ctx *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* ---- the answers block (docs/log-format.md "Answers") ----
 * The questions ringlab's users argue about, each answered once per run for
 * this machine, printed by the runner after the last suite and before the
 * summary line (kernel/answers.c).  A suite that measured the evidence
 * calls t_answer() with the question's key (ANSWER_* below), one sentence,
 * the metrics it comes from (comma-separated names of metrics of this run)
 * and whether the negative control of that evidence fired.  A second call
 * for the same key appends its sentence and metrics (two suites may answer
 * one question, e.g. wrmsr_order and litmus for wrmsr_fence).  A key nobody
 * answered prints "not measured: <why>" with the suite that would have.
 * Under an emulator or hypervisor the runner adds the environment's note to
 * every timing answer. */

#define ANSWER_WRMSR_FENCE	"wrmsr_fence"
#define ANSWER_RDTSC_ORDER	"rdtsc_order"
#define ANSWER_NT_CLEAR		"nt_clear"
#define ANSWER_TLB_FLUSH	"tlb_flush"
#define ANSWER_TLB_SHOOTDOWN	"tlb_shootdown"
#define ANSWER_IPI_COST		"ipi_cost"
#define ANSWER_TSCDEADLINE	"tscdeadline"
#define ANSWER_SPEC_COST	"spec_cost"
#define ANSWER_LITMUS		"litmus"
#define ANSWER_FENCE_COST	"fence_cost"

void t_answer(struct test_ctx *t, const char *key, const char *from, enum t_control control,
	      const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* ---- claims: each sentence of an answer owns its evidence ----
 * One claim (lib/claims.h, struct claim: its negative control's name and
 * state in this run, n, sightings, the sightings the control predicts in
 * n, the detection floor): the sentence "<fmt...>: <words>" is appended to
 * the answer, where the runner chooses the words from the evidence
 * ("not observed in N (control X fired, expected E; floor F)", "too few
 * samples (n=2)", "no power (control X expected 0.4 ...)"), and the
 * claim's control counts in the answer's control=: "fired" only when the
 * control of every claim in it fired, "partial" with the names of those
 * that did not (docs/log-format.md "Claims").  Words of strength ("never",
 * "forbidden", "serializing") belong only in a claim whose
 * claim_strength() is CLAIM_NOT_OBSERVED; t_answer() above is a claim
 * with an unnamed control. */
void t_answer_claim(struct test_ctx *t, const char *key, const char *from, const struct claim *c,
		    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Print the block (the runner, once, before the summary line). */
void answers_print(void);
/* The ANSWER_* keys a suite provides (the suites named for them in
 * kernel/answers.c's table, "tlb" for "tlb.cost"), comma-separated, or
 * "-" when none: for the `list` output.  Returns the length like
 * snprintf. */
int answers_keys(const char *suite, char *buf, size_t size);
/* A `list` run measured nothing: answers_print() prints no block. */
void answers_listing(void);

/* Only with `verbose`. */
void t_verbose(struct test_ctx *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define t_check(t, cond, ...) ((cond) ? true : t_fail((t), __VA_ARGS__))

/* Fail the case with a reason and end it at once (from the case's body
 * on CPU 0 only; work running on other CPUs returns instead). */
void t_abort(struct test_ctx *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
/* Zeroed, page-aligned memory until the case ends.  Never returns NULL:
 * without memory the case fails ("no memory for N bytes") and ends. */
void *t_alloc(struct test_ctx *t, size_t bytes);
/* plat_alloc_big() memory, NOT zeroed (for sample buffers whose every
 * slot is written before it is read: zeroing is what a case cost where
 * every ring-0 store is emulated), released when the case ends; one such
 * block at a time.  Never returns NULL, as t_alloc(). */
void *t_alloc_big(struct test_ctx *t, size_t bytes);
/* Whether the CPU has feature f; if not, the case is skipped with
 * "CPU lacks <what> (CPUID.7.0:EBX[10])". */
bool t_require(struct test_ctx *t, struct x86_cpu_feature f, const char *what);
/* Why a feature is absent when CPUID's word was overruled: the boot probe
 * executed its instruction and it faulted ("RTM: CPUID.7.0:EBX[11] is set
 * but XBEGIN;XEND raised vector 6 in the boot probe (cpu.probes): treated
 * as absent"), or simulate=cpuid:-NAME; otherwise `fallback` (the suite's
 * own "CPU lacks ..." text).  The text lives until the call after next. */
const char *t_absent_why(struct x86_cpu_feature f, const char *what, const char *fallback);

/* nanoBench's overhead removal.  run(count, arg) times `count` repetitions
 * of the operation and returns TSC cycles.  Per trial, T(2U) - T(U) over U
 * is one operation with the timing, call and loop set-up removed; a trial
 * where T(2U) <= T(U) (an interruption) is dropped and counted.  One
 * warm-up run; interrupts off around each trial (never longer).  Fills out[] and returns
 * how many samples it holds (<= trials). */
typedef uint64_t (*t_timed_fn)(unsigned count, void *arg);
size_t t_u2u(t_timed_fn run, void *arg, unsigned u, size_t trials, uint64_t *out,
	     size_t *dropped);

/* t_u2u() in chunks of T_U2U_CHUNK trials that, in quick, stops once the
 * case's quick sample budget is used and at least min_trials ran; *ran
 * gets how many trials ran (the denominator for "k > ran / 2"). */
#define T_U2U_CHUNK	8
size_t t_u2u_budget(struct test_ctx *t, t_timed_fn run, void *arg, unsigned u, size_t trials,
		    size_t min_trials, uint64_t *out, size_t *dropped, size_t *ran);

/* t_u2u() for one of several measurements sharing the quick budget (a
 * struct t_share, below): at least min_trials, then chunks of min_trials
 * (at most T_U2U_CHUNK) while this measurement's equal share of what is
 * left (taken when it starts) lasts; outside quick's budget every trial.  It counts itself
 * out of the share (t_share_skip); the caller tallies what ran with
 * t_share_took() once it is done with the measurement. */
struct t_share;
size_t t_u2u_share(struct test_ctx *t, struct t_share *s, t_timed_fn run, void *arg, unsigned u,
		   size_t trials, size_t min_trials, uint64_t *out, size_t *dropped, size_t *ran);

/* fn(t, arg) runs on CPU 0 when the case ends, however it ends (return,
 * t_abort, a fault, a watchdog stop, an NMI abort), last registered first,
 * before the runner's own cleanup (APIC mode, vectors, counters, memory).
 * A deferred action that faults or hangs is reported as a failure of the
 * case and the next one still runs (each has T_DEFER_BUDGET_MS).  False
 * (and the case fails) when T_DEFER_MAX are registered. */
#define T_DEFER_BUDGET_MS	1000
bool t_defer(struct test_ctx *t, t_defer_fn fn, void *arg);
/* Run the case's deferred actions now, newest first, and forget them (a
 * case that must check the restore before it reports). */
void t_defer_run(struct test_ctx *t);

/* The case's hard budget ends ms from now instead (the watchdog and the
 * NMI watch re-armed; what t_expired() tests moves with it), for a case
 * whose point is to overrun it: its set-up, and a host stall in it, then
 * do not count.  Ring 0 only (kernel/case_run.c). */
void t_budget_restart(struct test_ctx *t, unsigned ms);

/* ---- one overhead-removal helper for timing brackets ----
 * The timing bracket's own cost on the calling CPU: the median of n empty
 * brackets of the given reader pair (T_BRACKET_LFENCE: lfence_rdtsc() ..
 * lfence_rdtsc(); T_BRACKET_RDTSCP: rdtscp() .. rdtscp()), interrupts off,
 * n clamped to T_OVERHEAD_MAX_N; plus the text that names it in metrics.
 * Every timing metric says in its extra fields which overhead was removed:
 * t_overhead_text() or, for t_u2u() users, t_u2u_overhead_text(). */
enum t_bracket { T_BRACKET_LFENCE, T_BRACKET_RDTSCP };
struct t_overhead {
	uint64_t cycles;
	size_t n;
	enum t_bracket bracket;
};
#define T_OVERHEAD_MAX_N	1024
void t_overhead_measure(struct t_overhead *o, enum t_bracket b, size_t n);
/* samples[i] -= o->cycles, clamped at 0 */
void t_overhead_remove(const struct t_overhead *o, uint64_t *samples, size_t n);
/* "overhead=bracket-median:lfence-rdtsc overhead_cycles=N overhead_n=N";
 * returns the length like snprintf. */
int t_overhead_text(const struct t_overhead *o, char *buf, size_t size);
/* "overhead=u2u" (nanoBench's U/2U removal, t_u2u()) */
const char *t_u2u_overhead_text(void);

/* ---- run policy: how much to do is the runner's answer ----
 * kernel/run_policy.c.  A suite asks these; it never reads the context's
 * quick, quick_end_tsc, iters or result fields (`make test` checks it:
 * run-policy).  The profiles:
 *	full			no `quick` on the command line
 *	quick with iters=	quick's sizes, every sample taken (no budget)
 *	quick			quick's sizes on the case's sample budget */
enum t_profile { T_PROFILE_FULL, T_PROFILE_QUICK_ITERS, T_PROFILE_QUICK };
enum t_profile t_profile(const struct test_ctx *t);
/* quick, with or without iters= */
bool t_quick(const struct test_ctx *t);
/* quick's sample budget is in force (quick without iters=): the case's
 * loops stop on t_quick_spent(), its shares come from t_share_cycles() */
bool t_budgeted(const struct test_ctx *t);
/* A size by the profile: full, quick with iters=, quick on its budget. */
uint64_t t_pick(const struct test_ctx *t, uint64_t full, uint64_t quick_iters, uint64_t quick);
/* Iteration count: iters= if given, else the quick or full default. */
uint64_t t_iters(const struct test_ctx *t, uint64_t full, uint64_t quick);
/* Whether iters= was given (its count is what t_iters() returns). */
bool t_iters_given(const struct test_ctx *t);

/* The one emulator-cap rule: a full run of ring 0 under an emulator or
 * hypervisor times the emulator, so these loops stop early.  The loops,
 * their caps and the rule's two exceptions (a cap iters= lifts, a cap only
 * QEMU TCG warrants) are one table in kernel/run_policy.c; docs/testing.md
 * "Full runs under an emulator" describes it. */
enum t_guest_cap {
	T_CAP_CLEAR_SIZE,	/* clear: sizes projected past it not measured */
	T_CAP_FENCE_TRIALS,	/* fence: one instruction's trials */
	T_CAP_LITMUS_RUN,	/* litmus: one test's iterations */
	T_CAP_TSC_ORDER_WINDOW,	/* tsc_order: one variant's window (TCG only) */
	T_CAP_WRMSR_VARIANT,	/* wrmsr_order: one variant's rounds (not with iters=) */
	T_NCAPS
};
/* The cap in ms where the rule applies to this case now, else 0. */
unsigned t_guest_cap_ms(const struct test_ctx *t, enum t_guest_cap c);
/* Its budget: line, "budget: full run in ring 0 under an emulator or
 * hypervisor (env=...): <loop> capped at N ms: <what was cut>". */
void t_guest_cap_note(struct test_ctx *t, enum t_guest_cap c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* All-CPU steps in quick under an emulator (whose host threads run every
 * vCPU): the step's total work is held to T_QUICK_ALLCPU_CPUS CPUs' worth
 * and every CPU still takes part.  t_allcpu_bounded(): whether that holds
 * for a step over ncpus CPUs; t_allcpu_share(): one CPU's part of `work`
 * (work * T_QUICK_ALLCPU_CPUS / ncpus, at least min), or `work` where it
 * does not hold.  A suite that shrinks a step says so in a budget: line. */
#define T_QUICK_ALLCPU_CPUS	4
bool t_allcpu_bounded(const struct test_ctx *t, unsigned ncpus);
uint64_t t_allcpu_share(const struct test_ctx *t, uint64_t work, unsigned ncpus, uint64_t min);

/* Whether the case has failed so far (t_fail, a failed t_check). */
bool t_failed(const struct test_ctx *t);

/* Ring 0 only (kernel/case_run.c).  The one way a caught ending becomes
 * the case's verdict (KUnit's model: the runner owns it).  rc and f are plat_catch()'s (kernel/platform.h):
 * PLAT_OK: nothing; PLAT_TIMEOUT: the case ends TIMEOUT, "budget of N ms
 * exceeded at rip=0x...; <restored>"; PLAT_FAULT: it fails with
 * plat_fault_describe()'s wording, "; <restored>"; anything else: it fails
 * "<what>: <plat_strerror(rc)>; <restored>".  restored says what the
 * suite's cleanup put back ("MSRs restored"), or NULL. */
void t_caught(struct test_ctx *t, int rc, const struct plat_fault *f, const char *what,
	      const char *restored);
/* True once the case has used its budget, so long loops can stop early
 * and report what they have (the hard stop comes later). */
bool t_expired(const struct test_ctx *t);

/* ---- quick: a time budget, not a sample count ----
 * In quick (unless iters= is given) each case has a sample budget of wall
 * time on the TSC (TEST_QUICK_BUDGET_MS, or the case's .quick_budget_ms), counted from the
 * case's start.  Loops sized by t_iters() stop when t_quick_spent() says
 * so (after at least one sample) and say it with t_budget_note(); cases
 * sized by time ask t_quick_budget_cycles() for their window.  Outside
 * quick both are inert (0 / false). */
uint64_t t_quick_budget_cycles(const struct test_ctx *t);
/* True once the quick sample budget is used (never outside quick). */
bool t_quick_spent(const struct test_ctx *t);
/* The earlier of the soft end of the case's budget (what t_expired()
 * tests) and, in quick, the end of the sample budget; 0 = neither. */
uint64_t t_soft_end_tsc(const struct test_ctx *t);
/* The diagnostic "budget: <what>: stopped after N of M samples (quick
 * budget X ms)"; nothing when done >= planned. */
void t_budget_note(struct test_ctx *t, const char *what, uint64_t done, uint64_t planned);

/* Measurements sharing a case's quick sample budget: each gets an equal
 * part of what is left (t_share_cycles(), from the instant it starts;
 * credit extends the budget by time not to be charged to the others),
 * and what the budget cut is tallied (t_share_took()) for one budget:
 * line, "<cut> of <runs> <unit> cut short (<how_n>)" (t_share_note()). */
struct t_share {
	unsigned left, runs, cut;
	uint64_t done, planned, credit;
};
void t_share_begin(struct t_share *s, unsigned measurements);
/* One measurement fewer to come (one that starts, or will not run). */
void t_share_skip(struct t_share *s);
/* The next measurement's share in TSC cycles from `from`: 0 when the
 * budget is spent, and outside quick on its time budget. */
uint64_t t_share_cycles(const struct test_ctx *t, const struct t_share *s, uint64_t from);
/* The same share in every profile: in quick on its budget t_share_cycles();
 * otherwise an equal part of what is left of the case's own budget (its
 * soft end, t_soft_end_tsc()), UINT64_MAX when it has none.  For
 * measurements that must fit the case's budget in full runs too (a slow
 * host then gets fewer rounds, not a TIMEOUT). */
uint64_t t_share_case_cycles(const struct test_ctx *t, const struct t_share *s, uint64_t from);
void t_share_took(struct t_share *s, uint64_t done, uint64_t planned);
void t_share_note(struct test_ctx *t, const struct t_share *s, const char *unit, const char *how_n);

/* Trials a timing loop kept (usable) of those it ran: most must be
 * usable (a dropped trial was interrupted), or, where `few` is true (a
 * short time-capped run), at least min_usable.  In quick (on its time
 * budget or with iters=) under an emulator or hypervisor min_usable is
 * enough too, with a diagnostic: a dropped trial there is the host taking
 * the vCPU away, which says nothing about the CPU, and quick's counts
 * leave no room to out-sample it (the kvm-mem case's fence.after_stores
 * kept 8 of 20 SERIALIZE trials on a loaded host).  Fails the case ("<what>: only K of N trials usable")
 * and returns false otherwise. */
bool t_check_usable(struct test_ctx *t, const char *what, size_t usable, size_t ran,
		    size_t min_usable, bool few);

/* Metrics named <suite>.<case>.<what>; samples are sorted in place.
 * extra_fmt adds key=value pairs (may be NULL). */
void t_metric_dist(struct test_ctx *t, const char *what, uint64_t *samples, size_t n,
		   const char *unit, const char *extra_fmt, ...)
	__attribute__((format(printf, 6, 7)));
void t_metric_value(struct test_ctx *t, const char *what, int64_t value, const char *unit,
		    const char *extra_fmt, ...) __attribute__((format(printf, 5, 6)));
/* A measurement the run policy left out (why: "budget"): its metric all
 * the same, "value=0 unit=<unit> measured=no skipped=<why> <extra>", so
 * that a run's metric names do not depend on how fast the host was
 * (ringlab-report compare, the compare-seeds case). */
void t_metric_not_run(struct test_ctx *t, const char *what, const char *unit, const char *why,
		      const char *extra_fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
