/* SPDX-License-Identifier: GPL-2.0-only */
/* Log checker unit tests: config errors, panics closing a case, metric
 * names, flat results, time lines and the event callback. */
#include "tests/host/test_logcheck/logcheck_test.h"

/* ------------------------------------- config, panic, names --- */

/* A command-line error is a failing `config.cmdline` result: it makes the
 * status config-error (not fail), and counts in the summary. */
#define CONFIG_LOG(status, extra_case)					\
	LINES("KTAP version 1",						\
	      "# error: cmdline: unknown option 'bogus=1'",		\
	      "1..2",							\
	      "    KTAP version 1", "    # Subtest: config", "    1..1",	\
	      "    not ok 1 cmdline # 1 command-line error(s)",		\
	      "not ok 1 config # configuration error",			\
	      "    KTAP version 1", "    # Subtest: a", "    1..1",	\
	      "    " extra_case,					\
	      extra_case[0] == 'n' ? "not ok 2 a" : "ok 2 a",		\
	      extra_case[0] == 'n' ? "ringlab: 0 passed, 2 failed, 0 skipped" \
				   : "ringlab: 1 passed, 1 failed, 0 skipped", \
	      "# exit: status=" status)

void test_config_error_result(void **state)
{
	(void)state;
	assert_valid(check_lines(CONFIG_LOG("config-error code=2", "ok 1 x")));
	assert_int_equal(R.config_failed, 1);
	assert_int_equal(R.failed, 1);
	assert_string_equal(R.status, "config-error");

	/* A real failure as well: status fail. */
	assert_valid(check_lines(CONFIG_LOG("fail code=1", "not ok 1 x # bad")));
	assert_int_equal(R.config_failed, 1);
	assert_int_equal(R.failed, 2);

	/* The config failure alone does not make the run fail ... */
	assert_int_not_equal(check_lines(CONFIG_LOG("fail code=1", "ok 1 x")), 0);
	assert_nerrors(1);
	assert_error("status=fail but no case failed");
	/* ... nor may it pass. */
	assert_int_not_equal(check_lines(CONFIG_LOG("pass code=0", "ok 1 x")), 0);
	assert_error("status=pass but the 'config' suite reports a configuration error");

	/* Old logs (before the config suite) stay readable. */
	assert_valid(check_lines(LINES(
		"KTAP version 1", "# error: cmdline: unknown option 'foo=1'", "1..0",
		"ringlab: 0 passed, 0 failed, 0 skipped",
		"# exit: status=config-error code=2")));
}

#define PANIC_CLOSED_LOG(panic_line)					\
	LINES("KTAP version 1", "1..3",					\
	      "    KTAP version 1", "    # Subtest: a", "    1..1",	\
	      "    ok 1 x", "ok 1 a",					\
	      "    KTAP version 1", "    # Subtest: b", "    1..4",	\
	      "    ok 1 y", "    # calling panic()",			\
	      "    not ok 2 z # PANIC requested",			\
	      "not ok 2 b # PANIC requested",				\
	      panic_line,						\
	      "# exit: status=panic code=3")

void test_panic_closes_case_and_suite(void **state)
{
	(void)state;
	assert_valid(check_lines(PANIC_CLOSED_LOG("ringlab: PANIC: requested")));
	assert_true(R.panic);
	assert_int_equal(R.panic_results, 2);
	assert_int_equal(R.suites, 2);
	assert_int_equal(R.cases, 3);
	assert_int_equal(R.failed, 1);

	/* A # PANIC result needs the PANIC line after it. */
	assert_int_not_equal(check_lines(PANIC_CLOSED_LOG("# no panic line here")), 0);
	assert_error("line 13: result with '# PANIC' but no 'ringlab: PANIC:' line follows");

	/* Panic between cases: the suite alone is closed, with no failed
	 * case; that is fine. */
	assert_valid(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: b", "    1..4", "    ok 1 y",
		"not ok 1 b # PANIC between cases",
		"ringlab: PANIC: between cases", "# exit: status=panic code=3")));

	/* 'ok ... # PANIC' is a contradiction. */
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: b", "    1..1", "    ok 1 y # PANIC x",
		"ok 1 b", "ringlab: PANIC: x", "# exit: status=panic code=3")), 0);
	assert_error("'ok' result with '# PANIC'");
}

