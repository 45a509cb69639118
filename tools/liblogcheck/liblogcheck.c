/* SPDX-License-Identifier: GPL-2.0-only */
/* The ringlab log checker; see tools/liblogcheck/liblogcheck.h and docs/log-format.md.
 *
 * The input is any byte buffer (a serial capture with firmware noise, NUL
 * bytes, \r\n line ends).  Everything works on slices into that buffer, so
 * a line of any length is checked whole and nothing is copied except short,
 * sanitised excerpts for the error messages.
 *
 * Three passes over the lines: find the last start line, find the last
 * integrity line after it, then walk the run once, feeding the CRC and a
 * small state machine that keeps one node per open nesting level (level 0
 * is the top level, level 1 a suite, deeper levels are accepted as KTAP
 * subtests of a case but not counted).  The checks that need the whole run
 * (plans of open suites, summary, exit status, the caller's expectations)
 * run once at the end.
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

int logcheck_buffer_opts(const char *text, size_t len,
			 const struct logcheck_opts *opts,
			 struct logcheck_result *r)
{
	static const char nl = '\n';
	struct state st;
	struct lines it;
	struct slice l;
	size_t start_pos = 0, start = 0, integ = 0, pos;

	memset(r, 0, sizeof(*r));
	memset(&st, 0, sizeof(st));
	st.r = r;
	st.o = opts;
	if (!text)
		len = 0;

	/* The run is judged from the last start line. */
	it = (struct lines){ text, len, 0, 0 };
	for (pos = 0; next_line(&it, &l); pos = it.pos) {
		if (slice_eq(l, "KTAP version 1")) {
			r->runs++;
			start = it.lineno;
			start_pos = pos;
		}
	}
	if (!start) {
		lc_err(&st, 0, "no 'KTAP version 1' line at column 0: not a ringlab log, or its start is lost");
		return 1;
	}
	r->start_line = start;

	/* The integrity line is the last column-0 one after the start. */
	it = (struct lines){ text, len, start_pos, start - 1 };
	while (next_line(&it, &l))
		if (lc_has_prefix(l, "# integrity: "))
			integ = it.lineno;

	if (opts && opts->nrequire) {
		st.found = calloc(opts->nrequire, sizeof(bool));
		if (!st.found) {
			lc_err(&st, 0, "out of memory");
			return 1;
		}
	}

	memset(&st.nodes[0], 0, sizeof(st.nodes[0]));
	st.nodes[0].line = start;
	st.nodes[0].next = 1;

	size_t trailing = 0, first_trailing = 0, last = start;
	uint32_t crc = 0;

	it = (struct lines){ text, len, start_pos, start - 1 };
	while (next_line(&it, &l)) {
		size_t n = it.lineno;

		if (!integ || n < integ) {
			crc = crc32_update(crc, l.p, l.n);
			crc = crc32_update(crc, &nl, 1);
			r->lines_computed++;
			last = n;
			if (n != start)
				process_line(&st, n, l);
		} else if (n == integ) {
			r->crc_computed = crc;
			lc_check_integrity(&st, n, l, start);
		} else if (l.n) {
			if (!trailing++)
				first_trailing = n;
		}
	}
	r->crc_computed = crc;
	if (!integ)
		lc_err(&st, 0, "no '# integrity:' line after the start line (line %zu): the log is truncated",
		       start);
	if (trailing)
		lc_err(&st, first_trailing, "%zu non-empty line(s) after the integrity line, which must be the last line",
		       trailing);

	lc_finish(&st, integ ? integ : last);
	lc_check_answers(&st);
	lc_check_opts(&st);
	free(st.found);
	lc_nameset_free(&st.metric_names);
	lc_nameset_free(&st.hist_names);
	return r->nerrors ? 1 : 0;
}

int logcheck_buffer(const char *text, size_t len, struct logcheck_result *r)
{
	return logcheck_buffer_opts(text, len, NULL, r);
}
