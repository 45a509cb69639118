/* SPDX-License-Identifier: GPL-2.0-only */
/* AP bring-up; see smpboot.h and boot/trampoline.asm.
 *
 * Identity: an AP never learns who it is from the boot CPU.  It reads its
 * own initial APIC ID from CPUID in the trampoline, finds the slot with
 * that ID in slots[] and claims it with LOCK CMPXCHG (ARMED -> CLAIMED);
 * only then does it touch a stack or a per-CPU area.  Whoever cannot claim
 * a slot parks on a private stack in the stray table, and the boot CPU
 * reports it by ID.
 *
 * Why it matters: a local APIC in xAPIC mode matches a physical destination
 * on its low 8 bits only, and 0xFF there is the broadcast destination (SDM
 * vol. 3 §11.6.2.1, physical destination mode), so when firmware leaves the
 * APs in xAPIC mode (qboot does; the rule is that BIOS hands over in x2APIC
 * mode when any CPU has an APIC ID of 255 or more, SDM vol. 3 §11.12.7) an
 * INIT or SIPI for APIC ID k also reaches k+256, k+512..., and one for an ID
 * ending in 0xFF reaches every xAPIC-mode CPU.  Each AP enables x2APIC as
 * the first thing it does in the trampoline, after which it matches only
 * its own 32-bit ID.
 *
 * Parallel start (default): all slots are armed, INIT goes to every AP,
 * then SIPI to every AP, then a second SIPI to each AP that has not claimed
 * its slot (SDM vol. 3 §9.4.4.1; a SIPI reaching a running CPU is ignored).
 * Because every INIT precedes every SIPI, an aliased INIT only ever hits a
 * CPU that is about to be INITed anyway, and an aliased SIPI starts a CPU
 * that then claims its own slot: safe under the aliasing.
 *
 * Serial start (smpboot=serial): one AP at a time, only its slot armed, as
 * Linux did before 6.5.  An aliased start then shows up as a CPU arriving
 * whose slot is not armed; it parks and is reported ("answered one
 * start"); its own start later INITs it out of the park. */
#include "arch/x86/smpboot.h"
#include "arch/x86/acpi.h"
#include "arch/x86/apic.h"
#include "arch/x86/apic_timer.h"
#include "arch/x86/cpu.h"
#include "arch/x86/desc.h"
#include "arch/x86/e820.h"
#include "arch/x86/log.h"
#include "arch/x86/paging.h"
#include "arch/x86/percpu.h"
#include "arch/x86/topology.h"
#include "arch/x86/tsc.h"
#include "arch/x86/tsc_read.h"
#include "lib/printf.h"
#include "lib/string.h"

extern const uint8_t trampoline_start[], trampoline_end[];
extern const uint8_t tramp_gdtr_base[], tramp_pm_target[], tramp_lm_target[];
extern const uint8_t tramp_cr3[], tramp_entry[], tramp_slots[], tramp_nslots[], tramp_flags[];
extern const uint8_t tramp_target[], tramp_strays[], tramp_park_idtr[], tramp_sim_from[];
extern const uint8_t tramp_sim_to[], tramp_n_real[], tramp_n_pm[], tramp_n_lm[], tramp_n_sorted[];
extern const uint8_t tramp_park[];
extern const uint8_t tramp_gdt[], tramp_pm[], tramp_lm[];

#define DEFAULT_AP_TIMEOUT_MS	1000
/* How long to wait for the first sign of life before the second SIPI. */
#define SIPI_RETRY_US		500
/* Serial: how long the arrivals of one start may take to claim or park. */
#define SORT_WAIT_MS		20
#define TRAMP_LOW		0x10000ull	/* avoid IVT/BDA and loader leftovers */
#define TRAMP_HIGH		0x9f000ull	/* below the EBDA */

