/* SPDX-License-Identifier: GPL-2.0-only */
/* Log checker unit tests: plans, numbering, suite/case nesting, summary
 * and exit lines, panics, results and other line kinds. */
#include "tests/host/test_logcheck/logcheck_test.h"

/* ---------------------------------------------------------- structure --- */

void test_top_plan_mismatch(void **state)
{
	(void)state;
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..3",
		"    KTAP version 1", "    # Subtest: a", "    1..1", "    ok 1 x", "ok 1 a",
		"    KTAP version 1", "    # Subtest: b", "    1..1", "    ok 1 y", "ok 2 b",
		"ringlab: 2 passed, 0 failed, 0 skipped",
		"# exit: status=pass code=0")), 0);
	assert_nerrors(1);
	assert_error("line 15: the top level plans 3 results (line 2) but has 2");
	assert_int_equal(R.suites, 2);
}

void test_suite_plan_mismatch(void **state)
{
	(void)state;
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: alpha", "    1..3",
		"    ok 1 x", "    ok 2 y", "ok 1 alpha",
		"ringlab: 2 passed, 0 failed, 0 skipped",
		"# exit: status=pass code=0")), 0);
	assert_nerrors(1);
	assert_error("line 8: suite 'alpha' plans 3 results (line 5) but has 2");
	assert_int_equal(R.cases, 2);

	/* No plan at all. */
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: alpha", "    ok 1 x", "ok 1 alpha",
		"ringlab: 1 passed, 0 failed, 0 skipped",
		"# exit: status=pass code=0")), 0);
	assert_nerrors(1);
	assert_error("line 6: suite 'alpha' has no plan '1..N'");
}

void test_numbering_gap(void **state)
{
	(void)state;
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: alpha", "    1..2",
		"    ok 1 x", "    ok 3 y", "ok 1 alpha",
		"ringlab: 2 passed, 0 failed, 0 skipped",
		"# exit: status=pass code=0")), 0);
	assert_nerrors(1);
	assert_error("line 7: result number 3, expected 2");

	/* At the top level, and numbering restarting at 1 in each suite is
	 * right (the second suite's "ok 1" is not a gap). */
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..2",
		"    KTAP version 1", "    # Subtest: a", "    1..1", "    ok 1 x", "ok 1 a",
		"    KTAP version 1", "    # Subtest: b", "    1..1", "    ok 1 y", "ok 3 b",
		"ringlab: 2 passed, 0 failed, 0 skipped",
		"# exit: status=pass code=0")), 0);
	assert_nerrors(1);
	assert_error("line 12: result number 3, expected 2");
}

void test_suite_ok_but_case_failed(void **state)
{
	(void)state;
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: alpha", "    1..2",
		"    ok 1 x", "    not ok 2 y # bad", "ok 1 alpha",
		"ringlab: 1 passed, 1 failed, 0 skipped",
		"# exit: status=fail code=1")), 0);
	assert_nerrors(1);
	assert_error("line 8: suite 'alpha' is 'ok' but 1 of its results failed");
	assert_int_equal(R.failed, 1);

	/* And the other way round. */
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: alpha", "    1..1",
		"    ok 1 x", "not ok 1 alpha",
		"ringlab: 1 passed, 0 failed, 0 skipped",
		"# exit: status=pass code=0")), 0);
	assert_nerrors(1);
	assert_error("line 7: suite 'alpha' is 'not ok' but none of its 1 results failed");
}

void test_suite_skip_rules(void **state)
{
	(void)state;
	/* SKIP although one case ran. */
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: alpha", "    1..2",
		"    ok 1 x # SKIP no hw", "    ok 2 y", "ok 1 alpha # SKIP lazy",
		"ringlab: 1 passed, 0 failed, 1 skipped",
		"# exit: status=pass code=0")), 0);
	assert_nerrors(1);
	assert_error("line 8: suite 'alpha' is '# SKIP' but only 1 of its 2 results were skipped");

	/* All skipped but the suite is a plain ok. */
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: alpha", "    1..2",
		"    ok 1 x # SKIP no hw", "    ok 2 y # SKIP no hw", "ok 1 alpha",
		"ringlab: 0 passed, 0 failed, 2 skipped",
		"# exit: status=pass code=0")), 0);
	assert_nerrors(1);
	assert_error("line 8: all 2 results of suite 'alpha' were skipped but it is not '# SKIP'");

	/* An empty suite may be either. */
	assert_valid(check_lines(LINES(
		"KTAP version 1", "1..2",
		"    KTAP version 1", "    # Subtest: a", "    1..0", "ok 1 a",
		"    KTAP version 1", "    # Subtest: b", "    1..0", "ok 2 b # SKIP none selected",
		"ringlab: 0 passed, 0 failed, 0 skipped",
		"# exit: status=pass code=0")));
	assert_int_equal(R.suites, 2);
	assert_int_equal(R.cases, 0);
}

