/* SPDX-License-Identifier: GPL-2.0-only */
/* KTAP log emission (docs/log-format.md).  Only this file knows the
 * layout: indentation, plan and result lines, id/metric/error lines, the
 * summary, exit and integrity lines.  Shared by the kernel and the hosted
 * build (both provide console_write()). */
#ifndef RINGLAB_KERNEL_REPORT_H
#define RINGLAB_KERNEL_REPORT_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include "lib/printf.h"
#include "lib/stats.h"

enum result { RES_PASS, RES_FAIL, RES_SKIP, RES_TIMEOUT };

#define REP_LINE_MAX 1024

/* "\n" to end any partial line from firmware, then "KTAP version 1";
 * integrity accounting starts with that line. */
void rep_start(void);
void rep_plan(unsigned n);
void rep_id(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rep_suite_begin(const char *name, unsigned ncases);
/* A case starts: a panic before its rep_case() closes it with
 * `not ok <idx> <name> # PANIC <text>`. */
void rep_case_begin(unsigned idx, const char *name);
void rep_case(unsigned idx, const char *name, enum result r, const char *reason);
void rep_suite_end(unsigned idx, const char *name, enum result r, const char *reason);

/* TSC cycles as milliseconds with three decimals ("12.345"), the form of
 * every duration in the log (docs/log-format.md "Durations"); "0.000"
 * while the TSC rate is unknown.  Returns the length like snprintf. */
int rep_ms_text(char *buf, size_t size, uint64_t cycles);
/* "# text" at the current indentation. */
void rep_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rep_error(const char *where, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rep_warn(const char *where, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "# metric <name> n=.. min=.. ... unit=<unit> <extra>" and, with
 * with_hist, its "# hist" line; sorts samples in place.  extra may be
 * NULL. */
void rep_metric_dist(const char *name, uint64_t *samples, size_t n, const char *unit,
		     const char *extra, bool with_hist);
/* "# metric <name> value=<v> unit=<unit> <extra>" */
void rep_metric_value(const char *name, int64_t value, const char *unit, const char *extra);

void rep_summary(unsigned passed, unsigned failed, unsigned skipped);
/* Closes the open case and suite with `not ok ... # PANIC <text>`, then
 * prints `ringlab: PANIC: <text>`. */
void rep_panic_line(const char *text);
void rep_exit(const char *status, int code);
void rep_integrity(void);

/* Copy text into a log-safe single line: control characters become '?',
 * and '#' in a test name would split the result line, so it too. */
void rep_sanitize(char *dst, size_t size, const char *src);

#endif
