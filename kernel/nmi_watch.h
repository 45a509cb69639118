/* A watchdog for the boot CPU that works with interrupts off; see
 * nmi_watch.c. */
#ifndef RINGLAB_KERNEL_NMI_WATCH_H
#define RINGLAB_KERNEL_NMI_WATCH_H

#include <stdbool.h>
#include <stdint.h>

/* Pick a watcher CPU and start its tick; prints one "# watchdog:" line. */
void nmi_watch_start(void);
/* True when a watcher is ticking (it may stop while a test claims its
 * timer); fault.hang_irqoff needs one. */
bool nmi_watch_available(void);
/* The runner, around each case on the boot CPU (deadline 0: none). */
void nmi_watch_case_begin(uint64_t deadline_tsc);
void nmi_watch_case_end(void);

#endif