void test_suite_name_and_subtest_line(void **state)
{
	(void)state;
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: alpha", "    1..1",
		"    ok 1 x", "ok 1 alpah",
		"ringlab: 1 passed, 0 failed, 0 skipped",
		"# exit: status=pass code=0")), 0);
	assert_nerrors(1);
	assert_error("line 7: result name 'alpah' differs from '# Subtest: alpha'");

	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    1..1",
		"    ok 1 x", "ok 1 alpha",
		"ringlab: 1 passed, 0 failed, 0 skipped",
		"# exit: status=pass code=0")), 0);
	assert_nerrors(1);
	assert_error("line 3: suite has no '# Subtest: <name>' line");

	/* A top-level result without a suite block. */
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..1", "ok 1 alpha",
		"ringlab: 0 passed, 0 failed, 0 skipped",
		"# exit: status=pass code=0")), 0);
	assert_nerrors(1);
	assert_error("line 3: top-level result 'alpha' has no suite block");
}

void test_summary_disagrees(void **state)
{
	(void)state;
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: alpha", "    1..3",
		"    ok 1 x", "    not ok 2 y", "    ok 3 z # SKIP n/a", "not ok 1 alpha",
		"ringlab: 2 passed, 1 failed, 0 skipped",
		"# exit: status=fail code=1")), 0);
	assert_nerrors(1);
	assert_true(R.has_summary);
	assert_int_equal(R.sum_passed, 2);
	assert_int_equal(R.sum_failed, 1);
	assert_int_equal(R.sum_skipped, 0);
	assert_int_equal(R.passed, 1);
	assert_int_equal(R.failed, 1);
	assert_int_equal(R.skipped, 1);
	assert_error("line 10: summary says 2 passed, 1 failed, 0 skipped but the case results are 1 passed, 1 failed, 1 skipped");

	/* Missing, and malformed. */
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..0", "# exit: status=pass code=0")), 0);
	assert_nerrors(1);
	assert_false(R.has_summary);
	assert_error("no summary line 'ringlab: N passed, N failed, N skipped'");

	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..0", "ringlab: 0 passed, 0 failed",
		"# exit: status=pass code=0")), 0);
	assert_nerrors(2);
	assert_error("line 3: malformed line 'ringlab: 0 passed, 0 failed'");
}

void test_exit_status_disagrees(void **state)
{
	(void)state;
	/* fail with no failures */
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..0", "ringlab: 0 passed, 0 failed, 0 skipped",
		"# exit: status=fail code=1")), 0);
	assert_nerrors(1);
	assert_error("line 4: status=fail but no case failed");

	/* pass with a failure */
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: a", "    1..1", "    not ok 1 x # no",
		"not ok 1 a",
		"ringlab: 0 passed, 1 failed, 0 skipped",
		"# exit: status=pass code=0")), 0);
	assert_nerrors(1);
	assert_error("line 9: status=pass but 1 cases failed");

	/* code that does not belong to the status */
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..0", "ringlab: 0 passed, 0 failed, 0 skipped",
		"# exit: status=pass code=1")), 0);
	assert_nerrors(1);
	assert_error("line 4: status=pass must have code=0, not 1");

	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..0", "ringlab: 0 passed, 0 failed, 0 skipped",
		"# exit: status=great code=0")), 0);
	assert_nerrors(1);
	assert_error("line 4: unknown exit status 'great'");

	/* missing */
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..0", "ringlab: 0 passed, 0 failed, 0 skipped")), 0);
	assert_nerrors(1);
	assert_false(R.has_exit);
	assert_error("no exit line");

	/* config-error needs the error that caused it */
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..0", "ringlab: 0 passed, 0 failed, 0 skipped",
		"# exit: status=config-error code=2")), 0);
	assert_nerrors(1);
	assert_error("status=config-error but there is no '# error:' line");
	assert_valid(check_lines(LINES(
		"KTAP version 1", "# error: cmdline: unknown option 'foo=1'", "1..0",
		"ringlab: 0 passed, 0 failed, 0 skipped",
		"# exit: status=config-error code=2")));
	assert_string_equal(R.status, "config-error");
	assert_int_equal(R.code, 2);
}

void test_lines_after_exit(void **state)
{
	(void)state;
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..0", "ringlab: 0 passed, 0 failed, 0 skipped",
		"# exit: status=pass code=0", "# late", "# later")), 0);
	assert_nerrors(1);
	assert_error("line 5: text after the exit line (line 4)");
}

/* -------------------------------------------------------------- panic --- */

