/* SPDX-License-Identifier: GPL-2.0-only */
/* Multiboot 1 and 2 boot information, parsed into a copy the kernel owns.
 *
 * The loader's structures are read only through phys_view() and every
 * length is checked against its container, so a malformed structure gives
 * error lines (bi->errors), never a fault.  Facts: Multiboot 0.6.96 and
 * Multiboot2 specifications (docs/platform-notes.md "Multiboot entry"). */
#ifndef RINGLAB_KERNEL_MBI_H
#define RINGLAB_KERNEL_MBI_H

#include <stdbool.h>
#include <stdint.h>
#include "arch/x86/e820.h"

#define MB1_BOOTLOADER_MAGIC	0x2badb002u
#define MB2_BOOTLOADER_MAGIC	0x36d76289u

#define MBI_MAX_MMAP		256
#define MBI_CMDLINE_MAX		2048
#define MBI_LOADER_MAX		128
#define MBI_MAX_ERRORS		8
#define MBI_ERROR_LEN		160
#define MBI_MB2_MAX_SIZE	(1u << 20)	/* refuse info blocks larger than 1 MiB */

/* struct mem_region and the MMAP_* types: arch/x86/e820.h */

/* framebuffer_type (Multiboot2 §3.6.12; the same values in multiboot1) */
#define MB2_FB_TYPE_INDEXED	0
#define MB2_FB_TYPE_RGB		1
#define MB2_FB_TYPE_EGA_TEXT	2

struct framebuffer_info {
	uint64_t addr;
	uint32_t pitch, width, height;
	uint8_t bpp, type;	/* type 0 indexed, 1 RGB, 2 EGA text */
	/* Type 1 only: the colour layout, as the loader gave it (field
	 * position = lowest bit, mask size = width in bits; checked by its
	 * user, kernel/fbcon.c).  has_rgb false: no layout came with it. */
	bool has_rgb;
	uint8_t red_pos, red_size, green_pos, green_size, blue_pos, blue_size;
};

struct boot_info {
	int proto;			/* 1, 2, or 0 when the magic was unknown */
	uint32_t magic;
	uint64_t info_phys;
	uint32_t info_size;		/* multiboot2 total_size; 0 for mb1 */

	bool has_cmdline;
	bool cmdline_truncated;		/* longer than MBI_CMDLINE_MAX - 1 bytes */
	char cmdline[MBI_CMDLINE_MAX];
	bool has_loader;
	char loader[MBI_LOADER_MAX];

	bool has_meminfo;
	uint32_t mem_lower_kb, mem_upper_kb;
	struct mem_region mmap[MBI_MAX_MMAP];
	unsigned nmmap;
	unsigned nmmap_dropped;

	bool has_rsdp;
	uint8_t rsdp[64];		/* copy of the tag payload */
	unsigned rsdp_len;
	unsigned rsdp_tag;		/* 14 (ACPI 1.0) or 15 (2.0+) */

	bool has_smbios;		/* tag 13: a copy of the SMBIOS entry point */
	uint8_t smbios[64];
	unsigned smbios_len;
	uint8_t smbios_major, smbios_minor;

	bool efi32, efi64;		/* EFI system table tags 11 / 12 */
	uint64_t efi_systab;
	bool efi_image_handle;		/* tag 19/20 */
	bool efi_bs_not_terminated;	/* tag 18 */

	bool has_fb;
	struct framebuffer_info fb;

	unsigned ntags;			/* multiboot2 tags seen */
	char errors[MBI_MAX_ERRORS][MBI_ERROR_LEN];
	unsigned nerrors;
};

/* Parse.  Returns true when the structure was usable (a known magic and a
 * readable info block), even if some parts were rejected. */
bool mbi_parse(uint32_t magic, uint64_t info_phys, struct boot_info *bi);

/* "QEMU -kernel", "GRUB BIOS", "GRUB UEFI", "multiboot1 (<loader>)", ... */
const char *mbi_boot_path(const struct boot_info *bi, char *buf, unsigned size);
bool mbi_is_uefi(const struct boot_info *bi);

/* A hint for loaders that say nothing about the firmware (multiboot1):
 * true when the memory map looks converted from a UEFI memory map rather
 * than a BIOS's E820 map.  A BIOS lives in its ROM at 0xF0000-0xFFFFF and
 * its E820 map reserves that range; a UEFI memory map usually leaves it
 * out.  GRUB's multiboot1 map under UEFI also passes EFI runtime-services
 * code through as type 20 (GRUB_MEMORY_CODE), a type no E820 map has.
 * False for an empty map.  Never proof: the caller asks it only when no
 * RSDP and no MP table was found either. */
bool mbi_map_looks_uefi(const struct boot_info *bi);

#endif
