/* Host unit tests for kernel/fbcon.c (issue 11): text rendered into an
 * in-memory framebuffer, checked pixel by pixel against lib/font5x7. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/fbcon.h"
#include "lib/font5x7.h"

#define W	(10 * FBCON_CELL_W + 3)	/* 10 columns and a partial one */
#define H	(6 * FBCON_CELL_H + 5)	/* status line + 5 log rows, partial row */
#define PITCH	(W * 4 + 12)		/* padded rows */

static uint8_t mem[PITCH * H + 64];
static struct fbcon fc;

static uint8_t px(const uint8_t *base, unsigned pitch, unsigned bpp, unsigned x, unsigned y)
{
	const uint8_t *p = base + (size_t)y * pitch + (size_t)x * (bpp / 8);

	assert_int_equal(p[0], p[1]);	/* gray only */
	assert_int_equal(p[1], p[2]);
	if (bpp == 32)
		assert_int_equal(p[3], 0);
	return p[0];
}

/* True when the cell shows ch in fg on bg, exactly as the font says. */
static int cell_is(const uint8_t *base, unsigned pitch, unsigned bpp, unsigned col, unsigned row,
		   char ch, uint8_t fg, uint8_t bg)
{
	const uint8_t *g = font5x7[(unsigned char)ch - FONT5X7_FIRST];

	for (unsigned y = 0; y < FBCON_CELL_H; y++)
		for (unsigned x = 0; x < FBCON_CELL_W; x++) {
			int fr = ((int)y - 1) / 2, fcol = (int)x - 1;
			int lit = y >= 1 && fr < FONT5X7_ROWS && fcol >= 0 && fcol < FONT5X7_COLS &&
				  (g[fr] >> (FONT5X7_COLS - 1 - fcol)) & 1;
			uint8_t v = px(base, pitch, bpp, col * FBCON_CELL_W + x, row * FBCON_CELL_H + y);

			if (v != (lit ? fg : bg))
				return 0;
		}
	return 1;
}

static int log_cell(unsigned col, unsigned row, char ch)
{
	return cell_is(mem, PITCH, 32, col, row, ch, FBCON_FG, FBCON_BG);
}

static void put(const char *s)
{
	fbcon_write(&fc, s, strlen(s));
}

static int setup(void **state)
{
	(void)state;
	memset(mem, 0x77, sizeof(mem));
	assert_null(fbcon_init(&fc, mem, PITCH, W, H, 32));
	return 0;
}

static void test_geometry_and_clear(void **state)
{
	(void)state;
	assert_int_equal(fc.cols, 10);
	assert_int_equal(fc.rows, 6);
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
	/* a failing result line is drawn brighter */
	put("not ok 3 c\n");
	assert_true(cell_is(mem, PITCH, 32, 0, fc.cy - 1, 'n', FBCON_FG_FAIL, FBCON_BG));
	put("ringlab: 1 passed, 1 failed, 0 skipped\n");
	fbcon_status_text(&fc, buf, sizeof(buf));
	assert_string_equal(buf, "ringlab v9 | TestCPU | done: 1 passed, 1 failed, 0 skipped");
	/* a second run starts over */
	put("KTAP version 1\n");
	fbcon_status_text(&fc, buf, sizeof(buf));
	assert_string_equal(buf, "ringlab v9 | TestCPU | suite - | case - | failures 0");
}

static void test_24bpp(void **state)
{
	static uint8_t m24[(W * 3 + 1) * H];
	struct fbcon *f = malloc(sizeof(*f));

	(void)state;
	assert_null(fbcon_init(f, m24, W * 3 + 1, W, H, 24));
	fbcon_write(f, "Q", 1);
	assert_true(cell_is(m24, W * 3 + 1, 24, 0, 1, 'Q', FBCON_FG, FBCON_BG));
	free(f);
}

static void test_refused(void **state)
{
	(void)state;
	memset(mem, 0x77, sizeof(mem));
	assert_non_null(fbcon_init(&fc, mem, W * 4 - 1, W, H, 32));	/* bad pitch */
	assert_non_null(fbcon_init(&fc, mem, W * 3 - 1, W, H, 24));
	assert_non_null(fbcon_init(&fc, mem, PITCH, W, H, 16));		/* bpp */
	assert_non_null(fbcon_init(&fc, mem, PITCH, W, H, 8));
	assert_non_null(fbcon_init(&fc, mem, PITCH, 0, H, 32));		/* sizes */
	assert_non_null(fbcon_init(&fc, mem, PITCH, W, FBCON_CELL_H, 32));
	assert_non_null(fbcon_init(&fc, NULL, PITCH, W, H, 32));
	/* refused: nothing written, and writes afterwards are ignored */
	fbcon_write(&fc, "abc\n", 4);
	for (size_t i = 0; i < sizeof(mem); i++)
		assert_int_equal(mem[i], 0x77);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_geometry_and_clear, setup),
		cmocka_unit_test_setup(test_glyph_placement, setup),
		cmocka_unit_test_setup(test_clipping, setup),
		cmocka_unit_test_setup(test_scrolling, setup),
		cmocka_unit_test_setup(test_status_line, setup),
		cmocka_unit_test(test_24bpp),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