#define PANIC_LOG(status)						\
	LINES("KTAP version 1", "1..3",					\
	      "    KTAP version 1", "    # Subtest: a", "    1..1",	\
	      "    not ok 1 x # bad", "not ok 1 a",			\
	      "    KTAP version 1", "    # Subtest: b", "    1..4",	\
	      "    ok 1 y", "    # fault in y's teardown",		\
	      "ringlab: PANIC: #PF at 0xdead while reporting #GP",	\
	      "# rip=0xffffffff80001234",				\
	      "# exit: status=" status)

void test_panic_open_suite(void **state)
{
	(void)state;
	/* Open suite, short top level, no summary: fine after a PANIC. */
	assert_valid(check_lines(PANIC_LOG("panic code=3")));
	assert_true(R.panic);
	assert_false(R.has_summary);
	assert_int_equal(R.suites, 1);
	assert_int_equal(R.cases, 2);
	assert_int_equal(R.failed, 1);
	assert_string_equal(R.status, "panic");
	assert_int_equal(R.code, 3);

	/* The same log with any other status is wrong. */
	assert_int_not_equal(check_lines(PANIC_LOG("fail code=1")), 0);
	assert_nerrors(1);
	assert_error("line 15: status=fail but the run panicked (line 13)");

	/* Without the PANIC line, the open suite and the missing summary
	 * count, and status=panic is wrong. */
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: b", "    1..4", "    ok 1 y",
		"# exit: status=panic code=3")), 0);
	assert_nerrors(4);
	assert_error("line 8: suite 'b' (started line 3) has no result line: the log ends");
	assert_error("line 8: the top level plans 1 results (line 2) but has 0");
	assert_error("no summary line");
	assert_error("line 7: status=panic but there is no 'ringlab: PANIC:' line");
}

void test_panic_still_checks_what_was_printed(void **state)
{
	(void)state;
	/* More results than planned, a gap, and a summary that disagrees are
	 * errors even after a PANIC. */
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: b", "    1..1",
		"    ok 1 y", "    ok 3 z",
		"ringlab: PANIC: double fault",
		"ringlab: 1 passed, 0 failed, 0 skipped",
		"# exit: status=panic code=3")), 0);
	assert_nerrors(3);
	assert_error("line 7: result number 3, expected 2");
	assert_error("line 11: suite 'b' plans 1 results (line 5) but has 2");
	assert_error("line 9: summary says 1 passed, 0 failed, 0 skipped but the case results are 2 passed");

	/* A panic during boot, before the plan. */
	assert_valid(check_lines(LINES(
		"KTAP version 1", "# id.version: x", "ringlab: PANIC: no memory map",
		"# exit: status=panic code=3")));
	assert_int_equal(R.suites, 0);
}

/* ------------------------------------------------------------ results --- */

void test_timeout_counts_failed(void **state)
{
	(void)state;
	assert_valid(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: a", "    1..2",
		"    ok 1 x", "    not ok 2 slow # TIMEOUT over 100 ms budget",
		"not ok 1 a",
		"ringlab: 1 passed, 1 failed, 0 skipped",
		"# exit: status=fail code=1")));
	assert_int_equal(R.failed, 1);
	assert_int_equal(R.timeouts, 1);
	assert_int_equal(R.passed, 1);

	/* TIMEOUT on an ok line makes no sense. */
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: a", "    1..1",
		"    ok 1 slow # TIMEOUT", "ok 1 a",
		"ringlab: 1 passed, 0 failed, 0 skipped",
		"# exit: status=pass code=0")), 0);
	assert_nerrors(1);
	assert_error("line 6: 'ok' result with a comment other than '# SKIP'");
}

void test_skip_counts_skipped(void **state)
{
	(void)state;
	assert_valid(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: a", "    1..3",
		"    ok 1 x # SKIP no x2apic", "    ok 2 y", "    ok 3 z # SKIP",
		"ok 1 a",
		"ringlab: 1 passed, 0 failed, 2 skipped",
		"# exit: status=pass code=0")));
	assert_int_equal(R.skipped, 2);
	assert_int_equal(R.passed, 1);
	assert_int_equal(R.cases, 3);
}

void test_not_ok_skip_is_error(void **state)
{
	(void)state;
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: a", "    1..1",
		"    not ok 1 x # SKIP confused", "not ok 1 a",
		"ringlab: 0 passed, 1 failed, 0 skipped",
		"# exit: status=fail code=1")), 0);
	assert_nerrors(1);
	assert_error("line 6: 'not ok' with '# SKIP'");
	/* It is still a failure for the counts. */
	assert_int_equal(R.failed, 1);
	assert_int_equal(R.skipped, 0);
}

