/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the parts of the lib/ host unit tests (tests/host/test_lib.c
 * has main()): the includes and the test cases. */
#ifndef RINGLAB_TESTS_HOST_TEST_LIB_LIB_TEST_H
#define RINGLAB_TESTS_HOST_TEST_LIB_LIB_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/crc32.h"
#include "lib/parse.h"
#include "lib/printf.h"
#include "lib/rand.h"
#include "lib/stats.h"
#include "lib/string.h"

#define FMT_BUF 512	/* printf.c's output buffers */
/* what output buffers are filled with first: a byte still there past the
 * terminator shows nothing was written beyond it */
#define SENTINEL 0x5a

/* stats.c */
int cmp_u64(const void *a, const void *b);
void fill_random(struct rng *r, uint64_t *a, size_t n, int kind);

/* the cases, in the order main() runs them */
void test_printf_integers(void **state);
void test_printf_flags_width_precision(void **state);
void test_printf_star(void **state);
void test_printf_length_modifiers(void **state);
void test_printf_ringlab_specific(void **state);
void test_printf_truncation(void **state);
void test_printf_vsnprintf_and_random(void **state);
void test_crc32_vectors(void **state);
void test_crc32_incremental(void **state);
void test_sort_u64(void **state);
void test_percentile(void **state);
void test_isqrt(void **state);
void test_stats_compute_small(void **state);
void test_stats_compute_random_exact(void **state);
void test_stats_compute_large(void **state);
void test_hist_format_exact(void **state);
void test_hist_format_truncation(void **state);
void test_hist_format_random(void **state);
void test_parse_u64(void **state);
void test_slice_next(void **state);
void test_slice_split(void **state);
void test_slice_eq_cstr(void **state);
void test_str_copy(void **state);
void test_str_eq_n(void **state);

#endif
