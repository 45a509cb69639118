/* The ringlab log checker; see tools/logcheck.h and docs/log-format.md.
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
 * run once at the end. */
#include "tools/logcheck.h"

#include "lib/crc32.h"
#include "lib/parse.h"
#include "lib/printf.h"
#include "lib/string.h"

#include <stdarg.h>
#include <stdlib.h>

/* Levels 0 and 1 are what the kernel prints; a few more cost nothing and
 * let a suite use KTAP subtests inside a case. */
#define MAX_DEPTH 8
/* Real metric lines have about a dozen keys; the cap keeps the duplicate
 * check (quadratic) cheap on a hostile line of megabytes. */
#define MAX_KEYS 128
/* Longest excerpt of a log line quoted in a message, so that one message
 * still fits LOGCHECK_ERR_LEN with its explanation. */
#define QUOTE_MAX 60

struct node {
	size_t line;            /* its `KTAP version 1` (or the start line) */
	struct slice name;      /* from `# Subtest: <name>` */
	bool has_name;
	bool has_plan;
	uint64_t plan;
	size_t plan_line;
	uint64_t next;          /* number the next result must carry */
	uint64_t count, notok, skip;
	bool child_seen;
};

/* Names seen so far, for "metric names are unique in a run": an
 * open-addressing hash set of slices into the log, grown by doubling. */
struct nameset {
	struct slice *names;
	size_t *lines;
	size_t cap, n;
	bool oom;
};

struct state {
	struct logcheck_result *r;
	struct nameset metric_names, hist_names;
	size_t panic_result_line;       /* first `# PANIC` result */
	/* The last case result, for its `# result:` line. */
	size_t case_line;
	struct slice case_suite, case_name;
	const char *case_word;
	size_t flat_results;
	/* The last suite result (level 0), and the last result that got its
	 * `# time:` line, for the placement of `# time:` lines. */
	size_t suite_line, flat_line;   /* flat_line: the last `# result:` line */
	struct slice suite_name;
	size_t timed_line;
	const struct logcheck_opts *o;
	bool *found;            /* per required metric */
	struct node nodes[MAX_DEPTH];
	size_t depth;           /* index of the innermost open node */
	size_t summary_line;
	size_t exit_line;
	size_t panic_line;      /* first PANIC line */
	size_t error_lines;     /* `# error:` lines seen */
	bool after_exit_reported;
	/* The answers block: its header, `# id.env:`, and per question the
	 * line and from= list of its first answer (checked at the end against
	 * the metrics of the run). */
	size_t answers_line;
	struct slice answers_env;
	size_t id_env_line;
	struct slice id_env;
	size_t answer_line[LOGCHECK_NANSWERS];
	struct slice answer_from[LOGCHECK_NANSWERS];
};

const char *const logcheck_answer_keys[LOGCHECK_NANSWERS] = {
	"wrmsr_fence", "rdtsc_order", "nt_clear", "tlb_flush", "tlb_shootdown",
	"ipi_cost", "tscdeadline", "spec_cost", "litmus", "fence_cost",
};

/* ------------------------------------------------------------ helpers --- */

static bool has_prefix(struct slice s, const char *pfx)
{
	size_t n = strlen(pfx);

	return s.n >= n && memcmp(s.p, pfx, n) == 0;
}

static struct slice drop(struct slice s, size_t k)
{
	return k >= s.n ? slice_of(s.p + s.n, 0) : slice_of(s.p + k, s.n - k);
}

static bool slices_equal(struct slice a, struct slice b)
{
	return a.n == b.n && memcmp(a.p, b.p, a.n) == 0;
}

/* Strict decimal: what the kernel's %u prints, so no sign, no 0x and no
 * leading zeros (which would hint at a corrupted or foreign line). */
static bool parse_dec(struct slice s, uint64_t *v)
{
	if (s.n == 0 || (s.n > 1 && s.p[0] == '0'))
		return false;
	for (size_t i = 0; i < s.n; i++)
		if (s.p[i] < '0' || s.p[i] > '9')
			return false;
	return parse_u64(s, v);
}

/* Take a leading word from *s up to (not including) the next space. */
static struct slice take_word(struct slice *s)
{
	size_t i = 0;

	while (i < s->n && s->p[i] != ' ')
		i++;
	struct slice w = slice_of(s->p, i);

	*s = drop(*s, i);
	return w;
}

/* Consume the literal `lit` at the front of *s. */
static bool eat(struct slice *s, const char *lit)
{
	if (!has_prefix(*s, lit))
		return false;
	*s = drop(*s, strlen(lit));
	return true;
}

/* A printable excerpt of s for messages: the log may hold any bytes, and
 * escapes or NULs must not reach the user's terminal. */
static const char *quote(char *buf, size_t size, struct slice s)
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

#define Q(name) char name[QUOTE_MAX + 4]
#define QS(buf, s) quote(buf, sizeof(buf), s)

__attribute__((format(printf, 3, 4)))
static void err(struct state *st, size_t line, const char *fmt, ...)
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

/* ------------------------------------------------------------ names --- */

static uint64_t slice_hash(struct slice s)
{
	uint64_t h = 1469598103934665603ull;    /* FNV-1a */

	for (size_t i = 0; i < s.n; i++)
		h = (h ^ (unsigned char)s.p[i]) * 1099511628211ull;
	return h;
}

/* Adds name (seen at line); returns 0 when new, else the line where it was
 * first seen.  Out of memory: the check is dropped, never a crash. */
