/* SPDX-License-Identifier: GPL-2.0-only */
/* mbforge: a multiboot2 "forger" for ringlab's QEMU fault matrix.
 *
 * Test tooling, not part of the kernel.  QEMU's -kernel loader speaks only
 * multiboot1 (no framebuffer info) and GRUB hands over only what the
 * firmware gave it, so neither can give ringlab a bad framebuffer tag.
 * mbforge is a small 32-bit multiboot1 kernel that QEMU boots with
 *
 *   qemu-system-x86_64 ... -kernel build/mbforge.elf -initrd build/ringlab.elf \
 *       -append "fb=kernel -- tests=boot quick"
 *
 * It reads the multiboot1 information (every length checked), loads the
 * module's ELF64 PT_LOAD segments at their physical addresses (the part
 * past p_filesz zeroed), builds a multiboot2 information structure and
 * enters ringlab's 32-bit entry point the way a multiboot2 loader does
 * (spec §3.3: protected mode, paging off, flat segments, interrupts off,
 * EAX = 0x36d76289, EBX = the info's physical address).
 *
 * Command line (its own, from -append; QEMU puts the image's file name
 * first, which is skipped):
 *   fb=MODE   the framebuffer tag (type 8) to forge, 1024x768, 32 bpp RGB:
 *             none          no framebuffer tag (the default)
 *             good          the bochs VGA linear framebuffer (-vga std: PCI
 *                           1234:1111 BAR0 from a bus-0 scan, set to
 *                           0xfd000000 when unassigned, as under qboot; the
 *                           same address without the device), pitch 4096:
 *                           a valid tag, the positive control
 *             kernel        at ringlab's own load address (its lowest PT_LOAD)
 *             noncanonical  at 0x8000000000000000
 *             maxphys       at 0x7ff000000000, above MAXPHYADDR (below 2^47)
 *             huge          at 0xfd000000 but 1048576 lines of 4096 bytes:
 *                           4 GiB, reaching the RAM above 4 GiB
 *             wrap          at 0xfffffffffffff000: base + size wraps 2^64
 *   mmap=MODE the memory-map tag (6), converted from mb1's:
 *             good          as converted (the default)
 *             wrap          one more entry, RAM 0xfffffffffffff000+0x2000,
 *                           whose end wraps past 2^64
 *             overlap-kernel one more entry, reserved (type 2), over
 *                           ringlab's image (lowest to highest PT_LOAD byte)
 *             none          no memory-map tag
 *             esize-big     24-byte entries, but entry_size 4096: a
 *                           multiple of 8 larger than the whole tag
 *   meminfo=MODE  good (the default) or none: no basic meminfo tag (4)
 *   tags=MODE good (the default) or truncated: total_size ends 16 bytes
 *             into the memory-map tag (after entry_version), so that tag
 *             runs past total_size and the RSDP and end tags lie outside
 *             (needs a memory-map tag)
 *   smbios=MODE the SMBIOS tag (13), a copy of the firmware's entry point
 *             found in 0xF0000-0xFFFFF (_SM3_ or _SM_ on a 16-byte step):
 *             none          no tag (the default)
 *             good          the entry point as found
 *             bad-checksum  the same with its checksum byte off by one: a
 *                           broken entry point the kernel must refuse
 *   --        the rest of the line, verbatim, is ringlab's command line
 *             (the multiboot2 command-line tag; empty when absent).  A
 *             separator in -append rather than the -initrd module string,
 *             because QEMU splits -initrd at commas (tests=boot,cpu).
 *
 * The multiboot2 information has, in this order: the command line (1),
 * the boot loader name "mbforge" (2), basic meminfo (4, from mb1's
 * mem_lower/mem_upper; not with meminfo=none), the memory map (6, as
 * mmap= says), the ACPI RSDP (14, and 15 for a revision >= 2 RSDP) when
 * the BIOS areas hold one with a good checksum, the SMBIOS entry point
 * (13) when smbios= asks, the framebuffer (8) as
 * chosen, and the end tag.
 *
 * Anything off (no module, not an x86-64 ELF executable, a segment outside
 * RAM, above 4 GiB or on mbforge or the module, an unknown option) stops
 * with "mbforge: error: ..." on COM1 and an isa-debug-exit write of 3
 * (QEMU exits with 7), or HLT where there is no such device.  On success
 * one "mbforge: ..." line (two with a mmap=/meminfo=/tags= fault: the
 * second "mbforge: multiboot2 faults: ...") precedes ringlab's log
 * (logcheck judges the run from its "KTAP version 1" line, so it is
 * ignored). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/x86/cpu.h"
#include "lib/bytes.h"
#include "lib/string.h"

#define COM1			0x3f8
#define DEBUG_EXIT_PORT		0xf4

#define MB1_LOADER_MAGIC	0x2badb002u
#define MB1_INFO_MEM		(1u << 0)
#define MB1_INFO_CMDLINE	(1u << 2)
#define MB1_INFO_MODS		(1u << 3)
#define MB1_INFO_MMAP		(1u << 6)
#define MB1_INFO_SIZE		52	/* flags .. mmap_addr: all that is read */
#define MB1_MMAP_MAX		(64u * 1024)
#define CMDLINE_MAX		4096

