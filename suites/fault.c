/* SPDX-License-Identifier: GPL-2.0-only */
/* fault: the expected-fault API reports the right vector and error code,
 * and the runner survives unexpected faults, hangs and timeouts (the
 * T_EXPLICIT cases, which fail on purpose when named in tests=). */
#include "kernel/test.h"
#include "arch/x86/apic.h"
#include "arch/x86/cpu.h"
#include "arch/x86/fault.h"
#include "arch/x86/msr.h"
#include "arch/x86/trapnr.h"
#include "arch/x86/traps.h"
#include "kernel/platform.h"
#include "lib/string.h"

SUITE(fault, 30, "expected-fault API; recovery from unexpected faults and hangs");

/* An address in a PML4 slot the identity map never uses. */
#define UNMAPPED_VA 0x00007f0000001000ull

extern const char ud2_insn[], de_insn[];

static void do_ud2(void *p)
{
	(void)p;
	__asm__ volatile(".globl ud2_insn\nud2_insn: ud2");
}

TEST(fault, ud)
{
	struct fault_result r = fault_catch(do_ud2, 0);

	t_check(t, r.vector == X86_TRAP_UD, "ud2 gave vector %d, expected 6 (#UD)", r.vector);
	t_check(t, r.error_code == 0, "#UD error code 0x%llx, expected 0",
		(unsigned long long)r.error_code);
	t_check(t, r.rip == (uint64_t)(uintptr_t)ud2_insn, "#UD at rip 0x%llx, expected 0x%llx",
		(unsigned long long)r.rip, (unsigned long long)(uintptr_t)ud2_insn);
}

static void do_div0(void *p)
{
	volatile uint64_t zero = 0;

	(void)p;
	__asm__ volatile(".globl de_insn\nde_insn: divq %2"
			 : : "a"(1ull), "d"(0ull), "r"((uint64_t)zero));
}

TEST(fault, de)
{
	struct fault_result r = fault_catch(do_div0, 0);

	t_check(t, r.vector == X86_TRAP_DE, "division by zero gave vector %d, expected 0 (#DE)", r.vector);
	t_check(t, r.rip == (uint64_t)(uintptr_t)de_insn, "#DE at rip 0x%llx, expected 0x%llx",
		(unsigned long long)r.rip, (unsigned long long)(uintptr_t)de_insn);
}

static void do_read(void *p)
{
	(void)*(volatile uint64_t *)p;
}

static void do_write(void *p)
{
	*(volatile uint64_t *)p = 0x5a5a;
}

TEST(fault, pf)
{
	void *va = (void *)(uintptr_t)UNMAPPED_VA;
	struct fault_result r = fault_catch(do_read, va);

	/* Error code (SDM vol. 3 §4.7): P=0 not-present, W/R=0 read, U/S=0. */
	t_check(t, r.vector == X86_TRAP_PF, "read of unmapped 0x%llx gave vector %d, expected 14 (#PF)",
		UNMAPPED_VA, r.vector);
	t_check(t, r.error_code == 0, "#PF read error code 0x%llx, expected 0x0",
		(unsigned long long)r.error_code);
	t_check(t, r.cr2 == UNMAPPED_VA, "CR2 0x%llx, expected 0x%llx", (unsigned long long)r.cr2,
		UNMAPPED_VA);
	r = fault_catch(do_write, va);
	t_check(t, r.vector == X86_TRAP_PF && r.error_code == X86_PF_WRITE,
		"write to unmapped gave vector %d error 0x%llx, expected 14 / 0x2", r.vector,
		(unsigned long long)r.error_code);
}

TEST(fault, gp_noncanonical)
{
	struct fault_result r = fault_catch(do_read, (void *)0x8000000000000000ull);

	t_check(t, r.vector == X86_TRAP_GP && r.error_code == 0,
		"non-canonical read gave vector %d error 0x%llx, expected 13 (#GP) / 0", r.vector,
		(unsigned long long)r.error_code);
}

