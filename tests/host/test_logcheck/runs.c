/* SPDX-License-Identifier: GPL-2.0-only */
/* Log checker unit tests: several runs in one file (a console captured
 * across reboots) and text that looks like protocol lines but is not
 * where the format puts them (docs/log-format.md, "Several runs in one
 * file" and "Where the log starts"). */
#include "tests/host/test_logcheck/logcheck_test.h"

/* A complete run with one failed case. */
#define FAIL_LOG LINES(						\
	"KTAP version 1", "1..1",				\
	"    KTAP version 1", "    # Subtest: s", "    1..1",	\
	"    not ok 1 c # broke", "not ok 1 s",			\
	"ringlab: 0 passed, 1 failed, 0 skipped",		\
	"# exit: status=fail code=1")

static const struct logcheck_opts all_runs = {
	.qemu_exit = -1, .min_cases = -1, .all_runs = true,
};

void test_runs_fail_then_pass(void **state)
{
	struct logbuf b;

	(void)state;
	lb_init(&b, "\r\n");
	lb_lines(&b, FAIL_LOG);
	lb_seal(&b);
	lb_raw(&b, "SeaBIOS (version 1.16.2)\r\n", 26);
	lb_lines(&b, GOOD_LOG);
	lb_seal(&b);
	/* The last complete run is judged; the earlier failure is named. */
	assert_valid(check(&b));
	assert_int_equal(R.runs, 2);
	assert_int_equal(R.judged, 2);
	assert_int_equal(R.complete_runs, 2);
	assert_string_equal(R.status, "pass");
	assert_int_equal(R.others_not_passed, 1);
	assert_note(false, "the file holds 2 runs (start lines at column 0), 2 of them complete; judged run 2 (lines 12-28), the last complete one");
	assert_note(true, "earlier run 1 of 2 (lines 1-10) did not pass: fail");
	assert_string_equal(R.run[0].verdict, "fail");
	assert_true(R.run[0].complete);
	assert_int_equal(R.run[0].end_line, 10);
	assert_string_equal(R.run[1].verdict, "pass");
	assert_int_equal(R.run[1].start_line, 12);
	/* The SeaBIOS line after run 1's integrity line is nobody's. */
	assert_int_equal(R.trailing_lines, 0);

	/* --all-runs: any run that did not pass fails the file. */
	assert_int_not_equal(check_opts(&b, &all_runs), 0);
	assert_nerrors(1);
	assert_error("line 1: --all-runs: run 1 of 2 did not pass: fail");
	assert_string_equal(R.status, "pass");
	lb_free(&b);
}

void test_runs_pass_then_fail(void **state)
{
	struct logbuf b;

	(void)state;
	lb_init(&b, "\n");
	lb_lines(&b, GOOD_LOG);
	lb_seal(&b);
	lb_lines(&b, FAIL_LOG);
	lb_seal(&b);
	assert_valid(check(&b));
	assert_int_equal(R.judged, 2);
	assert_string_equal(R.status, "fail");
	assert_int_equal(R.failed, 1);
	/* The earlier run passed: no warning, only the count of runs. */
	assert_int_equal(R.others_not_passed, 0);
	assert_int_equal(R.nnotes, 1);
	assert_note(false, "the file holds 2 runs");
	assert_valid(check_opts(&b, &all_runs));
	lb_free(&b);
}

void test_runs_two_passes(void **state)
{
	struct logbuf b;

	(void)state;
	lb_init(&b, "\r\n");
	lb_lines(&b, GOOD_LOG);
	lb_seal(&b);
	lb_lines(&b, GOOD_LOG);
	lb_seal(&b);
	assert_valid(check_opts(&b, &all_runs));
	assert_int_equal(R.runs, 2);
	assert_int_equal(R.judged, 2);
	assert_int_equal(R.start_line, 18);
	assert_int_equal(R.end_line, 34);
	assert_string_equal(R.run[0].verdict, "pass");
	assert_string_equal(R.run[1].verdict, "pass");
	lb_free(&b);
}

