/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the parts of the command-line parser's host tests
 * (tests/host/test_cmdline.c has main()): the parse wrappers, assertions
 * and the test cases. */
#ifndef RINGLAB_TESTS_HOST_TEST_CMDLINE_CMDLINE_TEST_H
#define RINGLAB_TESTS_HOST_TEST_CMDLINE_CMDLINE_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/x86/uart.h"
#include "arch/x86/cpuinfo.h"
#include "kernel/cmdline.h"
#include "kernel/fbcon.h"
#include "lib/rand.h"

#define assert_error(needle)                                                  \
	do {                                                                  \
		if (!has_error(needle)) {                                     \
			dump_errors();                                        \
			fail_msg("no error line contains \"%s\"", needle);    \
		}                                                             \
	} while (0)

#define assert_no_errors()                                                    \
	do {                                                                  \
		if (o.nerrors || o.nerrors_dropped) {                         \
			dump_errors();                                        \
			fail_msg("%u errors, %u dropped", o.nerrors,          \
				 o.nerrors_dropped);                          \
		}                                                             \
	} while (0)

/* Exactly one error, containing every given fragment. */
#define assert_one_error(...)                                                 \
	do {                                                                  \
		const char *frags_[] = { __VA_ARGS__ };                       \
		if (o.nerrors != 1 || o.nerrors_dropped) {                    \
			dump_errors();                                        \
			fail_msg("want exactly one error, have %u (+%u dropped)", \
				 o.nerrors, o.nerrors_dropped);               \
		}                                                             \
		for (size_t f_ = 0; f_ < sizeof(frags_) / sizeof(frags_[0]); f_++) \
			assert_error(frags_[f_]);                             \
	} while (0)

/* helpers.c */
extern struct options o;
unsigned parse_n(const char *text, size_t n);
unsigned parse(const char *text);
bool has_error(const char *needle);
void dump_errors(void);
void assert_defaults(const struct options *x);
/* round_trip.c */
void round_trip(const struct options *in);

/* the cases, in the order main() runs them */
void test_empty_and_defaults(void **state);
void test_every_option(void **state);
void test_path_first_token_skipped(void **state);
void test_unknown_option(void **state);
void test_numeric_ranges(void **state);
void test_console(void **state);
void test_lists(void **state);
void test_enums_and_simulate(void **state);
void test_fbscale(void **state);
void test_acpi_rsdp(void **state);
void test_simulate_cpuid(void **state);
void test_flag_with_value_and_value_missing(void **state);
void test_error_cap(void **state);
void test_explicit_length(void **state);
void test_control_characters_echoed_safely(void **state);
void test_format_round_trip(void **state);
void test_format_random_round_trip(void **state);
void test_format_truncation(void **state);
void test_fuzz(void **state);

#endif
