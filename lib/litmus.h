/* SPDX-License-Identifier: GPL-2.0-only */
/* Outcome bookkeeping for litmus tests (suites/litmus/), pure so host unit
 * tests cover it (tests/host/test_litmus.c).
 *
 * A test reads up to LITMUS_MAX_REGS registers per iteration, each 0 or 1;
 * an outcome is the bit vector (register i in bit i).  Every iteration is
 * counted under its outcome; a register that read anything else is
 * counted as invalid (a torn or stale value from an earlier iteration
 * means the harness, not the CPU, is broken). */
#ifndef RINGLAB_LIB_LITMUS_H
#define RINGLAB_LIB_LITMUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/claims.h"

#define LITMUS_MAX_REGS		4
#define LITMUS_MAX_OUTCOMES	(1u << LITMUS_MAX_REGS)

struct litmus_tally {
	unsigned nregs;
	uint64_t iters;
	uint64_t invalid;
	uint64_t count[LITMUS_MAX_OUTCOMES];
};

/* Outcome index from register values given as 0/1 bits, r0 first. */
#define LITMUS_OUTCOME2(r0, r1)		((unsigned)(r0) | (unsigned)(r1) << 1)
#define LITMUS_OUTCOME4(r0, r1, r2, r3)	(LITMUS_OUTCOME2(r0, r1) | LITMUS_OUTCOME2(r2, r3) << 2)

void litmus_tally_init(struct litmus_tally *t, unsigned nregs);
/* Count one iteration; returns its outcome, or -1 if invalid. */
int litmus_record(struct litmus_tally *t, const uint64_t *regs);
uint64_t litmus_count(const struct litmus_tally *t, unsigned outcome);
/* "r0=0,r1=0" */
void litmus_outcome_name(unsigned outcome, unsigned nregs, char *buf, size_t size);
/* Every outcome's count: "00:123,01:45,10:44,11:2" (r0 leftmost). */
void litmus_format(const struct litmus_tally *t, char *buf, size_t size);

/* ---- the balanced start ----
 *
 * Who resets what between iterations.  The old harness had CPU 0 reset
 * every shared variable after the iteration, so CPU 0 reached the next
 * start barrier last, and both lines sat in CPU 0's cache: its own
 * accesses hit while the other thread's missed.  Now each variable is
 * reset by exactly one thread, before that thread arrives at the start
 * barrier, and all threads are released together at one TSC instant.
 *   LITMUS_RESET_OWN	each variable by the thread that writes it: every
 *			thread's store hits its cache and every load of the
 *			other's variable misses (the default: closest to
 *			litmus7's rates, docs/suites.md "litmus")
 *   LITMUS_RESET_CROSS	each variable by a thread that reads it (SB: the
 *			other thread; MP: the reader; IRIW: the reader that
 *			reads it first): every store needs the line back
 *			and stays in the store buffer while the load hits,
 *			the most sensitive placement for "does this barrier
 *			drain the store buffer" (the WRMSR variants)
 * Bit v of the mask: variable v (0 = x/data, 1 = y/flag) is this
 * thread's to reset. */
enum litmus_shape { LITMUS_SHAPE_SB, LITMUS_SHAPE_MP, LITMUS_SHAPE_IRIW };
enum litmus_reset { LITMUS_RESET_OWN, LITMUS_RESET_CROSS };
#define LITMUS_MAX_THREADS	4
#define LITMUS_NVARS		2
unsigned litmus_reset_mask(enum litmus_shape s, enum litmus_reset r, unsigned tid);
/* "own-reset" / "cross-reset", for the start= field */
const char *litmus_reset_name(enum litmus_reset r);
/* How the threads started, over all iterations: which thread left the
 * release spin first (by its TSC: the value that ended its spin), ties,
 * and how many iterations had a thread leave the spin later than
 * late_cycles after the release instant (it was not spinning at the
 * instant: the start was not simultaneous). */
struct litmus_start {
	unsigned nthreads;
	uint64_t n;
	uint64_t first[LITMUS_MAX_THREADS];
	uint64_t ties;
	uint64_t late;
	uint64_t max_late;	/* cycles, the worst thread's lateness */
};
void litmus_start_init(struct litmus_start *s, unsigned nthreads);
/* One iteration: start[i] = thread i's TSC when it left the release spin. */
void litmus_start_record(struct litmus_start *s, const uint64_t *start, uint64_t release,
			 uint64_t late_cycles);

