/* SPDX-License-Identifier: GPL-2.0-only */
/* spec: what the suite's files share (suites/spec/).
 *
 *   suite.c    the suite, and the list of its cases in run order
 *   measure.c  the timing bracket, its overhead, the samples, the answers
 *   guard.c    saved MSRs, their restore, and the guarded region
 *   caps.c     what the CPU has: the CPUID bits and the skip reasons,
 *              RTM usability, the SPEC_CTRL toggle pair
 *   ops.c      each operation timed alone: cases spec_ctrl, bhb_clear,
 *              tsx_abort, verw, ibpb, l1d_flush
 *   immed.c    case immed_arm: the TSC-deadline arm alone and after each
 *   restore.c  cases restore_after_fault, restore_after_timeout
 *
 * What the suite measures: the speculation-control operations' cost in
 * ring 0.  The seed (Linux "x86/bhi: avoid hardware mitigation for
 * 'spectre_bhi=vmexit'") timed kvm-unit-tests' `vmexit tscdeadline_immed`
 * in a guest on a Xeon Gold 6442Y: 3153 cycles per exit with no extra
 * work, 3878 with IA32_SPEC_CTRL toggled on every exit (BHI_DIS_S set in
 * the host, clear in the guest), 3629 with the long BHB-clearing loop,
 * 3294 with the TSX-abort sequence.  This suite measures the raw cost of
 * each of those operations with no hypervisor in between, and an
 * immediate TSC-deadline arm alone and right after each, so the log holds
 * a ring-0 version of that table (docs/suites.md, "Speculation-control costs (`spec`)").
 *
 * Cases, each skipped with the CPUID bit it lacks:
 *   spec_ctrl    WRMSR IA32_SPEC_CTRL, same value and toggling two values
 *   bhb_clear    the 5x5 and 12x7 BHB-clearing loops (spec_seq.asm)
 *   tsx_abort    XBEGIN; XABORT (RTM, when a transaction can commit)
 *   verw         VERW m16 with the kernel data selector (MD_CLEAR)
 *   ibpb         WRMSR IA32_PRED_CMD.IBPB
 *   l1d_flush    WRMSR IA32_FLUSH_CMD.L1D_FLUSH
 *   immed_arm    WRMSR IA32_TSC_DEADLINE with a deadline already past,
 *                not waiting for the interrupt, alone and after each of
 *                the above: the arm of kvm-unit-tests' tscdeadline_immed
 *                path only (that loop also takes the interrupt, which
 *                tscdeadline.immediate times from the WRMSR to the
 *                handler).
 *   restore_after_fault, restore_after_timeout: controls for the MSR
 *                restore path (below).
 *
 * Method: each sample is LFENCE;RDTSC - operation - LFENCE;RDTSC with
 * interrupts off; the bracket's own cost, the median of 64 empty pairs
 * (t_overhead_measure, kernel/test.h), is subtracted, and every timing
 * metric names it (overhead=bracket-median:lfence-rdtsc overhead_cycles=
 * overhead_n=).  Results carry env= as in # id.env (plat_env()): under a
 * hypervisor or emulator an MSR write may be a VM exit or emulated, and
 * nothing measured there is the hardware's cost.
 *
 * MSRs: every MSR a case changes is saved first and written back when the
 * case ends, also when it faulted or overran its budget: the first save
 * registers the restore with t_defer(), and the measurement runs under a
 * catch point of its own (plat_catch(), in spec_guarded()), which the
 * fault and watchdog paths find before the runner's, so the restore runs
 * and is printed ("restore: ...") before the case reports (t_defer_run()).
 * restore_after_fault (a deliberate UD2, caught without the exception
 * dump) and restore_after_timeout (a deliberate overrun of a 2 s budget,
 * 20 ms in quick; its set-up runs inside the guarded region and prints
 * nothing until the overrun is over, and a stop that still comes before
 * the MSR was changed is reported as not exercised) show that path
 * working. */
#ifndef RINGLAB_TESTS_SPEC_SPEC_H
#define RINGLAB_TESTS_SPEC_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "kernel/test.h"
#include "kernel/platform.h"

/* The suite record (suite.c), for the TEST()s of the job files. */
SUITE_EXTERN(spec);

/* ---- measure.c: environment and timing ---- */

#define METHOD "method=lfence-rdtsc-pair-irqs-off"

/* The empty LFENCE;RDTSC pair's cost, this case, and its text for the
 * metrics' extra fields (spec_measure_overhead() sets both). */
extern struct t_overhead spec_overhead;
extern char spec_overhead_text[120];

void spec_say_env(struct test_ctx *t);
/* The spec_cost answer: one phrase per measurement, its p50 (the samples
 * are sorted by t_metric_dist, which must come first). */
