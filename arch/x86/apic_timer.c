/* SPDX-License-Identifier: GPL-2.0-only */
/* LAPIC timer, watchdog; see apic_timer.h. */
#include "arch/x86/apic_timer.h"
#include "arch/x86/apic.h"
#include "arch/x86/catch.h"
#include "arch/x86/cpu.h"
#include "arch/x86/msr.h"
#include "arch/x86/traps.h"
#include "arch/x86/tsc.h"
#include "arch/x86/tsc_read.h"
#include "arch/x86/vectors.h"
#include "arch/x86/percpu.h"


bool timer_has_tscdeadline;
uint64_t timer_count_hz;
uint64_t timer_count_err_ppm;

/* Per-CPU timer state, indexed by CPU number. */
static struct {
	timer_handler_t claimed;
	uint64_t wd_deadline;
	void (*tick_fn)(void);		/* periodic callback (timer_set_tick) */
	uint64_t tick_period, tick_next;
} tstate[MAX_CPUS];

/* The earliest of the watchdog deadline and the next tick, 0 if none. */
static uint64_t next_deadline(unsigned i)
{
	uint64_t a = tstate[i].wd_deadline, b = tstate[i].tick_fn ? tstate[i].tick_next : 0;

	return !a ? b : !b ? a : a < b ? a : b;
}

unsigned timer_deadline_fallbacks;

#define LVTT_MODE_MASK	(3u << 17)

void timer_stop(void)
{
	/* Disarm a deadline while the LVT is still in TSC-deadline mode: a
	 * write of IA32_TSC_DEADLINE in any other mode is ignored (SDM vol. 3
	 * §11.5.4.1; Bochs logs each one as "TSC-Deadline timer is disabled"),
	 * and leaving deadline mode disarms it anyway. */
	if (timer_has_tscdeadline &&
	    (apic_read(APIC_LVTT) & LVTT_MODE_MASK) == APIC_LVT_TIMER_TSCDEADLINE)
		wrmsr(MSR_IA32_TSC_DEADLINE, 0);
	apic_write(APIC_LVTT, APIC_LVT_MASKED | VEC_TIMER);
	apic_write(APIC_TMICT, 0);
}

void timer_oneshot(uint32_t count, uint32_t divide)
{
	apic_write(APIC_TDCR, divide);
	apic_write(APIC_LVTT, APIC_LVT_TIMER_ONESHOT | VEC_TIMER);
	apic_write(APIC_TMICT, count);
}

void timer_tscdeadline_mode(void)
{
	apic_write(APIC_LVTT, APIC_LVT_TIMER_TSCDEADLINE | VEC_TIMER);
	/* The LVT must be in deadline mode before IA32_TSC_DEADLINE is
	 * written, or the write is ignored (SDM vol. 3 §11.5.4.1).  In xAPIC
	 * mode the LVT write is an MMIO store that a later WRMSR is not
	 * ordered after; Linux puts an MFENCE here for that reason. */
	mfence();
}

static void wd_program(struct percpu *c)
{
	uint64_t deadline = next_deadline(c->index);

	if (!deadline)
		return;
	if (timer_has_tscdeadline) {
		timer_tscdeadline_mode();
		wrmsr(MSR_IA32_TSC_DEADLINE, deadline);
		/* Check that it took: an armed deadline reads back as written
		 * and one that already fired reads 0 (SDM vol. 3 §11.5.4.1),
		 * so 0 before the deadline means the write was dropped, e.g.
		 * because the LVT did not take deadline mode.  The watchdog
		 * (and the NMI watcher's tick) must never rest on a timer
		 * that is not armed: fall back to count mode then. */
		if (rdmsr(MSR_IA32_TSC_DEADLINE) == deadline || rdtsc_ordered() >= deadline ||
		    !timer_count_hz)
			return;
		__atomic_add_fetch(&timer_deadline_fallbacks, 1, __ATOMIC_RELAXED);
	}
	uint64_t now = rdtsc_ordered();
	uint64_t left = deadline > now ? deadline - now : 1;
	/* count ticks at divide 128 for the remaining TSC cycles; a budget
	 * longer than the counter's range fires early and is re-armed. */
	uint64_t ticks = timer_count_hz && tsc_hz ?
		(uint64_t)(((unsigned __int128)left * (timer_count_hz / 128)) / tsc_hz) + 1 : 1;

	if (ticks > 0xffffffffu)
		ticks = 0xffffffffu;
	timer_oneshot((uint32_t)ticks, APIC_TDR_DIV_128);
}

