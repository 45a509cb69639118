/* SPDX-License-Identifier: GPL-2.0-only */
/* NMI watchdog for the boot CPU.
 *
 * The case budget is enforced by the boot CPU's own LAPIC timer
 * (arch/x86/apic_timer.c), a maskable interrupt: a case that spins with
 * interrupts off never sees it (SDM vol. 3 §6.8.1).  So one AP, the watcher,
 * runs a periodic timer tick; at each tick it compares the TSC with the
 * boot CPU's published case deadline and, once it is NMI_WATCH_GRACE past,
 * sets the boot CPU's timeout_req to the case's sequence number and sends
 * it an NMI (SDM vol. 3 §11.6.1, delivery mode NMI; an NMI is not blocked
 * by RFLAGS.IF, §6.8.1).  The NMI handler (arch/x86/traps.c) unwinds the
 * case as TIMEOUT and the run goes on.  The grace lets the maskable
 * watchdog act first whenever interrupts are on.
 *
 * Limits: the watcher ticks only while its own timer is not claimed by a
 * test and it is not itself spinning with interrupts off; a case start
 * re-arms a watcher whose heartbeat stopped.
 *
 * With one CPU (or when no AP can be armed) there is no watcher; the
 * boot CPU then checks its own deadline in a periodic NMI, the way
 * Linux's old IO-APIC NMI watchdog (nmi_watchdog=1) did: the 8254 PIT
 * channel 0 in mode 2 raises ISA IRQ 0 every 50 ms; it arrives at the I/O
 * APIC pin of the MADT's interrupt source override for IRQ 0 (GSI 2 on
 * most PCs; identity without one), whose redirection entry is programmed
 * delivery mode NMI, edge, physical destination = the boot CPU's APIC ID
 * (I/O APIC datasheet §3.2.4; SDM vol. 3 §11.6.1).  handle_nmi calls
 * nmi_watch_tick() first (arch hook, kernel/arch_hooks.c); past the deadline plus
 * grace it sets timeout_req and the usual unwind runs.  The 8259s are
 * masked (arch/x86/apic.c), so IRQ 0 reaches the CPU only as this NMI.
 * The source is armed only when there is no watcher (its 20 Hz NMIs
 * would perturb measurements for nothing), and is checked to tick before
 * it is trusted.  The original entry is saved and restored (masked first),
 * and channel 0 is put back to the BIOS setting, at the end of the run
 * (nmi_watch_stop()) and on panic (nmi_watch_panic_stop()).
 *
 * Limits of that source: the boot CPU's APIC ID must fit the entry's 8-bit
 * destination (x2APIC IDs > 255 would need interrupt remapping); the ISA
 * routing must come from the MADT (an MP-table-only machine's I/O
 * interrupt entries are not parsed); a PIT whose clock is gated off, or an
 * HPET in legacy replacement mode, gives no tick and the source is
 * refused; a test that disables the local APIC (IA32_APIC_BASE) also stops
 * its NMIs from arriving. */
#include "kernel/nmi_watch.h"
#include "arch/x86/acpi.h"
#include "arch/x86/apic.h"
#include "arch/x86/apic_timer.h"
#include "arch/x86/cpu.h"
#include "arch/x86/ioapic.h"
#include "arch/x86/pic.h"
#include "arch/x86/pit.h"
#include "arch/x86/traps.h"
#include "arch/x86/tsc_read.h"
#include "arch/x86/percpu.h"
#include "kernel/kernel.h"
#include "kernel/platform.h"
#include "kernel/report.h"
#include "kernel/smp.h"
#include "lib/printf.h"
#include "lib/string.h"

#define NMI_WATCH_PERIOD_MS	50
#define NMI_WATCH_GRACE_MS	200	/* after the deadline, before the NMI */
/* PIT channel 0 divisor for NMI_WATCH_PERIOD_MS: 1193182 Hz x 50 ms */
#define UP_PIT_DIVISOR		((PIT_HZ * NMI_WATCH_PERIOD_MS + 500) / 1000)
#define UP_ISA_IRQ		0	/* PIT channel 0's output */
#define UP_PROBE_MS		300	/* wait for the first ticks when arming */
#define UP_PROBE_TICKS		2
/* The probe ticks at 1 ms, then the period is set: two 50 ms ticks were
 * 100 ms of every uniprocessor boot. */
#define UP_PROBE_DIVISOR	((PIT_HZ + 500) / 1000)

_Static_assert(UP_PIT_DIVISOR > 0 && UP_PIT_DIVISOR <= 0xffff, "PIT divisor out of range");

static volatile unsigned watcher;	/* CPU index; 0 = none */
static volatile uint64_t deadline, seq, heartbeat, sent_seq;

