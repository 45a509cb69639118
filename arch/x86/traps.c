/* SPDX-License-Identifier: GPL-2.0-only */
/* Interrupt and exception dispatch; see traps.h. */
#include "arch/x86/traps.h"
#include "arch/x86/trapnr.h"
#include "arch/x86/irq_eoi.h"
#include "arch/x86/catch.h"
#include "arch/x86/cpu.h"
#include "arch/x86/vectors.h"
#include "arch/x86/log.h"
#include "arch/x86/percpu.h"
#include "lib/printf.h"

static irq_handler_t irq_handlers[256];
static bool (*nmi_tick)(void);

void nmi_register_tick(bool (*fn)(void))
{
	__atomic_store_n(&nmi_tick, fn, __ATOMIC_RELEASE);
}

static const struct {
	const char *mnemonic, *name;
} exc_names[X86_TRAP_NR] = {
	[X86_TRAP_DE] = { "#DE", "divide error" },	[X86_TRAP_DB] = { "#DB", "debug" },
	[X86_TRAP_NMI] = { "NMI", "non-maskable interrupt" }, [X86_TRAP_BP] = { "#BP", "breakpoint" },
	[X86_TRAP_OF] = { "#OF", "overflow" },		[X86_TRAP_BR] = { "#BR", "bound range" },
	[X86_TRAP_UD] = { "#UD", "invalid opcode" },	[X86_TRAP_NM] = { "#NM", "device not available" },
	[X86_TRAP_DF] = { "#DF", "double fault" },	[X86_TRAP_OLD_MF] = { "#CSO", "coprocessor segment overrun" },
	[X86_TRAP_TS] = { "#TS", "invalid TSS" },	[X86_TRAP_NP] = { "#NP", "segment not present" },
	[X86_TRAP_SS] = { "#SS", "stack fault" },	[X86_TRAP_GP] = { "#GP", "general protection" },
	[X86_TRAP_PF] = { "#PF", "page fault" },	[X86_TRAP_SPURIOUS] = { "#15", "reserved" },
	[X86_TRAP_MF] = { "#MF", "x87 floating point" },	[X86_TRAP_AC] = { "#AC", "alignment check" },
	[X86_TRAP_MC] = { "#MC", "machine check" },	[X86_TRAP_XF] = { "#XM", "SIMD floating point" },
	[X86_TRAP_VE] = { "#VE", "virtualization" },	[X86_TRAP_CP] = { "#CP", "control protection" },
	[22] = { "#22", "reserved" },		[23] = { "#23", "reserved" },
	[24] = { "#24", "reserved" },		[25] = { "#25", "reserved" },
	[26] = { "#26", "reserved" },		[27] = { "#27", "reserved" },
	[X86_TRAP_HV] = { "#HV", "hypervisor injection" }, [X86_TRAP_VC] = { "#VC", "VMM communication" },
	[X86_TRAP_SX] = { "#SX", "security" },		[31] = { "#31", "reserved" },
};

const char *exception_mnemonic(unsigned vector)
{
	return vector < X86_TRAP_NR ? exc_names[vector].mnemonic : "IRQ";
}

const char *exception_name(unsigned vector)
{
	return vector < X86_TRAP_NR ? exc_names[vector].name : "interrupt";
}

void irq_set_handler(unsigned vector, irq_handler_t fn)
{
	if (vector < 256)
		__atomic_store_n(&irq_handlers[vector], fn, __ATOMIC_RELEASE);
}

