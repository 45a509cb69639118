/* SPDX-License-Identifier: GPL-2.0-only */
/* Switching every online CPU between xAPIC and x2APIC mode, for the ipi
 * suite; see kernel/apic_mode.h. */
#include "kernel/apic_mode.h"
#include "arch/x86/apic.h"
#include "arch/x86/cpu.h"
#include "arch/x86/cpufeature.h"
#include "arch/x86/msr.h"
#include "arch/x86/tsc.h"
#include "arch/x86/tsc_read.h"
#include "arch/x86/percpu.h"
#include "kernel/platform.h"
#include "kernel/report.h"
#include "arch/x86/apic_timer.h"
#include "lib/printf.h"

/* Once a CPU's APIC did not come back from the disabled state, no later
 * switch is tried: the next one could take another CPU with it. */
static char switch_broken[160];

bool smp_apic_mode_allowed(enum apic_mode m, char *why, unsigned why_size)
{
	if (m == apic_boot_mode)
		return true;
	if (switch_broken[0]) {
		rl_snprintf(why, why_size, "%s", switch_broken);
		return false;
	}
	if (apic_fw_x2apic) {
		rl_snprintf(why, why_size, "the firmware handed over in x2APIC mode; ringlab does not leave it");
		return false;
	}
	if (apic_mode_forced) {
		rl_snprintf(why, why_size, "the APIC mode was forced or fell back at boot (%s)",
			    apic_mode_name(apic_boot_mode));
		return false;
	}
	if (m == APIC_MODE_XAPIC) {
		for (unsigned i = 0; i < ncpus; i++)
			if (plat_online(i) && cpus[i]->apic_id > 0xfe) {
				rl_snprintf(why, why_size, "APIC ID %u does not fit xAPIC",
					    cpus[i]->apic_id);
				return false;
			}
		return true;
	}
	char src[32];

	x86_feature_source(X86_FEATURE_X2APIC, src, sizeof(src));
	rl_snprintf(why, why_size, "%s reports no x2APIC", src);
	return x86_cpu_has(X86_FEATURE_X2APIC);
}

struct mode_switch {
	enum apic_mode m;
	volatile unsigned switched;
	volatile int commit;
	volatile unsigned failed;
	volatile uint64_t bad_base;	/* IA32_APIC_BASE of the last CPU that failed */
	volatile unsigned bad_cpu;
};

/* The APs wait this long for the boot CPU's commit: longer than the boot
 * CPU ever waits for them, so it always commits first. */
#define SWITCH_COMMIT_MS	(5 * T_LOST_US / 1000)

/* Switch this CPU's APIC and check that it took.  A WRMSR that does not
 * fault is not proof: the SDM allows disabled -> xAPIC/x2APIC (vol. 3
 * §11.12.5, fig. 11-27), but an implementation may keep the APIC disabled
 * (Bochs 2.7 ignores every IA32_APIC_BASE write once EN is clear,
 * docs/platform-notes.md "Bochs").  A CPU whose APIC stays disabled takes
 * no interrupt, IPI or timer any more. */
static bool switch_and_check(enum apic_mode m, uint64_t *base)
{
	bool ok = apic_cpu_switch_mode(m);
	uint64_t want = MSR_IA32_APICBASE_ENABLE | (m == APIC_MODE_X2APIC ? MSR_IA32_APICBASE_EXTD : 0);

	*base = rdmsr(MSR_IA32_APICBASE);
	return ok && (*base & (MSR_IA32_APICBASE_ENABLE | MSR_IA32_APICBASE_EXTD)) == want;
}

static void ap_switch_mode(void *p)
{
	struct mode_switch *ms = p;
	uint64_t flags = irq_save();
	uint64_t end = rdtsc_ordered() + tsc_ms_to_cycles(SWITCH_COMMIT_MS);
	uint64_t base;

	if (!switch_and_check(ms->m, &base)) {
		ms->bad_base = base;
		ms->bad_cpu = plat_this_cpu();
		__atomic_add_fetch(&ms->failed, 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&ms->switched, 1, __ATOMIC_RELEASE);
		/* Its APIC is gone: nothing can reach this CPU any more, and
		 * touching the APIC registers would fault.  Park it; the boot
		 * CPU marks it lost. */
		for (;;)
			__asm__ volatile("cli; hlt");
	}
	__atomic_add_fetch(&ms->switched, 1, __ATOMIC_RELEASE);
	/* No APIC access until the boot CPU has published the new mode. */
	while (!__atomic_load_n(&ms->commit, __ATOMIC_ACQUIRE) && rdtsc_ordered() < end)
		cpu_relax();
	apic_cpu_init(false);
	/* The switch reset this CPU's LVT timer: put back its watchdog and
	 * tick (the NMI watcher's, kernel/nmi_watch.c), or nothing would
	 * watch the boot CPU until the next case starts. */
	timer_after_mode_switch();
	irq_restore(flags);
}

static void lose(unsigned cpu, const char *why)
{
	cpus[cpu]->lost = true;
	cpus[cpu]->online = false;
	rep_error("smp", "cpu %u (apic %u) %s during the APIC mode switch; left out from now on",
		  cpu, cpus[cpu]->apic_id, why);
}

/* Wait until `want` APs have reported their switch (bounded). */
static void wait_switched(struct mode_switch *ms, unsigned want)
{
	uint64_t end = rdtsc_ordered() + tsc_us_to_cycles(T_LOST_US);

	while (__atomic_load_n(&ms->switched, __ATOMIC_ACQUIRE) < want && rdtsc_ordered() < end)
		cpu_relax();
}