void test_metric_names_unique(void **state)
{
	(void)state;
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: a", "    1..2",
		"    # metric a.x.lat value=1 unit=ns",
		"    # hist a.x.lat lo=0 width=1 counts=1 over=0",
		"    ok 1 x",
		"    # metric a.x.lat value=2 unit=ns",
		"    # metric a.y.lat value=2 unit=ns",
		"    ok 2 y",
		"ok 1 a", "ringlab: 2 passed, 0 failed, 0 skipped",
		"# exit: status=pass code=0")), 0);
	assert_nerrors(1);
	assert_error("line 9: metric name 'a.x.lat' repeats (first at line 6)");

	/* Many distinct names (the set grows) and one repeat at the end. */
	struct logbuf b;
	char line[80];

	lb_init(&b, "\r\r\n");
	lb_lines(&b, LINES("KTAP version 1", "1..1", "    KTAP version 1",
			   "    # Subtest: a", "    1..1"));
	for (int i = 0; i < 1000; i++) {
		rl_snprintf(line, sizeof(line), "    # metric a.x.m%d value=%d unit=ns", i, i);
		lb_line(&b, line);
	}
	lb_line(&b, "    # metric a.x.m17 value=1 unit=ns");
	lb_lines(&b, LINES("    ok 1 x", "ok 1 a", "ringlab: 1 passed, 0 failed, 0 skipped",
			   "# exit: status=pass code=0"));
	lb_seal(&b);
	assert_int_not_equal(check(&b), 0);
	assert_nerrors(1);
	assert_error("line 1006: metric name 'a.x.m17' repeats (first at line 23)");
	assert_int_equal(R.metrics, 1001);
	lb_free(&b);
}

/* `# result:` lines: optional, but when present, one right after each case
 * result and agreeing with it. */
void test_flat_results(void **state)
{
	(void)state;
	assert_valid(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: a", "    1..3",
		"    ok 1 x", "    # result: a.x pass",
		"    ok 2 y # SKIP no", "    # result: a.y skip",
		"    not ok 3 z # TIMEOUT slow", "    # result: a.z timeout",
		"not ok 1 a", "ringlab: 1 passed, 1 failed, 1 skipped",
		"# exit: status=fail code=1")));

	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: a", "    1..2",
		"    ok 1 x", "    # result: a.x fail",
		"    ok 2 y", "    # other", "    # result: a.y pass",
		"ok 1 a", "ringlab: 2 passed, 0 failed, 0 skipped",
		"# exit: status=pass code=0")), 0);
	assert_error("line 7: '# result: a.x fail' disagrees with the case result on line 6 (pass)");
	assert_error("line 10: '# result:' line does not follow a case result");

	/* One case without its line. */
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: a", "    1..2",
		"    ok 1 x", "    # result: a.x pass", "    ok 2 y",
		"ok 1 a", "ringlab: 2 passed, 0 failed, 0 skipped",
		"# exit: status=pass code=0")), 0);
	assert_nerrors(1);
	assert_error("1 '# result:' lines for 2 case results");
}

/* `# time:` lines (per-case and per-suite wall time): optional, right
 * after the result they time (a case's may follow its `# result:` line),
 * with a bounded decimal duration_ms=. */
