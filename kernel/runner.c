/* SPDX-License-Identifier: GPL-2.0-only */
/* The test runner; see runner.h and kernel/test.h. */
#include <stdarg.h>
#include "kernel/runner.h"
#include "arch/x86/tsc_read.h"
#include "kernel/platform.h"
#include "kernel/test.h"
#include "lib/parse.h"
#include "lib/string.h"

extern const struct suite *const __start_ringlab_suites[], *const __stop_ringlab_suites[];
extern const struct test_case *const __start_ringlab_tests[], *const __stop_ringlab_tests[];

#define MAX_SUITES	64
#define MAX_CASES	512

struct entry {
	const struct test_case *tc;
	bool selected;
};

static const struct suite *suites[MAX_SUITES];
static unsigned nsuites;
static struct entry cases[MAX_CASES];
static unsigned ncases;
static unsigned order_errors;	/* check_case_order(): a build's defect */

static int suite_cmp(const struct suite *a, const struct suite *b)
{
	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int case_cmp(const struct test_case *a, const struct test_case *b)
{
	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

static void collect(void)
{
	nsuites = ncases = 0;
	for (const struct suite *const *s = __start_ringlab_suites; s < __stop_ringlab_suites; s++) {
		if (nsuites == MAX_SUITES)
			break;
		unsigned i = nsuites++;

		while (i > 0 && suite_cmp(suites[i - 1], *s) > 0) {
			suites[i] = suites[i - 1];
			i--;
		}
		suites[i] = *s;
	}
	/* Cases grouped by suite, then by .order, then by source line. */
	for (unsigned si = 0; si < nsuites; si++) {
		unsigned first = ncases;

		for (const struct test_case *const *t = __start_ringlab_tests;
		     t < __stop_ringlab_tests; t++) {
			if ((*t)->suite != suites[si] || ncases == MAX_CASES)
				continue;
			unsigned i = ncases++;

			while (i > first && case_cmp(cases[i - 1].tc, *t) > 0) {
				cases[i] = cases[i - 1];
				i--;
			}
			cases[i] = (struct entry){ *t, false };
		}
	}
}

/* The order rule (kernel/test.h TEST): a suite whose cases live in more
 * than one file orders every case, each .order distinct.  One error line
 * per offending case; returns how many. */
static unsigned check_case_order(void)
{
	unsigned bad = 0;

	for (unsigned i = 0; i < ncases; i++) {
		const struct test_case *a = cases[i].tc;
		bool split = false, twin = false;

		for (unsigned j = 0; j < ncases; j++) {
			const struct test_case *b = cases[j].tc;

			if (j == i || b->suite != a->suite)
				continue;
			split |= strcmp(a->file, b->file) != 0;
			twin |= a->order && b->order == a->order;
		}
		if (split && !a->order) {
			rep_error("runner", "case %s.%s (%s) has no .order, and suite %s has cases in more than one file",
				  a->suite->name, a->name, a->file, a->suite->name);
			bad++;
		} else if (twin) {
			rep_error("runner", "case %s.%s shares .order %u with another case of its suite",
				  a->suite->name, a->name, a->order);
			bad++;
		}
	}
	return bad;
}

int runner_suite_names(char *buf, size_t size)
{
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	for (unsigned i = 0; i < nsuites && len < size; i++)
		len += (size_t)rl_snprintf(buf + len, size - len, "%s%s", i ? " " : "",
					   suites[i]->name);
	return (int)len;
}

static const struct suite *find_suite(struct slice name)
{
	for (unsigned i = 0; i < nsuites; i++)
		if (slice_eq(name, suites[i]->name))
			return suites[i];
	return NULL;
}

static void case_names(const struct suite *s, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < ncases && len < size; i++)
		if (cases[i].tc->suite == s)
			len += (size_t)rl_snprintf(buf + len, size - len, "%s%s", len ? " " : "",
						   cases[i].tc->name);
}

/* Apply one tests=/skip= list: set `value` on the named cases.  Explicit
 * cases are only affected when named individually. */
static void apply_list(const char *list, const char *key, bool value, struct run_totals *tot)
{
	struct slice rest = slice_cstr(list), item;
	char names[600], e[64];

	while (slice_next(&rest, ",", &item)) {
		struct slice sname, cname;
		bool has_case = slice_split(item, '.', &sname, &cname);
		const struct suite *s = find_suite(sname);

		rl_snprintf(e, sizeof(e), "%.*s", (int)(item.n < 60 ? item.n : 60), item.p);
		if (!s) {
			runner_suite_names(names, sizeof(names));
			rep_error("cmdline", "%s: unknown suite '%s' (valid: %s)", key, e, names);
			tot->selection_errors++;
			continue;
		}
		bool found = false;

		for (unsigned i = 0; i < ncases; i++) {
			const struct test_case *tc = cases[i].tc;

			if (tc->suite != s)
				continue;
			if (has_case) {
				if (!slice_eq(cname, tc->name))
					continue;
			} else if (tc->flags & T_EXPLICIT) {
				continue;
			}
			cases[i].selected = value;
			found = true;
		}
		if (has_case && !found) {
			case_names(s, names, sizeof(names));
			rep_error("cmdline", "%s: unknown case '%s' (valid in %s: %s)", key, e,
				  s->name, names);
			tot->selection_errors++;
		}
	}
}

void runner_select(const struct options *o, struct run_totals *tot)
{
	collect();
	order_errors = check_case_order();
	tot->selection_errors += order_errors;
	if (o->tests[0]) {
		apply_list(o->tests, "tests=", true, tot);
	} else if (o->tests_given) {
		/* every name was refused (its error is counted): run nothing,
		 * never everything (docs/robustness.md) */
	} else {
		for (unsigned i = 0; i < ncases; i++)
			cases[i].selected = !(cases[i].tc->flags & T_EXPLICIT);
	}
	if (o->skip[0])
		apply_list(o->skip, "skip=", false, tot);
}

bool t_defer(struct test_ctx *t, t_defer_fn fn, void *arg)
{
	if (t->ndefer == T_DEFER_MAX)
		return t_fail(t, "t_defer: more than %u deferred actions", T_DEFER_MAX);
	t->defer[t->ndefer].fn = fn;
	t->defer[t->ndefer].arg = arg;
	t->ndefer++;
	return true;
}

void t_defer_run(struct test_ctx *t)
{
	/* Each action is forgotten before it runs: one that faults or is
	 * stopped is not run again when the case runner carries on with
	 * the rest (kernel/case_run.c, tools/hosted/platform_linux.c). */
	while (t->ndefer) {
		t->ndefer--;
		t->defer[t->ndefer].fn(t, t->defer[t->ndefer].arg);
	}
}

static uint64_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* The runner's own printf-style helpers for test_ctx (kernel/test.h). */
bool t_fail(struct test_ctx *t, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	rl_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (t->result != RES_FAIL) {
		t->result = RES_FAIL;
		str_copy(t->reason, buf, sizeof(t->reason));
	} else {
		rep_diag("also failed: %s", buf);
	}
	t->failures++;
	return false;
}

void t_skip(struct test_ctx *t, const char *fmt, ...)
{
	va_list ap;

	if (t->result == RES_FAIL)
		return;		/* a failure already recorded wins */
	t->result = RES_SKIP;
	va_start(ap, fmt);
	rl_vsnprintf(t->reason, sizeof(t->reason), fmt, ap);
	va_end(ap);
}

void t_diag(struct test_ctx *t, const char *fmt, ...)
{
	char buf[REP_LINE_MAX - 8];
	va_list ap;

	(void)t;
	va_start(ap, fmt);
	rl_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	rep_diag("%s", buf);
}

void t_verbose(struct test_ctx *t, const char *fmt, ...)
{
	char buf[REP_LINE_MAX - 8];
	va_list ap;

	if (!t->verbose)
		return;
	va_start(ap, fmt);
	rl_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	rep_diag("%s", buf);
}

static void metric_name(struct test_ctx *t, const char *what, char *buf, size_t size)
{
	rl_snprintf(buf, size, "%s.%s", t->full_name, what);
}

void t_metric_dist(struct test_ctx *t, const char *what, uint64_t *samples, size_t n,
		   const char *unit, const char *extra_fmt, ...)
{
	char name[160], extra[400] = "";
	va_list ap;

	metric_name(t, what, name, sizeof(name));
	if (extra_fmt) {
		va_start(ap, extra_fmt);
		rl_vsnprintf(extra, sizeof(extra), extra_fmt, ap);
		va_end(ap);
	}
	/* quick on its time budget prints no histogram (verbose does): the
	 * metric line carries n, min, p50, p90, p99 and max, and every logged
	 * character costs a smoke run time (87 us at 115200 baud; more under
	 * a hypervisor that emulates ring 0) */
	rep_metric_dist(name, samples, n, unit, extra, !t_budgeted(t) || t->verbose);
}

void t_metric_value(struct test_ctx *t, const char *what, int64_t value, const char *unit,
		    const char *extra_fmt, ...)
{
	char name[160], extra[400] = "";
	va_list ap;

	metric_name(t, what, name, sizeof(name));
	if (extra_fmt) {
		va_start(ap, extra_fmt);
		rl_vsnprintf(extra, sizeof(extra), extra_fmt, ap);
		va_end(ap);
	}
	rep_metric_value(name, value, unit, extra);
}

void t_metric_not_run(struct test_ctx *t, const char *what, const char *unit, const char *why,
		      const char *extra_fmt, ...)
{
	char extra[400] = "";
	va_list ap;

	if (extra_fmt) {
		va_start(ap, extra_fmt);
		rl_vsnprintf(extra, sizeof(extra), extra_fmt, ap);
		va_end(ap);
	}
	t_metric_value(t, what, 0, unit, "measured=no skipped=%s%s%s", why, extra[0] ? " " : "", extra);
}

/* `list`: one line per suite and per case instead of running them
 * (docs/log-format.md "# <anything else>" diagnostics), then the usual
 * summary, exit and integrity lines from the caller.  The plan is 1..0:
 * nothing ran. */
static void runner_list(void)
{
	char keys[200], summary[REP_LINE_MAX / 2];

	rep_plan(0);
	answers_listing();
	for (unsigned si = 0; si < nsuites; si++) {
		const struct suite *s = suites[si];

		answers_keys(s->name, keys, sizeof(keys));
		rep_sanitize(summary, sizeof(summary), s->summary ? s->summary : "");
		rep_diag("list: suite=%s order=%d hosted=%s answers=%s summary=\"%s\"", s->name,
			 s->order, s->hosted ? "yes" : "no", keys, summary);
		for (unsigned i = 0; i < ncases; i++) {
			const struct test_case *tc = cases[i].tc;

			if (tc->suite != s)
				continue;
			rep_diag("list: case=%s.%s flags=%s budget_ms=%u quick_budget_ms=%u", s->name,
				 tc->name, (tc->flags & T_EXPLICIT) ? "explicit" : "-",
				 tc->budget_ms ? tc->budget_ms : TEST_BUDGET_DEFAULT_MS,
				 tc->quick_budget_ms ? tc->quick_budget_ms : TEST_QUICK_BUDGET_MS);
		}
	}
}

void runner_run(const struct options *o, uint64_t seed, struct run_totals *tot)
{
	unsigned plan = 0;

	if (o->list) {
		runner_list();
		return;
	}

	for (unsigned si = 0; si < nsuites; si++)
		for (unsigned i = 0; i < ncases; i++)
			if (cases[i].selected && cases[i].tc->suite == suites[si]) {
				plan++;
				break;
			}
	/* A command-line error is a failing result that TAP consumers count
	 * (a '# error:' comment is invisible to them, and '1..0' reads as
	 * "skip all"): the reserved suite `config` comes first, with one
	 * case (docs/log-format.md, "Configuration errors"). */
	/* A run that would execute no case is never a pass: say why and
	 * count it as a configuration error (unless one already explains it). */
	if (!plan && !o->nerrors && !o->nerrors_dropped && !tot->selection_errors) {
		rep_error("cmdline", "no case selected: %s%s%s%s names no case that runs (explicit cases run only when named as suite.case)",
			  o->tests[0] ? "tests=" : "", o->tests, o->tests[0] && o->skip[0] ? " with skip=" : o->skip[0] ? "skip=" : "",
			  o->skip);
		tot->selection_errors++;
	}
	unsigned cfg = o->nerrors + o->nerrors_dropped + tot->selection_errors;

	rep_plan(plan + (cfg ? 1 : 0));
	tot->suites = plan;

	unsigned suite_idx = 0;

	if (cfg) {
		char why[128];

		rl_snprintf(why, sizeof(why),
			    "%u command-line error(s); see the '# error: cmdline' lines above%s", cfg,
			    order_errors ? " and '# error: runner'" : "");
		rep_suite_begin(RUNNER_CONFIG_SUITE, 1);
		rep_case_begin(1, RUNNER_CONFIG_CASE);
		rep_case(1, RUNNER_CONFIG_CASE, RES_FAIL, why);
		rep_suite_end(++suite_idx, RUNNER_CONFIG_SUITE, RES_FAIL, "configuration error");
		tot->failed++;
		tot->config_failed++;
	}

	for (unsigned si = 0; si < nsuites; si++) {
		const struct suite *s = suites[si];
		unsigned nsel = 0, idx = 0, failed = 0, skipped = 0;

		for (unsigned i = 0; i < ncases; i++)
			if (cases[i].selected && cases[i].tc->suite == s)
				nsel++;
		if (!nsel)
			continue;
		rep_suite_begin(s->name, nsel);
		if (s->summary)
			rep_diag("%s", s->summary);
		for (unsigned i = 0; i < ncases; i++) {
			const struct test_case *tc = cases[i].tc;

			if (!cases[i].selected || tc->suite != s)
				continue;
			static struct test_ctx t;

			memset(&t, 0, sizeof(t));
			t.tc = tc;
			rl_snprintf(t.full_name, sizeof(t.full_name), "%s.%s", s->name, tc->name);
			t.result = RES_PASS;
			t.quick = o->quick;
			t.verbose = o->verbose;
			t.iters = o->iters;
			t.seed = seed ^ name_hash(t.full_name);
			rng_seed(&t.rng, t.seed);
			uint64_t budget_ms = o->timeout_s ? (uint64_t)o->timeout_s * 1000u :
					     tc->budget_ms ? tc->budget_ms : TEST_BUDGET_DEFAULT_MS;
			uint64_t quick_ms = tc->quick_budget_ms ? tc->quick_budget_ms :
					    TEST_QUICK_BUDGET_MS;

			/* quick: a time budget, not a sample count (test.h) */
			if (o->quick && tc->quick_hard && !o->timeout_s)
				budget_ms = quick_ms;
			t.budget_ms = budget_ms;
			t.budget_given = o->timeout_s != 0;
			t.start_tsc = lfence_rdtsc();
			t.deadline_tsc = t.start_tsc + plat_ns_to_cycles(budget_ms * 1000000u);
			if (o->quick && !o->iters) {
				t.quick_budget_ms = quick_ms;
				t.quick_end_tsc = t.start_tsc + plat_ns_to_cycles(quick_ms * 1000000u);
			}
			rep_case_begin(idx + 1, tc->name);
			plat_run_case(&t);
			rep_case(++idx, tc->name, t.result, t.reason);
			if (t.result == RES_PASS)
				tot->passed++;
			else if (t.result == RES_SKIP)
				tot->skipped++, skipped++;
			else
				tot->failed++, failed++;
		}
		suite_idx++;
		if (failed) {
			char why[64];

			rl_snprintf(why, sizeof(why), "%u of %u cases failed", failed, nsel);
			rep_suite_end(suite_idx, s->name, RES_FAIL, why);
		}
		else if (skipped == nsel)
			rep_suite_end(suite_idx, s->name, RES_SKIP, "all cases skipped");
		else
			rep_suite_end(suite_idx, s->name, RES_PASS, "");
	}
}
