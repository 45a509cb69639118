/* SPDX-License-Identifier: GPL-2.0-only */
/* spec: controls for the restore path.
 *
 * Each changes an MSR inside spec_guarded() and then faults (UD2) or overruns
 * its budget; the case checks the guard saw that ending, that the MSR had
 * really been changed, and that it holds the saved value afterwards.  The
 * MSR is IA32_SPEC_CTRL where the CPU has it; elsewhere (QEMU TCG, the
 * nested KVM here) IA32_KERNEL_GS_BASE stands in: it exists in every
 * 64-bit CPU and ringlab never executes SWAPGS, so changing it for a
 * moment is harmless, and the restore path is the same code. */
#include "suites/spec/spec.h"
#include "kernel/test.h"
#include "kernel/platform.h"
#include "arch/x86/cpu.h"
#include "arch/x86/msr.h"
#include "arch/x86/trapnr.h"

static struct {
	uint32_t msr;
	const char *name;
	uint64_t orig;
	volatile uint64_t changed_to;
	/* how far the guarded body got (a watchdog stop unwinds it at any
	 * instruction), and when */
	volatile int phase;
	volatile uint64_t entered_tsc, changed_tsc;
} ctl;

enum { PH_NONE, PH_ENTERED, PH_SAVED, PH_CHANGED, PH_SPINNING };

/* Which MSR the control changes (nothing printed: say_stand_in). */
static void control_pick(void)
{
	if (spec_has_spec_ctrl()) {
		ctl.msr = MSR_IA32_SPEC_CTRL;
		ctl.name = "IA32_SPEC_CTRL";
	} else {
		ctl.msr = MSR_KERNEL_GS_BASE;
		ctl.name = "IA32_KERNEL_GS_BASE";
	}
	ctl.phase = PH_NONE;
	ctl.entered_tsc = ctl.changed_tsc = 0;
}

static void say_stand_in(struct test_ctx *t)
{
	if (ctl.msr == MSR_IA32_SPEC_CTRL)
		return;
	/* quick: the reason is spec_ctrl's skip line; each line costs ~10 ms
	 * of console under a KVM that emulates ring 0 */
	if (t_budgeted(t))
		t_diag(t, "IA32_KERNEL_GS_BASE stands in for IA32_SPEC_CTRL (absent) in the restore path");
	else
		t_diag(t, "IA32_SPEC_CTRL absent (%s); IA32_KERNEL_GS_BASE stands in for the restore path",
		       spec_no_spec_ctrl());
}

static bool control_save(struct test_ctx *t, bool say)
{
	if (!spec_msr_save_ex(t, ctl.msr, ctl.name, say))
		return false;
	ctl.orig = ctl.changed_to = spec_saved_value(ctl.msr);
	return true;
}

/* Change the control MSR to a value different from the saved one. */
static void control_change(void)
{
	uint64_t orig = ctl.orig, v;

	if (ctl.msr == MSR_IA32_SPEC_CTRL) {
		uint64_t a, b;
		const char *what;

		spec_ctrl_pair(orig, &a, &b, &what);
		v = orig == b ? a : b;
	} else {
		v = orig ^ 0x1000;	/* stays canonical */
	}
	wrmsr(ctl.msr, v);
	ctl.changed_to = rdmsr(ctl.msr);
}

static void control_verdict(struct test_ctx *t, int how, int want, const char *ending)
{
	uint64_t orig = ctl.orig;
	uint64_t now = rdmsr(ctl.msr);

	char got[48], exp[48];

	t_check(t, how == want, "the deliberate %s ended the guarded region by %s, expected %s", ending,
		spec_ended_name(how, got, sizeof(got)), spec_ended_name(want, exp, sizeof(exp)));
	t_check(t, ctl.changed_to != orig, "control did not change %s (still 0x%llx)", ctl.name,
		(unsigned long long)orig);
	t_check(t, now == orig, "%s is 0x%llx after the %s, was 0x%llx before", ctl.name,
		(unsigned long long)now, ending, (unsigned long long)orig);
	t_diag(t, "control: %s was 0x%llx, changed to 0x%llx, then %s; now 0x%llx", ctl.name,
	       (unsigned long long)orig, (unsigned long long)ctl.changed_to, ending,
	       (unsigned long long)now);
}

static void fault_body(struct test_ctx *t, void *p)
{
	(void)t;
	(void)p;
	control_change();
	__asm__ volatile("ud2");
}

