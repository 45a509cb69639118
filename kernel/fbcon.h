/* Framebuffer console (issue 11): the log, scrolling, on a linear 24/32-bit
 * direct-RGB framebuffer (the GOP framebuffer GRUB describes in its
 * multiboot2 framebuffer tag), under a status line that keeps the run's
 * identity and progress in view: version, CPU, current suite and case,
 * failures so far, and at the end the summary.
 *
 * Text cells are FBCON_CELL_W x FBCON_CELL_H pixels; glyphs come from
 * lib/font5x7 (each font pixel drawn 1 wide, 2 tall).  Only grays are
 * drawn (R = G = B), so the channel order of the framebuffer does not
 * matter.  This file knows no hardware: kernel/fbcon_boot.c validates and
 * maps the framebuffer and hooks it to the console; the host unit test
 * (tests/host/test_fbcon.c) renders into memory. */
#ifndef RINGLAB_KERNEL_FBCON_H
#define RINGLAB_KERNEL_FBCON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FBCON_CELL_W	8
#define FBCON_CELL_H	16
#define FBCON_MAX_COLS	256	/* wider screens: the right part stays unused */
#define FBCON_MAX_ROWS	96
#define FBCON_LINE_MAX	256	/* log line kept for the status parser */

/* Gray levels (R = G = B). */
#define FBCON_BG	0x00
#define FBCON_FG	0xc0
#define FBCON_FG_FAIL	0xff
#define FBCON_STATUS_BG	0x50
#define FBCON_STATUS_FG	0xff

struct fbcon {
	volatile uint8_t *base;
	uint32_t pitch, width, height;
	unsigned bytespp;		/* 3 or 4 */
	unsigned cols, rows;		/* text grid; row 0 is the status line */
	unsigned cx, cy;		/* log cursor, cy in 1..rows-1 */
	char grid[FBCON_MAX_ROWS][FBCON_MAX_COLS];	/* what the screen shows */
	uint8_t gridfg[FBCON_MAX_ROWS][FBCON_MAX_COLS];
	uint8_t line_fg;		/* foreground of the line being written */
	char line[FBCON_LINE_MAX];	/* current log line, for the parser */
	unsigned linelen;
	/* progress, parsed from the log */
	char version[40], cpu[64], suite[32], kase[48], summary[64];
	unsigned failures;
};

/* Check the geometry and set up an empty screen (cleared, status line
 * drawn).  NULL on success, else why the framebuffer is refused (bpp other
 * than 24/32, pitch smaller than a row, smaller than 2 text rows, zero
 * sizes, ...). */
const char *fbcon_init(struct fbcon *fc, volatile uint8_t *base, uint32_t pitch,
		       uint32_t width, uint32_t height, unsigned bpp);

/* Feed log text: printable ASCII is drawn, '\n' ends a line (scrolling the
 * log area when it is full), '\r' is ignored, a tab is a space, anything
 * else is '?'.  Lines longer than the screen are clipped at the right edge.
 * Complete lines update the status line. */
void fbcon_write(struct fbcon *fc, const char *s, size_t n);

/* The status line's text (for tests and the log). */
void fbcon_status_text(const struct fbcon *fc, char *buf, size_t size);

#endif