TEST(fault, gp_msr)
{
	struct fault_result r;
	uint64_t v;
	const char *what;

	/* Architectural #GP(0) cases (SDM vol. 3 §11.12.1.2, table 11-6):
	 * in x2APIC mode an access to the DFR's MSR, 0x80E, which x2APIC does
	 * not have; in xAPIC mode any access to the x2APIC MSR range.  These
	 * two were chosen because QEMU's TCG implements them (it returns 0
	 * for unknown MSRs elsewhere) and neither latches an APIC error: a
	 * reserved x2APIC MSR would set ESR bit 7, which QEMU never clears in
	 * x2APIC mode. */
	if (plat_apic_mode() == APIC_MODE_X2APIC) {
		what = "RDMSR of x2APIC MSR 0x80E (no DFR in x2APIC mode)";
		r = rdmsr_safe(MSR_X2APIC_BASE + (APIC_DFR >> 4), &v);
	} else {
		what = "RDMSR of x2APIC ID MSR 0x802 outside x2APIC mode";
		r = rdmsr_safe(MSR_X2APIC_BASE + (APIC_ID >> 4), &v);
	}
	if (fault_none(r) && plat_apic_mode() == APIC_MODE_XAPIC &&
	    (!strcmp(plat_env(), "emulator:qemu-tcg") || !strcmp(plat_env(), "emulator:bochs"))) {
		/* An emulator's deviation, not the CPU's: QEMU's TCG without
		 * x2APIC emulation (7.2) answers every MSR, this one included,
		 * with 0, and so does Bochs 2.7 for a model without x2APIC
		 * (penryn, zambezi, athlon64_venice), whose ignore_bad_msrs
		 * reads unknown MSRs as 0 (docs/platform-notes.md "QEMU TCG
		 * and KVM behaviour", "Bochs").  #GP delivery itself is
		 * covered by gp_noncanonical. */
		t_skip(t, "%s without x2APIC raises no #GP for any MSR access (env=%s)",
		       !strcmp(plat_env(), "emulator:bochs") ? "Bochs" : "QEMU TCG", plat_env());
		return;
	}
	t_check(t, r.vector == X86_TRAP_GP, "%s gave vector %d, expected 13 (#GP)", what, r.vector);
	t_check(t, r.error_code == 0, "%s: error code 0x%llx, expected 0", what,
		(unsigned long long)r.error_code);
}

static void nested_inner(void *p)
{
	struct fault_result *inner = p;

	*inner = fault_catch(do_ud2, 0);
	do_read((void *)(uintptr_t)UNMAPPED_VA);	/* the outer catch gets this */
}

TEST(fault, nested)
{
	struct fault_result inner = { .vector = -1 };
	struct fault_result outer = fault_catch(nested_inner, &inner);

	t_check(t, inner.vector == X86_TRAP_UD, "inner catch saw vector %d, expected 6", inner.vector);
	t_check(t, outer.vector == X86_TRAP_PF, "outer catch saw vector %d, expected 14", outer.vector);
}

TEST(fault, no_fault)
{
	/* Negative control: nothing faults, nothing is reported. */
	uint64_t x = 0;
	struct fault_result r = fault_catch(do_read, &x);

	t_check(t, fault_none(r), "a plain read reported vector %d", r.vector);
}

/* ---- catch points inside a case, and the case's deferred actions ---- */

