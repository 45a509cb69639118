/* SPDX-License-Identifier: GPL-2.0-only */
/* The ringlab log checker; see tools/liblogcheck/liblogcheck.h and docs/log-format.md.
 *
 * The input is any byte buffer (a serial capture with firmware noise, NUL
 * bytes, \r\n line ends).  Everything works on slices into that buffer, so
 * a line of any length is checked whole and nothing is copied except short,
 * sanitised excerpts for the error messages.
 *
 * The input is cut into runs at its column-0 start lines (a console
 * captured across reboots holds several); the run judged is the last
 * complete one (with its integrity line), else the last.  Walking that run
 * once feeds the CRC and a small state machine that keeps one node per
 * open nesting level (level 0 is the top level, level 1 a suite, deeper
 * levels are accepted as KTAP subtests of a case but not counted).  The
 * checks that need the whole run (plans of open suites, summary, exit
 * status, the caller's expectations) run once at the end.  Every other
 * run is then checked the same way, only for its verdict, which a warning
 * names when it is not pass.
 *
 * The parts, one job each, share tools/liblogcheck/internal.h: this file
 * (helpers, the line dispatcher, the driver), logcheck_lib_grammar.c (metric
 * names and grammar, line kinds), logcheck_lib_structure.c (KTAP nesting
 * and the lines that hang on it), logcheck_lib_answers.c (the answers
 * block) and logcheck_lib_verdict.c (integrity and the end-of-run checks). */
#include "tools/liblogcheck/internal.h"

#include "lib/crc32.h"
#include "lib/parse.h"
#include "lib/printf.h"
#include "lib/string.h"

#include <stdarg.h>
#include <stdlib.h>

const char *const logcheck_answer_keys[LOGCHECK_NANSWERS] = {
	"wrmsr_fence", "rdtsc_order", "nt_clear", "tlb_flush", "tlb_shootdown",
	"ipi_cost", "tscdeadline", "spec_cost", "litmus", "fence_cost",
};

/* ------------------------------------------------------------ helpers --- */

bool lc_has_prefix(struct slice s, const char *pfx)
{
	size_t n = strlen(pfx);

	return s.n >= n && memcmp(s.p, pfx, n) == 0;
}

struct slice lc_drop(struct slice s, size_t k)
{
	return k >= s.n ? slice_of(s.p + s.n, 0) : slice_of(s.p + k, s.n - k);
}

bool lc_slices_equal(struct slice a, struct slice b)
{
	return a.n == b.n && memcmp(a.p, b.p, a.n) == 0;
}

/* Strict decimal: what the kernel's %u prints, so no sign, no 0x and no
 * leading zeros (which would hint at a corrupted or foreign line). */
bool lc_parse_dec(struct slice s, uint64_t *v)
{
	if (s.n == 0 || (s.n > 1 && s.p[0] == '0'))
		return false;
	for (size_t i = 0; i < s.n; i++)
		if (s.p[i] < '0' || s.p[i] > '9')
			return false;
	return parse_u64(s, v);
}

/* Take a leading word from *s up to (not including) the next space. */
struct slice lc_take_word(struct slice *s)
{
	size_t i = 0;

	while (i < s->n && s->p[i] != ' ')
		i++;
	struct slice w = slice_of(s->p, i);

	*s = lc_drop(*s, i);
	return w;
}

/* Consume the literal `lit` at the front of *s. */
bool lc_eat(struct slice *s, const char *lit)
{
	if (!lc_has_prefix(*s, lit))
		return false;
	*s = lc_drop(*s, strlen(lit));
	return true;
}

/* A printable excerpt of s for messages: the log may hold any bytes, and
 * escapes or NULs must not reach the user's terminal. */