void test_runs_pass_then_garbage(void **state)
{
	static const char reset[] = "\x1b[2J\x1b[01;01HSeaBIOS (version 1.16.2)\r\n"
				    "iPXE (PCI 00:03.0) starting execution...ok\r\n"
				    "not ok 1 firmware # nobody's result\r\n"
				    "# exit: status=fail code=1\r\n";
	struct logbuf b;

	(void)state;
	lb_init(&b, "\r\n");
	lb_lines(&b, GOOD_LOG);
	lb_seal(&b);
	lb_raw(&b, reset, sizeof(reset) - 1);
	assert_valid(check_opts(&b, &all_runs));
	assert_int_equal(R.runs, 1);
	assert_string_equal(R.status, "pass");
	assert_int_equal(R.trailing_lines, 4);
	assert_note(false, "4 non-empty line(s) after the integrity line (line 17) start no new run: ignored (from line 18)");

	/* The firmware then starts a run that never ends: the complete one
	 * stays judged, the cut one is named. */
	lb_lines(&b, LINES("KTAP version 1", "1..1", "    KTAP version 1"));
	assert_valid(check(&b));
	assert_int_equal(R.runs, 2);
	assert_int_equal(R.judged, 1);
	assert_int_equal(R.trailing_lines, 4);
	assert_note(true, "later run 2 of 2 (lines 22-24) did not pass: incomplete (no integrity line)");
	lb_free(&b);
}

void test_runs_many(void **state)
{
	struct logbuf b;

	(void)state;
	lb_init(&b, "\n");
	for (int i = 0; i < 40; i++) {
		lb_lines(&b, i % 2 ? GOOD_LOG : FAIL_LOG);
		lb_seal(&b);
	}
	assert_valid(check(&b));
	assert_int_equal(R.runs, 40);
	assert_int_equal(R.judged, 40);
	assert_int_equal(R.others_not_passed, 20);
	assert_note(true, "earlier run 1 of 40");
	assert_note(true, "earlier run 19 of 40");
	assert_false(has_note(true, "earlier run 21 of 40"));
	assert_note(true, "... and 10 more runs did not pass");
	assert_string_equal(R.run[31].verdict, "pass");
	assert_string_equal(R.run[30].verdict, "fail");
	assert_int_not_equal(check_opts(&b, &all_runs), 0);
	assert_nerrors(20);
	lb_free(&b);
}

/* Firmware strings (an SMBIOS manufacturer, a BIOS banner) printed inside
 * an identity line may hold anything printable; text that reads like a
 * protocol line but is not at its place (column 0, or a suite's
 * indentation) must not end, start or change the run. */
void test_protocol_text_mid_line(void **state)
{
	struct logbuf b;

	(void)state;
	lb_init(&b, "\r\n");
	lb_lines(&b, LINES(
		"KTAP version 1",
		"# id.version: test",
		"# id.system: vendor=\"# integrity: lines=1\" product=\"x # result: alpha.one fail x\" serial=\"KTAP version 1\"",
		"# id.bios: vendor=\"# exit: status=fail code=1\" version=\"ringlab: PANIC: x\" date=\"not ok 1 alpha\"",
		"1..2",
		"    KTAP version 1",
		"    # Subtest: alpha",
		"    1..2",
		"    # firmware said: x # result: alpha.one fail x",
		"    ok 1 one",
		"    ok 2 two",
		"ok 1 alpha",
		"    KTAP version 1",
		"    # Subtest: beta",
		"    1..1",
		"    ok 1 three",
		"ok 2 beta",
		"ringlab: 3 passed, 0 failed, 0 skipped",
		"# exit: status=pass code=0"));
	lb_seal(&b);
	assert_valid(check(&b));
	assert_int_equal(R.runs, 1);
	assert_int_equal(R.nnotes, 0);
	assert_int_equal(R.cases, 3);
	assert_int_equal(R.failed, 0);
	assert_false(R.panic);
	assert_string_equal(R.status, "pass");
	assert_int_equal(R.lines_computed, 19);
	assert_int_equal(R.end_line, 20);
	lb_free(&b);
}