#define MB2_TAG_END		0
#define MB2_TAG_CMDLINE		1
#define MB2_TAG_LOADER		2
#define MB2_TAG_MEMINFO		4
#define MB2_TAG_MMAP		6
#define MB2_TAG_FB		8
#define MB2_TAG_SMBIOS		13
#define MB2_TAG_ACPI_OLD	14
#define MB2_TAG_ACPI_NEW	15
#define MB2_FB_TYPE_RGB		1

#define PT_LOAD			1
#define PF_X			1
#define MAX_SEGS		16

extern char __mbforge_start[], __mbforge_end[];
void mbforge_main(uint32_t magic, uint32_t info) __attribute__((noreturn));
void mbforge_enter(uint32_t entry, uint32_t mb2_info) __attribute__((noreturn));

/* ------------------------------------------------------------ console --- */

static void putc_serial(char c)
{
	/* bounded wait for THRE: the UART may be absent */
	for (unsigned i = 0; i < 100000 && !(inb(COM1 + 5) & 0x20); i++)
		;
	outb(COM1, (uint8_t)c);
}

static void puts_serial(const char *s)
{
	for (; *s; s++) {
		if (*s == '\n')
			putc_serial('\r');
		putc_serial(*s);
	}
}

static void puthex(uint64_t v)
{
	char buf[19];
	int i = 18;

	buf[i] = '\0';
	do {
		buf[--i] = "0123456789abcdef"[v & 0xf];
		v >>= 4;
	} while (v);
	buf[--i] = 'x';
	buf[--i] = '0';
	puts_serial(buf + i);
}

