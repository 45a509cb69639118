/* SPDX-License-Identifier: GPL-2.0-only */
/* Multiboot parser host tests: random input and framebuffer colour info. */
#include "tests/host/test_mbi/mbi_test.h"

/* Random corruption of valid structures: never a crash, a hang or an
 * over-read (ASan), and the invariants hold. */
void test_fuzz(void **state)
{
	(void)state;
	struct rng r;
	struct blob good = mb2_grub_bios();
	struct mb1 m;

	rng_seed(&r, 0x3b1);
	for (int t = 0; t < 4000; t++) {
		struct blob x = { 0 };

		blob_put(&x, good.b, good.len);
		unsigned flips = 1 + (unsigned)rng_below(&r, 8);

		for (unsigned k = 0; k < flips; k++) {
			size_t at = rng_below(&r, x.len);

			if (rng_below(&r, 2))
				x.b[at] ^= (uint8_t)(1u << rng_below(&r, 8));
			else
				x.b[at] = (uint8_t)rng_next(&r);
		}
		/* often keep total_size sane so the tags get walked */
		if (rng_below(&r, 4))
			le_put(x.b, rng_below(&r, 3) ? x.len : 16 + rng_below(&r, x.len), 4);
		/* place it flush against the end of readable memory */
		uint64_t pa = (EDGE_END - x.len) & ~7ull;

		mem_fill(EDGE_BASE, 0, EDGE_SIZE);
		mem_put(pa, x.b, x.len);
		parse(MB2_BOOTLOADER_MAGIC, pa);
		mem_views_free();
		blob_free(&x);

		/* multiboot 1: random flags and pointers, mostly into memory */
		mb1_qemu(&m, "build/ringlab.elf quick");
		for (unsigned k = 0; k < flips; k++) {
			size_t at = rng_below(&r, 72);

			m.b[at] ^= (uint8_t)(1u << rng_below(&r, 8));
		}
		if (rng_below(&r, 3) == 0)
			mb1_set(&m, 16, EDGE_END - rng_below(&r, 16), 4);
		mb1_install(&m, MB1_INFO);
		parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
		mem_views_free();
	}
	blob_free(&good);
}

/* The RGB colour info of a framebuffer (multiboot2 tag 8 type 1: six bytes
 * at body offset 24; multiboot1 flags bit 12 type 1: offsets 110..115),
 * copied as given (kernel/fbcon.c judges the values), and a type 1
 * framebuffer too short to hold it: one error, the framebuffer kept
 * without colour info (drawn in gray). */
static void mb2_fb_rgb(struct blob *x, unsigned body_len, uint8_t type, const uint8_t rgb[6])
{
	uint8_t p[32] = { 0 };

	le_put(p, 0xfd000000, 8);
	le_put(p + 8, 2048, 4);
	le_put(p + 12, 1024, 4);
	le_put(p + 16, 768, 4);
	p[20] = 16;
	p[21] = type;
	memcpy(p + 24, rgb, 6);
	mb2_tag(x, 8, p, body_len);
}

