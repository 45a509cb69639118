/* SPDX-License-Identifier: GPL-2.0-only */
/* Log checker unit tests: the answers block. */
#include "tests/host/test_logcheck/logcheck_test.h"

static int check_lines_opts_for_answers(const struct logcheck_opts *o)
{
	struct logbuf b;

	lb_init(&b, "\n");
	lb_lines(&b, GOOD_LOG);
	lb_seal(&b);
	int rc = check_opts(&b, o);

	lb_free(&b);
	return rc;
}

/* ------------------------------------------------------------ answers --- */

/* A valid log with an answers block: one measured answer whose from=
 * names the run's metric, nine "not measured". */
static const char *const ANSWERS_LOG[] = {
	"KTAP version 1",
	"# id.version: test",
	"# id.env: bare-metal",
	"1..1",
	"    KTAP version 1",
	"    # Subtest: alpha",
	"    1..1",
	"    # metric alpha.one.lat n=1 min=1 p50=1 p90=1 p99=1 max=1 mean=1 stddev=0 unit=ns",
	"    # metric alpha.one.stale value=0 unit=count",
	"    ok 1 one",
	"ok 1 alpha",
	"# answers: env=bare-metal",
	"# answer wrmsr_fence: no stale read (a control (late store) fired) in 2000 tries. (from=alpha.one.lat,alpha.one.stale; control=fired; env=bare-metal)",
	"# answer rdtsc_order: not measured: tsc_order did not run (from=none; control=none; env=bare-metal)",
	"# answer nt_clear: not measured: clear did not run (from=none; control=none; env=bare-metal)",
	"# answer tlb_flush: not measured: tlb did not run (from=none; control=none; env=bare-metal)",
	"# answer tlb_shootdown: not measured: tlb did not run (from=none; control=none; env=bare-metal)",
	"# answer ipi_cost: not measured: ipi did not run (from=none; control=none; env=bare-metal)",
	"# answer tscdeadline: not measured: tscdeadline did not run (from=none; control=none; env=bare-metal)",
	"# answer spec_cost: not measured: spec did not run (from=none; control=none; env=bare-metal)",
	"# answer litmus: 1.2 cycles (from=alpha.one.lat; control=not-observed; env=bare-metal)",
	"# answer fence_cost: not measured: fence did not run (from=none; control=none; env=bare-metal)",
	"ringlab: 1 passed, 0 failed, 0 skipped",
	"# exit: status=pass code=0",
	NULL,
};

/* ANSWERS_LOG with the line `from` replaced by `to` (NULL: dropped) and
 * `extra` (if any) inserted before the line `before`; sealed, so only the
 * planted fault is wrong.  Checked with opts o (may be NULL). */
static int check_answers_edit(const char *from, const char *to, const char *before,
			      const char *extra, const struct logcheck_opts *o)
{
	struct logbuf b;

	lb_init(&b, "\r\n");
	for (const char *const *l = ANSWERS_LOG; *l; l++) {
		if (before && extra && strcmp(*l, before) == 0)
			lb_line(&b, extra);
		if (from && strcmp(*l, from) == 0) {
			if (to)
				lb_line(&b, to);
			continue;
		}
		lb_line(&b, *l);
	}
	lb_seal(&b);
	int rc = check_opts(&b, o);

	lb_free(&b);
	return rc;
}

#define A_LITMUS "# answer litmus: 1.2 cycles (from=alpha.one.lat; control=not-observed; env=bare-metal)"
#define A_FENCE "# answer fence_cost: not measured: fence did not run (from=none; control=none; env=bare-metal)"
#define A_SUMMARY "ringlab: 1 passed, 0 failed, 0 skipped"

struct answer_events {
	int answers, answer;
	char key[32], text[96], from[64], control[16], env[32];
};