static void putdec(uint32_t v)
{
	char buf[11];
	int i = 10;

	buf[i] = '\0';
	do {
		buf[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	puts_serial(buf + i);
}

static __attribute__((noreturn)) void stop(void)
{
	outb(DEBUG_EXIT_PORT, 3);	/* QEMU isa-debug-exit: exit status 7 */
	for (;;)
		__asm__ volatile("cli; hlt");
}

/* "mbforge: error: <what> <value>" and stop. */
static __attribute__((noreturn)) void refuse(const char *what, uint64_t value)
{
	puts_serial("mbforge: error: ");
	puts_serial(what);
	puts_serial(" ");
	puthex(value);
	puts_serial("; not starting the kernel\n");
	stop();
}

/* ---------------------------------------------------- physical memory --- */

/* Paging is off: a physical address below 4 GiB is a pointer.  A range
 * must not wrap the 32-bit address space or start at 0. */
static const uint8_t *phys(uint32_t pa, uint32_t len, const char *what)
{
	if (pa == 0 || (uint64_t)pa + len > 0x100000000ull)
		refuse(what, pa);
	const uint8_t *p = (const uint8_t *)(uintptr_t)pa;

	__asm__("" : "+r"(p));	/* an address, not an object gcc can size */
	return p;
}

static bool overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return a < b + blen && b < a + alen;
}

/* ------------------------------------------------------------ options --- */

enum fb_mode { FB_NONE, FB_GOOD, FB_KERNEL, FB_NONCANONICAL, FB_MAXPHYS, FB_HUGE, FB_WRAP };

static const char *const fb_names[] = {
	[FB_NONE] = "none", [FB_GOOD] = "good", [FB_KERNEL] = "kernel",
	[FB_NONCANONICAL] = "noncanonical", [FB_MAXPHYS] = "maxphys", [FB_HUGE] = "huge",
	[FB_WRAP] = "wrap",
};

/* Multiboot2 information faults: what a buggy loader or
 * firmware could hand over.  "good" is the default everywhere. */
enum mmap_mode { MMAP_GOOD, MMAP_WRAP, MMAP_OVERLAP_KERNEL, MMAP_NONE, MMAP_ESIZE_BIG };

static const char *const mmap_names[] = {
	[MMAP_GOOD] = "good", [MMAP_WRAP] = "wrap", [MMAP_OVERLAP_KERNEL] = "overlap-kernel",
	[MMAP_NONE] = "none", [MMAP_ESIZE_BIG] = "esize-big",
};

enum meminfo_mode { MEMINFO_GOOD, MEMINFO_NONE };

static const char *const meminfo_names[] = { [MEMINFO_GOOD] = "good", [MEMINFO_NONE] = "none" };

enum tags_mode { TAGS_GOOD, TAGS_TRUNCATED };

static const char *const tags_names[] = { [TAGS_GOOD] = "good", [TAGS_TRUNCATED] = "truncated" };

/* The SMBIOS tag (13): none, a copy of the firmware's entry point, or
 * that copy with a bad checksum. */
enum smbios_mode { SMBIOS_NONE, SMBIOS_GOOD, SMBIOS_BAD_CHECKSUM };

static const char *const smbios_names[] = {
	[SMBIOS_NONE] = "none", [SMBIOS_GOOD] = "good", [SMBIOS_BAD_CHECKSUM] = "bad-checksum",
};

static char own_cmdline[CMDLINE_MAX];
static const char *kernel_cmdline = "";

/* One KEY=MODE option: the mode's index in names[] goes to *value. */
struct option {
	const char *key;
	const char *const *names;
	unsigned nnames;
	unsigned *value;
	const char *list;	/* the modes, for the error line */
};

static unsigned fb_mode, mmap_mode, meminfo_mode, tags_mode, smbios_mode;

#define OPT(k, n, v, l) { k, n, sizeof(n) / sizeof(n[0]), &v, l }
static const struct option options[] = {
	OPT("fb", fb_names, fb_mode, "none, good, kernel, noncanonical, maxphys, huge, wrap"),
	OPT("mmap", mmap_names, mmap_mode, "good, wrap, overlap-kernel, none, esize-big"),
	OPT("meminfo", meminfo_names, meminfo_mode, "good, none"),
	OPT("tags", tags_names, tags_mode, "good, truncated"),
	OPT("smbios", smbios_names, smbios_mode, "none, good, bad-checksum"),
};
#undef OPT

/* Sets the option tok[0..n) names and returns true, or false when it is
 * not KEY=... for any KEY; stops on an unknown mode. */
static bool parse_option(char *tok, size_t n)
{
	for (unsigned o = 0; o < sizeof(options) / sizeof(options[0]); o++) {
		const struct option *op = &options[o];
		size_t kl = strlen(op->key);

		if (n <= kl || memcmp(tok, op->key, kl) != 0 || tok[kl] != '=')
			continue;
		for (unsigned m = 0; m < op->nnames; m++)
			if (str_eq_n(tok + kl + 1, n - kl - 1, op->names[m])) {
				*op->value = m;
				return true;
			}
		tok[n] = '\0';
		puts_serial("mbforge: error: unknown ");
		puts_serial(op->key);
		puts_serial("= mode '");
		puts_serial(tok + kl + 1);
		puts_serial("' (");
		puts_serial(op->list);
		puts_serial(")\n");
		stop();
	}
	return false;
}

static void parse_options(void)
{
	char *s = own_cmdline;
	bool first = true;

	for (;;) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		char *tok = s;
		size_t n = 0;

		while (tok[n] && tok[n] != ' ')
			n++;
		s = tok + n;
		if (str_eq_n(tok, n, "--")) {
			while (*s == ' ')
				s++;
			kernel_cmdline = s;
			break;
		}
		if (!parse_option(tok, n)) {
			bool has_eq = false;

			for (size_t i = 0; i < n; i++)
				has_eq |= tok[i] == '=';
			if (!first || has_eq) {
				tok[n] = '\0';
				puts_serial("mbforge: error: unknown option '");
				puts_serial(tok);
				puts_serial("' (fb=, mmap=, meminfo=, tags=, smbios=, then -- and the kernel's command line)\n");
				stop();
			}
			/* else the image's file name, which QEMU puts first */
		}
		first = false;
	}
}

/* ---------------------------------------------------------------- ELF --- */

struct seg {
	uint64_t offset, paddr, filesz, memsz;
	uint32_t flags;
};

