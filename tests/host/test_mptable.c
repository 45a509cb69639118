/* SPDX-License-Identifier: GPL-2.0-only */
/* Host unit tests for arch/x86/mptable.c (Intel MP spec 1.4 fallback when
 * there is no ACPI MADT), over the fake physical memory of fake_phys.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "arch/x86/acpi.h"
#include "arch/x86/mptable.h"
#include "tests/host/fake_phys.h"

static struct acpi_info ai;
static struct mp_info mp;
static uint8_t low[0x100000];	/* our image of the first MiB */

#define TABLE_PA	0x9000u

static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, v); put16(p + 2, v >> 16); }

static void fix_sum(uint8_t *p, size_t n, size_t at)
{
	uint8_t s = 0;

	p[at] = 0;
	for (size_t i = 0; i < n; i++)
		s = (uint8_t)(s + p[i]);
	p[at] = (uint8_t)-s;
}

static void fps_at(uint32_t pa, uint32_t table, uint8_t feature1)
{
	uint8_t *f = low + pa;

	memcpy(f, "_MP_", 4);
	put32(f + 4, table);
	f[8] = 1;
	f[9] = 4;
	f[11] = feature1;
	fix_sum(f, 16, 10);
}

/* A PCMP table with n processors (flags[i]) and one I/O APIC. */
static size_t table_at(uint32_t pa, const uint8_t *flags, unsigned n)
{
	uint8_t *t = low + pa;
	size_t off = 44;

	memset(t, 0, 44);
	memcpy(t, "PCMP", 4);
	t[6] = 4;
	put32(t + 36, 0xfee00000u);
	for (unsigned i = 0; i < n; i++, off += 20) {
		memset(t + off, 0, 20);
		t[off] = 0;
		t[off + 1] = (uint8_t)i;
		t[off + 3] = flags[i];
	}
	memset(t + off, 0, 8);
	t[off] = 2;
	t[off + 1] = (uint8_t)n;
	t[off + 3] = 1;
	put32(t + off + 4, 0xfec00000u);
	off += 8;
	put16(t + 4, (uint32_t)off);
	put16(t + 34, n + 1);
	fix_sum(t, off, 7);
	return off;
}

static void install(void)
{
	mem_reset();
	mem_add(0, sizeof(low));
	mem_put(0, low, sizeof(low));
}

static int setup(void **state)
{
	(void)state;
	memset(low, 0, sizeof(low));
	memset(&ai, 0, sizeof(ai));
	put16(low + 0x413, 639);	/* base memory 639 KiB, no EBDA */
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	mem_reset();
	return 0;
}

static void test_rom_table(void **state)
{
	(void)state;
	static const uint8_t fl[] = { 3, 1, 0, 1 };	/* BP, EN, disabled, EN */

	table_at(TABLE_PA, fl, 4);
	fps_at(0xf5430, TABLE_PA, 0);
	install();
	assert_true(mptable_fill(&ai, &mp));
	assert_string_equal(mp.fps_where, "BIOS ROM");
	assert_int_equal(mp.fps_phys, 0xf5430);
	assert_int_equal(mp.ncpus, 4);
	assert_int_equal(ai.ncpus, 3);
	assert_int_equal(ai.ncpus_ignored, 1);
	assert_int_equal(ai.cpus[2].apic_id, 3);
	assert_int_equal(acpi_enabled_cpus(&ai), 3);
	assert_int_equal(ai.nioapics, 1);
	assert_int_equal(ai.ioapics[0].addr, 0xfec00000u);
	assert_int_equal(ai.lapic_addr, 0xfee00000u);
	assert_true(ai.have_madt);
	assert_true(ai.madt_flags & 1);		/* 8259s present: masked */
	assert_string_equal(ai.cpus_source, "mptable");
	assert_int_equal(mp.nerrors, 0);
}

