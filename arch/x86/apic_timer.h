/* SPDX-License-Identifier: GPL-2.0-only */
/* The LAPIC timer and its two users.
 *
 * By default the BSP's timer is the runner's watchdog: armed for each
 * test's budget, and when it fires past the deadline it unwinds the test
 * (arch/x86/catch.h), which is then reported as TIMEOUT.  A test that needs
 * the timer itself (tscdeadline) claims it with timer_claim(), which
 * suspends the watchdog on that CPU until timer_release(); while claimed
 * the test's own waits must be bounded.  The watchdog is a maskable
 * interrupt: a test spinning with interrupts disabled is not stopped by it
 * (docs/robustness.md, "Faults, hangs and timeouts").
 *
 * TSC-deadline mode (CPUID.1:ECX[24]) is used where available; otherwise
 * one-shot count mode, calibrated against the TSC. */
#ifndef RINGLAB_ARCH_X86_APIC_TIMER_H
#define RINGLAB_ARCH_X86_APIC_TIMER_H

#include <stdbool.h>
#include <stdint.h>
#include "arch/x86/regs.h"

typedef void (*timer_handler_t)(struct regs *r);

extern bool timer_has_tscdeadline;
extern uint64_t timer_count_hz;		/* one-shot ticks per second at divide 1 */
extern uint64_t timer_count_err_ppm;	/* its calibration uncertainty */

/* Calibrate the count-mode rate against the TSC over window_ms (BSP,
 * once; quick uses a short window, and timer_count_err_ppm says what that
 * cost) and install the timer interrupt. */
bool apic_timer_init(unsigned window_ms);

/* Route this CPU's VEC_TIMER to h and suspend the watchdog here.  The LVT
 * is masked and the timer stopped on entry and on release. */
void timer_claim(timer_handler_t h);
void timer_release(void);

/* Program this CPU's timer in count mode: one-shot of `count` ticks at
 * the given divide configuration (APIC_TDR_DIV_*), vector VEC_TIMER. */
void timer_oneshot(uint32_t count, uint32_t divide);
/* TSC-deadline mode with LVT set first, then the deadline (0 disarms). */
void timer_tscdeadline_mode(void);
void timer_stop(void);

/* After this CPU's APIC changed mode (or was reset): reprogram the LVT
 * timer and re-arm the watchdog and tick it had, unless claimed. */
void timer_after_mode_switch(void);
/* Times a TSC-deadline arm did not take (read back 0 before the deadline)
 * and one-shot count mode was used instead; 0 on a sound APIC. */
extern unsigned timer_deadline_fallbacks;

void watchdog_arm(uint64_t deadline_tsc);
/* Call fn from this CPU's timer interrupt every period_cycles (NULL
 * stops it); suspended, like the watchdog, while the timer is claimed.
 * kernel/nmi_watch.c uses it for the CPU that watches the boot CPU. */
void timer_set_tick(void (*fn)(void), uint64_t period_cycles);
void watchdog_disarm(void);

#endif