void test_malformed_results(void **state)
{
	(void)state;
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: a", "    1..1",
		"    ok x", "    ok 01 x", "    ok 1", "    ok 1 two words",
		"    ok 1 x #SKIP", "    ok 1 x",
		"ok 1 a",
		"ringlab: 1 passed, 0 failed, 0 skipped",
		"# exit: status=pass code=0")), 0);
	assert_nerrors(5);
	assert_error("line 6: malformed result line 'ok x'");
	assert_error("line 7: malformed result line 'ok 01 x': result number is not a decimal number >= 1");
	assert_error("line 8: malformed result line 'ok 1': result has no name");
	assert_error("line 9: malformed result line 'ok 1 two words': result name contains a space");
	assert_error("line 10: malformed result line 'ok 1 x #SKIP'");
}

/* ------------------------------------------------------ other lines --- */

void test_id_and_unknown_hash_lines(void **state)
{
	(void)state;
	assert_valid(check_lines(LINES(
		"KTAP version 1",
		"# id.version: v1-dirty",
		"# id.some.future.key: anything: at all # really",
		"# id.cmdline: exit=qemu suites=a",
		"# warning: acpi: MADT checksum wrong",
		"# error: cpu: AP 3 did not start",
		"# just talking",
		"#",
		"1..1",
		"    KTAP version 1", "    # Subtest: a",
		"    # a diagnostic before the plan", "    1..1",
		"    # about x", "# an interrupt handler at column 0", "    ok 1 x",
		"ok 1 a",
		"# after the suites",
		"ringlab: 1 passed, 0 failed, 0 skipped",
		"# exit: status=pass code=0")));
	assert_int_equal(R.cases, 1);
}

void test_unrecognised_and_indentation(void **state)
{
	(void)state;
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "hello there", "1..1",
		"    KTAP version 1", "    # Subtest: a", "    1..1",
		"  # two spaces", "\t# tab", "", "        # deeper than any suite",
		"    ok 1 x", "ok 1 a",
		"ringlab: 1 passed, 0 failed, 0 skipped",
		"# exit: status=pass code=0")), 0);
	assert_nerrors(5);
	assert_error("line 2: unrecognised line 'hello there'");
	assert_error("line 7: indented by 2 spaces, not a multiple of 4");
	assert_error("line 8: unrecognised line '?# tab'");
	assert_error("line 9: empty line");
	assert_error("line 10: '#' line indented deeper than any open suite");
}

/* Found by fuzz_logcheck: a plan indented deeper than the checker's
 * nesting limit indexed past its node array (UBSan: index 27 out of
 * bounds for 'struct node[8]').  Now one clean error line. */
void test_plan_deeper_than_nesting_limit(void **state)
{
	static char deep[128];

	(void)state;
	memset(deep, ' ', 108);
	memcpy(deep + 108, "1..1", 5);
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: a", "    1..1",
		deep,
		"    ok 1 x", "ok 1 a",
		"ringlab: 1 passed, 0 failed, 0 skipped",
		"# exit: status=pass code=0")), 0);
	assert_error("line 6: plan at indentation level 27 while the open level is 1");
}

void test_nested_subtests(void **state)
{
	(void)state;
	/* Level 2 is checked like a suite but its results are not cases. */
	assert_valid(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: a", "    1..2",
		"        KTAP version 1", "        # Subtest: param", "        1..2",
		"        ok 1 p0", "        ok 2 p1",
		"    ok 1 param",
		"    ok 2 y",
		"ok 1 a",
		"ringlab: 2 passed, 0 failed, 0 skipped",
		"# exit: status=pass code=0")));
	assert_int_equal(R.cases, 2);

	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..1",
		"    KTAP version 1", "    # Subtest: a", "    1..1",
		"        KTAP version 1", "        # Subtest: param", "        1..1",
		"        not ok 1 p0",
		"    ok 1 param",
		"not ok 1 a",
		"ringlab: 1 passed, 0 failed, 0 skipped",
		"# exit: status=pass code=0")), 0);
	assert_nerrors(2);
	assert_error("line 10: suite 'param' is 'ok' but 1 of its results failed");
	assert_error("line 11: suite 'a' is 'not ok' but none of its 1 results failed");
}

void test_suite_without_result(void **state)
{
	(void)state;
	assert_int_not_equal(check_lines(LINES(
		"KTAP version 1", "1..2",
		"    KTAP version 1", "    # Subtest: a", "    1..1", "    ok 1 x",
		"    KTAP version 1", "    # Subtest: b", "    1..1", "    ok 1 y",
		"ok 1 b",
		"ringlab: 2 passed, 0 failed, 0 skipped",
		"# exit: status=pass code=0")), 0);
	assert_error("line 7: suite 'a' (started line 3) has no result line: a new suite starts");
	assert_error("line 14: the top level plans 2 results (line 2) but has 1");
}