static void test_ebda_and_base_top(void **state)
{
	(void)state;
	static const uint8_t fl[] = { 3, 1 };

	/* EBDA at 0x9fc00: the pointer there wins over one in the ROM */
	put16(low + 0x40e, 0x9fc0);
	table_at(TABLE_PA, fl, 2);
	fps_at(0x9fc10, TABLE_PA, 0);
	fps_at(0xf0000, 0, 1);
	install();
	assert_true(mptable_fill(&ai, &mp));
	assert_string_equal(mp.fps_where, "EBDA");
	assert_int_equal(ai.ncpus, 2);

	/* no EBDA: the last KiB of base memory (639 KiB) */
	setup(NULL);
	table_at(TABLE_PA, fl, 2);
	fps_at(638 * 1024 + 0x20, TABLE_PA, 0);
	install();
	assert_true(mptable_fill(&ai, &mp));
	assert_string_equal(mp.fps_where, "base memory top");
}

static void test_default_config(void **state)
{
	(void)state;
	fps_at(0xf0000, 0, 5);	/* default configuration 5: two CPUs */
	install();
	assert_true(mptable_fill(&ai, &mp));
	assert_int_equal(ai.ncpus, 2);
	assert_int_equal(ai.cpus[1].apic_id, 1);
	assert_int_equal(ai.lapic_addr, 0xfee00000u);
}

static void test_broken(void **state)
{
	(void)state;
	static const uint8_t fl[] = { 3, 1 };

	/* nothing at all */
	install();
	assert_false(mptable_fill(&ai, &mp));
	assert_false(ai.have_madt);
	assert_non_null(strstr(mp.errors[0], "no MP floating pointer"));

	/* bad pointer checksum: skipped, said so */
	table_at(TABLE_PA, fl, 2);
	fps_at(0xf0000, TABLE_PA, 0);
	low[0xf0000 + 10] ^= 1;
	install();
	assert_false(mptable_fill(&ai, &mp));
	assert_non_null(strstr(mp.errors[0], "checksum bad"));

	/* bad table checksum */
	fps_at(0xf0000, TABLE_PA, 0);
	low[TABLE_PA + 7] ^= 1;
	install();
	assert_false(mptable_fill(&ai, &mp));
	assert_false(ai.have_madt);

	/* unknown entry type: walk stops, the CPUs before it are kept */
	size_t len = table_at(TABLE_PA, fl, 2);

	low[TABLE_PA + 44 + 20] = 0x77;
	fix_sum(low + TABLE_PA, len, 7);
	install();
	assert_true(mptable_fill(&ai, &mp));
	assert_int_equal(ai.ncpus, 1);
	assert_non_null(strstr(mp.errors[0], "unknown entry type 119"));

	/* entry count larger than the length: stops at the end */
	len = table_at(TABLE_PA, fl, 2);
	put16(low + TABLE_PA + 34, 60000);
	fix_sum(low + TABLE_PA, len, 7);
	install();
	assert_true(mptable_fill(&ai, &mp));
	assert_int_equal(ai.ncpus, 2);

	/* a length past readable memory, and an absurd one */
	fps_at(0xf0000, 0xfffe0, 0);
	memcpy(low + 0xfffe0, "PCMP", 4);
	put16(low + 0xfffe0 + 4, 0xffff);
	install();
	assert_false(mptable_fill(&ai, &mp));
	fps_at(0xf0000, 0x12345678, 0);
	install();
	assert_false(mptable_fill(&ai, &mp));
	assert_non_null(strstr(mp.errors[0], "no PCMP configuration table"));
}

/* Random bytes in the table never crash (ASan/UBSan build). */
static void test_random(void **state)
{
	(void)state;
	uint64_t x = 88172645463325252ull;

	for (int round = 0; round < 300; round++) {
		setup(NULL);
		static const uint8_t fl[] = { 3, 1, 1 };
		size_t len = table_at(TABLE_PA, fl, 3);

		fps_at(0xf0000, TABLE_PA, 0);
		for (int k = 0; k < 8; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			low[TABLE_PA + (x % (len + 8))] = (uint8_t)(x >> 32);
		}
		if (round & 1)
			fix_sum(low + TABLE_PA, len, 7);
		install();
		(void)mptable_fill(&ai, &mp);
		assert_true(ai.ncpus <= 3);
		mem_views_free();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rom_table, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ebda_and_base_top, setup, teardown),
		cmocka_unit_test_setup_teardown(test_default_config, setup, teardown),
		cmocka_unit_test_setup_teardown(test_broken, setup, teardown),
		cmocka_unit_test_setup_teardown(test_random, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
