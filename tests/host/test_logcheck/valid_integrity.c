/* SPDX-License-Identifier: GPL-2.0-only */
/* Log checker unit tests: valid logs (line endings, firmware noise,
 * repeated runs) and the integrity line. */
#include "tests/host/test_logcheck/logcheck_test.h"

/* -------------------------------------------------------- valid logs --- */

void test_valid_minimal(void **state)
{
	(void)state;
	assert_valid(check_lines(GOOD_LOG));
	assert_int_equal(R.start_line, 1);
	assert_int_equal(R.runs, 1);
	assert_int_equal(R.suites, 2);
	assert_int_equal(R.cases, 3);
	assert_int_equal(R.passed, 3);
	assert_int_equal(R.failed, 0);
	assert_int_equal(R.skipped, 0);
	assert_true(R.has_summary);
	assert_int_equal(R.sum_passed, 3);
	assert_true(R.has_exit);
	assert_string_equal(R.status, "pass");
	assert_int_equal(R.code, 0);
	assert_false(R.panic);
	assert_true(R.has_integrity);
	assert_true(R.integrity_ok);
	assert_int_equal(R.lines_expected, 16);
	assert_int_equal(R.lines_computed, 16);
	assert_int_equal(R.crc_expected, R.crc_computed);
}

void test_valid_empty_run(void **state)
{
	(void)state;
	assert_valid(check_lines(LINES("KTAP version 1", "1..0",
				       "ringlab: 0 passed, 0 failed, 0 skipped",
				       "# exit: status=pass code=0")));
	assert_int_equal(R.suites, 0);
	assert_int_equal(R.cases, 0);
	assert_int_equal(R.lines_computed, 4);
}

/* The example of docs/log-format.md, with its summary corrected to the
 * counts of its results (3 passed) and the placeholder line left out. */
void test_valid_format_example(void **state)
{
	(void)state;
	assert_valid(check_lines(LINES(
		"KTAP version 1",
		"# id.version: v0.3-2-g1a2b3c4",
		"# id.boot: QEMU -kernel",
		"1..3",
		"    KTAP version 1",
		"    # Subtest: boot",
		"    1..2",
		"    ok 1 mmap_sane",
		"    # metric boot.identity_map.checked value=4120 unit=pages",
		"    ok 2 identity_map",
		"ok 1 boot",
		"    KTAP version 1",
		"    # Subtest: fault",
		"    1..2",
		"    ok 1 ud",
		"    not ok 2 gp_msr # expected #GP(0), got no fault",
		"not ok 2 fault",
		"    KTAP version 1",
		"    # Subtest: tscdeadline",
		"    1..1",
		"    ok 1 latency_hlt # SKIP CPU lacks TSC-deadline (CPUID.1:ECX[24])",
		"ok 3 tscdeadline # SKIP all cases skipped",
		"ringlab: 3 passed, 1 failed, 1 skipped",
		"# exit: status=fail code=1")));
	assert_int_equal(R.suites, 3);
	assert_int_equal(R.cases, 5);
	assert_int_equal(R.passed, 3);
	assert_int_equal(R.failed, 1);
	assert_int_equal(R.skipped, 1);
	assert_int_equal(R.metrics, 1);
	assert_string_equal(R.status, "fail");
	assert_int_equal(R.code, 1);
}

void test_firmware_junk_before_start(void **state)
{
	struct logbuf b;
	static const char junk[] =
		"\x1b[2J\x1b[01;01HBdsDxe: loading Boot0001\r\n"
		"SeaBIOS (version 1.16)\0\0\xff\r\n"
		"Booting from ROM...   KTAP version 1\r\n"  /* not at column 0 */
		" KTAP version 1\r\n"                        /* not at column 0 */
		"GRUB partial line without end";

	(void)state;
	lb_init(&b, "\r\n");
	lb_raw(&b, junk, sizeof(junk) - 1);
	lb_raw(&b, "\r\n", 2);          /* the kernel's \r\n before the start */
	lb_lines(&b, GOOD_LOG);
	lb_seal(&b);
	assert_valid(check(&b));
	assert_int_equal(R.start_line, 6);
	assert_int_equal(R.runs, 1);
	assert_int_equal(R.cases, 3);
	assert_int_equal(R.lines_computed, 16);
	lb_free(&b);
}

void test_second_run_is_judged(void **state)
{
	struct logbuf b;

	(void)state;
	lb_init(&b, "\r\n");
	/* A complete first run with a failure, then a reboot. */
	lb_lines(&b, LINES("KTAP version 1", "1..1",
			   "    KTAP version 1", "    # Subtest: s", "    1..1",
			   "    not ok 1 c # broke", "not ok 1 s",
			   "ringlab: 0 passed, 1 failed, 0 skipped",
			   "# exit: status=fail code=1"));
	lb_seal(&b);
	lb_raw(&b, "reboot junk\r\n", 13);
	lb_lines(&b, GOOD_LOG);
	lb_seal(&b);
	assert_valid(check(&b));
	assert_int_equal(R.runs, 2);
	assert_int_equal(R.start_line, 12);
	assert_int_equal(R.cases, 3);
	assert_int_equal(R.failed, 0);
	assert_string_equal(R.status, "pass");
	lb_free(&b);
}

