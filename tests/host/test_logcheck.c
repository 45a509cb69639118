/* Unit tests for the log checker (tools/logcheck_lib.c).  Logs are built in
 * memory line by line; the builder appends a correct integrity line so a
 * test can start from a valid log and then break exactly one thing. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

#include "lib/crc32.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "tools/logcheck.h"

/* ------------------------------------------------------------ builder --- */

struct logbuf {
	char *p;
	size_t n, cap;
	const char *eol;        /* what each appended line ends with */
	size_t lines;           /* lines since the last start line */
	uint32_t crc;           /* CRC of those lines, each + "\n" */
};

static void lb_init(struct logbuf *b, const char *eol)
{
	b->cap = 1 << 12;
	b->p = malloc(b->cap);
	assert_non_null(b->p);
	b->n = 0;
	b->eol = eol;
	b->lines = 0;
	b->crc = 0;
}

static void lb_free(struct logbuf *b)
{
	free(b->p);
	b->p = NULL;
}

static void lb_raw(struct logbuf *b, const void *data, size_t n)
{
	while (b->n + n > b->cap) {
		b->cap *= 2;
		b->p = realloc(b->p, b->cap);
		assert_non_null(b->p);
	}
	memcpy(b->p + b->n, data, n);
	b->n += n;
}

/* One log line: a start line resets the integrity count, as the checker
 * judges the last run. */
static void lb_line(struct logbuf *b, const char *line)
{
	size_t n = strlen(line);

	if (strcmp(line, "KTAP version 1") == 0) {
		b->lines = 0;
		b->crc = 0;
	}
	lb_raw(b, line, n);
	lb_raw(b, b->eol, strlen(b->eol));
	b->crc = crc32_update(b->crc, line, n);
	b->crc = crc32_update(b->crc, "\n", 1);
	b->lines++;
}

static void lb_lines(struct logbuf *b, const char *const *lines)
{
	for (; *lines; lines++)
		lb_line(b, *lines);
}

static void lb_seal(struct logbuf *b)
{
	char line[80];

	rl_snprintf(line, sizeof(line), "# integrity: lines=%zu crc32=%08x",
		    b->lines, (unsigned)b->crc);
	lb_raw(b, line, strlen(line));
	lb_raw(b, b->eol, strlen(b->eol));
}

/* Replace the first occurrence of `from` by `to` in the built text (after
 * sealing, so the integrity line no longer matches unless the edit is in
 * it). */
static void lb_edit(struct logbuf *b, const char *from, const char *to)
{
	size_t fl = strlen(from), tl = strlen(to);
	char *hit = NULL;

	for (size_t i = 0; i + fl <= b->n; i++)
		if (memcmp(b->p + i, from, fl) == 0) {
			hit = b->p + i;
			break;
		}
	assert_non_null(hit);
	size_t off = (size_t)(hit - b->p), tail = b->n - off - fl;

	while (b->n + tl > b->cap) {
		b->cap *= 2;
		b->p = realloc(b->p, b->cap);
		assert_non_null(b->p);
	}
	memmove(b->p + off + tl, b->p + off + fl, tail);
	memcpy(b->p + off, to, tl);
	b->n = b->n - fl + tl;
}

#define LINES(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* A valid two-suite log; tests use it as the base to break. */
#define GOOD_LOG LINES(					\
	"KTAP version 1",				\
	"# id.version: test",				\
	"1..2",						\
	"    KTAP version 1",				\
	"    # Subtest: alpha",				\
	"    1..2",					\
	"    ok 1 one",					\
	"    ok 2 two",					\
	"ok 1 alpha",					\
	"    KTAP version 1",				\
	"    # Subtest: beta",				\
	"    1..1",					\
	"    ok 1 three",				\
	"ok 2 beta",					\
	"ringlab: 3 passed, 0 failed, 0 skipped",	\
	"# exit: status=pass code=0")

static struct logcheck_result R;

static int check_opts(struct logbuf *b, const struct logcheck_opts *o)
{
	return logcheck_buffer_opts(b->p, b->n, o, &R);
}

static int check(struct logbuf *b)
{
	return check_opts(b, NULL);
}