const char *lc_quote(char *buf, size_t size, struct slice s)
{
	size_t max = size - 4, n = 0;

	for (size_t i = 0; i < s.n && n < max; i++) {
		unsigned char c = (unsigned char)s.p[i];

		buf[n++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	if (s.n > max) {
		buf[n++] = '.';
		buf[n++] = '.';
		buf[n++] = '.';
	}
	buf[n] = '\0';
	return buf;
}

__attribute__((format(printf, 3, 4)))
void lc_err(struct state *st, size_t line, const char *fmt, ...)
{
	struct logcheck_result *r = st->r;

	if (r->nerrors < LOGCHECK_MAX_ERRORS) {
		char *e = r->errors[r->nerrors];
		int k = 0;
		va_list ap;

		if (line)
			k = rl_snprintf(e, LOGCHECK_ERR_LEN, "line %zu: ", line);
		va_start(ap, fmt);
		rl_vsnprintf(e + k, LOGCHECK_ERR_LEN - (size_t)k, fmt, ap);
		va_end(ap);
	}
	r->nerrors++;
}

static void process_line(struct state *st, size_t line, struct slice l)
{
	size_t sp = 0;
	Q(q);

	if (st->exit_line && !st->after_exit_reported) {
		lc_err(st, line, "text after the exit line (line %zu); only the integrity line may follow it",
		       st->exit_line);
		st->after_exit_reported = true;
	}
	while (sp < l.n && l.p[sp] == ' ')
		sp++;
	struct slice c = lc_drop(l, sp);

	if (c.n == 0) {
		lc_err(st, line, "empty line");
		return;
	}
	if (sp % 4) {
		lc_err(st, line, "indented by %zu spaces, not a multiple of 4: '%s'", sp,
		       QS(q, c));
		return;
	}
	size_t level = sp / 4;
	enum kind k = lc_classify(c);

	/* Diagnostics may sit at any open level (an interrupt handler may
	 * print at column 0 in the middle of a suite), never deeper. */
	if ((k == K_DIAG || k == K_METRIC || k == K_HIST) && level > st->depth) {
		lc_err(st, line, "'#' line indented deeper than any open suite");
		return;
	}

	struct logcheck_event ev = {
		.kind = LC_EV_OTHER, .line = line, .level = level, .text = c,
		.suite = lc_open_suite(st),
	};

	switch (k) {
	case K_DIAG:
		ev.kind = LC_EV_DIAG;
		ev.value = lc_drop(c, 2);
		if (lc_has_prefix(c, "# result: ")) {
			ev.kind = LC_EV_OTHER;  /* repeats the result just reported */
		} else if (lc_has_prefix(c, "# time: ")) {
			lc_on_time(st, line, level, c, &ev);
		} else if (lc_has_prefix(c, "# id.")) {
			struct slice kv = lc_drop(c, 5);

			ev.kind = LC_EV_ID;
			if (!slice_split(kv, ':', &ev.key, &ev.value))
				ev.kind = LC_EV_DIAG;
			lc_eat(&ev.value, " ");
			if (ev.kind == LC_EV_ID && slice_eq(ev.key, "env") && !st->id_env_line) {
				st->id_env_line = line;
				st->id_env = ev.value;
			}
		} else if (lc_has_prefix(c, "# answers:")) {
			lc_on_answers_header(st, line, level, c, &ev);
		} else if (lc_has_prefix(c, "# answer ")) {
			lc_on_answer(st, line, level, c, &ev);
		} else if (lc_has_prefix(c, "# error: ") || lc_has_prefix(c, "# warning: ")) {
			struct slice kv = lc_drop(c, lc_has_prefix(c, "# error: ") ? 9 : 11);

			ev.kind = lc_has_prefix(c, "# error: ") ? LC_EV_ERROR : LC_EV_WARNING;
			if (!slice_split(kv, ':', &ev.key, &ev.value))
				ev.value = kv;
			lc_eat(&ev.value, " ");
		}
		break;
	case K_PANIC:
		ev.kind = LC_EV_PANIC;
		ev.value = lc_drop(c, strlen("ringlab: PANIC:"));
		lc_eat(&ev.value, " ");
		break;
	case K_SUMMARY:
		ev.kind = LC_EV_SUMMARY;
		break;
	case K_EXIT:
		ev.kind = LC_EV_EXIT;
		break;
	default:
		break;
	}
	if (k != K_RESULT && k != K_METRIC && k != K_HIST && k != K_SUBTEST)
		lc_emit(st, &ev);

	switch (k) {
	case K_KTAP:
		lc_on_ktap(st, line, level);
		break;
	case K_PLAN:
		lc_on_plan(st, line, level, c);
		break;
	case K_RESULT:
		lc_on_result(st, line, level, c);
		break;
	case K_SUBTEST:
		lc_on_subtest(st, line, level, c);
		break;
	case K_METRIC:
	case K_HIST:
		lc_on_metric(st, line, level, c, k == K_HIST);
		break;
	case K_EXIT:
		lc_on_exit_line(st, line, level, c);
		break;
	case K_INTEGRITY:
		lc_err(st, line, "integrity line that is not the last line at column 0");
		break;
	case K_DIAG:
		if (lc_has_prefix(c, "# error:"))
			st->error_lines++;
		if (lc_has_prefix(c, "# result: "))
			lc_on_flat_result(st, line, c);
		break;
	case K_PANIC:
		st->r->panic = true;
		if (!st->panic_line)
			st->panic_line = line;
		break;
	case K_SUMMARY:
		lc_on_summary(st, line, level, c);
		break;
	case K_UNKNOWN:
		lc_err(st, line, "unrecognised line '%s'", QS(q, c));
		break;
	}
}

/* -------------------------------------------------------------- driver --- */

struct lines {
	const char *p;
	size_t len, pos, lineno;
};

/* Next line without its '\n' and trailing '\r's: a capture through a tty
 * with onlcr turns the kernel's \r\n into \r\r\n, and the by-hand check in
 * the format document strips them all too. */
static bool next_line(struct lines *it, struct slice *line)
{
	if (it->pos >= it->len)
		return false;
	const char *s = it->p + it->pos;
	size_t rem = it->len - it->pos;
	const char *nl = memchr(s, '\n', rem);
	size_t n = nl ? (size_t)(nl - s) : rem;

	it->pos += nl ? n + 1 : n;
	it->lineno++;
	while (n && s[n - 1] == '\r')
		n--;
	*line = slice_of(s, n);
	return true;
}

/* One run of the input (docs/log-format.md, "Several runs in one file"):
 * from a start line to the line before the next one (or the end).  Its
 * integrity line is the first column-0 `# integrity:` line in it; what
 * follows that line up to the next start belongs to no run. */
struct span {
	size_t start_pos, start_line;
	size_t integ_line;      /* 0: none, the run is incomplete */
	size_t end_pos;         /* where the next start line begins, or len */
	size_t last_line;       /* the last line before the next start line */
};

struct run_scan {
	struct lines it;
	bool have_next;         /* a start line found and not yet returned */
	size_t next_pos, next_line;
};

static bool is_start(struct slice l)
{
	return slice_eq(l, "KTAP version 1");
}

/* The next run; false when no start line is left. */
static bool scan_run(struct run_scan *sc, struct span *sp)
{
	struct slice l;
	size_t pos;

	for (pos = sc->it.pos; !sc->have_next && next_line(&sc->it, &l); pos = sc->it.pos) {
		if (is_start(l)) {
			sc->have_next = true;
			sc->next_pos = pos;
			sc->next_line = sc->it.lineno;
		}
	}
	if (!sc->have_next)
		return false;
	*sp = (struct span){ .start_pos = sc->next_pos, .start_line = sc->next_line,
			     .last_line = sc->next_line };
	sc->have_next = false;
	for (pos = sc->it.pos; next_line(&sc->it, &l); pos = sc->it.pos) {
		if (is_start(l)) {
			sc->have_next = true;
			sc->next_pos = pos;
			sc->next_line = sc->it.lineno;
			sp->end_pos = pos;
			return true;
		}
		sp->last_line = sc->it.lineno;
		if (!sp->integ_line && lc_has_prefix(l, "# integrity: "))
			sp->integ_line = sc->it.lineno;
	}
	sp->end_pos = sc->it.len;
	return true;
}

/* Check one run into r (cleared by the caller).  Returns the number of
 * errors found before the caller's expectations were checked, which make
 * a run fail the check but do not change its own verdict. */
static size_t check_run(const char *text, const struct span *sp,
			const struct logcheck_opts *opts, struct logcheck_result *r)
{
	static const char nl = '\n';
	struct state st;
	struct lines it;
	struct slice l;
	size_t last = sp->start_line, own;
	uint32_t crc = 0;

	memset(&st, 0, sizeof(st));
	st.r = r;
	st.o = opts;
	r->start_line = sp->start_line;
	r->end_line = sp->integ_line ? sp->integ_line : sp->last_line;
	if (opts && opts->nrequire) {
		st.found = calloc(opts->nrequire, sizeof(bool));
		if (!st.found) {
			lc_err(&st, 0, "out of memory");
			return r->nerrors;
		}
	}
	st.nodes[0].line = sp->start_line;
	st.nodes[0].next = 1;

	it = (struct lines){ text, sp->end_pos, sp->start_pos, sp->start_line - 1 };
	while (next_line(&it, &l)) {
		size_t n = it.lineno;

		if (!sp->integ_line || n < sp->integ_line) {
			crc = crc32_update(crc, l.p, l.n);
			crc = crc32_update(crc, &nl, 1);
			r->lines_computed++;
			last = n;
			if (n != sp->start_line)
				process_line(&st, n, l);
		} else if (n == sp->integ_line) {
			r->crc_computed = crc;
			lc_check_integrity(&st, n, l, sp->start_line);
		} else if (l.n) {
			/* after the integrity line: not this run's (a BIOS
			 * banner after a reset), so not an error */
			if (!r->trailing_lines++)
				r->trailing_first = n;
		}
	}
	r->crc_computed = crc;
	if (!sp->integ_line)
		lc_err(&st, 0, "no '# integrity:' line after the start line (line %zu): the log is truncated",
		       sp->start_line);

	lc_finish(&st, sp->integ_line ? sp->integ_line : last);
	lc_check_answers(&st);
	own = r->nerrors;
	lc_check_opts(&st);
	free(st.found);
	lc_nameset_free(&st.metric_names);
	lc_nameset_free(&st.hist_names);
	return own;
}

__attribute__((format(printf, 3, 4)))
static void add_note(struct logcheck_result *r, bool warning, const char *fmt, ...)
{
	va_list ap;

	if (r->nnotes >= LOGCHECK_MAX_NOTES)
		return;
	r->notes[r->nnotes].warning = warning;
	va_start(ap, fmt);
	rl_vsnprintf(r->notes[r->nnotes].text, LOGCHECK_ERR_LEN, fmt, ap);
	va_end(ap);
	r->nnotes++;
}

static void record_run(struct logcheck_result *r, size_t i, const struct span *sp,
		       const struct logcheck_result *x, size_t errors)
{
	struct logcheck_run *rec;

	if (i == 0 || i > LOGCHECK_MAX_RUNS)
		return;
	rec = &r->run[i - 1];
	rec->start_line = sp->start_line;
	rec->end_line = sp->integ_line ? sp->integ_line : sp->last_line;
	rec->complete = sp->integ_line != 0;
	str_copy(rec->verdict, !sp->integ_line ? "incomplete" : errors ? "broken" : x->status,
		 sizeof(rec->verdict));
}

/* At most this many runs that did not pass are named one by one. */
#define NAMED_RUNS 10

/* The runs other than the judged one: each checked on its own for its
 * verdict; those that did not pass are named in a warning, and are errors
 * with opts->all_runs. */
static void check_others(const char *text, size_t len, const struct logcheck_opts *opts,
			 struct logcheck_result *r)
{
	struct logcheck_result *x = malloc(sizeof(*x));
	struct run_scan sc = { .it = { text, len, 0, 0 } };
	struct state st = { .r = r };
	struct span sp;
	size_t i = 0;

	if (!x) {
		lc_err(&st, 0, "out of memory: the other %zu runs were not checked", r->runs - 1);
		return;
	}
	while (scan_run(&sc, &sp)) {
		if (++i == r->judged)
			continue;
		memset(x, 0, sizeof(*x));
		size_t own = check_run(text, &sp, NULL, x);

		record_run(r, i, &sp, x, own);
		const char *v = !sp.integ_line ? "incomplete (no integrity line)" :
				own ? "broken (fails the log check)" : x->status;

		if (sp.integ_line && !own && strcmp(x->status, "pass") == 0)
			continue;
		if (r->others_not_passed++ < NAMED_RUNS)
			add_note(r, true, "%s run %zu of %zu (lines %zu-%zu) did not pass: %s",
				 i < r->judged ? "earlier" : "later", i, r->runs, sp.start_line,
				 sp.integ_line ? sp.integ_line : sp.last_line, v);
		if (opts && opts->all_runs && ++r->other_run_errors)
			lc_err(&st, sp.start_line, "--all-runs: run %zu of %zu did not pass: %s",
			       i, r->runs, v);
	}
	if (r->others_not_passed > NAMED_RUNS)
		add_note(r, true, "... and %zu more runs did not pass",
			 r->others_not_passed - NAMED_RUNS);
	free(x);
}

int logcheck_buffer_opts(const char *text, size_t len,
			 const struct logcheck_opts *opts,
			 struct logcheck_result *r)
{
	struct run_scan sc;
	struct span sp, judged = { 0 }, last = { 0 };
	size_t n = 0;

	memset(r, 0, sizeof(*r));
	if (!text)
		len = 0;

	/* Which run is judged: the last complete one, else the last. */
	sc = (struct run_scan){ .it = { text, len, 0, 0 } };
	while (scan_run(&sc, &sp)) {
		n++;
		if (sp.integ_line) {
			judged = sp;
			r->judged = n;
			r->complete_runs++;
		}
		last = sp;
	}
	r->runs = n;
	if (!n) {
		struct state st = { .r = r };

		lc_err(&st, 0, "no 'KTAP version 1' line at column 0: not a ringlab log, or its start is lost");
		return 1;
	}
	if (!r->judged) {
		judged = last;
		r->judged = n;
	}
	if (n > 1)
		add_note(r, false, "the file holds %zu runs (start lines at column 0), %zu of them complete; judged run %zu (lines %zu-%zu), the %s",
			 n, r->complete_runs, r->judged, judged.start_line,
			 judged.integ_line ? judged.integ_line : judged.last_line,
			 r->complete_runs ? "last complete one" : "last (none is complete)");

	size_t own = check_run(text, &judged, opts, r);

	record_run(r, r->judged, &judged, r, own);
	if (n > 1)
		check_others(text, len, opts, r);
	if (r->trailing_lines)
		add_note(r, false, "%zu non-empty line(s) after the integrity line (line %zu) start no new run: ignored (from line %zu)",
			 r->trailing_lines, judged.integ_line, r->trailing_first);
	return r->nerrors ? 1 : 0;
}

int logcheck_buffer(const char *text, size_t len, struct logcheck_result *r)
{
	return logcheck_buffer_opts(text, len, NULL, r);
}
