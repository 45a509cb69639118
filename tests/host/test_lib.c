/* SPDX-License-Identifier: GPL-2.0-only */
/* Host unit tests for lib/: printf.c, crc32.c, stats.c, parse.c, string.c.
 *
 * rl_snprintf is compared with the C library's snprintf wherever C99 fixes
 * the result (same text, same return value, same truncation); the places
 * where ringlab deliberately differs (%p, unknown conversions) are checked
 * against exact strings.  The statistics are checked against brute-force
 * and exact-integer references.
 *
 * The cases live in tests/host/test_lib/ (lib_test.h declares them);
 * this file holds main() and the order they run in. */
#include "tests/host/test_lib/lib_test.h"

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_printf_integers),
		cmocka_unit_test(test_printf_flags_width_precision),
		cmocka_unit_test(test_printf_star),
		cmocka_unit_test(test_printf_length_modifiers),
		cmocka_unit_test(test_printf_ringlab_specific),
		cmocka_unit_test(test_printf_truncation),
		cmocka_unit_test(test_printf_vsnprintf_and_random),
		cmocka_unit_test(test_crc32_vectors),
		cmocka_unit_test(test_crc32_incremental),
		cmocka_unit_test(test_sort_u64),
		cmocka_unit_test(test_percentile),
		cmocka_unit_test(test_isqrt),
		cmocka_unit_test(test_stats_compute_small),
		cmocka_unit_test(test_stats_compute_random_exact),
		cmocka_unit_test(test_stats_compute_large),
		cmocka_unit_test(test_hist_format_exact),
		cmocka_unit_test(test_hist_format_truncation),
		cmocka_unit_test(test_hist_format_random),
		cmocka_unit_test(test_parse_u64),
		cmocka_unit_test(test_slice_next),
		cmocka_unit_test(test_slice_split),
		cmocka_unit_test(test_slice_eq_cstr),
		cmocka_unit_test(test_str_copy),
		cmocka_unit_test(test_str_eq_n),
	};

	return cmocka_run_group_tests_name("lib", tests, NULL, NULL);
}