TEST(fault, catch_quiet)
{
	struct plat_fault f;
	char d[160];
	int rc = plat_catch(do_ud2, 0, PLAT_CATCH_QUIET, &f);

	t_check(t, rc == PLAT_FAULT, "plat_catch of UD2 returned %s, expected a fault", plat_strerror(rc));
	t_check(t, f.vector == X86_TRAP_UD, "plat_catch saw vector %d, expected %d (#UD)", f.vector,
		X86_TRAP_UD);
	t_check(t, f.rip == (uint64_t)(uintptr_t)ud2_insn, "#UD at rip 0x%llx, expected 0x%llx",
		(unsigned long long)f.rip, (unsigned long long)(uintptr_t)ud2_insn);
	plat_fault_describe(&f, d, sizeof(d));
	t_check(t, !strncmp(d, "unexpected #UD (vector 6, ", 26), "plat_fault_describe wrote '%s'", d);
	/* negative control: nothing faults, nothing is caught */
	uint64_t x = 0;

	rc = plat_catch(do_read, &x, PLAT_CATCH_QUIET, &f);
	t_check(t, rc == PLAT_OK && f.vector == -1, "a plain read under plat_catch returned %s, vector %d",
		plat_strerror(rc), f.vector);
}

static unsigned defer_seen[4], defer_nseen;
static volatile bool defer_end_armed, defer_end_ran;

static void defer_note(struct test_ctx *t, void *arg)
{
	(void)t;
	if (defer_nseen < 4)
		defer_seen[defer_nseen] = (unsigned)(uintptr_t)arg;
	defer_nseen++;
}

static void defer_mark_end(struct test_ctx *t, void *arg)
{
	(void)t;
	(void)arg;
	defer_end_ran = true;
}

/* t_defer_run runs newest first and forgets what it ran; an action left
 * registered is run by the runner when the case ends (defer_at_end). */
TEST(fault, defer_order)
{
	defer_nseen = 0;
	if (!t_defer(t, defer_note, (void *)1) || !t_defer(t, defer_note, (void *)2))
		return;
	t_defer_run(t);
	t_check(t, defer_nseen == 2 && defer_seen[0] == 2 && defer_seen[1] == 1,
		"t_defer_run ran %u action(s) in the order %u,%u, expected 2,1", defer_nseen,
		defer_seen[0], defer_seen[1]);
	t_defer_run(t);
	t_check(t, defer_nseen == 2, "a second t_defer_run ran %u more action(s)", defer_nseen - 2);
	defer_end_ran = false;
	defer_end_armed = t_defer(t, defer_mark_end, NULL);
}

TEST(fault, defer_at_end)
{
	if (!defer_end_armed) {
		t_skip(t, "fault.defer_order did not run before this case");
		return;
	}
	defer_end_armed = false;
	t_check(t, defer_end_ran, "the action fault.defer_order left registered did not run when it ended");
}

/* The explicit cases below end by a fault, the watchdog or the NMI stop;
 * each leaves this action registered, whose line shows the runner ran it
 * after that ending (tests/qemu/run.py checks it in fault-recovery and
 * hang-irqoff). */
static void defer_say(struct test_ctx *t, void *arg)
{
	(void)arg;
	t_diag(t, "deferred: t_defer action ran after %s ended", t->full_name);
}

/* ---- recovery cases: they fail on purpose, run only when named ---- */

TEST(fault, unexpected, .flags = T_EXPLICIT)
{
	t_defer(t, defer_say, NULL);
	t_diag(t, "writing to unmapped 0x%llx without a catch: expect a dump and this case to fail",
	       UNMAPPED_VA);
	do_write((void *)(uintptr_t)UNMAPPED_VA);
	t_fail(t, "the write to an unmapped address did not fault");
}

static void ap_fault(void *p)
{
	do_write(p);
}

TEST(fault, unexpected_ap, .flags = T_EXPLICIT)
{
	unsigned others[1];

	if (!plat_other_cpus(others, 1)) {
		t_skip(t, "needs a second CPU");
		return;
	}
	int rc = plat_call(others[0], ap_fault, (void *)(uintptr_t)UNMAPPED_VA, 2000);

	t_fail(t, "cpu %u: fault on purpose, plat_call returned %s", others[0],
	       plat_strerror(rc));
}

static void faulting_irq(struct regs *r)
{
	(void)r;
	do_write((void *)(uintptr_t)UNMAPPED_VA);
}

/* A fault inside an interrupt handler: the handler never reaches its EOI,
 * so the unwinding must send it, or the vector's priority class stays
 * blocked on this CPU (apic.self_ipi run after this case shows it). */