/* Keep in sync with boot/trampoline.asm. */
enum slot_state {
	SLOT_IDLE = 0,		/* not being started (serial mode: not its turn) */
	SLOT_ARMED = 1,		/* claimable */
	SLOT_CLAIMED = 2,	/* an AP with this ID owns it */
	SLOT_GIVEN_UP = 3,	/* timed out; a late arrival parks */
	STRAY_NO_SLOT = 5,	/* stray reason only: no slot has its ID */
};
#define TF_X2APIC	1u
#define TF_SIM_ALIAS	2u
#define STRAYS_MAX	64
#define STRAY_SIZE	256

struct ap_slot {
	uint32_t apic_id;
	volatile uint32_t state;
	uint64_t stack_top;
	uint64_t percpu;
	uint64_t pad;
};
_Static_assert(sizeof(struct ap_slot) == 32, "SLOT_SIZE in trampoline.asm");

struct ap_stray {
	volatile uint32_t apic_id;	/* what CPUID said */
	volatile uint32_t reason;	/* slot state found, or STRAY_NO_SLOT */
	volatile uint32_t target;	/* serial: the ID being started, else ~0 */
	volatile uint32_t claimed;	/* the ID it tried to claim */
	volatile uint32_t valid;
	uint8_t stack[STRAY_SIZE - 20];	/* its private park stack */
};
_Static_assert(sizeof(struct ap_stray) == STRAY_SIZE, "STRAY_SIZE in trampoline.asm");

static struct {
	volatile uint32_t count;
	uint32_t pad[3];
	struct ap_stray e[STRAYS_MAX + 1];	/* + one shared overflow entry */
} strays __attribute__((aligned(16)));
static bool stray_reported[STRAYS_MAX];

/* Park IDT: every exception vector (NMI and #MC are what a halted CPU with
 * IF=0 can still take) leads back into the halt loop, on the stray's own
 * stack; nothing returns, so the frame is never read. */
#define PARK_VECTORS	32
static struct idt_gate park_idt[PARK_VECTORS] __attribute__((aligned(16)));

static void ap_entry(struct percpu *p) __attribute__((noreturn, used));

static struct smpboot_params prm;	/* the caller's, copied */
static struct smpboot_result result;
static uint8_t *tramp;		/* the trampoline page, identity-mapped */
static struct ap_slot *slots;
static unsigned nslots;
static unsigned *slot_sipis;

static uintptr_t toff(const uint8_t *sym)
{
	return (uintptr_t)(sym - trampoline_start);
}

#define TRAMP_FIELD(type, sym) (*(volatile type *)(tramp + toff(sym)))

