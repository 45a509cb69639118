/* SPDX-License-Identifier: GPL-2.0-only */
/* Multiboot parser host tests: multiboot 2 info as GRUB (BIOS and UEFI)
 * and other loaders build it, SMBIOS and ACPI tags. */
#include "tests/host/test_mbi/mbi_test.h"

void test_mb2_grub_bios(void **state)
{
	(void)state;
	struct blob x = mb2_grub_bios();

	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_no_errors();
	assert_int_equal(bi.proto, 2);
	assert_int_equal(bi.info_size, x.len);
	assert_int_equal(bi.ntags, 7);		/* six and the end tag */
	assert_string_equal(bi.cmdline, "/boot/ringlab.elf quick");
	assert_string_equal(bi.loader, "GRUB 2.06");
	assert_true(bi.has_meminfo);
	assert_int_equal(bi.mem_lower_kb, 639);
	assert_int_equal(bi.mem_upper_kb, 523264);
	check_qemu_e820();
	assert_true(bi.has_fb);
	assert_int_equal(bi.fb.addr, 0xfd000000);
	assert_int_equal(bi.fb.pitch, 4096);
	assert_int_equal(bi.fb.width, 1024);
	assert_int_equal(bi.fb.height, 768);
	assert_int_equal(bi.fb.bpp, 32);
	assert_int_equal(bi.fb.type, 1);
	assert_true(bi.has_rsdp);
	assert_int_equal(bi.rsdp_tag, 14);
	assert_int_equal(bi.rsdp_len, 20);
	assert_memory_equal(bi.rsdp, "RSD PTR ", 8);
	assert_memory_equal(bi.rsdp + 9, "BOCHS ", 6);
	assert_false(mbi_is_uefi(&bi));
	assert_false(bi.efi32 || bi.efi64 || bi.efi_image_handle || bi.efi_bs_not_terminated);
	assert_string_equal(boot_path(), "GRUB BIOS");
	blob_free(&x);
}

/* Tag 13 (SMBIOS): major, minor, 6 reserved bytes, then the entry point,
 * copied for arch/x86/smbios.c; a tag too short for an anchor is an
 * error; a second tag is ignored. */
void test_mb2_smbios_tag(void **state)
{
	(void)state;
	struct blob x = mb2_begin();
	uint8_t body[8 + 24] = { 3, 0 }, body2[8 + 24] = { 2, 8 }, shortb[10] = { 3, 0 };

	memcpy(body + 8, "_SM3_", 5);
	body[8 + 6] = 0x18;
	memcpy(body2 + 8, "_SM_", 4);
	mb2_mmap(&x, qemu_e820, QEMU_NE820, 24);
	mb2_tag(&x, 13, body, sizeof(body));
	mb2_tag(&x, 13, body2, sizeof(body2));
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_no_errors();
	assert_true(bi.has_smbios);
	assert_int_equal(bi.smbios_major, 3);
	assert_int_equal(bi.smbios_len, 24);
	assert_memory_equal(bi.smbios, body + 8, 24);
	blob_free(&x);

	x = mb2_begin();
	mb2_mmap(&x, qemu_e820, QEMU_NE820, 24);
	mb2_tag(&x, 13, shortb, sizeof(shortb));
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_error("mbi: SMBIOS tag too short (18 bytes)");
	assert_false(bi.has_smbios);
	blob_free(&x);
}

void test_mb2_grub_uefi(void **state)
{
	(void)state;
	struct blob x = mb2_begin();
	uint8_t efi_mmap[8 + 2 * 40] = { 48, 0, 0, 0, 1, 0, 0, 0 };

	mb2_string(&x, 1, "/boot/ringlab.elf");
	mb2_string(&x, 2, "GRUB 2.06");
	mb2_u64(&x, 21, 0x200000);		/* load base address: ignored */
	mb2_mmap(&x, qemu_e820, QEMU_NE820, 24);
	mb2_tag(&x, 17, efi_mmap, sizeof(efi_mmap));	/* EFI memory map: ignored */
	mb2_fb(&x, 0x80000000, 5120, 1280, 800, 32, 1);
	mb2_u64(&x, 12, 0x7f9e018);		/* EFI 64-bit system table */
	mb2_acpi_old(&x, "OVMF  ");
	mb2_acpi_new(&x, "OVMF  ");
	mb2_tag(&x, 18, NULL, 0);		/* boot services not terminated */
	mb2_u64(&x, 20, 0x7e12345);		/* EFI 64-bit image handle */
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_no_errors();
	assert_int_equal(bi.ntags, 12);
	assert_string_equal(bi.cmdline, "/boot/ringlab.elf");
	assert_false(bi.has_meminfo);
	check_qemu_e820();
	assert_true(bi.efi64);
	assert_false(bi.efi32);
	assert_int_equal(bi.efi_systab, 0x7f9e018);
	assert_true(bi.efi_image_handle);
	assert_true(bi.efi_bs_not_terminated);
	assert_true(bi.has_rsdp);
	assert_int_equal(bi.rsdp_tag, 15);
	assert_int_equal(bi.rsdp_len, 36);
	uint8_t want[36];

	make_rsdp(want, 2, "OVMF  ");
	assert_memory_equal(bi.rsdp, want, 36);
	assert_int_equal(bi.fb.width, 1280);
	assert_true(mbi_is_uefi(&bi));
	assert_string_equal(boot_path(), "GRUB UEFI");
	blob_free(&x);

	/* EFI64 tag alone makes it UEFI; so does the image handle alone, or
	 * a 32-bit system table */
	x = mb2_begin();
	mb2_string(&x, 2, "GRUB 2.12");
	mb2_mmap(&x, qemu_e820, 2, 24);
	mb2_u64(&x, 12, 0x1000);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_no_errors();
	assert_string_equal(boot_path(), "GRUB UEFI");
	blob_free(&x);

	x = mb2_begin();
	mb2_string(&x, 2, "GRUB 2.06");
	mb2_mmap(&x, qemu_e820, 2, 24);
	mb2_u64(&x, 20, 0x1000);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_true(bi.efi_image_handle);
	assert_false(bi.efi64);
	assert_string_equal(boot_path(), "GRUB UEFI");
	blob_free(&x);

	x = mb2_begin();
	uint8_t st32[4];

	le_put(st32, 0x7fa000, 4);
	mb2_string(&x, 2, "GRUB 2.06");
	mb2_mmap(&x, qemu_e820, 2, 24);
	mb2_tag(&x, 11, st32, 4);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_true(bi.efi32);
	assert_int_equal(bi.efi_systab, 0x7fa000);
	assert_string_equal(boot_path(), "GRUB UEFI");
	blob_free(&x);
}

