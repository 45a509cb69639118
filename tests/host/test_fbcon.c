/* SPDX-License-Identifier: GPL-2.0-only */
/* Host unit tests for kernel/fbcon.c: text rendered into an in-memory
 * framebuffer, checked pixel by pixel against lib/font5x7, at every scale
 * and pixel layout the console draws (gray 24/32-bit; colour 15/16/24/32-bit
 * with the fields wherever the loader says), with guard bytes around the
 * framebuffer and in the row padding. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/fbcon.h"
#include "lib/font5x7.h"

#define W	(10 * FBCON_CELL_W + 3)	/* 10 columns and a partial one */
#define H	(6 * FBCON_CELL_H + 5)	/* status line + 5 log rows, partial row */
#define PITCH	(W * 4 + 12)		/* padded rows */

#define GUARD	0xa5	/* bytes the console must never write */

static uint8_t mem[PITCH * H + 64];
static struct fbcon fc;

/* Pixel layouts (field position, size: red, green, blue). */
static const struct fbcon_rgb xrgb8888 = { 16, 8, 8, 8, 0, 8 };
static const struct fbcon_rgb xbgr8888 = { 0, 8, 8, 8, 16, 8 };	/* red at bit 0 */
static const struct fbcon_rgb rgb565 = { 11, 5, 5, 6, 0, 5 };
static const struct fbcon_rgb bgr565 = { 0, 5, 5, 6, 11, 5 };	/* red at bit 0 */
static const struct fbcon_rgb xrgb1555 = { 10, 5, 5, 5, 0, 5 };
static const struct fbcon_rgb xrgb2101010 = { 20, 10, 10, 10, 0, 10 };

static uint8_t px(const uint8_t *base, unsigned pitch, unsigned bpp, unsigned x, unsigned y)
{
	const uint8_t *p = base + (size_t)y * pitch + (size_t)x * (bpp / 8);

	assert_int_equal(p[0], p[1]);	/* gray only */
	assert_int_equal(p[1], p[2]);
	if (bpp == 32)
		assert_int_equal(p[3], 0);
	return p[0];
}

/* The pixel value at (x, y), little-endian, bytespp bytes. */
static uint32_t pixel(const uint8_t *base, unsigned pitch, unsigned bytespp, unsigned x, unsigned y)
{
	const uint8_t *p = base + (size_t)y * pitch + (size_t)x * bytespp;
	uint32_t v = 0;

	for (unsigned i = 0; i < bytespp; i++)
		v |= (uint32_t)p[i] << (8 * i);
	return v;
}

/* True when the cell at (col, row) of a scale-s grid shows ch, pixel fg
 * on pixel bg: the scale-1 cell (glyph at x 1, y 1, each font pixel 1
 * wide and 2 tall) magnified s times. */
static int scaled_cell_is(const uint8_t *base, unsigned pitch, unsigned bytespp, unsigned s,
			  unsigned col, unsigned row, char ch, uint32_t fg, uint32_t bg)
{
	const uint8_t *g = font5x7[(unsigned char)ch - FONT5X7_FIRST];

	for (unsigned y = 0; y < FBCON_CELL_H * s; y++)
		for (unsigned x = 0; x < FBCON_CELL_W * s; x++) {
			int by = (int)(y / s), bx = (int)(x / s);
			int fr = (by - 1) / 2, fcol = bx - 1;
			int lit = by >= 1 && fr < FONT5X7_ROWS && fcol >= 0 && fcol < FONT5X7_COLS &&
				  (g[fr] >> (FONT5X7_COLS - 1 - fcol)) & 1;
			uint32_t v = pixel(base, pitch, bytespp, col * FBCON_CELL_W * s + x,
					   row * FBCON_CELL_H * s + y);

			if (v != (lit ? fg : bg))
				return 0;
		}
	return 1;
}

/* The gray form: every pixel also gray (R = G = B, byte 3 zero). */
static int cell_is(const uint8_t *base, unsigned pitch, unsigned bpp, unsigned col, unsigned row,
		   char ch, uint8_t fg, uint8_t bg)
{
	for (unsigned y = 0; y < FBCON_CELL_H; y++)
		for (unsigned x = 0; x < FBCON_CELL_W; x++)
			px(base, pitch, bpp, col * FBCON_CELL_W + x, row * FBCON_CELL_H + y);
	return scaled_cell_is(base, pitch, bpp / 8, 1, col, row, ch, fg * 0x010101u,
			      bg * 0x010101u);
}

