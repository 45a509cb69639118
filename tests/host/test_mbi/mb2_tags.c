/* SPDX-License-Identifier: GPL-2.0-only */
/* Multiboot parser host tests: bad pointers and magic, unreadable info,
 * multiboot 2 alignment, tag sizes, end tag and strings. */
#include "tests/host/test_mbi/mbi_test.h"

void test_bad_pointer_and_magic(void **state)
{
	(void)state;
	assert_false(parse(MB1_BOOTLOADER_MAGIC, 0));
	assert_int_equal(bi.nerrors, 1);
	assert_error("mbi: boot information pointer is NULL (magic 0x2badb002)");
	assert_false(parse(MB2_BOOTLOADER_MAGIC, 0));
	assert_error("pointer is NULL (magic 0x36d76289)");
	assert_string_equal(boot_path(), "unknown");

	struct blob x = mb2_grub_bios();

	mb2_install(&x, MB2_INFO);
	/* the header magics, a zero, and a bit flip are not loader magics */
	const uint32_t bad[] = { 0x1badb002, 0xe85250d6, 0, 0x2badb003, 0x36d76288,
				 0xffffffff };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_false(parse(bad[i], MB2_INFO));
		assert_int_equal(bi.proto, 0);
		assert_int_equal(bi.nerrors, 1);
		char want[120];

		snprintf(want, sizeof(want),
			 "mbi: unknown boot loader magic 0x%08x (expected 0x2badb002 or 0x36d76289)",
			 bad[i]);
		assert_string_equal(bi.errors[0], want);
		assert_false(bi.has_cmdline);
		assert_int_equal(bi.nmmap, 0);
		assert_string_equal(boot_path(), "unknown");
	}
	/* right magic, wrong structure: mb1 magic on an mb2 block reads the
	 * total_size as flags, and must not crash */
	parse(MB1_BOOTLOADER_MAGIC, MB2_INFO);
	blob_free(&x);
}

void test_unreadable_info(void **state)
{
	(void)state;
	assert_false(parse(MB1_BOOTLOADER_MAGIC, HOLE));
	assert_error("multiboot1 info at 0x40000000 is not readable");
	assert_false(parse(MB2_BOOTLOADER_MAGIC, HOLE));
	assert_error("multiboot2 info at 0x40000000 is not readable");
	/* near the top of the address space: ranges that wrap */
	assert_false(parse(MB1_BOOTLOADER_MAGIC, 0xfffffffffffffff0ull));
	assert_error("not readable");
	assert_false(parse(MB2_BOOTLOADER_MAGIC, 0xfffffffffffffff8ull));
	assert_error("not readable");
	/* mb2: the header is readable but not all of total_size */
	uint64_t pa = EDGE_END - 64;
	struct blob x = mb2_begin();

	mb2_mmap(&x, qemu_e820, 1, 24);
	mb2_end(&x);
	mb2_finish(&x);
	assert_true(x.len <= 64);
	le_put(x.b, 200, 4);		/* claims 200 bytes: 136 past the end */
	mem_put(pa, x.b, x.len);
	assert_false(parse(MB2_BOOTLOADER_MAGIC, pa));
	assert_error("multiboot2 info (0x7fff0fc0, 200 bytes) is not readable");
	assert_int_equal(bi.nmmap, 0);
	/* the same block fits when total_size is honest */
	le_put(x.b, x.len, 4);
	mem_put(pa, x.b, x.len);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, pa));
	assert_int_equal(bi.nmmap, 1);
	blob_free(&x);
}

void test_mb2_alignment_and_total_size(void **state)
{
	(void)state;
	struct blob x = mb2_grub_bios();

	for (uint64_t mis = 1; mis < 8; mis++) {
		mb2_install(&x, MB2_INFO + mis);
		assert_false(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO + mis));
		assert_error("is not 8-byte aligned");
		assert_int_equal(bi.nmmap, 0);
	}
	const uint32_t bad_total[] = { 0, 1, 8, 15, MBI_MB2_MAX_SIZE + 1, MBI_MB2_MAX_SIZE + 8,
				       0x80000000u, 0xffffffffu };

	for (size_t i = 0; i < sizeof(bad_total) / sizeof(bad_total[0]); i++) {
		le_put(x.b, bad_total[i], 4);
		mb2_install(&x, MB2_INFO);
		assert_false(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
		char want[80];

		snprintf(want, sizeof(want), "multiboot2 total_size %u is impossible (16..%u)",
			 bad_total[i], MBI_MB2_MAX_SIZE);
		assert_error(want);
		assert_int_equal(bi.info_size, 0);
	}
	/* the largest allowed size is parsed (tags then padding, no end tag
	 * within the block is an error, not a crash) */
	le_put(x.b, MBI_MB2_MAX_SIZE, 4);
	mb2_install(&x, MB2_INFO);
	mem_fill(MB2_INFO + x.len, 0xee, MBI_MB2_MAX_SIZE - x.len);
	le_put(x.b, 16, 4);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_int_equal(bi.info_size, MBI_MB2_MAX_SIZE);
	assert_no_errors();	/* the end tag is there, early */
	/* total_size smaller than the tags: the tags past it are not read */
	uint32_t cut = 8 + 32;	/* header + the cmdline tag */

	le_put(x.b, cut, 4);
	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_string_equal(bi.cmdline, "/boot/ringlab.elf quick");
	assert_false(bi.has_loader);
	assert_error("no end tag within its 40 bytes");
	blob_free(&x);
}

