/* SPDX-License-Identifier: GPL-2.0-only */
/* KTAP log emission; see report.h and docs/log-format.md. */
#include <stdarg.h>
#include "kernel/report.h"
#include "kernel/console.h"
#include "kernel/platform.h"
#include "lib/string.h"
#include "lib/printf.h"

#define INDENT "    "

static unsigned depth;		/* 0 top level, 1 inside a suite */

/* What is open, so that a panic can close it with `not ok ... # PANIC`
 * before its `ringlab: PANIC:` line (docs/log-format.md). */
static struct {
	unsigned suites;	/* suites begun since rep_start() */
	bool suite_open, case_open;
	unsigned case_idx;
	char suite[64], name[64];
	/* TSC at rep_suite_begin() and rep_case_begin(), for the `# time:`
	 * lines (0: not taken, no line). */
	uint64_t suite_tsc, case_tsc;
} open_;

/* The current indentation at the start of line; returns its length. */
static size_t indent(char *line)
{
	size_t n = 0;

	for (unsigned i = 0; i < depth; i++) {
		memcpy(line + n, INDENT, 4);
		n += 4;
	}
	return n;
}

static void emit_line(const char *text)
{
	char line[REP_LINE_MAX + 8];
	size_t n = indent(line);
	size_t l = strnlen(text, REP_LINE_MAX);

	memcpy(line + n, text, l);
	n += l;
	line[n++] = '\n';
	console_write(line, n);
}

/* Formatted straight into the line emit_line() would build (indent,
 * prefix, text, newline): every logged character passes through here,
 * and under a hypervisor that emulates ring 0 each copy of it costs. */
static void emitv(const char *prefix, const char *fmt, va_list ap)
{
	char line[REP_LINE_MAX + 8];
	size_t n = indent(line), p = strlen(prefix);

	memcpy(line + n, prefix, p);
	n += p;
	/* the text (prefix included) is at most REP_LINE_MAX - 1 characters,
	 * as emit_line() keeps it */
	int len = rl_vsnprintf(line + n, REP_LINE_MAX - p, fmt, ap);
	size_t l = len < 0 ? 0 : (size_t)len < REP_LINE_MAX - p - 1 ? (size_t)len : REP_LINE_MAX - p - 1;

	l = strnlen(line + n, l);	/* a %c of 0 ends the line, as it always did */
	/* A diagnostic must stay one line. */
	for (char *c = line + n, *e = line + n + l; c < e; c++)
		if (*c == '\n' || *c == '\r')
			*c = ' ';
	n += l;
	line[n++] = '\n';
	console_write(line, n);
}

static void emitf(const char *prefix, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emitv(prefix, fmt, ap);
	va_end(ap);
}

void rep_sanitize(char *dst, size_t size, const char *src)
{
	size_t i = 0;

	if (!size)
		return;
	for (; src && src[i] && i + 1 < size; i++) {
		char c = src[i];

		dst[i] = (c < 0x20 || c >= 0x7f) ? '?' : c;
	}
	dst[i] = '\0';
}

static bool started;

void rep_start(void)
{
	started = true;
	console_write("\n", 1);
	console_integrity_start();
	depth = 0;
	memset(&open_, 0, sizeof(open_));
	emit_line("KTAP version 1");
}

void rep_plan(unsigned n)
{
	char b[32];

	rl_snprintf(b, sizeof(b), "1..%u", n);
	emit_line(b);
}

/* An identity value comes from hardware, firmware, the loader or the
 * user (a CPU vendor string is whatever the hypervisor says; SMBIOS and
 * ACPI strings are the vendor's): every one is printed through the same
 * filter, so none can move a terminal (control characters and bytes above
 * 0x7e become '?') or hold text a consumer could take for a protocol line
 * ('#' becomes '?': "# integrity:", "# result:" never appear inside a
 * value; docs/log-format.md "Identity"). */
void rep_id(const char *key, const char *fmt, ...)
{
	char prefix[64], raw[REP_LINE_MAX], val[REP_LINE_MAX];
	va_list ap;

	rl_snprintf(prefix, sizeof(prefix), "# id.%s: ", key);
	va_start(ap, fmt);
	rl_vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	rep_sanitize(val, sizeof(val), raw);
	for (char *c = val; *c; c++)
		if (*c == '#')
			*c = '?';
	emitf(prefix, "%s", val);
}