static struct seg segs[MAX_SEGS];
static unsigned nsegs;
static uint32_t kernel_entry;
static uint64_t kernel_low = ~0ull, kernel_high;

struct ram {
	uint64_t base, len;
};

static struct ram ram[128];
static unsigned nram;

static bool in_ram(uint64_t base, uint64_t len)
{
	for (unsigned i = 0; i < nram; i++)
		if (base >= ram[i].base && base + len <= ram[i].base + ram[i].len)
			return true;
	return false;
}

static void elf_plan(const uint8_t *img, uint32_t size, uint32_t mod_start)
{
	uint64_t shim = (uintptr_t)__mbforge_start, shim_len = (uintptr_t)__mbforge_end - shim;

	if (size < 64 || img[0] != 0x7f || img[1] != 'E' || img[2] != 'L' || img[3] != 'F')
		refuse("module is not an ELF file; module size", size);
	if (img[4] != 2 || img[5] != 1)
		refuse("module is not a little-endian ELF64; class", img[4]);
	uint16_t type = le16(img + 16), machine = le16(img + 18);
	uint16_t phentsize = le16(img + 54), phnum = le16(img + 56);
	uint64_t entry = le64(img + 24), phoff = le64(img + 32);

	if (type != 2)
		refuse("ELF is not an executable (ET_EXEC); e_type", type);
	if (machine != 62)
		refuse("ELF is not x86-64; e_machine", machine);
	if (phentsize < 56)
		refuse("ELF program header entries too small; e_phentsize", phentsize);
	if (phnum == 0 || phoff > size || (uint64_t)phnum * phentsize > size - phoff)
		refuse("ELF program headers lie outside the file; e_phoff", phoff);
	for (unsigned i = 0; i < phnum; i++) {
		const uint8_t *ph = img + phoff + (uint64_t)i * phentsize;
		struct seg s = {
			.offset = le64(ph + 8), .paddr = le64(ph + 24),
			.filesz = le64(ph + 32), .memsz = le64(ph + 40), .flags = le32(ph + 4),
		};

		if (le32(ph) != PT_LOAD || s.memsz == 0)
			continue;
		if (nsegs == MAX_SEGS)
			refuse("ELF has too many PT_LOAD segments; more than", MAX_SEGS);
		if (s.filesz > s.memsz)
			refuse("PT_LOAD has p_filesz > p_memsz; p_paddr", s.paddr);
		if (s.offset > size || s.filesz > size - s.offset)
			refuse("PT_LOAD file bytes lie outside the module; p_offset", s.offset);
		if (s.paddr >= 0x100000000ull || s.memsz > 0x100000000ull - s.paddr)
			refuse("PT_LOAD does not lie below 4 GiB; p_paddr", s.paddr);
		if (!in_ram(s.paddr, s.memsz))
			refuse("PT_LOAD is not inside one RAM entry of the memory map; p_paddr", s.paddr);
		if (overlaps(s.paddr, s.memsz, shim, shim_len))
			refuse("PT_LOAD overlaps mbforge itself; p_paddr", s.paddr);
		if (overlaps(s.paddr, s.memsz, mod_start, size))
			refuse("PT_LOAD overlaps the module it is copied from; p_paddr", s.paddr);
		for (unsigned j = 0; j < nsegs; j++)
			if (overlaps(s.paddr, s.memsz, segs[j].paddr, segs[j].memsz))
				refuse("PT_LOAD segments overlap; p_paddr", s.paddr);
		if (s.paddr < kernel_low)
			kernel_low = s.paddr;
		if (s.paddr + s.memsz > kernel_high)
			kernel_high = s.paddr + s.memsz;
		segs[nsegs++] = s;
	}
	if (!nsegs)
		refuse("ELF has no PT_LOAD segment; e_phnum", phnum);
	for (unsigned j = 0; j < nsegs; j++)
		if ((segs[j].flags & PF_X) && entry >= segs[j].paddr &&
		    entry < segs[j].paddr + segs[j].memsz) {
			kernel_entry = (uint32_t)entry;
			return;
		}
	refuse("ELF entry point is not inside an executable PT_LOAD segment; e_entry", entry);
}

static void elf_load(const uint8_t *img)
{
	for (unsigned i = 0; i < nsegs; i++) {
		uint8_t *dst = (uint8_t *)(uintptr_t)segs[i].paddr;

		memcpy(dst, img + segs[i].offset, (size_t)segs[i].filesz);
		memset(dst + segs[i].filesz, 0, (size_t)(segs[i].memsz - segs[i].filesz));
	}
}

