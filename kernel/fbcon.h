/* SPDX-License-Identifier: GPL-2.0-only */
/* Framebuffer console: the log, scrolling, on a linear direct-colour
 * framebuffer (the GOP or VBE framebuffer the loader describes in its
 * multiboot framebuffer information), under a status line that keeps the
 * run's identity and progress in view: version, CPU, current suite and
 * case, failures so far, and at the end the summary.
 *
 * Text cells are FBCON_CELL_W x FBCON_CELL_H pixels at scale 1; glyphs come
 * from lib/font5x7 (each font pixel drawn 1 wide, 2 tall).  At scale s
 * every pixel of that cell is drawn as an s x s block, so the screen shows
 * the same grid magnified (fbcon_pick_scale() chooses s).
 *
 * Pixels: with the loader's colour layout (struct fbcon_rgb: where the
 * red, green and blue fields lie in a pixel, and how wide they are) every
 * pixel is composed from that layout, and result lines get colours
 * (fbcon_line_role()), and the status line's text the run's verdict once
 * the summary is in.  Without it only grays are drawn (R = G = B in
 * 8-bit fields at bits 0, 8 and 16 of a 24/32-bit pixel), so the channel
 * order does not matter; a failing line is drawn brighter instead.
 *
 * This file knows no hardware: kernel/fbcon_boot.c validates and maps the
 * framebuffer and hooks it to the console; the host unit test
 * (tests/host/test_fbcon.c) renders into memory. */
#ifndef RINGLAB_KERNEL_FBCON_H
#define RINGLAB_KERNEL_FBCON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FBCON_CELL_W	8	/* a text cell at scale 1, in pixels */
#define FBCON_CELL_H	16
#define FBCON_MAX_COLS	256	/* wider screens: the right part stays unused */
#define FBCON_MAX_ROWS	96
#define FBCON_LINE_MAX	256	/* log line kept for the status parser */

/* Scale choice (fbcon_pick_scale): the largest scale up to
 * FBCON_SCALE_MAX at which the screen still holds FBCON_MIN_COLS x
 * FBCON_MIN_ROWS cells, the classic 80x25 terminal, so that magnifying
 * never costs the width a KTAP line needs to be read.  1280x800 -> 2
 * (80x25), 1920x1080 -> 2 (120x33; 3 would leave 22 rows), 2560x1440 ->
 * 3 (106x30), 3840x2160 -> 3 (160x45); below 1280 wide -> 1. */
#define FBCON_SCALE_MAX	3
#define FBCON_MIN_COLS	80
#define FBCON_MIN_ROWS	25

/* Gray levels (R = G = B) of the gray rendering, and the gray parts of
 * the colour rendering (background and status line). */
#define FBCON_BG	0x00
#define FBCON_FG	0xc0
#define FBCON_FG_FAIL	0xff
#define FBCON_STATUS_BG	0x50
#define FBCON_STATUS_FG	0xff

/* What a cell shows, hence its colour (fbcon_line_role()). */
enum fbcon_role {
	FBCON_ROLE_TEXT,	/* any other log line */
	FBCON_ROLE_PASS,	/* "ok N name" */
	FBCON_ROLE_SKIP,	/* "ok N name # SKIP ..." */
	FBCON_ROLE_FAIL,	/* "not ok N name ..." */
	FBCON_ROLE_ERROR,	/* "# error: ...", "ringlab: PANIC...", "Bail out!" */
	FBCON_ROLE_STATUS,	/* the status line's text */
	FBCON_NROLES
};

/* Colours of the colour rendering, 0xRRGGBB. */
#define FBCON_RGB_TEXT		0xc0c0c0u
#define FBCON_RGB_PASS		0x40d060u	/* red != blue: a swap shows */
#define FBCON_RGB_SKIP		0xe0c040u
#define FBCON_RGB_FAIL		0xff4848u
#define FBCON_RGB_ERROR		0xff50ffu

