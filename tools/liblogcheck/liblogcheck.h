/* SPDX-License-Identifier: GPL-2.0-only */
/* Checker for the ringlab log format (docs/log-format.md), as a library so
 * that the unit tests can feed it logs built in memory and the CLI
 * (tools/logcheck.c) stays a thin wrapper.  Host-only. */
#ifndef RINGLAB_TOOLS_LOGCHECK_H
#define RINGLAB_TOOLS_LOGCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/parse.h"

/* Only the first LOGCHECK_MAX_ERRORS messages are kept; nerrors still
 * counts all of them, so a caller can say how many were left out. */
#define LOGCHECK_MAX_ERRORS 64
#define LOGCHECK_ERR_LEN    200
/* Notes (facts about the file, not errors: several runs, output after the
 * integrity line) kept, and runs whose verdict is kept one by one; the
 * counts go on beyond them. */
#define LOGCHECK_MAX_NOTES  16
#define LOGCHECK_MAX_RUNS   32

/* One line of the judged run, as the checker understood it: what
 * `logcheck --json` and tools/ringlab-report build on, so that there is
 * one parser of the format.  Slices point into the caller's buffer and
 * are valid only during the callback. */
enum logcheck_ev_kind {
	LC_EV_ID,        /* key, value */
	LC_EV_DIAG,      /* text: after "# " (error/warning lines included) */
	LC_EV_ERROR,     /* `# error: <where>: <text>`: key=where, value=text */
	LC_EV_WARNING,   /* `# warning: ...`, as LC_EV_ERROR */
	LC_EV_METRIC,    /* name, fields (the " k=v..." rest, grammar checked: ok) */
	LC_EV_HIST,      /* as LC_EV_METRIC */
	LC_EV_SUITE,     /* `# Subtest: <name>` at level 1: name */
	LC_EV_RESULT,    /* name, num, notok/skip/timeout/panic, value=reason (after the directive word) */
	LC_EV_PANIC,     /* value: text after "ringlab: PANIC: " */
	LC_EV_SUMMARY,
	LC_EV_EXIT,
	LC_EV_ANSWERS,   /* `# answers: env=<e>`: env (value too) */
	LC_EV_ANSWER,    /* `# answer <key>: <text> (from=..; control=..; env=..)`:
			  * key, value=text, from (the list as printed), control, env */
	LC_EV_TIME,      /* `# time: <suite>[.<case>] duration_ms=<ms>`: name (as
			  * printed), value (the number as printed), duration_ns,
			  * num (line of the result it times; 0: none) */
	LC_EV_OTHER,     /* plans, KTAP lines, anything else */
};

struct logcheck_event {
	enum logcheck_ev_kind kind;
	size_t line;            /* 1-based in the whole input */
	size_t level;           /* indentation / 4 */
	struct slice text;      /* the line without indentation */
	struct slice name, key, value, fields;
	struct slice suite;     /* open suite at level 1 (empty at top level) */
	struct slice from, control, env;        /* ANSWER (env: ANSWERS too) */
	uint64_t num;
	uint64_t duration_ns;   /* TIME: duration_ms= in nanoseconds */
	bool notok, skip, timeout, panic;
	bool ok;                /* METRIC/HIST: the line passed the grammar */
};

typedef void (*logcheck_event_fn)(const struct logcheck_event *ev, void *arg);

struct logcheck_opts {
	logcheck_event_fn on_event;         /* NULL: no events */
	void *event_arg;
	const char *expect_status;          /* NULL: any status is fine */
	long qemu_exit;                     /* < 0: not checked */
	long min_cases;                     /* < 0: not checked */
	const char *const *require_metrics; /* exact `# metric` names */
	size_t nrequire;
	bool require_answers;               /* a log without an answers block fails */
	bool all_runs;                      /* a run other than the judged one that did
					     * not pass (or is incomplete) is an error */
};

/* The questions of the answers block (docs/log-format.md "Answers"), in
 * the order the runner prints them; the same keys as the ANSWER_* macros
 * of kernel/test.h (the hosted and QEMU checks fail when they drift). */
#define LOGCHECK_NANSWERS 10
extern const char *const logcheck_answer_keys[LOGCHECK_NANSWERS];

/* One run of the file (docs/log-format.md, "Several runs in one file"):
 * from its start line to the line before the next start line. */
struct logcheck_run {
	size_t start_line;
	size_t end_line;        /* its integrity line; else its last line */
	bool complete;          /* it has an integrity line at column 0 */
	/* pass, fail, config-error, panic (its exit status, when its check
	 * passed), broken (its check failed), incomplete (no integrity line) */
	char verdict[16];
};

