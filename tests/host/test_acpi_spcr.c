/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for the SPCR parser (arch/x86/acpi_spcr.c): a COM2 table as
 * QEMU's -acpitable case uses, and the ways a table can be unusable. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "arch/x86/acpi.h"

static struct acpi_info ai;

/* An SPCR (80 bytes, revision 2) naming a 16550 at io `port`. */
static void build(uint8_t *t, uint16_t port)
{
	memset(t, 0, 80);
	memcpy(t, "SPCR", 4);
	t[4] = 80;
	t[8] = 2;
	t[36] = 0;              /* interface type: full 16550 */
	t[40] = 1;              /* GAS: system I/O */
	t[41] = 8;
	t[43] = 1;
	t[44] = (uint8_t)port;
	t[45] = (uint8_t)(port >> 8);
	t[52] = 1;
	t[53] = 3;
	t[58] = 7;              /* 115200 */
}

static void test_com2(void **state)
{
	uint8_t t[80];

	(void)state;
	build(t, 0x2f8);
	acpi_parse_spcr(&ai, t, sizeof(t));
	assert_true(ai.spcr.present);
	assert_true(ai.spcr.usable);
	assert_int_equal(ai.spcr.addr, 0x2f8);
	assert_int_equal(ai.spcr.baud, 115200);
	assert_int_equal(ai.spcr.interface_type, 0);

	t[58] = 0;              /* "as is" */
	acpi_parse_spcr(&ai, t, sizeof(t));
	assert_true(ai.spcr.usable);
	assert_int_equal(ai.spcr.baud, 0);
	t[58] = 3;
	acpi_parse_spcr(&ai, t, sizeof(t));
	assert_int_equal(ai.spcr.baud, 9600);
}

static void test_unusable(void **state)
{
	uint8_t t[80];

	(void)state;
	build(t, 0x2f8);
	acpi_parse_spcr(&ai, t, 58);            /* cut before the baud rate */
	assert_true(ai.spcr.present);
	assert_false(ai.spcr.usable);
	assert_non_null(strstr(ai.spcr.why, "shorter"));

	build(t, 0x2f8);
	t[36] = 3;                              /* ARM PL011 */
	acpi_parse_spcr(&ai, t, sizeof(t));
	assert_false(ai.spcr.usable);
	assert_non_null(strstr(ai.spcr.why, "interface type 0x3"));

	build(t, 0x2f8);
	t[40] = 0;                              /* MMIO UART */
	acpi_parse_spcr(&ai, t, sizeof(t));
	assert_false(ai.spcr.usable);
	assert_non_null(strstr(ai.spcr.why, "address space 0"));

	build(t, 0);
	acpi_parse_spcr(&ai, t, sizeof(t));
	assert_false(ai.spcr.usable);
	assert_non_null(strstr(ai.spcr.why, "not a UART base"));

	build(t, 0x2f8);
	t[48] = 1;                              /* address above 4 GiB */
	acpi_parse_spcr(&ai, t, sizeof(t));
	assert_false(ai.spcr.usable);

	build(t, 0x2f8);
	t[58] = 5;                              /* undefined baud code */
	acpi_parse_spcr(&ai, t, sizeof(t));
	assert_false(ai.spcr.usable);
	assert_non_null(strstr(ai.spcr.why, "baud rate code 5"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_com2),
		cmocka_unit_test(test_unusable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
