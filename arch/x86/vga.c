/* VGA text-mode mirror; see vga.h. */
#include <stdint.h>
#include "arch/x86/vga.h"

#define VGA_TEXT	((volatile uint16_t *)0xb8000)
#define VGA_COLS	80
#define VGA_ROWS	25
#define VGA_ATTR	0x0700		/* light grey on black */

static unsigned row, col;

void vga_init(void)
{
	for (unsigned i = 0; i < VGA_COLS * VGA_ROWS; i++)
		VGA_TEXT[i] = VGA_ATTR | ' ';
	row = col = 0;
}

static void scroll(void)
{
	for (unsigned i = 0; i < VGA_COLS * (VGA_ROWS - 1); i++)
		VGA_TEXT[i] = VGA_TEXT[i + VGA_COLS];
	for (unsigned i = 0; i < VGA_COLS; i++)
		VGA_TEXT[VGA_COLS * (VGA_ROWS - 1) + i] = VGA_ATTR | ' ';
	row = VGA_ROWS - 1;
}

void vga_write(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '\n') {
			col = 0;
			if (++row == VGA_ROWS)
				scroll();
			continue;
		}
		if (c == '\r')
			continue;
		/* clipped at the right edge, as the framebuffer console does:
		 * one log line is one screen row, so the screen ends with the
		 * last lines of the log (the answers block and the summary),
		 * not with the wrapped tail of one long answer */
		if (col < VGA_COLS)
			VGA_TEXT[row * VGA_COLS + col] = VGA_ATTR | (uint8_t)c;
		col++;
	}
}
