/* AP bring-up; see smpboot.h.
 *
 * APs are started one at a time so each start latency can be measured and
 * a CPU that does not come up cannot disturb the next: the trampoline's
 * data block is reused for every AP, and a CPU that timed out is sent INIT
 * again, which parks it in wait-for-SIPI so it can never wake up later on
 * another AP's stack. */
#include "arch/x86/smpboot.h"
#include "arch/x86/acpi.h"
#include "arch/x86/apic.h"
#include "arch/x86/apic_timer.h"
#include "arch/x86/cpu.h"
#include "arch/x86/desc.h"
#include "arch/x86/paging.h"
#include "arch/x86/topology.h"
#include "arch/x86/tsc.h"
#include "arch/x86/tsc_read.h"
#include "kernel/cmdline.h"
#include "kernel/mbi.h"
#include "kernel/mm.h"
#include "kernel/percpu.h"
#include "kernel/report.h"
#include "kernel/smp.h"
#include "lib/string.h"

extern const uint8_t trampoline_start[], trampoline_end[];
extern const uint8_t tramp_gdtr_base[], tramp_pm_target[], tramp_lm_target[];
extern const uint8_t tramp_cr3[], tramp_entry[], tramp_stack[], tramp_percpu[], tramp_stage[];
extern const uint8_t tramp_gdt[], tramp_pm[], tramp_lm[];

#define DEFAULT_AP_TIMEOUT_MS	1000
/* How long to wait for the first sign of life before the second SIPI. */
#define SIPI_RETRY_US		500
#define TRAMP_LOW		0x10000ull	/* avoid IVT/BDA and loader leftovers */
#define TRAMP_HIGH		0x9f000ull	/* below the EBDA */

static struct smpboot_result result;
static uint8_t *tramp;		/* the trampoline page, identity-mapped */

static uintptr_t toff(const uint8_t *sym)
{
	return (uintptr_t)(sym - trampoline_start);
}

#define TRAMP_FIELD(type, sym) (*(volatile type *)(tramp + toff(sym)))