unsigned irq_alloc_vector(irq_handler_t fn)
{
	for (unsigned v = VEC_DYN_FIRST; v <= VEC_DYN_LAST; v++) {
		irq_handler_t expected = 0;

		if (__atomic_compare_exchange_n(&irq_handlers[v], &expected, fn, 0,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			return v;
	}
	return 0;
}

void irq_free_vector(unsigned vector)
{
	if (vector >= VEC_DYN_FIRST && vector <= VEC_DYN_LAST)
		irq_set_handler(vector, 0);
}

static void pf_error_text(uint64_t e, char *buf, size_t size)
{
	/* SDM vol. 3 §4.7, page-fault error code. */
	rl_snprintf(buf, size, " [%s, %s%s%s%s]", (e & X86_PF_PROT) ? "protection" : "not-present",
		    (e & X86_PF_WRITE) ? "write" : "read", (e & X86_PF_USER) ? ", user" : "",
		    (e & X86_PF_RSVD) ? ", reserved-bit" : "", (e & X86_PF_INSTR) ? ", fetch" : "");
}

void exception_dump(const struct regs *r)
{
	struct percpu *c = this_cpu();
	unsigned v = (unsigned)r->vector;
	char extra[80] = "";

	if (v == X86_TRAP_PF)
		pf_error_text(r->error_code, extra, sizeof(extra));
	arch_diag("EXCEPTION %s (vector %u, %s) error=0x%llx%s on cpu %u (apic %u) during %s",
		 exception_mnemonic(v), v, exception_name(v),
		 (unsigned long long)r->error_code, extra, c->index, c->apic_id,
		 c->activity ? c->activity : "?");
	arch_diag("  rip=0x%016llx cs=0x%llx rflags=0x%llx rsp=0x%016llx ss=0x%llx",
		 (unsigned long long)r->rip, (unsigned long long)r->cs,
		 (unsigned long long)r->rflags, (unsigned long long)r->rsp,
		 (unsigned long long)r->ss);
	arch_diag("  cr2=0x%016llx cr3=0x%016llx cr0=0x%llx cr4=0x%llx",
		 (unsigned long long)read_cr2(), (unsigned long long)read_cr3(),
		 (unsigned long long)read_cr0(), (unsigned long long)read_cr4());
	arch_diag("  rax=%016llx rbx=%016llx rcx=%016llx rdx=%016llx",
		 (unsigned long long)r->rax, (unsigned long long)r->rbx,
		 (unsigned long long)r->rcx, (unsigned long long)r->rdx);
	arch_diag("  rsi=%016llx rdi=%016llx rbp=%016llx r8 =%016llx",
		 (unsigned long long)r->rsi, (unsigned long long)r->rdi,
		 (unsigned long long)r->rbp, (unsigned long long)r->r8);
	arch_diag("  r9 =%016llx r10=%016llx r11=%016llx r12=%016llx",
		 (unsigned long long)r->r9, (unsigned long long)r->r10,
		 (unsigned long long)r->r11, (unsigned long long)r->r12);
	arch_diag("  r13=%016llx r14=%016llx r15=%016llx",
		 (unsigned long long)r->r13, (unsigned long long)r->r14,
		 (unsigned long long)r->r15);
}

static void handle_exception(struct regs *r)
{
	struct percpu *c = this_cpu();
	unsigned v = (unsigned)r->vector;
	struct catch_frame *f = c->catch_top;

	if (++c->exc_depth > 1) {
		/* A fault while handling a fault: the dump path itself is
		 * broken, so say so with the least machinery and stop. */
		arch_panic_raw("fault while handling a fault", v, r->rip);
	}
	/* #DF and #MC are never "expected": state may be lost.  A fault in
	 * an IRQ handler that interrupted a quiet region is not the region's
	 * own fault either. */
	if (f && f->armed && f->kind == CATCH_QUIET && v != X86_TRAP_DF && v != X86_TRAP_MC && !c->irq_depth) {
		catch_deliver(r, f, (int)v, false);
		return;
	}
	exception_dump(r);
	if (v == X86_TRAP_DF)
		arch_panic("double fault on cpu %u", c->index);
	if (v == X86_TRAP_MC)
		arch_panic("machine check on cpu %u", c->index);
	f = catch_find(CATCH_TEST);
	if (!f)
		f = catch_find(CATCH_WORK);
	if (!f)
		arch_panic("unexpected %s outside any test on cpu %u at rip=0x%llx",
		      exception_mnemonic(v), c->index, (unsigned long long)r->rip);
	catch_deliver(r, f, (int)v, false);
}

static void handle_nmi(struct regs *r)
{
	struct percpu *c = this_cpu();
	bool (*tick)(void) = __atomic_load_n(&nmi_tick, __ATOMIC_ACQUIRE);
	bool quiet;

	c->nmi_count++;
	/* The uniprocessor watchdog's periodic NMI (kernel/nmi_watch.c)
	 * checks the case deadline here, on the boot CPU itself. */
	quiet = c->index == 0 && tick && tick();
	if (arch_panic_in_progress()) {
		/* The panicking CPU keeps reporting (a periodic NMI may still
		 * reach it); the others stop here. */
		if (c->panicking)
			return;
		halt_forever();
	}
	if (c->timeout_req) {
		/* The watcher CPU (or the periodic NMI's own check) saw this
		 * CPU's test overrun its budget with interrupts off
		 * (kernel/nmi_watch.c): unwind it as TIMEOUT.
		 * A request for an earlier case that ended meanwhile is
		 * dropped. */
		uint64_t seq = c->timeout_req;
		struct catch_frame *f = catch_find(CATCH_TEST);

		c->timeout_req = 0;
		if (seq == c->case_seq && f) {
			catch_deliver(r, f, CATCH_TIMEOUT, false);
			return;
		}
		if (!c->abort_req)
			return;
	}
	if (c->abort_req) {
		/* Another CPU gave up waiting for us (kernel/smp.c): unwind
		 * the work item we are stuck in. */
		struct catch_frame *f = catch_find(CATCH_WORK);

		c->abort_req = 0;
		if (!f)
			f = catch_find(CATCH_TEST);
		if (f)
			catch_deliver(r, f, CATCH_ABORT, false);
		else
			c->abort_req = 1;	/* nothing armed yet: stay asked */
		return;
	}
	if (quiet)
		return;		/* a periodic tick, nothing overran */
	arch_warn("nmi", "unexpected NMI on cpu %u at rip=0x%llx (count %llu)", c->index,
		 (unsigned long long)r->rip, (unsigned long long)c->nmi_count);
}

void isr_dispatch(struct regs *r)
{
	unsigned v = (unsigned)r->vector;

	if (v == X86_TRAP_NMI) {
		handle_nmi(r);
		return;
	}
	if (v < VEC_EXCEPTIONS_END) {
		handle_exception(r);
		return;
	}
	struct percpu *c = this_cpu();

	if (v == VEC_SPURIOUS) {
		/* A spurious APIC interrupt sets no ISR bit: no EOI
		 * (SDM vol. 3 §11.9). */
		c->spurious_count++;
		return;
	}
	if (v >= VEC_PIC_BASE && v < VEC_PIC_END) {
		/* The 8259s are masked; what still arrives is their spurious
		 * IRQ7/15, which must not get an APIC EOI either. */
		c->pic_spurious_count++;
		return;
	}
	irq_handler_t h = __atomic_load_n(&irq_handlers[v], __ATOMIC_ACQUIRE);

	c->irq_depth++;
	if (h)
		h(r);
	else
		c->stray_irq_count++;
	c->irq_depth--;
	irq_eoi();
}