struct logcheck_result {
	/* Where the judged run starts (1-based line in the whole input; 0 when
	 * there is no start line) and how many start lines the input had.
	 * The judged run is the last complete one (with an integrity line),
	 * else the last: judged is its number, 1..runs. */
	size_t start_line;
	size_t runs;
	size_t judged, complete_runs;
	size_t end_line;                /* the judged run's integrity line, or its last line */
	/* Runs whose verdict is not pass, the judged one left out. */
	size_t others_not_passed;
	/* The first LOGCHECK_MAX_RUNS runs, in order. */
	struct logcheck_run run[LOGCHECK_MAX_RUNS];
	/* Non-empty lines after the judged run's integrity line that start no
	 * new run (a BIOS banner after a reset): ignored, with a note. */
	size_t trailing_lines, trailing_first;

	/* Counted from the result lines: suites at level 0, cases at level 1.
	 * timeouts are also counted in failed. */
	size_t suites, cases, passed, failed, skipped, timeouts;
	size_t metrics, hists;
	/* Well-formed `# time:` lines (per case and per suite; optional). */
	size_t times;
	/* Failed results of the reserved `config` suite (a command-line error,
	 * also counted in failed) and results with a `# PANIC` directive. */
	size_t config_failed, panic_results;

	/* `ringlab: N passed, N failed, N skipped` as printed. */
	bool has_summary;
	uint64_t sum_passed, sum_failed, sum_skipped;

	/* `# exit: status=<s> code=<c>` as printed (status sanitised and cut
	 * to fit when it is garbage). */
	bool has_exit;
	char status[24];
	uint64_t code;

	bool panic;

	/* The answers block: its `# answers:` line was seen, and how many
	 * well-formed `# answer` lines it has. */
	bool has_answers;
	size_t answers;

	/* `# integrity: lines=<L> crc32=<hex8>`: the printed values and the
	 * ones computed over the run; ok when both match. */
	bool has_integrity;
	uint64_t lines_expected;
	size_t lines_computed;
	uint32_t crc_expected, crc_computed;
	bool integrity_ok;

	size_t nerrors;
	/* Of nerrors, those --all-runs added for other runs that did not
	 * pass: they fail the file, not the judged run's own check. */
	size_t other_run_errors;
	char errors[LOGCHECK_MAX_ERRORS][LOGCHECK_ERR_LEN];
	/* What a reader should know that is not an error; warning: an earlier
	 * run did not pass. */
	size_t nnotes;
	struct {
		bool warning;
		char text[LOGCHECK_ERR_LEN];
	} notes[LOGCHECK_MAX_NOTES];
};

/* Check a whole log (any bytes; it need not be NUL-terminated).  Returns 0
 * when the log is valid, else nonzero with r->errors describing each
 * problem, most with "line N: " (1-based, counted in the whole input). */
int logcheck_buffer(const char *text, size_t len, struct logcheck_result *r);

/* The same, plus the caller's expectations (opts may be NULL). */
int logcheck_buffer_opts(const char *text, size_t len,
			 const struct logcheck_opts *opts,
			 struct logcheck_result *r);

/* The judged run's verdict, the one rule every tool's exit status follows
 * (docs/usage.md, "Exit status"): "incomplete" (no integrity line) or
 * "broken" (its check or an expectation failed), else the exit line's
 * status, except that a passing run whose every case skipped is "skip"
 * (kselftest's KSFT_SKIP: nothing was tested).  r as logcheck_buffer*()
 * left it. */
const char *logcheck_verdict(const struct logcheck_result *r);

/* The exit status for that verdict: pass 0, fail 1, config-error 2,
 * panic 3, skip 4, broken or incomplete 125; with --all-runs, 1 for a
 * judged run that passed (or skipped) while another run did not. */
#define LOGCHECK_EXIT_SKIP   4
#define LOGCHECK_EXIT_BROKEN 125
int logcheck_exit_code(const struct logcheck_result *r);

/* Check one `# metric ...` or `# hist ...` line (without indentation and
 * line end) against the grammar.  On failure writes a reason to err. */
bool logcheck_metric_line(const char *line, size_t n, char *err, size_t errsz);

/* Parse the number of `duration_ms=<ms>` (docs/log-format.md: decimal
 * digits, no leading zeros, at most 12, then optionally '.' and 1 to 6
 * digits) into nanoseconds.  False when it does not fit the grammar. */
bool logcheck_parse_ms(const char *p, size_t n, uint64_t *ns);

#endif