static int log_cell(unsigned col, unsigned row, char ch)
{
	return cell_is(mem, PITCH, 32, col, row, ch, FBCON_FG, FBCON_BG);
}

static void put_to(struct fbcon *f, const char *s)
{
	fbcon_write(f, s, strlen(s));
}

static void put(const char *s)
{
	put_to(&fc, s);
}

static int setup(void **state)
{
	(void)state;
	memset(mem, 0x77, sizeof(mem));
	assert_null(fbcon_init(&fc, mem, PITCH, W, H, 32, NULL, 0));
	return 0;
}

/* ---------------------------------------------- gray rendering, scale 1 --- */

static void test_geometry_and_clear(void **state)
{
	(void)state;
	assert_int_equal(fc.cols, 10);
	assert_int_equal(fc.rows, 6);
	assert_int_equal(fc.scale, 1);
	assert_false(fc.colour);
	/* every visible pixel cleared, the row padding and beyond untouched */
	for (unsigned y = 0; y < H; y++) {
		for (unsigned x = 0; x < W; x++) {
			uint8_t v = px(mem, PITCH, 32, x, y);

			if (y >= FBCON_CELL_H)
				assert_int_equal(v, FBCON_BG);
			else	/* the status line: its text, or its background */
				assert_true(v == FBCON_STATUS_BG || v == FBCON_STATUS_FG);
		}
		for (unsigned b = W * 4; b < PITCH; b++)
			assert_int_equal(mem[y * PITCH + b], 0x77);
	}
	assert_int_equal(mem[PITCH * H], 0x77);
	assert_true(cell_is(mem, PITCH, 32, 0, 0, 'r', FBCON_STATUS_FG, FBCON_STATUS_BG));
}

static void test_glyph_placement(void **state)
{
	(void)state;
	put("Hi!");
	assert_true(log_cell(0, 1, 'H'));
	assert_true(log_cell(1, 1, 'i'));
	assert_true(log_cell(2, 1, '!'));
	assert_true(log_cell(3, 1, ' '));
	assert_false(log_cell(0, 1, 'A'));	/* the check itself can fail */
	/* the glyph really has lit pixels: 'H' row 0 col 0 at (1,1),(1,2) */
	assert_int_equal(px(mem, PITCH, 32, 1, FBCON_CELL_H + 1), FBCON_FG);
	assert_int_equal(px(mem, PITCH, 32, 1, FBCON_CELL_H + 2), FBCON_FG);
	assert_int_equal(px(mem, PITCH, 32, 0, FBCON_CELL_H + 1), FBCON_BG);
	put("\r\n\tx\x01\xff");
	assert_true(log_cell(0, 2, ' '));
	assert_true(log_cell(1, 2, 'x'));
	assert_true(log_cell(2, 2, '?'));
	assert_true(log_cell(3, 2, '?'));
}

static void test_clipping(void **state)
{
	(void)state;
	put("0123456789ABCDEF\nz");
	for (unsigned c = 0; c < 10; c++)
		assert_true(log_cell(c, 1, "0123456789"[c]));
	/* nothing past the last full column: the partial cell stays blank */
	for (unsigned y = FBCON_CELL_H; y < 2 * FBCON_CELL_H; y++)
		for (unsigned x = 10 * FBCON_CELL_W; x < W; x++)
			assert_int_equal(px(mem, PITCH, 32, x, y), FBCON_BG);
	assert_true(log_cell(0, 2, 'z'));	/* the clipped tail did not wrap */
}

static void test_scrolling(void **state)
{
	(void)state;
	/* 5 log rows: lines a..e fill them, f scrolls by rows/2 = 3 */
	put("a\nb\nc\nd\ne\nf\n");
	assert_true(log_cell(0, 1, 'd'));
	assert_true(log_cell(0, 2, 'e'));
	assert_true(log_cell(0, 3, 'f'));
	assert_true(log_cell(0, 4, ' '));
	assert_true(log_cell(0, 5, ' '));
	put("g");
	assert_true(log_cell(0, 4, 'g'));
	/* the partial row at the bottom is never drawn on */
	for (unsigned y = 6 * FBCON_CELL_H; y < H; y++)
		for (unsigned x = 0; x < W; x++)
			assert_int_equal(px(mem, PITCH, 32, x, y), FBCON_BG);
	/* many lines: still the last ones at the bottom, nothing overruns */
	for (int i = 0; i < 1000; i++)
		put("xyz\n");
	put("END");
	assert_int_equal(mem[PITCH * H], 0x77);
	assert_true(log_cell(0, fc.cy, 'E'));
	assert_true(log_cell(0, fc.cy - 1, 'x'));
}

