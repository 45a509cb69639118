/* SPDX-License-Identifier: GPL-2.0-only */
/* Log checker unit tests: the verdict and exit status every host tool
 * gives a run (tools/liblogcheck/verdict.c; docs/usage.md, "Exit
 * status"): the exit line's status, skip when every case skipped,
 * incomplete or broken when the check fails, 1 under --all-runs for a
 * passing run beside one that did not pass. */
#include "tests/host/test_logcheck/logcheck_test.h"

/* Every case skipped: the suite is SKIP, the exit line says pass. */
#define SKIP_LOG LINES(						\
	"KTAP version 1", "1..1",				\
	"    KTAP version 1", "    # Subtest: s", "    1..2",	\
	"    ok 1 a # SKIP CPU lacks it",			\
	"    ok 2 b # SKIP CPU lacks it",			\
	"ok 1 s # SKIP all cases skipped",			\
	"ringlab: 0 passed, 0 failed, 2 skipped",		\
	"# exit: status=pass code=0")

#define FAIL_ONE LINES(						\
	"KTAP version 1", "1..1",				\
	"    KTAP version 1", "    # Subtest: s", "    1..1",	\
	"    not ok 1 c # broke", "not ok 1 s",			\
	"ringlab: 0 passed, 1 failed, 0 skipped",		\
	"# exit: status=fail code=1")

static void expect(struct logbuf *b, const struct logcheck_opts *o, const char *verdict, int code)
{
	if (o)
		check_opts(b, o);
	else
		check(b);
	assert_string_equal(logcheck_verdict(&R), verdict);
	assert_int_equal(logcheck_exit_code(&R), code);
}

void test_verdict_and_exit_code(void **state)
{
	static const struct logcheck_opts all_runs = {
		.qemu_exit = -1, .min_cases = -1, .all_runs = true,
	};
	struct logbuf b;

	(void)state;
	lb_init(&b, "\n");
	lb_lines(&b, GOOD_LOG);
	lb_seal(&b);
	expect(&b, NULL, "pass", 0);
	lb_free(&b);

	lb_init(&b, "\n");
	lb_lines(&b, FAIL_ONE);
	lb_seal(&b);
	expect(&b, NULL, "fail", 1);
	lb_free(&b);

	/* every case skipped: skip, kselftest's 4, though the line says pass */
	lb_init(&b, "\n");
	lb_lines(&b, SKIP_LOG);
	lb_seal(&b);
	expect(&b, NULL, "skip", LOGCHECK_EXIT_SKIP);
	assert_string_equal(R.status, "pass");
	lb_free(&b);

	/* no integrity line: incomplete; a wrong CRC: broken; both 125 */
	lb_init(&b, "\n");
	lb_lines(&b, GOOD_LOG);
	expect(&b, NULL, "incomplete", LOGCHECK_EXIT_BROKEN);
	lb_seal(&b);
	lb_edit(&b, "ok 1 three", "ok 1 thrEe");
	expect(&b, NULL, "broken", LOGCHECK_EXIT_BROKEN);
	lb_free(&b);

	/* --all-runs: a passing (or skipped) run beside a failed one is 1;
	 * without it, the judged run's own status */
	lb_init(&b, "\n");
	lb_lines(&b, FAIL_ONE);
	lb_seal(&b);
	lb_lines(&b, SKIP_LOG);
	lb_seal(&b);
	expect(&b, NULL, "skip", LOGCHECK_EXIT_SKIP);
	expect(&b, &all_runs, "skip", 1);
	lb_free(&b);

	/* an expectation that fails (QEMU's status against the exit line) is
	 * a broken log for the tools that judge runs */
	static const struct logcheck_opts qemu3 = { .qemu_exit = 3, .min_cases = -1 };

	lb_init(&b, "\n");
	lb_lines(&b, GOOD_LOG);
	lb_seal(&b);
	expect(&b, &qemu3, "broken", LOGCHECK_EXIT_BROKEN);
	lb_free(&b);
}