void test_mb2_acpi_order(void **state)
{
	(void)state;
	uint8_t v2[36];

	make_rsdp(v2, 2, "NEWOEM");
	for (int order = 0; order < 2; order++) {
		struct blob x = mb2_begin();

		mb2_mmap(&x, qemu_e820, 2, 24);
		if (order == 0) {
			mb2_acpi_new(&x, "NEWOEM");
			mb2_acpi_old(&x, "OLDOEM");
		} else {
			mb2_acpi_old(&x, "OLDOEM");
			mb2_acpi_new(&x, "NEWOEM");
		}
		mb2_end(&x);
		mb2_finish(&x);
		mb2_install(&x, MB2_INFO);
		assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
		assert_no_errors();
		assert_true(bi.has_rsdp);
		assert_int_equal(bi.rsdp_tag, 15);
		assert_int_equal(bi.rsdp_len, 36);
		assert_memory_equal(bi.rsdp, v2, 36);
		blob_free(&x);
	}
	/* only the old one */
	struct blob x = mb2_begin();

	mb2_mmap(&x, qemu_e820, 2, 24);
	mb2_acpi_old(&x, "OLDOEM");
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_int_equal(bi.rsdp_tag, 14);
	assert_memory_equal(bi.rsdp + 9, "OLDOEM", 6);
	blob_free(&x);

	/* a too-short RSDP tag is an error and does not replace a good one */
	x = mb2_begin();
	mb2_mmap(&x, qemu_e820, 2, 24);
	mb2_acpi_old(&x, "OLDOEM");
	mb2_tag(&x, 15, "RSD PTR ", 8);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_error("ACPI RSDP tag 15 too short (16 bytes)");
	assert_int_equal(bi.rsdp_tag, 14);
	blob_free(&x);

	/* an oversized payload is cut to the rsdp buffer */
	x = mb2_begin();
	uint8_t big[100];

	memset(big, 0xab, sizeof(big));
	mb2_mmap(&x, qemu_e820, 2, 24);
	mb2_tag(&x, 15, big, sizeof(big));
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_no_errors();
	assert_int_equal(bi.rsdp_len, sizeof(bi.rsdp));
	assert_memory_equal(bi.rsdp, big, sizeof(bi.rsdp));
	blob_free(&x);
}

void test_mb2_other_loaders(void **state)
{
	(void)state;
	struct blob x = mb2_begin();

	mb2_string(&x, 2, "iPXE");
	mb2_mmap(&x, qemu_e820, 2, 24);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_no_errors();
	assert_string_equal(boot_path(), "multiboot2 (iPXE)");
	blob_free(&x);

	/* no loader tag at all */
	x = mb2_begin();
	mb2_mmap(&x, qemu_e820, 2, 24);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_no_errors();
	assert_false(bi.has_loader);
	assert_false(bi.has_cmdline);
	assert_string_equal(boot_path(), "multiboot2 (unknown loader)");
	blob_free(&x);

	/* QEMU's "qemu" name only means QEMU -kernel for multiboot 1 */
	x = mb2_begin();
	mb2_string(&x, 2, "qemu");
	mb2_mmap(&x, qemu_e820, 2, 24);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_string_equal(boot_path(), "multiboot2 (qemu)");
	blob_free(&x);

	/* smallest valid block: header and end tag */
	x = mb2_begin();
	mb2_end(&x);
	mb2_finish(&x);
	assert_int_equal(x.len, 16);
	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_int_equal(bi.ntags, 1);
	assert_int_equal(bi.nerrors, 1);
	assert_error("no memory map and no basic memory information");
	blob_free(&x);
}
