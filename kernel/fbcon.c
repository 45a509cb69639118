/* SPDX-License-Identifier: GPL-2.0-only */
/* Framebuffer console: text grid, scrolling and status line; see fbcon.h. */
#include "kernel/fbcon.h"
#include "lib/font5x7.h"
#include "lib/printf.h"
#include "lib/string.h"

#define GLYPH_X0	1	/* font column 0 is drawn at cell x = 1 */
#define GLYPH_Y0	1	/* font row 0 at cell y = 1..2 */

/* The gray rendering's layout: 8-bit fields at bits 16, 8 and 0 (with
 * R = G = B any channel order gives the same bytes). */
static const struct fbcon_rgb gray_layout = { 16, 8, 8, 8, 0, 8 };

/* Role colours, 0xRRGGBB, of the colour and the gray rendering. */
static const uint32_t role_rgb[FBCON_NROLES] = {
	[FBCON_ROLE_TEXT] = FBCON_RGB_TEXT, [FBCON_ROLE_PASS] = FBCON_RGB_PASS,
	[FBCON_ROLE_SKIP] = FBCON_RGB_SKIP, [FBCON_ROLE_FAIL] = FBCON_RGB_FAIL,
	[FBCON_ROLE_ERROR] = FBCON_RGB_ERROR, [FBCON_ROLE_STATUS] = FBCON_STATUS_FG * 0x010101u,
};
static const uint8_t role_gray[FBCON_NROLES] = {
	[FBCON_ROLE_TEXT] = FBCON_FG, [FBCON_ROLE_PASS] = FBCON_FG,
	[FBCON_ROLE_SKIP] = FBCON_FG, [FBCON_ROLE_FAIL] = FBCON_FG_FAIL,
	[FBCON_ROLE_ERROR] = FBCON_FG_FAIL, [FBCON_ROLE_STATUS] = FBCON_STATUS_FG,
};

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

static bool contains(const char *s, const char *part)
{
	for (; *s; s++)
		if (starts(s, part))
			return true;
	return false;
}

unsigned fbcon_pick_scale(uint32_t width, uint32_t height)
{
	for (unsigned s = FBCON_SCALE_MAX; s > 1; s--)
		if (width / (FBCON_CELL_W * s) >= FBCON_MIN_COLS &&
		    height / (FBCON_CELL_H * s) >= FBCON_MIN_ROWS)
			return s;
	return 1;
}

static uint32_t field_mask(unsigned pos, unsigned size)
{
	return (uint32_t)(((1ull << size) - 1) << pos);
}

const char *fbcon_rgb_check(const struct fbcon_rgb *rgb, unsigned bpp)
{
	const uint8_t f[3][2] = { { rgb->red_pos, rgb->red_size },
				  { rgb->green_pos, rgb->green_size },
				  { rgb->blue_pos, rgb->blue_size } };
	uint32_t seen = 0;

	for (unsigned i = 0; i < 3; i++) {
		if (f[i][1] < 1 || f[i][1] > 16)
			return "has a colour field narrower than 1 or wider than 16 bits";
		if ((unsigned)f[i][0] + f[i][1] > bpp || bpp > 32)
			return "has a colour field outside its pixel";
		if (seen & field_mask(f[i][0], f[i][1]))
			return "has overlapping colour fields";
		seen |= field_mask(f[i][0], f[i][1]);
	}
	return NULL;
}

/* An 8-bit channel scaled to a size-bit field, rounded to nearest. */
static uint32_t channel(uint32_t v8, unsigned pos, unsigned size)
{
	uint32_t max = (1u << size) - 1;

	return (v8 * max + 127) / 255 << pos;
}

uint32_t fbcon_rgb_pixel(const struct fbcon_rgb *rgb, uint32_t rrggbb)
{
	return channel(rrggbb >> 16 & 0xff, rgb->red_pos, rgb->red_size) |
	       channel(rrggbb >> 8 & 0xff, rgb->green_pos, rgb->green_size) |
	       channel(rrggbb & 0xff, rgb->blue_pos, rgb->blue_size);
}

/* The only store to the framebuffer (the MMIO allow-list names this file:
 * tests/host/check-io.py): one pixel, little-endian, the bytes above bpp
 * zero.  Aligned pixels take one store (a framebuffer mapped UC pays a bus
 * write per store: SDM vol. 3 §12.3, UC memory type); 24-bit ones three. */