/* A direct-colour pixel layout: each field's lowest bit and its width in
 * bits (multiboot2 spec §3.6.12 framebuffer_type 1; multiboot 0.6.96 §3.3
 * color_info of framebuffer_type 1). */
struct fbcon_rgb {
	uint8_t red_pos, red_size, green_pos, green_size, blue_pos, blue_size;
};

struct fbcon {
	volatile uint8_t *base;
	uint32_t pitch, width, height;
	unsigned bpp, bytespp;		/* bpp 15, 16, 24 or 32; bytespp 2..4 */
	unsigned scale, cell_w, cell_h;	/* cell_w = FBCON_CELL_W * scale */
	bool colour;			/* false: gray rendering */
	struct fbcon_rgb rgb;		/* the layout pixels are composed in */
	uint32_t px_role[FBCON_NROLES];	/* foreground pixel of each role */
	uint32_t px_bg, px_status_bg;
	unsigned cols, rows;		/* text grid; row 0 is the status line */
	unsigned cx, cy;		/* log cursor, cy in 1..rows-1 */
	char grid[FBCON_MAX_ROWS][FBCON_MAX_COLS];	/* what the screen shows */
	uint8_t gridrole[FBCON_MAX_ROWS][FBCON_MAX_COLS];
	uint8_t line_role;		/* role of the line being written */
	char line[FBCON_LINE_MAX];	/* current log line, for the parser */
	unsigned linelen;
	/* progress, parsed from the log */
	char version[40], cpu[64], suite[32], kase[48], summary[64];
	unsigned failures;
};

/* The scale for a width x height screen (the rule above). */
unsigned fbcon_pick_scale(uint32_t width, uint32_t height);

/* NULL when rgb is a usable layout for bpp-bit pixels: every field 1..16
 * bits wide, inside the bpp bits, no two overlapping; else why not. */
const char *fbcon_rgb_check(const struct fbcon_rgb *rgb, unsigned bpp);

/* The pixel value of colour 0xRRGGBB in layout rgb: each 8-bit channel
 * scaled to its field's width (rounded), shifted to its position. */
uint32_t fbcon_rgb_pixel(const struct fbcon_rgb *rgb, uint32_t rrggbb);

/* Check the geometry and set up an empty screen (cleared, status line
 * drawn).  rgb NULL: gray rendering, bpp 24 or 32.  rgb given: colour
 * rendering, bpp 15, 16, 24 or 32 and a layout fbcon_rgb_check() accepts.
 * scale 0: fbcon_pick_scale(); 1..FBCON_SCALE_MAX: that scale, or the
 * largest smaller one that still gives two text cells each way.  NULL on
 * success, else why the framebuffer is refused (pixel size, pitch smaller
 * than a row, smaller than 2 text cells each way at scale 1, zero sizes,
 * a bad colour layout, ...). */
const char *fbcon_init(struct fbcon *fc, volatile uint8_t *base, uint32_t pitch,
		       uint32_t width, uint32_t height, unsigned bpp,
		       const struct fbcon_rgb *rgb, unsigned scale);

/* The role of a log line from what has been written of it so far
 * (leading blanks ignored): "not ok " FAIL; "ok " PASS, SKIP once
 * " # SKIP" follows; "# error: ", "ringlab: PANIC", "Bail out!" ERROR;
 * anything else TEXT.  A line's role is final when its '\n' arrives. */
enum fbcon_role fbcon_line_role(const char *line);

/* Feed log text: printable ASCII is drawn, '\n' ends a line (scrolling the
 * log area when it is full), '\r' is ignored, a tab is a space, anything
 * else is '?'.  Lines longer than the screen are clipped at the right edge.
 * Complete lines update the status line. */
void fbcon_write(struct fbcon *fc, const char *s, size_t n);

/* The status line's text (for tests and the log). */
void fbcon_status_text(const struct fbcon *fc, char *buf, size_t size);

#endif