/* --------------------------------------------------- multiboot2 info --- */

static uint8_t mb2[32768] __attribute__((aligned(8)));
static uint32_t mb2_len;
static unsigned mb2_ntags;

static uint8_t *mb2_reserve(uint32_t n)
{
	if (n > sizeof(mb2) - mb2_len)
		refuse("multiboot2 information does not fit; bytes needed", (uint64_t)mb2_len + n);
	uint8_t *p = mb2 + mb2_len;

	mb2_len += n;
	return p;
}

static void put32(uint32_t v)
{
	memcpy(mb2_reserve(4), &v, 4);
}

static void put64(uint64_t v)
{
	memcpy(mb2_reserve(8), &v, 8);
}

static void put_bytes(const void *p, uint32_t n)
{
	memcpy(mb2_reserve(n), p, n);
}

static uint32_t tag_begin(uint32_t type)
{
	uint32_t at = mb2_len;

	put32(type);
	put32(0);	/* size, set by tag_end() */
	mb2_ntags++;
	return at;
}

/* The size excludes the padding; the next tag starts 8-byte aligned. */
static void tag_end(uint32_t at)
{
	uint32_t size = mb2_len - at;

	memcpy(mb2 + at + 4, &size, 4);
	while (mb2_len & 7)
		*mb2_reserve(1) = 0;
}

static void tag_string(uint32_t type, const char *s)
{
	uint32_t at = tag_begin(type);

	put_bytes(s, (uint32_t)strnlen(s, CMDLINE_MAX));
	*mb2_reserve(1) = 0;
	tag_end(at);
}

/* ACPI §5.2.5.1: "RSD PTR " on a 16-byte boundary in the EBDA's first
 * KiB or in 0xe0000-0xfffff, 20-byte checksum good. */
static const uint8_t *rsdp_find(void)
{
	const uint8_t *bda = phys(0x40e, 2, "BDA");
	uint32_t ebda = (uint32_t)(bda[0] | bda[1] << 8) << 4;
	uint32_t areas[2][2] = { { ebda, 1024 }, { 0xe0000, 0x20000 } };

	for (unsigned a = 0; a < 2; a++) {
		if (areas[a][0] < 0x400 || areas[a][0] + areas[a][1] > 0x100000)
			continue;
		for (uint32_t pa = areas[a][0]; pa + 20 <= areas[a][0] + areas[a][1]; pa += 16) {
			const uint8_t *p = phys(pa, 20, "RSDP scan");

			if (p[0] == 'R' && p[1] == 'S' && p[2] == 'D' && p[3] == ' ' && p[4] == 'P' &&
			    p[5] == 'T' && p[6] == 'R' && p[7] == ' ' && byte_sum(p, 20) == 0)
				return p;
		}
	}
	return NULL;
}

/* DSP0134 §5.2: an SMBIOS entry point on a 16-byte boundary in
 * 0xf0000-0xfffff; its length byte (offset 6 for _SM3_, 5 for _SM_). */
static const uint8_t *smbios_find(uint32_t *len)
{
	for (uint32_t pa = 0xf0000; pa + 32 <= 0x100000; pa += 16) {
		const uint8_t *p = phys(pa, 32, "SMBIOS scan");

		if (p[0] == '_' && p[1] == 'S' && p[2] == 'M' && p[3] == '3' && p[4] == '_' &&
		    p[6] >= 0x18 && p[6] <= 32) {
			*len = p[6];
			return p;
		}
		if (p[0] == '_' && p[1] == 'S' && p[2] == 'M' && p[3] == '_' &&
		    p[5] >= 0x1e && p[5] <= 32) {
			*len = 0x1f;
			return p;
		}
	}
	return NULL;
}

/* The forged framebuffer.  The tag's fixed part is 8 + 22 bytes, then a
 * 2-byte reserved field (as GRUB writes it; the spec's table shows one
 * byte, but loaders and kernels agree on color_info at offset 32), then
 * the RGB field positions and mask sizes. */
struct fb_choice {
	uint64_t addr;
	uint32_t pitch, width, height;
	const char *where;
};

#define BOCHS_LFB_DEFAULT	0xfd000000u	/* where SeaBIOS puts it on pc */

