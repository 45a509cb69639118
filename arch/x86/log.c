/* SPDX-License-Identifier: GPL-2.0-only */
/* The arch/ side of the log hooks; see log.h. */
#include <stdarg.h>
#include "arch/x86/log.h"
#include "arch/x86/cpu.h"
#include "lib/printf.h"

static const struct arch_log_ops *ops;

void arch_log_register(const struct arch_log_ops *o)
{
	ops = o;
}

#define FORMAT(buf, fmt) \
	do { \
		va_list ap; \
		va_start(ap, fmt); \
		rl_vsnprintf(buf, sizeof(buf), fmt, ap); \
		va_end(ap); \
	} while (0)

void arch_error(const char *where, const char *fmt, ...)
{
	char buf[400];

	if (!ops)
		return;
	FORMAT(buf, fmt);
	ops->error(where, buf);
}

void arch_warn(const char *where, const char *fmt, ...)
{
	char buf[400];

	if (!ops)
		return;
	FORMAT(buf, fmt);
	ops->warn(where, buf);
}

void arch_diag(const char *fmt, ...)
{
	char buf[400];

	if (!ops)
		return;
	FORMAT(buf, fmt);
	ops->diag(buf);
}

void arch_panic(const char *fmt, ...)
{
	char buf[400];

	if (!ops)
		halt_forever();
	FORMAT(buf, fmt);
	ops->panic(buf);
}

void arch_panic_raw(const char *what, unsigned vector, uint64_t rip)
{
	if (!ops)
		halt_forever();
	ops->panic_raw(what, vector, rip);
}

bool arch_panic_in_progress(void)
{
	return ops && ops->panic_in_progress();
}
