/* SPDX-License-Identifier: GPL-2.0-only */
/* Host unit tests for the multiboot information parser (kernel/mbi.c).
 *
 * phys_view() reads the fake physical memory of fake_phys.c: here a few
 * regions at chosen physical addresses (a low-memory block that does not
 * include page 0, a block at 1 MiB like where GRUB and QEMU put the info,
 * and a small block high up whose end is the end of readable memory).
 * Outside them phys_view() returns NULL.  Every view is a fresh heap copy
 * of exactly the bytes asked for, so ASan reports any read past what the
 * parser asked phys_view() for, not just past a region.
 *
 * The structures are built by hand from the Multiboot 0.6.96 and
 * Multiboot2 specifications; the QEMU and GRUB shapes follow what
 * hw/i386/multiboot.c and grub-core/loader/multiboot_mbi2.c produce.
 *
 * The cases live in tests/host/test_mbi/ (mbi_test.h declares them);
 * this file holds main() and the order they run in. */
#include "tests/host/test_mbi/mbi_test.h"

static int setup(void **state)
{
	(void)state;
	mem_standard();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	mem_reset();
	return 0;
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	/* A length check that wraps can turn a map walk into an endless loop
	 * (it did for the multiboot 1 map): fail fast instead of hanging. */
	alarm(120);

	const struct CMUnitTest tests[] = {
		T(test_mb1_qemu_kernel),
		T(test_mb1_other_loaders),
		T(test_mb1_framebuffer),
		T(test_fb_colour_info),
		T(test_mb2_grub_bios),
		T(test_mb2_grub_uefi),
		T(test_mb2_smbios_tag),
		T(test_mb2_acpi_order),
		T(test_mb2_other_loaders),
		T(test_bad_pointer_and_magic),
		T(test_unreadable_info),
		T(test_mb2_alignment_and_total_size),
		T(test_mb2_bad_tag_sizes),
		T(test_mb2_end_tag),
		T(test_mb2_strings),
		T(test_mb2_short_tags),
		T(test_mb2_mmap_entry_size),
		T(test_mmap_wrapping_and_empty_entries),
		T(test_mmap_too_many_entries),
		T(test_map_looks_uefi),
		T(test_mb1_cmdline_pointer),
		T(test_mb1_loader_name),
		T(test_mb1_mmap_bad),
		T(test_meminfo_fallback),
		T(test_error_cap),
		T(test_fuzz),
	};

	return cmocka_run_group_tests_name("mbi", tests, NULL, NULL);
}