static uint8_t *find_trampoline_page(uint64_t from)
{
	size_t need = (size_t)(trampoline_end - trampoline_start);

	for (uint64_t p = from; p + 4096 <= TRAMP_HIGH; p += 4096) {
		bool ram = false;

		for (unsigned i = 0; i < prm.nmmap; i++) {
			const struct mem_region *r = &prm.mmap[i];

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

static void install_trampoline(uint32_t flags)
{
	uint32_t base = (uint32_t)(uintptr_t)tramp;
	uint64_t park = base + toff(tramp_park);

	memcpy(tramp, trampoline_start, (size_t)(trampoline_end - trampoline_start));
	TRAMP_FIELD(uint32_t, tramp_gdtr_base) = base + (uint32_t)toff(tramp_gdt);
	TRAMP_FIELD(uint32_t, tramp_pm_target) = base + (uint32_t)toff(tramp_pm);
	TRAMP_FIELD(uint32_t, tramp_lm_target) = base + (uint32_t)toff(tramp_lm);
	TRAMP_FIELD(uint64_t, tramp_cr3) = paging_root();
	TRAMP_FIELD(uint64_t, tramp_entry) = (uint64_t)(uintptr_t)ap_entry;
	TRAMP_FIELD(uint64_t, tramp_slots) = (uint64_t)(uintptr_t)slots;
	TRAMP_FIELD(uint32_t, tramp_nslots) = nslots;
	TRAMP_FIELD(uint64_t, tramp_strays) = (uint64_t)(uintptr_t)&strays;
	TRAMP_FIELD(uint32_t, tramp_flags) = flags;
	TRAMP_FIELD(uint32_t, tramp_target) = 0xffffffffu;
	/* Gates use selector 0x08, the trampoline GDT's 64-bit code. */
	for (unsigned v = 0; v < PARK_VECTORS; v++)
		park_idt[v] = idt_interrupt_gate(park, 0x08, 0);
	/* Limit, then the 8-byte base.  The trampoline page is RAM, not
	 * MMIO: plain stores, ordered by the mfence before the first INIT. */
	uint64_t park_idt_base = (uint64_t)(uintptr_t)park_idt;

	TRAMP_FIELD(uint16_t, tramp_park_idtr) = sizeof(park_idt) - 1;
	memcpy(tramp + toff(tramp_park_idtr) + 2, &park_idt_base, sizeof(park_idt_base));
}

static void ap_entry(struct percpu *p)
{
	/* An AP that was given up on after it claimed its slot: touch
	 * nothing shared. */
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
	prm.ap_idle();
}

static struct percpu *alloc_percpu(const struct acpi_cpu *ac)
{
	size_t pages = (sizeof(struct percpu) + PAGE_SIZE - 1) / PAGE_SIZE;
	struct percpu *p = prm.page_alloc(pages);
	uint8_t *stack = prm.page_alloc(CPU_STACK_SIZE / PAGE_SIZE);
	uint8_t *ist = prm.page_alloc(3 * IST_STACK_SIZE / PAGE_SIZE);

	if (!p || !stack || !ist)
		return NULL;
	p->index = MAX_CPUS - 1;	/* set when it is seen online */
	p->apic_id = ac->apic_id;
	p->acpi_uid = ac->uid;
	p->stack_top = (uintptr_t)stack + CPU_STACK_SIZE;
	for (int i = 0; i < 3; i++)
		p->ist_top[i] = (uintptr_t)ist + (uintptr_t)(i + 1) * IST_STACK_SIZE;
	return p;
}

static struct percpu *slot_cpu(unsigned i)
{
	return (struct percpu *)(uintptr_t)slots[i].percpu;
}

static unsigned counter(const uint8_t *sym)
{
	return __atomic_load_n((volatile uint32_t *)(tramp + toff(sym)), __ATOMIC_ACQUIRE);
}

static unsigned sign_of_life(void)
{
	return counter(tramp_n_real) + counter(tramp_n_pm) + counter(tramp_n_lm);
}

/* How far slot i got, for the error line. */
static const char *slot_stage(unsigned i)
{
	unsigned st = slots[i].state, s = slot_cpu(i)->stage;

	if (s >= AP_ONLINE)
		return "online (too late)";
	if (s >= AP_C_ENTRY)
		return "C entry (claimed its slot; stopped before online)";
	if (st == SLOT_CLAIMED)
		return "identified itself and claimed its slot; never reached C";
	return "never identified itself (no CPU with its APIC ID reached the slot table)";
}

static void apic_start_ipi(uint32_t id, uint32_t icr, bool broadcast)
{
	if (broadcast)
		apic_send(0, icr | APIC_DEST_ALLBUT);
	else
		apic_send(id, icr);
	apic_wait_icr_idle(1000);
}

static bool alias8(uint32_t started, uint32_t other)
{
	return (started & 0xff) == 0xff || (started & 0xff) == (other & 0xff);
}

/* Which start woke a CPU that was not being started: the stray read the
 * APIC ID being started when it entered the trampoline, which under a
 * busy host can be a later start than the one that woke it; so look back
 * from there for the start whose destination matches it on 8 bits. */
static uint32_t culprit(uint32_t target, uint32_t id, bool sim)
{
	unsigned t = nslots;

	if (sim)	/* the simulated broadcast goes with the first start */
		return slots[0].apic_id;
	for (unsigned i = 0; i < nslots; i++)
		if (slots[i].apic_id == target)
			t = i;
	if (t == nslots)
		return target;
	for (unsigned i = t + 1; i-- > 0;)
		if (alias8(slots[i].apic_id, id))
			return slots[i].apic_id;
	return target;
}

static const char *why_alias(uint32_t a, uint32_t b, bool sim)
{
	if (sim)
		return "[simulate=ap-alias]";
	if (!alias8(a, b) || apic_fw_x2apic)
		return "the start IPI reached a CPU it was not addressed to";
	if ((a & 0xff) == 0xff)
		return "firmware left APs in xAPIC mode, where destination 0xFF (the low 8 bits of this ID) is the broadcast address";
	return "firmware left IDs above 255 in xAPIC mode, where a destination matches on its low 8 bits";
}

/* Report every stray recorded since the last call.  Returns how many
 * new ones were errors (not late arrivals). */
static unsigned report_strays(bool sim)
{
	unsigned n = __atomic_load_n(&strays.count, __ATOMIC_ACQUIRE), errors = 0;
	unsigned have = n < STRAYS_MAX ? n : STRAYS_MAX;

	for (unsigned i = 0; i < have; i++) {
		struct ap_stray *s = &strays.e[i];

		if (stray_reported[i] || !__atomic_load_n(&s->valid, __ATOMIC_ACQUIRE))
			continue;
		stray_reported[i] = true;
		if (s->reason == SLOT_GIVEN_UP) {
			result.late++;
			arch_warn("smp", "APIC ID %u arrived after it was given up; parked it (it stays out)",
				  s->apic_id);
			continue;
		}
		errors++;
		if (s->reason == SLOT_CLAIMED && s->apic_id != s->claimed) {
			arch_error("smp", "APIC ID %u answered twice: a second CPU (CPUID says APIC ID %u) identified itself as %u and found the slot claimed; parked it%s",
				   s->claimed, s->apic_id, s->claimed, sim ? " [simulate=ap-alias]" : "");
		} else if (s->reason == SLOT_CLAIMED) {
			arch_error("smp", "APIC ID %u answered twice: a second CPU with that initial APIC ID found the slot claimed; parked it",
				   s->claimed);
		} else if (s->reason == SLOT_IDLE && s->target != 0xffffffffu) {
			uint32_t c = culprit(s->target, s->claimed, sim);

			arch_error("smp", "APIC IDs %u and %u answered one start (INIT/SIPI for APIC ID %u): %s; parked APIC ID %u until its own start",
				   c, s->claimed, c, why_alias(c, s->claimed, sim), s->claimed);
		} else if (s->reason == SLOT_IDLE) {
			arch_error("smp", "APIC ID %u started though it was not being started; parked it",
				   s->claimed);
		} else {
			arch_error("smp", "APIC ID %u started though no start was meant for it (no slot: not an enabled MADT CPU, or left out by cpus=)%s; parked it",
				   s->claimed, !apic_fw_x2apic && s->claimed > 0xfe ?
				   ": firmware left it in xAPIC mode, where a start for another ID with the same low 8 bits reaches it" : "");
		}
	}
	if (n > STRAYS_MAX && !result.strays_overflow) {
		result.strays_overflow = n - STRAYS_MAX;
		arch_error("smp", "%u more stray CPUs parked than can be listed", n - STRAYS_MAX);
	}
	result.strays += errors;
	return errors;
}

unsigned smpboot_check_strays(void)
{
	if (tramp)
		report_strays(false);
	return result.strays;
}

/* Seen online: give it its index and its latency on the BSP's clock. */
static void collect(unsigned i, uint64_t now, bool *seen)
{
	struct percpu *p = slot_cpu(i);

	if (seen[i] || __atomic_load_n(&p->stage, __ATOMIC_ACQUIRE) != AP_ONLINE)
		return;
	seen[i] = true;
	p->start_latency_cycles = now - p->start_tsc;
}

/* Give up on slot i: a late claimant parks; one that claimed and is
 * still on its way halts in ap_entry; INIT puts it in wait-for-SIPI. */
static unsigned serial_base[3];	/* serial: stage counters before this start */
static bool serial_mode;

static void give_up(unsigned i, unsigned timeout_ms)
{
	struct percpu *p = slot_cpu(i);
	uint32_t armed = SLOT_ARMED;
	char since[120] = "";

	p->lost = true;
	(void)__atomic_compare_exchange_n(&slots[i].state, &armed, SLOT_GIVEN_UP, false,
					  __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	mfence();
	result.failed++;
	/* Serial: only this start was in flight, so the shared stage counters
	 * say how far it got before identifying itself. */
	if (serial_mode)
		rl_snprintf(since, sizeof(since), " (since its INIT: %u CPU(s) entered real mode, %u protected mode, %u long mode)",
			    counter(tramp_n_real) - serial_base[0], counter(tramp_n_pm) - serial_base[1],
			    counter(tramp_n_lm) - serial_base[2]);
	arch_error("smp", "APIC ID %u (ACPI UID %u) did not start within %u ms: got as far as %s%s after %u SIPI(s); continuing without it",
		   slots[i].apic_id, p->acpi_uid, timeout_ms, slot_stage(i), since, slot_sipis[i]);
	apic_send(slots[i].apic_id, APIC_DM_INIT | APIC_INT_LEVELTRIG | APIC_INT_ASSERT);
	apic_wait_icr_idle(1000);
	apic_send(slots[i].apic_id, APIC_DM_INIT | APIC_INT_LEVELTRIG);
	apic_wait_icr_idle(1000);
}

/* simulate=ap-late: the first AP's SIPI was held back until it was given
 * up; send it now (give_up() has just left it in wait-for-SIPI) and wait,
 * bounded by the AP timeout, for it to reach the slot table, find its slot
 * given up and park: the path a real AP takes when it starts after the
 * BSP stopped waiting for it. */
static void sim_late_start(unsigned timeout_ms)
{
	uint32_t vector = (uint32_t)((uintptr_t)tramp >> 12);
	unsigned before = strays.count;
	uint64_t end;

	arch_diag("smp: simulate=ap-late: APIC ID %u given up with its SIPI held back; sending it now",
		  slots[0].apic_id);
	apic_start_ipi(slots[0].apic_id, APIC_DM_STARTUP | vector, false);
	slot_sipis[0]++;
	end = rdtsc() + tsc_ms_to_cycles(timeout_ms);
	while (__atomic_load_n(&strays.count, __ATOMIC_ACQUIRE) == before && rdtsc() < end)
		cpu_relax();
	if (__atomic_load_n(&strays.count, __ATOMIC_ACQUIRE) == before)
		arch_error("smp", "simulate=ap-late: APIC ID %u did not arrive within %u ms of its late SIPI",
			   slots[0].apic_id, timeout_ms);
}

static bool online(unsigned i)
{
	return __atomic_load_n(&slot_cpu(i)->stage, __ATOMIC_ACQUIRE) == AP_ONLINE;
}

/* INIT to all, SIPI to all, a second SIPI to whoever has not claimed, then
 * wait while progress is being made: an AP is given up when no AP has
 * made any progress for timeout_ms (under TCG, hundreds of vCPUs share a
 * few host cores, so a fixed per-AP deadline would mean nothing). */
static void start_parallel(bool slow, unsigned timeout_ms, bool *seen)
{
	uint32_t vector = (uint32_t)((uintptr_t)tramp >> 12);
	bool sim_nostart = prm.sim_ap_nostart || prm.sim_ap_late, sim_alias = prm.sim_ap_alias;

	for (unsigned i = 0; i < nslots; i++)
		slots[i].state = SLOT_ARMED;
	mfence();	/* WRMSR to the x2APIC ICR is not serializing (SDM §11.12.3) */
	(void)apic_read_esr();
	for (unsigned i = 0; i < nslots; i++) {
		slot_cpu(i)->start_tsc = rdtsc();
		apic_start_ipi(slots[i].apic_id, APIC_DM_INIT | APIC_INT_LEVELTRIG | APIC_INT_ASSERT,
			       sim_alias && i == 0);
	}
	tsc_delay_us(slow ? 10000 : 10);
	for (unsigned i = 0; i < nslots; i++)
		apic_start_ipi(slots[i].apic_id, APIC_DM_INIT | APIC_INT_LEVELTRIG, sim_alias && i == 0);
	for (int round = 0; round < 2; round++) {
		tsc_delay_us(slow ? 300 : 10);
		for (unsigned i = 0; i < nslots; i++) {
			if ((sim_nostart && i == 0) || slots[i].state != SLOT_ARMED)
				continue;
			apic_start_ipi(slots[i].apic_id, APIC_DM_STARTUP | vector, sim_alias && i == 0);
			slot_sipis[i]++;
		}
		if (round == 0)
			tsc_delay_us(slow ? 200 : SIPI_RETRY_US);
	}
	uint32_t esr = apic_read_esr() & 0xef;

	if (esr)
		arch_warn("smp", "APIC error 0x%x after the start IPIs", esr);

	unsigned last = ~0u, left = nslots;
	uint64_t quiet_since = rdtsc(), limit = tsc_ms_to_cycles(timeout_ms);

	while (left) {
		uint64_t now = rdtsc();
		unsigned progress = sign_of_life();

		left = 0;
		for (unsigned i = 0; i < nslots; i++) {
			collect(i, now, seen);
			progress += seen[i] + (slots[i].state == SLOT_CLAIMED) + slot_cpu(i)->stage;
			left += !seen[i];
		}
		progress += strays.count;
		if (progress != last) {
			last = progress;
			quiet_since = now;
		} else if (now - quiet_since > limit) {
			break;
		}
		cpu_relax();
	}
	for (unsigned i = 0; i < nslots; i++)
		if (!seen[i])
			give_up(i, timeout_ms);
	if (prm.sim_ap_late && !seen[0])
		sim_late_start(timeout_ms);
	/* Anyone who came online while the others were given up. */
	for (unsigned i = 0; i < nslots; i++)
		if (!seen[i] && online(i))
			arch_warn("smp", "APIC ID %u came online just after it was given up; left out",
				  slots[i].apic_id);
}

/* One AP at a time, only its slot armed (SDM vol. 3 §9.4.4.1 INIT-SIPI-
 * SIPI with the short delays modern CPUs allow: Intel family >= 6 and AMD
 * family >= 0xF need no 10 ms INIT delay, as Linux's
 * wakeup_secondary_cpu_via_init() assumes). */
static void start_serial(bool slow, unsigned timeout_ms, bool *seen)
{
	uint32_t vector = (uint32_t)((uintptr_t)tramp >> 12);
	bool sim_alias = prm.sim_ap_alias;

	for (unsigned i = 0; i < nslots; i++) {
		uint32_t id = slots[i].apic_id;
		bool bcast = sim_alias && i == 0;
		struct percpu *p = slot_cpu(i);

		TRAMP_FIELD(uint32_t, tramp_target) = id;
		serial_mode = true;
		serial_base[0] = counter(tramp_n_real);
		serial_base[1] = counter(tramp_n_pm);
		serial_base[2] = counter(tramp_n_lm);
		slots[i].state = SLOT_ARMED;
		mfence();
		(void)apic_read_esr();
		p->start_tsc = rdtsc();
		apic_start_ipi(id, APIC_DM_INIT | APIC_INT_LEVELTRIG | APIC_INT_ASSERT, bcast);
		tsc_delay_us(slow ? 10000 : 10);
		apic_start_ipi(id, APIC_DM_INIT | APIC_INT_LEVELTRIG, bcast);
		unsigned before = sign_of_life();

		for (int r = 0; r < ((prm.sim_ap_nostart || prm.sim_ap_late) && i == 0 ? 0 : 2); r++) {
			tsc_delay_us(slow ? 300 : 10);
			apic_start_ipi(id, APIC_DM_STARTUP | vector, bcast);
			slot_sipis[i]++;
			tsc_delay_us(slow ? 200 : 10);
			/* A second SIPI only if the first one did not take. */
			uint64_t end = rdtsc() + tsc_us_to_cycles(SIPI_RETRY_US);

			while (sign_of_life() == before && slots[i].state == SLOT_ARMED && rdtsc() < end)
				cpu_relax();
			if (sign_of_life() != before || slots[i].state != SLOT_ARMED)
				break;
		}
		uint32_t esr = apic_read_esr() & 0xef;

		if (esr)
			arch_warn("smp", "APIC error 0x%x after starting APIC ID %u", esr, id);
		uint64_t end = rdtsc() + tsc_ms_to_cycles(timeout_ms);

		while (!online(i) && rdtsc() < end)
			cpu_relax();
		collect(i, rdtsc(), seen);
		if (!seen[i])
			give_up(i, timeout_ms);
		if (prm.sim_ap_late && i == 0 && !seen[0])
			sim_late_start(timeout_ms);
		/* Let an aliased second CPU reach the slot table before the
		 * next start changes the target (bounded; it only affects
		 * which start the report names). */
		end = rdtsc() + tsc_ms_to_cycles(SORT_WAIT_MS);
		while (counter(tramp_n_sorted) < counter(tramp_n_real) && rdtsc() < end)
			cpu_relax();
		report_strays(sim_alias);
	}
	TRAMP_FIELD(uint32_t, tramp_target) = 0xffffffffu;
}

void smpboot_start_aps(const struct smpboot_params *params, const struct acpi_info *ai,
		       struct smpboot_result *res)
{
	uint32_t bsp_id = apic_mode != APIC_MODE_NONE ? apic_id() : 0;
	unsigned limit = params->cpus ? params->cpus : MAX_CPUS;
	unsigned timeout_ms = params->ap_timeout_ms ? params->ap_timeout_ms : DEFAULT_AP_TIMEOUT_MS;
	struct cpuid_regs l1 = cpuid(1);
	unsigned family = (l1.eax >> 8) & 0xf;
	bool slow = family < 6;	/* Intel P6+ and all AMD64 (family 0xF+) are fast */
	bool serial = params->serial;
	uint64_t t_all = rdtsc();
	bool bsp_listed = false;
	unsigned high_ids = 0;

	prm = *params;
	memset(&result, 0, sizeof(result));
	result.serial = serial;
	cpus[0]->apic_id = bsp_id;
	topo_read(&cpus[0]->topo);
	cpus[0]->online = true;
	cpus[0]->stage = AP_ONLINE;
	if (ai->have_madt) {
		result.listed = ai->ncpus + ai->ncpus_ignored + ai->ncpus_dropped;
		result.enabled = acpi_enabled_cpus(ai);
	}
	if (!ai->have_madt) {
		arch_diag("smp: no usable MADT: running on the boot CPU only");
		goto out;
	}
	if (apic_mode == APIC_MODE_NONE) {
		arch_error("smp", "no local APIC: running on the boot CPU only");
		goto out;
	}
	for (unsigned i = 0; i < ai->ncpus; i++) {
		if (ai->cpus[i].apic_id == bsp_id) {
			bsp_listed = true;
			cpus[0]->acpi_uid = ai->cpus[i].uid;
		}
		if ((ai->cpus[i].flags & ACPI_MADT_ENABLED) && ai->cpus[i].apic_id > 0xfe)
			high_ids++;
	}
	if (!bsp_listed)
		arch_warn("smp", "the boot CPU's APIC ID %u is not in the MADT", bsp_id);
	if (prm.nosmp) {
		arch_diag("smp: nosmp: not starting application processors");
		result.skipped = result.enabled ? result.enabled - 1 : 0;
		goto out;
	}
	if (high_ids && !apic_fw_x2apic && apic_mode == APIC_MODE_X2APIC) {
		result.fw_xapic_high = high_ids;
		arch_warn("smp", "firmware handed over in xAPIC mode, but the MADT has %u CPU(s) with APIC IDs above 254: until an AP enables x2APIC, a start IPI for APIC ID k also reaches k+256 (xAPIC matches 8 bits); %s",
			  high_ids, serial ? "smpboot=serial: expect CPUs answering starts meant for others" :
			  "parallel start (every INIT before any SIPI; each AP enables x2APIC and identifies itself from CPUID) is safe under this");
	}
	tramp = find_trampoline_page(TRAMP_LOW);
	if (!tramp) {
		arch_error("smp", "no free RAM page between 0x%llx and 0x%llx for the AP trampoline",
			   TRAMP_LOW, TRAMP_HIGH);
		goto out;
	}
	slots = prm.page_alloc((ai->ncpus * sizeof(struct ap_slot) + PAGE_SIZE - 1) / PAGE_SIZE + 1);
	slot_sipis = prm.page_alloc((ai->ncpus * sizeof(unsigned) + PAGE_SIZE - 1) / PAGE_SIZE + 1);
	if (!slots || !slot_sipis) {
		arch_error("smp", "out of memory for the AP slot table");
		goto out;
	}
	for (unsigned i = 0; i < ai->ncpus; i++) {
		const struct acpi_cpu *ac = &ai->cpus[i];

		if (!(ac->flags & ACPI_MADT_ENABLED) || ac->apic_id == bsp_id)
			continue;
		if (nslots + 1 >= limit || nslots + 1 >= MAX_CPUS) {
			result.skipped++;
			continue;
		}
		if (apic_mode == APIC_MODE_XAPIC && ac->apic_id > 0xfe) {
			arch_error("smp", "APIC ID %u (ACPI UID %u) is not addressable in xAPIC mode; not started",
				   ac->apic_id, ac->uid);
			result.skipped++;
			continue;
		}
		struct percpu *p = alloc_percpu(ac);

		if (!p) {
			arch_error("smp", "out of memory for per-CPU areas after %u CPUs", nslots + 1);
			result.skipped++;
			break;
		}
		slots[nslots] = (struct ap_slot){
			.apic_id = ac->apic_id, .state = SLOT_IDLE,
			.stack_top = p->stack_top, .percpu = (uint64_t)(uintptr_t)p,
		};
		nslots++;
	}
	result.attempted = nslots;
	if (!nslots)
		goto out;

	uint32_t flags = apic_mode == APIC_MODE_X2APIC ? TF_X2APIC : 0;

	install_trampoline(flags);
	if (prm.sim_ap_alias) {
		if (nslots >= 2) {
			/* The second AP says it is the first; and the first
			 * start is broadcast, so every AP answers it. */
			TRAMP_FIELD(uint32_t, tramp_sim_from) = slots[1].apic_id;
			TRAMP_FIELD(uint32_t, tramp_sim_to) = slots[0].apic_id;
			TRAMP_FIELD(uint32_t, tramp_flags) = flags | TF_SIM_ALIAS;
			arch_diag("smp: simulate=ap-alias: the first start goes to all APs, and APIC ID %u identifies itself as %u",
				  slots[1].apic_id, slots[0].apic_id);
		} else {
			arch_warn("smp", "simulate=ap-alias needs at least 3 CPUs; not simulating");
		}
	}
	static bool seen[MAX_CPUS];

	if (serial)
		start_serial(slow, timeout_ms, seen);
	else
		start_parallel(slow, timeout_ms, seen);
	/* Number the online APs 1..n in MADT order; they use their index
	 * only for work posted after this (ordered by the doorbell). */
	for (unsigned i = 0; i < nslots; i++) {
		struct percpu *p = slot_cpu(i);

		if (!seen[i]) {
			p->index = MAX_CPUS - 1 - i;	/* out of everyone's way */
			continue;
		}
		p->index = ncpus;
		cpus[ncpus++] = p;
		result.started++;
	}
	mfence();
	arch_diag("smp: %s start: %u of %u APs online; trampoline counters: %u CPU(s) reached real mode, %u protected mode, %u long mode, %u claimed a slot or parked",
		  serial ? "serial" : "parallel", result.started, nslots, counter(tramp_n_real),
		  counter(tramp_n_pm), counter(tramp_n_lm), counter(tramp_n_sorted));
	report_strays(prm.sim_ap_alias);
	if (result.skipped && prm.cpus)
		arch_diag("smp: cpus=%u: %u enabled CPU(s) not started", prm.cpus, result.skipped);
out:
	result.total_cycles = rdtsc() - t_all;
	*res = result;
}

const struct smpboot_result *smpboot_get_result(void)
{
	return &result;
}
