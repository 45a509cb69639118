/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/x86/ioapic.h's pure helpers: the version register's entry count,
 * the NMI redirection entry the uniprocessor watchdog programs, and the
 * GSI -> I/O APIC pin lookup. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "arch/x86/ioapic.h"

static void test_ver_pins(void **state)
{
	(void)state;
	/* 82093AA: version 0x11, max redirection entry 23 -> 24 pins */
	assert_int_equal(ioapic_ver_pins(0x00170011), 24);
	assert_int_equal(ioapic_ver_pins(0x00770020), 120);
	assert_int_equal(ioapic_ver_pins(0x00000011), 1);
	/* an 8-bit field past what the 8-bit IOREGSEL can address */
	assert_int_equal(ioapic_ver_pins(0x00ff0020), IOAPIC_MAX_PINS);
	/* nothing answers: all ones */
	assert_int_equal(ioapic_ver_pins(0xffffffffu), 0);
	assert_int_equal(IOAPIC_REG_RTE_LO(2), 0x14);
	assert_int_equal(IOAPIC_REG_RTE_HI(2), 0x15);
	assert_int_equal(IOAPIC_REG_RTE_HI(IOAPIC_MAX_PINS - 1), 0xff);
}

static void test_rte_nmi(void **state)
{
	(void)state;
	uint64_t rte = 0;

	assert_true(ioapic_rte_nmi(0, false, false, &rte));
	/* delivery mode 100b, physical, active high, edge, unmasked */
	assert_int_equal(rte, 0x0000000000000402ull);
	assert_int_equal(rte & IOAPIC_RTE_DM_MASK, IOAPIC_RTE_DM_NMI);
	assert_int_equal((rte >> IOAPIC_RTE_DM_SHIFT) & 7, 4);
	assert_false(rte & IOAPIC_RTE_LEVEL);
	assert_false(rte & IOAPIC_RTE_DEST_LOGICAL);

	assert_true(ioapic_rte_nmi(0x12, true, true, &rte));
	assert_int_equal(rte, 0x1200000000012402ull);
	assert_true(rte & IOAPIC_RTE_MASKED);
	assert_true(rte & IOAPIC_RTE_ACTIVE_LOW);
	assert_int_equal(rte >> IOAPIC_RTE_DEST_SHIFT, 0x12);

	assert_true(ioapic_rte_nmi(255, false, false, &rte));
	assert_int_equal(rte >> 56, 0xff);
	/* x2APIC IDs above 255 do not fit without interrupt remapping */
	rte = 0x1234;
	assert_false(ioapic_rte_nmi(256, false, false, &rte));
	assert_false(ioapic_rte_nmi(0xffffffffu, false, true, &rte));
	assert_int_equal(rte, 0x1234);
}

static void test_gsi_lookup(void **state)
{
	(void)state;
	uint32_t base[3] = { 0, 24, 56 };
	unsigned npins[3] = { 24, 32, 0 }, pin = 999;

	assert_int_equal(ioapic_gsi_lookup(base, npins, 3, 2, &pin), 0);
	assert_int_equal(pin, 2);
	assert_int_equal(ioapic_gsi_lookup(base, npins, 3, 23, &pin), 0);
	assert_int_equal(pin, 23);
	assert_int_equal(ioapic_gsi_lookup(base, npins, 3, 24, &pin), 1);
	assert_int_equal(pin, 0);
	assert_int_equal(ioapic_gsi_lookup(base, npins, 3, 55, &pin), 1);
	assert_int_equal(pin, 31);
	/* the third answered nothing (npins 0): GSI 56 is served by none */
	pin = 999;
	assert_int_equal(ioapic_gsi_lookup(base, npins, 3, 56, &pin), -1);
	assert_int_equal(pin, 999);
	assert_int_equal(ioapic_gsi_lookup(base, npins, 0, 2, &pin), -1);
	assert_int_equal(ioapic_gsi_lookup(base, npins, 3, 0xffffffffu, &pin), -1);

	/* listed out of order, overlapping: the first listed match wins */
	uint32_t b2[2] = { 16, 0 };
	unsigned n2[2] = { 24, 24 };

	assert_int_equal(ioapic_gsi_lookup(b2, n2, 2, 20, &pin), 0);
	assert_int_equal(pin, 4);
	assert_int_equal(ioapic_gsi_lookup(b2, n2, 2, 2, &pin), 1);
	assert_int_equal(pin, 2);
	/* a GSI base near the top does not wrap */
	uint32_t b3[1] = { 0xfffffff0u };
	unsigned n3[1] = { 120 };

	assert_int_equal(ioapic_gsi_lookup(b3, n3, 1, 0xffffffffu, &pin), 0);
	assert_int_equal(pin, 15);
	assert_int_equal(ioapic_gsi_lookup(b3, n3, 1, 5, &pin), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ver_pins),
		cmocka_unit_test(test_rte_nmi),
		cmocka_unit_test(test_gsi_lookup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