static void collect_answers(const struct logcheck_event *ev, void *arg)
{
	struct answer_events *a = arg;

	if (ev->kind == LC_EV_ANSWERS)
		a->answers++;
	if (ev->kind == LC_EV_ANSWER && a->answer++ == 0) {
		rl_snprintf(a->key, sizeof(a->key), "%.*s", (int)ev->key.n, ev->key.p);
		rl_snprintf(a->text, sizeof(a->text), "%.*s", (int)ev->value.n, ev->value.p);
		rl_snprintf(a->from, sizeof(a->from), "%.*s", (int)ev->from.n, ev->from.p);
		rl_snprintf(a->control, sizeof(a->control), "%.*s", (int)ev->control.n,
			    ev->control.p);
		rl_snprintf(a->env, sizeof(a->env), "%.*s", (int)ev->env.n, ev->env.p);
	}
}

void test_answers_good(void **state)
{
	(void)state;
	struct answer_events a;
	struct logcheck_opts o = { .qemu_exit = -1, .min_cases = -1, .on_event = collect_answers,
				   .event_arg = &a, .require_answers = true };

	memset(&a, 0, sizeof(a));
	assert_valid(check_answers_edit(NULL, NULL, NULL, NULL, &o));
	assert_true(R.has_answers);
	assert_int_equal(R.answers, LOGCHECK_NANSWERS);
	assert_int_equal(a.answers, 1);
	assert_int_equal(a.answer, LOGCHECK_NANSWERS);
	assert_string_equal(a.key, "wrmsr_fence");
	/* the text keeps its own parentheses: the tail is the last " (from=" */
	assert_string_equal(a.text, "no stale read (a control (late store) fired) in 2000 tries.");
	assert_string_equal(a.from, "alpha.one.lat,alpha.one.stale");
	assert_string_equal(a.control, "fired");
	assert_string_equal(a.env, "bare-metal");
}

void test_answers_absent(void **state)
{
	(void)state;
	struct logcheck_opts o = { .qemu_exit = -1, .min_cases = -1, .require_answers = true };

	/* old logs have no block: valid, unless the caller requires it */
	assert_valid(check_lines(GOOD_LOG));
	assert_false(R.has_answers);
	assert_int_not_equal(check_lines_opts_for_answers(&o), 0);
	assert_error("no answers block");
	assert_nerrors(1);
}

void test_answers_missing_and_duplicate_key(void **state)
{
	(void)state;
	assert_int_not_equal(check_answers_edit(A_FENCE, NULL, NULL, NULL, NULL), 0);
	assert_error("answers block has no '# answer fence_cost:' line");
	assert_nerrors(1);

	assert_int_not_equal(check_answers_edit(NULL, NULL, A_SUMMARY, A_LITMUS, NULL), 0);
	assert_error("answer key 'litmus' repeats (first at line");
	assert_nerrors(1);

	assert_int_not_equal(check_answers_edit(NULL, NULL, A_SUMMARY,
		"# answer bogus: x (from=none; control=none; env=bare-metal)", NULL), 0);
	assert_error("unknown answer key 'bogus'");
	assert_nerrors(1);
}

