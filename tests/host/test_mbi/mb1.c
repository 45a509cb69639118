/* SPDX-License-Identifier: GPL-2.0-only */
/* Multiboot parser host tests: multiboot 1 info as QEMU and other loaders
 * build it, its framebuffer, command line, loader name and memory map. */
#include "tests/host/test_mbi/mbi_test.h"


void test_mb1_qemu_kernel(void **state)
{
	(void)state;
	struct mb1 m;

	mb1_qemu(&m, "build/ringlab.elf quick");
	mb1_install(&m, MB1_INFO);
	assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
	assert_no_errors();
	assert_int_equal(bi.proto, 1);
	assert_int_equal(bi.info_size, 0);
	assert_true(bi.has_cmdline);
	assert_string_equal(bi.cmdline, "build/ringlab.elf quick");
	assert_true(bi.has_loader);
	assert_string_equal(bi.loader, "qemu");
	assert_true(bi.has_meminfo);
	assert_int_equal(bi.mem_lower_kb, 639);
	assert_int_equal(bi.mem_upper_kb, 130048);
	check_qemu_e820();
	assert_int_equal(bi.nmmap_dropped, 0);
	assert_false(bi.has_fb);
	assert_false(bi.has_rsdp);
	assert_false(mbi_is_uefi(&bi));
	assert_int_equal(bi.ntags, 0);
	assert_string_equal(boot_path(), "QEMU -kernel");

	/* an empty command line is still a command line */
	put_str(MB1_CMD, "");
	assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
	assert_no_errors();
	assert_true(bi.has_cmdline);
	assert_string_equal(bi.cmdline, "");
}

void test_mb1_other_loaders(void **state)
{
	(void)state;
	struct mb1 m;

	mb1_qemu(&m, "quick");
	mb1_install(&m, MB1_INFO);
	put_str(MB1_NAME, "iPXE");
	assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
	assert_no_errors();
	assert_string_equal(boot_path(), "multiboot1 (iPXE)");
	put_str(MB1_NAME, "GRUB 2.06");		/* GRUB's "multiboot" command */
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_string_equal(boot_path(), "multiboot1 (GRUB 2.06)");
	put_str(MB1_NAME, "qemu-system-x86_64");	/* "qemu" prefix */
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_string_equal(boot_path(), "QEMU -kernel");
	put_str(MB1_NAME, "syslinux mboot.c32");
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_string_equal(boot_path(), "multiboot1 (syslinux mboot.c32)");

	/* no loader name flag */
	mb1_set(&m, 0, MB1_MEM | MB1_CMDLINE | MB1_MMAP, 4);
	mb1_install(&m, MB1_INFO);
	assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
	assert_no_errors();
	assert_false(bi.has_loader);
	assert_string_equal(bi.loader, "");
	assert_string_equal(boot_path(), "multiboot1 (unknown loader)");

	/* the path buffer is bounded */
	char small[8];

	mb1_qemu(&m, "x");
	mb1_install(&m, MB1_INFO);
	put_str(MB1_NAME, "iPXE");
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_ptr_equal(mbi_boot_path(&bi, small, sizeof(small)), small);
	assert_string_equal(small, "multibo");
}

void test_mb1_framebuffer(void **state)
{
	(void)state;
	struct mb1 m;

	mb1_qemu(&m, "quick");
	mb1_set(&m, 0, MB1_MEM | MB1_CMDLINE | MB1_MMAP | MB1_LOADER | MB1_FB, 4);
	mb1_set(&m, 88, 0xfd000000, 8);
	mb1_set(&m, 96, 4096, 4);
	mb1_set(&m, 100, 1024, 4);
	mb1_set(&m, 104, 768, 4);
	m.b[108] = 32;
	m.b[109] = 1;
	mb1_install(&m, MB1_INFO);
	assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
	assert_no_errors();
	assert_true(bi.has_fb);
	assert_int_equal(bi.fb.addr, 0xfd000000);
	assert_int_equal(bi.fb.pitch, 4096);
	assert_int_equal(bi.fb.width, 1024);
	assert_int_equal(bi.fb.height, 768);
	assert_int_equal(bi.fb.bpp, 32);
	assert_int_equal(bi.fb.type, 1);

	/* the same info flush against the end of readable memory with only
	 * the 72-byte base readable: no framebuffer, the rest still parsed */
	uint64_t pa = EDGE_END - 72;

	mem_put(pa, m.b, 72);
	assert_true(parse(MB1_BOOTLOADER_MAGIC, pa));
	assert_no_errors();
	assert_false(bi.has_fb);
	assert_string_equal(bi.cmdline, "quick");
	check_qemu_e820();
	/* fewer than 72 bytes: unreadable */
	pa = EDGE_END - 71;
	mem_put(pa, m.b, 71);
	assert_false(parse(MB1_BOOTLOADER_MAGIC, pa));
	assert_error("multiboot1 info at 0x7fff0fb9 is not readable");
}