/* ---- the balance of a run: the stated bound ----
 * A run is balanced when all of these hold:
 *   - at least LITMUS_START_MIN iterations ran (else "too-few");
 *   - at most 1 in 10 had a thread leave the release spin more than the
 *     late bound after the instant;
 *   - no thread was first in more than its fair share of the untied
 *     iterations (1/k of them for k threads) by more than the share
 *     bound, litmus_over_share();
 *   - for SB whose two threads run the same instructions (the mirror
 *     tally: nofence, mfence, the _both shapes), neither one-sided
 *     outcome (r0=1,r1=0: B went first; r0=0,r1=1: A went first) exceeds
 *     half of the two by the same share bound.  These count who went
 *     first as the memory system saw it: a start that leaves one thread
 *     ahead a few tens of cycles more often than not drives them tens of
 *     times apart (a hosted run: 262 against 6) while the TSC order alone
 *     still looked even.
 * else "unbalanced", with why.  The share bound: count c of m, with fair
 * share f = m/k, is over it when c > max(4f/3, f + 3*sqrt(f)): a third
 * above the fair share (two threads: 2 to 1), or three standard
 * deviations of a fair coin's count when m is small, whichever is more,
 * so that chance alone rarely trips it (k = 2: more than 19 of 20, 71 of
 * 100, 1333 of 2000). */
#define LITMUS_START_MIN	20
enum litmus_balance { LITMUS_BALANCED, LITMUS_UNBALANCED, LITMUS_TOO_FEW };
bool litmus_over_share(uint64_t c, uint64_t m, unsigned k);
/* The most c may be: floor(max(4f/3, f + 3*sqrt(f))), at most m. */
uint64_t litmus_share_bound(uint64_t m, unsigned k);
/* mirror: the SB tally of a shape whose threads run the same
 * instructions; NULL for any other. */
enum litmus_balance litmus_balance(const struct litmus_start *s, const struct litmus_tally *mirror,
				   char *why, size_t size);
/* "balanced" / "unbalanced" / "too-few", for the balance= field */
const char *litmus_balance_name(enum litmus_balance b);

/* ---- is a barrier ordering store -> load?  ----
 *
 * SB with thread A's barrier under test (and thread B fenced by MFENCE,
 * or running the same barrier): the relaxed outcome r0=0,r1=0 needs A's
 * load to pass A's store, so it is seen only if the barrier does not
 * drain the store buffer.  A "never" needs n samples from a balanced run
 * (at least LITMUS_MIN_N, lib/claims.h's bound) and a control that makes
 * it mean something: one that predicts at least LITMUS_MIN_EXPECTED
 * sightings in n (its rate in its own balanced run, scaled to n).
 *
 * litmus_barrier_verdict: the control is the same shape with no barrier
 * (the MFENCE;LFENCE;WRMSR references):
 *   no iterations                    -> no-data
 *   any invalid read                 -> harness-broken
 *   relaxed outcome seen n > 0 times -> not-serializing (n of N)
 *   never seen, balanced, N >= LITMUS_MIN_N and the control predicts
 *   >= LITMUS_MIN_EXPECTED           -> serializing-not-observed-to-fail
 *   otherwise                        -> inconclusive
 * expected (hits the control's rate predicts for N iterations, x1000) is
 * returned when the pointer is not NULL. */
enum litmus_verdict {
	LITMUS_V_NO_DATA,
	LITMUS_V_HARNESS_BROKEN,
	LITMUS_V_NOT_SERIALIZING,
	LITMUS_V_INCONCLUSIVE,
	LITMUS_V_NOT_OBSERVED,
	LITMUS_V_DELAY_ALIKE,
};
#define LITMUS_MIN_EXPECTED	(CLAIM_MIN_EXPECTED_X10 / 10)
#define LITMUS_MIN_N		CLAIM_MIN_N
enum litmus_verdict litmus_barrier_verdict(const struct litmus_tally *t, unsigned relaxed,
					   const struct litmus_tally *control, bool balanced,
					   uint64_t *expected_x1000);
/* Hits control's rate predicts in n iterations, x1000 (0 when control is
 * NULL, empty or of another register count). */
uint64_t litmus_expected_x1000(const struct litmus_tally *control, unsigned outcome, uint64_t n);

