/* SPDX-License-Identifier: GPL-2.0-only */
/* Log checker unit tests: the metric grammar, checker options and
 * robustness against huge or hostile input. */
#include "tests/host/test_logcheck/logcheck_test.h"

/* ------------------------------------------------------------ metrics --- */

static bool metric_ok(const char *line, char *err, size_t errsz)
{
	return logcheck_metric_line(line, strlen(line), err, errsz);
}

void test_metric_grammar_good(void **state)
{
	static const char *const good[] = {
		"# metric ipi.latency.cycles n=1000 min=812 p50=901 p90=950 p99=1210 max=40211 mean=930 stddev=88 unit=cycles method=u2u u=64",
		"# metric boot.identity_map.checked value=4120 unit=pages",
		"# metric tsc-deadline.lat_hlt value=12 unit=ns fence_needed=not-observed",
		"# metric a.b x=1",
		"# metric a.b.c.d x1_y=a=b#c",
		"# metric clear.bandwidth.rep_stosb.4KiB.1cpu value=1 unit=MB/s",
		"# hist ipi.latency.cycles lo=800 width=16 counts=3,10,200,1,0 over=12",
	};
	char e[128];

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		if (!metric_ok(good[i], e, sizeof(e)))
			fail_msg("rejected '%s': %s", good[i], e);
	}
	/* Slices, not strings: the line may be followed by anything. */
	assert_true(logcheck_metric_line("# metric a.b x=1 GARBAGE", 16, e, sizeof(e)));
}

void test_metric_grammar_bad(void **state)
{
	static const struct {
		const char *line, *why;
	} bad[] = {
		{ "# metric a.b x", "field 'x' has no '='" },
		{ "# metric ab x=1", "name 'ab' has one segment" },
		{ "# metric a.b Unit=ns", "key 'Unit' must start with a lower-case letter" },
		{ "# metric a.b uNit=ns", "key 'uNit' has a character outside [a-z0-9_]" },
		{ "# metric a.b 1x=ns", "key '1x' must start with a lower-case letter" },
		{ "# metric a.b n=1 unit=ns n=2", "duplicate key 'n'" },
		{ "# metric a.b n= unit=ns", "key 'n' has an empty value" },
		{ "# metric a.b n=1\tunit=ns", "tab character" },
		{ "# metric a.b n=1  unit=ns", "empty field (double or trailing space)" },
		{ "# metric a.b n=1 ", "empty field (double or trailing space)" },
		{ "# metric a.b =1", "empty key before '='" },
		{ "# metric a..b n=1", "name 'a..b' has an empty segment" },
		{ "# metric a.b. n=1", "name 'a.b.' has an empty segment" },
		{ "# metric .a.b n=1", "name '.a.b' has an empty segment" },
		{ "# metric A.b n=1", "name 'A.b' has a character outside" },
		{ "# metric a.B.c n=1", "name 'a.B.c' has a character outside" },
		{ "# metric a.b", "no key=value fields after the name" },
		{ "# metric", "no name and no key=value fields" },
		{ "# metric  a.b n=1", "empty name" },
		{ "# hist a n=1", "name 'a' has one segment" },
		{ "# metrics a.b n=1", "does not start with '# metric ' or '# hist '" },
	};
	char e[128];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (metric_ok(bad[i].line, e, sizeof(e)))
			fail_msg("accepted '%s'", bad[i].line);
		if (!strstr(e, bad[i].why))
			fail_msg("'%s': got '%s', want '%s'", bad[i].line, e, bad[i].why);
	}
}

void test_metrics_in_log(void **state)
{
	struct logcheck_opts o = { .qemu_exit = -1, .min_cases = -1 };
	const char *req[] = { "a.x.lat", "boot.mem" };
	struct logbuf b;

	(void)state;
	lb_init(&b, "\n");
	lb_lines(&b, LINES(
		"KTAP version 1",
		"# metric boot.mem value=1 unit=bytes",
		"1..1",
		"    KTAP version 1", "    # Subtest: a", "    1..1",
		"    # metric a.x.lat n=3 min=1 p50=2 p90=3 p99=3 max=3 mean=2 stddev=1 unit=ns",
		"    # hist a.x.lat lo=1 width=1 counts=1,1,1 over=0",
		"    # metric a.x.B@D value=1",
		"    # hist a.x.lat lo=1 width=1 counts=1,1,1 over=0 lo=2",
		"    # metrics are also discussed here, freely",
		"    ok 1 x", "ok 1 a",
		"ringlab: 1 passed, 0 failed, 0 skipped",
		"# exit: status=pass code=0"));
	lb_seal(&b);
	o.require_metrics = req;
	o.nrequire = 2;
	assert_int_not_equal(check_opts(&b, &o), 0);
	assert_int_equal(R.metrics, 3);
	assert_int_equal(R.hists, 2);
	assert_nerrors(2);
	assert_error("line 9: bad metric line: name 'a.x.B@D' has a character outside");
	assert_error("line 10: bad hist line: duplicate key 'lo'");
	lb_free(&b);
}

