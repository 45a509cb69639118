/* SPDX-License-Identifier: GPL-2.0-only */
/* The answers block; see kernel/test.h and docs/log-format.md "Answers".
 * Shared by the kernel and the hosted runner. */
#include <stdarg.h>
#include "kernel/test.h"
#include "kernel/report.h"
#include "lib/printf.h"
#include "lib/string.h"

#define ANSWER_TEXT	900
#define ANSWER_FROM	400

static const struct {
	const char *key;
	const char *suites;	/* who answers it, for "not measured" */
	bool timing;		/* a timing answer: off bare metal, say so */
} questions[] = {
	{ ANSWER_WRMSR_FENCE, "wrmsr_order, litmus", false },
	{ ANSWER_RDTSC_ORDER, "tsc_order, rdtsc", false },
	{ ANSWER_NT_CLEAR, "clear", true },
	{ ANSWER_TLB_FLUSH, "tlb.cost", true },
	{ ANSWER_TLB_SHOOTDOWN, "tlb.shootdown, tlb.invlpgb", true },
	{ ANSWER_IPI_COST, "ipi", true },
	{ ANSWER_TSCDEADLINE, "tscdeadline", true },
	{ ANSWER_SPEC_COST, "spec", true },
	{ ANSWER_LITMUS, "litmus", false },
	{ ANSWER_FENCE_COST, "fence", true },
};
#define NQ (sizeof(questions) / sizeof(questions[0]))

static struct {
	char text[ANSWER_TEXT];
	char from[ANSWER_FROM];
	struct claim_tally controls;	/* each claim's control */
	bool set;
	bool cut;		/* a later sentence or metric did not fit */
} answers[NQ];

static bool listing;

void answers_listing(void)
{
	listing = true;
}

/* Whether the comma-separated list names suite, alone or as suite.case. */
static bool names_suite(const char *list, const char *suite)
{
	size_t n = strlen(suite);

	for (const char *p = list; *p;) {
		while (*p == ' ' || *p == ',')
			p++;
		size_t len = 0;

		while (p[len] && p[len] != ',')
			len++;
		if (len >= n && !strncmp(p, suite, n) && (len == n || p[n] == '.'))
			return true;
		p += len;
	}
	return false;
}

int answers_keys(const char *suite, char *buf, size_t size)
{
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	for (unsigned i = 0; i < NQ && len < size; i++)
		if (names_suite(questions[i].suites, suite))
			len += (size_t)rl_snprintf(buf + len, size - len, "%s%s", len ? "," : "",
						   questions[i].key);
	if (!len)
		return rl_snprintf(buf, size, "-");
	return (int)len;
}

static int find(const char *key)
{
	for (unsigned i = 0; i < NQ; i++)
		if (!strcmp(questions[i].key, key))
			return (int)i;
	return -1;
}

/* Append src to dst (size n) after sep when dst is not empty; whole or
 * not at all (a metric name cut short would name no metric).  False when
 * it did not fit. */
static bool append(char *dst, size_t n, const char *sep, const char *src)
{
	size_t len = strlen(dst), add = (len ? strlen(sep) : 0) + strlen(src);

	if (len + add + 1 > n)
		return false;
	rl_snprintf(dst + len, n - len, "%s%s", len ? sep : "", src);
	return true;
}

static void answer_add(struct test_ctx *t, const char *key, const char *from, const char *control,
		       enum t_control state, const char *text)
{
	int q = find(key);

	if (q < 0) {
		t_diag(t, "error: t_answer: unknown question '%s'", key);
		return;
	}
	if (!append(answers[q].text, sizeof(answers[q].text), " ", text))
		answers[q].cut = true;
	if (from && from[0] && !append(answers[q].from, sizeof(answers[q].from), ",", from))
		answers[q].cut = true;
	claim_tally_add(&answers[q].controls, control, state);
	answers[q].set = true;
}

void t_answer(struct test_ctx *t, const char *key, const char *from, enum t_control control,
	      const char *fmt, ...)
{
	char buf[ANSWER_TEXT];
	va_list ap;

	va_start(ap, fmt);
	rl_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	answer_add(t, key, from, t->full_name, control, buf);
}

void t_answer_claim(struct test_ctx *t, const char *key, const char *from, const struct claim *c,
		    const char *fmt, ...)
{
	char buf[ANSWER_TEXT], words[240];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = rl_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	claim_words(c, words, sizeof(words));
	if (len >= 0 && (size_t)len < sizeof(buf))
		rl_snprintf(buf + len, sizeof(buf) - (size_t)len, ": %s;", words);
	answer_add(t, key, from, c->control, c->control ? c->state : T_CONTROL_NONE, buf);
}

void answers_print(void)
{
	const char *env = plat_env(), *note = plat_env_note();

	if (listing)
		return;
	rep_diag("answers: env=%s", env);
	for (unsigned i = 0; i < NQ; i++) {
		if (!answers[i].set) {
			rep_diag("answer %s: not measured: %s did not run or could not measure (from=none; control=none; env=%s)",
				 questions[i].key, questions[i].suites, env);
			continue;
		}
		/* the tail is never cut: the text gives way to fit the line */
		char tail[REP_LINE_MAX], lacking[200] = "";
		const struct claim_tally *ct = &answers[i].controls;
		int room;

		/* which claims' controls did not fire, so control= never
		 * speaks for a claim whose own control did not */
		if (ct->fired < ct->claims)
			rl_snprintf(lacking, sizeof(lacking), " [controls not fired: %s%s]", ct->missing,
				    ct->missing_cut ? ",..." : "");
		rl_snprintf(tail, sizeof(tail), "%s%s%s (from=%s; control=%s; env=%s)", lacking,
			    questions[i].timing && note[0] ? " " : "",
			    questions[i].timing && note[0] ? note : "",
			    answers[i].from[0] ? answers[i].from : "none",
			    claim_tally_summary(ct), env);
		room = REP_LINE_MAX - 24 - (int)strlen(questions[i].key) - (int)strlen(tail);
		if (room < 40)
			room = 40;
		if ((int)strlen(answers[i].text) > room || answers[i].cut)
			rep_diag("answer %s: %.*s [...]%s", questions[i].key, room - 6, answers[i].text,
				 tail);
		else
			rep_diag("answer %s: %s%s", questions[i].key, answers[i].text, tail);
	}
}