/* litmus_wrmsr_verdict: a WRMSR as the barrier, against the run that
 * matters for "serializing": the same shape whose barrier is a delay as
 * long as the WRMSR (a dependent ALU chain the load's address waits
 * for: it stalls the load, it drains nothing).  A WRMSR that only
 * stalls the load for about as long as the store takes to drain
 * suppresses r0=0,r1=0 just as a serializing one does; only a WRMSR
 * that suppresses it where the delay does not is serializing.  For a
 * WRMSR with side effects (the x2APIC ICR sends an IPI), also the
 * late-store control: the WRMSR first, then the store and the load, which
 * must still show the outcome.  A control counts only from a balanced
 * run (delay_balanced, late_balanced).
 *   no iterations / invalid read / relaxed seen: as above
 *   WRMSR run not balanced, or N < LITMUS_MIN_N -> inconclusive
 *   every control predicts >= LITMUS_MIN_EXPECTED in N (the delay and,
 *   when given, the late store)      -> serializing-not-observed-to-fail
 *   the delay control ran balanced with >= LITMUS_MIN_N iterations but
 *   predicts fewer                   -> not-distinguished-from-delay (a
 *                                       stall of the WRMSR's length alone
 *                                       suppresses it as well)
 *   otherwise                        -> inconclusive
 * *expected_x1000: the weaker control's prediction; *limit: which control
 * that is (0 the delay, 1 the late store). */
enum litmus_verdict litmus_wrmsr_verdict(const struct litmus_tally *wr, bool wr_balanced,
					 const struct litmus_tally *delay, bool delay_balanced,
					 const struct litmus_tally *late, bool late_balanced,
					 unsigned relaxed, uint64_t *expected_x1000, int *limit);
const char *litmus_verdict_name(enum litmus_verdict v);
/* One verdict from two shapes' verdicts on the same barrier:
 * harness-broken over not-serializing over serializing-not-observed-to-fail
 * over not-distinguished-from-delay over inconclusive over no-data (one
 * shape seeing the relaxed outcome is enough to call it not serializing;
 * "not observed" needs one shape whose control made "never" mean
 * something). */
enum litmus_verdict litmus_verdict_combine(enum litmus_verdict a, enum litmus_verdict b);

/* ---- a claim of an answer from one run (lib/claims.h) ----
 * The run's tally t (balanced or not) and the outcome it is about; the
 * control: the same shape where the outcome must show (NULL: none ran),
 * its name (NULL: none applies) and whether its run was balanced.
 *   seen      the count in t; a sighting stands whatever the balance,
 *             with n = t's iterations
 *   n         not seen: t's iterations if its run was balanced, else 0
 *             (an unbalanced run's "not seen" is no evidence)
 *   state     fired when the control saw the outcome, else not-observed
 *             (also a control that did not run); none without a name
 *   expected  the control's rate in its run, scaled to n; 0 (unknown)
 *             when the control's run was not balanced
 * The caller sets floor. */
void litmus_claim(struct claim *c, const struct litmus_tally *t, bool balanced, unsigned outcome,
		  const struct litmus_tally *control, bool control_balanced, const char *control_name);

/* MSR numbers of the WRMSR variants (SDM vol. 4 ch. 2): the same values
 * as arch/x86/msr.h, which a hosted suite may not include; the host unit
 * test checks that they agree. */
#define LITMUS_MSR_APICBASE		0x0000001bu
#define LITMUS_MSR_APICBASE_EXTD	(1ull << 10)	/* x2APIC mode */
#define LITMUS_MSR_TSC_DEADLINE		0x000006e0u
#define LITMUS_MSR_X2APIC_TPR		0x00000808u
#define LITMUS_MSR_KERNEL_GS_BASE	0xc0000102u
#define LITMUS_MSR_X2APIC_ICR		0x00000830u
/* The ICR value the x2APIC ICR variants write: a fixed IPI to this CPU
 * (destination shorthand 01b, "self", ICR bits 19:18; SDM vol. 3A
 * "Interrupt Command Register (ICR)") on the cross-call doorbell vector
 * (arch/x86/vectors.h VEC_CALL, whose handler only returns), sent with
 * interrupts off, so that it is taken after the iteration's load, not
 * between the WRMSR and the load (an interrupt return serializes).  The
 * host unit test checks the vector against vectors.h. */
#define LITMUS_ICR_VECTOR		0xf0u
#define LITMUS_ICR_SELF			(1u << 18)
#define LITMUS_ICR_SELF_DOORBELL	((uint64_t)(LITMUS_ICR_SELF | LITMUS_ICR_VECTOR))

#endif
