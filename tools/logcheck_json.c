/* SPDX-License-Identifier: GPL-2.0-only */
/* `logcheck --json`: the checker's verdict and its event stream (every line
 * of the judged run as the checker classified and split it) as one JSON
 * document, so that tools/ringlab-report needs no parser of its own.
 * Schema: docs/log-format.md, "Machine-readable form". */
#include "tools/logcheck_json.h"

#include <string.h>

/* JSON string from arbitrary bytes: control characters, quotes and
 * backslashes escaped, bytes >= 0x7f as \u00XX (read as Latin-1), so the
 * output is valid JSON whatever the serial line delivered. */
static void jstr(FILE *f, const char *p, size_t n)
{
	fputc('"', f);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void jslice(FILE *f, struct slice s)
{
	jstr(f, s.p, s.n);
}

static void jcstr(FILE *f, const char *s)
{
	jstr(f, s, strlen(s));
}

/* " k=v k=v" (grammar already checked) as {"k": "v", ...}. */
static void jfields(FILE *f, struct slice s)
{
	struct slice rest = s, tok, key, value;
	bool first = true;

	fputc('{', f);
	while (slice_next(&rest, " ", &tok)) {
		if (!slice_split(tok, '=', &key, &value))
			continue;
		fprintf(f, "%s", first ? "" : ", ");
		jslice(f, key);
		fputs(": ", f);
		jslice(f, value);
		first = false;
	}
	fputc('}', f);
}

static const char *const kind_names[] = {
	[LC_EV_ID] = "id", [LC_EV_DIAG] = "diag", [LC_EV_ERROR] = "error",
	[LC_EV_WARNING] = "warning", [LC_EV_METRIC] = "metric", [LC_EV_HIST] = "hist",
	[LC_EV_SUITE] = "suite", [LC_EV_RESULT] = "result", [LC_EV_PANIC] = "panic",
	[LC_EV_SUMMARY] = "summary", [LC_EV_EXIT] = "exit", [LC_EV_ANSWERS] = "answers",
	[LC_EV_ANSWER] = "answer", [LC_EV_TIME] = "time", [LC_EV_OTHER] = "other",
};

/* Nanoseconds as a JSON number of milliseconds: 12.345, 0.5 -> 0.500. */
static void jms(FILE *f, uint64_t ns)
{
	char frac[8];
	int n;

	snprintf(frac, sizeof(frac), "%06llu", (unsigned long long)(ns % 1000000u));
	for (n = 6; n > 3 && frac[n - 1] == '0'; n--)
		;
	fprintf(f, "%llu.%.*s", (unsigned long long)(ns / 1000000u), n, frac);
}

/* A from= list as a JSON array of metric names (`none` is []). */
static void jfrom(FILE *f, struct slice s)
{
	struct slice rest = s, name;
	bool first = true;

	fputc('[', f);
	while (!slice_eq(s, "none") && slice_next(&rest, ",", &name)) {
		fputs(first ? "" : ", ", f);
		jslice(f, name);
		first = false;
	}
	fputc(']', f);
}

/* A diagnostic that states a conclusion ends with the environment it was
 * drawn in, "... (env=<token>)" or "... (env=<token>; <note>)"
 * (docs/log-format.md, "Conclusions and the environment"): such a line
 * gets "env": <token>, so that a reader can tell conclusions from other
 * diagnostics without parsing the text itself. */
static void jconclusion_env(FILE *f, struct slice v)
{
	static const char tag[] = " (env=";
	const size_t tn = sizeof(tag) - 1;
	size_t at = v.n, end;

	if (v.n < tn + 2 || v.p[v.n - 1] != ')')
		return;
	for (size_t i = v.n - tn; i-- > 0;) {	/* the last " (env=" */
		if (!memcmp(v.p + i, tag, tn)) {
			at = i + tn;
			break;
		}
	}
	if (at == v.n)
		return;
	for (end = at; end < v.n - 1 && v.p[end] != ';' && v.p[end] != ' ' && v.p[end] != ')'; end++)
		;
	if (end == at || (v.p[end] != ';' && end != v.n - 1))
		return;
	fputs(", \"env\": ", f);
	jstr(f, v.p + at, end - at);
}

/* The first answer per key, for the "answers" object after the events:
 * the slices point into the text logcheck_json() was given, which lives
 * until it returns. */
#define JMAX_ANSWERS 32
struct janswer {
	struct slice key, text, from, control, env;
	size_t line;
};

struct jctx {
	FILE *f;
	size_t n;
	/* A result event waits for the next event: when that is the
	 * `# time:` line of the result, the result carries its duration_ms. */
	bool pending;
	struct logcheck_event pend;
	bool has_answers;
	struct slice answers_env;
	struct janswer ans[JMAX_ANSWERS];
	size_t nans;
};

static void keep_answer(struct jctx *j, const struct logcheck_event *ev)
{
	for (size_t i = 0; i < j->nans; i++)
		if (ev->key.n == j->ans[i].key.n && !memcmp(ev->key.p, j->ans[i].key.p, ev->key.n))
			return;
	if (j->nans < JMAX_ANSWERS)
		j->ans[j->nans++] = (struct janswer){ ev->key, ev->value, ev->from, ev->control,
						      ev->env, ev->line };
}

/* dur: the result's duration in ns, NULL when it has no `# time:` line. */
static void print_event(struct jctx *j, const struct logcheck_event *ev, const uint64_t *dur)
{
	FILE *f = j->f;

	fprintf(f, "%s\n  {\"k\": \"%s\", \"line\": %zu, \"level\": %zu, \"suite\": ",
		j->n++ ? "," : "", kind_names[ev->kind], ev->line, ev->level);
	jslice(f, ev->suite);
	switch (ev->kind) {
	case LC_EV_ID:
	case LC_EV_ERROR:
	case LC_EV_WARNING:
		fputs(", \"key\": ", f);
		jslice(f, ev->key);
		fputs(", \"value\": ", f);
		jslice(f, ev->value);
		break;
	case LC_EV_METRIC:
	case LC_EV_HIST:
		fputs(", \"name\": ", f);
		jslice(f, ev->name);
		fprintf(f, ", \"ok\": %s, \"fields\": ", ev->ok ? "true" : "false");
		jfields(f, ev->fields);
		break;
	case LC_EV_SUITE:
		fputs(", \"name\": ", f);
		jslice(f, ev->name);
		break;
	case LC_EV_RESULT:
		fputs(", \"name\": ", f);
		jslice(f, ev->name);
		fprintf(f, ", \"num\": %llu, \"result\": \"%s\", \"reason\": ",
			(unsigned long long)ev->num,
			ev->panic ? "panic" : ev->timeout ? "timeout" : ev->notok ? "fail" :
			ev->skip ? "skip" : "pass");
		jslice(f, ev->value);
		if (dur) {
			fputs(", \"duration_ms\": ", f);
			jms(f, *dur);
		}
		break;
	case LC_EV_TIME:
		fputs(", \"name\": ", f);
		jslice(f, ev->name);
		fputs(", \"duration_ms\": ", f);
		jms(f, ev->duration_ns);
		fprintf(f, ", \"of\": %llu", (unsigned long long)ev->num);
		break;
	case LC_EV_DIAG:
		fputs(", \"value\": ", f);
		jslice(f, ev->value);
		jconclusion_env(f, ev->value);
		break;
	case LC_EV_PANIC:
		fputs(", \"value\": ", f);
		jslice(f, ev->value);
		break;
	case LC_EV_ANSWERS:
		if (!j->has_answers) {
			j->has_answers = true;
			j->answers_env = ev->env;
		}
		fputs(", \"env\": ", f);
		jslice(f, ev->env);
		break;
	case LC_EV_ANSWER:
		keep_answer(j, ev);
		fputs(", \"key\": ", f);
		jslice(f, ev->key);
		fputs(", \"value\": ", f);
		jslice(f, ev->value);
		fputs(", \"from\": ", f);
		jfrom(f, ev->from);
		fputs(", \"control\": ", f);
		jslice(f, ev->control);
		fputs(", \"env\": ", f);
		jslice(f, ev->env);
		break;
	default:
		break;
	}
	fputs(", \"text\": ", f);
	jslice(f, ev->text);
	fputc('}', f);
}

static void flush_pending(struct jctx *j, const uint64_t *dur)
{
	if (j->pending)
		print_event(j, &j->pend, dur);
	j->pending = false;
}

static void on_event(const struct logcheck_event *ev, void *arg)
{
	struct jctx *j = arg;

	if (ev->kind == LC_EV_OTHER)
		return;         /* plans and KTAP lines: the structure says it all */
	if (ev->kind == LC_EV_TIME && j->pending && ev->num == j->pend.line)
		flush_pending(j, &ev->duration_ns);
	else
		flush_pending(j, NULL);
	if (ev->kind == LC_EV_RESULT) {
		/* the slices point into the text, alive until logcheck_json() returns */
		j->pend = *ev;
		j->pending = true;
		return;
	}
	print_event(j, ev, NULL);
}

int logcheck_json(FILE *f, const char *text, size_t len, struct logcheck_opts *o,
		  struct logcheck_result *r)
{
	struct jctx j = { .f = f };

	o->on_event = on_event;
	o->event_arg = &j;
	fputs("{\"format\": \"ringlab-logcheck-json 1\",\n \"events\": [", f);
	int bad = logcheck_buffer_opts(text, len, o, r);

	flush_pending(&j, NULL);
	size_t shown = r->nerrors < LOGCHECK_MAX_ERRORS ? r->nerrors : LOGCHECK_MAX_ERRORS;

	fprintf(f, "],\n \"ok\": %s, \"nerrors\": %zu, \"errors\": [", bad ? "false" : "true",
		r->nerrors);
	for (size_t i = 0; i < shown; i++) {
		fputs(i ? ", " : "", f);
		jcstr(f, r->errors[i]);
	}
	fprintf(f, "],\n \"runs\": %zu, \"run\": %zu, \"complete_runs\": %zu, "
		"\"start_line\": %zu, \"end_line\": %zu,\n",
		r->runs, r->judged, r->complete_runs, r->start_line, r->start_line ? r->end_line : 0);
	/* Every run's verdict (the first LOGCHECK_MAX_RUNS), the notes about
	 * the file, and whether every run passed (what --all-runs asks). */
	fputs(" \"run_verdicts\": [", f);
	for (size_t i = 0; i < r->runs && i < LOGCHECK_MAX_RUNS; i++) {
		const struct logcheck_run *x = &r->run[i];

		fprintf(f, "%s{\"run\": %zu, \"start_line\": %zu, \"end_line\": %zu, \"complete\": %s, "
			"\"verdict\": ", i ? ", " : "", i + 1, x->start_line, x->end_line,
			x->complete ? "true" : "false");
		jcstr(f, x->verdict);
		fputc('}', f);
	}
	fprintf(f, "],\n \"others_not_passed\": %zu, \"trailing_lines\": %zu, \"notes\": [",
		r->others_not_passed, r->trailing_lines);
	for (size_t i = 0; i < r->nnotes; i++) {
		fprintf(f, "%s{\"level\": \"%s\", \"text\": ", i ? ", " : "",
			r->notes[i].warning ? "warning" : "note");
		jcstr(f, r->notes[i].text);
		fputc('}', f);
	}
	fputs("],\n", f);
	fprintf(f, " \"counts\": {\"suites\": %zu, \"cases\": %zu, \"passed\": %zu, \"failed\": %zu, "
		"\"skipped\": %zu, \"timeouts\": %zu, \"metrics\": %zu, \"hists\": %zu, "
		"\"config_failed\": %zu, \"panic_results\": %zu, \"times\": %zu},\n",
		r->suites, r->cases, r->passed, r->failed, r->skipped, r->timeouts, r->metrics,
		r->hists, r->config_failed, r->panic_results, r->times);
	if (r->has_summary)
		fprintf(f, " \"summary\": {\"passed\": %llu, \"failed\": %llu, \"skipped\": %llu},\n",
			(unsigned long long)r->sum_passed, (unsigned long long)r->sum_failed,
			(unsigned long long)r->sum_skipped);
	else
		fputs(" \"summary\": null,\n", f);
	fputs(" \"status\": ", f);
	if (r->has_exit) {
		jcstr(f, r->status);
		fprintf(f, ", \"code\": %llu", (unsigned long long)r->code);
	} else {
		fputs("null, \"code\": null", f);
	}
	fprintf(f, ", \"panic\": %s,\n", r->panic ? "true" : "false");
	/* The verdict every tool's exit status follows (an all-skipped run is
	 * "skip"), and that status: tools/liblogcheck/verdict.c. */
	fprintf(f, " \"verdict\": \"%s\", \"exit_code\": %d,\n", logcheck_verdict(r),
		logcheck_exit_code(r));
	/* The answers block: key -> its first answer; null when the log has
	 * no `# answers:` line. */
	if (!j.has_answers) {
		fputs(" \"answers_env\": null, \"answers\": null,\n", f);
	} else {
		fputs(" \"answers_env\": ", f);
		jslice(f, j.answers_env);
		fputs(", \"answers\": {", f);
		for (size_t i = 0; i < j.nans; i++) {
			const struct janswer *a = &j.ans[i];

			fputs(i ? ",\n  " : "\n  ", f);
			jslice(f, a->key);
			fputs(": {\"text\": ", f);
			jslice(f, a->text);
			fputs(", \"from\": ", f);
			jfrom(f, a->from);
			fputs(", \"control\": ", f);
			jslice(f, a->control);
			fputs(", \"env\": ", f);
			jslice(f, a->env);
			fprintf(f, ", \"line\": %zu}", a->line);
		}
		fputs("},\n", f);
	}
	fprintf(f, " \"integrity\": {\"present\": %s, \"ok\": %s, \"lines\": %zu, \"crc32\": \"%08x\"}\n}\n",
		r->has_integrity ? "true" : "false", r->integrity_ok ? "true" : "false",
		r->lines_computed, (unsigned)r->crc_computed);
	return bad;
}