static const char *stage_name(unsigned s)
{
	static const char *const names[] = {
		"never ran (no sign of life)", "real mode", "protected mode", "long mode",
		"C entry", "online",
	};
	return s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

static uint8_t *find_trampoline_page(const struct boot_info *bi, uint64_t from)
{
	size_t need = (size_t)(trampoline_end - trampoline_start);

	for (uint64_t p = from; p + 4096 <= TRAMP_HIGH; p += 4096) {
		bool ram = false;

		for (unsigned i = 0; i < bi->nmmap; i++) {
			const struct mem_region *r = &bi->mmap[i];

			if (r->base <= p && r->base + r->len >= p + 4096) {
				if (r->type != MMAP_RAM) {
					ram = false;
					break;
				}
				ram = true;
			}
		}
		if (ram && need <= 4096)
			return (uint8_t *)(uintptr_t)p;
	}
	return NULL;
}

static void install_trampoline(void)
{
	uint32_t base = (uint32_t)(uintptr_t)tramp;

	memcpy(tramp, trampoline_start, (size_t)(trampoline_end - trampoline_start));
	TRAMP_FIELD(uint32_t, tramp_gdtr_base) = base + (uint32_t)toff(tramp_gdt);
	TRAMP_FIELD(uint32_t, tramp_pm_target) = base + (uint32_t)toff(tramp_pm);
	TRAMP_FIELD(uint32_t, tramp_lm_target) = base + (uint32_t)toff(tramp_lm);
	TRAMP_FIELD(uint64_t, tramp_cr3) = paging_root();
}

static void ap_entry(struct percpu *p) __attribute__((noreturn, used));
static void ap_entry(struct percpu *p)
{
	/* An AP that was given up on, arriving late: touch nothing shared. */
	if (p->lost)
		halt_forever();
	percpu_install(p);
	p->stage = AP_C_ENTRY;
	p->activity = "bring-up";
	desc_load_cpu(p);
	apic_cpu_init(false);
	topo_read(&p->topo);
	p->online = true;
	__atomic_store_n(&p->stage, AP_ONLINE, __ATOMIC_RELEASE);
	smp_ap_idle_loop();
}

static struct percpu *alloc_percpu(unsigned index, const struct acpi_cpu *ac)
{
	size_t pages = (sizeof(struct percpu) + PAGE_SIZE - 1) / PAGE_SIZE;
	struct percpu *p = page_alloc(pages);
	uint8_t *stack = page_alloc(CPU_STACK_SIZE / PAGE_SIZE);
	uint8_t *ist = page_alloc(3 * IST_STACK_SIZE / PAGE_SIZE);

	if (!p || !stack || !ist)
		return NULL;
	p->index = index;
	p->apic_id = ac->apic_id;
	p->acpi_uid = ac->uid;
	p->stack_top = (uintptr_t)stack + CPU_STACK_SIZE;
	for (int i = 0; i < 3; i++)
		p->ist_top[i] = (uintptr_t)ist + (uintptr_t)(i + 1) * IST_STACK_SIZE;
	return p;
}

static bool wait_stage(struct percpu *p, unsigned stage, uint64_t timeout_us)
{
	uint64_t end = rdtsc() + tsc_us_to_cycles(timeout_us);

	for (;;) {
		unsigned s = TRAMP_FIELD(uint32_t, tramp_stage);

		if (p->stage > s)
			s = p->stage;
		if (s >= stage)
			return true;
		if (rdtsc() > end)
			return false;
		cpu_relax();
	}
}

/* INIT-SIPI-SIPI as the SDM (vol. 3 §9.4.4.1) and Linux's
 * wakeup_secondary_cpu_via_init() do it, with the short delays modern CPUs
 * allow (docs/platform-notes.md "AP start-up delays"): Intel family >= 6 and AMD family >= 0xF need no
 * 10 ms INIT delay. */
static bool start_one(struct percpu *p, bool slow_init, unsigned timeout_ms, bool no_sipi,
		      unsigned *sipis, unsigned *stage_out)
{
	uint32_t id = p->apic_id;
	uint32_t vector = (uint32_t)((uintptr_t)tramp >> 12);

	TRAMP_FIELD(uint64_t, tramp_entry) = (uint64_t)(uintptr_t)ap_entry;
	TRAMP_FIELD(uint64_t, tramp_stack) = p->stack_top;
	TRAMP_FIELD(uint64_t, tramp_percpu) = (uint64_t)(uintptr_t)p;
	TRAMP_FIELD(uint32_t, tramp_stage) = 0;
	p->stage = AP_NOT_STARTED;
	mfence();
	p->start_tsc = rdtsc();

	(void)apic_read_esr();
	apic_send(id, APIC_DM_INIT | APIC_INT_LEVELTRIG | APIC_INT_ASSERT);
	apic_wait_icr_idle(1000);
	tsc_delay_us(slow_init ? 10000 : 10);
	apic_send(id, APIC_DM_INIT | APIC_INT_LEVELTRIG);
	apic_wait_icr_idle(1000);

	*sipis = 0;
	for (int i = 0; i < (no_sipi ? 0 : 2); i++) {
		tsc_delay_us(slow_init ? 300 : 10);
		apic_send(id, APIC_DM_STARTUP | vector);
		apic_wait_icr_idle(1000);
		(*sipis)++;
		tsc_delay_us(slow_init ? 200 : 10);
		/* A second SIPI only if the first one did not take. */
		if (wait_stage(p, AP_REAL_MODE, SIPI_RETRY_US))
			break;
	}
	uint32_t esr = apic_read_esr() & 0xef;

	if (esr)
		rep_warn("smp", "APIC error 0x%x after starting APIC ID %u", esr, id);
	bool ok = wait_stage(p, AP_ONLINE, (uint64_t)timeout_ms * 1000u);

	if (ok)	/* on the BSP's clock, when the BSP saw it online */
		p->start_latency_cycles = rdtsc() - p->start_tsc;
	unsigned s = TRAMP_FIELD(uint32_t, tramp_stage);

	if (p->stage > s)
		s = p->stage;
	*stage_out = s;
	if (!ok) {
		/* Give it up: a late arrival halts at once in ap_entry, on its
		 * own stack (the caller moves the trampoline for the next AP),
		 * and INIT puts it back into wait-for-SIPI. */
		p->lost = true;
		mfence();
		apic_send(id, APIC_DM_INIT | APIC_INT_LEVELTRIG | APIC_INT_ASSERT);
		apic_wait_icr_idle(1000);
		apic_send(id, APIC_DM_INIT | APIC_INT_LEVELTRIG);
	}
	return ok;
}

void smpboot_start_aps(const struct boot_info *bi, const struct acpi_info *ai,
		       const struct options *o, struct smpboot_result *res)
{
	uint32_t bsp_id = apic_mode != APIC_MODE_NONE ? apic_id() : 0;
	unsigned limit = o->cpus ? o->cpus : MAX_CPUS;
	unsigned timeout_ms = o->ap_timeout_ms ? o->ap_timeout_ms : DEFAULT_AP_TIMEOUT_MS;
	struct cpuid_regs l1 = cpuid(1);
	unsigned family = (l1.eax >> 8) & 0xf;
	bool modern = family >= 6;	/* Intel P6+, all AMD64 (family 0xF+) */
	uint64_t t_all = rdtsc();
	bool bsp_listed = false;

	memset(&result, 0, sizeof(result));
	cpus[0]->apic_id = bsp_id;
	topo_read(&cpus[0]->topo);
	cpus[0]->online = true;
	cpus[0]->stage = AP_ONLINE;
	if (ai->have_madt) {
		result.listed = ai->ncpus + ai->ncpus_ignored + ai->ncpus_dropped;
		result.enabled = acpi_enabled_cpus(ai);
	}
	if (!ai->have_madt) {
		rep_diag("smp: no usable MADT: running on the boot CPU only");
		goto out;
	}
	if (apic_mode == APIC_MODE_NONE) {
		rep_error("smp", "no local APIC: running on the boot CPU only");
		goto out;
	}
	for (unsigned i = 0; i < ai->ncpus; i++)
		if (ai->cpus[i].apic_id == bsp_id) {
			bsp_listed = true;
			cpus[0]->acpi_uid = ai->cpus[i].uid;
		}
	if (!bsp_listed)
		rep_warn("smp", "the boot CPU's APIC ID %u is not in the MADT", bsp_id);
	if (o->nosmp) {
		rep_diag("smp: nosmp: not starting application processors");
		result.skipped = result.enabled ? result.enabled - 1 : 0;
		goto out;
	}
	tramp = find_trampoline_page(bi, TRAMP_LOW);
	if (!tramp) {
		rep_error("smp", "no free RAM page between 0x%llx and 0x%llx for the AP trampoline",
			  TRAMP_LOW, TRAMP_HIGH);
		goto out;
	}
	install_trampoline();

	for (unsigned i = 0; i < ai->ncpus; i++) {
		const struct acpi_cpu *ac = &ai->cpus[i];

		if (!(ac->flags & ACPI_MADT_ENABLED) || ac->apic_id == bsp_id)
			continue;
		if (ncpus >= limit || ncpus >= MAX_CPUS) {
			result.skipped++;
			continue;
		}
		if (apic_mode == APIC_MODE_XAPIC && ac->apic_id > 0xfe) {
			rep_error("smp", "APIC ID %u (ACPI UID %u) is not addressable in xAPIC mode; not started",
				  ac->apic_id, ac->uid);
			result.skipped++;
			continue;
		}
		struct percpu *p = alloc_percpu(ncpus, ac);

		if (!p) {
			rep_error("smp", "out of memory for per-CPU areas after %u CPUs", ncpus);
			result.skipped++;
			break;
		}
		unsigned sipis, stage;
		result.attempted++;
		bool no_sipi = (o->simulate & SIM_AP_NOSTART) && result.attempted == 1;

		if (start_one(p, !modern, timeout_ms, no_sipi, &sipis, &stage)) {
			cpus[ncpus++] = p;
			result.started++;
			continue;
		}
		result.failed++;
		rep_error("smp", "APIC ID %u (ACPI UID %u) did not start within %u ms: got as far as %s after %u SIPI(s); continuing without it",
			  ac->apic_id, ac->uid, timeout_ms, stage_name(stage), sipis);
		/* The failed AP may still be reading its trampoline page and the
		 * stack and percpu it names: leave all three to it, and keep its
		 * index out of everyone's way. */
		p->index = MAX_CPUS - result.failed;
		tramp = find_trampoline_page(bi, (uint64_t)(uintptr_t)tramp + 4096);
		if (!tramp) {
			rep_error("smp", "no free page left below 1 MiB for another trampoline; not starting the remaining CPUs");
			break;
		}
		install_trampoline();
	}
	if (result.skipped && o->cpus)
		rep_diag("smp: cpus=%u: %u enabled CPU(s) not started", o->cpus, result.skipped);
out:
	result.total_cycles = rdtsc() - t_all;
	*res = result;
}

const struct smpboot_result *smpboot_get_result(void)
{
	return &result;
}