void test_fb_colour_info(void **state)
{
	static const uint8_t bgr565[6] = { 0, 5, 5, 6, 11, 5 };	/* red at bit 0 */
	static const uint8_t odd[6] = { 250, 200, 0, 0, 31, 1 };	/* copied, not judged */
	(void)state;

	for (int k = 0; k < 2; k++) {
		struct blob x = mb2_begin();
		const uint8_t *c = k ? odd : bgr565;

		mb2_mmap(&x, qemu_e820, QEMU_NE820, 24);
		mb2_fb_rgb(&x, 30, 1, c);
		mb2_end(&x);
		mb2_finish(&x);
		mb2_install(&x, MB2_INFO);
		assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
		assert_no_errors();
		assert_true(bi.has_fb && bi.fb.has_rgb);
		assert_int_equal(bi.fb.bpp, 16);
		assert_int_equal(bi.fb.red_pos, c[0]);
		assert_int_equal(bi.fb.red_size, c[1]);
		assert_int_equal(bi.fb.green_pos, c[2]);
		assert_int_equal(bi.fb.green_size, c[3]);
		assert_int_equal(bi.fb.blue_pos, c[4]);
		assert_int_equal(bi.fb.blue_size, c[5]);
		blob_free(&x);
	}
	/* type 1 with 22..29 body bytes: framebuffer kept, no colour info */
	for (unsigned len = 22; len < 30; len++) {
		struct blob x = mb2_begin();

		mb2_mmap(&x, qemu_e820, QEMU_NE820, 24);
		mb2_fb_rgb(&x, len, 1, bgr565);
		mb2_end(&x);
		mb2_finish(&x);
		mb2_install(&x, MB2_INFO);
		assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
		assert_int_equal(bi.nerrors, 1);
		assert_error("mbi: framebuffer tag of type 1 (RGB) too short for its colour info");
		assert_true(bi.has_fb);
		assert_false(bi.fb.has_rgb);
		assert_int_equal(bi.fb.width, 1024);
		blob_free(&x);
	}
	/* types 0 (indexed) and 2 (EGA text) have no RGB info to want */
	for (uint8_t type = 0; type <= 2; type += 2) {
		struct blob x = mb2_begin();

		mb2_mmap(&x, qemu_e820, QEMU_NE820, 24);
		mb2_fb_rgb(&x, 22, type, bgr565);
		mb2_end(&x);
		mb2_finish(&x);
		mb2_install(&x, MB2_INFO);
		assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
		assert_no_errors();
		assert_true(bi.has_fb);
		assert_false(bi.fb.has_rgb);
		blob_free(&x);
	}

	/* multiboot 1: colour info at 110..115 */
	struct mb1 m;

	mb1_qemu(&m, "quick");
	mb1_set(&m, 0, MB1_MEM | MB1_CMDLINE | MB1_MMAP | MB1_LOADER | MB1_FB, 4);
	mb1_set(&m, 88, 0xfd000000, 8);
	mb1_set(&m, 96, 2048, 4);
	mb1_set(&m, 100, 1024, 4);
	mb1_set(&m, 104, 768, 4);
	m.b[108] = 16;
	m.b[109] = 1;
	memcpy(m.b + 110, bgr565, 6);
	mb1_install(&m, MB1_INFO);
	assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
	assert_no_errors();
	assert_true(bi.has_fb && bi.fb.has_rgb);
	assert_int_equal(bi.fb.red_pos, 0);
	assert_int_equal(bi.fb.red_size, 5);
	assert_int_equal(bi.fb.green_pos, 5);
	assert_int_equal(bi.fb.green_size, 6);
	assert_int_equal(bi.fb.blue_pos, 11);
	assert_int_equal(bi.fb.blue_size, 5);
	/* the info ends 110..115 bytes before unreadable memory: the
	 * framebuffer without its colour info, one error */
	for (unsigned n = 110; n < 116; n++) {
		uint64_t pa = EDGE_END - n;

		mem_put(pa, m.b, n);
		assert_true(parse(MB1_BOOTLOADER_MAGIC, pa));
		assert_int_equal(bi.nerrors, 1);
		assert_error("multiboot1 framebuffer colour info at");
		assert_true(bi.has_fb);
		assert_false(bi.fb.has_rgb);
		assert_int_equal(bi.fb.width, 1024);
		assert_string_equal(bi.cmdline, "quick");
	}
	/* indexed (type 0) at the same edge: no colour info wanted, no error */
	m.b[109] = 0;
	mem_put(EDGE_END - 110, m.b, 110);
	assert_true(parse(MB1_BOOTLOADER_MAGIC, EDGE_END - 110));
	assert_no_errors();
	assert_true(bi.has_fb);
	assert_false(bi.fb.has_rgb);
}