void rep_suite_begin(const char *name, unsigned ncases)
{
	char b[160];

	depth = 1;
	open_.suites++;
	open_.suite_open = true;
	open_.case_open = false;
	open_.suite_tsc = lfence_rdtsc();
	str_copy(open_.suite, name, sizeof(open_.suite));
	emit_line("KTAP version 1");
	rl_snprintf(b, sizeof(b), "# Subtest: %s", name);
	emit_line(b);
	rep_plan(ncases);
}

static void result_line(unsigned idx, const char *name, enum result r, const char *reason)
{
	char b[REP_LINE_MAX], why[512];

	rep_sanitize(why, sizeof(why), reason);
	switch (r) {
	case RES_PASS:
		rl_snprintf(b, sizeof(b), "ok %u %s", idx, name);
		break;
	case RES_SKIP:
		rl_snprintf(b, sizeof(b), "ok %u %s # SKIP %s", idx, name, why);
		break;
	case RES_TIMEOUT:
		rl_snprintf(b, sizeof(b), "not ok %u %s # TIMEOUT %s", idx, name, why);
		break;
	case RES_FAIL:
	default:
		rl_snprintf(b, sizeof(b), "not ok %u %s # %s", idx, name,
			    why[0] ? why : "failed");
		break;
	}
	emit_line(b);
}

void rep_case_begin(unsigned idx, const char *name)
{
	open_.case_open = true;
	open_.case_idx = idx;
	str_copy(open_.name, name, sizeof(open_.name));
	open_.case_tsc = lfence_rdtsc();
}

/* `# time: <suite>[.<case>] duration_ms=<ms>.<us>` after a result: the
 * wall time (TSC) from the begin call to `end` (taken before the result
 * lines are printed, so a slow console does not count), in milliseconds
 * with three decimals (docs/log-format.md).  suite is NULL for a suite's
 * own line.  No line when the TSC frequency is not known or the begin was
 * not seen. */
int rep_ms_text(char *buf, size_t size, uint64_t cycles)
{
	uint64_t hz = plat_tsc_hz(), us = hz ? cycles / hz * 1000000u + (cycles % hz) * 1000000u / hz : 0;

	return rl_snprintf(buf, size, "%llu.%03llu", (unsigned long long)(us / 1000u),
			   (unsigned long long)(us % 1000u));
}

static void time_line(const char *suite, const char *name, uint64_t start, uint64_t end)
{
	char b[200], ms[24];

	if (!start || !plat_tsc_hz())
		return;
	rep_ms_text(ms, sizeof(ms), end > start ? end - start : 0);
	if (suite)
		rl_snprintf(b, sizeof(b), "# time: %s.%s duration_ms=%s", suite, name, ms);
	else
		rl_snprintf(b, sizeof(b), "# time: %s duration_ms=%s", name, ms);
	emit_line(b);
}

/* `# result: <suite>.<case> <word>` after each case result: one flat,
 * line-oriented record per case, for collectors that match single lines
 * (LAVA monitors, grep) and cannot see which suite an indented KTAP
 * result belongs to (docs/log-format.md). */
static void flat_result(const char *name, const char *word)
{
	char b[200];

	rl_snprintf(b, sizeof(b), "# result: %s.%s %s", open_.suite, name, word);
	emit_line(b);
}

void rep_case(unsigned idx, const char *name, enum result r, const char *reason)
{
	static const char *const words[] = {
		[RES_PASS] = "pass", [RES_FAIL] = "fail", [RES_SKIP] = "skip",
		[RES_TIMEOUT] = "timeout",
	};

	uint64_t end = lfence_rdtsc();

	open_.case_open = false;
	result_line(idx, name, r, reason);
	flat_result(name, r <= RES_TIMEOUT ? words[r] : "fail");
	time_line(open_.suite, name, open_.case_tsc, end);
	open_.case_tsc = 0;
}

void rep_suite_end(unsigned idx, const char *name, enum result r, const char *reason)
{
	uint64_t end = lfence_rdtsc();

	open_.suite_open = open_.case_open = false;
	depth = 0;
	result_line(idx, name, r, reason);
	time_line(NULL, name, open_.suite_tsc, end);
	open_.suite_tsc = 0;
}