/* The bochs VGA (-vga std, PCI 1234:1111) on bus 0: its BAR0, the linear
 * framebuffer.  qboot assigns no BARs, so an unassigned one is set to
 * BOCHS_LFB_DEFAULT (free in the pc machine's PCI hole) with memory
 * decoding on, as a BIOS would: the kernel's pixel writes then land in
 * the card's VRAM.  Returns 0 when there is no such device. */
static uint32_t pci_cfg_addr(uint32_t dev, uint32_t reg)
{
	return 0x80000000u | (dev << 11) | reg;
}

static uint32_t bochs_vga_bar0(const char **where)
{
	for (uint32_t dev = 0; dev < 32; dev++) {
		outl(0xcf8, pci_cfg_addr(dev, 0));
		if (inl(0xcfc) != 0x11111234u)	/* device 0x1111, vendor 0x1234 */
			continue;
		outl(0xcf8, pci_cfg_addr(dev, 0x10));
		uint32_t bar = inl(0xcfc) & ~0xfu;

		*where = " (bochs VGA BAR0)";
		if (!bar) {
			outl(0xcf8, pci_cfg_addr(dev, 0x10));
			outl(0xcfc, BOCHS_LFB_DEFAULT);
			outl(0xcf8, pci_cfg_addr(dev, 0x10));
			bar = inl(0xcfc) & ~0xfu;
			*where = " (bochs VGA BAR0, assigned by mbforge)";
		}
		outl(0xcf8, pci_cfg_addr(dev, 0x04));
		uint32_t cmd = inl(0xcfc);

		outl(0xcf8, pci_cfg_addr(dev, 0x04));
		outl(0xcfc, (cmd & 0xffffu) | 0x2);	/* memory space enable */
		return bar;
	}
	return 0;
}

static struct fb_choice fb_pick(void)
{
	struct fb_choice f = { BOCHS_LFB_DEFAULT, 4096, 1024, 768, "" };

	switch (fb_mode) {
	case FB_GOOD: {
		uint32_t bar = bochs_vga_bar0(&f.where);

		if (bar)
			f.addr = bar;
		else
			f.where = " (no bochs VGA on bus 0: nothing behind it)";
		break;
	}
	case FB_KERNEL:
		f.addr = kernel_low;
		break;
	case FB_NONCANONICAL:
		f.addr = 0x8000000000000000ull;
		break;
	case FB_MAXPHYS:
		f.addr = 0x7ff000000000ull;
		break;
	case FB_HUGE:
		f.height = 1u << 20;	/* 4 GiB from 0xfd000000 */
		break;
	case FB_WRAP:
		f.addr = 0xfffffffffffff000ull;
		break;
	case FB_NONE:
		break;
	}
	return f;
}

/* The multiboot1 memory map, every entry's size checked; records the RAM
 * (type 1) ranges that the segments must lie in. */
static const uint8_t *mb1_mmap(const uint8_t *info, uint32_t *lenp)
{
	uint32_t len = le32(info + 44), addr = le32(info + 48);

	if (len > MB1_MMAP_MAX)
		refuse("multiboot1 memory map too long; bytes", len);
	const uint8_t *m = phys(addr, len, "multiboot1 memory map at");

	nram = 0;
	/* entries: u32 size (not counting itself), u64 base, u64 length,
	 * u32 type; the next is size + 4 bytes on */
	for (uint32_t off = 0; off + 4 <= len;) {
		uint32_t sz = le32(m + off);

		if (sz < 20 || sz > len - off - 4)
			refuse("multiboot1 memory map entry has a bad size; offset", off);
		uint64_t base = le64(m + off + 4), l = le64(m + off + 12);

		if (le32(m + off + 20) == 1 && l && base + l > base &&
		    nram < sizeof(ram) / sizeof(ram[0]))
			ram[nram++] = (struct ram){ base, l };
		off += 4 + sz;
	}
	*lenp = len;
	return m;
}

/* The extra memory-map entry of mmap=wrap / overlap-kernel (base, length,
 * type); false for the other modes. */
static bool mmap_extra(uint64_t *base, uint64_t *len, uint32_t *type)
{
	switch (mmap_mode) {
	case MMAP_WRAP:		/* RAM whose end wraps past 2^64 */
		*base = 0xfffffffffffff000ull;
		*len = 0x2000;
		*type = 1;
		return true;
	case MMAP_OVERLAP_KERNEL:	/* reserved, over the whole kernel image */
		*base = kernel_low;
		*len = kernel_high - kernel_low;
		*type = 2;
		return true;
	default:
		return false;
	}
}

