/* Framebuffer console: text grid, scrolling and status line; see fbcon.h. */
#include "kernel/fbcon.h"
#include "lib/font5x7.h"
#include "lib/printf.h"
#include "lib/string.h"

#define GLYPH_X0	1	/* font column 0 is drawn at cell x = 1 */
#define GLYPH_Y0	1	/* font row 0 at cell y = 1..2 */

/* The only store to the framebuffer (the MMIO allow-list names this file:
 * tests/host/check-io.py).  Gray: the same byte in every channel. */
static void put_px(struct fbcon *fc, uint32_t x, uint32_t y, uint8_t g)
{
	volatile uint8_t *p = fc->base + (size_t)y * fc->pitch + (size_t)x * fc->bytespp;

	if (fc->bytespp == 4) {
		*(volatile uint32_t *)p = (uint32_t)g * 0x010101u;
	} else {
		p[0] = g;
		p[1] = g;
		p[2] = g;
	}
}

static void draw_cell(struct fbcon *fc, unsigned col, unsigned row, char ch, uint8_t fg)
{
	uint8_t bg = row == 0 ? FBCON_STATUS_BG : FBCON_BG;
	uint32_t x0 = col * FBCON_CELL_W, y0 = row * FBCON_CELL_H;
	const uint8_t *g = font5x7[(unsigned char)ch - FONT5X7_FIRST];

	for (unsigned y = 0; y < FBCON_CELL_H; y++) {
		int fr = ((int)y - GLYPH_Y0) / 2;	/* font row, or out of the glyph */
		unsigned bits = y >= GLYPH_Y0 && fr < FONT5X7_ROWS ? g[fr] : 0;

		for (unsigned x = 0; x < FBCON_CELL_W; x++) {
			int fc_col = (int)x - GLYPH_X0;
			bool lit = fc_col >= 0 && fc_col < FONT5X7_COLS &&
				   (bits >> (FONT5X7_COLS - 1 - fc_col)) & 1;

			put_px(fc, x0 + x, y0 + y, lit ? fg : bg);
		}
	}
}

/* Set a cell, drawing only when it changes. */
static void set_cell(struct fbcon *fc, unsigned col, unsigned row, char ch, uint8_t fg)
{
	if (fc->grid[row][col] == ch && fc->gridfg[row][col] == fg)
		return;
	fc->grid[row][col] = ch;
	fc->gridfg[row][col] = fg;
	draw_cell(fc, col, row, ch, fg);
}

static void draw_status(struct fbcon *fc)
{
	char buf[FBCON_MAX_COLS + 1];
	size_t n;

	fbcon_status_text(fc, buf, sizeof(buf));
	n = strlen(buf);
	for (unsigned c = 0; c < fc->cols; c++)
		set_cell(fc, c, 0, c < n ? buf[c] : ' ', FBCON_STATUS_FG);
}

const char *fbcon_init(struct fbcon *fc, volatile uint8_t *base, uint32_t pitch,
		       uint32_t width, uint32_t height, unsigned bpp)
{
	memset(fc, 0, sizeof(*fc));
	if (bpp != 32 && bpp != 24)
		return "has a pixel size other than 24 or 32 bits";
	if (!base || !width || !height)
		return "has a zero address or size";
	fc->bytespp = bpp / 8;
	if ((uint64_t)width * fc->bytespp > pitch)
		return "has a pitch smaller than one row of pixels";
	if (width < 2 * FBCON_CELL_W || height < 2 * FBCON_CELL_H)
		return "is smaller than two text cells each way";
	fc->base = base;
	fc->pitch = pitch;
	fc->width = width;
	fc->height = height;
	fc->cols = width / FBCON_CELL_W;
	fc->rows = height / FBCON_CELL_H;
	if (fc->cols > FBCON_MAX_COLS)
		fc->cols = FBCON_MAX_COLS;
	if (fc->rows > FBCON_MAX_ROWS)
		fc->rows = FBCON_MAX_ROWS;
	/* Clear the whole screen (also what GRUB or the firmware left). */
	for (uint32_t y = 0; y < height; y++)
		for (uint32_t x = 0; x < width; x++)
			put_px(fc, x, y, y < FBCON_CELL_H ? FBCON_STATUS_BG : FBCON_BG);
	for (unsigned r = 0; r < fc->rows; r++)
		for (unsigned c = 0; c < fc->cols; c++) {
			fc->grid[r][c] = ' ';
			fc->gridfg[r][c] = r ? FBCON_FG : FBCON_STATUS_FG;
		}
	fc->cy = 1;
	fc->line_fg = FBCON_FG;
	draw_status(fc);
	return NULL;
}