void spec_answer_cost(struct test_ctx *t, const char *what, const char *label, const uint64_t *s,
		      size_t n);
void spec_measure_overhead(void);
size_t spec_iters(struct test_ctx *t);
uint64_t *spec_samples(struct test_ctx *t, size_t n);

/* quick without iters=: the case's sample budget, shared equally by the
 * measurements it makes (spec_budget_begin(t, how many); a measurement
 * that will not run calls spec_budget_skip()).  Each one takes up to its
 * planned n samples and stops, after at least SPEC_MIN_SAMPLES, once its
 * share is spent; spec_budget_note() prints one `# budget:` line for the
 * case if any was cut (each metric's n= is its count).  Outside that
 * mode the shares are 0 and every measurement takes all n. */
#define SPEC_MIN_SAMPLES	8
/* quick: restore_after_timeout overruns a budget of this many ms, re-armed
 * once its MSR is changed */
#define SPEC_QUICK_OVERRUN_MS	20
void spec_budget_begin(struct test_ctx *t, unsigned measurements);
void spec_budget_skip(void);
uint64_t spec_budget_end(void);
void spec_budget_took(size_t done, size_t planned);
void spec_budget_note(struct test_ctx *t);

/* One sample per call of op(arg, i): LFENCE;RDTSC around it, interrupts
 * off; the bracket's overhead removed afterwards.  Always inlined with a
 * constant op, so no indirect call lands in the window (it would be an
 * indirect branch, which IBRS itself slows).  Returns how many samples it
 * took (n, or fewer when the quick budget cut it). */
static inline __attribute__((always_inline)) size_t sample_op(uint64_t *s, size_t n,
							       void (*op)(void *arg, size_t i),
							       void *arg)
{
	uint64_t end = spec_budget_end();
	size_t i;

	for (i = 0; i < n; i++) {
		if (end && i >= SPEC_MIN_SAMPLES && lfence_rdtsc() >= end)
			break;
		uint64_t flags = plat_irq_save();
		uint64_t t0 = lfence_rdtsc();

		op(arg, i);
		uint64_t t1 = lfence_rdtsc();

		plat_irq_restore(flags);
		s[i] = t1 - t0;
	}
	t_overhead_remove(&spec_overhead, s, i);
	spec_budget_took(i, n);
	return i;
}

/* ---- guard.c: saved MSRs and the guarded region ---- */

/* Read and remember an MSR this case is about to change; the first one
 * registers the restore. */
bool spec_msr_save(struct test_ctx *t, uint32_t msr, const char *name);
/* The same; with say=false without its "save:" line (a case that prints
 * the saved value later, outside a timed window). */
bool spec_msr_save_ex(struct test_ctx *t, uint32_t msr, const char *name, bool say);
uint64_t spec_saved_value(uint32_t msr);

enum expect { EXPECT_RETURN, EXPECT_FAULT, EXPECT_TIMEOUT };

/* How a guarded region ended, when not by an exception (whose vector,
 * X86_TRAP_*, is returned instead). */
#define ENDED_RETURN	-1
#define ENDED_TIMEOUT	-2	/* the budget ran out (watchdog or NMI stop) */
#define ENDED_OTHER	-3	/* plat_catch() could not run or was aborted */
/* How a region ended, in words: "returning (-1)", "the budget running out
 * (-2)", "#GP (vector 13)", ... */
const char *spec_ended_name(int how, char *buf, size_t size);

/* Run body(t, arg) under a catch point of its own (plat_catch); whatever
 * way it ends, the saved MSRs are restored (t_defer_run) before this
 * returns.  Returns how it ended: ENDED_RETURN, ENDED_TIMEOUT, or the
 * exception vector. */
int spec_guarded(struct test_ctx *t, void (*body)(struct test_ctx *t, void *arg), void *arg,
		 enum expect expect);

/* ---- caps.c: what the CPU has ---- */

bool spec_has_spec_ctrl(void);
bool spec_has_ibpb(void);
bool spec_has_verw_clear(void);
/* The skip reasons: the boot probe's finding where it took the feature
 * away (cpu.probes), else which CPUID bits are clear. */
const char *spec_no_spec_ctrl(void);
const char *spec_no_ibpb(void);
const char *spec_no_verw(void);
const char *spec_no_l1d(void);
/* RTM enumerated and an empty transaction commits; else false with why. */
bool spec_rtm_usable(char *why, size_t n);
/* The two SPEC_CTRL values a toggle alternates between, and their name. */
void spec_ctrl_pair(uint64_t base, uint64_t *a, uint64_t *b, const char **what);

#endif