void test_mb1_cmdline_pointer(void **state)
{
	(void)state;
	struct mb1 m;

	/* NULL pointer */
	mb1_qemu(&m, "quick");
	mb1_set(&m, 16, 0, 4);
	mb1_install(&m, MB1_INFO);
	assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
	assert_error("mbi: command line pointer is NULL");
	assert_int_equal(bi.nerrors, 1);
	assert_false(bi.has_cmdline);
	assert_string_equal(bi.loader, "qemu");		/* the rest is parsed */
	check_qemu_e820();

	/* unreadable */
	mb1_set(&m, 16, HOLE, 4);
	mb1_install(&m, MB1_INFO);
	assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
	assert_error("mbi: command line at 0x40000000 is not readable");
	assert_false(bi.has_cmdline);
	assert_string_equal(bi.cmdline, "");

	/* starts readable, runs into unreadable memory before its NUL */
	uint64_t pa = EDGE_END - 10;

	mem_put(pa, "0123456789", 10);
	mb1_set(&m, 16, pa, 4);
	mb1_install(&m, MB1_INFO);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_error("mbi: command line at 0x7fff0ff6 is not readable");
	assert_false(bi.has_cmdline);
	assert_string_equal(bi.cmdline, "");
	/* ... and a short string right at the end is fine */
	mem_put(pa, "012345678", 10);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_no_errors();
	assert_string_equal(bi.cmdline, "012345678");

	/* unterminated and long: cut at the buffer, reported */
	mem_fill(INFO_BASE, 'x', 0x10000);
	mb1_set(&m, 16, INFO_BASE, 4);
	mb1_install(&m, MB1_INFO);
	unsigned long long before = view_calls;

	assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
	assert_error("mbi: command line longer than 2047 bytes; truncated");
	assert_true(bi.has_cmdline);
	assert_true(bi.cmdline_truncated);
	assert_int_equal(strlen(bi.cmdline), MBI_CMDLINE_MAX - 1);
	assert_true(view_calls - before < 2 * MBI_CMDLINE_MAX + 64);	/* bounded */
	/* exactly 2047 characters: no error */
	mem_fill(INFO_BASE + MBI_CMDLINE_MAX - 1, 0, 1);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_no_errors();
	assert_false(bi.cmdline_truncated);
	assert_int_equal(strlen(bi.cmdline), MBI_CMDLINE_MAX - 1);
	/* 2048: truncated */
	mem_fill(INFO_BASE + MBI_CMDLINE_MAX - 1, 'x', 1);
	mem_fill(INFO_BASE + MBI_CMDLINE_MAX, 0, 1);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_error("command line longer than 2047 bytes; truncated");
}