static void test_status_line(void **state)
{
	char buf[200];

	(void)state;
	put("KTAP version 1\n# id.version: v9\n# id.cpu.brand: TestCPU\n");
	put("    # Subtest: boot\n    ok 1 a\n    # result: boot.a pass\n");
	put("    not ok 2 b # bad\n    # result: boot.b fail\n");
	fbcon_status_text(&fc, buf, sizeof(buf));
	assert_string_equal(buf, "ringlab v9 | TestCPU | suite boot | case boot.b | failures 1");
	/* row 0 shows its start, white on the status gray */
	for (unsigned c = 0; c < 10; c++)
		assert_true(cell_is(mem, PITCH, 32, c, 0, "ringlab v9"[c], FBCON_STATUS_FG,
				    FBCON_STATUS_BG));
	/* gray rendering: a failing result line is drawn brighter, a passing
	 * one in the normal gray */
	put("not ok 3 c\n");
	assert_true(cell_is(mem, PITCH, 32, 0, fc.cy - 1, 'n', FBCON_FG_FAIL, FBCON_BG));
	put("ok 4 d\n");
	assert_true(cell_is(mem, PITCH, 32, 0, fc.cy - 1, 'o', FBCON_FG, FBCON_BG));
	put("ringlab: 1 passed, 1 failed, 0 skipped\n");
	fbcon_status_text(&fc, buf, sizeof(buf));
	assert_string_equal(buf, "ringlab v9 | TestCPU | done: 1 passed, 1 failed, 0 skipped");
	/* a second run starts over */
	put("KTAP version 1\n");
	fbcon_status_text(&fc, buf, sizeof(buf));
	assert_string_equal(buf, "ringlab v9 | TestCPU | suite - | case - | failures 0");
}

/* A status line wider than the screen: the CPU name shrinks, the progress
 * and the verdict at its end stay in view; the full text is unchanged. */
static void test_status_fitted(void **state)
{
	enum { SW = 64 * FBCON_CELL_W, SH = 4 * FBCON_CELL_H };
	static uint8_t m[SW * 4 * SH];
	static struct fbcon f;
	char buf[200], row[65];

	(void)state;
	assert_null(fbcon_init(&f, m, SW * 4, SW, SH, 32, &xrgb8888, 1));
	assert_int_equal(f.cols, 64);
	put_to(&f, "# id.version: v9\n# id.cpu.brand: Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz\n");
	put_to(&f, "ringlab: 12 passed, 1 failed, 3 skipped\n");
	memcpy(row, f.grid[0], 64);
	row[64] = '\0';
	assert_string_equal(row, "ringlab v9 | Intel(R) Xeo | done: 12 passed, 1 failed, 3 skipped");
	put_to(&f, "KTAP version 1\n# Subtest: boot\n");
	memcpy(row, f.grid[0], 64);
	assert_string_equal(row, "ringlab v9 | Intel(R) Xeon(R) | suite boot | case - | failures 0");
	put_to(&f, "ringlab: 1 passed, 0 failed, 0 skipped\n");
	memcpy(row, f.grid[0], 64);
	assert_string_equal(row, "ringlab v9 | Intel(R) Xeon | done: 1 passed, 0 failed, 0 skipped");
	/* ... drawn so: cell 13 shows 'I' in the verdict's colour */
	assert_true(scaled_cell_is(m, SW * 4, 4, 1, 13, 0, 'I', FBCON_RGB_PASS, 0x505050));
	/* the full text is unchanged */
	fbcon_status_text(&f, buf, sizeof(buf));
	assert_string_equal(buf, "ringlab v9 | Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz | done: 1 passed, 0 failed, 0 skipped");
}

static void test_24bpp(void **state)
{
	static uint8_t m24[(W * 3 + 1) * H];
	static struct fbcon fb_, *f = &fb_;

	(void)state;
	assert_null(fbcon_init(f, m24, W * 3 + 1, W, H, 24, NULL, 0));
	fbcon_write(f, "Q", 1);
	assert_true(cell_is(m24, W * 3 + 1, 24, 0, 1, 'Q', FBCON_FG, FBCON_BG));
}

