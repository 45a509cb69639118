/* SPDX-License-Identifier: GPL-2.0-only */
/* Running one case in the kernel: its budget, the catch point that turns a
 * fault, a watchdog stop or an NMI stop into the case's result, its
 * deferred actions (t_defer, kernel/test.h), and the cleanup that leaves
 * the machine as the next case expects it; plus the catch point a case
 * opens inside itself (plat_catch, kernel/platform.h).  The hosted build's
 * counterpart is tools/hosted/platform_linux.c. */
#include "kernel/test.h"
#include "arch/x86/apic.h"
#include "arch/x86/apic_timer.h"
#include "arch/x86/catch.h"
#include "arch/x86/cpu.h"
#include "arch/x86/percpu.h"
#include "arch/x86/trapnr.h"
#include "arch/x86/traps.h"
#include "arch/x86/tsc_read.h"
#include "arch/x86/vectors.h"
#include "kernel/apic_mode.h"
#include "kernel/kernel.h"
#include "kernel/mm.h"
#include "kernel/nmi_watch.h"
#include "kernel/smp.h"
#include "lib/printf.h"
#include "lib/string.h"

int plat_fault_describe(const struct plat_fault *f, char *buf, size_t size)
{
	char extra[64] = "";

	if (f->vector < 0)
		return rl_snprintf(buf, size, "stopped at rip=0x%llx", (unsigned long long)f->rip);
	if (f->vector == X86_TRAP_PF)
		rl_snprintf(extra, sizeof(extra), " cr2=0x%llx", (unsigned long long)f->cr2);
	return rl_snprintf(buf, size, "unexpected %s (vector %d, %s) error=0x%llx at rip=0x%llx%s",
			   exception_mnemonic((unsigned)f->vector), f->vector,
			   exception_name((unsigned)f->vector), (unsigned long long)f->error_code,
			   (unsigned long long)f->rip, extra);
}

/* A case timed out: the runner's one wording, "budget of N ms
 * exceeded<how> at rip=0x...".  Keeps the first reason of a case that already
 * timed out. */
static void case_timeout(struct test_ctx *t, const char *how, uint64_t rip, const char *restored)
{
	if (t->result == RES_TIMEOUT)
		return;
	t->result = RES_TIMEOUT;
	rl_snprintf(t->reason, sizeof(t->reason), "budget of %llu ms exceeded%s at rip=0x%llx%s%s",
		    (unsigned long long)t->budget_ms, how ? how : "",
		    (unsigned long long)rip, restored ? "; " : "", restored ? restored : "");
}

void t_caught(struct test_ctx *t, int rc, const struct plat_fault *f, const char *what,
	      const char *restored)
{
	char d[160];

	if (rc == PLAT_OK)
		return;
	if (rc == PLAT_TIMEOUT) {
		case_timeout(t, NULL, f->rip, restored);
	} else if (rc == PLAT_FAULT) {
		plat_fault_describe(f, d, sizeof(d));
		t_fail(t, "%s%s%s", d, restored ? "; " : "", restored ? restored : "");
	} else {
		t_fail(t, "%s: %s%s%s", what ? what : "the guarded region", plat_strerror(rc),
		       restored ? "; " : "", restored ? restored : "");
	}
}

static void fault_of(const struct catch_frame *c, struct plat_fault *f)
{
	f->vector = c->vector;
	f->error_code = c->error_code;
	f->rip = c->fault_rip;
	f->cr2 = c->cr2;
}

/* ---- plat_catch ----
 * Two frames per level: a CATCH_TEST one, which the watchdog (arch/x86/
 * apic_timer.c) and the NMI stop (arch/x86/traps.c handle_nmi) find
 * before the case's own, and with PLAT_CATCH_QUIET a CATCH_QUIET one
 * inside it, which takes the body's exceptions without a dump.  Static:
 * the frame outlives anything the unwound code left on the stack. */
