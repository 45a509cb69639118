/* SPDX-License-Identifier: GPL-2.0-only */
/* Host unit tests for the command-line parser (kernel/cmdline.c).
 *
 * Every input is parsed from an exact-size heap copy without a terminating
 * NUL, so ASan reports any read past the length the parser was given.
 *
 * The cases live in tests/host/test_cmdline/ (cmdline_test.h declares them);
 * this file holds main() and the order they run in. */
#include "tests/host/test_cmdline/cmdline_test.h"

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_and_defaults),
		cmocka_unit_test(test_every_option),
		cmocka_unit_test(test_path_first_token_skipped),
		cmocka_unit_test(test_unknown_option),
		cmocka_unit_test(test_numeric_ranges),
		cmocka_unit_test(test_console),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_enums_and_simulate),
		cmocka_unit_test(test_fbscale),
		cmocka_unit_test(test_acpi_rsdp),
		cmocka_unit_test(test_simulate_cpuid),
		cmocka_unit_test(test_flag_with_value_and_value_missing),
		cmocka_unit_test(test_error_cap),
		cmocka_unit_test(test_explicit_length),
		cmocka_unit_test(test_control_characters_echoed_safely),
		cmocka_unit_test(test_format_round_trip),
		cmocka_unit_test(test_format_random_round_trip),
		cmocka_unit_test(test_format_truncation),
		cmocka_unit_test(test_fuzz),
	};

	return cmocka_run_group_tests_name("cmdline", tests, NULL, NULL);
}