void test_mb2_bad_tag_sizes(void **state)
{
	(void)state;
	const uint32_t sizes[] = { 0, 1, 4, 7 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct blob x = mb2_begin();

		mb2_string(&x, 1, "quick");
		blob_int(&x, 2, 4);		/* a loader tag with a bad size */
		blob_int(&x, sizes[i], 4);
		blob_put(&x, "GRUB\0\0\0\0", 8);
		mb2_end(&x);
		mb2_finish(&x);
		mb2_install(&x, MB2_INFO);
		assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
		char want[100];

		snprintf(want, sizeof(want),
			 "multiboot2 tag type 2 at offset 24 has bad size %u; rest ignored", sizes[i]);
		assert_error(want);
		assert_error("no end tag");
		assert_string_equal(bi.cmdline, "quick");	/* before it: kept */
		assert_false(bi.has_loader);
		blob_free(&x);
	}
	/* a tag running past total_size */
	struct blob x = mb2_begin();

	mb2_string(&x, 1, "quick");
	blob_int(&x, 6, 4);
	blob_int(&x, 0x1000, 4);
	blob_int(&x, 24, 4);
	blob_int(&x, 0, 4);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_error("multiboot2 tag type 6 at offset 24 has bad size 4096; rest ignored");
	assert_int_equal(bi.nmmap, 0);
	blob_free(&x);
	/* the last tag is exactly at the end, its size padded past it: ok
	 * when the padding is inside total_size; a size of 0xffffffff never */
	x = mb2_begin();
	blob_int(&x, 1, 4);
	blob_int(&x, 0xffffffffu, 4);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_error("bad size 4294967295");
	blob_free(&x);
}

void test_mb2_end_tag(void **state)
{
	(void)state;
	/* no end tag: the tags fill total_size exactly */
	struct blob x = mb2_begin();

	mb2_string(&x, 1, "quick");
	mb2_mmap(&x, qemu_e820, QEMU_NE820, 24);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	char want[80];

	snprintf(want, sizeof(want), "multiboot2 info has no end tag within its %zu bytes", x.len);
	assert_error(want);
	assert_int_equal(bi.nerrors, 1);
	assert_string_equal(bi.cmdline, "quick");
	check_qemu_e820();		/* what was there is used */
	blob_free(&x);

	/* total_size leaves 4 bytes after the last tag: too few for a tag */
	x = mb2_begin();
	mb2_string(&x, 1, "quick");
	blob_int(&x, 0, 4);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_error("no end tag");
	blob_free(&x);

	/* tags after the end tag are ignored */
	x = mb2_begin();
	mb2_string(&x, 1, "quick");
	mb2_mmap(&x, qemu_e820, 1, 24);
	mb2_end(&x);
	mb2_string(&x, 2, "after the end");
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_no_errors();
	assert_int_equal(bi.ntags, 3);
	assert_false(bi.has_loader);
	blob_free(&x);

	/* an end tag with a larger size is still the end */
	x = mb2_begin();
	mb2_mmap(&x, qemu_e820, 1, 24);
	mb2_tag(&x, 0, "\0\0\0\0\0\0\0\0", 8);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_no_errors();
	blob_free(&x);
}