static size_t nameset_add(struct nameset *ns, struct slice name, size_t line)
{
	if (ns->oom)
		return 0;
	if ((ns->n + 1) * 2 > ns->cap) {
		size_t cap = ns->cap ? ns->cap * 2 : 64;
		struct slice *nn = calloc(cap, sizeof(*nn));
		size_t *nl = calloc(cap, sizeof(*nl));

		if (!nn || !nl) {
			free(nn);
			free(nl);
			ns->oom = true;
			return 0;
		}
		for (size_t i = 0; i < ns->cap; i++) {
			if (!ns->lines[i])
				continue;
			size_t j = slice_hash(ns->names[i]) & (cap - 1);

			while (nl[j])
				j = (j + 1) & (cap - 1);
			nn[j] = ns->names[i];
			nl[j] = ns->lines[i];
		}
		free(ns->names);
		free(ns->lines);
		ns->names = nn;
		ns->lines = nl;
		ns->cap = cap;
	}
	size_t j = slice_hash(name) & (ns->cap - 1);

	while (ns->lines[j]) {
		if (ns->names[j].n == name.n && memcmp(ns->names[j].p, name.p, name.n) == 0)
			return ns->lines[j];
		j = (j + 1) & (ns->cap - 1);
	}
	ns->names[j] = name;
	ns->lines[j] = line;
	ns->n++;
	return 0;
}

/* The line where name was added, or 0. */
static size_t nameset_find(const struct nameset *ns, struct slice name)
{
	if (!ns->cap)
		return 0;
	size_t j = slice_hash(name) & (ns->cap - 1);

	while (ns->lines[j]) {
		if (ns->names[j].n == name.n && memcmp(ns->names[j].p, name.p, name.n) == 0)
			return ns->lines[j];
		j = (j + 1) & (ns->cap - 1);
	}
	return 0;
}

static void nameset_free(struct nameset *ns)
{
	free(ns->names);
	free(ns->lines);
	memset(ns, 0, sizeof(*ns));
}

/* ------------------------------------------------------ metric grammar --- */

static bool seg_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
	       c == '-';
}

__attribute__((format(printf, 3, 4)))
static bool fail(char *e, size_t esz, const char *fmt, ...)
{
	va_list ap;

	if (esz) {
		va_start(ap, fmt);
		rl_vsnprintf(e, esz, fmt, ap);
		va_end(ap);
	}
	return false;
}

static bool check_name(struct slice name, char *e, size_t esz)
{
	Q(q);
	size_t segs = 1, seglen = 0;

	if (name.n == 0)
		return fail(e, esz, "empty name (two spaces after the keyword?)");
	for (size_t i = 0; i < name.n; i++) {
		char c = name.p[i];

		if (c == '.') {
			if (seglen == 0)
				return fail(e, esz, "name '%s' has an empty segment",
					    QS(q, name));
			segs++;
			seglen = 0;
		} else if (seg_char(c) || (segs >= 3 && c >= 'A' && c <= 'Z')) {
			/* upper case after <suite>.<case>: sizes such as
			 * clear.bandwidth.rep_stosb.4KiB.1cpu */
			seglen++;
		} else {
			return fail(e, esz,
				    "name '%s' has a character outside [a-z0-9_-.] (after <suite>.<case> also [A-Z]) at offset %zu",
				    QS(q, name), i);
		}
	}
	if (seglen == 0)
		return fail(e, esz, "name '%s' has an empty segment", QS(q, name));
	if (segs < 2)
		return fail(e, esz,
			    "name '%s' has one segment; it must be <suite>.<case>[.<what>...]",
			    QS(q, name));
	return true;
}

static bool check_key(struct slice key, char *e, size_t esz)
{
	Q(q);

	if (key.n == 0)
		return fail(e, esz, "empty key before '='");
	if (key.p[0] < 'a' || key.p[0] > 'z')
		return fail(e, esz, "key '%s' must start with a lower-case letter",
			    QS(q, key));
	for (size_t i = 1; i < key.n; i++) {
		char c = key.p[i];

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
			return fail(e, esz, "key '%s' has a character outside [a-z0-9_]",
				    QS(q, key));
	}
	return true;
}

/* Validates a `# metric` / `# hist` line; on success *name is its name. */
static bool metric_check(struct slice l, struct slice *name, char *e, size_t esz)
{
	struct slice keys[MAX_KEYS];
	size_t nkeys = 0;
	Q(q);

	if (slice_eq(l, "# metric") || slice_eq(l, "# hist"))
		return fail(e, esz, "no name and no key=value fields");
	if (!eat(&l, "# metric ") && !eat(&l, "# hist "))
		return fail(e, esz, "does not start with '# metric ' or '# hist '");
	/* A tab anywhere is an error; saying so directly is clearer than the
	 * bad name or value it would otherwise show up as. */
	for (size_t i = 0; i < l.n; i++)
		if (l.p[i] == '\t')
			return fail(e, esz,
				    "tab character; fields are separated by single spaces");

	*name = take_word(&l);
	if (!check_name(*name, e, esz))
		return false;
	if (l.n == 0)
		return fail(e, esz, "no key=value fields after the name");

	while (l.n) {
		struct slice field, key, value;

		/* l starts with the single separating space. */
		l = drop(l, 1);
		field = take_word(&l);
		if (field.n == 0)
			return fail(e, esz, "empty field (double or trailing space)");
		if (!slice_split(field, '=', &key, &value))
			return fail(e, esz, "field '%s' has no '='", QS(q, field));
		if (!check_key(key, e, esz))
			return false;
		if (value.n == 0)
			return fail(e, esz, "key '%s' has an empty value", QS(q, key));
		for (size_t i = 0; i < nkeys; i++)
			if (slices_equal(keys[i], key))
				return fail(e, esz, "duplicate key '%s'", QS(q, key));
		if (nkeys == MAX_KEYS)
			return fail(e, esz, "more than %d keys", MAX_KEYS);
		keys[nkeys++] = key;
	}
	return true;
}

bool logcheck_metric_line(const char *line, size_t n, char *err, size_t errsz)
{
	struct slice name;

	if (errsz)
		err[0] = '\0';
	return metric_check(slice_of(line, n), &name, err, errsz);
}

/* --------------------------------------------------------- line kinds --- */

struct result {
	bool notok, skip, timeout, panic;
	struct slice reason;    /* after " # " (after SKIP/TIMEOUT/PANIC if any) */
	uint64_t num;
	struct slice name;
	const char *problem;    /* well-formed but not allowed; still counted */
};