void test_time_lines(void **state)
{
	(void)state;
	assert_valid(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: a", "    1..3",
		"    ok 1 x", "    # result: a.x pass", "    # time: a.x duration_ms=0.123",
		"    ok 2 y # SKIP no", "    # result: a.y skip", "    # time: a.y duration_ms=12",
		"    ok 3 z", "    # result: a.z pass",
		"ok 1 a", "# time: a duration_ms=999999999999.999999",
		"ringlab: 2 passed, 0 failed, 1 skipped", "# exit: status=pass code=0")));
	assert_int_equal(R.times, 3);

	/* Old logs: none at all. */
	assert_valid(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: a", "    1..1", "    ok 1 x",
		"ok 1 a", "ringlab: 1 passed, 0 failed, 0 skipped", "# exit: status=pass code=0")));
	assert_int_equal(R.times, 0);

	/* Without `# result:` lines, right after the case result. */
	assert_valid(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: a", "    1..1", "    ok 1 x",
		"    # time: a.x duration_ms=7.25",
		"ok 1 a", "ringlab: 1 passed, 0 failed, 0 skipped", "# exit: status=pass code=0")));
	assert_int_equal(R.times, 1);

	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: a", "    1..2",
		"    ok 1 x", "    # time: a.x duration_ms=01",
		"    # time: a.x duration_ms=1.",
		"    # time: a.x duration_ms=1.1234567",
		"    # time: a.x duration_ms=1234567890123",
		"    # time: a.x duration_ms=-1",
		"    # time: a.x duration_ms=1 extra",
		"    # time: a.x ms=1",
		"    # time:  duration_ms=1",
		"    ok 2 y", "    # other", "    # time: a.y duration_ms=1",
		"ok 1 a", "# time: b duration_ms=1",
		"ringlab: 2 passed, 0 failed, 0 skipped", "# exit: status=pass code=0")), 0);
	assert_nerrors(10);
	assert_error("line 7: malformed '# time:' line '# time: a.x duration_ms=01'");
	assert_error("line 8: malformed '# time:' line");
	assert_error("line 9: malformed '# time:' line");
	assert_error("line 10: malformed '# time:' line");
	assert_error("line 11: malformed '# time:' line");
	assert_error("line 12: malformed '# time:' line");
	assert_error("line 13: malformed '# time:' line");
	assert_error("line 14: malformed '# time:' line");
	assert_error("line 17: '# time:' line '# time: a.y duration_ms=1' does not follow the result it times");
	assert_error("line 19: '# time:' line '# time: b duration_ms=1' does not follow the result it times");

	/* Twice for one case, or naming another case or suite. */
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: a", "    1..2",
		"    ok 1 x", "    # time: a.x duration_ms=1", "    # time: a.x duration_ms=2",
		"    ok 2 y", "    # time: a.x duration_ms=1",
		"ok 1 a", "# time: a.y duration_ms=1",
		"ringlab: 2 passed, 0 failed, 0 skipped", "# exit: status=pass code=0")), 0);
	assert_nerrors(3);
	assert_error("line 8: '# time:' line '# time: a.x duration_ms=2' does not follow");
	assert_error("line 10: '# time:' line '# time: a.x duration_ms=1' does not follow");
	assert_error("line 12: '# time:' line '# time: a.y duration_ms=1' does not follow");

	uint64_t ns = 0;

	assert_true(logcheck_parse_ms("0", 1, &ns) && ns == 0);
	assert_true(logcheck_parse_ms("1.5", 3, &ns) && ns == 1500000);
	assert_true(logcheck_parse_ms("12.345678", 9, &ns) && ns == 12345678);
	assert_true(logcheck_parse_ms("0.000", 5, &ns) && ns == 0);
	assert_false(logcheck_parse_ms("", 0, &ns));
	assert_false(logcheck_parse_ms(".5", 2, &ns));
	assert_false(logcheck_parse_ms("1e3", 3, &ns));
	assert_false(logcheck_parse_ms("1.0000000", 9, &ns));
}

/* TIME events carry the duration and the line of the result they time. */
struct timelog {
	int n;
	size_t of[4];
	uint64_t ns[4];
	char name[4][16];
};

static void collect_times(const struct logcheck_event *ev, void *arg)
{
	struct timelog *t = arg;

	if (ev->kind != LC_EV_TIME || t->n >= 4)
		return;
	t->of[t->n] = ev->num;
	t->ns[t->n] = ev->duration_ns;
	rl_snprintf(t->name[t->n], sizeof(t->name[0]), "%.*s", (int)ev->name.n, ev->name.p);
	t->n++;
}

