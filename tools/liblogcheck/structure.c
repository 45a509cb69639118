/* SPDX-License-Identifier: GPL-2.0-only */
/* The log checker's structure pass (see tools/liblogcheck/liblogcheck.c for the
 * whole): KTAP nesting, plans and results, and the lines that hang on them
 * (metrics, histograms, `# time:`, `# result:`, the summary, `# exit:`),
 * each turned into an event for the caller. */
#include "tools/liblogcheck/internal.h"

#include "lib/parse.h"
#include "lib/printf.h"
#include "lib/string.h"

/* ------------------------------------------------------------ structure --- */

static const char *node_name(char *buf, size_t size, const struct node *n)
{
	if (!n->has_name)
		return "(unnamed)";
	return lc_quote(buf, size, n->name);
}

/* Plan against results, for a node whose result line has been seen (or the
 * top level at the end).  `partial`: the run stopped early, so fewer
 * results than planned are fine. */
void lc_check_plan(struct state *st, const struct node *n, size_t depth,
		   size_t line, bool partial)
{
	char who[QUOTE_MAX + 16];
	Q(q);

	if (depth == 0)
		str_copy(who, "the top level", sizeof(who));
	else
		rl_snprintf(who, sizeof(who), "suite '%s'", node_name(q, sizeof(q), n));
	if (!n->has_plan) {
		if (!partial)
			lc_err(st, line, "%s has no plan '1..N'", who);
		return;
	}
	if (n->count > n->plan || (!partial && n->count != n->plan))
		lc_err(st, line, "%s plans %llu results (line %zu) but has %llu", who,
		       (unsigned long long)n->plan, n->plan_line,
		       (unsigned long long)n->count);
}

/* The result line `res` at depth d closes the open subtest at d+1. */
static void close_child(struct state *st, size_t line, const struct result *res)
{
	struct node *ch = &st->nodes[st->depth];
	Q(q);
	Q(q2);

	if (!ch->has_name)
		lc_err(st, ch->line, "suite has no '# Subtest: <name>' line");
	else if (!lc_slices_equal(ch->name, res->name))
		lc_err(st, line, "result name '%s' differs from '# Subtest: %s'",
		       QS(q, res->name), QS(q2, ch->name));
	/* A suite closed by a panic stopped early: fewer results than planned,
	 * and possibly none failed (the panic hit between cases). */
	lc_check_plan(st, ch, st->depth, line, res->panic);

	/* An empty suite (all its cases filtered out) may be either plain
	 * ok or SKIP: "all skipped" holds vacuously, but insisting on SKIP
	 * for it would be pedantic. */
	bool any_failed = ch->notok > 0;
	bool all_skipped = ch->skip == ch->count;

	const char *rn = QS(q, res->name);

	if (res->notok && !any_failed && !res->panic)
		lc_err(st, line, "suite '%s' is 'not ok' but none of its %llu results failed",
		       rn, (unsigned long long)ch->count);
	if (!res->notok && any_failed)
		lc_err(st, line, "suite '%s' is 'ok' but %llu of its results failed",
		       rn, (unsigned long long)ch->notok);
	if (res->skip && !all_skipped)
		lc_err(st, line, "suite '%s' is '# SKIP' but only %llu of its %llu results were skipped",
		       rn, (unsigned long long)ch->skip, (unsigned long long)ch->count);
	if (!res->notok && !res->skip && all_skipped && ch->count > 0)
		lc_err(st, line, "all %llu results of suite '%s' were skipped but it is not '# SKIP'",
		       (unsigned long long)ch->count, rn);
	st->depth--;
}

/* A subtest that ends without its result line (not after a PANIC). */
void lc_abandon(struct state *st, size_t line, const char *why)
{
	Q(q);
	const struct node *n = &st->nodes[st->depth];

	lc_err(st, line, "suite '%s' (started line %zu) has no result line: %s",
	       node_name(q, sizeof(q), n), n->line, why);
	st->depth--;
}

static void open_child(struct state *st, size_t line)
{
	st->nodes[st->depth].child_seen = true;
	st->depth++;
	memset(&st->nodes[st->depth], 0, sizeof(st->nodes[0]));
	st->nodes[st->depth].line = line;
	st->nodes[st->depth].next = 1;
}

/* The open suite's name at level 1 (empty when none). */
struct slice lc_open_suite(const struct state *st)
{
	if (st->depth >= 1 && st->nodes[1].has_name)
		return st->nodes[1].name;
	return slice_of("", 0);
}