/* `ok N name`, `ok N name # SKIP reason`, `not ok N name[ # reason]`.
 * Returns false (with why) when the line cannot be counted at all. */
static bool parse_result(struct slice c, struct result *res, const char **why)
{
	memset(res, 0, sizeof(*res));
	if (eat(&c, "not ok"))
		res->notok = true;
	else if (!eat(&c, "ok"))
		return false;
	if (!eat(&c, " ")) {
		*why = "expected a space and a number after 'ok'/'not ok'";
		return false;
	}
	if (!parse_dec(take_word(&c), &res->num) || res->num == 0) {
		*why = "result number is not a decimal number >= 1";
		return false;
	}
	if (!eat(&c, " ") || c.n == 0) {
		*why = "result has no name";
		return false;
	}

	/* The name ends at the first " #" that is followed by a space or the
	 * end of line; the reason after it may itself contain '#'. */
	size_t cut = c.n;

	for (size_t i = 0; i + 1 < c.n; i++) {
		if (c.p[i] == ' ' && c.p[i + 1] == '#' &&
		    (i + 2 == c.n || c.p[i + 2] == ' ')) {
			cut = i;
			break;
		}
	}
	res->name = slice_of(c.p, cut);
	if (res->name.n == 0) {
		*why = "result has no name";
		return false;
	}
	for (size_t i = 0; i < res->name.n; i++) {
		if (res->name.p[i] == ' ' || res->name.p[i] == '\t') {
			*why = "result name contains a space or tab (a directive needs ' # ')";
			return false;
		}
	}

	if (cut == c.n)
		return true;
	struct slice d = drop(c, cut + 2);      /* after " #" */

	eat(&d, " ");
	res->reason = d;
	struct slice word = take_word(&d);
	bool is_skip = slice_eq(word, "SKIP");
	bool is_timeout = slice_eq(word, "TIMEOUT");
	bool is_panic = slice_eq(word, "PANIC");

	/* For a directive, the reason is the text after its word. */
	if (is_skip || is_timeout || is_panic) {
		eat(&d, " ");
		res->reason = d;
	}

	if (res->notok) {
		res->timeout = is_timeout;
		res->panic = is_panic;
		if (is_skip)
			res->problem = "'not ok' with '# SKIP': a skipped result is 'ok N name # SKIP reason'";
	} else if (is_skip) {
		res->skip = true;
	} else if (is_panic) {
		res->problem = "'ok' result with '# PANIC' (a panic closes a result with 'not ok')";
	} else {
		res->problem = "'ok' result with a comment other than '# SKIP' (a failure is 'not ok')";
	}
	return true;
}

enum kind {
	K_KTAP, K_PLAN, K_RESULT, K_SUBTEST, K_METRIC, K_HIST, K_EXIT,
	K_INTEGRITY, K_DIAG, K_PANIC, K_SUMMARY, K_UNKNOWN,
};

static bool word_then_space_or_end(struct slice c, const char *w)
{
	size_t n = strlen(w);

	return has_prefix(c, w) && (c.n == n || c.p[n] == ' ');
}

static enum kind classify(struct slice c)
{
	if (slice_eq(c, "KTAP version 1"))
		return K_KTAP;
	if (has_prefix(c, "1.."))
		return K_PLAN;
	if (word_then_space_or_end(c, "ok") || word_then_space_or_end(c, "not ok"))
		return K_RESULT;
	if (has_prefix(c, "# Subtest:"))
		return K_SUBTEST;
	if (word_then_space_or_end(c, "# metric"))
		return K_METRIC;
	if (word_then_space_or_end(c, "# hist"))
		return K_HIST;
	if (has_prefix(c, "# exit:"))
		return K_EXIT;
	if (has_prefix(c, "# integrity:"))
		return K_INTEGRITY;
	if (has_prefix(c, "#"))
		return K_DIAG;
	if (has_prefix(c, "ringlab: PANIC:"))
		return K_PANIC;
	if (has_prefix(c, "ringlab:"))
		return K_SUMMARY;
	return K_UNKNOWN;
}

/* ------------------------------------------------------------ structure --- */

static const char *node_name(char *buf, size_t size, const struct node *n)
{
	if (!n->has_name)
		return "(unnamed)";
	return quote(buf, size, n->name);
}

/* Plan against results, for a node whose result line has been seen (or the
 * top level at the end).  `partial`: the run stopped early, so fewer
 * results than planned are fine. */
static void check_plan(struct state *st, const struct node *n, size_t depth,
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
			err(st, line, "%s has no plan '1..N'", who);
		return;
	}
	if (n->count > n->plan || (!partial && n->count != n->plan))
		err(st, line, "%s plans %llu results (line %zu) but has %llu", who,
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
		err(st, ch->line, "suite has no '# Subtest: <name>' line");
	else if (!slices_equal(ch->name, res->name))
		err(st, line, "result name '%s' differs from '# Subtest: %s'",
		    QS(q, res->name), QS(q2, ch->name));
	/* A suite closed by a panic stopped early: fewer results than planned,
	 * and possibly none failed (the panic hit between cases). */
	check_plan(st, ch, st->depth, line, res->panic);

	/* An empty suite (all its cases filtered out) may be either plain
	 * ok or SKIP: "all skipped" holds vacuously, but insisting on SKIP
	 * for it would be pedantic. */
	bool any_failed = ch->notok > 0;
	bool all_skipped = ch->skip == ch->count;

	const char *rn = QS(q, res->name);

	if (res->notok && !any_failed && !res->panic)
		err(st, line, "suite '%s' is 'not ok' but none of its %llu results failed",
		    rn, (unsigned long long)ch->count);
	if (!res->notok && any_failed)
		err(st, line, "suite '%s' is 'ok' but %llu of its results failed",
		    rn, (unsigned long long)ch->notok);
	if (res->skip && !all_skipped)
		err(st, line, "suite '%s' is '# SKIP' but only %llu of its %llu results were skipped",
		    rn, (unsigned long long)ch->skip, (unsigned long long)ch->count);
	if (!res->notok && !res->skip && all_skipped && ch->count > 0)
		err(st, line, "all %llu results of suite '%s' were skipped but it is not '# SKIP'",
		    (unsigned long long)ch->count, rn);
	st->depth--;
}

