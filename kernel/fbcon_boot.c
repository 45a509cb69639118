/* SPDX-License-Identifier: GPL-2.0-only */
/* Framebuffer console at boot; see fbcon_boot.h. */
#include "kernel/fbcon_boot.h"
#include "arch/x86/paging.h"
#include "kernel/console.h"
#include "kernel/fbcon.h"
#include "kernel/kernel.h"
#include "kernel/report.h"
#include "lib/printf.h"

static struct fbcon fbcon;
static uint64_t fb_pa, fb_len;	/* fb_len 0: not in use */

bool fbcon_boot_range(uint64_t *pa, uint64_t *len)
{
	*pa = fb_pa;
	*len = fb_len;
	return fb_len != 0;
}

static void fbcon_sink(const char *s, size_t n)
{
	fbcon_write(&fbcon, s, n);
}

bool fbcon_boot_start(const struct boot_info *bi, bool off)
{
	const struct framebuffer_info *fb = &bi->fb;
	uint64_t len = (uint64_t)fb->pitch * fb->height;
	const char *why = NULL;
	struct fbcon_rgb rgb;
	bool use_rgb;
	unsigned want = boot_options.fbscale;	/* kernel/cmdline.h fbscale= */
	char how[80], colours[64];

	/* EGA text (GRUB under BIOS) is the VGA mirror's job. */
	if (!bi->has_fb || fb->type == MB2_FB_TYPE_EGA_TEXT)
		return false;
	if (off) {
		rep_diag("console: framebuffer %ux%u %ubpp at 0x%llx not used (nofb)",
			 fb->width, fb->height, fb->bpp, (unsigned long long)fb->addr);
		return false;
	}
	if (fb->type != MB2_FB_TYPE_RGB) {
		rep_warn("console", "framebuffer %ux%u %ubpp at 0x%llx is type %u (%s), not direct RGB; no screen output",
			 fb->width, fb->height, fb->bpp, (unsigned long long)fb->addr, fb->type,
			 fb->type == MB2_FB_TYPE_INDEXED ? "indexed" : "unknown");
		return false;
	}
	/* Only the checks that need no memory access come first: the map
	 * must cover the range before fbcon_init() clears it.  Below 4 GiB
	 * the identity map already covers the hole UC; above it
	 * paging_map_mmio() adds it (and refuses RAM, the kernel, a
	 * non-canonical or too-wide address with an error line).
	 * The loader's colour layout, when it came and fits, gives colours
	 * (and 15/16-bit pixels); else the gray rendering, which needs
	 * 8-bit channels at bits 0, 8 and 16 in any order. */
	if (fb->has_rgb) {
		rgb = (struct fbcon_rgb){ fb->red_pos, fb->red_size, fb->green_pos,
					  fb->green_size, fb->blue_pos, fb->blue_size };
		why = fbcon_rgb_check(&rgb, fb->bpp);
		if (why)
			rep_warn("console", "framebuffer colour layout red %u@%u green %u@%u blue %u@%u (%u bpp) %s; drawn in gray",
				 rgb.red_size, rgb.red_pos, rgb.green_size, rgb.green_pos,
				 rgb.blue_size, rgb.blue_pos, fb->bpp, why);
	}
	if (!fb->has_rgb || why) {
		if (fb->bpp != 24 && fb->bpp != 32) {
			rep_warn("console", "framebuffer %ux%u at 0x%llx has %u bits per pixel and no usable colour layout (only 24 and 32 are drawn in gray); no screen output",
				 fb->width, fb->height, (unsigned long long)fb->addr, fb->bpp);
			return false;
		}
	} else if (fb->bpp != 15 && fb->bpp != 16 && fb->bpp != 24 && fb->bpp != 32) {
		rep_warn("console", "framebuffer %ux%u at 0x%llx has %u bits per pixel (only 15, 16, 24 and 32 are drawn); no screen output",
			 fb->width, fb->height, (unsigned long long)fb->addr, fb->bpp);
		return false;
	}
	use_rgb = fb->has_rgb && !why;
	if (!len || !paging_map_mmio(fb->addr, len)) {
		rep_warn("console", "framebuffer %ux%u %ubpp at 0x%llx+0x%llx could not be mapped; no screen output",
			 fb->width, fb->height, fb->bpp, (unsigned long long)fb->addr,
			 (unsigned long long)len);
		return false;
	}
	why = fbcon_init(&fbcon, (volatile uint8_t *)(uintptr_t)fb->addr, fb->pitch,
			 fb->width, fb->height, fb->bpp, use_rgb ? &rgb : NULL, want);
	if (why) {
		rep_warn("console", "framebuffer %ux%u %ubpp pitch %u at 0x%llx %s; no screen output",
			 fb->width, fb->height, fb->bpp, fb->pitch, (unsigned long long)fb->addr, why);
		return false;
	}
	rep_diag("console: framebuffer %ux%u %ubpp at 0x%llx (%s, %s), %ux%u text cells",
		 fb->width, fb->height, fb->bpp, (unsigned long long)fb->addr,
		 mbi_is_uefi(bi) ? "GOP" : "VBE", bi->proto == 1 ? "multiboot1 info" : "multiboot2 tag",
		 fbcon.cols, fbcon.rows);
	/* The scale and how it was chosen, and the colours (the QEMU
	 * cases in tests/qemu/cases_fbcon.py read this line). */
	if (!want)
		rl_snprintf(how, sizeof(how), "auto: the largest up to %u that keeps %ux%u cells",
			    FBCON_SCALE_MAX, FBCON_MIN_COLS, FBCON_MIN_ROWS);
	else if (want == fbcon.scale)
		rl_snprintf(how, sizeof(how), "fbscale=%u", want);
	else
		rl_snprintf(how, sizeof(how), "fbscale=%u leaves fewer than 2 cells each way; reduced", want);
	if (fbcon.colour)
		rl_snprintf(colours, sizeof(colours), "colour red %u@%u green %u@%u blue %u@%u",
			    rgb.red_size, rgb.red_pos, rgb.green_size, rgb.green_pos,
			    rgb.blue_size, rgb.blue_pos);
	else
		rl_snprintf(colours, sizeof(colours), "gray (%s)",
			    fb->has_rgb ? "colour layout unusable" : "no colour layout from the loader");
	rep_diag("console: screen text scale %u (%s), %ux%u-pixel cells, %s",
		 fbcon.scale, how, fbcon.cell_w, fbcon.cell_h, colours);
	console_set_screen(fbcon_sink);
	fb_pa = fb->addr;
	fb_len = len;
	return true;
}