void lc_emit(struct state *st, struct logcheck_event *ev)
{
	if (st->o && st->o->on_event)
		st->o->on_event(ev, st->o->event_arg);
}

void lc_on_result(struct state *st, size_t line, size_t level, struct slice c)
{
	struct logcheck_result *r = st->r;
	struct result res;
	const char *why = NULL;
	Q(q);

	if (!lc_parse_result(c, &res, &why)) {
		lc_err(st, line, "malformed result line '%s': %s", QS(q, c), why);
		return;
	}
	if (res.panic) {
		r->panic_results++;
		if (!st->panic_result_line)
			st->panic_result_line = line;
	}
	{
		struct logcheck_event ev = {
			.kind = LC_EV_RESULT, .line = line, .level = level, .text = c,
			.name = res.name, .value = res.reason, .num = res.num,
			.notok = res.notok, .skip = res.skip, .timeout = res.timeout,
			.panic = res.panic,
			.suite = level == 1 ? lc_open_suite(st) : slice_of("", 0),
		};

		lc_emit(st, &ev);
	}
	if (res.problem)
		lc_err(st, line, "%s", res.problem);
	if (level > st->depth) {
		lc_err(st, line, "result indented deeper than any open suite");
		return;
	}
	/* Results at a shallower level close the subtests in between; all but
	 * the one right below `level` are missing their own result. */
	while (st->depth > level + 1)
		lc_abandon(st, line, "a result at a shallower level follows");
	if (level == 0 && st->summary_line)
		lc_err(st, line, "suite result after the summary line (line %zu)",
		       st->summary_line);
	else if (level == 0 && st->answers_line)
		lc_err(st, line, "suite result after the answers block (line %zu)", st->answers_line);

	bool has_child = st->depth == level + 1;

	if (has_child)
		close_child(st, line, &res);
	else if (level == 0)
		lc_err(st, line, "top-level result '%s' has no suite block ('KTAP version 1' and '# Subtest:' indented by 4 spaces)",
		       QS(q, res.name));

	struct node *n = &st->nodes[level];

	if (res.num != n->next)
		lc_err(st, line, "result number %llu, expected %llu (numbering runs 1..N without gaps)",
		       (unsigned long long)res.num, (unsigned long long)n->next);
	n->next = res.num == UINT64_MAX ? res.num : res.num + 1;
	n->count++;
	if (res.notok)
		n->notok++;
	if (res.skip)
		n->skip++;

	if (level == 1) {
		st->case_line = line;
		st->case_suite = lc_open_suite(st);
		st->case_name = res.name;
		st->case_word = res.panic ? "panic" : res.timeout ? "timeout" :
				res.notok ? "fail" : res.skip ? "skip" : "pass";
	}
	if (level == 0) {
		st->suite_line = line;
		st->suite_name = res.name;
		r->suites++;
	} else if (level == 1) {
		r->cases++;
		if (res.notok && slice_eq(lc_open_suite(st), "config"))
			r->config_failed++;
		if (res.notok)
			r->failed++;
		else if (res.skip)
			r->skipped++;
		else
			r->passed++;
		if (res.timeout)
			r->timeouts++;
	}
}

void lc_on_plan(struct state *st, size_t line, size_t level, struct slice c)
{
	struct slice rest = lc_drop(c, 3);
	struct node *n;
	uint64_t v;
	Q(q);

	if (!lc_parse_dec(rest, &v)) {
		lc_err(st, line, "malformed plan '%s' (expected '1..N')", QS(q, c));
		return;
	}
	if (level != st->depth) {
		lc_err(st, line, "plan at indentation level %zu while the open level is %zu",
		       level, st->depth);
		return;
	}
	/* Only now: a plan indented deeper than MAX_DEPTH levels has no node
	 * (found by fuzz_logcheck: "1..1" after 108 spaces). */
	n = &st->nodes[level];
	if (n->has_plan) {
		lc_err(st, line, "second plan (first at line %zu)", n->plan_line);
		return;
	}
	if (n->count || n->child_seen)
		lc_err(st, line, "plan after the first result; it must come first");
	n->has_plan = true;
	n->plan = v;
	n->plan_line = line;
}

void lc_on_ktap(struct state *st, size_t line, size_t level)
{
	if (level == 0 || level > st->depth + 1) {
		lc_err(st, line, "'KTAP version 1' at indentation level %zu, open level is %zu",
		       level, st->depth);
		return;
	}
	while (st->depth >= level)
		lc_abandon(st, line, "a new suite starts");
	if (level == 1 && st->summary_line)
		lc_err(st, line, "suite starts after the summary line (line %zu)",
		       st->summary_line);
	if (level == 1 && st->answers_line)
		lc_err(st, line, "suite starts after the answers block (line %zu), which follows the last suite",
		       st->answers_line);
	if (level >= MAX_DEPTH) {
		lc_err(st, line, "subtests nested deeper than %d levels", MAX_DEPTH - 1);
		return;
	}
	open_child(st, line);
}