/* Build, seal and check a log from lines. */
static int check_lines(const char *const *lines)
{
	struct logbuf b;

	lb_init(&b, "\n");
	lb_lines(&b, lines);
	lb_seal(&b);
	int rc = check(&b);

	lb_free(&b);
	return rc;
}

static void dump_errors(void)
{
	size_t n = R.nerrors < LOGCHECK_MAX_ERRORS ? R.nerrors : LOGCHECK_MAX_ERRORS;

	for (size_t i = 0; i < n; i++)
		print_message("  error: %s\n", R.errors[i]);
}

static bool has_error(const char *sub)
{
	size_t n = R.nerrors < LOGCHECK_MAX_ERRORS ? R.nerrors : LOGCHECK_MAX_ERRORS;

	for (size_t i = 0; i < n; i++)
		if (strstr(R.errors[i], sub))
			return true;
	return false;
}

#define assert_error(sub)						\
	do {								\
		if (!has_error(sub)) {					\
			print_message("missing error '%s'; got:\n", sub); \
			dump_errors();					\
			fail();						\
		}							\
	} while (0)

#define assert_valid(rc)						\
	do {								\
		if ((rc) != 0 || R.nerrors != 0) {			\
			dump_errors();					\
			fail_msg("log unexpectedly rejected");		\
		}							\
	} while (0)

#define assert_nerrors(k)						\
	do {								\
		if (R.nerrors != (k)) {					\
			print_message("expected %d errors, got %zu:\n",	\
				      (int)(k), R.nerrors);		\
			dump_errors();					\
			fail();						\
		}							\
	} while (0)

/* -------------------------------------------------------- valid logs --- */

static void test_valid_minimal(void **state)
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

static void test_valid_empty_run(void **state)
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
static void test_valid_format_example(void **state)
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

static void test_firmware_junk_before_start(void **state)
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

static void test_second_run_is_judged(void **state)
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

static void test_second_run_truncated_fails(void **state)
{
	struct logbuf b;

	(void)state;
	lb_init(&b, "\n");
	lb_lines(&b, GOOD_LOG);
	lb_seal(&b);
	/* A later run that stopped after its plan: it is the one judged. */
	lb_lines(&b, LINES("KTAP version 1", "1..2"));
	check(&b);
	assert_int_equal(R.runs, 2);
	assert_int_equal(R.start_line, 18);
	assert_false(R.has_integrity);
	assert_error("no '# integrity:' line after the start line (line 18)");
	assert_error("line 19: the top level plans 2 results (line 19) but has 0");
	lb_free(&b);
}

static void test_crlf_and_doubled_cr(void **state)
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

static void test_no_final_newline_and_blank_tail(void **state)
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

static void test_missing_integrity(void **state)
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

static void test_wrong_crc(void **state)
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

static void test_wrong_line_count(void **state)
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

static void test_malformed_integrity(void **state)
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

static void test_truncated(void **state)
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

static void test_text_after_integrity(void **state)
{
	struct logbuf b;

	(void)state;
	lb_init(&b, "\n");
	lb_lines(&b, GOOD_LOG);
	lb_seal(&b);
	lb_raw(&b, "\n# late AP output\nmore\n", 23);
	assert_int_not_equal(check(&b), 0);
	assert_nerrors(1);
	assert_error("line 19: 2 non-empty line(s) after the integrity line");
	lb_free(&b);
}

static void test_no_start_line(void **state)
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

/* ---------------------------------------------------------- structure --- */

static void test_top_plan_mismatch(void **state)
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

static void test_suite_plan_mismatch(void **state)
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

static void test_numbering_gap(void **state)
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

static void test_suite_ok_but_case_failed(void **state)
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

static void test_suite_skip_rules(void **state)
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

static void test_suite_name_and_subtest_line(void **state)
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

static void test_summary_disagrees(void **state)
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

static void test_exit_status_disagrees(void **state)
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

static void test_lines_after_exit(void **state)
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

static void test_panic_open_suite(void **state)
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

static void test_panic_still_checks_what_was_printed(void **state)
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

static void test_timeout_counts_failed(void **state)
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

static void test_skip_counts_skipped(void **state)
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

static void test_not_ok_skip_is_error(void **state)
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

static void test_malformed_results(void **state)
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

static void test_id_and_unknown_hash_lines(void **state)
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