static struct {
	struct catch_frame outer, quiet;
} catch_frames[PLAT_CATCH_DEPTH];
static unsigned catch_depth;
/* The one grace period a case gets after its first caught timeout: later
 * timeouts (a retry, a nested level) keep this deadline, so the grace is a
 * bound and not a fresh second per catch.  0 = none yet; plat_run_case
 * clears it. */
static uint64_t case_grace_end;

int plat_catch(plat_fn body, void *arg, unsigned flags, struct plat_fault *f)
{
	if (plat_this_cpu() != 0 || !catch_find(CATCH_TEST) || catch_depth == PLAT_CATCH_DEPTH)
		return PLAT_INVALID;
	const unsigned level = catch_depth++;
	struct catch_frame *o = &catch_frames[level].outer, *q = &catch_frames[level].quiet;
	volatile int rc = PLAT_OK;
	bool rearm = false;

	memset(f, 0, sizeof(*f));
	f->vector = -1;
	/* The frame records interrupts off, so a resume lands with them off:
	 * after an NMI stop of a body spinning with interrupts off, the
	 * watchdog interrupt pending since the deadline must not be taken
	 * before the budget is re-armed below (it would find the case's own
	 * frame and end the case). */
	uint64_t irqs = irq_save();

	catch_push(o, CATCH_TEST);
	if (catch_enter(o) == 0) {
		irq_restore(irqs);
		if (flags & PLAT_CATCH_QUIET) {
			catch_push(q, CATCH_QUIET);
			if (catch_enter(q) == 0) {
				body(arg);
				catch_pop(q);
			} else {
				rc = PLAT_FAULT;
				fault_of(q, f);
			}
		} else {
			body(arg);
		}
		catch_pop(o);
	} else if (o->vector == CATCH_CASE_ABORT) {
		/* t_abort() in the body: the case ends, as it would without
		 * this catch point */
		catch_depth = level;
		irq_restore(irqs);
		plat_abort_case();
	} else if (o->vector == CATCH_TIMEOUT || o->vector == CATCH_ABORT) {
		rc = o->vector == CATCH_TIMEOUT ? PLAT_TIMEOUT : PLAT_ABORTED;
		f->rip = o->fault_rip;
		if (rc == PLAT_TIMEOUT) {
			/* the budget is spent: the rest of the case (its
			 * restore and report) gets a short one of its own,
			 * so that it too cannot hang */
			if (!case_grace_end)
				case_grace_end = lfence_rdtsc() +
						 plat_ms_to_cycles(PLAT_CATCH_GRACE_MS);
			this_cpu()->timeout_by = 0;
			watchdog_arm(case_grace_end);
			rearm = true;
		}
	} else {
		rc = PLAT_FAULT;
		fault_of(o, f);
	}
	catch_depth = level;
	irq_restore(irqs);
	/* the NMI watch too (it may restart the watcher's tick by a
	 * cross-CPU call, which is why interrupts are back first) */
	if (rearm)
		nmi_watch_case_begin(case_grace_end);
	return rc;
}

/* ---- the case ---- */

/* The case's deferred actions, each under a catch point and a budget of
 * its own: one that faults or hangs fails the case and the next one
 * still runs (t_defer_run forgets each before calling it). */
static void defer_failed(struct test_ctx *t, const char *why)
{
	/* a timeout or an earlier failure keeps its result line */
	if (t->result == RES_TIMEOUT || t->result == RES_FAIL) {
		t_diag(t, "also failed: %s", why);
		t->failures++;
	} else {
		t_fail(t, "%s", why);
	}
}