static void test_refused(void **state)
{
	static const struct fbcon_rgb bad = { 28, 8, 8, 8, 0, 8 };	/* red past bit 31 */

	(void)state;
	memset(mem, 0x77, sizeof(mem));
	assert_non_null(fbcon_init(&fc, mem, W * 4 - 1, W, H, 32, NULL, 0));	/* bad pitch */
	assert_non_null(fbcon_init(&fc, mem, W * 3 - 1, W, H, 24, NULL, 0));
	assert_non_null(fbcon_init(&fc, mem, W * 2 - 1, W, H, 16, &rgb565, 0));
	assert_non_null(fbcon_init(&fc, mem, PITCH, W, H, 16, NULL, 0));	/* bpp */
	assert_non_null(fbcon_init(&fc, mem, PITCH, W, H, 8, NULL, 0));
	assert_non_null(fbcon_init(&fc, mem, PITCH, W, H, 8, &rgb565, 0));
	assert_non_null(fbcon_init(&fc, mem, PITCH, W, H, 32, &bad, 0));	/* layout */
	assert_non_null(fbcon_init(&fc, mem, PITCH, W, H, 16, &xrgb8888, 0));
	assert_non_null(fbcon_init(&fc, mem, PITCH, 0, H, 32, NULL, 0));	/* sizes */
	assert_non_null(fbcon_init(&fc, mem, PITCH, W, FBCON_CELL_H, 32, NULL, 0));
	assert_non_null(fbcon_init(&fc, NULL, PITCH, W, H, 32, NULL, 0));
	/* refused: nothing written, and writes afterwards are ignored */
	fbcon_write(&fc, "abc\n", 4);
	for (size_t i = 0; i < sizeof(mem); i++)
		assert_int_equal(mem[i], 0x77);
}

/* ------------------------------------------------------------- scale --- */

static void test_pick_scale(void **state)
{
	static const struct {
		uint32_t w, h;
		unsigned scale;
	} t[] = {
		{ 640, 480, 1 }, { 800, 600, 1 }, { 1024, 768, 1 },
		{ 1279, 800, 1 },	/* 79 columns at 2 */
		{ 1280, 799, 1 },	/* 24 rows at 2 */
		{ 1280, 800, 2 },	/* exactly 80x25 at 2 (OVMF's default GOP mode) */
		{ 1280, 1024, 2 }, { 1600, 900, 2 },
		{ 1920, 1080, 2 },	/* 22 rows at 3 */
		{ 1920, 1200, 3 },	/* exactly 80x25 at 3 */
		{ 2560, 1440, 3 }, { 3840, 2160, 3 },
		{ 7680, 4320, 3 },	/* never above FBCON_SCALE_MAX */
		{ 0, 0, 1 }, { UINT32_MAX, UINT32_MAX, 3 }, { UINT32_MAX, 100, 1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		unsigned s = fbcon_pick_scale(t[i].w, t[i].h);

		if (s != t[i].scale)
			fail_msg("%ux%u: scale %u, expected %u", t[i].w, t[i].h, s, t[i].scale);
		/* the rule: s keeps 80x25 cells (or is 1), s + 1 would not */
		assert_true(s == 1 || (t[i].w / (FBCON_CELL_W * s) >= FBCON_MIN_COLS &&
				       t[i].h / (FBCON_CELL_H * s) >= FBCON_MIN_ROWS));
		assert_true(s == FBCON_SCALE_MAX ||
			    t[i].w / (FBCON_CELL_W * (s + 1)) < FBCON_MIN_COLS ||
			    t[i].h / (FBCON_CELL_H * (s + 1)) < FBCON_MIN_ROWS);
	}
}

/* The grid at the auto scale and at a forced one, on full-size screens. */
static void test_scale_grid(void **state)
{
	static const struct {
		uint32_t w, h;
		unsigned want, scale, cols, rows;
	} t[] = {
		{ 1280, 800, 0, 2, 80, 25 },
		{ 1920, 1080, 0, 2, 120, 33 },
		{ 2560, 1440, 0, 3, 106, 30 },
		{ 1920, 1080, 1, 1, 240, 67 },	/* fbscale=1 */
		{ 1024, 768, 3, 3, 42, 16 },	/* fbscale=3 on a small screen */
		{ 40, 70, 3, 2, 2, 2 },		/* fbscale=3 leaves < 2 cells: reduced */
		{ 20, 40, 3, 1, 2, 2 },
	};
	static struct fbcon fb_, *f = &fb_;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint32_t pitch = t[i].w * 4;
		uint8_t *m = malloc((size_t)pitch * t[i].h);

		assert_null(fbcon_init(f, m, pitch, t[i].w, t[i].h, 32, &xrgb8888, t[i].want));
		if (f->scale != t[i].scale || f->cols != t[i].cols || f->rows != t[i].rows)
			fail_msg("%ux%u fbscale %u: scale %u grid %ux%u, expected %u, %ux%u",
				 t[i].w, t[i].h, t[i].want, f->scale, f->cols, f->rows,
				 t[i].scale, t[i].cols, t[i].rows);
		assert_int_equal(f->cell_w, FBCON_CELL_W * t[i].scale);
		assert_int_equal(f->cell_h, FBCON_CELL_H * t[i].scale);
		free(m);
	}
}