/* ------------------------------------------------------------ options --- */

void test_options(void **state)
{
	const char *req[] = { "boot.mem", "a.missing" };
	struct logcheck_opts o = { .qemu_exit = -1, .min_cases = -1 };
	struct logbuf b;

	(void)state;
	lb_init(&b, "\r\n");
	lb_lines(&b, LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: a", "    1..1",
		"    # metric boot.mem value=1 unit=bytes",
		"    not ok 1 x", "not ok 1 a",
		"ringlab: 0 passed, 1 failed, 0 skipped",
		"# exit: status=fail code=1"));
	lb_seal(&b);

	o.expect_status = "fail";
	o.qemu_exit = 3;
	o.min_cases = 1;
	o.require_metrics = req;
	o.nrequire = 1;
	assert_valid(check_opts(&b, &o));

	o.expect_status = "pass";
	o.qemu_exit = 1;
	o.min_cases = 2;
	o.nrequire = 2;
	assert_int_not_equal(check_opts(&b, &o), 0);
	assert_nerrors(4);
	assert_error("line 10: status=fail, expected pass");
	assert_error("line 10: QEMU exit status 1 does not match code=1 (expected code*2+1)");
	assert_error("1 cases, expected at least 2");
	assert_error("required metric 'a.missing' not found");
	lb_free(&b);
}

/* --------------------------------------------------------- robustness --- */

void test_huge_lines(void **state)
{
	size_t big = 1 << 20;
	char *diag = malloc(big + 1), *metric = malloc(big + 32);
	struct logbuf b;

	(void)state;
	assert_non_null(diag);
	assert_non_null(metric);
	memset(diag, 'x', big);
	memcpy(diag, "# ", 2);
	diag[big] = '\0';
	strcpy(metric, "# metric a.b v=");
	size_t m = strlen(metric);

	memset(metric + m, '7', big);
	metric[m + big] = '\0';

	lb_init(&b, "\n");
	lb_lines(&b, LINES("KTAP version 1", diag, metric, "1..0",
			   "ringlab: 0 passed, 0 failed, 0 skipped",
			   "# exit: status=pass code=0"));
	lb_seal(&b);
	assert_valid(check(&b));
	assert_int_equal(R.metrics, 1);

	/* A byte flipped at the far end of the long line is still seen. */
	b.p[15 + big - 10] ^= 1;
	assert_int_not_equal(check(&b), 0);
	assert_error("integrity: crc32=");
	lb_free(&b);
	free(diag);
	free(metric);
}

void test_many_errors_capped(void **state)
{
	struct logbuf b;

	(void)state;
	lb_init(&b, "\n");
	lb_line(&b, "KTAP version 1");
	for (int i = 0; i < 200; i++)
		lb_line(&b, "garbage");
	lb_seal(&b);
	assert_int_not_equal(check(&b), 0);
	assert_true(R.nerrors > LOGCHECK_MAX_ERRORS);
	assert_string_equal(R.errors[0], "line 2: unrecognised line 'garbage'");
	assert_string_equal(R.errors[LOGCHECK_MAX_ERRORS - 1],
			    "line 65: unrecognised line 'garbage'");
	lb_free(&b);
}

void test_nul_and_escapes_in_messages(void **state)
{
	struct logbuf b;

	(void)state;
	lb_init(&b, "\n");
	lb_line(&b, "KTAP version 1");
	lb_raw(&b, "bad\0\x1b[31mline\n", 14);
	lb_lines(&b, LINES("1..0", "ringlab: 0 passed, 0 failed, 0 skipped",
			   "# exit: status=pass code=0"));
	assert_int_not_equal(check(&b), 0);
	assert_error("line 2: unrecognised line 'bad??[31mline'");
	lb_free(&b);
}
