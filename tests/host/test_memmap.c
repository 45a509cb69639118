/* SPDX-License-Identifier: GPL-2.0-only */
/* Host unit tests for kernel/memmap.c: usable RAM from overlapping,
 * unsorted firmware memory maps. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>

#include "kernel/memmap.h"

#define G (1ull << 30)
#define M (1ull << 20)

static unsigned run(const struct mem_region *m, unsigned n, struct usable_range *out)
{
	return memmap_usable(m, n, 0, 0, 0, out, 32);
}

static void test_simple(void **state)
{
	(void)state;
	struct mem_region m[] = { { 0, 640 * 1024, MMAP_RAM }, { M, 511 * M, MMAP_RAM } };
	struct usable_range r[32];
	unsigned n = memmap_usable(m, 2, 2 * M, 3 * M, M, r, 32);

	/* below 1 MiB dropped, the kernel image cut out */
	assert_int_equal(n, 2);
	assert_int_equal(r[0].base, M);
	assert_int_equal(r[0].end, 2 * M);
	assert_int_equal(r[1].base, 3 * M);
	assert_int_equal(r[1].end, 512 * M);
}

/* A reserved entry over the kernel image (tests/qemu/mbforge
 * mmap=overlap-kernel): found whatever the order; RAM, ranges that only
 * touch, and a wrapping entry are not claims. */
static void test_claim_over(void **state)
{
	(void)state;
	struct mem_region m[] = {
		{ 0, 640 * 1024, MMAP_RAM }, { M, 1023 * M, MMAP_RAM },
		{ 0xfffffffffffff000ull, 0x2000, MMAP_RESERVED },	/* wraps */
		{ 0xf0000, 0x10000, MMAP_RESERVED },			/* ends at 1 MiB */
		{ 3 * M, M, MMAP_RESERVED },				/* starts at the end */
		{ M + 0x1000, 0x1000, MMAP_ACPI_NVS },
	};

	assert_int_equal(memmap_claim_over(m, 5, M, 3 * M), -1);
	assert_int_equal(memmap_claim_over(m, 6, M, 3 * M), 5);
	assert_int_equal(memmap_claim_over(m, 6, 3 * M - 0x1000, 3 * M), -1);
	assert_int_equal(memmap_claim_over(m, 6, 3 * M, 3 * M + 1), 4);
	assert_int_equal(memmap_claim_over(m, 6, 0xfffff, M), 3);
	assert_int_equal(memmap_claim_over(m, 0, M, 3 * M), -1);
}

static void test_unsorted_reserved(void **state)
{
	(void)state;
	/* The reviewer's case: RAM 4G-8G with reserved 6G and then 5G listed
	 * in that order.  Neither reserved GiB may be usable. */
	struct mem_region m[] = {
		{ 4 * G, 4 * G, MMAP_RAM },
		{ 6 * G, 16 * M, MMAP_RESERVED },
		{ 5 * G, 16 * M, MMAP_RESERVED },
	};
	struct usable_range r[32];
	unsigned n = run(m, 3, r);
	uint64_t total = 0;

	assert_int_equal(n, 3);
	for (unsigned i = 0; i < n; i++) {
		total += r[i].end - r[i].base;
		for (unsigned j = 1; j < 3; j++)
			assert_true(r[i].end <= m[j].base || r[i].base >= m[j].base + m[j].len);
	}
	assert_int_equal(total, 4 * G - 32 * M);
	assert_int_equal(r[0].base, 4 * G);
	assert_int_equal(r[0].end, 5 * G);
	assert_int_equal(r[1].base, 5 * G + 16 * M);
	assert_int_equal(r[2].end, 8 * G);
}

static void test_overlapping_and_covering(void **state)
{
	(void)state;
	struct mem_region m[] = {
		{ 0, 64 * M, MMAP_RAM },
		{ 10 * M, 20 * M, MMAP_ACPI_NVS },	/* 10-30 */
		{ 20 * M, 20 * M, MMAP_RESERVED },	/* 20-40, overlaps the first */
		{ 0, 2 * M, MMAP_RESERVED },		/* covers the start */
		{ 60 * M, 100 * M, MMAP_BAD },		/* runs past the end */
	};
	struct usable_range r[32];
	unsigned n = run(m, 5, r);

	assert_int_equal(n, 2);
	assert_int_equal(r[0].base, 2 * M);
	assert_int_equal(r[0].end, 10 * M);
	assert_int_equal(r[1].base, 40 * M);
	assert_int_equal(r[1].end, 60 * M);
	/* a reserved entry covering the whole RAM entry leaves nothing */
	struct mem_region all[] = { { M, M, MMAP_RAM }, { 0, 4 * M, MMAP_RESERVED } };

	assert_int_equal(run(all, 2, r), 0);
}

static void test_alignment_and_garbage(void **state)
{
	(void)state;
	struct mem_region m[] = {
		{ 0x1001, 0x3000, MMAP_RAM },			/* -> 0x2000-0x4000 */
		{ 0xfffffffffffff000ull, 0x2000, MMAP_RAM },	/* wraps: ignored */
		{ 0x10000, 0x800, MMAP_RAM },			/* under a page: nothing */
	};
	struct usable_range r[32];
	unsigned n = run(m, 3, r);

	assert_int_equal(n, 1);
	assert_int_equal(r[0].base, 0x2000);
	assert_int_equal(r[0].end, 0x4000);
}

static void test_random_against_bitmap(void **state)
{
	(void)state;
	/* Random maps over 256 pages: compare with a per-page reference. */
	srand(7);
	for (int iter = 0; iter < 3000; iter++) {
		struct mem_region m[12];
		unsigned n = 1 + (unsigned)(rand() % 12);
		int ram[256] = { 0 }, claimed[256] = { 0 };

		for (unsigned i = 0; i < n; i++) {
			uint64_t a = (uint64_t)(rand() % 256), b = (uint64_t)(rand() % 256);

			if (a > b) {
				uint64_t x = a;

				a = b;
				b = x;
			}
			m[i] = (struct mem_region){ a * 4096, (b - a + 1) * 4096,
						    rand() % 2 ? MMAP_RAM : MMAP_RESERVED };
			for (uint64_t p = a; p <= b; p++) {
				if (m[i].type == MMAP_RAM)
					ram[p] = 1;
				else
					claimed[p] = 1;
			}
		}
		struct usable_range r[32];
		unsigned k = run(m, n, r);
		int got[256] = { 0 };

		for (unsigned i = 0; i < k; i++) {
			if (i)
				assert_true(r[i].base > r[i - 1].end);	/* sorted, disjoint, merged */
			for (uint64_t p = r[i].base / 4096; p < r[i].end / 4096; p++)
				got[p] = 1;
		}
		for (int p = 0; p < 256; p++)
			assert_int_equal(got[p], ram[p] && !claimed[p]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_simple),
		cmocka_unit_test(test_claim_over),
		cmocka_unit_test(test_unsorted_reserved),
		cmocka_unit_test(test_overlapping_and_covering),
		cmocka_unit_test(test_alignment_and_garbage),
		cmocka_unit_test(test_random_against_bitmap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