/* ------------------------------------------------------------ colour --- */

static void test_rgb_pixel(void **state)
{
	(void)state;
	/* 8-bit fields: the channel bytes where the layout puts them */
	assert_int_equal(fbcon_rgb_pixel(&xrgb8888, 0x123456), 0x123456);
	assert_int_equal(fbcon_rgb_pixel(&xbgr8888, 0x123456), 0x563412);
	assert_int_equal(fbcon_rgb_pixel(&xrgb8888, 0xff0000), 0xff0000);
	assert_int_equal(fbcon_rgb_pixel(&xbgr8888, 0xff0000), 0x0000ff);
	/* RGB565: 5-6-5 bits, rounded to nearest */
	assert_int_equal(fbcon_rgb_pixel(&rgb565, 0xffffff), 0xffff);
	assert_int_equal(fbcon_rgb_pixel(&rgb565, 0x000000), 0x0000);
	assert_int_equal(fbcon_rgb_pixel(&rgb565, 0xff0000), 0xf800);
	assert_int_equal(fbcon_rgb_pixel(&rgb565, 0x00ff00), 0x07e0);
	assert_int_equal(fbcon_rgb_pixel(&rgb565, 0x0000ff), 0x001f);
	assert_int_equal(fbcon_rgb_pixel(&rgb565, FBCON_RGB_TEXT), 0xbdf7);
	assert_int_equal(fbcon_rgb_pixel(&rgb565, FBCON_RGB_FAIL), 0xfa49);
	assert_int_equal(fbcon_rgb_pixel(&rgb565, FBCON_RGB_SKIP), 0xdde8);
	/* red at bit 0 */
	assert_int_equal(fbcon_rgb_pixel(&bgr565, 0xff0000), 0x001f);
	assert_int_equal(fbcon_rgb_pixel(&bgr565, 0x0000ff), 0xf800);
	assert_int_equal(fbcon_rgb_pixel(&bgr565, FBCON_RGB_FAIL), 0x4a5f);
	/* 15-bit and 10-bit fields */
	assert_int_equal(fbcon_rgb_pixel(&xrgb1555, 0xffffff), 0x7fff);
	assert_int_equal(fbcon_rgb_pixel(&xrgb1555, FBCON_RGB_PASS), 0x232c);
	assert_int_equal(fbcon_rgb_pixel(&rgb565, FBCON_RGB_PASS), 0x466c);
	assert_int_equal(fbcon_rgb_pixel(&bgr565, FBCON_RGB_PASS), 0x6668);
	assert_int_equal(fbcon_rgb_pixel(&xrgb2101010, 0xffffff), 0x3fffffff);
	assert_int_equal(fbcon_rgb_pixel(&xrgb2101010, FBCON_RGB_FAIL), 0x3ff48521);
}

