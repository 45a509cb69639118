/* Outcome bookkeeping for litmus tests (tests/litmus.c), pure so host unit
 * tests cover it (tests/host/test_litmus.c).
 *
 * A test reads up to LITMUS_MAX_REGS registers per iteration, each 0 or 1;
 * an outcome is the bit vector (register i in bit i).  Every iteration is
 * counted under its outcome; a register that read anything else is
 * counted as invalid (a torn or stale value from an earlier iteration
 * means the harness, not the CPU, is broken). */
#ifndef RINGLAB_LIB_LITMUS_H
#define RINGLAB_LIB_LITMUS_H

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

#endif
