/* SPDX-License-Identifier: GPL-2.0-only */
/* The log checker's grammar (see tools/liblogcheck/liblogcheck.c for the whole):
 * the metric names seen in a run (a hash set), the metric line grammar
 * (docs/log-format.md "Metrics") and the kinds of line. */
#include "tools/liblogcheck/internal.h"

#include "lib/parse.h"
#include "lib/printf.h"
#include "lib/string.h"

#include <stdarg.h>
#include <stdlib.h>

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
size_t lc_nameset_add(struct nameset *ns, struct slice name, size_t line)
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
size_t lc_nameset_find(const struct nameset *ns, struct slice name)
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

void lc_nameset_free(struct nameset *ns)
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
bool lc_fail(char *e, size_t esz, const char *fmt, ...)
{
	va_list ap;

	if (esz) {
		va_start(ap, fmt);
		rl_vsnprintf(e, esz, fmt, ap);
		va_end(ap);
	}
	return false;
}

bool lc_check_name(struct slice name, char *e, size_t esz)
{
	Q(q);
	size_t segs = 1, seglen = 0;

	if (name.n == 0)
		return lc_fail(e, esz, "empty name (two spaces after the keyword?)");
	for (size_t i = 0; i < name.n; i++) {
		char c = name.p[i];

		if (c == '.') {
			if (seglen == 0)
				return lc_fail(e, esz, "name '%s' has an empty segment",
					       QS(q, name));
			segs++;
			seglen = 0;
		} else if (seg_char(c) || (segs >= 3 && c >= 'A' && c <= 'Z')) {
			/* upper case after <suite>.<case>: sizes such as
			 * clear.bandwidth.rep_stosb.4KiB.1cpu */
			seglen++;
		} else {
			return lc_fail(e, esz,
				       "name '%s' has a character outside [a-z0-9_-.] (after <suite>.<case> also [A-Z]) at offset %zu",
				       QS(q, name), i);
		}
	}
	if (seglen == 0)
		return lc_fail(e, esz, "name '%s' has an empty segment", QS(q, name));
	if (segs < 2)
		return lc_fail(e, esz,
			       "name '%s' has one segment; it must be <suite>.<case>[.<what>...]",
			       QS(q, name));
	return true;
}

static bool check_key(struct slice key, char *e, size_t esz)
{
	Q(q);

	if (key.n == 0)
		return lc_fail(e, esz, "empty key before '='");
	if (key.p[0] < 'a' || key.p[0] > 'z')
		return lc_fail(e, esz, "key '%s' must start with a lower-case letter",
			       QS(q, key));
	for (size_t i = 1; i < key.n; i++) {
		char c = key.p[i];

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
			return lc_fail(e, esz, "key '%s' has a character outside [a-z0-9_]",
				       QS(q, key));
	}
	return true;
}

/* Validates a `# metric` / `# hist` line; on success *name is its name. */
bool lc_metric_check(struct slice l, struct slice *name, char *e, size_t esz)
{
	struct slice keys[MAX_KEYS];
	size_t nkeys = 0;
	Q(q);

	if (slice_eq(l, "# metric") || slice_eq(l, "# hist"))
		return lc_fail(e, esz, "no name and no key=value fields");
	if (!lc_eat(&l, "# metric ") && !lc_eat(&l, "# hist "))
		return lc_fail(e, esz, "does not start with '# metric ' or '# hist '");
	/* A tab anywhere is an error; saying so directly is clearer than the
	 * bad name or value it would otherwise show up as. */
	for (size_t i = 0; i < l.n; i++)
		if (l.p[i] == '\t')
			return lc_fail(e, esz,
				       "tab character; fields are separated by single spaces");

	*name = lc_take_word(&l);
	if (!lc_check_name(*name, e, esz))
		return false;
	if (l.n == 0)
		return lc_fail(e, esz, "no key=value fields after the name");

	while (l.n) {
		struct slice field, key, value;

		/* l starts with the single separating space. */
		l = lc_drop(l, 1);
		field = lc_take_word(&l);
		if (field.n == 0)
			return lc_fail(e, esz, "empty field (double or trailing space)");
		if (!slice_split(field, '=', &key, &value))
			return lc_fail(e, esz, "field '%s' has no '='", QS(q, field));
		if (!check_key(key, e, esz))
			return false;
		if (value.n == 0)
			return lc_fail(e, esz, "key '%s' has an empty value", QS(q, key));
		for (size_t i = 0; i < nkeys; i++)
			if (lc_slices_equal(keys[i], key))
				return lc_fail(e, esz, "duplicate key '%s'", QS(q, key));
		if (nkeys == MAX_KEYS)
			return lc_fail(e, esz, "more than %d keys", MAX_KEYS);
		keys[nkeys++] = key;
	}
	return true;
}

bool logcheck_metric_line(const char *line, size_t n, char *err, size_t errsz)
{
	struct slice name;

	if (errsz)
		err[0] = '\0';
	return lc_metric_check(slice_of(line, n), &name, err, errsz);
}

/* --------------------------------------------------------- line kinds --- */

/* `ok N name`, `ok N name # SKIP reason`, `not ok N name[ # reason]`.
 * Returns false (with why) when the line cannot be counted at all. */
bool lc_parse_result(struct slice c, struct result *res, const char **why)
{
	memset(res, 0, sizeof(*res));
	if (lc_eat(&c, "not ok"))
		res->notok = true;
	else if (!lc_eat(&c, "ok"))
		return false;
	if (!lc_eat(&c, " ")) {
		*why = "expected a space and a number after 'ok'/'not ok'";
		return false;
	}
	if (!lc_parse_dec(lc_take_word(&c), &res->num) || res->num == 0) {
		*why = "result number is not a decimal number >= 1";
		return false;
	}
	if (!lc_eat(&c, " ") || c.n == 0) {
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
	struct slice d = lc_drop(c, cut + 2);      /* after " #" */

	lc_eat(&d, " ");
	res->reason = d;
	struct slice word = lc_take_word(&d);
	bool is_skip = slice_eq(word, "SKIP");
	bool is_timeout = slice_eq(word, "TIMEOUT");
	bool is_panic = slice_eq(word, "PANIC");

	/* For a directive, the reason is the text after its word. */
	if (is_skip || is_timeout || is_panic) {
		lc_eat(&d, " ");
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

static bool word_then_space_or_end(struct slice c, const char *w)
{
	size_t n = strlen(w);

	return lc_has_prefix(c, w) && (c.n == n || c.p[n] == ' ');
}

enum kind lc_classify(struct slice c)
{
	if (slice_eq(c, "KTAP version 1"))
		return K_KTAP;
	if (lc_has_prefix(c, "1.."))
		return K_PLAN;
	if (word_then_space_or_end(c, "ok") || word_then_space_or_end(c, "not ok"))
		return K_RESULT;
	if (lc_has_prefix(c, "# Subtest:"))
		return K_SUBTEST;
	if (word_then_space_or_end(c, "# metric"))
		return K_METRIC;
	if (word_then_space_or_end(c, "# hist"))
		return K_HIST;
	if (lc_has_prefix(c, "# exit:"))
		return K_EXIT;
	if (lc_has_prefix(c, "# integrity:"))
		return K_INTEGRITY;
	if (lc_has_prefix(c, "#"))
		return K_DIAG;
	if (lc_has_prefix(c, "ringlab: PANIC:"))
		return K_PANIC;
	if (lc_has_prefix(c, "ringlab:"))
		return K_SUMMARY;
	return K_UNKNOWN;
}