static void test_rgb_check(void **state)
{
	static const struct {
		struct fbcon_rgb rgb;
		unsigned bpp;
		bool ok;
	} t[] = {
		{ { 16, 8, 8, 8, 0, 8 }, 32, true },
		{ { 16, 8, 8, 8, 0, 8 }, 24, true },
		{ { 0, 8, 8, 8, 16, 8 }, 24, true },
		{ { 11, 5, 5, 6, 0, 5 }, 16, true },
		{ { 10, 5, 5, 5, 0, 5 }, 15, true },
		{ { 10, 5, 5, 5, 0, 5 }, 16, true },
		{ { 20, 10, 10, 10, 0, 10 }, 32, true },
		{ { 24, 8, 16, 8, 8, 8 }, 32, true },		/* RGBX: red in the top byte */
		{ { 16, 16, 8, 8, 0, 8 }, 32, true },		/* 16 bits wide: the limit */
		{ { 11, 5, 5, 6, 0, 5 }, 15, false },		/* red's top bit is bit 15 */
		{ { 16, 8, 8, 8, 0, 8 }, 16, false },		/* red outside 16 bits */
		{ { 25, 8, 8, 8, 0, 8 }, 32, false },		/* red's top bit 32 */
		{ { 255, 8, 8, 8, 0, 8 }, 32, false },		/* no wrap in pos + size */
		{ { 16, 255, 8, 8, 0, 8 }, 32, false },
		{ { 16, 0, 8, 8, 0, 8 }, 32, false },		/* empty field */
		{ { 8, 17, 0, 8, 25, 7 }, 32, false },		/* 17 bits wide */
		{ { 16, 8, 12, 8, 0, 8 }, 32, false },		/* green overlaps red */
		{ { 0, 8, 0, 8, 0, 8 }, 32, false },		/* all three in one byte */
		{ { 0, 1, 1, 1, 2, 1 }, 40, false },		/* pixel wider than 32 bits */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const char *why = fbcon_rgb_check(&t[i].rgb, t[i].bpp);

		if ((why == NULL) != t[i].ok)
			fail_msg("layout %zu: %s", i, why ? why : "accepted");
	}
}

static void test_line_role(void **state)
{
	static const struct {
		const char *line;
		enum fbcon_role role;
	} t[] = {
		{ "ok 1 mbi", FBCON_ROLE_PASS },
		{ "    ok 12 boot.mbi", FBCON_ROLE_PASS },
		{ "ok ", FBCON_ROLE_PASS },
		{ "ok 3 pcid # SKIP CPU lacks PCID", FBCON_ROLE_SKIP },
		{ "    ok 3 pcid # SKIP", FBCON_ROLE_SKIP },
		{ "ok 3 pcid #SKIP", FBCON_ROLE_PASS },		/* not the KTAP directive */
		{ "ok 3 a#b # SKIP", FBCON_ROLE_SKIP },
		{ "not ok 2 b # bad", FBCON_ROLE_FAIL },
		{ "    not ok 2 hang # TIMEOUT budget exceeded", FBCON_ROLE_FAIL },
		{ "not ok 2 b # SKIP", FBCON_ROLE_FAIL },	/* not ok is never a skip */
		{ "# error: mbi: framebuffer tag too short", FBCON_ROLE_ERROR },
		{ "    # error: x", FBCON_ROLE_ERROR },
		{ "ringlab: PANIC: #PF", FBCON_ROLE_ERROR },
		{ "Bail out! no memory", FBCON_ROLE_ERROR },
		{ "ok", FBCON_ROLE_TEXT },			/* prefix not complete yet */
		{ "okay", FBCON_ROLE_TEXT },
		{ "not ok", FBCON_ROLE_TEXT },
		{ "# result: boot.b fail", FBCON_ROLE_TEXT },
		{ "# warning: console: x", FBCON_ROLE_TEXT },
		{ "# errors: 0", FBCON_ROLE_TEXT },
		{ "ringlab: 1 passed, 0 failed, 0 skipped", FBCON_ROLE_TEXT },
		{ "KTAP version 1", FBCON_ROLE_TEXT },
		{ "", FBCON_ROLE_TEXT },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		enum fbcon_role r = fbcon_line_role(t[i].line);

		if (r != t[i].role)
			fail_msg("\"%s\": role %d, expected %d", t[i].line, r, t[i].role);
	}
}

/* Colour rendering in RGB565 with red at bit 0 (BGR565), at scale 2:
 * each result line in its colour, composed from the layout, whether the
 * console hands the line over whole or a byte at a time. */
