/* SPDX-License-Identifier: GPL-2.0-only */
/* The log checker's answers block (docs/log-format.md "Answers"; see
 * tools/liblogcheck/liblogcheck.c for the whole): its header, one line per question,
 * and at the end each answer's from= list against the run's metrics. */
#include "tools/liblogcheck/internal.h"

#include "lib/parse.h"
#include "lib/string.h"

/* ------------------------------------------------------------ answers --- */

/* The answers block (docs/log-format.md "Answers") sits at column 0 after
 * the last suite and before the summary line. */
static void answer_place(struct state *st, size_t line, size_t level, const char *what)
{
	if (level != 0 || st->depth != 0)
		lc_err(st, line, "%s inside a suite; the answers block comes after the last suite, at column 0",
		       what);
	else if (st->summary_line)
		lc_err(st, line, "%s after the summary line (line %zu); the answers block comes before it",
		       what, st->summary_line);
}

/* `# answers: env=<environment>` */
void lc_on_answers_header(struct state *st, size_t line, size_t level, struct slice c,
			  struct logcheck_event *ev)
{
	struct slice s = lc_drop(c, strlen("# answers:")), env;
	Q(q);

	if (!lc_eat(&s, " env=") || (env = lc_take_word(&s)).n == 0 || s.n) {
		lc_err(st, line, "malformed answers line '%s' (expected '# answers: env=<environment>')",
		       QS(q, c));
		return;
	}
	if (st->answers_line) {
		lc_err(st, line, "second '# answers:' line (first at line %zu)", st->answers_line);
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

	*s = lc_drop(*s, i);
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
		bool last = !lc_eat(&rest, ",");

		if (!lc_check_name(name, e, esz))
			return lc_fail(e, esz, "from= element '%s' is not a metric name", QS(q, name));
		if (!last && !rest.n)
			return lc_fail(e, esz, "from= ends with ','");
	}
	return from.n ? true : lc_fail(e, esz, "empty from= (say from=none)");
}

/* `# answer <key>: <text> (from=<list>; control=<word>; env=<environment>)`:
 * the parenthesis is the last " (from=" of the line, so the text may hold
 * parentheses of its own. */
void lc_on_answer(struct state *st, size_t line, size_t level, struct slice c,
		  struct logcheck_event *ev)
{
	static const char tail[] = " (from=";
	const size_t tl = sizeof(tail) - 1;
	struct slice rest = lc_drop(c, strlen("# answer ")), key, text, inner, from, control, env;
	size_t cut = SIZE_MAX;
	char e[LOGCHECK_ERR_LEN - 60];
	Q(q);
	Q(q2);
	Q(k);

	key = take_until(&rest, ':');
	if (!lc_eat(&rest, ": ") || key.n == 0) {
		lc_err(st, line, "malformed answer line '%s' (expected '# answer <key>: <text> (from=...; control=...; env=...)')",
		       QS(q, c));
		return;
	}
	for (size_t i = 0; i + tl <= rest.n; i++)
		if (memcmp(rest.p + i, tail, tl) == 0)
			cut = i;
	if (cut == SIZE_MAX || rest.p[rest.n - 1] != ')') {
		lc_err(st, line, "answer '%s' does not end with ' (from=<metrics>; control=<word>; env=<environment>)' (line cut short?)",
		       QS(k, key));
		return;
	}
	text = slice_of(rest.p, cut);
	inner = slice_of(rest.p + cut + tl, rest.n - cut - tl - 1);
	from = take_until(&inner, ';');
	if (!lc_eat(&inner, "; control=")) {
		lc_err(st, line, "answer '%s': no '; control=' after from=", QS(k, key));
		return;
	}
	control = take_until(&inner, ';');
	if (!lc_eat(&inner, "; env=")) {
		lc_err(st, line, "answer '%s': no '; env=' after control=", QS(k, key));
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
		lc_err(st, line, "answer line before the '# answers:' line");
	int qi = answer_index(key);

	if (qi < 0) {
		lc_err(st, line, "unknown answer key '%s'", QS(k, key));
	} else if (st->answer_line[qi]) {
		lc_err(st, line, "answer key '%s' repeats (first at line %zu)", QS(k, key),
		       st->answer_line[qi]);
	} else {
		st->answer_line[qi] = line;
		st->answer_from[qi] = from;
	}
	if (text.n == 0)
		lc_err(st, line, "answer '%s' has no text", QS(k, key));
	if (!from_list_ok(from, e, sizeof(e)))
		lc_err(st, line, "answer '%s': %s", QS(k, key), e);
	/* partial: some claims' controls fired, others did not (the text
	 * names them: "[controls not fired: ...]") */
	if (!slice_eq(control, "fired") && !slice_eq(control, "partial") &&
	    !slice_eq(control, "not-observed") && !slice_eq(control, "none"))
		lc_err(st, line, "answer '%s': control='%s', expected fired, partial, not-observed or none",
		       QS(k, key), QS(q, control));
	if (env.n == 0 || memchr(env.p, ' ', env.n))
		lc_err(st, line, "answer '%s': env= must be one token", QS(k, key));
	else if (st->answers_line && !lc_slices_equal(env, st->answers_env))
		lc_err(st, line, "answer '%s': env=%s but the '# answers:' line says env=%s",
		       QS(k, key), QS(q, env), QS(q2, st->answers_env));
	if (lc_has_prefix(text, "not measured:") &&
	    (!slice_eq(from, "none") || !slice_eq(control, "none")))
		lc_err(st, line, "answer '%s' is 'not measured' but has from= or control= other than none",
		       QS(k, key));
}

/* At the end: every question answered once (when the run reached its
 * summary), the environment agrees with `# id.env:`, every from= name is a
 * metric of the run. */
void lc_check_answers(struct state *st)
{
	const struct logcheck_opts *o = st->o;
	Q(q);
	Q(q2);

	if (!st->answers_line) {
		if (o && o->require_answers)
			lc_err(st, 0, "no answers block ('# answers: env=...' line before the summary); required by --require-answers");
		return;
	}
	if (st->r->has_summary)
		for (int i = 0; i < LOGCHECK_NANSWERS; i++)
			if (!st->answer_line[i])
				lc_err(st, st->answers_line, "answers block has no '# answer %s:' line",
				       logcheck_answer_keys[i]);
	if (!st->id_env_line)
		lc_err(st, st->answers_line, "answers block but no '# id.env:' line to match its env=");
	else if (!lc_slices_equal(st->answers_env, st->id_env))
		lc_err(st, st->answers_line, "answers env=%s differs from '# id.env: %s' (line %zu)",
		       QS(q, st->answers_env), QS(q2, st->id_env), st->id_env_line);
	if (st->metric_names.oom)
		return;
	for (int i = 0; i < LOGCHECK_NANSWERS; i++) {
		struct slice rest = st->answer_from[i], name;

		if (!st->answer_line[i] || slice_eq(rest, "none"))
			continue;
		while (rest.n) {
			name = take_until(&rest, ',');
			lc_eat(&rest, ",");
			if (name.n && !lc_nameset_find(&st->metric_names, name))
				lc_err(st, st->answer_line[i],
				       "answer '%s': from= names '%s', which is not a metric of this run",
				       logcheck_answer_keys[i], QS(q, name));
		}
	}
}