TEST(spec, restore_after_fault, .order = 80)
{
	control_pick();
	say_stand_in(t);
	if (!control_save(t, true))
		return;
	t_diag(t, "control: %s is changed, then UD2 (an expected #UD: caught without the exception dump)",
	       ctl.name);
	int how = spec_guarded(t, fault_body, 0, EXPECT_FAULT);

	control_verdict(t, how, X86_TRAP_UD, "UD2");
}

/* Everything before the overrun runs inside the guarded region and
 * prints nothing; in quick the budget is re-armed to 20 ms once the MSR
 * is changed, so it is spent in the overrun, not in set-up.  A stop that
 * still comes before the MSR was changed (a host that stalled the vCPU
 * for the whole budget) is told apart from the overrun below. */
static void timeout_body(struct test_ctx *t, void *p)
{
	(void)p;
	ctl.entered_tsc = lfence_rdtsc();
	ctl.phase = PH_ENTERED;
	if (!control_save(t, false))
		return;
	ctl.phase = PH_SAVED;
	control_change();
	ctl.changed_tsc = lfence_rdtsc();
	ctl.phase = PH_CHANGED;
	/* not when timeout= set the budget: the user's budget stands */
	if (t_quick(t) && !t->budget_given)
		t_budget_restart(t, SPEC_QUICK_OVERRUN_MS);
	/* spin past the budget with interrupts on; bounded (3 s past the
	 * deadline) in case the watchdog never fires (then the control fails) */
	uint64_t end = t->deadline_tsc + plat_ns_to_cycles(3000000000ull), now = rdtsc_ordered();

	ctl.phase = PH_SPINNING;
	(void)plat_spin_until(false, now < end ? plat_cycles_to_ns(end - now) / 1000 : 0);
}

static uint64_t us_into(const struct test_ctx *t, uint64_t tsc)
{
	return tsc > t->start_tsc ? plat_cycles_to_ns(tsc - t->start_tsc) / 1000 : 0;
}

/* quick: the overrun is of a 20 ms budget, re-armed once the MSR is
 * changed (t_budget_restart; what is proven is that the overrun is
 * caught and the MSR restored, not how long it took), so set-up and a
 * host stall before it never count; the 2 s budget stays the backstop
 * until then.  The case prints nothing and sets up inside its guarded
 * region before the overrun (timeout_body above); a stop before the MSR
 * was changed is reported as such, never as a pass. */
TEST(spec, restore_after_timeout, .order = 90, .budget_ms = 2000,
     .quick_budget_ms = SPEC_QUICK_OVERRUN_MS)
{
	if (!t->deadline_tsc) {
		t_skip(t, "no budget deadline to overrun");
		return;
	}
	if (plat_apic_mode() == APIC_MODE_NONE) {
		/* the watchdog is the local APIC's timer, and without an APIC
		 * there is no watcher CPU's NMI either: nothing can stop the
		 * overrun, so the restore after it cannot be exercised */
		t_skip(t, "no local APIC: no watchdog timer or NMI can stop an overrun here");
		return;
	}
	control_pick();
	int how = spec_guarded(t, timeout_body, 0, EXPECT_TIMEOUT);
	uint64_t after = lfence_rdtsc();

	say_stand_in(t);
	if (how == ENDED_TIMEOUT && ctl.phase < PH_CHANGED) {
		/* the stop came before the control had changed anything: the
		 * restore path was not exercised */
		if (after < t->deadline_tsc) {
			t_fail(t, "the case was stopped as overrunning %llu us into its %llu ms budget, before the control changed %s",
			       (unsigned long long)us_into(t, after), (unsigned long long)t->budget_ms, ctl.name);
			return;
		}
		t_skip(t, "not exercised: the %llu ms budget ran out before the control changed %s (guarded region %s %llu us into the case: a stalled host)",
		       (unsigned long long)t->budget_ms, ctl.name, ctl.entered_tsc ? "entered" : "not entered",
		       (unsigned long long)us_into(t, ctl.entered_tsc ? ctl.entered_tsc : after));
		return;
	}
	t_diag(t, "control: %s (saved 0x%llx) changed %llu us into the case, then the case overran its %llu ms budget on purpose",
	       ctl.name, (unsigned long long)ctl.orig, (unsigned long long)us_into(t, ctl.changed_tsc),
	       (unsigned long long)t->budget_ms);
	control_verdict(t, how, ENDED_TIMEOUT, "overrun");
}