TEST(fault, unexpected_irq, .flags = T_EXPLICIT)
{
	unsigned v = irq_alloc_vector(faulting_irq);

	if (!v) {
		t_fail(t, "no free vector");
		return;
	}
	t_diag(t, "self-IPI to vector 0x%x, whose handler writes to unmapped memory", v);
	apic_send(0, APIC_DEST_SELF | APIC_DM_FIXED | v);
	plat_delay_us(100000);
	t_fail(t, "the faulting interrupt handler did not fault");
}

TEST(fault, timeout, .flags = T_EXPLICIT, .budget_ms = 500)
{
	t_defer(t, defer_say, NULL);
	t_diag(t, "spinning with interrupts on: the watchdog must stop this after 500 ms");
	for (;;)
		cpu_relax();
}

/* A case spinning with interrupts off on the boot CPU.  The maskable
 * watchdog cannot stop it (RFLAGS.IF blocks it, SDM vol. 3 §6.8.1); the
 * NMI watchdog must
 * (kernel/nmi_watch.c: the watcher CPU's NMI, or with one CPU the
 * periodic I/O APIC NMI), and the run goes on. */
TEST(fault, hang_irqoff, .flags = T_EXPLICIT, .budget_ms = 500)
{
	if (!plat_nmi_watch_available()) {
		t_skip(t, "no NMI watchdog (no watcher CPU and no I/O APIC NMI source; see the # watchdog: line): this hang could not be stopped");
		return;
	}
	t_defer(t, defer_say, NULL);
	t_diag(t, "spinning with interrupts off: the NMI watchdog must stop this after 500 ms");
	cli();
	for (;;)
		cpu_relax();
}

static void ap_hang(void *p)
{
	(void)p;
	cli();
	for (;;)
		cpu_relax();
}

/* The same on an AP, as the case's own work: the boot CPU waits with
 * interrupts on, its budget expires (TIMEOUT), and the cleanup sends the
 * AP the abort NMI (kernel/smp.c) so that it is usable again. */
TEST(fault, hang_irqoff_ap, .flags = T_EXPLICIT, .budget_ms = 500)
{
	unsigned others[1];

	if (!plat_other_cpus(others, 1)) {
		t_skip(t, "needs a second CPU");
		return;
	}
	t_diag(t, "cpu %u spins with interrupts off; the budget must stop this case after 500 ms",
	       others[0]);
	if (plat_post(others[0], ap_hang, 0) != PLAT_OK) {
		t_fail(t, "could not post to cpu %u", others[0]);
		return;
	}
	int rc = plat_wait(others[0], 3600000);

	t_fail(t, "plat_wait returned %s instead of the budget stopping the case", plat_strerror(rc));
}

TEST(fault, hang_ap, .flags = T_EXPLICIT)
{
	unsigned others[1];

	if (!plat_other_cpus(others, 1)) {
		t_skip(t, "needs a second CPU");
		return;
	}
	int rc = plat_call(others[0], ap_hang, 0, 300);

	t_check(t, rc == PLAT_ABORTED, "hung cpu %u: expected an NMI abort, got %s", others[0],
		plat_strerror(rc));
	t_fail(t, "cpu %u hung on purpose with interrupts off; plat_call returned %s",
	       others[0], plat_strerror(rc));
}

/* The run cannot go on: plat_panic() must close this case and the suite with
 * `not ok ... # PANIC` before its `ringlab: PANIC:` line, then end the run
 * with status=panic (docs/log-format.md).  Named alone, it is the
 * panic-in-case case of tests/qemu/run.py; tests/host/data/logs/panic.log,
 * which tests/host/check-report.sh and tests/host/check-capture.py read,
 * is a log of such a run. */
TEST(fault, panic, .flags = T_EXPLICIT)
{
	t_diag(t, "calling panic() on purpose: the run ends here");
	plat_panic("requested by tests=fault.panic");
}