static void timer_irq(struct regs *r)
{
	struct percpu *c = this_cpu();

	if (tstate[c->index].claimed) {
		tstate[c->index].claimed(r);
		return;
	}
	uint64_t now = rdtsc_ordered();

	if (tstate[c->index].tick_fn && now >= tstate[c->index].tick_next) {
		tstate[c->index].tick_next = now + tstate[c->index].tick_period;
		tstate[c->index].tick_fn();
	}
	uint64_t deadline = tstate[c->index].wd_deadline;

	if (!deadline || now < deadline) {
		wd_program(c);
		return;
	}
	tstate[c->index].wd_deadline = 0;
	wd_program(c);		/* the tick, if any, goes on */
	struct catch_frame *f = catch_find(CATCH_TEST);

	if (f)
		catch_deliver(r, f, CATCH_TIMEOUT, true);
}

void timer_after_mode_switch(void)
{
	uint64_t flags = irq_save();
	struct percpu *c = this_cpu();

	/* Passing through the disabled state resets the LVT timer to masked
	 * (SDM vol. 3 §11.4.3; apic_cpu_init() writes it masked too), and
	 * firmware may leave it in any mode: write the LVT first, then arm,
	 * in the new mode's register access (wd_program). */
	timer_stop();
	if (!tstate[c->index].claimed && apic_mode != APIC_MODE_NONE)
		wd_program(c);
	irq_restore(flags);
}

void timer_set_tick(void (*fn)(void), uint64_t period_cycles)
{
	uint64_t flags = irq_save();
	struct percpu *c = this_cpu();

	tstate[c->index].tick_fn = fn;
	tstate[c->index].tick_period = period_cycles;
	tstate[c->index].tick_next = rdtsc_ordered() + period_cycles;
	if (!tstate[c->index].claimed && apic_mode != APIC_MODE_NONE) {
		timer_stop();
		wd_program(c);
	}
	irq_restore(flags);
}

bool apic_timer_init(unsigned window_ms)
{
	timer_has_tscdeadline = x86_cpu_has(X86_FEATURE_TSC_DEADLINE_TIMER);
	irq_set_handler(VEC_TIMER, timer_irq);

	/* Count-mode rate: run the counter at divide 1 for window_ms of TSC, with
	 * each end's count read bracketed by TSC reads (narrowest of 5), so a
	 * disturbed moment at either end cannot skew it. */
	uint64_t flags = irq_save();

	apic_write(APIC_TDCR, APIC_TDR_DIV_1);
	apic_write(APIC_LVTT, APIC_LVT_MASKED | APIC_LVT_TIMER_ONESHOT | VEC_TIMER);
	apic_write(APIC_TMICT, 0xffffffffu);
	struct { uint64_t mid, width; uint32_t count; } s[2];

	for (int end = 0; end < 2; end++) {
		if (end) {
			uint64_t until = s[0].mid + tsc_ms_to_cycles(window_ms ? window_ms : 1);

			while (rdtsc_ordered() < until)
				cpu_relax();
		}
		s[end].width = UINT64_MAX;
		for (int k = 0; k < 5; k++) {
			uint64_t a = rdtsc_ordered();
			uint32_t c = apic_read(APIC_TMCCT);
			uint64_t b = rdtsc_ordered();

			if (b - a < s[end].width)
				s[end] = (typeof(s[0])){ a + (b - a) / 2, b - a, c };
		}
	}
	apic_write(APIC_TMICT, 0);
	irq_restore(flags);
	if (s[0].count <= s[1].count || s[1].mid <= s[0].mid)
		return false;
	uint64_t dt = s[1].mid - s[0].mid;

	timer_count_hz = (uint64_t)(((unsigned __int128)(s[0].count - s[1].count) * tsc_hz) / dt);
	timer_count_err_ppm = ((s[0].width + s[1].width) / 2) * 1000000u / dt +
			      1000000u / (s[0].count - s[1].count) + 1;
	return timer_count_hz != 0;
}

void timer_claim(timer_handler_t h)
{
	uint64_t flags = irq_save();

	timer_stop();
	tstate[this_cpu()->index].claimed = h;
	irq_restore(flags);
}

void timer_release(void)
{
	uint64_t flags = irq_save();
	struct percpu *c = this_cpu();

	timer_stop();
	tstate[c->index].claimed = 0;
	wd_program(c);
	irq_restore(flags);
}

void watchdog_arm(uint64_t deadline_tsc)
{
	uint64_t flags = irq_save();
	struct percpu *c = this_cpu();

	tstate[c->index].wd_deadline = deadline_tsc;
	if (!tstate[c->index].claimed && apic_mode != APIC_MODE_NONE)
		wd_program(c);
	irq_restore(flags);
}

void watchdog_disarm(void)
{
	uint64_t flags = irq_save();
	struct percpu *c = this_cpu();

	tstate[c->index].wd_deadline = 0;
	if (!tstate[c->index].claimed && apic_mode != APIC_MODE_NONE) {
		timer_stop();
		wd_program(c);	/* a tick, if this CPU has one */
	}
	irq_restore(flags);
}
