/* SPDX-License-Identifier: GPL-2.0-only */
/* Catch-point bookkeeping; the register save/restore is in catch.asm. */
#include <stddef.h>
#include "arch/x86/catch.h"
#include "arch/x86/trapnr.h"
#include "arch/x86/irq_eoi.h"
#include "arch/x86/cpu.h"
#include "arch/x86/regs.h"
#include "arch/x86/percpu.h"

_Static_assert(offsetof(struct catch_frame, rflags) == 64 &&
	       offsetof(struct catch_frame, armed) == 72, "catch.asm offsets");

void catch_push(struct catch_frame *f, enum catch_kind kind)
{
	struct percpu *c = this_cpu();

	f->kind = kind;
	f->armed = 0;
	f->vector = -1;
	f->error_code = 0;
	f->fault_rip = 0;
	f->cr2 = 0;
	f->prev = c->catch_top;
	barrier();
	c->catch_top = f;
}

void catch_pop(struct catch_frame *f)
{
	struct percpu *c = this_cpu();

	/* Pop f and anything a callee left above it. */
	struct catch_frame *p = c->catch_top;

	while (p && p != f)
		p = p->prev;
	if (p)
		c->catch_top = f->prev;
}

struct catch_frame *catch_find(enum catch_kind kind)
{
	for (struct catch_frame *f = this_cpu()->catch_top; f; f = f->prev)
		if (f->kind == kind && f->armed)
			return f;
	return 0;
}

void catch_deliver(struct regs *r, struct catch_frame *f, int vector, bool from_irq)
{
	struct percpu *c = this_cpu();
	int keep = from_irq ? 1 : 0;

	for (; c->irq_depth > keep; c->irq_depth--)
		irq_eoi();
	/* the exception or NMI being handled ends with this resume */
	c->exc_depth = 0;
	c->catch_top = f->prev;
	f->vector = vector;
	f->error_code = (vector >= 0 && vector < 32) ? r->error_code : 0;
	f->fault_rip = r->rip;
	f->cr2 = vector == X86_TRAP_PF ? read_cr2() : 0;
	r->rip = (uint64_t)(uintptr_t)catch_resume;
	r->rdi = (uint64_t)(uintptr_t)f;
	r->rsp = f->rsp;
	r->rflags = f->rflags;
}

void catch_throw(struct catch_frame *f, int vector)
{
	struct percpu *c = this_cpu();

	c->catch_top = f->prev;
	f->vector = vector;
	f->error_code = 0;
	f->fault_rip = (uint64_t)(uintptr_t)__builtin_return_address(0);
	f->cr2 = 0;
	/* catch_resume restores f's registers and stack and returns 1 from
	 * catch_enter; no IRET is needed outside an interrupt. */
	__asm__ volatile("mov %0, %%rdi; jmp catch_resume" : : "r"(f) : "rdi", "memory");
	__builtin_unreachable();
}