bool smp_set_apic_mode(enum apic_mode m, char *why, unsigned why_size)
{
	static struct mode_switch ms;
	static unsigned list[MAX_CPUS];
	static int posted[MAX_CPUS];
	unsigned n = plat_other_cpus(list, MAX_CPUS), nposted = 0;
	uint64_t base;

	if (m == apic_mode)
		return true;
	if (!smp_apic_mode_allowed(m, why, why_size))
		return false;
	if (switch_broken[0]) {
		rl_snprintf(why, why_size, "%s", switch_broken);
		return false;
	}
	unsigned fallbacks = timer_deadline_fallbacks;

	ms = (struct mode_switch){ .m = m };
	/* All-or-nothing from here: once one AP has switched, the boot CPU
	 * must switch and commit too, whatever else fails; a CPU that does
	 * not follow is left out, never driven in the wrong mode. */
	uint64_t flags = irq_save();	/* no watchdog unwind half-way */

	/* One AP goes first, alone: if its APIC does not come back from the
	 * disabled state, no other CPU (the boot CPU least of all) is put
	 * through it, and the run goes on in the old mode without that one. */
	for (unsigned i = 0; i < n; i++)
		posted[i] = 0;
	if (n) {
		posted[0] = plat_post(list[0], ap_switch_mode, &ms) == PLAT_OK;
		nposted += posted[0];
		wait_switched(&ms, nposted);
	}
	if (ms.failed) {
		uint64_t bad = ms.bad_base;
		unsigned cpu = ms.bad_cpu;

		irq_restore(flags);
		if (!(bad & MSR_IA32_APICBASE_ENABLE))
			rl_snprintf(switch_broken, sizeof(switch_broken),
				    "cpu %u's APIC stayed disabled after leaving %s (IA32_APIC_BASE 0x%llx): the disabled -> %s transition does not work here",
				    cpu, apic_mode_name(apic_mode), (unsigned long long)bad, apic_mode_name(m));
		else
			rl_snprintf(switch_broken, sizeof(switch_broken),
				    "cpu %u's APIC did not take %s mode (IA32_APIC_BASE 0x%llx)",
				    cpu, apic_mode_name(m), (unsigned long long)bad);
		lose(cpu, bad & MSR_IA32_APICBASE_ENABLE ? "did not take the new APIC mode" :
			  "lost its local APIC (globally disabled, would not re-enable)");
		rl_snprintf(why, why_size, "%s; the other CPUs stay in %s", switch_broken,
			    apic_mode_name(apic_mode));
		return false;
	}
	for (unsigned i = 1; i < n; i++) {
		posted[i] = plat_post(list[i], ap_switch_mode, &ms) == PLAT_OK;
		nposted += posted[i];
	}
	wait_switched(&ms, nposted);
	bool ok = switch_and_check(m, &base);

	if (!ok && !(base & MSR_IA32_APICBASE_ENABLE)) {
		/* The boot CPU's own APIC is gone: no timer, no IPI.  Say so
		 * and stop using the APIC; every wait from here is bounded by
		 * the TSC alone (the watchdog cannot fire any more). */
		apic_mode = APIC_MODE_NONE;
		__atomic_store_n(&ms.commit, 1, __ATOMIC_RELEASE);
		irq_restore(flags);
		rep_error("apic", "the boot CPU's APIC stayed disabled when switching to %s (IA32_APIC_BASE 0x%llx): no timer, watchdog or IPI for the rest of the run",
			  apic_mode_name(m), (unsigned long long)base);
		rl_snprintf(switch_broken, sizeof(switch_broken), "the boot CPU's APIC was lost in an earlier switch");
		rl_snprintf(why, why_size, "the boot CPU's APIC stayed disabled (IA32_APIC_BASE 0x%llx)",
			    (unsigned long long)base);
		return false;
	}
	apic_mode = m;
	apic_cpu_init(true);
	__atomic_store_n(&ms.commit, 1, __ATOMIC_RELEASE);
	irq_restore(flags);
	timer_after_mode_switch();	/* LVT first, then the watchdog, in the new mode */
	unsigned bad = 0;

	for (unsigned i = 0; i < n; i++) {
		if (!posted[i]) {
			lose(list[i], "could not be given the switch");
			bad++;
		} else if (ms.failed && ms.bad_cpu == list[i]) {
			lose(list[i], ms.bad_base & MSR_IA32_APICBASE_ENABLE ? "did not take the new APIC mode" :
				      "lost its local APIC (globally disabled, would not re-enable)");
			bad++;
		} else if (plat_wait(list[i], SWITCH_COMMIT_MS + T_LOST_US / 1000) != PLAT_OK) {
			if (!cpus[list[i]]->lost)
				lose(list[i], "did not finish");
			bad++;
		}
	}
	if (timer_deadline_fallbacks != fallbacks)
		rep_warn("apic", "after the switch to %s, %u TSC-deadline arm(s) did not take; the watchdog fell back to one-shot count mode",
			 apic_mode_name(m), timer_deadline_fallbacks - fallbacks);
	if (!ok || bad) {
		rl_snprintf(why, why_size, "%u of %u CPUs failed to switch to %s (boot CPU IA32_APIC_BASE 0x%llx)",
			    bad + (ok ? 0 : 1), n + 1, apic_mode_name(m), (unsigned long long)base);
		return false;
	}
	return true;
}

bool plat_apic_mode_allowed(enum apic_mode m, char *why, size_t whysz)
{
	return smp_apic_mode_allowed(m, why, (unsigned)whysz);
}

bool plat_set_apic_mode(enum apic_mode m, char *why, size_t whysz)
{
	return smp_set_apic_mode(m, why, (unsigned)whysz);
}