static void put_px(struct fbcon *fc, uint32_t x, uint32_t y, uint32_t v)
{
	volatile uint8_t *p = fc->base + (size_t)y * fc->pitch + (size_t)x * fc->bytespp;
	bool aligned = ((uintptr_t)p & (fc->bytespp - 1)) == 0;

	if (fc->bytespp == 4 && aligned) {
		*(volatile uint32_t *)p = v;
	} else if (fc->bytespp == 2 && aligned) {
		*(volatile uint16_t *)p = (uint16_t)v;
	} else {
		for (unsigned i = 0; i < fc->bytespp; i++)
			p[i] = (uint8_t)(v >> (8 * i));
	}
}

static void draw_cell(struct fbcon *fc, unsigned col, unsigned row, char ch, uint8_t role)
{
	uint32_t bg = row == 0 ? fc->px_status_bg : fc->px_bg, fg = fc->px_role[role];
	uint32_t x0 = col * fc->cell_w, y0 = row * fc->cell_h;
	const uint8_t *g = font5x7[(unsigned char)ch - FONT5X7_FIRST];
	unsigned s = fc->scale;

	/* Pixel (x, y) of the scaled cell shows pixel (x / s, y / s) of the
	 * scale-1 cell. */
	for (unsigned y = 0; y < fc->cell_h; y++) {
		int fr = ((int)(y / s) - GLYPH_Y0) / 2;	/* font row, or out of the glyph */
		unsigned bits = y / s >= GLYPH_Y0 && fr < FONT5X7_ROWS ? g[fr] : 0;

		for (unsigned x = 0; x < fc->cell_w; x++) {
			int fc_col = (int)(x / s) - GLYPH_X0;
			bool lit = fc_col >= 0 && fc_col < FONT5X7_COLS &&
				   (bits >> (FONT5X7_COLS - 1 - fc_col)) & 1;

			put_px(fc, x0 + x, y0 + y, lit ? fg : bg);
		}
	}
}

/* Set a cell, drawing only when it changes. */
static void set_cell(struct fbcon *fc, unsigned col, unsigned row, char ch, uint8_t role)
{
	if (fc->grid[row][col] == ch && fc->gridrole[row][col] == role)
		return;
	fc->grid[row][col] = ch;
	fc->gridrole[row][col] = role;
	draw_cell(fc, col, row, ch, role);
}

/* The status line's text colour: with colours, once the run's summary is
 * in, its verdict (seen across the room); before that, and in gray,
 * white. */
static uint8_t status_role(const struct fbcon *fc)
{
	if (!fc->colour || !fc->summary[0])
		return FBCON_ROLE_STATUS;
	if (starts(fc->summary, "PANIC"))
		return FBCON_ROLE_ERROR;
	return contains(fc->summary, " 0 failed") ? FBCON_ROLE_PASS : FBCON_ROLE_FAIL;
}

/* The status text with at most cpu_max characters of the CPU name. */
static void status_compose(const struct fbcon *fc, char *buf, size_t size, int cpu_max)
{
	int n = rl_snprintf(buf, size, "ringlab %s | %.*s | ", fc->version[0] ? fc->version : "?",
			    cpu_max, fc->cpu[0] ? fc->cpu : "cpu ?");

	if (n < 0 || (size_t)n >= size)
		return;
	if (fc->summary[0])
		rl_snprintf(buf + n, size - (size_t)n, "done: %s", fc->summary);
	else
		rl_snprintf(buf + n, size - (size_t)n, "suite %s | case %s | failures %u",
			    fc->suite[0] ? fc->suite : "-", fc->kase[0] ? fc->kase : "-",
			    fc->failures);
}

/* The status line, fitted to the screen: when it is wider, the CPU name
 * gives up characters first, so that the progress or the verdict at its
 * end stays in view (80 columns at scale 2 on 1280x800). */
static void draw_status(struct fbcon *fc)
{
	char buf[FBCON_MAX_COLS + 96];
	uint8_t role = status_role(fc);
	size_t n;

	status_compose(fc, buf, sizeof(buf), (int)sizeof(fc->cpu));
	n = strlen(buf);
	if (n > fc->cols) {
		size_t cpu = strlen(fc->cpu[0] ? fc->cpu : "cpu ?"), cut = n - fc->cols;

		status_compose(fc, buf, sizeof(buf), cut < cpu ? (int)(cpu - cut) : 0);
		n = strlen(buf);
	}
	for (unsigned c = 0; c < fc->cols; c++)
		set_cell(fc, c, 0, c < n ? buf[c] : ' ', role);
}

