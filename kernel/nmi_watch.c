/* NMI watchdog for the boot CPU.
 *
 * The case budget is enforced by the boot CPU's own LAPIC timer
 * (arch/x86/apic_timer.c), a maskable interrupt: a case that spins with
 * interrupts off never sees it (issue 12 D3).  So one AP, the watcher,
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
 * re-arms a watcher whose heartbeat stopped.  With one CPU there is no
 * watcher (fault.hang_irqoff then skips). */
#include "kernel/nmi_watch.h"
#include "arch/x86/apic.h"
#include "arch/x86/apic_timer.h"
#include "arch/x86/tsc_read.h"
#include "arch/x86/percpu.h"
#include "kernel/platform.h"
#include "kernel/report.h"
#include "kernel/smp.h"

#define NMI_WATCH_PERIOD_MS	50
#define NMI_WATCH_GRACE_MS	200	/* after the deadline, before the NMI */

static volatile unsigned watcher;	/* CPU index; 0 = none */
static volatile uint64_t deadline, seq, heartbeat, sent_seq;

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

void nmi_watch_start(void)
{
	static unsigned others[MAX_CPUS];	/* 16 KiB: not on the boot stack */
	unsigned n = apic_mode == APIC_MODE_NONE ? 0 : plat_other_cpus(others, MAX_CPUS);

	/* The last AP: the suites use the first ones. */
	if (!n || !arm(others[n - 1])) {
		rep_diag("watchdog: no CPU watches the boot CPU: a case that hangs with interrupts off cannot be stopped in this run");
		return;
	}
	watcher = others[n - 1];
	rep_diag("watchdog: cpu %u checks the boot CPU's case budget every %u ms and stops an overrun with interrupts off by an NMI %u ms after the deadline",
		 watcher, NMI_WATCH_PERIOD_MS, NMI_WATCH_GRACE_MS);
}

bool nmi_watch_available(void)
{
	return watcher && plat_online(watcher);
}

void nmi_watch_case_begin(uint64_t deadline_tsc)
{
	cpus[0]->case_seq = seq + 1;
	seq = seq + 1;
	deadline = deadline_tsc;
	if (!nmi_watch_available() || !deadline_tsc)
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
