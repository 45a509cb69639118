/* Framebuffer console at boot; see fbcon_boot.h. */
#include "kernel/fbcon_boot.h"
#include "arch/x86/paging.h"
#include "kernel/console.h"
#include "kernel/fbcon.h"
#include "kernel/report.h"

#define MB2_FB_TYPE_INDEXED	0	/* multiboot2 spec §3.6.12 framebuffer_type */
#define MB2_FB_TYPE_RGB		1
#define MB2_FB_TYPE_EGA_TEXT	2

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
	const char *why;

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
	 * non-canonical or too-wide address with an error line). */
	if (fb->bpp != 24 && fb->bpp != 32) {
		rep_warn("console", "framebuffer %ux%u at 0x%llx has %u bits per pixel (only 24 and 32 are drawn); no screen output",
			 fb->width, fb->height, (unsigned long long)fb->addr, fb->bpp);
		return false;
	}
	if (!len || !paging_map_mmio(fb->addr, len)) {
		rep_warn("console", "framebuffer %ux%u %ubpp at 0x%llx+0x%llx could not be mapped; no screen output",
			 fb->width, fb->height, fb->bpp, (unsigned long long)fb->addr,
			 (unsigned long long)len);
		return false;
	}
	why = fbcon_init(&fbcon, (volatile uint8_t *)(uintptr_t)fb->addr, fb->pitch,
			 fb->width, fb->height, fb->bpp);
	if (why) {
		rep_warn("console", "framebuffer %ux%u %ubpp pitch %u at 0x%llx %s; no screen output",
			 fb->width, fb->height, fb->bpp, fb->pitch, (unsigned long long)fb->addr, why);
		return false;
	}
	rep_diag("console: framebuffer %ux%u %ubpp at 0x%llx (%s, %s), %ux%u text cells",
		 fb->width, fb->height, fb->bpp, (unsigned long long)fb->addr,
		 mbi_is_uefi(bi) ? "GOP" : "VBE", bi->proto == 1 ? "multiboot1 info" : "multiboot2 tag",
		 fbcon.cols, fbcon.rows);
	console_set_screen(fbcon_sink);
	fb_pa = fb->addr;
	fb_len = len;
	return true;
}
