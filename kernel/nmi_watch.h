/* SPDX-License-Identifier: GPL-2.0-only */
/* A watchdog for the boot CPU that works with interrupts off; see
 * nmi_watch.c. */
#ifndef RINGLAB_KERNEL_NMI_WATCH_H
#define RINGLAB_KERNEL_NMI_WATCH_H

#include <stdbool.h>
#include <stdint.h>

/* Pick a watcher CPU and start its tick, or with none arm the I/O APIC
 * NMI source on the boot CPU; prints "# watchdog:" lines. */
void nmi_watch_start(void);
/* End of run: restore the I/O APIC entry and PIT channel 0 (one line). */
void nmi_watch_stop(void);
/* The same on the panic path, silently. */
void nmi_watch_panic_stop(void);
/* The boot CPU's NMI hook (registered by kernel/arch_hooks.c). */
bool nmi_watch_tick(void);
/* True when a watcher is ticking (it may stop while a test claims its
 * timer) or the I/O APIC source is armed; fault.hang_irqoff needs one. */
bool nmi_watch_available(void);
/* The runner, around each case on the boot CPU (deadline 0: none). */
void nmi_watch_case_begin(uint64_t deadline_tsc);
void nmi_watch_case_end(void);

#endif