void rep_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emitv("# ", fmt, ap);
	va_end(ap);
}

void rep_error(const char *where, const char *fmt, ...)
{
	char prefix[64];
	va_list ap;

	rl_snprintf(prefix, sizeof(prefix), "# error: %s: ", where);
	va_start(ap, fmt);
	emitv(prefix, fmt, ap);
	va_end(ap);
}

void rep_warn(const char *where, const char *fmt, ...)
{
	char prefix[64];
	va_list ap;

	rl_snprintf(prefix, sizeof(prefix), "# warning: %s: ", where);
	va_start(ap, fmt);
	emitv(prefix, fmt, ap);
	va_end(ap);
}

void rep_metric_dist(const char *name, uint64_t *samples, size_t n, const char *unit,
		     const char *extra, bool with_hist)
{
	struct stats s;
	char b[REP_LINE_MAX];

	stats_compute(samples, n, &s);
	rl_snprintf(b, sizeof(b),
		    "# metric %s n=%zu min=%llu p50=%llu p90=%llu p99=%llu max=%llu mean=%llu stddev=%llu unit=%s%s%s",
		    name, s.n, (unsigned long long)s.min, (unsigned long long)s.p50,
		    (unsigned long long)s.p90, (unsigned long long)s.p99,
		    (unsigned long long)s.max, (unsigned long long)s.mean,
		    (unsigned long long)s.stddev, unit, extra && *extra ? " " : "",
		    extra ? extra : "");
	emit_line(b);
	if (n && with_hist) {
		int k = rl_snprintf(b, sizeof(b), "# hist %s unit=%s ", name, unit);

		hist_format(b + k, sizeof(b) - (size_t)k, samples, n, 16);
		emit_line(b);
	}
}

void rep_metric_value(const char *name, int64_t value, const char *unit, const char *extra)
{
	char b[REP_LINE_MAX];

	rl_snprintf(b, sizeof(b), "# metric %s value=%lld unit=%s%s%s", name, (long long)value,
		    unit, extra && *extra ? " " : "", extra ? extra : "");
	emit_line(b);
}

void rep_summary(unsigned passed, unsigned failed, unsigned skipped)
{
	char b[96];

	depth = 0;
	rl_snprintf(b, sizeof(b), "ringlab: %u passed, %u failed, %u skipped", passed, failed,
		    skipped);
	emit_line(b);
}

void rep_panic_line(const char *text)
{
	char b[REP_LINE_MAX], why[400];

	/* A panic before the log began (a fault while the console or the
	 * multiboot information is being set up) still gives a complete log:
	 * the start line first, so that the exit and integrity lines that
	 * follow are a ringlab log any tool can judge. */
	if (!started)
		rep_start();
	/* Close what is open, so that a TAP consumer counts the panic as a
	 * failure of the case (and suite) it hit. */
	rep_sanitize(why, sizeof(why), text);
	if (open_.suite_open && open_.case_open) {
		depth = 1;
		rl_snprintf(b, sizeof(b), "not ok %u %s # PANIC %s", open_.case_idx, open_.name, why);
		emit_line(b);
		flat_result(open_.name, "panic");
	}
	if (open_.suite_open) {
		depth = 0;
		rl_snprintf(b, sizeof(b), "not ok %u %s # PANIC %s", open_.suites, open_.suite, why);
		emit_line(b);
	}
	open_.suite_open = open_.case_open = false;
	depth = 0;
	rl_snprintf(b, sizeof(b), "ringlab: PANIC: %s", text);
	emit_line(b);
}

void rep_exit(const char *status, int code)
{
	char b[64];

	depth = 0;
	rl_snprintf(b, sizeof(b), "# exit: status=%s code=%d", status, code);
	emit_line(b);
}

void rep_integrity(void)
{
	uint64_t lines;
	uint32_t crc;
	char b[80];

	console_integrity(&lines, &crc);
	rl_snprintf(b, sizeof(b), "# integrity: lines=%llu crc32=%08x", (unsigned long long)lines,
		    crc);
	depth = 0;
	emit_line(b);
}
