/* SPDX-License-Identifier: GPL-2.0-only */
/* ACPI host tests: FADT (PM timer, hardware-reduced) and HPET parsing. */
#include "tests/host/test_acpi/acpi_test.h"

void test_fadt_timer_width(void **state)
{
	(void)state;
	struct blob f = make_fadt(276, 6, 0x608, 4, 1u << 8, 1, 0x608);

	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_no_errors();
	assert_true(ai.have_fadt);
	assert_int_equal(ai.fadt_revision, 6);
	assert_int_equal(ai.pm_tmr_port, 0x608);
	assert_true(ai.pm_tmr_32bit);
	assert_false(ai.hw_reduced);
	blob_free(&f);

	f = make_fadt(244, 4, 0x408, 4, 0, 1, 0x408);	/* 24-bit */
	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_no_errors();
	assert_int_equal(ai.pm_tmr_port, 0x408);
	assert_false(ai.pm_tmr_32bit);
	blob_free(&f);

	/* X_PM_TMR_BLK (when usable) wins over PM_TMR_BLK. */
	f = make_fadt(276, 6, 0x608, 4, 0, 1, 0x1808);
	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_int_equal(ai.pm_tmr_port, 0x1808);
	blob_free(&f);

	/* X_PM_TMR_BLK zero: PM_TMR_BLK, no complaint. */
	f = make_fadt(276, 6, 0x608, 4, 1u << 8, X_NONE, 0);
	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_no_errors();
	assert_int_equal(ai.pm_tmr_port, 0x608);
	blob_free(&f);
}

void test_fadt_short(void **state)
{
	(void)state;
	/* ACPI 1.0: 116 bytes, nothing past Flags (exact-size copy: a read
	 * of X_PM_TMR_BLK would be an ASan error). */
	struct blob f = make_fadt(116, 1, 0xb008, 4, 1u << 8, X_NONE, 0);

	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_no_errors();
	assert_true(ai.have_fadt);
	assert_int_equal(ai.fadt_revision, 1);
	assert_int_equal(ai.pm_tmr_port, 0xb008);
	assert_true(ai.pm_tmr_32bit);
	blob_free(&f);

	/* Shorter than ACPI 1.0: Flags absent (read as 0), timer still read. */
	f = make_fadt(100, 1, 0xb008, 4, 0, X_NONE, 0);
	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_true(ai.have_fadt);
	assert_int_equal(ai.pm_tmr_port, 0xb008);
	assert_false(ai.pm_tmr_32bit);
	assert_false(ai.hw_reduced);
	assert_error("FADT length 100 < 116");
	blob_free(&f);

	/* Not even PM_TMR_LEN: no timer. */
	f = make_fadt(84, 1, 0xb008, 4, 0, X_NONE, 0);
	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_int_equal(ai.pm_tmr_port, 0);
	assert_error("PM_TMR_LEN 0 unusable");
	blob_free(&f);

	/* Header only, and below that. */
	f = make_fadt(36, 1, 0, 0, 0, X_NONE, 0);
	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_true(ai.have_fadt);
	assert_int_equal(ai.pm_tmr_port, 0);
	ai_clear();
	acpi_parse_fadt(&ai, f.b, 20);
	assert_false(ai.have_fadt);
	assert_error("FADT length 20 < 36, ignored");
	blob_free(&f);
}

