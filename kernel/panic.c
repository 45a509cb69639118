/* SPDX-License-Identifier: GPL-2.0-only */
/* Panic; see panic.h. */
#include <stdarg.h>
#include "kernel/panic.h"
#include "arch/x86/cpu.h"
#include "kernel/console.h"
#include "kernel/exit.h"
#include "arch/x86/percpu.h"
#include "kernel/report.h"
#include "lib/printf.h"

static volatile int panicking;

bool panic_in_progress(void)
{
	return panicking;
}

static void (*stop_others)(void);

/* Before taking the panic: an NMI that reaches this CPU from now on
 * returns instead of halting it (arch/x86/traps.c), so the report always
 * completes.  A CPU whose %gs is not set up yet (before percpu_install)
 * is not marked. */
static void mark_panicking(void)
{
	struct percpu *c = this_cpu();

	if (c && c->self == c)
		c->panicking = true;
}

void panic_register_stop_others(void (*fn)(void))
{
	stop_others = fn;
}

void panic(const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	cli();
	mark_panicking();
	if (__atomic_exchange_n(&panicking, 1, __ATOMIC_SEQ_CST))
		halt_forever();		/* another CPU is already reporting */
	if (stop_others)
		stop_others();
	va_start(ap, fmt);
	rl_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rep_panic_line(msg);
	rep_exit("panic", EXIT_PANIC);
	rep_integrity();
	machine_exit(EXIT_PANIC);
}

void panic_raw(const char *what, unsigned vector, uint64_t rip)
{
	char msg[200];

	cli();
	mark_panicking();
	if (__atomic_exchange_n(&panicking, 1, __ATOMIC_SEQ_CST))
		halt_forever();
	rl_snprintf(msg, sizeof(msg), "%s (vector %u at rip=0x%llx on cpu %u)", what, vector,
		    (unsigned long long)rip, this_cpu()->index);
	/* The console is re-entrant for its owner CPU, so this works even if
	 * the nested fault came from inside a console write. */
	rep_panic_line(msg);
	rep_exit("panic", EXIT_PANIC);
	rep_integrity();
	machine_exit(EXIT_PANIC);
}