const char *fbcon_init(struct fbcon *fc, volatile uint8_t *base, uint32_t pitch,
		       uint32_t width, uint32_t height, unsigned bpp,
		       const struct fbcon_rgb *rgb, unsigned scale)
{
	const char *why;

	memset(fc, 0, sizeof(*fc));
	if (!rgb && bpp != 32 && bpp != 24)
		return "has a pixel size other than 24 or 32 bits (and no colour layout)";
	if (rgb && bpp != 32 && bpp != 24 && bpp != 16 && bpp != 15)
		return "has a pixel size other than 15, 16, 24 or 32 bits";
	if (rgb && (why = fbcon_rgb_check(rgb, bpp)))
		return why;
	if (!base || !width || !height)
		return "has a zero address or size";
	fc->bpp = bpp;
	fc->bytespp = (bpp + 7) / 8;
	if ((uint64_t)width * fc->bytespp > pitch)
		return "has a pitch smaller than one row of pixels";
	if (width < 2 * FBCON_CELL_W || height < 2 * FBCON_CELL_H)
		return "is smaller than two text cells each way";
	if (scale == 0 || scale > FBCON_SCALE_MAX)
		scale = fbcon_pick_scale(width, height);
	while (scale > 1 && (width < 2 * FBCON_CELL_W * scale || height < 2 * FBCON_CELL_H * scale))
		scale--;
	fc->base = base;
	fc->pitch = pitch;
	fc->width = width;
	fc->height = height;
	fc->scale = scale;
	fc->cell_w = FBCON_CELL_W * scale;
	fc->cell_h = FBCON_CELL_H * scale;
	fc->colour = rgb != NULL;
	fc->rgb = rgb ? *rgb : gray_layout;
	for (unsigned r = 0; r < FBCON_NROLES; r++)
		fc->px_role[r] = fbcon_rgb_pixel(&fc->rgb, fc->colour ? role_rgb[r] :
						 role_gray[r] * 0x010101u);
	fc->px_bg = fbcon_rgb_pixel(&fc->rgb, FBCON_BG * 0x010101u);
	fc->px_status_bg = fbcon_rgb_pixel(&fc->rgb, FBCON_STATUS_BG * 0x010101u);
	fc->cols = width / fc->cell_w;
	fc->rows = height / fc->cell_h;
	if (fc->cols > FBCON_MAX_COLS)
		fc->cols = FBCON_MAX_COLS;
	if (fc->rows > FBCON_MAX_ROWS)
		fc->rows = FBCON_MAX_ROWS;
	/* Clear the whole screen (also what GRUB or the firmware left). */
	for (uint32_t y = 0; y < height; y++)
		for (uint32_t x = 0; x < width; x++)
			put_px(fc, x, y, y < fc->cell_h ? fc->px_status_bg : fc->px_bg);
	for (unsigned r = 0; r < fc->rows; r++)
		for (unsigned c = 0; c < fc->cols; c++) {
			fc->grid[r][c] = ' ';
			fc->gridrole[r][c] = r ? FBCON_ROLE_TEXT : FBCON_ROLE_STATUS;
		}
	fc->cy = 1;
	fc->line_role = FBCON_ROLE_TEXT;
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
				set_cell(fc, c, r, fc->grid[r + k][c], fc->gridrole[r + k][c]);
			else
				set_cell(fc, c, r, ' ', FBCON_ROLE_TEXT);
		}
	fc->cy -= k;
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
	status_compose(fc, buf, size, (int)sizeof(fc->cpu));
}

enum fbcon_role fbcon_line_role(const char *line)
{
	const char *t = skip_blanks(line);

	if (starts(t, "not ok "))
		return FBCON_ROLE_FAIL;
	if (starts(t, "ok "))
		/* the KTAP SKIP directive (docs/log-format.md) */
		return contains(t, " # SKIP") ? FBCON_ROLE_SKIP : FBCON_ROLE_PASS;
	if (starts(t, "# error: ") || starts(t, "ringlab: PANIC") || starts(t, "Bail out!"))
		return FBCON_ROLE_ERROR;
	return FBCON_ROLE_TEXT;
}

static void newline(struct fbcon *fc)
{
	fc->line[fc->linelen < FBCON_LINE_MAX ? fc->linelen : FBCON_LINE_MAX - 1] = '\0';
	parse_line(fc, fc->line);
	fc->linelen = 0;
	fc->cx = 0;
	fc->line_role = FBCON_ROLE_TEXT;
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
		uint8_t role;

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
		/* The console hands over text in pieces of any size, so the
		 * line's role is decided from what has arrived of it: when
		 * it changes ("ok " becomes a SKIP), the cells already drawn
		 * are repainted. */
		fc->line[fc->linelen] = '\0';
		role = fbcon_line_role(fc->line);
		if (role != fc->line_role) {
			fc->line_role = role;
			for (unsigned c = 0; c < fc->cx && c < fc->cols; c++)
				set_cell(fc, c, fc->cy, fc->grid[fc->cy][c], role);
		}
		if (fc->cx < fc->cols)	/* clipped at the right edge */
			set_cell(fc, fc->cx, fc->cy, ch, fc->line_role);
		fc->cx++;
	}
}