void test_second_run_truncated_fails(void **state)
{
	struct logbuf b;

	(void)state;
	lb_init(&b, "\n");
	lb_lines(&b, GOOD_LOG);
	lb_seal(&b);
	/* A later run that stopped after its plan: the complete run before
	 * it is judged, and a warning names the incomplete one (docs/log-format.md,
	 * "Several runs in one file"); --all-runs makes it an error. */
	lb_lines(&b, LINES("KTAP version 1", "1..2"));
	assert_valid(check(&b));
	assert_int_equal(R.runs, 2);
	assert_int_equal(R.judged, 1);
	assert_int_equal(R.complete_runs, 1);
	assert_int_equal(R.start_line, 1);
	assert_true(R.has_integrity);
	assert_int_equal(R.others_not_passed, 1);
	assert_note(true, "later run 2 of 2 (lines 18-19) did not pass: incomplete");
	assert_string_equal(R.run[1].verdict, "incomplete");
	assert_false(R.run[1].complete);

	struct logcheck_opts o = { .qemu_exit = -1, .min_cases = -1, .all_runs = true };

	assert_int_not_equal(check_opts(&b, &o), 0);
	assert_nerrors(1);
	assert_error("line 18: --all-runs: run 2 of 2 did not pass: incomplete");
	lb_free(&b);

	/* No run is complete: the last is judged, as truncated. */
	lb_init(&b, "\n");
	lb_lines(&b, GOOD_LOG);
	lb_lines(&b, LINES("KTAP version 1", "1..2"));
	check(&b);
	assert_int_equal(R.runs, 2);
	assert_int_equal(R.judged, 2);
	assert_int_equal(R.start_line, 17);
	assert_false(R.has_integrity);
	assert_error("no '# integrity:' line after the start line (line 17)");
	assert_error("line 18: the top level plans 2 results (line 18) but has 0");
	assert_note(false, "none is complete");
	lb_free(&b);
}

void test_crlf_and_doubled_cr(void **state)
{
	struct logbuf b;

	(void)state;
	lb_init(&b, "\r\n");
	lb_lines(&b, GOOD_LOG);
	lb_seal(&b);
	assert_valid(check(&b));
	assert_int_equal(R.lines_computed, 16);
	lb_free(&b);

	/* A tty with onlcr turns \r\n into \r\r\n; the CRC is the same. */
	lb_init(&b, "\r\r\n");
	lb_lines(&b, GOOD_LOG);
	lb_seal(&b);
	assert_valid(check(&b));
	lb_free(&b);
}

void test_no_final_newline_and_blank_tail(void **state)
{
	struct logbuf b;

	(void)state;
	lb_init(&b, "\n");
	lb_lines(&b, GOOD_LOG);
	lb_seal(&b);
	b.n--;                          /* drop the last '\n' */
	assert_valid(check(&b));
	lb_raw(&b, "\n\r\n\n", 4);      /* blank lines after the end are fine */
	assert_valid(check(&b));
	lb_free(&b);
}

/* ---------------------------------------------------------- integrity --- */

void test_missing_integrity(void **state)
{
	struct logbuf b;

	(void)state;
	lb_init(&b, "\n");
	lb_lines(&b, GOOD_LOG);
	assert_int_not_equal(check(&b), 0);
	assert_false(R.has_integrity);
	assert_false(R.integrity_ok);
	assert_int_equal(R.lines_computed, 16);
	/* Everything else is in order, so that is the only complaint. */
	assert_nerrors(1);
	assert_error("no '# integrity:' line after the start line (line 1): the log is truncated");
	lb_free(&b);
}

void test_wrong_crc(void **state)
{
	struct logbuf b;

	(void)state;
	lb_init(&b, "\n");
	lb_lines(&b, GOOD_LOG);
	lb_seal(&b);
	lb_edit(&b, "# id.version: test", "# id.version: tesu");    /* 1 byte */
	assert_int_not_equal(check(&b), 0);
	assert_true(R.has_integrity);
	assert_false(R.integrity_ok);
	assert_int_equal(R.lines_expected, R.lines_computed);
	assert_int_not_equal(R.crc_expected, R.crc_computed);
	assert_nerrors(1);
	assert_error("line 17: integrity: crc32=");
	assert_error(": corrupted");
	lb_free(&b);
}