/* A subtest that ends without its result line (not after a PANIC). */
static void abandon(struct state *st, size_t line, const char *why)
{
	Q(q);
	const struct node *n = &st->nodes[st->depth];

	err(st, line, "suite '%s' (started line %zu) has no result line: %s",
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
static struct slice open_suite(const struct state *st)
{
	if (st->depth >= 1 && st->nodes[1].has_name)
		return st->nodes[1].name;
	return slice_of("", 0);
}

static void emit(struct state *st, struct logcheck_event *ev)
{
	if (st->o && st->o->on_event)
		st->o->on_event(ev, st->o->event_arg);
}

static void on_result(struct state *st, size_t line, size_t level, struct slice c)
{
	struct logcheck_result *r = st->r;
	struct result res;
	const char *why = NULL;
	Q(q);

	if (!parse_result(c, &res, &why)) {
		err(st, line, "malformed result line '%s': %s", QS(q, c), why);
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
			.suite = level == 1 ? open_suite(st) : slice_of("", 0),
		};

		emit(st, &ev);
	}
	if (res.problem)
		err(st, line, "%s", res.problem);
	if (level > st->depth) {
		err(st, line, "result indented deeper than any open suite");
		return;
	}
	/* Results at a shallower level close the subtests in between; all but
	 * the one right below `level` are missing their own result. */
	while (st->depth > level + 1)
		abandon(st, line, "a result at a shallower level follows");
	if (level == 0 && st->summary_line)
		err(st, line, "suite result after the summary line (line %zu)",
		    st->summary_line);
	else if (level == 0 && st->answers_line)
		err(st, line, "suite result after the answers block (line %zu)", st->answers_line);

	bool has_child = st->depth == level + 1;

	if (has_child)
		close_child(st, line, &res);
	else if (level == 0)
		err(st, line, "top-level result '%s' has no suite block ('KTAP version 1' and '# Subtest:' indented by 4 spaces)",
		    QS(q, res.name));

	struct node *n = &st->nodes[level];

	if (res.num != n->next)
		err(st, line, "result number %llu, expected %llu (numbering runs 1..N without gaps)",
		    (unsigned long long)res.num, (unsigned long long)n->next);
	n->next = res.num == UINT64_MAX ? res.num : res.num + 1;
	n->count++;
	if (res.notok)
		n->notok++;
	if (res.skip)
		n->skip++;

	if (level == 1) {
		st->case_line = line;
		st->case_suite = open_suite(st);
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
		if (res.notok && slice_eq(open_suite(st), "config"))
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

static void on_plan(struct state *st, size_t line, size_t level, struct slice c)
{
	struct slice rest = drop(c, 3);
	struct node *n;
	uint64_t v;
	Q(q);

	if (!parse_dec(rest, &v)) {
		err(st, line, "malformed plan '%s' (expected '1..N')", QS(q, c));
		return;
	}
	if (level != st->depth) {
		err(st, line, "plan at indentation level %zu while the open level is %zu",
		    level, st->depth);
		return;
	}
	/* Only now: a plan indented deeper than MAX_DEPTH levels has no node
	 * (found by fuzz_logcheck: "1..1" after 108 spaces). */
	n = &st->nodes[level];
	if (n->has_plan) {
		err(st, line, "second plan (first at line %zu)", n->plan_line);
		return;
	}
	if (n->count || n->child_seen)
		err(st, line, "plan after the first result; it must come first");
	n->has_plan = true;
	n->plan = v;
	n->plan_line = line;
}

static void on_ktap(struct state *st, size_t line, size_t level)
{
	if (level == 0 || level > st->depth + 1) {
		err(st, line, "'KTAP version 1' at indentation level %zu, open level is %zu",
		    level, st->depth);
		return;
	}
	while (st->depth >= level)
		abandon(st, line, "a new suite starts");
	if (level == 1 && st->summary_line)
		err(st, line, "suite starts after the summary line (line %zu)",
		    st->summary_line);
	if (level == 1 && st->answers_line)
		err(st, line, "suite starts after the answers block (line %zu), which follows the last suite",
		    st->answers_line);
	if (level >= MAX_DEPTH) {
		err(st, line, "subtests nested deeper than %d levels", MAX_DEPTH - 1);
		return;
	}
	open_child(st, line);
}

static void on_subtest(struct state *st, size_t line, size_t level, struct slice c)
{
	struct node *n = &st->nodes[st->depth];
	struct slice name = drop(c, strlen("# Subtest:"));

	if (level != st->depth || level == 0) {
		err(st, line, "'# Subtest:' outside its suite (it follows the suite's 'KTAP version 1')");
		return;
	}
	if (!eat(&name, " ") || name.n == 0) {
		err(st, line, "'# Subtest:' without a name");
		return;
	}
	if (n->has_name) {
		err(st, line, "second '# Subtest:' line in one suite");
		return;
	}
	if (n->has_plan || n->count || n->child_seen)
		err(st, line, "'# Subtest:' after the suite's plan or results");
	n->has_name = true;
	n->name = name;
	if (level == 1) {
		struct logcheck_event ev = {
			.kind = LC_EV_SUITE, .line = line, .level = level, .text = c,
			.name = name, .suite = name,
		};

		emit(st, &ev);
	}
}

static void on_metric(struct state *st, size_t line, size_t level, struct slice c,
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
	bool ok = metric_check(c, &name, e, sizeof(e));
	struct slice rest = drop(c, strlen(hist ? "# hist " : "# metric "));

	{
		struct logcheck_event ev = {
			.kind = hist ? LC_EV_HIST : LC_EV_METRIC, .line = line,
			.level = level, .text = c, .name = name, .ok = ok,
			.fields = ok ? drop(rest, name.n) : slice_of("", 0),
			.suite = open_suite(st),
		};

		emit(st, &ev);
	}
	if (!ok) {
		err(st, line, "bad %s line: %s", hist ? "hist" : "metric", e);
		return;
	}
	/* Metric names are unique in a run (docs/log-format.md); so are
	 * histograms, one per metric. */
	size_t first = nameset_add(hist ? &st->hist_names : &st->metric_names, name, line);

	if (first)
		err(st, line, "%s name '%s' repeats (first at line %zu); names must be unique in a run",
		    hist ? "hist" : "metric", QS(q, name), first);
	if (!hist && st->o)
		for (size_t i = 0; i < st->o->nrequire; i++)
			if (slice_eq(name, st->o->require_metrics[i]))
				st->found[i] = true;
}

/* `# result: <suite>.<case> <word>` right after the case result it
 * repeats (docs/log-format.md). */
static void on_flat_result(struct state *st, size_t line, struct slice c)
{
	struct slice rest = drop(c, strlen("# result: ")), name, suite, kase;
	Q(q);

	st->flat_results++;
	name = take_word(&rest);
	if (!eat(&rest, " ") || !rest.n) {
		err(st, line, "malformed '# result:' line '%s' (expected '# result: <suite>.<case> <pass|fail|skip|timeout|panic>')",
		    QS(q, c));
		return;
	}
	if (st->case_line + 1 != line) {
		err(st, line, "'# result:' line does not follow a case result");
		return;
	}
	st->flat_line = line;
	if (!slice_split(name, '.', &suite, &kase) || !slices_equal(suite, st->case_suite) ||
	    !slices_equal(kase, st->case_name) || !slice_eq(rest, st->case_word))
		err(st, line, "'%s' disagrees with the case result on line %zu (%s)", QS(q, c),
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
static void on_time(struct state *st, size_t line, size_t level, struct slice c,
		    struct logcheck_event *ev)
{
	struct slice rest = drop(c, strlen("# time: ")), name, num, suite, kase;
	uint64_t ns;
	size_t of = 0;
	Q(q);

	name = take_word(&rest);
	if (!name.n || !eat(&rest, " duration_ms=") || !(num = take_word(&rest)).n || rest.n ||
	    !logcheck_parse_ms(num.p, num.n, &ns)) {
		err(st, line, "malformed '# time:' line '%s' (expected '# time: <suite>[.<case>] duration_ms=<ms>')",
		    QS(q, c));
		return;
	}
	if (slice_split(name, '.', &suite, &kase)) {
		/* a case: right after its result, or after its `# result:` line */
		if (level == 1 && st->case_line &&
		    (line == st->case_line + 1 ||
		     (line == st->case_line + 2 && st->flat_line == st->case_line + 1)) &&
		    slices_equal(suite, st->case_suite) && slices_equal(kase, st->case_name))
			of = st->case_line;
	} else if (level == 0 && st->suite_line && st->suite_line + 1 == line &&
		   slices_equal(name, st->suite_name)) {
		of = st->suite_line;
	}
	if (!of) {
		err(st, line, "'# time:' line '%s' does not follow the result it times", QS(q, c));
		return;
	}
	if (st->timed_line == of) {
		err(st, line, "second '# time:' line for the result on line %zu", of);
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

static void on_summary(struct state *st, size_t line, size_t level, struct slice c)
{
	struct logcheck_result *r = st->r;
	struct slice s = c;
	uint64_t p, f, k;
	Q(q);

	if (!(eat(&s, "ringlab: ") && parse_dec(take_word(&s), &p) &&
	      eat(&s, " passed, ") && parse_dec(take_word(&s), &f) &&
	      eat(&s, " failed, ") && parse_dec(take_word(&s), &k) &&
	      slice_eq(s, " skipped"))) {
		err(st, line, "malformed line '%s' (expected 'ringlab: N passed, N failed, N skipped' or 'ringlab: PANIC: ...')",
		    QS(q, c));
		return;
	}
	if (level != 0)
		err(st, line, "summary line must be at column 0");
	if (st->summary_line) {
		err(st, line, "second summary line (first at line %zu)", st->summary_line);
		return;
	}
	st->summary_line = line;
	r->has_summary = true;
	r->sum_passed = p;
	r->sum_failed = f;
	r->sum_skipped = k;
}

static void on_exit_line(struct state *st, size_t line, size_t level, struct slice c)
{
	struct logcheck_result *r = st->r;
	struct slice s = c, status;
	uint64_t code;
	Q(q);

	if (level != 0) {
		err(st, line, "exit line must be at column 0");
		return;
	}
	if (st->exit_line) {
		err(st, line, "second exit line (first at line %zu)", st->exit_line);
		return;
	}
	if (!(eat(&s, "# exit: status=") && (status = take_word(&s)).n > 0 &&
	      eat(&s, " code=") && parse_dec(s, &code))) {
		err(st, line, "malformed exit line '%s' (expected '# exit: status=<s> code=<c>')",
		    QS(q, c));
		return;
	}
	st->exit_line = line;
	r->has_exit = true;
	r->code = code;
	quote(r->status, sizeof(r->status), status);
}

/* ------------------------------------------------------------ answers --- */

/* The answers block (docs/log-format.md "Answers") sits at column 0 after
 * the last suite and before the summary line. */
static void answer_place(struct state *st, size_t line, size_t level, const char *what)
{
	if (level != 0 || st->depth != 0)
		err(st, line, "%s inside a suite; the answers block comes after the last suite, at column 0",
		    what);
	else if (st->summary_line)
		err(st, line, "%s after the summary line (line %zu); the answers block comes before it",
		    what, st->summary_line);
}

/* `# answers: env=<environment>` */
static void on_answers_header(struct state *st, size_t line, size_t level, struct slice c,
			      struct logcheck_event *ev)
{
	struct slice s = drop(c, strlen("# answers:")), env;
	Q(q);

	if (!eat(&s, " env=") || (env = take_word(&s)).n == 0 || s.n) {
		err(st, line, "malformed answers line '%s' (expected '# answers: env=<environment>')",
		    QS(q, c));
		return;
	}
	if (st->answers_line) {
		err(st, line, "second '# answers:' line (first at line %zu)", st->answers_line);
		return;
	}
	answer_place(st, line, level, "'# answers:' line");
	st->answers_line = line;
	st->answers_env = env;
	st->r->has_answers = true;
	ev->kind = LC_EV_ANSWERS;
	ev->env = env;
	ev->value = env;
}

static int answer_index(struct slice key)
{
	for (int i = 0; i < LOGCHECK_NANSWERS; i++)
		if (slice_eq(key, logcheck_answer_keys[i]))
			return i;
	return -1;
}

/* Up to the next `sep` (or the end); *s continues at sep. */
static struct slice take_until(struct slice *s, char sep)
{
	size_t i = 0;

	while (i < s->n && s->p[i] != sep)
		i++;
	struct slice w = slice_of(s->p, i);

	*s = drop(*s, i);
	return w;
}

/* `none`, or metric names separated by ','. */
static bool from_list_ok(struct slice from, char *e, size_t esz)
{
	struct slice rest = from, name;
	Q(q);

	if (slice_eq(from, "none"))
		return true;
	while (rest.n) {
		name = take_until(&rest, ',');
		bool last = !eat(&rest, ",");

		if (!check_name(name, e, esz))
			return fail(e, esz, "from= element '%s' is not a metric name", QS(q, name));
		if (!last && !rest.n)
			return fail(e, esz, "from= ends with ','");
	}
	return from.n ? true : fail(e, esz, "empty from= (say from=none)");
}

/* `# answer <key>: <text> (from=<list>; control=<word>; env=<environment>)`:
 * the parenthesis is the last " (from=" of the line, so the text may hold
 * parentheses of its own. */
static void on_answer(struct state *st, size_t line, size_t level, struct slice c,
		      struct logcheck_event *ev)
{
	static const char tail[] = " (from=";
	const size_t tl = sizeof(tail) - 1;
	struct slice rest = drop(c, strlen("# answer ")), key, text, inner, from, control, env;
	size_t cut = SIZE_MAX;
	char e[LOGCHECK_ERR_LEN - 60];
	Q(q);
	Q(q2);
	Q(k);

	key = take_until(&rest, ':');
	if (!eat(&rest, ": ") || key.n == 0) {
		err(st, line, "malformed answer line '%s' (expected '# answer <key>: <text> (from=...; control=...; env=...)')",
		    QS(q, c));
		return;
	}
	for (size_t i = 0; i + tl <= rest.n; i++)
		if (memcmp(rest.p + i, tail, tl) == 0)
			cut = i;
	if (cut == SIZE_MAX || rest.p[rest.n - 1] != ')') {
		err(st, line, "answer '%s' does not end with ' (from=<metrics>; control=<word>; env=<environment>)' (line cut short?)",
		    QS(k, key));
		return;
	}
	text = slice_of(rest.p, cut);
	inner = slice_of(rest.p + cut + tl, rest.n - cut - tl - 1);
	from = take_until(&inner, ';');
	if (!eat(&inner, "; control=")) {
		err(st, line, "answer '%s': no '; control=' after from=", QS(k, key));
		return;
	}
	control = take_until(&inner, ';');
	if (!eat(&inner, "; env=")) {
		err(st, line, "answer '%s': no '; env=' after control=", QS(k, key));
		return;
	}
	env = inner;
	st->r->answers++;
	ev->kind = LC_EV_ANSWER;
	ev->key = key;
	ev->value = text;
	ev->from = from;
	ev->control = control;
	ev->env = env;

	answer_place(st, line, level, "answer line");
	if (!st->answers_line)
		err(st, line, "answer line before the '# answers:' line");
	int qi = answer_index(key);

	if (qi < 0) {
		err(st, line, "unknown answer key '%s'", QS(k, key));
	} else if (st->answer_line[qi]) {
		err(st, line, "answer key '%s' repeats (first at line %zu)", QS(k, key),
		    st->answer_line[qi]);
	} else {
		st->answer_line[qi] = line;
		st->answer_from[qi] = from;
	}
	if (text.n == 0)
		err(st, line, "answer '%s' has no text", QS(k, key));
	if (!from_list_ok(from, e, sizeof(e)))
		err(st, line, "answer '%s': %s", QS(k, key), e);
	if (!slice_eq(control, "fired") && !slice_eq(control, "not-observed") &&
	    !slice_eq(control, "none"))
		err(st, line, "answer '%s': control='%s', expected fired, not-observed or none",
		    QS(k, key), QS(q, control));
	if (env.n == 0 || memchr(env.p, ' ', env.n))
		err(st, line, "answer '%s': env= must be one token", QS(k, key));
	else if (st->answers_line && !slices_equal(env, st->answers_env))
		err(st, line, "answer '%s': env=%s but the '# answers:' line says env=%s",
		    QS(k, key), QS(q, env), QS(q2, st->answers_env));
	if (has_prefix(text, "not measured:") &&
	    (!slice_eq(from, "none") || !slice_eq(control, "none")))
		err(st, line, "answer '%s' is 'not measured' but has from= or control= other than none",
		    QS(k, key));
}

/* At the end: every question answered once (when the run reached its
 * summary), the environment agrees with `# id.env:`, every from= name is a
 * metric of the run. */
static void check_answers(struct state *st)
{
	const struct logcheck_opts *o = st->o;
	Q(q);
	Q(q2);

	if (!st->answers_line) {
		if (o && o->require_answers)
			err(st, 0, "no answers block ('# answers: env=...' line before the summary); required by --require-answers");
		return;
	}
	if (st->r->has_summary)
		for (int i = 0; i < LOGCHECK_NANSWERS; i++)
			if (!st->answer_line[i])
				err(st, st->answers_line, "answers block has no '# answer %s:' line",
				    logcheck_answer_keys[i]);
	if (!st->id_env_line)
		err(st, st->answers_line, "answers block but no '# id.env:' line to match its env=");
	else if (!slices_equal(st->answers_env, st->id_env))
		err(st, st->answers_line, "answers env=%s differs from '# id.env: %s' (line %zu)",
		    QS(q, st->answers_env), QS(q2, st->id_env), st->id_env_line);
	if (st->metric_names.oom)
		return;
	for (int i = 0; i < LOGCHECK_NANSWERS; i++) {
		struct slice rest = st->answer_from[i], name;

		if (!st->answer_line[i] || slice_eq(rest, "none"))
			continue;
		while (rest.n) {
			name = take_until(&rest, ',');
			eat(&rest, ",");
			if (name.n && !nameset_find(&st->metric_names, name))
				err(st, st->answer_line[i],
				    "answer '%s': from= names '%s', which is not a metric of this run",
				    logcheck_answer_keys[i], QS(q, name));
		}
	}
}

static void process_line(struct state *st, size_t line, struct slice l)
{
	size_t sp = 0;
	Q(q);

	if (st->exit_line && !st->after_exit_reported) {
		err(st, line, "text after the exit line (line %zu); only the integrity line may follow it",
		    st->exit_line);
		st->after_exit_reported = true;
	}
	while (sp < l.n && l.p[sp] == ' ')
		sp++;
	struct slice c = drop(l, sp);

	if (c.n == 0) {
		err(st, line, "empty line");
		return;
	}
	if (sp % 4) {
		err(st, line, "indented by %zu spaces, not a multiple of 4: '%s'", sp,
		    QS(q, c));
		return;
	}
	size_t level = sp / 4;
	enum kind k = classify(c);

	/* Diagnostics may sit at any open level (an interrupt handler may
	 * print at column 0 in the middle of a suite), never deeper. */
	if ((k == K_DIAG || k == K_METRIC || k == K_HIST) && level > st->depth) {
		err(st, line, "'#' line indented deeper than any open suite");
		return;
	}

	struct logcheck_event ev = {
		.kind = LC_EV_OTHER, .line = line, .level = level, .text = c,
		.suite = open_suite(st),
	};

	switch (k) {
	case K_DIAG:
		ev.kind = LC_EV_DIAG;
		ev.value = drop(c, 2);
		if (has_prefix(c, "# result: ")) {
			ev.kind = LC_EV_OTHER;  /* repeats the result just reported */
		} else if (has_prefix(c, "# time: ")) {
			on_time(st, line, level, c, &ev);
		} else if (has_prefix(c, "# id.")) {
			struct slice kv = drop(c, 5);

			ev.kind = LC_EV_ID;
			if (!slice_split(kv, ':', &ev.key, &ev.value))
				ev.kind = LC_EV_DIAG;
			eat(&ev.value, " ");
			if (ev.kind == LC_EV_ID && slice_eq(ev.key, "env") && !st->id_env_line) {
				st->id_env_line = line;
				st->id_env = ev.value;
			}
		} else if (has_prefix(c, "# answers:")) {
			on_answers_header(st, line, level, c, &ev);
		} else if (has_prefix(c, "# answer ")) {
			on_answer(st, line, level, c, &ev);
		} else if (has_prefix(c, "# error: ") || has_prefix(c, "# warning: ")) {
			struct slice kv = drop(c, has_prefix(c, "# error: ") ? 9 : 11);

			ev.kind = has_prefix(c, "# error: ") ? LC_EV_ERROR : LC_EV_WARNING;
			if (!slice_split(kv, ':', &ev.key, &ev.value))
				ev.value = kv;
			eat(&ev.value, " ");
		}
		break;
	case K_PANIC:
		ev.kind = LC_EV_PANIC;
		ev.value = drop(c, strlen("ringlab: PANIC:"));
		eat(&ev.value, " ");
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
		emit(st, &ev);

	switch (k) {
	case K_KTAP:
		on_ktap(st, line, level);
		break;
	case K_PLAN:
		on_plan(st, line, level, c);
		break;
	case K_RESULT:
		on_result(st, line, level, c);
		break;
	case K_SUBTEST:
		on_subtest(st, line, level, c);
		break;
	case K_METRIC:
	case K_HIST:
		on_metric(st, line, level, c, k == K_HIST);
		break;
	case K_EXIT:
		on_exit_line(st, line, level, c);
		break;
	case K_INTEGRITY:
		err(st, line, "integrity line that is not the last line at column 0");
		break;
	case K_DIAG:
		if (has_prefix(c, "# error:"))
			st->error_lines++;
		if (has_prefix(c, "# result: "))
			on_flat_result(st, line, c);
		break;
	case K_PANIC:
		st->r->panic = true;
		if (!st->panic_line)
			st->panic_line = line;
		break;
	case K_SUMMARY:
		on_summary(st, line, level, c);
		break;
	case K_UNKNOWN:
		err(st, line, "unrecognised line '%s'", QS(q, c));
		break;
	}
}

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

static void check_integrity(struct state *st, size_t line, struct slice l,
			    size_t start)
{
	struct logcheck_result *r = st->r;
	struct slice s = l;
	uint64_t lines;
	uint32_t crc;
	Q(q);

	if (!(eat(&s, "# integrity: lines=") && parse_dec(take_word(&s), &lines) &&
	      eat(&s, " crc32=") && is_hex8(s, &crc))) {
		err(st, line, "malformed integrity line '%s' (expected '# integrity: lines=<L> crc32=<8 lower-case hex digits>')",
		    QS(q, l));
		return;
	}
	r->has_integrity = true;
	r->lines_expected = lines;
	r->crc_expected = crc;
	r->integrity_ok = true;
	if (lines != r->lines_computed) {
		err(st, line, "integrity: lines=%llu but the run has %zu lines before it (from line %zu): truncated or extra lines",
		    (unsigned long long)lines, r->lines_computed, start);
		r->integrity_ok = false;
	}
	if (crc != r->crc_computed) {
		err(st, line, "integrity: crc32=%08x but the run's lines give %08x: corrupted",
		    (unsigned)crc, (unsigned)r->crc_computed);
		r->integrity_ok = false;
	}
}

static const char *const status_names[] = { "pass", "fail", "config-error", "panic" };

static void finish(struct state *st, size_t last_line)
{
	struct logcheck_result *r = st->r;
	bool partial = r->panic;

	/* 2: open suites are missing their results, unless the run panicked;
	 * then only what they printed must fit their plan. */
	while (st->depth > 0) {
		if (partial) {
			check_plan(st, &st->nodes[st->depth], st->depth, last_line, true);
			st->depth--;
		} else {
			abandon(st, last_line, "the log ends");
		}
	}
	check_plan(st, &st->nodes[0], 0, last_line, partial);

	/* Flat `# result:` lines are optional (older logs have none), but a
	 * log that has them has one per case. */
	if (st->flat_results && st->flat_results != r->cases)
		err(st, last_line, "%zu '# result:' lines for %zu case results", st->flat_results,
		    r->cases);

	/* 4 */
	if (r->has_summary) {
		if (r->sum_passed != r->passed || r->sum_failed != r->failed ||
		    r->sum_skipped != r->skipped)
			err(st, st->summary_line,
			    "summary says %llu passed, %llu failed, %llu skipped but the case results are %zu passed, %zu failed, %zu skipped",
			    (unsigned long long)r->sum_passed,
			    (unsigned long long)r->sum_failed,
			    (unsigned long long)r->sum_skipped,
			    r->passed, r->failed, r->skipped);
	} else if (!partial) {
		err(st, 0, "no summary line 'ringlab: N passed, N failed, N skipped'");
	}

	/* 5 */
	if (!r->has_exit) {
		err(st, 0, "no exit line '# exit: status=<s> code=<c>'");
		return;
	}
	size_t line = st->exit_line;
	int known = -1;

	for (int i = 0; i < 4; i++)
		if (strcmp(r->status, status_names[i]) == 0)
			known = i;
	if (known < 0) {
		err(st, line, "unknown exit status '%s' (pass, fail, config-error or panic)",
		    r->status);
		return;
	}
	if (r->code != (uint64_t)known)
		err(st, line, "status=%s must have code=%d, not %llu", r->status,
		    known, (unsigned long long)r->code);
	if (r->panic && strcmp(r->status, "panic") != 0)
		err(st, line, "status=%s but the run panicked (line %zu)", r->status,
		    st->panic_line);
	if (!r->panic && strcmp(r->status, "panic") == 0)
		err(st, line, "status=panic but there is no 'ringlab: PANIC:' line");
	if (!r->panic) {
		bool is_fail = strcmp(r->status, "fail") == 0;
		/* The `config` suite's failure is a configuration error, not a
		 * failed test: it makes the status config-error, or fail when a
		 * real case failed too. */
		size_t tests_failed = r->failed - r->config_failed;

		if (tests_failed && !is_fail)
			err(st, line, "status=%s but %zu cases failed", r->status,
			    tests_failed);
		if (!tests_failed && is_fail)
			err(st, line, "status=fail but no case failed");
		if (r->config_failed && strcmp(r->status, "pass") == 0)
			err(st, line, "status=pass but the 'config' suite reports a configuration error");
	}
	if (st->panic_result_line && !r->panic)
		err(st, st->panic_result_line,
		    "result with '# PANIC' but no 'ringlab: PANIC:' line follows");
	if (strcmp(r->status, "config-error") == 0 && !st->error_lines)
		err(st, line, "status=config-error but there is no '# error:' line");
}

static void check_opts(struct state *st)
{
	const struct logcheck_opts *o = st->o;
	struct logcheck_result *r = st->r;

	if (!o)
		return;
	if (o->expect_status && r->has_exit && strcmp(o->expect_status, r->status))
		err(st, st->exit_line, "status=%s, expected %s", r->status,
		    o->expect_status);
	if (o->qemu_exit >= 0 && r->has_exit &&
	    (r->code > (UINT64_MAX - 1) / 2 ||
	     r->code * 2 + 1 != (uint64_t)o->qemu_exit))
		err(st, st->exit_line,
		    "QEMU exit status %ld does not match code=%llu (expected code*2+1)",
		    o->qemu_exit, (unsigned long long)r->code);
	if (o->min_cases >= 0 && r->cases < (size_t)o->min_cases)
		err(st, 0, "%zu cases, expected at least %ld", r->cases, o->min_cases);
	for (size_t i = 0; i < o->nrequire; i++)
		if (!st->found[i])
			err(st, 0, "required metric '%s' not found", o->require_metrics[i]);
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
		err(&st, 0, "no 'KTAP version 1' line at column 0: not a ringlab log, or its start is lost");
		return 1;
	}
	r->start_line = start;

	/* The integrity line is the last column-0 one after the start. */
	it = (struct lines){ text, len, start_pos, start - 1 };
	while (next_line(&it, &l))
		if (has_prefix(l, "# integrity: "))
			integ = it.lineno;

	if (opts && opts->nrequire) {
		st.found = calloc(opts->nrequire, sizeof(bool));
		if (!st.found) {
			err(&st, 0, "out of memory");
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
			check_integrity(&st, n, l, start);
		} else if (l.n) {
			if (!trailing++)
				first_trailing = n;
		}
	}
	r->crc_computed = crc;
	if (!integ)
		err(&st, 0, "no '# integrity:' line after the start line (line %zu): the log is truncated",
		    start);
	if (trailing)
		err(&st, first_trailing, "%zu non-empty line(s) after the integrity line, which must be the last line",
		    trailing);

	finish(&st, integ ? integ : last);
	check_answers(&st);
	check_opts(&st);
	free(st.found);
	nameset_free(&st.metric_names);
	nameset_free(&st.hist_names);
	return r->nerrors ? 1 : 0;
}

int logcheck_buffer(const char *text, size_t len, struct logcheck_result *r)
{
	return logcheck_buffer_opts(text, len, NULL, r);
}
