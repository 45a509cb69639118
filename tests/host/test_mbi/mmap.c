/* SPDX-License-Identifier: GPL-2.0-only */
/* Multiboot parser host tests: memory map entry sizes, wrapping and empty
 * entries, too many entries, the meminfo fallback and the error cap. */
#include "tests/host/test_mbi/mbi_test.h"

void test_mb2_mmap_entry_size(void **state)
{
	(void)state;
	const uint32_t bad[] = { 0, 8, 16, 20, 23, 25, 28, 31, 0xfffffff8u, 0x80000000u };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct blob x = mb2_begin();
		uint8_t p[8 + 48] = { 0 };

		le_put(p, bad[i], 4);
		le_put(p + 8, 0x100000, 8);	/* something entry-like */
		le_put(p + 16, 0x1000000, 8);
		le_put(p + 24, 1, 4);
		mb2_tag(&x, 6, p, sizeof(p));
		mb2_end(&x);
		mb2_finish(&x);
		mb2_install(&x, MB2_INFO);
		assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
		char want[MBI_ERROR_LEN];

		snprintf(want, sizeof(want),
			 "memory map entry_size %u invalid (need >= 24, multiple of 8)", bad[i]);
		if (bad[i] >= 24 && bad[i] % 8 == 0) {
			/* well-formed but larger than the tag: no entries,
			 * and said so (not just "no memory map") */
			snprintf(want, sizeof(want),
				 "mbi: memory map tag has 48 bytes of entries, not a multiple of entry_size %u; the last 48 ignored",
				 bad[i]);
			assert_error(want);
			assert_int_equal(bi.nmmap, 0);
		} else {
			assert_error(want);
			assert_int_equal(bi.nmmap, 0);
		}
		blob_free(&x);
	}
	/* an entry_size larger than the tag (and one that would wrap the
	 * offset): no entry is read past the tag */
	for (int k = 0; k < 2; k++) {
		struct blob x = mb2_begin();
		uint8_t p[8] = { 0 };

		le_put(p, k ? 0xfffffff8u : 32, 4);
		mb2_tag(&x, 6, p, sizeof(p));	/* header only, no entries */
		mb2_end(&x);
		mb2_finish(&x);
		mb2_install(&x, MB2_INFO);
		parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
		assert_int_equal(bi.nmmap, 0);
		assert_error("no memory map and no basic memory information");
		blob_free(&x);
	}
	/* a future, larger entry_size: entries read with that stride */
	struct blob x = mb2_begin();

	mb2_mmap(&x, qemu_e820, QEMU_NE820, 32);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_no_errors();
	check_qemu_e820();
	blob_free(&x);
	/* a partial trailing entry is ignored */
	x = mb2_begin();
	struct blob p = { 0 };

	blob_int(&p, 24, 4);
	blob_int(&p, 0, 4);
	blob_int(&p, 0x100000, 8);
	blob_int(&p, 0x200000, 8);
	blob_int(&p, 1, 4);
	blob_int(&p, 0, 4);
	blob_int(&p, 0x900000, 8);	/* only 16 bytes of a second entry */
	blob_int(&p, 0x100000, 8);
	mb2_tag(&x, 6, p.b, p.len);
	blob_free(&p);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_int_equal(bi.nmmap, 1);
	assert_region(0, 0x100000, 0x200000, 1);
	assert_error("mbi: memory map tag has 40 bytes of entries, not a multiple of entry_size 24; the last 16 ignored");
	assert_int_equal(bi.nerrors, 1);
	blob_free(&x);
	/* GRUB's shape, 24-byte entries, with an entry_size of 4096 (as
	 * tests/qemu/mbforge mmap=esize-big forges it): the map is named
	 * bad before the basic-meminfo fallback says there is none */
	x = mb2_begin();
	mb2_meminfo(&x, 639, 1047552);
	mb2_mmap(&x, qemu_e820, QEMU_NE820, 24);
	le_put(x.b + x.len - (8 + 24 * QEMU_NE820), 4096, 4);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_int_equal(bi.nerrors, 2);
	char want[MBI_ERROR_LEN];

	snprintf(want, sizeof(want),
		 "mbi: memory map tag has %u bytes of entries, not a multiple of entry_size 4096; the last %u ignored",
		 (unsigned)(24 * QEMU_NE820), (unsigned)(24 * QEMU_NE820));
	assert_string_equal(bi.errors[0], want);
	assert_string_equal(bi.errors[1], "mbi: no memory map; using mem_lower/mem_upper (639 KiB, 1047552 KiB)");
	assert_int_equal(bi.nmmap, 2);
	blob_free(&x);
}