void lc_on_subtest(struct state *st, size_t line, size_t level, struct slice c)
{
	struct node *n = &st->nodes[st->depth];
	struct slice name = lc_drop(c, strlen("# Subtest:"));

	if (level != st->depth || level == 0) {
		lc_err(st, line, "'# Subtest:' outside its suite (it follows the suite's 'KTAP version 1')");
		return;
	}
	if (!lc_eat(&name, " ") || name.n == 0) {
		lc_err(st, line, "'# Subtest:' without a name");
		return;
	}
	if (n->has_name) {
		lc_err(st, line, "second '# Subtest:' line in one suite");
		return;
	}
	if (n->has_plan || n->count || n->child_seen)
		lc_err(st, line, "'# Subtest:' after the suite's plan or results");
	n->has_name = true;
	n->name = name;
	if (level == 1) {
		struct logcheck_event ev = {
			.kind = LC_EV_SUITE, .line = line, .level = level, .text = c,
			.name = name, .suite = name,
		};

		lc_emit(st, &ev);
	}
}

void lc_on_metric(struct state *st, size_t line, size_t level, struct slice c,
		  bool hist)
{
	struct logcheck_result *r = st->r;
	struct slice name = slice_of("", 0);
	char e[LOGCHECK_ERR_LEN - 40];
	Q(q);

	if (hist)
		r->hists++;
	else
		r->metrics++;
	bool ok = lc_metric_check(c, &name, e, sizeof(e));
	struct slice rest = lc_drop(c, strlen(hist ? "# hist " : "# metric "));

	{
		struct logcheck_event ev = {
			.kind = hist ? LC_EV_HIST : LC_EV_METRIC, .line = line,
			.level = level, .text = c, .name = name, .ok = ok,
			.fields = ok ? lc_drop(rest, name.n) : slice_of("", 0),
			.suite = lc_open_suite(st),
		};

		lc_emit(st, &ev);
	}
	if (!ok) {
		lc_err(st, line, "bad %s line: %s", hist ? "hist" : "metric", e);
		return;
	}
	/* Metric names are unique in a run (docs/log-format.md); so are
	 * histograms, one per metric. */
	size_t first = lc_nameset_add(hist ? &st->hist_names : &st->metric_names, name, line);

	if (first)
		lc_err(st, line, "%s name '%s' repeats (first at line %zu); names must be unique in a run",
		       hist ? "hist" : "metric", QS(q, name), first);
	if (!hist && st->o)
		for (size_t i = 0; i < st->o->nrequire; i++)
			if (slice_eq(name, st->o->require_metrics[i]))
				st->found[i] = true;
}

/* `# result: <suite>.<case> <word>` right after the case result it
 * repeats (docs/log-format.md). */
void lc_on_flat_result(struct state *st, size_t line, struct slice c)
{
	struct slice rest = lc_drop(c, strlen("# result: ")), name, suite, kase;
	Q(q);

	st->flat_results++;
	name = lc_take_word(&rest);
	if (!lc_eat(&rest, " ") || !rest.n) {
		lc_err(st, line, "malformed '# result:' line '%s' (expected '# result: <suite>.<case> <pass|fail|skip|timeout|panic>')",
		       QS(q, c));
		return;
	}
	if (st->case_line + 1 != line) {
		lc_err(st, line, "'# result:' line does not follow a case result");
		return;
	}
	st->flat_line = line;
	if (!slice_split(name, '.', &suite, &kase) || !lc_slices_equal(suite, st->case_suite) ||
	    !lc_slices_equal(kase, st->case_name) || !slice_eq(rest, st->case_word))
		lc_err(st, line, "'%s' disagrees with the case result on line %zu (%s)", QS(q, c),
		       st->case_line, st->case_word);
}

