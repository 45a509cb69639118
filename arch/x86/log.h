/* SPDX-License-Identifier: GPL-2.0-only */
/* How the hardware floor (boot/, arch/x86/) reports and stops: through
 * hooks that the kernel registers at boot (kernel/main.c), the way Linux
 * keeps printk and panic apart from the drivers that call them.  arch/
 * therefore never includes a kernel/ header, and the log floor (console,
 * report, panic) is not tied to any arch file.
 *
 * Before arch_log_register() error/warn/diag lines are dropped and a panic
 * halts the CPU (interrupts off, HLT loop): nothing can print that early
 * anyway. */
#ifndef RINGLAB_ARCH_X86_LOG_H
#define RINGLAB_ARCH_X86_LOG_H

#include <stdbool.h>
#include <stdint.h>

struct arch_log_ops {
	/* "# error: <where>: <text>", "# warning: ...", "# <text>" */
	void (*error)(const char *where, const char *text);
	void (*warn)(const char *where, const char *text);
	void (*diag)(const char *text);
	/* End the run with a panic line; never returns. */
	void (*panic)(const char *text) __attribute__((noreturn));
	/* The same for a fault inside fault handling: no locks, least machinery. */
	void (*panic_raw)(const char *what, unsigned vector, uint64_t rip)
		__attribute__((noreturn));
	bool (*panic_in_progress)(void);
};

void arch_log_register(const struct arch_log_ops *ops);

void arch_error(const char *where, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void arch_warn(const char *where, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void arch_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void arch_panic(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void arch_panic_raw(const char *what, unsigned vector, uint64_t rip) __attribute__((noreturn));
bool arch_panic_in_progress(void);

#endif