void test_mmap_wrapping_and_empty_entries(void **state)
{
	(void)state;
	const struct e820 e[] = {
		{ 0x0, 0x9fc00, MMAP_RAM },
		{ 0xffffffff00000000ull, 0x200000000ull, MMAP_RAM },	/* wraps */
		{ 0x100000, 0, MMAP_RAM },				/* empty: skipped */
		{ 0x100000, 0x1000000, MMAP_RAM },
		{ 0x1, UINT64_MAX, MMAP_RESERVED },			/* wraps */
		{ 0xfffffffffffff000ull, 0x1000, MMAP_RESERVED },	/* ends at 2^64 */
		{ 0xfee00000, 0x1000, MMAP_BAD },
	};
	struct blob x = mb2_begin();

	mb2_mmap(&x, e, 7, 24);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_error("memory map entry base=0xffffffff00000000 len=0x200000000 wraps; dropped");
	assert_error("memory map entry base=0x1 len=0xffffffffffffffff wraps; dropped");
	/* ending exactly at 2^64 is not representable as base + len */
	assert_error("base=0xfffffffffffff000 len=0x1000 wraps; dropped");
	assert_int_equal(bi.nmmap, 3);
	assert_region(0, 0, 0x9fc00, MMAP_RAM);
	assert_region(1, 0x100000, 0x1000000, MMAP_RAM);
	assert_region(bi.nmmap - 1, 0xfee00000, 0x1000, MMAP_BAD);
	blob_free(&x);

	/* the same through multiboot 1 */
	struct mb1 m;

	mb1_init(&m, MB1_MMAP);
	uint32_t len = mb1_put_mmap(MB1_MAP, e, 7, 20);

	mb1_set(&m, 44, len, 4);
	mb1_set(&m, 48, MB1_MAP, 4);
	mb1_install(&m, MB1_INFO);
	assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
	assert_error("base=0xffffffff00000000 len=0x200000000 wraps; dropped");
	assert_region(0, 0, 0x9fc00, MMAP_RAM);
	assert_region(1, 0x100000, 0x1000000, MMAP_RAM);
}

void test_mmap_too_many_entries(void **state)
{
	(void)state;
	static struct e820 e[300];

	for (unsigned i = 0; i < 300; i++)
		e[i] = (struct e820){ 0x100000ull * (i + 1), 0x1000, i % 2 ? MMAP_RAM : MMAP_RESERVED };
	struct blob x = mb2_begin();

	mb2_mmap(&x, e, 300, 24);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_int_equal(bi.nmmap, MBI_MAX_MMAP);
	assert_int_equal(bi.nmmap_dropped, 300 - MBI_MAX_MMAP);
	assert_error("mbi: memory map has more than 256 entries; 44 dropped");
	assert_int_equal(bi.nerrors, 1);
	for (unsigned i = 0; i < MBI_MAX_MMAP; i++)
		assert_region(i, e[i].base, e[i].len, e[i].type);
	blob_free(&x);

	/* exactly the maximum: fine */
	x = mb2_begin();
	mb2_mmap(&x, e, MBI_MAX_MMAP, 24);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_no_errors();
	assert_int_equal(bi.nmmap, MBI_MAX_MMAP);
	blob_free(&x);

	/* multiboot 1 */
	struct mb1 m;

	mb1_init(&m, MB1_MMAP);
	uint32_t len = mb1_put_mmap(INFO_BASE + 0x10000, e, 300, 20);

	mb1_set(&m, 44, len, 4);
	mb1_set(&m, 48, INFO_BASE + 0x10000, 4);
	mb1_install(&m, MB1_INFO);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_int_equal(bi.nmmap, MBI_MAX_MMAP);
	assert_error("more than 256 entries; 44 dropped");
}

void test_meminfo_fallback(void **state)
{
	(void)state;
	struct mb1 m;

	mb1_init(&m, MB1_MEM);
	mb1_set(&m, 4, 639, 4);
	mb1_set(&m, 8, 523264, 4);
	mb1_install(&m, MB1_INFO);
	assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
	assert_int_equal(bi.nerrors, 1);
	assert_error("mbi: no memory map; using mem_lower/mem_upper (639 KiB, 523264 KiB)");
	assert_int_equal(bi.nmmap, 2);
	assert_region(0, 0, 639 * 1024, MMAP_RAM);
	assert_region(1, 0x100000, 523264ull * 1024, MMAP_RAM);
	assert_false(bi.has_cmdline);
	assert_false(bi.has_loader);

	/* mem_upper in KiB can exceed 4 GiB in bytes */
	mb1_set(&m, 8, 0xffffffff, 4);
	mb1_set(&m, 4, 0, 4);
	mb1_install(&m, MB1_INFO);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_int_equal(bi.nmmap, 1);		/* the empty low range is skipped */
	assert_region(0, 0x100000, 0xffffffffull * 1024, MMAP_RAM);

	/* neither */
	mb1_init(&m, 0);
	mb1_install(&m, MB1_INFO);
	assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
	assert_int_equal(bi.nerrors, 1);
	assert_error("mbi: no memory map and no basic memory information");
	assert_int_equal(bi.nmmap, 0);

	/* multiboot 2: meminfo tag without a map */
	struct blob x = mb2_begin();

	mb2_string(&x, 2, "GRUB 2.06");
	mb2_meminfo(&x, 640, 1024);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_error("no memory map; using mem_lower/mem_upper (640 KiB, 1024 KiB)");
	assert_region(0, 0, 640 * 1024, MMAP_RAM);
	assert_region(1, 0x100000, 1024 * 1024, MMAP_RAM);
	blob_free(&x);
}

