/* SPDX-License-Identifier: GPL-2.0-only */
/* The end of a run for the log checker (see tools/liblogcheck/liblogcheck.c for the
 * whole): the integrity line, then the checks that need the whole run
 * (open plans, summary, exit status, the caller's expectations). */
#include "tools/liblogcheck/internal.h"

#include "lib/string.h"

/* ------------------------------------------------------------- the end --- */

static bool is_hex8(struct slice s, uint32_t *v)
{
	uint32_t x = 0;

	if (s.n != 8)
		return false;
	for (size_t i = 0; i < 8; i++) {
		char c = s.p[i];

		if (c >= '0' && c <= '9')
			x = x << 4 | (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			x = x << 4 | (uint32_t)(c - 'a' + 10);
		else
			return false;   /* the format says lower case */
	}
	*v = x;
	return true;
}

void lc_check_integrity(struct state *st, size_t line, struct slice l,
			size_t start)
{
	struct logcheck_result *r = st->r;
	struct slice s = l;
	uint64_t lines;
	uint32_t crc;
	Q(q);

	if (!(lc_eat(&s, "# integrity: lines=") && lc_parse_dec(lc_take_word(&s), &lines) &&
	      lc_eat(&s, " crc32=") && is_hex8(s, &crc))) {
		lc_err(st, line, "malformed integrity line '%s' (expected '# integrity: lines=<L> crc32=<8 lower-case hex digits>')",
		       QS(q, l));
		return;
	}
	r->has_integrity = true;
	r->lines_expected = lines;
	r->crc_expected = crc;
	r->integrity_ok = true;
	if (lines != r->lines_computed) {
		lc_err(st, line, "integrity: lines=%llu but the run has %zu lines before it (from line %zu): truncated or extra lines",
		       (unsigned long long)lines, r->lines_computed, start);
		r->integrity_ok = false;
	}
	if (crc != r->crc_computed) {
		lc_err(st, line, "integrity: crc32=%08x but the run's lines give %08x: corrupted",
		       (unsigned)crc, (unsigned)r->crc_computed);
		r->integrity_ok = false;
	}
}

static const char *const status_names[] = { "pass", "fail", "config-error", "panic" };

void lc_finish(struct state *st, size_t last_line)
{
	struct logcheck_result *r = st->r;
	bool partial = r->panic;

	/* 2: open suites are missing their results, unless the run panicked;
	 * then only what they printed must fit their plan. */
	while (st->depth > 0) {
		if (partial) {
			lc_check_plan(st, &st->nodes[st->depth], st->depth, last_line, true);
			st->depth--;
		} else {
			lc_abandon(st, last_line, "the log ends");
		}
	}
	lc_check_plan(st, &st->nodes[0], 0, last_line, partial);

	/* Flat `# result:` lines are optional (older logs have none), but a
	 * log that has them has one per case. */
	if (st->flat_results && st->flat_results != r->cases)
		lc_err(st, last_line, "%zu '# result:' lines for %zu case results", st->flat_results,
		       r->cases);

	/* 4 */
	if (r->has_summary) {
		if (r->sum_passed != r->passed || r->sum_failed != r->failed ||
		    r->sum_skipped != r->skipped)
			lc_err(st, st->summary_line,
			       "summary says %llu passed, %llu failed, %llu skipped but the case results are %zu passed, %zu failed, %zu skipped",
			       (unsigned long long)r->sum_passed,
			       (unsigned long long)r->sum_failed,
			       (unsigned long long)r->sum_skipped,
			       r->passed, r->failed, r->skipped);
	} else if (!partial) {
		lc_err(st, 0, "no summary line 'ringlab: N passed, N failed, N skipped'");
	}

	/* 5 */
	if (!r->has_exit) {
		lc_err(st, 0, "no exit line '# exit: status=<s> code=<c>'");
		return;
	}
	size_t line = st->exit_line;
	int known = -1;

	for (int i = 0; i < 4; i++)
		if (strcmp(r->status, status_names[i]) == 0)
			known = i;
	if (known < 0) {
		lc_err(st, line, "unknown exit status '%s' (pass, fail, config-error or panic)",
		       r->status);
		return;
	}
	if (r->code != (uint64_t)known)
		lc_err(st, line, "status=%s must have code=%d, not %llu", r->status,
		       known, (unsigned long long)r->code);
	if (r->panic && strcmp(r->status, "panic") != 0)
		lc_err(st, line, "status=%s but the run panicked (line %zu)", r->status,
		       st->panic_line);
	if (!r->panic && strcmp(r->status, "panic") == 0)
		lc_err(st, line, "status=panic but there is no 'ringlab: PANIC:' line");
	if (!r->panic) {
		bool is_fail = strcmp(r->status, "fail") == 0;
		/* The `config` suite's failure is a configuration error, not a
		 * failed test: it makes the status config-error, or fail when a
		 * real case failed too. */
		size_t tests_failed = r->failed - r->config_failed;

		if (tests_failed && !is_fail)
			lc_err(st, line, "status=%s but %zu cases failed", r->status,
			       tests_failed);
		if (!tests_failed && is_fail)
			lc_err(st, line, "status=fail but no case failed");
		if (r->config_failed && strcmp(r->status, "pass") == 0)
			lc_err(st, line, "status=pass but the 'config' suite reports a configuration error");
	}
	if (st->panic_result_line && !r->panic)
		lc_err(st, st->panic_result_line,
		       "result with '# PANIC' but no 'ringlab: PANIC:' line follows");
	if (strcmp(r->status, "config-error") == 0 && !st->error_lines)
		lc_err(st, line, "status=config-error but there is no '# error:' line");
}

void lc_check_opts(struct state *st)
{
	const struct logcheck_opts *o = st->o;
	struct logcheck_result *r = st->r;

	if (!o)
		return;
	if (o->expect_status && r->has_exit && strcmp(o->expect_status, r->status))
		lc_err(st, st->exit_line, "status=%s, expected %s", r->status,
		       o->expect_status);
	if (o->qemu_exit >= 0 && r->has_exit &&
	    (r->code > (UINT64_MAX - 1) / 2 ||
	     r->code * 2 + 1 != (uint64_t)o->qemu_exit))
		lc_err(st, st->exit_line,
		       "QEMU exit status %ld does not match code=%llu (expected code*2+1)",
		       o->qemu_exit, (unsigned long long)r->code);
	if (o->min_cases >= 0 && r->cases < (size_t)o->min_cases)
		lc_err(st, 0, "%zu cases, expected at least %ld", r->cases, o->min_cases);
	for (size_t i = 0; i < o->nrequire; i++)
		if (!st->found[i])
			lc_err(st, 0, "required metric '%s' not found", o->require_metrics[i]);
}

const char *logcheck_verdict(const struct logcheck_result *r)
{
	if (!r->has_integrity)
		return "incomplete";
	if (r->nerrors > r->other_run_errors || !r->has_exit)
		return "broken";
	if (strcmp(r->status, "pass") == 0 && r->cases && r->skipped == r->cases)
		return "skip";
	return r->status;
}

int logcheck_exit_code(const struct logcheck_result *r)
{
	static const char *const codes[] = { "pass", "fail", "config-error", "panic", "skip" };
	const char *v = logcheck_verdict(r);

	for (int i = 0; i < 5; i++) {
		if (strcmp(v, codes[i]))
			continue;
		if (r->other_run_errors && (i == 0 || i == LOGCHECK_EXIT_SKIP))
			return 1;
		return i;
	}
	return LOGCHECK_EXIT_BROKEN;
}
