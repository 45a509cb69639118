/* SPDX-License-Identifier: GPL-2.0-only */
/* Host unit tests for lib/physrange.c: firmware device addresses that must
 * be refused before they are mapped (an HPET table whose base overwrote a page-directory entry). */
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
	/* A real firmware's HPET table: base 2^63 overwrote the PD entry
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

/* --- firmware tables in holes: RAM-only memory maps (iPXE) --- */

/* iPXE's multiboot1 map under SeaBIOS with 1 GiB: RAM only; the ACPI
 * tables sit at 0x3ffe0000.., just above the last RAM entry. */
static const struct phys_span ipxe_ram[] = { { 0, 0x9fc00 }, { M, 0x3ffe0000 } };

static enum phys_range_verdict hole(uint64_t base, uint64_t len, unsigned bits)
{
	return phys_fw_hole_check(base, len, bits, ipxe_ram, 2, kernel);
}

static void test_map_ram_only(void **state)
{
	(void)state;
	/* iPXE (and the mem_lower/mem_upper fallback): RAM only */
	const uint32_t ipxe[] = { 1, 1 };
	/* SeaBIOS E820 through GRUB: reserved entries present */
	const uint32_t grub[] = { 1, 2, 1, 2, 2 };
	const uint32_t acpi[] = { 1, 1, 3 }, nvs[] = { 1, 4 }, bad[] = { 1, 5 };
	const uint32_t unknown[] = { 1, 7 }, none_ram[] = { 2 };

	assert_true(phys_map_ram_only(ipxe, 2));
	assert_true(phys_map_ram_only(ipxe, 1));
	assert_false(phys_map_ram_only(grub, 5));
	assert_false(phys_map_ram_only(acpi, 3));
	assert_false(phys_map_ram_only(nvs, 2));
	assert_false(phys_map_ram_only(bad, 2));
	assert_false(phys_map_ram_only(unknown, 2));
	assert_false(phys_map_ram_only(none_ram, 1));
	assert_false(phys_map_ram_only(NULL, 0));	/* no map: nothing known */
}

static void test_hole_accepts_acpi_area(void **state)
{
	(void)state;
	/* the RSDT of the ipxe-net case, its header and a whole table */
	assert_int_equal(hole(0x3ffe2367, 36, 40), PHYS_RANGE_OK);
	assert_int_equal(hole(0x3ffe0000, 0x20000, 40), PHYS_RANGE_OK);
	/* elsewhere in the PCI hole, up to just below the device window */
	assert_int_equal(hole(0xe0000000, 0x1000, 36), PHYS_RANGE_OK);
	assert_int_equal(hole(0xfebff000, 0x1000, 36), PHYS_RANGE_OK);
	/* the BIOS flash above the window is ROM */
	assert_int_equal(hole(0xfffe0000, 0x20000, 36), PHYS_RANGE_OK);
	assert_int_equal(hole(0xffffffc0, 0x40, 36), PHYS_RANGE_OK);
	/* exactly 16 MiB */
	assert_int_equal(hole(0x80000000, 16 * M, 36), PHYS_RANGE_OK);
}