void test_error_cap(void **state)
{
	(void)state;
	struct blob x = mb2_begin();

	for (int i = 0; i < 30; i++)
		mb2_tag(&x, 4, "\1\0\0\0", 4);	/* each a "too short" error */
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_int_equal(bi.nerrors, MBI_MAX_ERRORS);
	assert_int_equal(bi.ntags, 31);
	for (unsigned i = 0; i < MBI_MAX_ERRORS; i++)
		assert_non_null(strstr(bi.errors[i], "basic meminfo tag too short"));
	blob_free(&x);
}

/* mbi_map_looks_uefi(): the maps QEMU's firmware hands over through each
 * loader (from real logs), and the edges of the BIOS ROM range. */
void test_map_looks_uefi(void **state)
{
	(void)state;
	static const struct mem_region seabios[] = {	/* SeaBIOS E820, via GRUB or -kernel */
		{ 0, 0x9fc00, 1 }, { 0x9fc00, 0x400, 2 }, { 0xf0000, 0x10000, 2 },
		{ 0x100000, 0x3fee0000, 1 }, { 0x3ffe0000, 0x20000, 2 },
		{ 0xfffc0000, 0x40000, 2 },
	};
	static const struct mem_region ovmf_grub_mb1[] = {	/* OVMF through GRUB's multiboot */
		{ 0, 0xa0000, 1 }, { 0x100000, 0x700000, 1 }, { 0x800000, 0x8000, 4 },
		{ 0x808000, 0x3000, 1 }, { 0x900000, 0x3e5a1000, 1 },
		{ 0x3f9ed000, 0x100000, 20 }, { 0x3fb6d000, 0x12000, 3 },
		{ 0xb0000000, 0x10000000, 2 },
	};
	static const struct mem_region ipxe_bios[] = {	/* RAM only (docs/booting.md) */
		{ 0, 0x9fc00, 1 }, { 0x100000, 0x3fee0000, 1 },
	};
	static const struct mem_region uefi_legacy_reserved[] = {	/* ROM range listed, type 20 too */
		{ 0, 0xa0000, 1 }, { 0xa0000, 0x60000, 2 }, { 0x100000, 0x1000000, 1 },
		{ 0x7f000000, 0x100000, 20 },
	};
	static const struct {
		const struct mem_region *m;
		unsigned n;
		bool want;
	} maps[] = {
		{ seabios, 6, false }, { ovmf_grub_mb1, 8, true }, { ipxe_bios, 2, true },
		{ uefi_legacy_reserved, 4, true },
	};

	for (size_t k = 0; k < sizeof(maps) / sizeof(maps[0]); k++) {
		memset(&bi, 0, sizeof(bi));
		memcpy(bi.mmap, maps[k].m, maps[k].n * sizeof(bi.mmap[0]));
		bi.nmmap = maps[k].n;
		assert_int_equal(mbi_map_looks_uefi(&bi), maps[k].want);
	}
	/* the edges: any byte of 0xf0000-0xfffff listed counts, of any type */
	static const struct {
		uint64_t base, len;
		bool listed;
	} edge[] = {
		{ 0xe0000, 0x10000, false }, { 0xe0000, 0x10001, true }, { 0xfffff, 1, true },
		{ 0x100000, 0x1000, false }, { 0, 0x100000, true }, { 0x80000, 0x1000000, true },
	};

	for (size_t k = 0; k < sizeof(edge) / sizeof(edge[0]); k++) {
		memset(&bi, 0, sizeof(bi));
		bi.mmap[0] = (struct mem_region){ edge[k].base, edge[k].len, 2 };
		bi.nmmap = 1;
		assert_int_equal(mbi_map_looks_uefi(&bi), !edge[k].listed);
	}
	memset(&bi, 0, sizeof(bi));
	assert_false(mbi_map_looks_uefi(&bi));		/* no map: no hint */
}
