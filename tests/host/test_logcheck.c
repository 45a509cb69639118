/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for the log checker (tools/liblogcheck/liblogcheck.c).  Logs are built in
 * memory line by line; the builder appends a correct integrity line so a
 * test can start from a valid log and then break exactly one thing.
 *
 * The cases live in tests/host/test_logcheck/ (logcheck_test.h declares them);
 * this file holds main() and the order they run in. */
#include "tests/host/test_logcheck/logcheck_test.h"

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
		cmocka_unit_test(test_runs_fail_then_pass),
		cmocka_unit_test(test_runs_pass_then_fail),
		cmocka_unit_test(test_runs_two_passes),
		cmocka_unit_test(test_runs_pass_then_garbage),
		cmocka_unit_test(test_runs_many),
		cmocka_unit_test(test_protocol_text_mid_line),
		cmocka_unit_test(test_verdict_and_exit_code),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