static void test_colour_lines(void **state)
{
	enum { CW = 2 * FBCON_CELL_W, CH = 2 * FBCON_CELL_H, GW = 24 * CW + 5, GH = 9 * CH + 3,
	       GP = GW * 2 + 6 };
	static uint8_t m[GP * GH];
	static const struct {
		const char *line;
		uint32_t fg;		/* hand-computed BGR565 pixel */
	} t[] = {
		{ "ok 1 a", 0x6668 },			/* FBCON_RGB_PASS */
		{ "not ok 2 b", 0x4a5f },		/* FBCON_RGB_FAIL */
		{ "ok 3 c # SKIP x", 0x45fb },		/* FBCON_RGB_SKIP */
		{ "# error: e", 0xfa9f },		/* FBCON_RGB_ERROR */
		{ "# result: a pass", 0xbdf7 },	/* FBCON_RGB_TEXT */
	};
	static struct fbcon fb_, *f = &fb_;

	(void)state;
	for (int bytewise = 0; bytewise < 2; bytewise++) {
		memset(m, GUARD, sizeof(m));
		assert_null(fbcon_init(f, m, GP, GW, GH, 16, &bgr565, 2));
		assert_true(f->colour);
		assert_int_equal(f->cols, 24);
		assert_int_equal(f->rows, 9);
		for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
			if (bytewise)
				for (const char *p = t[i].line; *p; p++)
					fbcon_write(f, p, 1);
			else
				fbcon_write(f, t[i].line, strlen(t[i].line));
			fbcon_write(f, "\n", 1);
		}
		for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
			for (unsigned c = 0; c < strlen(t[i].line); c++)
				if (!scaled_cell_is(m, GP, 2, 2, c, 1 + (unsigned)i, t[i].line[c], t[i].fg, 0))
					fail_msg("line \"%s\" column %u (bytewise %d) not drawn in 0x%04x",
						 t[i].line, c, bytewise, t[i].fg);
		/* the status line: white on gray 0x50 (0x528a in 565) ... */
		assert_true(scaled_cell_is(m, GP, 2, 2, 0, 0, 'r', 0xffff, 0x528a));
		/* ... its text in the verdict's colour once the summary is in */
		fbcon_write(f, "ringlab: 5 passed, 0 failed, 0 skipped\n", 39);
		assert_true(scaled_cell_is(m, GP, 2, 2, 0, 0, 'r', 0x6668, 0x528a));
		fbcon_write(f, "ringlab: 5 passed, 10 failed, 0 skipped\n", 40);
		assert_true(scaled_cell_is(m, GP, 2, 2, 0, 0, 'r', 0x4a5f, 0x528a));
		fbcon_write(f, "ringlab: PANIC: #PF\n", 20);
		assert_true(scaled_cell_is(m, GP, 2, 2, 0, 0, 'r', 0xfa9f, 0x528a));
		/* the check can fail: the pass line is not in the fail colour */
		assert_false(scaled_cell_is(m, GP, 2, 2, 0, 1, 'o', 0x4a5f, 0));
		/* the row padding was never written */
		for (unsigned y = 0; y < GH; y++)
			for (unsigned b = GW * 2; b < GP; b++)
				assert_int_equal(m[y * GP + b], GUARD);
	}
}

/* A SKIP directive arriving after the line began: the cells already drawn
 * in the pass colour are repainted. */
static void test_colour_repaint(void **state)
{
	static uint8_t m[PITCH * H];
	static struct fbcon fb_, *f = &fb_;
	uint32_t pass = fbcon_rgb_pixel(&xbgr8888, FBCON_RGB_PASS);
	uint32_t skip = fbcon_rgb_pixel(&xbgr8888, FBCON_RGB_SKIP);

	(void)state;
	assert_null(fbcon_init(f, m, PITCH, W, H, 32, &xbgr8888, 1));
	fbcon_write(f, "ok 1 a # S", 10);
	assert_true(scaled_cell_is(m, PITCH, 4, 1, 0, 1, 'o', pass, 0));
	fbcon_write(f, "KIP", 3);
	for (unsigned c = 0; c < 10; c++)	/* 10 columns; the rest clipped */
		assert_true(scaled_cell_is(m, PITCH, 4, 1, c, 1, "ok 1 a # S"[c], skip, 0));
	fbcon_write(f, "\nplain\n", 7);
	assert_true(scaled_cell_is(m, PITCH, 4, 1, 0, 2, 'p', fbcon_rgb_pixel(&xbgr8888, FBCON_RGB_TEXT), 0));
}

