/* SPDX-License-Identifier: GPL-2.0-only */
/* Cross-CPU calls; see platform.h and smp.h.
 *
 * Each CPU has a one-slot mailbox (struct mailbox below, this file's own).  The poster writes fn/arg,
 * bumps work_seq and rings the doorbell (VEC_CALL); the AP's idle loop runs
 * the work under a CATCH_WORK catch point and sets done_seq.  A poster that
 * waits too long sets abort_req and sends an NMI, whose handler unwinds the
 * work (arch/x86/traps.c); an AP that does not answer even that is marked
 * lost and never used again. */
#include "kernel/smp.h"
#include "arch/x86/apic.h"
#include "arch/x86/catch.h"
#include "arch/x86/cpu.h"
#include "arch/x86/traps.h"
#include "arch/x86/tsc.h"
#include "arch/x86/tsc_read.h"
#include "arch/x86/vectors.h"
#include "kernel/platform.h"
#include "kernel/report.h"

/* One work item at a time per CPU, indexed by CPU number. */
struct mailbox {
	void (*volatile fn)(void *);
	void *volatile arg;
	const char *volatile activity;	/* poster's activity, for dumps */
	volatile uint64_t work_seq;	/* incremented when a work item is posted */
	volatile uint64_t done_seq;	/* set to work_seq when it finished */
	volatile int status;		/* PLAT_OK, PLAT_FAULT or PLAT_ABORTED */
	volatile int post_lock;
} __attribute__((aligned(64)));
static struct mailbox mailboxes[MAX_CPUS];

static inline struct mailbox *mailbox_of(const struct percpu *c)
{
	return &mailboxes[c->index];
}

/* After the abort NMI, how long to wait before declaring a CPU lost. */
#define ABORT_GRACE_MS (T_LOST_US / 1000)

static void doorbell_irq(struct regs *r)
{
	(void)r;	/* waking from HLT is all it is for */
}

void smp_init_calls(void)
{
	irq_set_handler(VEC_CALL, doorbell_irq);
}

const char *plat_strerror(int rc)
{
	switch (rc) {
	case PLAT_OK: return "ok";
	case PLAT_TIMEOUT: return "no answer (CPU lost)";
	case PLAT_FAULT: return "exception";
	case PLAT_ABORTED: return "overran, aborted by NMI";
	case PLAT_OFFLINE: return "CPU offline";
	case PLAT_BUSY: return "CPU busy";
	default: return "invalid request";
	}
}

unsigned plat_ncpus(void)
{
	return ncpus;
}

bool plat_online(unsigned cpu)
{
	return cpu < ncpus && cpus[cpu] && cpus[cpu]->online && !cpus[cpu]->lost;
}

unsigned plat_this_cpu(void)
{
	return this_cpu()->index;
}

uint32_t plat_cpu_apic_id(unsigned cpu)
{
	return cpu < ncpus && cpus[cpu] ? cpus[cpu]->apic_id : 0xffffffffu;
}

unsigned smp_online_count(void)
{
	unsigned n = 0;

	for (unsigned i = 0; i < ncpus; i++)
		if (plat_online(i))
			n++;
	return n;
}

static bool idle(const struct percpu *c)
{
	const struct mailbox *mb = mailbox_of(c);

	return __atomic_load_n(&mb->done_seq, __ATOMIC_ACQUIRE) == mb->work_seq;
}

int plat_post(unsigned cpu, plat_fn fn, void *arg)
{
	if (cpu >= ncpus || !fn)
		return PLAT_INVALID;
	if (!plat_online(cpu))
		return PLAT_OFFLINE;
	if (cpu == plat_this_cpu())
		return PLAT_INVALID;
	struct percpu *c = cpus[cpu];
	struct mailbox *mb = mailbox_of(c);
	uint64_t flags = irq_save();
	uint64_t end = rdtsc_ordered() + tsc_us_to_cycles(T_LOST_US);

	/* Interrupts off while held, so the watchdog cannot unwind a holder;
	 * bounded, because an NMI-aborted poster on another CPU may have left
	 * it taken. */
	while (__atomic_exchange_n(&mb->post_lock, 1, __ATOMIC_ACQUIRE) && rdtsc_ordered() < end)
		cpu_relax();
	if (!idle(c)) {
		__atomic_store_n(&mb->post_lock, 0, __ATOMIC_RELEASE);
		irq_restore(flags);
		return PLAT_BUSY;
	}
	mb->fn = fn;
	mb->arg = arg;
	mb->activity = this_cpu()->activity;
	mb->status = PLAT_OK;
	__atomic_store_n(&mb->work_seq, mb->work_seq + 1, __ATOMIC_RELEASE);
	__atomic_store_n(&mb->post_lock, 0, __ATOMIC_RELEASE);
	irq_restore(flags);
	apic_send(c->apic_id, APIC_DM_FIXED | VEC_CALL);
	return PLAT_OK;
}

static bool wait_idle(struct percpu *c, uint64_t timeout_ms)
{
	uint64_t end = rdtsc_ordered() + tsc_ms_to_cycles(timeout_ms);

	while (!idle(c)) {
		if (rdtsc_ordered() > end)
			return false;
		cpu_relax();
	}
	return true;
}

int plat_wait(unsigned cpu, uint64_t timeout_ms)
{
	if (cpu >= ncpus || !cpus[cpu])
		return PLAT_INVALID;
	struct percpu *c = cpus[cpu];

	if (c->lost)
		return PLAT_OFFLINE;
	if (wait_idle(c, timeout_ms))
		return mailbox_of(c)->status;
	/* Ask it to unwind: the NMI gets through even with interrupts off. */
	c->abort_req = 1;
	apic_send(c->apic_id, APIC_DM_NMI);
	if (wait_idle(c, ABORT_GRACE_MS))
		return PLAT_ABORTED;
	c->lost = true;
	c->online = false;
	rep_error("smp", "cpu %u (apic %u) stopped answering during %s; left out from now on",
		  c->index, c->apic_id, this_cpu()->activity ? this_cpu()->activity : "?");
	return PLAT_TIMEOUT;
}

static void run_work(struct percpu *c)
{
	struct catch_frame f;
	struct mailbox *mb = mailbox_of(c);
	plat_fn fn = mb->fn;
	void *arg = mb->arg;
	uint64_t seq = mb->work_seq;

	c->activity = mb->activity ? mb->activity : "cross-CPU work";
	catch_push(&f, CATCH_WORK);
	if (catch_enter(&f) == 0) {
		fn(arg);
		catch_pop(&f);
		mb->status = PLAT_OK;
	} else {
		mb->status = f.vector == CATCH_ABORT ? PLAT_ABORTED : PLAT_FAULT;
	}
	c->abort_req = 0;
	c->activity = "idle";
	sti();
	__atomic_store_n(&mb->done_seq, seq, __ATOMIC_RELEASE);
}

void smp_ap_idle_loop(void)
{
	struct percpu *c = this_cpu();

	c->activity = "idle";
	for (;;) {
		cli();
		if (!idle(c)) {
			sti();
			run_work(c);
			continue;
		}
		safe_halt();
	}
}

unsigned smp_quiesce(void)
{
	unsigned helped = 0;

	for (unsigned i = 1; i < ncpus; i++) {
		struct percpu *c = cpus[i];

		if (!c || !c->online || c->lost || idle(c))
			continue;
		helped++;
		int rc = plat_wait(i, T_LOST_US / 1000);

		if (rc == PLAT_ABORTED)
			rep_warn("smp", "cpu %u was still running work after the test; aborted it", i);
	}
	return helped;
}
