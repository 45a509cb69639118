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
 * release spin first (by its TSC), ties, and how many iterations had a
 * thread leave the spin later than late_cycles after the release instant
 * (it was not spinning at the instant: the start was not simultaneous). */
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
/* "balanced" when at least LITMUS_START_MIN iterations ran, at most 1 in
 * 10 had a late thread, and no thread was first in more than 9 of 10
 * untied iterations; else "lopsided" (with why), or "too-few" below
 * LITMUS_START_MIN iterations. */
#define LITMUS_START_MIN	20
const char *litmus_start_verdict(const struct litmus_start *s, char *why, size_t size);

/* ---- is a barrier ordering store -> load?  ----
 *
 * SB with thread A's barrier under test and thread B fenced by MFENCE:
 * the relaxed outcome r0=0,r1=0 needs A's load to pass A's store, so it
 * is seen only if the barrier does not drain the store buffer.  The
 * rule:
 *   no iterations                    -> no-data
 *   any invalid read                 -> harness-broken
 *   relaxed outcome seen n > 0 times -> not-serializing (n of N)
 *   relaxed outcome never seen, this run started balanced (balanced:
 *   litmus_start_verdict() said so; a lopsided run does not overlap the
 *   threads the way the control's did), and the control (the same shape
 *   with no barrier) predicts at least LITMUS_MIN_EXPECTED hits in N
 *   iterations                       -> serializing-not-observed-to-fail
 *   otherwise                        -> inconclusive (the control did not
 *                                       fire often enough for "never" to
 *                                       mean anything)
 * expected (hits the control's rate predicts for N iterations, x1000) is
 * returned when the pointer is not NULL. */
enum litmus_verdict {
	LITMUS_V_NO_DATA,
	LITMUS_V_HARNESS_BROKEN,
	LITMUS_V_NOT_SERIALIZING,
	LITMUS_V_INCONCLUSIVE,
	LITMUS_V_NOT_OBSERVED,
};
#define LITMUS_MIN_EXPECTED	3
enum litmus_verdict litmus_barrier_verdict(const struct litmus_tally *t, unsigned relaxed,
					   const struct litmus_tally *control, bool balanced,
					   uint64_t *expected_x1000);
const char *litmus_verdict_name(enum litmus_verdict v);
/* One verdict from two shapes' verdicts on the same barrier: harness-broken
 * over not-serializing over serializing-not-observed-to-fail over
 * inconclusive over no-data (one shape seeing the relaxed outcome is
 * enough to call it not serializing; "not observed" needs one shape
 * whose control made "never" mean something). */
enum litmus_verdict litmus_verdict_combine(enum litmus_verdict a, enum litmus_verdict b);

/* MSR numbers of the WRMSR variants (SDM vol. 4 ch. 2): the same values
 * as arch/x86/msr.h, which a hosted suite may not include; the host unit
 * test checks that they agree. */
#define LITMUS_MSR_APICBASE		0x0000001bu
#define LITMUS_MSR_APICBASE_EXTD	(1ull << 10)	/* x2APIC mode */
#define LITMUS_MSR_TSC_DEADLINE		0x000006e0u
#define LITMUS_MSR_X2APIC_TPR		0x00000808u
#define LITMUS_MSR_KERNEL_GS_BASE	0xc0000102u

#endif