/* ------------------------------------------------------------ bounds --- */

/* At every scale and pixel size, on a screen that is no whole number of
 * cells, with padded rows and guard bytes on both sides: after clearing,
 * long lines, control characters and hundreds of scrolls, no byte outside
 * the visible pixels changed, and the partial column and row at the right
 * and bottom edges hold background only. */
static void test_bounds_every_scale(void **state)
{
	static const struct {
		unsigned bpp;
		const struct fbcon_rgb *rgb;
	} fmt[] = {
		{ 32, NULL }, { 24, NULL }, { 32, &xbgr8888 }, { 24, &xrgb8888 },
		{ 16, &rgb565 }, { 16, &bgr565 }, { 15, &xrgb1555 }, { 32, &xrgb2101010 },
	};
	enum { PRE = 256, POST = 256, PAD = 7 };
	static struct fbcon fb_, *f = &fb_;
	char line[400];

	(void)state;
	for (unsigned s = 1; s <= FBCON_SCALE_MAX; s++)
		for (size_t k = 0; k < sizeof(fmt) / sizeof(fmt[0]); k++) {
			unsigned bytespp = (fmt[k].bpp + 7) / 8;
			uint32_t w = 13 * FBCON_CELL_W * s + 5, h = 7 * FBCON_CELL_H * s + 3;
			uint32_t pitch = w * bytespp + PAD;
			size_t size = PRE + (size_t)pitch * h + POST;
			uint8_t *buf = malloc(size), *fb = buf + PRE;
			uint32_t bg = fmt[k].rgb ? fbcon_rgb_pixel(fmt[k].rgb, 0) : 0;

			memset(buf, GUARD, size);
			assert_null(fbcon_init(f, fb, pitch, w, h, fmt[k].bpp, fmt[k].rgb, s));
			assert_int_equal(f->scale, s);
			assert_int_equal(f->cols, 13);
			assert_int_equal(f->rows, 7);
			for (int i = 0; i < 300; i++) {
				int n = snprintf(line, sizeof(line), "%s %d %s\t\x01\n",
						 i % 3 == 0 ? "not ok" : i % 3 == 1 ? "ok" : "# error:", i,
						 "a line much longer than thirteen columns of text");

				fbcon_write(f, line, (size_t)n);
			}
			fbcon_write(f, "END", 3);
			for (size_t i = 0; i < PRE; i++)
				assert_int_equal(buf[i], GUARD);
			for (size_t i = 0; i < POST; i++)
				assert_int_equal(fb[(size_t)pitch * h + i], GUARD);
			for (uint32_t y = 0; y < h; y++)
				for (uint32_t b = w * bytespp; b < pitch; b++)
					if (fb[(size_t)y * pitch + b] != GUARD)
						fail_msg("scale %u bpp %u: padding byte %u of row %u written",
							 s, fmt[k].bpp, b, y);
			for (uint32_t y = 0; y < h; y++)
				for (uint32_t x = 0; x < w; x++) {
					bool edge = x >= 13 * FBCON_CELL_W * s || y >= 7 * FBCON_CELL_H * s;

					if (edge && y >= FBCON_CELL_H * s &&
					    pixel(fb, pitch, bytespp, x, y) != bg)
						fail_msg("scale %u bpp %u: edge pixel (%u,%u) drawn on",
							 s, fmt[k].bpp, x, y);
				}
			/* the last line is where the cursor is, at this scale */
			assert_true(scaled_cell_is(fb, pitch, bytespp, s, 0, f->cy, 'E',
						   f->px_role[FBCON_ROLE_TEXT], bg));
			free(buf);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_geometry_and_clear, setup),
		cmocka_unit_test_setup(test_glyph_placement, setup),
		cmocka_unit_test_setup(test_clipping, setup),
		cmocka_unit_test_setup(test_scrolling, setup),
		cmocka_unit_test_setup(test_status_line, setup),
		cmocka_unit_test(test_status_fitted),
		cmocka_unit_test(test_24bpp),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_pick_scale),
		cmocka_unit_test(test_scale_grid),
		cmocka_unit_test(test_rgb_pixel),
		cmocka_unit_test(test_rgb_check),
		cmocka_unit_test(test_line_role),
		cmocka_unit_test(test_colour_lines),
		cmocka_unit_test(test_colour_repaint),
		cmocka_unit_test(test_bounds_every_scale),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