static void test_hole_refuses(void **state)
{
	(void)state;
	/* the fixed device windows */
	assert_int_equal(hole(0xfee00000, 36, 40), PHYS_RANGE_DEVICE_WINDOW);	/* LAPIC */
	assert_int_equal(hole(0xfec00000, 36, 40), PHYS_RANGE_DEVICE_WINDOW);	/* I/O APIC */
	assert_int_equal(hole(0xfec01000, 36, 40), PHYS_RANGE_DEVICE_WINDOW);	/* 2nd I/O APIC */
	assert_int_equal(hole(0xfed00000, 36, 40), PHYS_RANGE_DEVICE_WINDOW);	/* HPET */
	assert_int_equal(hole(0xfed40000, 36, 40), PHYS_RANGE_DEVICE_WINDOW);	/* TPM */
	assert_int_equal(hole(0xfeeffffc, 4, 40), PHYS_RANGE_DEVICE_WINDOW);	/* last MSI dword */
	assert_int_equal(hole(0xfebfffe0, 0x40, 40), PHYS_RANGE_DEVICE_WINDOW);	/* runs into it */
	assert_int_equal(hole(0xfeffffe0, 0x40, 40), PHYS_RANGE_DEVICE_WINDOW);	/* runs out of it */
	/* RAM and the kernel image: phys_view()'s business, never a hole */
	assert_int_equal(hole(M, 36, 40), PHYS_RANGE_OVERLAPS_KERNEL);
	assert_int_equal(hole(0x2000000, 36, 40), PHYS_RANGE_OVERLAPS_RAM);
	assert_int_equal(hole(0x3ffdffe0, 0x40, 40), PHYS_RANGE_OVERLAPS_RAM);	/* straddles RAM end */
	/* above 4 GiB only RAM is mapped */
	assert_int_equal(hole(0x100000000ull, 36, 40), PHYS_RANGE_ABOVE_4G);
	assert_int_equal(hole(0xffffffe0, 0x40, 40), PHYS_RANGE_ABOVE_4G);	/* straddles 4 GiB */
	assert_int_equal(hole(0x380000000000ull, 36, 46), PHYS_RANGE_ABOVE_4G);
	/* the address rules of phys_range_check come first */
	assert_int_equal(hole(0x8000000000000000ull, 36, 52), PHYS_RANGE_NONCANONICAL);
	assert_int_equal(hole(0x0000800000000000ull, 36, 52), PHYS_RANGE_NONCANONICAL);
	assert_int_equal(hole(1ull << 40, 36, 40), PHYS_RANGE_ABOVE_MAXPHYADDR);
	assert_int_equal(hole(0xf0000000, 36, 32), PHYS_RANGE_OK);
	assert_int_equal(hole(0xfffffff0, 0x20, 32), PHYS_RANGE_ABOVE_MAXPHYADDR);
	assert_int_equal(hole(0x3ffe2367, 0, 40), PHYS_RANGE_EMPTY);
	assert_int_equal(hole(~0ull - 8, 36, 52), PHYS_RANGE_WRAPS);
	/* too long for any table; below 1 MiB is the BIOS-area rule */
	assert_int_equal(hole(0x80000000, 16 * M + 1, 36), PHYS_RANGE_TOO_LONG);
	assert_int_equal(hole(0xa0000, 36, 36), PHYS_RANGE_BELOW_1M);
	assert_int_equal(hole(0xf0000, 0x20000, 36), PHYS_RANGE_OVERLAPS_KERNEL);
	for (int v = PHYS_RANGE_OK; v < PHYS_RANGE_NVERDICTS; v++)
		assert_true(strlen(phys_range_text((enum phys_range_verdict)v)) > 1);
}

/* Negative control: with a complete map (GRUB/E820: the ACPI area is a
 * type 3/2 entry) the map is not RAM-only, so the kernel never asks
 * phys_fw_hole_check() and a pointer into the PCI hole stays refused by
 * phys_view(); only the predicate gates that, so pin it on the map QEMU's
 * SeaBIOS gives GRUB. */
static void test_complete_map_keeps_holes(void **state)
{
	(void)state;
	const uint32_t seabios_e820[] = { 1, 2, 1, 2, 2, 2 };

	assert_false(phys_map_ram_only(seabios_e820, 6));
}

/* Every range the hole check passes is below 4 GiB, at or above 1 MiB,
 * at most 16 MiB, clear of RAM, the kernel and the device window. */
static void test_hole_random_invariant(void **state)
{
	(void)state;
	uint64_t x = 0x2545f4914f6cdd1dull;

	for (int i = 0; i < 200000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		uint64_t base = (x >> (x & 31)) & 0x1ffffffffull, len = (x >> 40) & 0x1ffffff;
		unsigned bits = 32 + (unsigned)(x % 21);

		if (hole(base, len, bits) != PHYS_RANGE_OK)
			continue;
		uint64_t end = base + len;

		assert_true(len > 0 && len <= 16 * M);
		assert_true(base >= M && end <= 4 * G);
		assert_false(base < 0xff000000ull && 0xfec00000ull < end);
		assert_false(base < kernel.end && kernel.base < end);
		for (unsigned r = 0; r < 2; r++)
			assert_false(base < ipxe_ram[r].end && ipxe_ram[r].base < end);
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
		cmocka_unit_test(test_map_ram_only),
		cmocka_unit_test(test_hole_accepts_acpi_area),
		cmocka_unit_test(test_hole_refuses),
		cmocka_unit_test(test_complete_map_keeps_holes),
		cmocka_unit_test(test_hole_random_invariant),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
