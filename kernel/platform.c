/* SPDX-License-Identifier: GPL-2.0-only */
/* Kernel implementation of the platform API's non-SMP parts: time, CPU
 * identity and environment, the boot state's accessors, memory, interrupt
 * windows.  Running a case is kernel/case_run.c's; the SMP parts are
 * kernel/smp.c's and kernel/cpu_rel.c's. */
#include "kernel/platform.h"
#include "arch/x86/catch.h"
#include "arch/x86/cpu.h"
#include "arch/x86/cpuenv.h"
#include "arch/x86/percpu.h"
#include "arch/x86/tsc.h"
#include "kernel/fbcon_boot.h"
#include "kernel/kernel.h"
#include "kernel/mm.h"
#include "kernel/nmi_watch.h"
#include "kernel/panic.h"

uint64_t plat_tsc_hz(void)
{
	return tsc_hz;
}

const struct cpuinfo *plat_cpu_info(void)
{
	return &boot_cpu;
}

const struct acpi_info *plat_acpi(void)
{
	return &acpi;
}

const struct boot_info *plat_boot_info(void)
{
	return &boot_info;
}

const struct options *plat_options(void)
{
	return &boot_options;
}

const char *plat_version(void)
{
	return ringlab_version;
}

uint64_t plat_ram_bytes(void)
{
	return mm_ram_bytes();
}

bool plat_fb_range(uint64_t *pa, uint64_t *len)
{
	return fbcon_boot_range(pa, len);
}

bool plat_nmi_watch_available(void)
{
	return nmi_watch_available();
}

void plat_panic(const char *why)
{
	panic("%s", why);
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

bool plat_ring0(void)
{
	return true;
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

/* ---- the CPUs as the kernel brought them up (ring 0 only) ---- */

/* Suites size static CPU lists with PLAT_MAX_CPUS (kernel/platform.h). */
_Static_assert(PLAT_MAX_CPUS == MAX_CPUS, "PLAT_MAX_CPUS must equal MAX_CPUS");

void plat_delay_us(uint64_t us)
{
	tsc_delay_us(us);
}

enum apic_mode plat_apic_mode(void)
{
	return apic_mode;
}

const struct smpboot_result *plat_smpboot(void)
{
	return smpboot_get_result();
}

unsigned plat_smpboot_check_strays(void)
{
	return smpboot_check_strays();
}

/* cpu_by_apic_id()'s search, answering with the CPU's number */
unsigned plat_cpu_by_apic_id(uint32_t apic_id)
{
	for (unsigned i = 0; i < ncpus; i++)
		if (cpus[i] && cpus[i]->apic_id == apic_id)
			return i;
	return PLAT_NO_CPU;
}

uint64_t plat_cpu_start_cycles(unsigned cpu)
{
	return cpu < ncpus && cpus[cpu] ? cpus[cpu]->start_latency_cycles : 0;
}

uint32_t plat_cpu_package(unsigned cpu)
{
	return cpu < ncpus && cpus[cpu] ? cpus[cpu]->topo.package : 0;
}

void plat_topo_read(struct cpu_topo *t)
{
	topo_read(t);
}

uint64_t plat_spurious_count(unsigned cpu)
{
	return cpu < ncpus && cpus[cpu] ? cpus[cpu]->spurious_count : 0;
}
