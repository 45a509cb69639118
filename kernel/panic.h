/* SPDX-License-Identifier: GPL-2.0-only */
/* Ending the run when it cannot go on: one clear line, the exit and
 * integrity lines, then the configured exit (never a silent triple fault). */
#ifndef RINGLAB_KERNEL_PANIC_H
#define RINGLAB_KERNEL_PANIC_H

#include <stdbool.h>
#include <stdint.h>

void panic(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* For a fault inside fault handling: minimal machinery, no locks. */
void panic_raw(const char *what, unsigned vector, uint64_t rip) __attribute__((noreturn));
bool panic_in_progress(void);
/* How panic() stops the other CPUs (kernel/arch_hooks.c registers the
 * APIC's NMI broadcast); none registered: they are left running. */
void panic_register_stop_others(void (*fn)(void));

#endif