void test_time_events(void **state)
{
	(void)state;
	struct timelog t;
	struct logcheck_opts o = { .qemu_exit = -1, .min_cases = -1, .on_event = collect_times,
				   .event_arg = &t };
	struct logbuf b;

	memset(&t, 0, sizeof(t));
	lb_init(&b, "\r\n");
	lb_lines(&b, LINES("KTAP version 1", "1..1",
			   "    KTAP version 1", "    # Subtest: s", "    1..1",
			   "    ok 1 c", "    # result: s.c pass", "    # time: s.c duration_ms=2.5",
			   "ok 1 s", "# time: s duration_ms=3.001",
			   "ringlab: 1 passed, 0 failed, 0 skipped", "# exit: status=pass code=0"));
	lb_seal(&b);
	assert_int_equal(check_opts(&b, &o), 0);
	assert_int_equal(t.n, 2);
	assert_string_equal(t.name[0], "s.c");
	assert_int_equal(t.of[0], 6);
	assert_int_equal(t.ns[0], 2500000);
	assert_string_equal(t.name[1], "s");
	assert_int_equal(t.of[1], 9);
	assert_int_equal(t.ns[1], 3001000);
	lb_free(&b);
}

/* The event stream that logcheck --json is built on. */
struct evlog {
	int n[LC_EV_OTHER + 1];
	char last_result[64], last_suite[64], metric_fields[128], id_value[64];
	int panic_results;
};

static void collect(const struct logcheck_event *ev, void *arg)
{
	struct evlog *e = arg;

	e->n[ev->kind]++;
	if (ev->kind == LC_EV_RESULT && ev->level == 1) {
		rl_snprintf(e->last_result, sizeof(e->last_result), "%.*s", (int)ev->name.n,
			    ev->name.p);
		rl_snprintf(e->last_suite, sizeof(e->last_suite), "%.*s", (int)ev->suite.n,
			    ev->suite.p);
	}
	if (ev->kind == LC_EV_RESULT && ev->panic)
		e->panic_results++;
	if (ev->kind == LC_EV_METRIC)
		rl_snprintf(e->metric_fields, sizeof(e->metric_fields), "%.*s",
			    (int)ev->fields.n, ev->fields.p);
	if (ev->kind == LC_EV_ID)
		rl_snprintf(e->id_value, sizeof(e->id_value), "%.*s=%.*s", (int)ev->key.n,
			    ev->key.p, (int)ev->value.n, ev->value.p);
}

void test_events(void **state)
{
	(void)state;
	struct evlog e;
	struct logcheck_opts o = { .qemu_exit = -1, .min_cases = -1, .on_event = collect,
				   .event_arg = &e };
	struct logbuf b;

	memset(&e, 0, sizeof(e));
	lb_init(&b, "\r\n");
	static const char noise[] = "GRUB noise\rKTAP version 1\r\n# old run\r\n";

	lb_raw(&b, noise, sizeof(noise) - 1);
	lb_lines(&b, LINES("KTAP version 1", "# id.cpu.vendor: GenuineIntel", "1..1",
			   "    KTAP version 1", "    # Subtest: s", "    1..1",
			   "    # error: tsc: odd", "    # metric s.c.lat n=1 min=1 p50=1 p90=1 p99=1 max=1 mean=1 stddev=0 unit=ns",
			   "    # hist s.c.lat unit=ns lo=1 width=1 counts=1 over=0",
			   "    not ok 1 c # PANIC boom", "not ok 1 s # PANIC boom",
			   "ringlab: PANIC: boom", "# exit: status=panic code=3"));
	lb_seal(&b);
	assert_int_equal(check_opts(&b, &o), 0);
	assert_int_equal(e.n[LC_EV_ID], 1);
	assert_string_equal(e.id_value, "cpu.vendor=GenuineIntel");
	assert_int_equal(e.n[LC_EV_SUITE], 1);
	assert_int_equal(e.n[LC_EV_RESULT], 2);
	assert_int_equal(e.n[LC_EV_ERROR], 1);
	assert_int_equal(e.n[LC_EV_METRIC], 1);
	assert_int_equal(e.n[LC_EV_HIST], 1);
	assert_int_equal(e.n[LC_EV_PANIC], 1);
	assert_int_equal(e.n[LC_EV_EXIT], 1);
	assert_int_equal(e.n[LC_EV_DIAG], 0);   /* the old run's '# old run' is not judged */
	assert_int_equal(e.panic_results, 2);
	assert_string_equal(e.last_result, "c");
	assert_string_equal(e.last_suite, "s");
	assert_string_equal(e.metric_fields,
			    " n=1 min=1 p50=1 p90=1 p99=1 max=1 mean=1 stddev=0 unit=ns");
	lb_free(&b);
}