static void run_deferred(struct test_ctx *t)
{
	static struct catch_frame df;	/* static: survives the resume */
	struct percpu *c = this_cpu();

	if (!t->ndefer)
		return;
	while (t->ndefer) {
		/* The case, or an earlier action, may have claimed the
		 * watchdog's timer (timer_claim): hand it back so the budget
		 * below is enforced. */
		timer_release();
		uint64_t deadline = lfence_rdtsc() + plat_ms_to_cycles(T_DEFER_BUDGET_MS);

		c->timeout_by = 0;
		nmi_watch_case_begin(deadline);
		sti();
		watchdog_arm(deadline);
		catch_push(&df, CATCH_TEST);
		if (catch_enter(&df) == 0) {
			t_defer_run(t);
			catch_pop(&df);
		} else if (df.vector == CATCH_CASE_ABORT) {
			/* t_abort() in a deferred action: it recorded why */
		} else {
			struct plat_fault f;
			char d[160], why[200];

			fault_of(&df, &f);
			if (df.vector == CATCH_TIMEOUT)
				rl_snprintf(d, sizeof(d), "overrunning its %u ms at rip=0x%llx",
					    T_DEFER_BUDGET_MS, (unsigned long long)df.fault_rip);
			else
				plat_fault_describe(&f, d, sizeof(d));
			rl_snprintf(why, sizeof(why), "a deferred action (t_defer) ended by %s", d);
			defer_failed(t, why);
		}
		watchdog_disarm();
	}
}

void t_budget_restart(struct test_ctx *t, unsigned ms)
{
	t->budget_ms = ms;
	t->deadline_tsc = lfence_rdtsc() + plat_ms_to_cycles(ms);
	nmi_watch_case_begin(t->deadline_tsc);
	watchdog_arm(t->deadline_tsc);
}

void plat_run_case(struct test_ctx *t)
{
	struct percpu *c = this_cpu();
	struct mm_mark mark = mm_mark();
	struct catch_frame f;

	c->activity = t->full_name;
	c->timeout_by = 0;
	case_grace_end = 0;
	nmi_watch_case_begin(t->deadline_tsc);
	sti();
	if (t->deadline_tsc)
		watchdog_arm(t->deadline_tsc);
	catch_push(&f, CATCH_TEST);
	if (catch_enter(&f) == 0) {
		t->tc->fn(t);
		catch_pop(&f);
	} else if (f.vector == CATCH_CASE_ABORT) {
		/* t_abort(): the case recorded why it stopped */
		if (t->result != RES_FAIL) {
			t->result = RES_FAIL;
			rl_snprintf(t->reason, sizeof(t->reason), "case aborted");
		}
	} else if (f.vector == CATCH_TIMEOUT && c->timeout_by == TIMEOUT_BY_PERIODIC_NMI) {
		case_timeout(t, " with interrupts off; stopped by the periodic I/O APIC NMI (no watcher cpu)",
			     f.fault_rip, NULL);
	} else if (f.vector == CATCH_TIMEOUT && c->timeout_by) {
		char how[96];

		rl_snprintf(how, sizeof(how), " with interrupts off; stopped by an NMI from watcher cpu %u",
			    c->timeout_by);
		case_timeout(t, how, f.fault_rip, NULL);
	} else if (f.vector == CATCH_TIMEOUT) {
		case_timeout(t, "; stopped by the watchdog", f.fault_rip, NULL);
	} else {
		struct plat_fault pf;

		fault_of(&f, &pf);
		t->result = RES_FAIL;
		plat_fault_describe(&pf, t->reason, sizeof(t->reason));
	}
	/* However the case ended: its own cleanup first (t_defer). */
	run_deferred(t);
	nmi_watch_case_end();
	watchdog_disarm();
	/* Leave the machine as the next case expects it, whatever this one
	 * did or was interrupted doing. */
	sti();
	plat_counters_close();	/* PMU MSRs back as they were */
	timer_release();
	watchdog_disarm();
	if (apic_mode != APIC_MODE_NONE)
		apic_write(APIC_TASKPRI, 0);
	smp_quiesce();
	if (apic_mode != apic_boot_mode) {
		char why[120];

		if (!smp_set_apic_mode(apic_boot_mode, why, sizeof(why)))
			rep_error("apic", "could not restore %s mode after %s: %s",
				  apic_mode_name(apic_boot_mode), t->full_name, why);
	}
	for (unsigned v = VEC_DYN_FIRST; v <= VEC_DYN_LAST; v++)
		irq_free_vector(v);
	mm_release(mark);
	platform_mem_case_end();	/* its big block went with the rewind */
	c->activity = "runner";
}
