/* SPDX-License-Identifier: GPL-2.0-only */
/* Bounded formatted output, the one printf the kernel and the hosted runner
 * share so that both produce byte-identical log lines.
 *
 * Supported: %d %i %u %x %X %o %p %s %c %%, flags '-' '0' '+' ' ',
 * field width and precision (also '*'), length modifiers hh h l ll z t j.
 * %p prints 0x followed by 16 hex digits. */
#ifndef RINGLAB_LIB_PRINTF_H
#define RINGLAB_LIB_PRINTF_H

#include <stdarg.h>
#include <stddef.h>

/* Like C99 vsnprintf: always terminates when size > 0 and returns the
 * length the full output would have had. */
int rl_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int rl_snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
