/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the parts of the log checker's unit tests
 * (tests/host/test_logcheck.c has main()): the in-memory log builder, the
 * check wrappers, the assertions and the test cases. */
#ifndef RINGLAB_TESTS_HOST_TEST_LOGCHECK_LOGCHECK_TEST_H
#define RINGLAB_TESTS_HOST_TEST_LOGCHECK_LOGCHECK_TEST_H

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
#include "tools/liblogcheck/liblogcheck.h"

/* ------------------------------------------------------------ builder --- */

struct logbuf {
	char *p;
	size_t n, cap;
	const char *eol;        /* what each appended line ends with */
	size_t lines;           /* lines since the last start line */
	uint32_t crc;           /* CRC of those lines, each + "\n" */
};

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

#define assert_note(warn, sub)						\
	do {								\
		if (!has_note(warn, sub)) {				\
			print_message("missing %s '%s'\n",		\
				      (warn) ? "warning" : "note", sub); \
			dump_errors();					\
			fail();						\
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

/* builder.c */
void lb_init(struct logbuf *b, const char *eol);
void lb_free(struct logbuf *b);
void lb_raw(struct logbuf *b, const void *data, size_t n);
void lb_line(struct logbuf *b, const char *line);
void lb_lines(struct logbuf *b, const char *const *lines);
void lb_seal(struct logbuf *b);
void lb_edit(struct logbuf *b, const char *from, const char *to);
extern struct logcheck_result R;
int check_opts(struct logbuf *b, const struct logcheck_opts *o);
int check(struct logbuf *b);
int check_lines(const char *const *lines);
void dump_errors(void);
bool has_error(const char *sub);
bool has_note(bool warning, const char *sub);

/* the cases, in the order main() runs them */
void test_valid_minimal(void **state);
void test_valid_empty_run(void **state);
void test_valid_format_example(void **state);
void test_firmware_junk_before_start(void **state);
void test_second_run_is_judged(void **state);
void test_second_run_truncated_fails(void **state);
void test_crlf_and_doubled_cr(void **state);
void test_no_final_newline_and_blank_tail(void **state);
void test_missing_integrity(void **state);
void test_wrong_crc(void **state);
void test_wrong_line_count(void **state);
void test_malformed_integrity(void **state);
void test_truncated(void **state);
void test_text_after_integrity(void **state);
void test_no_start_line(void **state);
void test_top_plan_mismatch(void **state);
void test_suite_plan_mismatch(void **state);
void test_numbering_gap(void **state);
void test_suite_ok_but_case_failed(void **state);
void test_suite_skip_rules(void **state);
void test_suite_name_and_subtest_line(void **state);
void test_summary_disagrees(void **state);
void test_exit_status_disagrees(void **state);
void test_lines_after_exit(void **state);
void test_panic_open_suite(void **state);
void test_panic_still_checks_what_was_printed(void **state);
void test_timeout_counts_failed(void **state);
void test_skip_counts_skipped(void **state);
void test_not_ok_skip_is_error(void **state);
void test_malformed_results(void **state);
void test_id_and_unknown_hash_lines(void **state);
void test_unrecognised_and_indentation(void **state);
void test_nested_subtests(void **state);
void test_suite_without_result(void **state);
void test_metric_grammar_good(void **state);
void test_metric_grammar_bad(void **state);
void test_metrics_in_log(void **state);
void test_options(void **state);
void test_huge_lines(void **state);
void test_many_errors_capped(void **state);
void test_nul_and_escapes_in_messages(void **state);
void test_config_error_result(void **state);
void test_panic_closes_case_and_suite(void **state);
void test_metric_names_unique(void **state);
void test_events(void **state);
void test_flat_results(void **state);
void test_time_lines(void **state);
void test_time_events(void **state);
void test_plan_deeper_than_nesting_limit(void **state);
void test_answers_good(void **state);
void test_answers_absent(void **state);
void test_answers_missing_and_duplicate_key(void **state);
void test_answers_from_control_env(void **state);
void test_answers_malformed_and_placement(void **state);
void test_runs_fail_then_pass(void **state);
void test_runs_pass_then_fail(void **state);
void test_runs_two_passes(void **state);
void test_runs_pass_then_garbage(void **state);
void test_runs_many(void **state);
void test_protocol_text_mid_line(void **state);
void test_verdict_and_exit_code(void **state);

#endif