bool logcheck_parse_ms(const char *p, size_t n, uint64_t *ns)
{
	size_t i = 0, ip, fp = 0;
	uint64_t whole = 0, frac = 0;

	while (i < n && p[i] >= '0' && p[i] <= '9')
		whole = whole * 10 + (uint64_t)(p[i++] - '0');
	ip = i;
	if (ip == 0 || ip > 12 || (ip > 1 && p[0] == '0'))
		return false;
	if (i < n) {
		if (p[i++] != '.')
			return false;
		while (i < n && p[i] >= '0' && p[i] <= '9' && fp < 6) {
			frac = frac * 10 + (uint64_t)(p[i++] - '0');
			fp++;
		}
		if (fp == 0 || i != n)
			return false;
	}
	for (size_t k = fp; k < 6; k++)
		frac *= 10;
	*ns = whole * 1000000u + frac;
	return true;
}

/* `# time: <suite>.<case> duration_ms=<ms>` after a case result (and its
 * `# result:` line), `# time: <suite> duration_ms=<ms>` right after a
 * suite result (docs/log-format.md).  Optional: older logs and panicked
 * cases have none. */
void lc_on_time(struct state *st, size_t line, size_t level, struct slice c,
		struct logcheck_event *ev)
{
	struct slice rest = lc_drop(c, strlen("# time: ")), name, num, suite, kase;
	uint64_t ns;
	size_t of = 0;
	Q(q);

	name = lc_take_word(&rest);
	if (!name.n || !lc_eat(&rest, " duration_ms=") || !(num = lc_take_word(&rest)).n || rest.n ||
	    !logcheck_parse_ms(num.p, num.n, &ns)) {
		lc_err(st, line, "malformed '# time:' line '%s' (expected '# time: <suite>[.<case>] duration_ms=<ms>')",
		       QS(q, c));
		return;
	}
	if (slice_split(name, '.', &suite, &kase)) {
		/* a case: right after its result, or after its `# result:` line */
		if (level == 1 && st->case_line &&
		    (line == st->case_line + 1 ||
		     (line == st->case_line + 2 && st->flat_line == st->case_line + 1)) &&
		    lc_slices_equal(suite, st->case_suite) && lc_slices_equal(kase, st->case_name))
			of = st->case_line;
	} else if (level == 0 && st->suite_line && st->suite_line + 1 == line &&
		   lc_slices_equal(name, st->suite_name)) {
		of = st->suite_line;
	}
	if (!of) {
		lc_err(st, line, "'# time:' line '%s' does not follow the result it times", QS(q, c));
		return;
	}
	if (st->timed_line == of) {
		lc_err(st, line, "second '# time:' line for the result on line %zu", of);
		return;
	}
	st->timed_line = of;
	st->r->times++;
	ev->kind = LC_EV_TIME;
	ev->name = name;
	ev->value = num;
	ev->duration_ns = ns;
	ev->num = of;
}

void lc_on_summary(struct state *st, size_t line, size_t level, struct slice c)
{
	struct logcheck_result *r = st->r;
	struct slice s = c;
	uint64_t p, f, k;
	Q(q);

	if (!(lc_eat(&s, "ringlab: ") && lc_parse_dec(lc_take_word(&s), &p) &&
	      lc_eat(&s, " passed, ") && lc_parse_dec(lc_take_word(&s), &f) &&
	      lc_eat(&s, " failed, ") && lc_parse_dec(lc_take_word(&s), &k) &&
	      slice_eq(s, " skipped"))) {
		lc_err(st, line, "malformed line '%s' (expected 'ringlab: N passed, N failed, N skipped' or 'ringlab: PANIC: ...')",
		       QS(q, c));
		return;
	}
	if (level != 0)
		lc_err(st, line, "summary line must be at column 0");
	if (st->summary_line) {
		lc_err(st, line, "second summary line (first at line %zu)", st->summary_line);
		return;
	}
	st->summary_line = line;
	r->has_summary = true;
	r->sum_passed = p;
	r->sum_failed = f;
	r->sum_skipped = k;
}

void lc_on_exit_line(struct state *st, size_t line, size_t level, struct slice c)
{
	struct logcheck_result *r = st->r;
	struct slice s = c, status;
	uint64_t code;
	Q(q);

	if (level != 0) {
		lc_err(st, line, "exit line must be at column 0");
		return;
	}
	if (st->exit_line) {
		lc_err(st, line, "second exit line (first at line %zu)", st->exit_line);
		return;
	}
	if (!(lc_eat(&s, "# exit: status=") && (status = lc_take_word(&s)).n > 0 &&
	      lc_eat(&s, " code=") && lc_parse_dec(s, &code))) {
		lc_err(st, line, "malformed exit line '%s' (expected '# exit: status=<s> code=<c>')",
		       QS(q, c));
		return;
	}
	st->exit_line = line;
	r->has_exit = true;
	r->code = code;
	lc_quote(r->status, sizeof(r->status), status);
}