void test_fadt_x_pm_tmr_unusable(void **state)
{
	(void)state;
	/* X_PM_TMR_BLK in system memory: ignored, PM_TMR_BLK used. */
	struct blob f = make_fadt(276, 6, 0x608, 4, 0, 0, 0xfed80000);

	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_int_equal(ai.pm_tmr_port, 0x608);
	assert_error("X_PM_TMR_BLK 0xfed80000 in address space 0 unusable, trying PM_TMR_BLK");
	blob_free(&f);

	/* ... and with no PM_TMR_BLK either: no timer. */
	f = make_fadt(276, 6, 0, 0, 0, 0, 0xfed80000);
	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_int_equal(ai.pm_tmr_port, 0);
	assert_int_equal(ai.nerrors, 1);
	blob_free(&f);

	/* I/O but beyond the 16-bit port space. */
	f = make_fadt(276, 6, 0x608, 4, 0, 1, 0x10008);
	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_int_equal(ai.pm_tmr_port, 0x608);
	assert_error("X_PM_TMR_BLK 0x10008 in address space 1 unusable");
	blob_free(&f);

	/* PM_TMR_LEN must be 4; PM_TMR_BLK must be a port. */
	f = make_fadt(276, 6, 0x608, 2, 0, X_NONE, 0);
	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_int_equal(ai.pm_tmr_port, 0);
	assert_error("PM_TMR_BLK 0x608 with PM_TMR_LEN 2 unusable");
	blob_free(&f);
	f = make_fadt(276, 6, 0x12345, 4, 0, X_NONE, 0);
	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_int_equal(ai.pm_tmr_port, 0);
	blob_free(&f);
}

void test_fadt_hw_reduced(void **state)
{
	(void)state;
	/* §5.2.9: HW-reduced -> timer fields and TMR_VAL_EXT ignored. */
	struct blob f = make_fadt(276, 6, 0x608, 4, (1u << 20) | (1u << 8), 1, 0x608);

	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_no_errors();
	assert_true(ai.have_fadt);
	assert_true(ai.hw_reduced);
	assert_int_equal(ai.pm_tmr_port, 0);
	assert_false(ai.pm_tmr_32bit);
	blob_free(&f);
}

void test_hpet(void **state)
{
	(void)state;
	struct blob h = make_hpet(0, 0xfed00000, 2, 0x37ee);

	ai_clear();
	parse_exact(acpi_parse_hpet, &h);
	assert_no_errors();
	assert_true(ai.have_hpet);
	assert_int_equal(ai.hpet_addr, 0xfed00000);
	assert_int_equal(ai.hpet_number, 2);
	assert_int_equal(ai.hpet_min_tick, 0x37ee);
	blob_free(&h);

	h = make_hpet(1, 0xfed00000, 0, 0x80);		/* I/O space */
	ai_clear();
	parse_exact(acpi_parse_hpet, &h);
	assert_false(ai.have_hpet);
	assert_int_equal(ai.hpet_addr, 0);
	assert_error("acpi: HPET: base 0xfed00000 in address space 1, ignored");
	blob_free(&h);

	h = make_hpet(0, 0, 0, 0x80);			/* no address */
	ai_clear();
	parse_exact(acpi_parse_hpet, &h);
	assert_false(ai.have_hpet);
	blob_free(&h);

	h = make_hpet(0, 0xfed00000, 0, 0x80);		/* truncated */
	h.len = 55;
	ai_clear();
	parse_exact(acpi_parse_hpet, &h);
	assert_false(ai.have_hpet);
	assert_error("HPET length 55 < 56, ignored");
	blob_free(&h);

	/* Through acpi_init: an I/O-space HPET does not stop the others. */
	mem_reset();
	struct blob m = small_madt();
	struct blob f = make_fadt(276, 6, 0x608, 4, 1u << 8, 1, 0x608);

	h = make_hpet(1, 0xfed00000, 0, 0x80);
	mem_standard();
	sys_install(&m, &f, &h);
	uint8_t r[36];

	make_rsdp(r, 0, (uint32_t)SYS_RSDT, 0, "BOCHS ");
	assert_true(acpi_init(&ai, r, 20, "multiboot2-tag14"));
	assert_false(ai.have_hpet);
	assert_true(ai.have_madt);
	assert_true(ai.have_fadt);
	assert_int_equal(ai.nerrors, 1);
	assert_true(ai.tables[2].checksum_ok);
	blob_free(&h);
	blob_free(&m);
	blob_free(&f);
}
