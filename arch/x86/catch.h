/* SPDX-License-Identifier: GPL-2.0-only */
/* Catch points: resume execution after a fault, a timeout or an abort
 * request.  See arch/x86/catch.asm for the mechanism.
 *
 * Use through fault_catch() (arch/x86/fault.h) for expected faults and
 * through the runner for tests; direct use looks like
 *
 *	struct catch_frame f;
 *	catch_push(&f, CATCH_QUIET);
 *	if (catch_enter(&f) == 0) {
 *		... code that may fault ...
 *		catch_pop(&f);
 *	} else {
 *		... f.vector, f.error_code, f.fault_rip, f.cr2 say why ...
 *	}
 *
 * As with setjmp, locals modified between catch_enter and the resume must be
 * volatile to have defined values afterwards. */
#ifndef RINGLAB_ARCH_X86_CATCH_H
#define RINGLAB_ARCH_X86_CATCH_H

#include <stdbool.h>
#include <stdint.h>

enum catch_kind {
	CATCH_QUIET,	/* expected faults: no dump */
	CATCH_TEST,	/* a test body on the BSP: dump, then fail the test */
	CATCH_WORK,	/* a cross-CPU work item on any CPU: dump, report */
};

/* Pseudo-vectors for resumes that are not CPU exceptions. */
#define CATCH_TIMEOUT	-2
#define CATCH_ABORT	-3
#define CATCH_CASE_ABORT -4	/* catch_throw() from the code itself */

struct catch_frame {
	/* saved by catch_enter; offsets used by catch.asm */
	uint64_t rbx, rbp, r12, r13, r14, r15, rsp, rip, rflags;
	/* set by catch_enter after the registers: catch_push links the frame
	 * first, and an NMI between the two must not resume a frame that
	 * holds no registers yet */
	volatile uint64_t armed;
	/* bookkeeping */
	struct catch_frame *prev;
	enum catch_kind kind;
	/* filled in when resumed */
	int vector;		/* exception vector, or CATCH_TIMEOUT / CATCH_ABORT */
	uint64_t error_code;
	uint64_t fault_rip;
	uint64_t cr2;
};

int catch_enter(struct catch_frame *f) __attribute__((returns_twice));
void catch_resume(void);	/* only ever reached through IRET */

void catch_push(struct catch_frame *f, enum catch_kind kind);
void catch_pop(struct catch_frame *f);

struct regs;
/* Deliver a resume to f from an interrupt handler's frame: unlinks f and
 * every frame above it, records why, and rewrites *r to land in f.  IRQ
 * handlers that were running in the code being abandoned never reach
 * their EOI, so it is sent here; from_irq says the caller is itself an
 * IRQ handler (the watchdog), whose own EOI the dispatcher still sends. */
void catch_deliver(struct regs *r, struct catch_frame *f, int vector, bool from_irq);

/* Resume f from ordinary (not interrupt) context, like longjmp: unlinks f
 * and every frame above it and returns 1 from its catch_enter with
 * f->vector = vector. */
void catch_throw(struct catch_frame *f, int vector) __attribute__((noreturn));

/* The innermost armed frame of the given kind on this CPU, or NULL. */
struct catch_frame *catch_find(enum catch_kind kind);

#endif