static void mb2_build(const uint8_t *info, uint32_t flags, struct fb_choice *fb)
{
	uint32_t mmap_at = 0;

	put32(0);	/* total_size, set at the end */
	put32(0);	/* reserved */

	tag_string(MB2_TAG_CMDLINE, kernel_cmdline);
	tag_string(MB2_TAG_LOADER, "mbforge");

	if ((flags & MB1_INFO_MEM) && meminfo_mode != MEMINFO_NONE) {
		uint32_t at = tag_begin(MB2_TAG_MEMINFO);

		put32(le32(info + 4));
		put32(le32(info + 8));
		tag_end(at);
	}
	if ((flags & MB1_INFO_MMAP) && mmap_mode != MMAP_NONE) {
		uint32_t len, type;
		uint64_t xbase, xlen;
		const uint8_t *m = mb1_mmap(info, &len);
		uint32_t at = tag_begin(MB2_TAG_MMAP);

		mmap_at = at;
		/* esize-big: 24-byte entries, but an entry_size (a multiple of
		 * 8) larger than the whole tag */
		put32(mmap_mode == MMAP_ESIZE_BIG ? 4096 : 24);
		put32(0);	/* entry_version */
		for (uint32_t off = 0; off + 4 <= len; off += 4 + le32(m + off)) {
			put64(le64(m + off + 4));
			put64(le64(m + off + 12));
			put32(le32(m + off + 20));
			put32(0);
		}
		if (mmap_extra(&xbase, &xlen, &type)) {
			put64(xbase);
			put64(xlen);
			put32(type);
			put32(0);
		}
		tag_end(at);
	}

	const uint8_t *rsdp = rsdp_find();

	if (rsdp) {
		uint32_t at = tag_begin(MB2_TAG_ACPI_OLD);

		put_bytes(rsdp, 20);
		tag_end(at);
		/* ACPI 2.0+: the whole structure, its length and extended
		 * checksum good (ACPI §5.2.5.3). */
		uint32_t xlen = le32(rsdp + 20);

		if (rsdp[15] >= 2 && xlen >= 36 && xlen <= 64 &&
		    byte_sum(phys((uint32_t)(uintptr_t)rsdp, xlen, "RSDP"), xlen) == 0) {
			at = tag_begin(MB2_TAG_ACPI_NEW);
			put_bytes(rsdp, xlen);
			tag_end(at);
		}
	}

	if (smbios_mode != SMBIOS_NONE) {
		uint32_t eplen;
		const uint8_t *ep = smbios_find(&eplen);

		if (!ep)
			refuse("smbios= needs an SMBIOS entry point in 0xf0000-0xfffff; smbios mode",
			       smbios_mode);
		uint8_t copy[32];
		bool v3 = ep[3] == '3';

		memcpy(copy, ep, eplen);
		if (smbios_mode == SMBIOS_BAD_CHECKSUM)
			copy[v3 ? 5 : 4]++;
		uint32_t at = tag_begin(MB2_TAG_SMBIOS);
		uint8_t hdr[8] = { v3 ? ep[7] : ep[6], v3 ? ep[8] : ep[7], 0, 0, 0, 0, 0, 0 };

		put_bytes(hdr, 8);
		put_bytes(copy, eplen);
		tag_end(at);
	}

	if (fb_mode != FB_NONE) {
		uint32_t at = tag_begin(MB2_TAG_FB);
		static const uint8_t bpp_type_res[4] = { 32, MB2_FB_TYPE_RGB, 0, 0 };
		static const uint8_t rgb[6] = { 16, 8, 8, 8, 0, 8 };	/* x8r8g8b8 */

		*fb = fb_pick();
		put64(fb->addr);
		put32(fb->pitch);
		put32(fb->width);
		put32(fb->height);
		put_bytes(bpp_type_res, 4);
		put_bytes(rgb, 6);
		tag_end(at);
	}

	uint32_t at = tag_begin(MB2_TAG_END);

	tag_end(at);
	/* tags=truncated: total_size ends 16 bytes into the memory-map tag
	 * (its header, entry_size and entry_version), so that tag's size
	 * runs past total_size and the end tag lies outside. */
	uint32_t total = mb2_len;

	if (tags_mode == TAGS_TRUNCATED) {
		if (!mmap_at)
			refuse("tags=truncated cuts into the memory-map tag, and there is none; mmap mode",
			       mmap_mode);
		total = mmap_at + 16;
	}
	memcpy(mb2, &total, 4);
}