void test_mb2_strings(void **state)
{
	(void)state;
	/* cmdline tag without a NUL inside its size */
	struct blob x = mb2_begin();

	mb2_tag(&x, 1, "quick", 5);	/* size 13, no terminator */
	mb2_string(&x, 2, "GRUB 2.06");
	mb2_mmap(&x, qemu_e820, 1, 24);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_error("mbi: command line tag is not NUL-terminated; ignored");
	assert_int_equal(bi.nerrors, 1);
	assert_false(bi.has_cmdline);
	assert_string_equal(bi.cmdline, "");
	assert_string_equal(bi.loader, "GRUB 2.06");	/* next tag still read */
	blob_free(&x);

	/* the same for the loader name, and an empty payload */
	x = mb2_begin();
	mb2_tag(&x, 2, "GRUB", 4);
	mb2_tag(&x, 1, NULL, 0);
	mb2_mmap(&x, qemu_e820, 1, 24);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_error("boot loader name tag is not NUL-terminated; ignored");
	assert_error("command line tag is not NUL-terminated; ignored");
	assert_false(bi.has_loader);
	assert_string_equal(boot_path(), "multiboot2 (unknown loader)");
	blob_free(&x);

	/* longer than the buffers: truncated, and said so */
	static char longcmd[3000], longname[200];

	memset(longcmd, 'c', sizeof(longcmd) - 1);
	memset(longname, 'n', sizeof(longname) - 1);
	x = mb2_begin();
	mb2_string(&x, 1, longcmd);
	mb2_string(&x, 2, longname);
	mb2_mmap(&x, qemu_e820, 1, 24);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_error("mbi: command line longer than 2047 bytes; truncated");
	assert_error("mbi: boot loader name longer than 127 bytes; truncated");
	assert_true(bi.has_cmdline);
	assert_true(bi.cmdline_truncated);	/* the run is a config error */
	assert_int_equal(strlen(bi.cmdline), MBI_CMDLINE_MAX - 1);
	assert_memory_equal(bi.cmdline, longcmd, MBI_CMDLINE_MAX - 1);
	assert_int_equal(strlen(bi.loader), MBI_LOADER_MAX - 1);
	blob_free(&x);

	/* duplicate tags: the last good one wins; a bad one changes nothing */
	x = mb2_begin();
	mb2_string(&x, 1, "first");
	mb2_string(&x, 2, "GRUB 2.06");
	mb2_tag(&x, 1, "bad", 3);
	mb2_tag(&x, 2, "bad", 3);
	mb2_mmap(&x, qemu_e820, 1, 24);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_int_equal(bi.nerrors, 2);
	assert_error("command line tag is not NUL-terminated; ignored");
	assert_true(bi.has_cmdline);
	assert_string_equal(bi.cmdline, "first");
	assert_true(bi.has_loader);
	assert_string_equal(boot_path(), "GRUB BIOS");
	blob_free(&x);
	x = mb2_begin();
	mb2_string(&x, 1, "first");
	mb2_string(&x, 1, "second");
	mb2_mmap(&x, qemu_e820, 1, 24);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_no_errors();
	assert_string_equal(bi.cmdline, "second");
	blob_free(&x);

	/* exactly fitting strings: no error */
	longcmd[MBI_CMDLINE_MAX - 1] = '\0';
	longname[MBI_LOADER_MAX - 1] = '\0';
	x = mb2_begin();
	mb2_string(&x, 1, longcmd);
	mb2_string(&x, 2, longname);
	mb2_mmap(&x, qemu_e820, 1, 24);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_no_errors();
	assert_int_equal(strlen(bi.cmdline), MBI_CMDLINE_MAX - 1);
	assert_int_equal(strlen(bi.loader), MBI_LOADER_MAX - 1);
	blob_free(&x);
}

void test_mb2_short_tags(void **state)
{
	(void)state;
	struct blob x = mb2_begin();

	mb2_tag(&x, 4, "\1\0\0\0", 4);			/* meminfo: 12 bytes */
	mb2_tag(&x, 6, "\x18\0\0\0", 4);		/* mmap: 12 bytes */
	mb2_tag(&x, 8, "\0\0\0\0\0\0\0\0", 8);	/* framebuffer: 16 bytes */
	mb2_tag(&x, 14, "RSD PTR \0\0\0\0", 12);	/* RSDP: 20 bytes */
	mb2_tag(&x, 12, "\1\2\3\4", 4);		/* EFI64 without a pointer */
	mb2_tag(&x, 11, "\1\2", 2);			/* EFI32 without a pointer */
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_error("basic meminfo tag too short (12 bytes)");
	assert_error("memory map tag too short (12 bytes)");
	assert_error("framebuffer tag too short (16 bytes)");
	assert_error("ACPI RSDP tag 14 too short (20 bytes)");
	assert_error("no memory map and no basic memory information");
	assert_false(bi.has_meminfo || bi.has_fb || bi.has_rsdp || bi.efi64 || bi.efi32);
	assert_int_equal(bi.nmmap, 0);
	assert_false(mbi_is_uefi(&bi));
	blob_free(&x);
}
