/* SPDX-License-Identifier: GPL-2.0-only */
/* Host unit tests for arch/x86/acpi.c.
 *
 * phys_view() reads the fake physical memory of fake_phys.c: here a few
 * regions (low 1 MiB, a block at 0x7ffe0000 like a 2 GiB QEMU guest's
 * ACPI area, one above 4 GiB), each its own heap block.  Every view is a
 * fresh heap copy of exactly the bytes asked for, so ASan reports any read
 * past what the parser asked phys_view() for, not just past a region.
 *
 * Run from the repository root: the real-table fixtures are read from
 * tests/host/data/acpi/ (see the README there).
 *
 * The cases live in tests/host/test_acpi/ (acpi_test.h declares them);
 * this file holds main() and the order they run in. */
#include "tests/host/test_acpi/acpi_test.h"

static int teardown(void **state)
{
	(void)state;
	mem_reset();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_checksum, teardown),
		cmocka_unit_test_teardown(test_rsdp_valid, teardown),
		cmocka_unit_test_teardown(test_tag15_uses_xsdt, teardown),
		cmocka_unit_test_teardown(test_tag14_rev0_uses_rsdt, teardown),
		cmocka_unit_test_teardown(test_bad_tag_falls_back_to_scan, teardown),
		cmocka_unit_test_teardown(test_user_rsdp, teardown),
		cmocka_unit_test_teardown(test_ebda_scan, teardown),
		cmocka_unit_test_teardown(test_ebda_pointer_out_of_range, teardown),
		cmocka_unit_test_teardown(test_bios_rom_scan, teardown),
		cmocka_unit_test_teardown(test_bad_rsdp_checksum_not_found, teardown),
		cmocka_unit_test_teardown(test_bad_extended_checksum, teardown),
		cmocka_unit_test_teardown(test_xsdt_bad_falls_back_to_rsdt, teardown),
		cmocka_unit_test_teardown(test_table_bad_checksum_ignored, teardown),
		cmocka_unit_test_teardown(test_table_length_short, teardown),
		cmocka_unit_test_teardown(test_table_length_huge_or_unreadable, teardown),
		cmocka_unit_test_teardown(test_madt_entry_length_zero, teardown),
		cmocka_unit_test_teardown(test_madt_entry_past_end, teardown),
		cmocka_unit_test_teardown(test_madt_truncated_entries, teardown),
		cmocka_unit_test_teardown(test_madt_longer_entries_ok, teardown),
		cmocka_unit_test_teardown(test_madt_duplicate_apic_id, teardown),
		cmocka_unit_test_teardown(test_madt_ignored_ids_and_flags, teardown),
		cmocka_unit_test_teardown(test_madt_lapic_override_and_ioapics, teardown),
		cmocka_unit_test_teardown(test_madt_isa_overrides, teardown),
		cmocka_unit_test_teardown(test_qemu_like_madt, teardown),
		cmocka_unit_test_teardown(test_more_cpus_than_max, teardown),
		cmocka_unit_test_teardown(test_fadt_timer_width, teardown),
		cmocka_unit_test_teardown(test_fadt_short, teardown),
		cmocka_unit_test_teardown(test_fadt_x_pm_tmr_unusable, teardown),
		cmocka_unit_test_teardown(test_fadt_hw_reduced, teardown),
		cmocka_unit_test_teardown(test_hpet, teardown),
		cmocka_unit_test_teardown(test_real_firecracker_tables, teardown),
		cmocka_unit_test_teardown(test_max_tables_and_error_saturation, teardown),
		cmocka_unit_test_teardown(test_root_partial_entry_and_duplicates, teardown),
		cmocka_unit_test_teardown(test_signature_sanitised, teardown),
		cmocka_unit_test_teardown(test_fuzz, teardown),
	};

	return cmocka_run_group_tests_name("acpi", tests, NULL, NULL);
}
