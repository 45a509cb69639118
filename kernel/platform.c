/* Kernel implementation of the platform API's non-SMP parts and of the
 * per-case execution the runner relies on. */
#include "kernel/platform.h"
#include "arch/x86/apic.h"
#include "arch/x86/apic_timer.h"
#include "arch/x86/catch.h"
#include "arch/x86/cpu.h"
#include "arch/x86/cpuenv.h"
#include "arch/x86/traps.h"
#include "arch/x86/tsc.h"
#include "arch/x86/tsc_read.h"
#include "arch/x86/vectors.h"
#include "kernel/kernel.h"
#include "kernel/mm.h"
#include "kernel/panic.h"
#include "arch/x86/percpu.h"
#include "kernel/nmi_watch.h"
#include "kernel/apic_mode.h"
#include "kernel/smp.h"
#include "kernel/test.h"

uint64_t plat_tsc_hz(void)
{
	return tsc_hz;
}

const struct cpuinfo *plat_cpu_info(void)
{
	return &boot_cpu;
}

static const struct cpu_env *env_get(void)
{
	static struct cpu_env env;
	static bool done;

	if (!done) {
		cpu_env_classify(&boot_cpu, acpi.oem_id,
				 boot_info.has_loader ? boot_info.loader : NULL, &env);
		done = true;
	}
	return &env;
}

bool plat_under_emulator(void)
{
	return boot_in_qemu || env_get()->kind != CPU_ENV_BARE_METAL;
}

const char *plat_env(void)
{
	return env_get()->name;
}

const char *plat_env_note(void)
{
	return env_get()->note;
}

void plat_abort_case(void)
{
	struct catch_frame *f = catch_find(CATCH_TEST);

	if (!f)
		panic("plat_abort_case() outside a test body on CPU 0");
	catch_throw(f, CATCH_CASE_ABORT);
}

void *plat_alloc(size_t bytes)
{
	return page_alloc((bytes + PAGE_SIZE - 1) / PAGE_SIZE);
}

uint64_t plat_irq_save(void)
{
	return irq_save();
}

void plat_irq_restore(uint64_t flags)
{
	irq_restore(flags);
}

static void describe_fault(struct test_ctx *t, const struct catch_frame *f)
{
	char extra[64] = "";

	if (f->vector == X86_TRAP_PF)
		rl_snprintf(extra, sizeof(extra), " cr2=0x%llx", (unsigned long long)f->cr2);
	rl_snprintf(t->reason, sizeof(t->reason),
		    "unexpected %s (vector %d, %s) error=0x%llx at rip=0x%llx%s",
		    exception_mnemonic((unsigned)f->vector), f->vector,
		    exception_name((unsigned)f->vector), (unsigned long long)f->error_code,
		    (unsigned long long)f->fault_rip, extra);
}

void plat_run_case(struct test_ctx *t)
{
	struct percpu *c = this_cpu();
	struct mm_mark mark = mm_mark();
	struct catch_frame f;

	c->activity = t->full_name;
	c->timeout_by = 0;
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
		t->result = RES_TIMEOUT;
		rl_snprintf(t->reason, sizeof(t->reason),
			    "budget of %llu ms exceeded with interrupts off; stopped by the periodic I/O APIC NMI (no watcher cpu) at rip=0x%llx",
			    (unsigned long long)t->budget_ms, (unsigned long long)f.fault_rip);
	} else if (f.vector == CATCH_TIMEOUT && c->timeout_by) {
		t->result = RES_TIMEOUT;
		rl_snprintf(t->reason, sizeof(t->reason),
			    "budget of %llu ms exceeded with interrupts off; stopped by an NMI from watcher cpu %u at rip=0x%llx",
			    (unsigned long long)t->budget_ms, c->timeout_by,
			    (unsigned long long)f.fault_rip);
	} else if (f.vector == CATCH_TIMEOUT) {
		t->result = RES_TIMEOUT;
		rl_snprintf(t->reason, sizeof(t->reason),
			    "budget of %llu ms exceeded; stopped by the watchdog at rip=0x%llx",
			    (unsigned long long)t->budget_ms,
			    (unsigned long long)f.fault_rip);
	} else {
		t->result = RES_FAIL;
		describe_fault(t, &f);
	}
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
	c->activity = "runner";
}
