/* Host unit tests for lib/physrange.c: firmware device addresses that must
 * be refused before they are mapped (issue 12, D1). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "lib/physrange.h"

#define M (1ull << 20)
#define G (1ull << 30)

/* QEMU pc with 1 GiB: RAM below 640 KiB and 1 MiB..1 GiB; kernel at 1 MiB. */
static const struct phys_span ram[] = { { 0, 0x9fc00 }, { M, G } };
static const struct phys_span kernel = { M, M + 0x80000 };

static enum phys_range_verdict chk(uint64_t base, uint64_t len, unsigned bits)
{
	return phys_range_check(base, len, bits, ram, 2, kernel);
}

static void test_good_devices(void **state)
{
	(void)state;
	assert_int_equal(chk(0xfed00000, 0x400, 39), PHYS_RANGE_OK);	/* HPET */
	assert_int_equal(chk(0xfee00000, 0x1000, 39), PHYS_RANGE_OK);	/* LAPIC */
	assert_int_equal(chk(0xfec00000, 0x20, 36), PHYS_RANGE_OK);	/* I/O APIC */
	assert_int_equal(chk(0xb8000, 80 * 25 * 2, 36), PHYS_RANGE_OK);	/* EGA text */
	assert_int_equal(chk(0x380000000000ull, 0x400, 46), PHYS_RANGE_OK);	/* high MMIO */
	/* the last byte below 2^MAXPHYADDR and below 2^47 */
	assert_int_equal(chk((1ull << 39) - 0x1000, 0x1000, 39), PHYS_RANGE_OK);
	assert_int_equal(chk((1ull << 47) - 0x1000, 0x1000, 52), PHYS_RANGE_OK);
}

static void test_issue_reproducer(void **state)
{
	(void)state;
	/* The HPET table of issue 12 D1: base 2^63 overwrote the PD entry
	 * mapping the kernel. */
	assert_int_equal(chk(0x8000000000000000ull, 0x400, 52), PHYS_RANGE_NONCANONICAL);
	assert_int_equal(chk(0xffff800000000000ull, 0x400, 52), PHYS_RANGE_NONCANONICAL);
	assert_int_equal(chk(0x0000800000000000ull, 0x400, 52), PHYS_RANGE_NONCANONICAL);
	/* straddles 2^47 */
	assert_int_equal(chk((1ull << 47) - 0x200, 0x400, 52), PHYS_RANGE_NONCANONICAL);
}

static void test_maxphyaddr(void **state)
{
	(void)state;
	assert_int_equal(chk(1ull << 40, 0x400, 40), PHYS_RANGE_ABOVE_MAXPHYADDR);
	assert_int_equal(chk((1ull << 36) - 0x200, 0x400, 36), PHYS_RANGE_ABOVE_MAXPHYADDR);
	assert_int_equal(chk(1ull << 40, 0x400, 41), PHYS_RANGE_OK);
	/* phys_bits 64 never overflows the shift */
	assert_int_equal(chk(1ull << 40, 0x400, 64), PHYS_RANGE_OK);
}

static void test_ram_and_kernel(void **state)
{
	(void)state;
	assert_int_equal(chk(0x100000, 0x400, 39), PHYS_RANGE_OVERLAPS_KERNEL);
	assert_int_equal(chk(M + 0x7ffff, 1, 39), PHYS_RANGE_OVERLAPS_KERNEL);
	assert_int_equal(chk(M + 0x80000, 0x400, 39), PHYS_RANGE_OVERLAPS_RAM);
	assert_int_equal(chk(G - 1, 0x400, 39), PHYS_RANGE_OVERLAPS_RAM);	/* last byte of RAM */
	assert_int_equal(chk(G, 0x400, 39), PHYS_RANGE_OK);			/* just after */
	assert_int_equal(chk(0x9f000, 0x1000, 39), PHYS_RANGE_OVERLAPS_RAM);
	assert_int_equal(chk(0x9fc00, 0x400, 39), PHYS_RANGE_OK);
	/* without a kernel span or RAM list only the address rules apply */
	assert_int_equal(phys_range_check(M, 0x400, 39, NULL, 0, (struct phys_span){ 0, 0 }),
			 PHYS_RANGE_OK);
}

static void test_degenerate(void **state)
{
	(void)state;
	assert_int_equal(chk(0xfed00000, 0, 39), PHYS_RANGE_EMPTY);
	assert_int_equal(chk(~0ull - 0x100, 0x400, 52), PHYS_RANGE_WRAPS);
	assert_int_equal(chk(0, ~0ull, 52), PHYS_RANGE_NONCANONICAL);
	for (int v = PHYS_RANGE_OK; v <= PHYS_RANGE_OVERLAPS_KERNEL; v++)
		assert_true(strlen(phys_range_text((enum phys_range_verdict)v)) > 1);
	assert_string_equal(phys_range_text((enum phys_range_verdict)99), "invalid verdict");
}

/* Every 64-bit base the checker passes is mappable: canonical lower half,
 * below 2^bits, and clear of RAM and the kernel. */
static void test_random_invariant(void **state)
{
	(void)state;
	uint64_t x = 0x9e3779b97f4a7c15ull;

	for (int i = 0; i < 200000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		uint64_t base = x >> (x & 63), len = (x >> 20) & 0xffff;
		unsigned bits = 32 + (unsigned)(x % 21);

		if (chk(base, len, bits) != PHYS_RANGE_OK)
			continue;
		assert_true(len > 0);
		assert_true(base + len <= (1ull << 47));
		assert_true(base + len <= (1ull << bits));
		for (unsigned r = 0; r < 2; r++)
			assert_false(base < ram[r].end && ram[r].base < base + len);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_devices),
		cmocka_unit_test(test_issue_reproducer),
		cmocka_unit_test(test_maxphyaddr),
		cmocka_unit_test(test_ram_and_kernel),
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_random_invariant),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
