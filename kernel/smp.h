/* SPDX-License-Identifier: GPL-2.0-only */
/* Kernel side of the cross-CPU calls in kernel/platform.h: the AP idle
 * loop, the doorbell IPI, and the recovery of CPUs that stop answering. */
#ifndef RINGLAB_KERNEL_SMP_H
#define RINGLAB_KERNEL_SMP_H

#include <stdbool.h>
#include "arch/x86/percpu.h"

/* Install the doorbell handler (BSP, once). */
void smp_init_calls(void);
/* An AP's life after bring-up: wait for work, run it, repeat. */
void smp_ap_idle_loop(void) __attribute__((noreturn));
/* After a test: every online AP must be idle; stragglers get an NMI abort
 * and, failing that, are declared lost.  Returns how many needed help. */
unsigned smp_quiesce(void);
/* Number of CPUs online now. */
unsigned smp_online_count(void);

#endif