void test_mb1_loader_name(void **state)
{
	(void)state;
	struct mb1 m;
	char name[300];

	mb1_qemu(&m, "quick");
	mb1_install(&m, MB1_INFO);
	memset(name, 'L', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	put_str(MB1_NAME, name);
	assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
	assert_error("mbi: boot loader name longer than 127 bytes; truncated");
	assert_true(bi.has_loader);
	assert_int_equal(strlen(bi.loader), MBI_LOADER_MAX - 1);
	/* the boot path is cut to its buffer too */
	const char *bp = boot_path();

	assert_int_equal(strlen(bp), 127);
	assert_memory_equal(bp, "multiboot1 (LLLL", 16);
	assert_int_equal(strspn(bp + 12, "L"), 127 - 12);
	/* NULL and unreadable loader name pointers */
	mb1_set(&m, 64, 0, 4);
	mb1_install(&m, MB1_INFO);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_error("mbi: boot loader name pointer is NULL");
	assert_false(bi.has_loader);
	assert_string_equal(boot_path(), "multiboot1 (unknown loader)");
	mb1_set(&m, 64, 0xffffffff, 4);
	mb1_install(&m, MB1_INFO);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_error("mbi: boot loader name at 0xffffffff is not readable");
	assert_false(bi.has_loader);
}

void test_mb1_mmap_bad(void **state)
{
	(void)state;
	struct mb1 m;

	/* entry sizes: too small, and running past mmap_length */
	const uint32_t bad[] = { 0, 4, 19, 100, 0xfffffffcu, 0xfffffffdu, 0xffffffffu };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		mb1_qemu(&m, "quick");
		uint32_t len = mb1_put_mmap(MB1_MAP, qemu_e820, 3, 20);

		put32(MB1_MAP + 24, bad[i]);	/* the second entry's size */
		mb1_set(&m, 44, len, 4);
		mb1_install(&m, MB1_INFO);
		assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
		char want[120];

		snprintf(want, sizeof(want),
			 "multiboot1 memory map entry at offset 24 has bad size %u; rest ignored",
			 bad[i]);
		assert_error(want);
		assert_int_equal(bi.nmmap, 1);	/* the first entry is kept */
		assert_region(0, qemu_e820[0].base, qemu_e820[0].len, qemu_e820[0].type);
	}
	/* mmap_length not a multiple of the entry: the tail is an error */
	mb1_qemu(&m, "quick");
	mb1_set(&m, 44, 24 * 2 + 10, 4);
	mb1_install(&m, MB1_INFO);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_error("multiboot1 memory map entry at offset 48 has bad size 20");
	assert_int_equal(bi.nmmap, 2);
	/* fewer than 4 bytes left: silently the end */
	mb1_set(&m, 44, 24 * 2 + 3, 4);
	mb1_install(&m, MB1_INFO);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_no_errors();
	assert_int_equal(bi.nmmap, 2);
	/* a larger entry size (the size word allows it) */
	uint32_t len = mb1_put_mmap(MB1_MAP, qemu_e820, QEMU_NE820, 28);

	mb1_set(&m, 44, len, 4);
	mb1_install(&m, MB1_INFO);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_no_errors();
	check_qemu_e820();

	/* the map itself unreadable, or absurdly long */
	mb1_qemu(&m, "quick");
	mb1_set(&m, 48, HOLE, 4);
	mb1_install(&m, MB1_INFO);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_error("multiboot1 memory map (0x40000000, 144 bytes) is not readable or too large");
	/* no map: falls back to mem_lower/mem_upper */
	assert_error("no memory map; using mem_lower/mem_upper (639 KiB, 130048 KiB)");
	assert_int_equal(bi.nmmap, 2);
	mb1_qemu(&m, "quick");
	mb1_set(&m, 44, 0x100000, 4);
	mb1_install(&m, MB1_INFO);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_error("(0x9800, 1048576 bytes) is not readable or too large");
	mb1_set(&m, 44, 0xffffffff, 4);
	mb1_install(&m, MB1_INFO);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_error("4294967295 bytes) is not readable or too large");
	/* the map runs past readable memory */
	mb1_qemu(&m, "quick");
	mb1_put_mmap(EDGE_END - 48, qemu_e820, 2, 20);
	mb1_set(&m, 44, 72, 4);
	mb1_set(&m, 48, EDGE_END - 48, 4);
	mb1_install(&m, MB1_INFO);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_error("is not readable or too large");
	/* an empty map: no entries */
	mb1_set(&m, 44, 0, 4);
	mb1_install(&m, MB1_INFO);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_error("no memory map; using mem_lower/mem_upper");
}