/* --------------------------------------------------------------- main --- */

void mbforge_main(uint32_t magic, uint32_t info_pa)
{
	if (magic != MB1_LOADER_MAGIC)
		refuse("not started by a multiboot1 loader; magic", magic);
	const uint8_t *info = phys(info_pa, MB1_INFO_SIZE, "multiboot1 info at");
	uint32_t flags = le32(info);

	if (flags & MB1_INFO_CMDLINE) {
		const char *c = (const char *)phys(le32(info + 16), 1, "command line at");
		size_t n = 0;

		/* copy byte by byte; stop at 4 GiB or the buffer's end */
		while (n + 1 < sizeof(own_cmdline) && (uintptr_t)c + n < 0xffffffffu && c[n]) {
			own_cmdline[n] = c[n];
			n++;
		}
		if (n + 1 == sizeof(own_cmdline))
			refuse("own command line too long; limit", sizeof(own_cmdline) - 1);
	}
	parse_options();

	if (!(flags & MB1_INFO_MODS) || le32(info + 20) == 0)
		refuse("no module: pass the kernel with -initrd; mods_count", le32(info + 20));
	const uint8_t *mod = phys(le32(info + 24), 16, "module list at");
	uint32_t mod_start = le32(mod), mod_end = le32(mod + 4);

	if (mod_end <= mod_start)
		refuse("module has no bytes; mod_start", mod_start);
	const uint8_t *img = phys(mod_start, mod_end - mod_start, "module at");

	if (!(flags & MB1_INFO_MMAP))
		refuse("no multiboot1 memory map; flags", flags);

	uint32_t mmap_len;
	struct fb_choice fb = { 0, 0, 0, 0, "" };

	mb1_mmap(info, &mmap_len);
	if (!nram)
		refuse("no RAM in the multiboot1 memory map; bytes", mmap_len);
	/* Everything is checked and the information built (the command
	 * line copied out of the loader's memory) before the first byte of
	 * the kernel is written. */
	elf_plan(img, mod_end - mod_start, mod_start);
	mb2_build(info, flags, &fb);

	elf_load(img);

	puts_serial("mbforge: kernel from module ");
	puthex(mod_start);
	puts_serial("+");
	puthex(mod_end - mod_start);
	puts_serial(": ");
	putdec(nsegs);
	puts_serial(" PT_LOAD segment(s) from ");
	puthex(kernel_low);
	puts_serial(", entry ");
	puthex(kernel_entry);
	puts_serial("; multiboot2 info at ");
	puthex((uintptr_t)mb2);
	puts_serial(" (");
	putdec(mb2_len);
	puts_serial(" bytes, ");
	putdec(mb2_ntags);
	puts_serial(" tags); fb=");
	puts_serial(fb_names[fb_mode]);
	if (fb_mode != FB_NONE) {
		puts_serial(": framebuffer tag ");
		puthex(fb.addr);
		puts_serial(" ");
		putdec(fb.width);
		puts_serial("x");
		putdec(fb.height);
		puts_serial("x32 pitch ");
		putdec(fb.pitch);
		puts_serial(fb.where);
	}
	puts_serial("\n");
	if (smbios_mode) {
		puts_serial("mbforge: smbios=");
		puts_serial(smbios_names[smbios_mode]);
		puts_serial(": SMBIOS tag with the firmware's entry point");
		puts_serial(smbios_mode == SMBIOS_BAD_CHECKSUM ? ", checksum byte off by one\n" : "\n");
	}
	if (mmap_mode || meminfo_mode || tags_mode) {
		uint64_t xbase, xlen;
		uint32_t xtype;

		puts_serial("mbforge: multiboot2 faults: mmap=");
		puts_serial(mmap_names[mmap_mode]);
		if (mmap_extra(&xbase, &xlen, &xtype)) {
			puts_serial(" (extra type ");
			putdec(xtype);
			puts_serial(" entry ");
			puthex(xbase);
			puts_serial("+");
			puthex(xlen);
			puts_serial(")");
		}
		puts_serial(" meminfo=");
		puts_serial(meminfo_names[meminfo_mode]);
		puts_serial(" tags=");
		puts_serial(tags_names[tags_mode]);
		puts_serial("\n");
	}
	mbforge_enter(kernel_entry, (uint32_t)(uintptr_t)mb2);
}