void test_wrong_line_count(void **state)
{
	struct logbuf b;

	(void)state;
	/* The count in the line is off by one: only that is wrong. */
	lb_init(&b, "\n");
	lb_lines(&b, GOOD_LOG);
	lb_seal(&b);
	lb_edit(&b, "lines=16", "lines=17");
	assert_int_not_equal(check(&b), 0);
	assert_int_equal(R.lines_expected, 17);
	assert_int_equal(R.lines_computed, 16);
	assert_nerrors(1);
	assert_error("line 17: integrity: lines=17 but the run has 16 lines before it (from line 1)");
	lb_free(&b);

	/* A diagnostic line lost in transit: count and CRC both differ. */
	lb_init(&b, "\n");
	lb_lines(&b, GOOD_LOG);
	lb_seal(&b);
	lb_edit(&b, "# id.version: test\n", "");
	assert_int_not_equal(check(&b), 0);
	assert_nerrors(2);
	assert_error("line 16: integrity: lines=16 but the run has 15 lines");
	assert_error("line 16: integrity: crc32=");
	lb_free(&b);
}

void test_malformed_integrity(void **state)
{
	struct logbuf b;

	(void)state;
	lb_init(&b, "\n");
	lb_lines(&b, GOOD_LOG);
	lb_seal(&b);
	lb_edit(&b, "crc32=", "crc32=0x");      /* 10 characters, not 8 */
	assert_int_not_equal(check(&b), 0);
	assert_false(R.has_integrity);
	assert_nerrors(1);
	assert_error("line 17: malformed integrity line '# integrity: lines=16 crc32=0x");
	lb_free(&b);

	/* Upper-case hex is not the format either. */
	lb_init(&b, "\n");
	lb_lines(&b, GOOD_LOG);
	char line[64];

	rl_snprintf(line, sizeof(line), "# integrity: lines=16 crc32=%08X\n", (unsigned)b.crc);
	lb_raw(&b, line, strlen(line));
	int rc = check(&b);

	if (strpbrk(line + 28, "ABCDEF")) {
		assert_int_not_equal(rc, 0);
		assert_error("line 17: malformed integrity line");
	} else {
		assert_valid(rc);       /* all digits: upper and lower agree */
	}
	lb_free(&b);
}

void test_truncated(void **state)
{
	struct logbuf b;

	(void)state;
	lb_init(&b, "\r\n");
	lb_lines(&b, GOOD_LOG);
	lb_seal(&b);
	/* Cut in the middle of line 11, "    # Subtest: beta". */
	char *cut = strstr(b.p, "# Subtest: beta");

	assert_non_null(cut);
	b.n = (size_t)(cut - b.p) + 5;
	assert_int_not_equal(check(&b), 0);
	assert_int_equal(R.cases, 2);
	assert_int_equal(R.suites, 1);
	assert_int_equal(R.lines_computed, 11);
	assert_false(R.has_summary);
	assert_false(R.has_exit);
	assert_error("no '# integrity:' line after the start line (line 1): the log is truncated");
	assert_error("line 11: suite '(unnamed)' (started line 10) has no result line: the log ends");
	assert_error("line 11: the top level plans 2 results (line 3) but has 1");
	assert_error("no summary line");
	assert_error("no exit line");
	lb_free(&b);

	/* Cut inside the integrity line itself. */
	lb_init(&b, "\n");
	lb_lines(&b, GOOD_LOG);
	lb_seal(&b);
	b.n -= 6;
	assert_int_not_equal(check(&b), 0);
	assert_nerrors(1);
	assert_error("line 17: malformed integrity line '# integrity: lines=16 crc32=");
	lb_free(&b);
}

void test_text_after_integrity(void **state)
{
	static const char tail[] = "\n# late AP output\nmore\n# integrity: lines=1 crc32=00000000\n";
	struct logbuf b;

	(void)state;
	/* Output after the integrity line that starts no new run (a BIOS
	 * banner after the reset, even one that looks like an integrity
	 * line) is not the run's: a note, not an error. */
	lb_init(&b, "\n");
	lb_lines(&b, GOOD_LOG);
	lb_seal(&b);
	lb_raw(&b, tail, sizeof(tail) - 1);
	assert_valid(check(&b));
	assert_int_equal(R.trailing_lines, 3);
	assert_int_equal(R.trailing_first, 19);
	assert_int_equal(R.end_line, 17);
	assert_true(R.integrity_ok);
	assert_note(false, "3 non-empty line(s) after the integrity line (line 17) start no new run: ignored (from line 19)");
	lb_free(&b);
}

void test_no_start_line(void **state)
{
	struct logbuf b;

	(void)state;
	assert_int_not_equal(logcheck_buffer(NULL, 0, &R), 0);
	assert_int_equal(R.start_line, 0);
	assert_error("no 'KTAP version 1' line at column 0");

	lb_init(&b, "\n");
	lb_lines(&b, LINES("KTAP version 2", "    KTAP version 1", "1..0"));
	assert_int_not_equal(check(&b), 0);
	assert_nerrors(1);
	assert_error("no 'KTAP version 1' line at column 0");
	lb_free(&b);
}