void test_answers_from_control_env(void **state)
{
	(void)state;
	assert_int_not_equal(check_answers_edit(A_LITMUS,
		"# answer litmus: 1.2 cycles (from=alpha.one.lat,alpha.one.nope; control=not-observed; env=bare-metal)",
		NULL, NULL, NULL), 0);
	assert_error("answer 'litmus': from= names 'alpha.one.nope', which is not a metric of this run");
	assert_nerrors(1);

	assert_int_not_equal(check_answers_edit(A_LITMUS,
		"# answer litmus: 1.2 cycles (from=alpha.one.lat,; control=none; env=bare-metal)",
		NULL, NULL, NULL), 0);
	assert_error("from= ends with ','");

	assert_int_not_equal(check_answers_edit(A_LITMUS,
		"# answer litmus: 1.2 cycles (from=Alpha; control=none; env=bare-metal)",
		NULL, NULL, NULL), 0);
	assert_error("is not a metric name");

	assert_int_not_equal(check_answers_edit(A_LITMUS,
		"# answer litmus: 1.2 cycles (from=alpha.one.lat; control=maybe; env=bare-metal)",
		NULL, NULL, NULL), 0);
	assert_error("answer 'litmus': control='maybe', expected fired, partial, not-observed or none");
	assert_nerrors(1);

	/* some claims' controls fired, others not: the text names those */
	assert_int_equal(check_answers_edit(A_LITMUS,
		"# answer litmus: 1.2 cycles [controls not fired: litmus.sb] (from=alpha.one.lat; control=partial; env=bare-metal)",
		NULL, NULL, NULL), 0);

	assert_int_not_equal(check_answers_edit(A_LITMUS,
		"# answer litmus: 1.2 cycles (from=alpha.one.lat; control=none; env=hypervisor:KVMKVMKVM)",
		NULL, NULL, NULL), 0);
	assert_error("answer 'litmus': env=hypervisor:KVMKVMKVM but the '# answers:' line says env=bare-metal");
	assert_nerrors(1);

	/* the block's env against the header's */
	assert_int_not_equal(check_answers_edit("# id.env: bare-metal", "# id.env: emulator:qemu-tcg",
						NULL, NULL, NULL), 0);
	assert_error("answers env=bare-metal differs from '# id.env: emulator:qemu-tcg'");
	assert_nerrors(1);
	assert_int_not_equal(check_answers_edit("# id.env: bare-metal", NULL, NULL, NULL, NULL), 0);
	assert_error("no '# id.env:' line");

	assert_int_not_equal(check_answers_edit(A_FENCE,
		"# answer fence_cost: not measured: fence did not run (from=none; control=fired; env=bare-metal)",
		NULL, NULL, NULL), 0);
	assert_error("is 'not measured' but has from= or control= other than none");
}

void test_answers_malformed_and_placement(void **state)
{
	(void)state;
	/* a line cut short by the console: its tail is gone */
	assert_int_not_equal(check_answers_edit(A_LITMUS, "# answer litmus: 1.2 cycles (from=alpha.one",
						NULL, NULL, NULL), 0);
	assert_error("answer 'litmus' does not end with ' (from=");
	assert_error("answers block has no '# answer litmus:' line");
	assert_int_not_equal(check_answers_edit(A_LITMUS,
		"# answer litmus: 1.2 (from=alpha.one.lat; env=bare-metal)", NULL, NULL, NULL), 0);
	assert_error("no '; control=' after from=");
	assert_int_not_equal(check_answers_edit(A_LITMUS,
		"# answer litmus:  (from=alpha.one.lat; control=none; env=bare-metal)", NULL, NULL, NULL), 0);
	assert_error("answer 'litmus' has no text");
	assert_int_not_equal(check_answers_edit("# answers: env=bare-metal", "# answers: bare-metal",
						NULL, NULL, NULL), 0);
	assert_error("malformed answers line");
	assert_error("answer line before the '# answers:' line");

	/* after the summary, inside a suite, twice */
	assert_int_not_equal(check_answers_edit(A_LITMUS, NULL, "# exit: status=pass code=0",
						A_LITMUS, NULL), 0);
	assert_error("answer line after the summary line");
	assert_int_not_equal(check_answers_edit(NULL, NULL, "    ok 1 one",
		"    # answers: env=bare-metal", NULL), 0);
	assert_error("'# answers:' line inside a suite");
	assert_int_not_equal(check_answers_edit(NULL, NULL, A_SUMMARY, "# answers: env=bare-metal",
						NULL), 0);
	assert_error("second '# answers:' line");
	assert_int_not_equal(check_answers_edit("1..1", "1..2", A_SUMMARY,
		"    KTAP version 1", NULL), 0);
	assert_error("suite starts after the answers block");
}