/* The uniprocessor source: I/O APIC pin -> NMI, fed by PIT channel 0. */
static volatile enum { UP_OFF, UP_ARMED, UP_STOPPED } up_state;
static struct ioapic_pin up_pin;
static uint64_t up_saved_rte, up_grace_cycles;
static uint8_t up_pit_status;
static unsigned up_pit_mode;	/* what up_restore() put back */
static volatile uint64_t up_ticks;

static void tick(void)
{
	uint64_t now = lfence_rdtsc(), s = seq, d = deadline;

	heartbeat = now;
	if (!d || s == sent_seq || now < d + plat_ns_to_cycles(NMI_WATCH_GRACE_MS * 1000000ull))
		return;
	sent_seq = s;
	cpus[0]->timeout_by = plat_this_cpu();
	__atomic_store_n(&cpus[0]->timeout_req, s, __ATOMIC_RELEASE);
	apic_send(cpus[0]->apic_id, APIC_DM_NMI);
}

static void start_tick(void *arg)
{
	(void)arg;
	heartbeat = lfence_rdtsc();
	timer_set_tick(tick, plat_ns_to_cycles(NMI_WATCH_PERIOD_MS * 1000000ull));
}

static bool arm(unsigned cpu)
{
	return plat_call(cpu, start_tick, NULL, T_LOST_US / 1000) == PLAT_OK;
}

/* The boot CPU's NMI hook (arch/x86/traps.c handle_nmi, first thing on
 * the boot CPU): NMI context, so only loads, the TSC and two stores. */
bool nmi_watch_tick(void)
{
	if (up_state == UP_OFF)
		return false;
	up_ticks++;
	if (up_state != UP_ARMED)
		return true;	/* a tick latched before the stop: quiet */

	uint64_t s = seq, d = deadline;

	if (!d || s == sent_seq || lfence_rdtsc() < d + up_grace_cycles)
		return true;
	sent_seq = s;
	cpus[0]->timeout_by = TIMEOUT_BY_PERIODIC_NMI;
	__atomic_store_n(&cpus[0]->timeout_req, s, __ATOMIC_RELEASE);
	return true;
}

static void up_restore(void)
{
	/* Masked first (ioapic_rte_write), then the firmware's entry. */
	ioapic_rte_write(&up_pin, up_saved_rte | IOAPIC_RTE_MASKED);
	ioapic_rte_write(&up_pin, up_saved_rte);
	up_pit_mode = pit_ch0_restore(up_pit_status);
}

/* Arm the uniprocessor source; false with the reason in why. */
static bool up_start(char *why, size_t why_size)
{
	uint16_t flags;
	uint32_t gsi;
	uint64_t rte, t0;

	if (apic_mode == APIC_MODE_NONE) {
		rl_snprintf(why, why_size, "no local APIC");
		return false;
	}
	if (!acpi.cpus_source || strcmp(acpi.cpus_source, "madt")) {
		rl_snprintf(why, why_size, "the ISA IRQ 0 routing is unknown (no usable MADT)");
		return false;
	}
	if (!ioapic_rte_nmi(cpus[0]->apic_id, false, true, &rte)) {
		rl_snprintf(why, why_size,
			    "the boot CPU's APIC ID %u does not fit an I/O APIC entry's 8-bit destination (x2APIC without interrupt remapping)",
			    cpus[0]->apic_id);
		return false;
	}
	if ((acpi.madt_flags & ACPI_MADT_PCAT_COMPAT) && !pic_irq_masked(UP_ISA_IRQ)) {
		/* IRQ 0 would also reach the CPU through the 8259. */
		rl_snprintf(why, why_size, "the 8259 leaves IRQ 0 unmasked");
		return false;
	}
	gsi = acpi_isa_irq_gsi(&acpi, UP_ISA_IRQ, &flags);
	if (!ioapic_find_gsi(&acpi, gsi, &up_pin, why, why_size))
		return false;
	/* NMI must be edge-triggered whatever the override says; only the
	 * polarity is taken from it (ISA default: active high). */
	ioapic_rte_nmi(cpus[0]->apic_id, (flags & ACPI_INTI_POLARITY_MASK) == ACPI_INTI_POLARITY_LOW,
		       true, &rte);
	up_saved_rte = ioapic_rte_read(&up_pin);
	up_pit_status = pit_ch0_status();
	up_grace_cycles = plat_ns_to_cycles(NMI_WATCH_GRACE_MS * 1000000ull);
	up_ticks = 0;
	up_state = UP_ARMED;
	ioapic_rte_write(&up_pin, rte);
	pit_ch0_periodic(UP_PROBE_DIVISOR);
	ioapic_rte_write(&up_pin, rte & ~IOAPIC_RTE_MASKED);

	/* Trust it only once it ticks: a PIT with its clock gated off or an
	 * HPET in legacy replacement mode (IRQ 0 taken over) gives none. */
	t0 = lfence_rdtsc();
	while (up_ticks < UP_PROBE_TICKS &&
	       lfence_rdtsc() - t0 < plat_ns_to_cycles(UP_PROBE_MS * 1000000ull))
		cpu_relax();
	if (up_ticks < UP_PROBE_TICKS) {
		unsigned n = (unsigned)up_ticks;

		up_state = UP_STOPPED;
		up_restore();
		rl_snprintf(why, why_size,
			    "I/O APIC %u pin %u (GSI %u) programmed for NMI, but %u NMI(s) arrived from PIT channel 0 in %u ms (PIT clock gated off, or IRQ 0 taken by an HPET in legacy mode?); entry restored",
			    up_pin.id, up_pin.pin, gsi, n, UP_PROBE_MS);
		return false;
	}
	pit_ch0_periodic(UP_PIT_DIVISOR);
	return true;
}