/* Move the log area (rows 1..rows-1) up by k rows, redrawing changed cells
 * only.  The console jumps by half the log area at a time: a framebuffer
 * mapped UC takes a slow bus write per pixel (SDM vol. 3 §12.3, UC memory
 * type), so a full redraw per line would slow a long run on real screens. */
static void scroll(struct fbcon *fc, unsigned k)
{
	for (unsigned r = 1; r < fc->rows; r++)
		for (unsigned c = 0; c < fc->cols; c++) {
			if (r + k < fc->rows)
				set_cell(fc, c, r, fc->grid[r + k][c], fc->gridfg[r + k][c]);
			else
				set_cell(fc, c, r, ' ', FBCON_FG);
		}
	fc->cy -= k;
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ')
		s++;
	return s;
}

/* One complete log line: update the progress fields. */
static void parse_line(struct fbcon *fc, const char *l)
{
	const char *t = skip_blanks(l);

	if (!strcmp(l, "KTAP version 1")) {	/* a new run: forget the old one */
		fc->suite[0] = fc->kase[0] = fc->summary[0] = '\0';
		fc->failures = 0;
	} else if (starts(l, "# id.version: ")) {
		str_copy(fc->version, l + 14, sizeof(fc->version));
	} else if (starts(l, "# id.cpu.brand: ")) {
		str_copy(fc->cpu, skip_blanks(l + 16), sizeof(fc->cpu));
	} else if (starts(t, "# Subtest: ")) {
		str_copy(fc->suite, t + 11, sizeof(fc->suite));
		fc->kase[0] = '\0';
	} else if (starts(t, "# result: ")) {
		const char *name = t + 10, *sp = strchr(name, ' ');
		size_t n = sp ? (size_t)(sp - name) : strlen(name);

		if (n >= sizeof(fc->kase))
			n = sizeof(fc->kase) - 1;
		memcpy(fc->kase, name, n);
		fc->kase[n] = '\0';
		if (sp && (!strcmp(sp + 1, "fail") || !strcmp(sp + 1, "timeout") ||
			   !strcmp(sp + 1, "panic")))
			fc->failures++;
	} else if (starts(l, "ringlab: ") && l[9] >= '0' && l[9] <= '9') {
		str_copy(fc->summary, l + 9, sizeof(fc->summary));
	} else if (starts(l, "ringlab: PANIC")) {
		str_copy(fc->summary, l + 9, sizeof(fc->summary));
	} else {
		return;
	}
	draw_status(fc);
}

void fbcon_status_text(const struct fbcon *fc, char *buf, size_t size)
{
	int n = rl_snprintf(buf, size, "ringlab %s | %s | ", fc->version[0] ? fc->version : "?",
			    fc->cpu[0] ? fc->cpu : "cpu ?");

	if (n < 0 || (size_t)n >= size)
		return;
	if (fc->summary[0])
		rl_snprintf(buf + n, size - (size_t)n, "done: %s", fc->summary);
	else
		rl_snprintf(buf + n, size - (size_t)n, "suite %s | case %s | failures %u",
			    fc->suite[0] ? fc->suite : "-", fc->kase[0] ? fc->kase : "-",
			    fc->failures);
}

static void newline(struct fbcon *fc)
{
	fc->line[fc->linelen < FBCON_LINE_MAX ? fc->linelen : FBCON_LINE_MAX - 1] = '\0';
	parse_line(fc, fc->line);
	fc->linelen = 0;
	fc->cx = 0;
	fc->line_fg = FBCON_FG;
	if (fc->cy + 1 >= fc->rows)
		scroll(fc, fc->rows / 2 ? fc->rows / 2 : 1);	/* rows >= 2 */
	fc->cy++;
}

void fbcon_write(struct fbcon *fc, const char *s, size_t n)
{
	if (!fc->base)
		return;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];

		if (ch == '\n') {
			newline(fc);
			continue;
		}
		if (ch == '\r')
			continue;
		if (ch == '\t')
			ch = ' ';
		if (ch < 0x20 || ch > 0x7e)
			ch = '?';
		if (fc->linelen < FBCON_LINE_MAX - 1)
			fc->line[fc->linelen++] = ch;
		/* A failing result is drawn brighter; the prefix decides, so
		 * repaint the cells already written of this line. */
		if (fc->line_fg == FBCON_FG && fc->linelen >= 6) {
			fc->line[fc->linelen] = '\0';
			if (starts(skip_blanks(fc->line), "not ok ")) {
				fc->line_fg = FBCON_FG_FAIL;
				for (unsigned c = 0; c < fc->cx; c++)
					set_cell(fc, c, fc->cy, fc->grid[fc->cy][c], FBCON_FG_FAIL);
			}
		}
		if (fc->cx < fc->cols)	/* clipped at the right edge */
			set_cell(fc, fc->cx, fc->cy, ch, fc->line_fg);
		fc->cx++;
	}
}
