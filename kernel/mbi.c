/* SPDX-License-Identifier: GPL-2.0-only */
/* Multiboot 1/2 information parser; see mbi.h. */
#include <stdarg.h>
#include "kernel/mbi.h"
#include "lib/physmem.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "lib/bytes.h"

static void mbi_error(struct boot_info *bi, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void mbi_error(struct boot_info *bi, const char *fmt, ...)
{
	va_list ap;

	if (bi->nerrors >= MBI_MAX_ERRORS)
		return;
	va_start(ap, fmt);
	rl_vsnprintf(bi->errors[bi->nerrors++], MBI_ERROR_LEN, fmt, ap);
	va_end(ap);
}

static void add_region(struct boot_info *bi, uint64_t base, uint64_t len, uint32_t type)
{
	if (len == 0)
		return;
	if (base + len < base) {
		mbi_error(bi, "mbi: memory map entry base=0x%llx len=0x%llx wraps; dropped",
			  (unsigned long long)base, (unsigned long long)len);
		return;
	}
	if (bi->nmmap >= MBI_MAX_MMAP) {
		bi->nmmap_dropped++;
		return;
	}
	bi->mmap[bi->nmmap++] = (struct mem_region){ base, len, type };
}

/* Copy a NUL-terminated string at physical address pa, reading it a byte
 * range at a time so that a short string next to unmapped memory is fine. */
static bool copy_phys_string(struct boot_info *bi, const char *what, uint64_t pa,
			     char *dst, size_t max)
{
	size_t n = 0;

	if (pa == 0) {
		mbi_error(bi, "mbi: %s pointer is NULL", what);
		return false;
	}
	while (n + 1 < max) {
		const char *p = phys_view(pa + n, 1);

		if (!p) {
			mbi_error(bi, "mbi: %s at 0x%llx is not readable", what,
				  (unsigned long long)pa);
			dst[0] = '\0';
			return false;
		}
		if (*p == '\0') {
			dst[n] = '\0';
			return true;
		}
		dst[n++] = *p;
	}
	dst[n] = '\0';
	/* A string of exactly max - 1 bytes fits: look at the next byte. */
	const char *p = phys_view(pa + n, 1);

	if (p && *p == '\0')
		return true;
	mbi_error(bi, "mbi: %s longer than %zu bytes; truncated", what, max - 1);
	if (dst == bi->cmdline)
		bi->cmdline_truncated = true;	/* a config error: see cmdline_note_truncated() */
	return true;
}

/* Copy a string that lives inside a tag of `avail` bytes; it must be
 * terminated inside the tag. */
static bool copy_tag_string(struct boot_info *bi, const char *what, const uint8_t *p,
			    size_t avail, char *dst, size_t max)
{
	size_t n = strnlen((const char *)p, avail);

	if (n == avail) {
		mbi_error(bi, "mbi: %s tag is not NUL-terminated; ignored", what);
		return false;
	}
	if (n >= max) {
		mbi_error(bi, "mbi: %s longer than %zu bytes; truncated", what, max - 1);
		if (dst == bi->cmdline)
			bi->cmdline_truncated = true;
		n = max - 1;
	}
	memcpy(dst, p, n);
	dst[n] = '\0';
	return true;
}

/* The six colour-info bytes of an RGB framebuffer, the same in both
 * protocols: red position, red mask size, green ..., blue ... */
static void set_rgb(struct framebuffer_info *fb, const uint8_t *c)
{
	fb->has_rgb = true;
	fb->red_pos = c[0];
	fb->red_size = c[1];
	fb->green_pos = c[2];
	fb->green_size = c[3];
	fb->blue_pos = c[4];
	fb->blue_size = c[5];
}

/* ---- Multiboot 1 ---- */

#define MB1_INFO_MEM		(1u << 0)
#define MB1_INFO_CMDLINE	(1u << 2)
#define MB1_INFO_MMAP		(1u << 6)
#define MB1_INFO_LOADER		(1u << 9)
#define MB1_INFO_FB		(1u << 12)
#define MB1_INFO_SIZE_RGB	116	/* up to the end of an RGB color_info */
#define MB1_INFO_SIZE_FB	110	/* bytes up to and including framebuffer_type */
#define MB1_INFO_SIZE_BASE	72	/* up to the VBE fields */
#define MB2_FB_COLOR_INFO	24	/* color_info's offset in the tag body */
#define MB1_MMAP_MAX_LEN	(64 * 1024)

static bool parse_mb1(struct boot_info *bi, uint64_t pa)
{
	const uint8_t *info = phys_view(pa, MB1_INFO_SIZE_RGB);
	size_t avail = MB1_INFO_SIZE_RGB;

	if (!info) {
		info = phys_view(pa, MB1_INFO_SIZE_FB);
		avail = MB1_INFO_SIZE_FB;
	}
	if (!info) {
		info = phys_view(pa, MB1_INFO_SIZE_BASE);
		avail = MB1_INFO_SIZE_BASE;
	}
	if (!info) {
		mbi_error(bi, "mbi: multiboot1 info at 0x%llx is not readable",
			  (unsigned long long)pa);
		return false;
	}
	uint32_t flags = le32(info);

	if (flags & MB1_INFO_MEM) {
		bi->has_meminfo = true;
		bi->mem_lower_kb = le32(info + 4);
		bi->mem_upper_kb = le32(info + 8);
	}
	if (flags & MB1_INFO_CMDLINE)
		bi->has_cmdline = copy_phys_string(bi, "command line", le32(info + 16),
						   bi->cmdline, sizeof(bi->cmdline));
	if (flags & MB1_INFO_LOADER)
		bi->has_loader = copy_phys_string(bi, "boot loader name", le32(info + 64),
						  bi->loader, sizeof(bi->loader));
	if (flags & MB1_INFO_MMAP) {
		uint32_t len = le32(info + 44);
		uint64_t addr = le32(info + 48);
		const uint8_t *m = len <= MB1_MMAP_MAX_LEN ? phys_view(addr, len) : NULL;

		if (!m) {
			mbi_error(bi, "mbi: multiboot1 memory map (0x%llx, %u bytes) is not readable or too large",
				  (unsigned long long)addr, len);
		} else {
			/* Entries: u32 size (excluding itself), u64 base, u64 len,
			 * u32 type; the next one is size + 4 bytes on. */
			uint32_t off = 0;

			while (off + 4 <= len) {
				uint32_t sz = le32(m + off);

				if (sz < 20 || sz > len - off - 4) {	/* no wrap: off + 4 <= len */
					mbi_error(bi, "mbi: multiboot1 memory map entry at offset %u has bad size %u; rest ignored",
						  off, sz);
					break;
				}
				add_region(bi, le64(m + off + 4), le64(m + off + 12),
					   le32(m + off + 20));
				off += 4 + sz;
			}
		}
	}
	if ((flags & MB1_INFO_FB) && avail >= MB1_INFO_SIZE_FB) {
		bi->has_fb = true;
		bi->fb = (struct framebuffer_info){
			.addr = le64(info + 88), .pitch = le32(info + 96),
			.width = le32(info + 100), .height = le32(info + 104),
			.bpp = info[108], .type = info[109],
		};
		/* Multiboot 0.6.96 §3.3: an RGB framebuffer's color_info is
		 * the six bytes from offset 110. */
		if (bi->fb.type == MB2_FB_TYPE_RGB) {
			if (avail >= MB1_INFO_SIZE_RGB)
				set_rgb(&bi->fb, info + MB1_INFO_SIZE_FB);
			else
				mbi_error(bi, "mbi: multiboot1 framebuffer colour info at 0x%llx is not readable; drawn in gray",
					  (unsigned long long)(pa + MB1_INFO_SIZE_FB));
		}
	}
	return true;
}

/* ---- Multiboot 2 ---- */

enum {
	MB2_TAG_END = 0, MB2_TAG_CMDLINE = 1, MB2_TAG_LOADER = 2,
	MB2_TAG_BASIC_MEMINFO = 4, MB2_TAG_MMAP = 6, MB2_TAG_FRAMEBUFFER = 8,
	MB2_TAG_EFI32 = 11, MB2_TAG_EFI64 = 12, MB2_TAG_SMBIOS = 13, MB2_TAG_ACPI_OLD = 14,
	MB2_TAG_ACPI_NEW = 15, MB2_TAG_EFI_BS = 18, MB2_TAG_EFI32_IH = 19,
	MB2_TAG_EFI64_IH = 20,
};

static void mb2_tag(struct boot_info *bi, uint32_t type, const uint8_t *t, uint32_t size)
{
	const uint8_t *body = t + 8;
	uint32_t blen = size - 8;

	switch (type) {
	/* A bad duplicate tag leaves an earlier good string (and its flag). */
	case MB2_TAG_CMDLINE:
		if (copy_tag_string(bi, "command line", body, blen, bi->cmdline,
				    sizeof(bi->cmdline)))
			bi->has_cmdline = true;
		break;
	case MB2_TAG_LOADER:
		if (copy_tag_string(bi, "boot loader name", body, blen, bi->loader,
				    sizeof(bi->loader)))
			bi->has_loader = true;
		break;
	case MB2_TAG_BASIC_MEMINFO:
		if (blen < 8) {
			mbi_error(bi, "mbi: basic meminfo tag too short (%u bytes)", size);
			break;
		}
		bi->has_meminfo = true;
		bi->mem_lower_kb = le32(body);
		bi->mem_upper_kb = le32(body + 4);
		break;
	case MB2_TAG_MMAP: {
		if (blen < 8) {
			mbi_error(bi, "mbi: memory map tag too short (%u bytes)", size);
			break;
		}
		uint32_t esz = le32(body);

		if (esz < 24 || esz % 8) {
			mbi_error(bi, "mbi: memory map entry_size %u invalid (need >= 24, multiple of 8)", esz);
			break;
		}
		for (uint32_t off = 8; esz <= blen - off; off += esz)	/* off <= blen */
			add_region(bi, le64(body + off), le64(body + off + 8), le32(body + off + 16));
		/* A loader writes whole entries: a remainder (an entry_size
		 * larger than the tag gives nothing but remainder) is a bad
		 * tag, not an empty map. */
		if ((blen - 8) % esz)
			mbi_error(bi, "mbi: memory map tag has %u bytes of entries, not a multiple of entry_size %u; the last %u ignored",
				  blen - 8, esz, (blen - 8) % esz);
		break;
	}
	case MB2_TAG_FRAMEBUFFER:
		if (blen < 22) {
			mbi_error(bi, "mbi: framebuffer tag too short (%u bytes)", size);
			break;
		}
		bi->has_fb = true;
		bi->fb = (struct framebuffer_info){
			.addr = le64(body), .pitch = le32(body + 8), .width = le32(body + 12),
			.height = le32(body + 16), .bpp = body[20], .type = body[21],
		};
		/* color_info follows a 2-byte reserved field (GRUB's
		 * multiboot2.h; the spec's table shows one byte, loaders and
		 * kernels agree on offset 24 of the body). */
		if (bi->fb.type == MB2_FB_TYPE_RGB) {
			if (blen >= MB2_FB_COLOR_INFO + 6)
				set_rgb(&bi->fb, body + MB2_FB_COLOR_INFO);
			else
				mbi_error(bi, "mbi: framebuffer tag of type 1 (RGB) too short for its colour info (%u bytes); drawn in gray",
					  size);
		}
		break;
	case MB2_TAG_EFI32:
		if (blen >= 4) {
			bi->efi32 = true;
			bi->efi_systab = le32(body);
		}
		break;
	case MB2_TAG_EFI64:
		if (blen >= 8) {
			bi->efi64 = true;
			bi->efi_systab = le64(body);
		}
		break;
	case MB2_TAG_SMBIOS:
		/* Multiboot2 §3.6.13: major, minor, 6 reserved bytes, then
		 * the entry point structure (arch/x86/smbios.c checks it). */
		if (blen < 8 + 5) {
			mbi_error(bi, "mbi: SMBIOS tag too short (%u bytes)", size);
			break;
		}
		if (bi->has_smbios)
			break;	/* the first one wins */
		bi->smbios_major = body[0];
		bi->smbios_minor = body[1];
		bi->smbios_len = blen - 8 < sizeof(bi->smbios) ? blen - 8 : sizeof(bi->smbios);
		memcpy(bi->smbios, body + 8, bi->smbios_len);
		bi->has_smbios = true;
		break;
	case MB2_TAG_ACPI_OLD:
	case MB2_TAG_ACPI_NEW:
		/* Prefer the ACPI 2.0+ copy whatever the tag order. */
		if (bi->has_rsdp && bi->rsdp_tag == MB2_TAG_ACPI_NEW)
			break;
		if (blen < 20) {
			mbi_error(bi, "mbi: ACPI RSDP tag %u too short (%u bytes)", type, size);
			break;
		}
		bi->rsdp_len = blen < sizeof(bi->rsdp) ? blen : sizeof(bi->rsdp);
		memcpy(bi->rsdp, body, bi->rsdp_len);
		bi->rsdp_tag = type;
		bi->has_rsdp = true;
		break;
	case MB2_TAG_EFI_BS:
		bi->efi_bs_not_terminated = true;
		break;
	case MB2_TAG_EFI32_IH:
	case MB2_TAG_EFI64_IH:
		bi->efi_image_handle = true;
		break;
	default:
		break;
	}
}

static bool parse_mb2(struct boot_info *bi, uint64_t pa)
{
	if (pa & 7) {
		mbi_error(bi, "mbi: multiboot2 info at 0x%llx is not 8-byte aligned",
			  (unsigned long long)pa);
		return false;
	}
	const uint8_t *hdr = phys_view(pa, 8);

	if (!hdr) {
		mbi_error(bi, "mbi: multiboot2 info at 0x%llx is not readable",
			  (unsigned long long)pa);
		return false;
	}
	uint32_t total = le32(hdr);

	if (total < 16 || total > MBI_MB2_MAX_SIZE) {
		mbi_error(bi, "mbi: multiboot2 total_size %u is impossible (16..%u)", total,
			  MBI_MB2_MAX_SIZE);
		return false;
	}
	const uint8_t *info = phys_view(pa, total);

	if (!info) {
		mbi_error(bi, "mbi: multiboot2 info (0x%llx, %u bytes) is not readable",
			  (unsigned long long)pa, total);
		return false;
	}
	bi->info_size = total;
	uint32_t off = 8;
	bool ended = false;

	while (off + 8 <= total) {
		uint32_t type = le32(info + off), size = le32(info + off + 4);

		if (size < 8 || size > total - off) {
			mbi_error(bi, "mbi: multiboot2 tag type %u at offset %u has bad size %u; rest ignored",
				  type, off, size);
			break;
		}
		bi->ntags++;
		if (type == MB2_TAG_END) {
			ended = true;
			break;
		}
		mb2_tag(bi, type, info + off, size);
		off += (size + 7) & ~7u;
	}
	if (!ended)
		mbi_error(bi, "mbi: multiboot2 info has no end tag within its %u bytes", total);
	return true;
}

bool mbi_parse(uint32_t magic, uint64_t info_phys, struct boot_info *bi)
{
	bool ok;

	memset(bi, 0, sizeof(*bi));
	bi->magic = magic;
	bi->info_phys = info_phys;
	if (info_phys == 0) {
		mbi_error(bi, "mbi: boot information pointer is NULL (magic 0x%08x)", magic);
		return false;
	}
	if (magic == MB1_BOOTLOADER_MAGIC) {
		bi->proto = 1;
		ok = parse_mb1(bi, info_phys);
	} else if (magic == MB2_BOOTLOADER_MAGIC) {
		bi->proto = 2;
		ok = parse_mb2(bi, info_phys);
	} else {
		mbi_error(bi, "mbi: unknown boot loader magic 0x%08x (expected 0x%08x or 0x%08x)",
			  magic, MB1_BOOTLOADER_MAGIC, MB2_BOOTLOADER_MAGIC);
		return false;
	}
	if (ok && bi->nmmap == 0 && bi->has_meminfo) {
		/* No map: fall back to the two basic ranges, as old loaders
		 * intend (Multiboot spec §3.3, mem_lower/mem_upper). */
		mbi_error(bi, "mbi: no memory map; using mem_lower/mem_upper (%u KiB, %u KiB)",
			  bi->mem_lower_kb, bi->mem_upper_kb);
		add_region(bi, 0, (uint64_t)bi->mem_lower_kb * 1024, MMAP_RAM);
		add_region(bi, 0x100000, (uint64_t)bi->mem_upper_kb * 1024, MMAP_RAM);
	}
	if (ok && bi->nmmap == 0)
		mbi_error(bi, "mbi: no memory map and no basic memory information");
	if (bi->nmmap_dropped)
		mbi_error(bi, "mbi: memory map has more than %d entries; %u dropped",
			  MBI_MAX_MMAP, bi->nmmap_dropped);
	return ok;
}

bool mbi_is_uefi(const struct boot_info *bi)
{
	return bi->efi32 || bi->efi64 || bi->efi_image_handle;
}

#define BIOS_ROM_BASE		0xf0000ull
#define BIOS_ROM_END		0x100000ull
#define GRUB_MEMORY_CODE	20

bool mbi_map_looks_uefi(const struct boot_info *bi)
{
	bool rom_listed = false;

	if (!bi->nmmap)
		return false;
	for (unsigned i = 0; i < bi->nmmap; i++) {
		const struct mem_region *r = &bi->mmap[i];

		if (r->type == GRUB_MEMORY_CODE)
			return true;
		if (r->base < BIOS_ROM_END && r->base + r->len > BIOS_ROM_BASE)
			rom_listed = true;
	}
	return !rom_listed;
}

const char *mbi_boot_path(const struct boot_info *bi, char *buf, unsigned size)
{
	const char *ld = bi->has_loader ? bi->loader : "unknown loader";

	if (bi->proto == 1 && strncmp(ld, "qemu", 4) == 0)
		rl_snprintf(buf, size, "QEMU -kernel");
	else if (bi->proto == 2 && strncmp(ld, "GRUB", 4) == 0)
		rl_snprintf(buf, size, mbi_is_uefi(bi) ? "GRUB UEFI" : "GRUB BIOS");
	else if (bi->proto)
		rl_snprintf(buf, size, "multiboot%d (%s)", bi->proto, ld);
	else
		rl_snprintf(buf, size, "unknown");
	return buf;
}