void nmi_watch_start(void)
{
	static unsigned others[MAX_CPUS];	/* 16 KiB: not on the boot stack */
	unsigned n = apic_mode == APIC_MODE_NONE ? 0 : plat_other_cpus(others, MAX_CPUS);
	char nowatch[64], why[240];

	/* The last AP: the suites use the first ones. */
	if (n && arm(others[n - 1])) {
		watcher = others[n - 1];
		rep_diag("watchdog: cpu %u checks the boot CPU's case budget every %u ms and stops an overrun with interrupts off by an NMI %u ms after the deadline",
			 watcher, NMI_WATCH_PERIOD_MS, NMI_WATCH_GRACE_MS);
		return;
	}
	if (n)
		rl_snprintf(nowatch, sizeof(nowatch), "cpu %u did not start a watcher tick", others[n - 1]);
	else
		rl_snprintf(nowatch, sizeof(nowatch), "no other CPU online");
	if (up_start(why, sizeof(why))) {
		rep_diag("watchdog: no watcher CPU (%s); the boot CPU checks its own case budget in an NMI from I/O APIC %u pin %u (GSI %u) fed by PIT channel 0 every %u ms, and stops an overrun with interrupts off %u ms after the deadline; measurements in this run see this ~%u Hz NMI",
			 nowatch, up_pin.id, up_pin.pin, up_pin.gsi, NMI_WATCH_PERIOD_MS,
			 NMI_WATCH_GRACE_MS, 1000 / NMI_WATCH_PERIOD_MS);
		rep_diag("watchdog: I/O APIC %u at 0x%llx pin %u entry was 0x%016llx, PIT channel 0 status 0x%02x; both restored at the end of the run",
			 up_pin.id, (unsigned long long)up_pin.phys, up_pin.pin,
			 (unsigned long long)up_saved_rte, up_pit_status);
		return;
	}
	rep_diag("watchdog: no CPU watches the boot CPU (%s) and no I/O APIC NMI source (%s): a case that hangs with interrupts off cannot be stopped in this run",
		 nowatch, why);
}

void nmi_watch_stop(void)
{
	if (up_state != UP_ARMED)
		return;
	up_state = UP_STOPPED;
	up_restore();
	rep_diag("watchdog: I/O APIC %u pin %u entry restored to 0x%016llx (now 0x%016llx), PIT channel 0 back to mode %u, count 65536; %llu periodic NMIs taken",
		 up_pin.id, up_pin.pin, (unsigned long long)up_saved_rte,
		 (unsigned long long)ioapic_rte_read(&up_pin), up_pit_mode, (unsigned long long)up_ticks);
}

void nmi_watch_panic_stop(void)
{
	if (up_state != UP_ARMED)
		return;
	up_state = UP_STOPPED;
	up_restore();
}

bool nmi_watch_available(void)
{
	return (watcher && plat_online(watcher)) || up_state == UP_ARMED;
}

void nmi_watch_case_begin(uint64_t deadline_tsc)
{
	cpus[0]->case_seq = seq + 1;
	seq = seq + 1;
	deadline = deadline_tsc;
	if (!watcher || !nmi_watch_available() || !deadline_tsc)
		return;
	/* A test that claimed the watcher's timer (or switched APIC mode)
	 * may have stopped its tick: start it again. */
	if (lfence_rdtsc() - heartbeat > plat_ns_to_cycles(4 * NMI_WATCH_PERIOD_MS * 1000000ull) &&
	    !arm(watcher))
		rep_warn("watchdog", "watcher cpu %u did not restart its tick", watcher);
}

void nmi_watch_case_end(void)
{
	deadline = 0;
}
