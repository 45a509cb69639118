/* Switching every online CPU between xAPIC and x2APIC mode, for the ipi
 * suite; see kernel/apic_mode.h. */
#include "kernel/apic_mode.h"
#include "arch/x86/apic.h"
#include "arch/x86/cpu.h"
#include "arch/x86/cpufeature.h"
#include "arch/x86/tsc.h"
#include "arch/x86/tsc_read.h"
#include "arch/x86/percpu.h"
#include "kernel/platform.h"
#include "kernel/report.h"
#include "arch/x86/apic_timer.h"
#include "lib/printf.h"

bool smp_apic_mode_allowed(enum apic_mode m, char *why, unsigned why_size)
{
	if (m == apic_boot_mode)
		return true;
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
};

/* The APs wait this long for the boot CPU's commit: longer than the boot
 * CPU ever waits for them, so it always commits first. */
#define SWITCH_COMMIT_MS	(5 * T_LOST_US / 1000)

static void ap_switch_mode(void *p)
{
	struct mode_switch *ms = p;
	uint64_t flags = irq_save();
	uint64_t end = rdtsc_ordered() + tsc_ms_to_cycles(SWITCH_COMMIT_MS);

	if (!apic_cpu_switch_mode(ms->m))
		__atomic_add_fetch(&ms->failed, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&ms->switched, 1, __ATOMIC_RELEASE);
	/* No APIC access until the boot CPU has published the new mode. */
	while (!__atomic_load_n(&ms->commit, __ATOMIC_ACQUIRE) && rdtsc_ordered() < end)
		cpu_relax();
	apic_cpu_init(false);
	irq_restore(flags);
}

static void lose(unsigned cpu, const char *why)
{
	cpus[cpu]->lost = true;
	cpus[cpu]->online = false;
	rep_error("smp", "cpu %u (apic %u) %s during the APIC mode switch; left out from now on",
		  cpu, cpus[cpu]->apic_id, why);
}

bool smp_set_apic_mode(enum apic_mode m, char *why, unsigned why_size)
{
	static struct mode_switch ms;
	static unsigned list[MAX_CPUS];
	static int posted[MAX_CPUS];
	unsigned n = plat_other_cpus(list, MAX_CPUS), nposted = 0;

	if (m == apic_mode)
		return true;
	if (!smp_apic_mode_allowed(m, why, why_size))
		return false;
	ms = (struct mode_switch){ .m = m };
	/* All-or-nothing from here: once one AP has switched, the boot CPU
	 * must switch and commit too, whatever else fails; a CPU that does
	 * not follow is left out, never driven in the wrong mode. */
	uint64_t flags = irq_save();	/* no watchdog unwind half-way */

	for (unsigned i = 0; i < n; i++) {
		posted[i] = plat_post(list[i], ap_switch_mode, &ms) == PLAT_OK;
		nposted += posted[i];
	}
	uint64_t end = rdtsc_ordered() + tsc_us_to_cycles(T_LOST_US);

	while (__atomic_load_n(&ms.switched, __ATOMIC_ACQUIRE) < nposted && rdtsc_ordered() < end)
		cpu_relax();
	bool ok = apic_cpu_switch_mode(m);

	apic_mode = m;
	apic_cpu_init(true);
	__atomic_store_n(&ms.commit, 1, __ATOMIC_RELEASE);
	irq_restore(flags);
	timer_release();	/* re-arm the watchdog on the new mode */
	unsigned bad = 0;

	for (unsigned i = 0; i < n; i++) {
		if (!posted[i]) {
			lose(list[i], "could not be given the switch");
			bad++;
		} else if (plat_wait(list[i], SWITCH_COMMIT_MS + T_LOST_US / 1000) != PLAT_OK) {
			if (!cpus[list[i]]->lost)
				lose(list[i], "did not finish");
			bad++;
		}
	}
	if (!ok || ms.failed || bad) {
		rl_snprintf(why, why_size, "%u of %u CPUs failed to switch to %s",
			    ms.failed + bad + (ok ? 0 : 1), n + 1, apic_mode_name(m));
		return false;
	}
	return true;
}