static void test_unrecognised_and_indentation(void **state)
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
static void test_plan_deeper_than_nesting_limit(void **state)
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

static void test_nested_subtests(void **state)
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

static void test_suite_without_result(void **state)
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

/* ------------------------------------------------------------ metrics --- */

static bool metric_ok(const char *line, char *err, size_t errsz)
{
	return logcheck_metric_line(line, strlen(line), err, errsz);
}

static void test_metric_grammar_good(void **state)
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

static void test_metric_grammar_bad(void **state)
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

static void test_metrics_in_log(void **state)
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

static void test_options(void **state)
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

static void test_huge_lines(void **state)
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

static void test_many_errors_capped(void **state)
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

static void test_nul_and_escapes_in_messages(void **state)
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

static void test_config_error_result(void **state)
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

static void test_panic_closes_case_and_suite(void **state)
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

static void test_metric_names_unique(void **state)
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
static void test_flat_results(void **state)
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
static void test_time_lines(void **state)
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

static void test_time_events(void **state)
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

static void test_events(void **state)
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

static void test_answers_good(void **state)
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

static void test_answers_absent(void **state)
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

static void test_answers_missing_and_duplicate_key(void **state)
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

static void test_answers_from_control_env(void **state)
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
	assert_error("answer 'litmus': control='maybe', expected fired, not-observed or none");
	assert_nerrors(1);

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

static void test_answers_malformed_and_placement(void **state)
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_minimal),
		cmocka_unit_test(test_valid_empty_run),
		cmocka_unit_test(test_valid_format_example),
		cmocka_unit_test(test_firmware_junk_before_start),
		cmocka_unit_test(test_second_run_is_judged),
		cmocka_unit_test(test_second_run_truncated_fails),
		cmocka_unit_test(test_crlf_and_doubled_cr),
		cmocka_unit_test(test_no_final_newline_and_blank_tail),
		cmocka_unit_test(test_missing_integrity),
		cmocka_unit_test(test_wrong_crc),
		cmocka_unit_test(test_wrong_line_count),
		cmocka_unit_test(test_malformed_integrity),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_text_after_integrity),
		cmocka_unit_test(test_no_start_line),
		cmocka_unit_test(test_top_plan_mismatch),
		cmocka_unit_test(test_suite_plan_mismatch),
		cmocka_unit_test(test_numbering_gap),
		cmocka_unit_test(test_suite_ok_but_case_failed),
		cmocka_unit_test(test_suite_skip_rules),
		cmocka_unit_test(test_suite_name_and_subtest_line),
		cmocka_unit_test(test_summary_disagrees),
		cmocka_unit_test(test_exit_status_disagrees),
		cmocka_unit_test(test_lines_after_exit),
		cmocka_unit_test(test_panic_open_suite),
		cmocka_unit_test(test_panic_still_checks_what_was_printed),
		cmocka_unit_test(test_timeout_counts_failed),
		cmocka_unit_test(test_skip_counts_skipped),
		cmocka_unit_test(test_not_ok_skip_is_error),
		cmocka_unit_test(test_malformed_results),
		cmocka_unit_test(test_id_and_unknown_hash_lines),
		cmocka_unit_test(test_unrecognised_and_indentation),
		cmocka_unit_test(test_nested_subtests),
		cmocka_unit_test(test_suite_without_result),
		cmocka_unit_test(test_metric_grammar_good),
		cmocka_unit_test(test_metric_grammar_bad),
		cmocka_unit_test(test_metrics_in_log),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_huge_lines),
		cmocka_unit_test(test_many_errors_capped),
		cmocka_unit_test(test_nul_and_escapes_in_messages),
		cmocka_unit_test(test_config_error_result),
		cmocka_unit_test(test_panic_closes_case_and_suite),
		cmocka_unit_test(test_metric_names_unique),
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_flat_results),
		cmocka_unit_test(test_time_lines),
		cmocka_unit_test(test_time_events),
		cmocka_unit_test(test_plan_deeper_than_nesting_limit),
		cmocka_unit_test(test_answers_good),
		cmocka_unit_test(test_answers_absent),
		cmocka_unit_test(test_answers_missing_and_duplicate_key),
		cmocka_unit_test(test_answers_from_control_env),
		cmocka_unit_test(test_answers_malformed_and_placement),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
