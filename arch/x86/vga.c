/* SPDX-License-Identifier: GPL-2.0-only */
/* VGA text-mode mirror; see vga.h. */
#include <stdint.h>
#include "arch/x86/vga.h"
#include "arch/x86/cpu.h"

#define VGA_TEXT	((volatile uint16_t *)0xb8000)
#define VGA_COLS	80
#define VGA_ROWS	25
#define VGA_ATTR	0x0700		/* light grey on black */
/* The text buffer is 32 KiB (0xB8000-0xBFFFF); an 80x25 page uses the
 * first 4000 bytes, so the word after it is scratch nobody sees. */
#define VGA_PROBE_CELL	(VGA_COLS * VGA_ROWS)

/* What is on screen, kept in RAM: scrolling copies rows here and writes
 * the device only, never reading it (a read of VGA memory is an emulated
 * MMIO access under a hypervisor, and slow on real adapters too). */
static uint16_t shadow[VGA_COLS * VGA_ROWS];
static unsigned row, col;

/* The CRT controller's index register answers: a VGA writes it and
 * reads it back (the colour-text I/O base, 0x3D4, as the mirror's
 * 0xB8000 implies); with no VGA on the bus the port reads all-ones.  The
 * text memory alone is not enough: QEMU without a display adapter
 * (-nodefaults) has plain RAM at 0xB8000, which reads back, and the
 * mirror then cost a third of every logged character under a hypervisor
 * that emulates ring 0 for nothing anybody could see. */
#define VGA_CRTC_INDEX	0x3d4
#define VGA_CRTC_CURSOR_HI	0x0e	/* harmless indices to select */
#define VGA_CRTC_CURSOR_LO	0x0f

/* noinline: the I/O allow-list names this function as the one writer of
 * 0x3D4 (tests/host/check-io.py) */
static __attribute__((noinline)) bool crtc_answers(void)
{
	uint8_t saved = inb(VGA_CRTC_INDEX);
	bool ok;

	outb(VGA_CRTC_INDEX, VGA_CRTC_CURSOR_HI);
	ok = (inb(VGA_CRTC_INDEX) & 0x3f) == VGA_CRTC_CURSOR_HI;
	outb(VGA_CRTC_INDEX, VGA_CRTC_CURSOR_LO);
	ok = ok && (inb(VGA_CRTC_INDEX) & 0x3f) == VGA_CRTC_CURSOR_LO;
	outb(VGA_CRTC_INDEX, saved);
	return ok;
}

bool vga_present(void)
{
	volatile uint16_t *cell = &VGA_TEXT[VGA_PROBE_CELL];
	uint16_t old = *cell;
	bool ok;

	if (!crtc_answers())
		return false;
	*cell = 0x55aa;
	ok = *cell == 0x55aa;
	*cell = 0xaa55;
	ok = ok && *cell == 0xaa55;
	*cell = old;
	return ok;
}

void vga_init(void)
{
	for (unsigned i = 0; i < VGA_COLS * VGA_ROWS; i++)
		VGA_TEXT[i] = shadow[i] = VGA_ATTR | ' ';
	row = col = 0;
}

static void put(unsigned i, uint16_t v)
{
	VGA_TEXT[i] = shadow[i] = v;
}

/* At the bottom the screen jumps up by half its height, as the
 * framebuffer console does (kernel/fbcon.c): one copy of half the screen
 * every 12 lines instead of a whole-screen copy per line.  Every store is
 * an emulated instruction under a hypervisor that emulates ring 0, where
 * per-line scrolling cost a quarter of the boot. */
#define VGA_JUMP	(VGA_ROWS / 2)

static void scroll(void)
{
	for (unsigned i = 0; i < VGA_COLS * (VGA_ROWS - VGA_JUMP); i++)
		put(i, shadow[i + VGA_COLS * VGA_JUMP]);
	for (unsigned i = VGA_COLS * (VGA_ROWS - VGA_JUMP); i < VGA_COLS * VGA_ROWS; i++)
		put(i, VGA_ATTR | ' ');
	row = VGA_ROWS - VGA_JUMP;
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
			put(row * VGA_COLS + col, VGA_ATTR | (uint8_t)c);
		col++;
	}
}
