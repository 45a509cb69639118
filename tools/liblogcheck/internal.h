/* SPDX-License-Identifier: GPL-2.0-only */
/* Internal to the log checker: what the tools/liblogcheck/ files share (the
 * parser's state, its line kinds, the functions one part calls in another).
 * The public interface is tools/liblogcheck/liblogcheck.h; nothing else includes this
 * file.  The shared functions carry the prefix lc_ so that, now linked
 * across files, they stay clear of libc's names (err, quote...) and of the
 * programs that link the parser. */
#ifndef RINGLAB_TOOLS_LOGCHECK_INTERNAL_H
#define RINGLAB_TOOLS_LOGCHECK_INTERNAL_H

#include "tools/liblogcheck/liblogcheck.h"

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

struct result {
	bool notok, skip, timeout, panic;
	struct slice reason;    /* after " # " (after SKIP/TIMEOUT/PANIC if any) */
	uint64_t num;
	struct slice name;
	const char *problem;    /* well-formed but not allowed; still counted */
};

enum kind {
	K_KTAP, K_PLAN, K_RESULT, K_SUBTEST, K_METRIC, K_HIST, K_EXIT,
	K_INTEGRITY, K_DIAG, K_PANIC, K_SUMMARY, K_UNKNOWN,
};

#define Q(name) char name[QUOTE_MAX + 4]
#define QS(buf, s) lc_quote(buf, sizeof(buf), s)

/* logcheck_lib.c */
bool lc_has_prefix(struct slice s, const char *pfx);
struct slice lc_drop(struct slice s, size_t k);
bool lc_slices_equal(struct slice a, struct slice b);
bool lc_parse_dec(struct slice s, uint64_t *v);
struct slice lc_take_word(struct slice *s);
bool lc_eat(struct slice *s, const char *lit);
const char *lc_quote(char *buf, size_t size, struct slice s);
__attribute__((format(printf, 3, 4)))
void lc_err(struct state *st, size_t line, const char *fmt, ...);

/* logcheck_lib_grammar.c */
size_t lc_nameset_add(struct nameset *ns, struct slice name, size_t line);
size_t lc_nameset_find(const struct nameset *ns, struct slice name);
void lc_nameset_free(struct nameset *ns);
__attribute__((format(printf, 3, 4)))
bool lc_fail(char *e, size_t esz, const char *fmt, ...);
bool lc_check_name(struct slice name, char *e, size_t esz);
bool lc_metric_check(struct slice l, struct slice *name, char *e, size_t esz);
bool lc_parse_result(struct slice c, struct result *res, const char **why);
enum kind lc_classify(struct slice c);

/* logcheck_lib_structure.c */
void lc_check_plan(struct state *st, const struct node *n, size_t depth,
		   size_t line, bool partial);
void lc_abandon(struct state *st, size_t line, const char *why);
struct slice lc_open_suite(const struct state *st);
void lc_emit(struct state *st, struct logcheck_event *ev);
void lc_on_result(struct state *st, size_t line, size_t level, struct slice c);
void lc_on_plan(struct state *st, size_t line, size_t level, struct slice c);
void lc_on_ktap(struct state *st, size_t line, size_t level);
void lc_on_subtest(struct state *st, size_t line, size_t level, struct slice c);
void lc_on_metric(struct state *st, size_t line, size_t level, struct slice c,
		  bool hist);
void lc_on_flat_result(struct state *st, size_t line, struct slice c);
void lc_on_time(struct state *st, size_t line, size_t level, struct slice c,
		struct logcheck_event *ev);
void lc_on_summary(struct state *st, size_t line, size_t level, struct slice c);
void lc_on_exit_line(struct state *st, size_t line, size_t level, struct slice c);

/* logcheck_lib_answers.c */
void lc_on_answers_header(struct state *st, size_t line, size_t level, struct slice c,
			  struct logcheck_event *ev);
void lc_on_answer(struct state *st, size_t line, size_t level, struct slice c,
		  struct logcheck_event *ev);
void lc_check_answers(struct state *st);

/* logcheck_lib_verdict.c */
void lc_check_integrity(struct state *st, size_t line, struct slice l,
			size_t start);
void lc_finish(struct state *st, size_t last_line);
void lc_check_opts(struct state *st);

#endif
