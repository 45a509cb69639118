/* Host unit tests for the multiboot information parser (kernel/mbi.c).
 *
 * phys_view() reads the fake physical memory of fake_phys.c: here a few
 * regions at chosen physical addresses (a low-memory block that does not
 * include page 0, a block at 1 MiB like where GRUB and QEMU put the info,
 * and a small block high up whose end is the end of readable memory).
 * Outside them phys_view() returns NULL.  Every view is a fresh heap copy
 * of exactly the bytes asked for, so ASan reports any read past what the
 * parser asked phys_view() for, not just past a region.
 *
 * The structures are built by hand from the Multiboot 0.6.96 and
 * Multiboot2 specifications; the QEMU and GRUB shapes follow what
 * hw/i386/multiboot.c and grub-core/loader/multiboot_mbi2.c produce. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/mbi.h"
#include "lib/physmem.h"
#include "lib/rand.h"
#include "tests/host/fake_phys.h"

/* ------------------------------------------------------ fake memory --- */
#define LOW_BASE	0x1000ull	/* page 0 is not readable */
#define LOW_SIZE	0x9f000u	/* up to 0xa0000 */
#define INFO_BASE	0x100000ull	/* where loaders put the info */
#define INFO_SIZE	0x200000u
#define EDGE_BASE	0x7fff0000ull	/* a small block: its end is a gap */
#define EDGE_SIZE	0x1000u
#define EDGE_END	(EDGE_BASE + EDGE_SIZE)
#define HOLE		0x40000000ull	/* never readable */

static void mem_standard(void)
{
	mem_add(LOW_BASE, LOW_SIZE);
	mem_add(INFO_BASE, INFO_SIZE);
	mem_add(EDGE_BASE, EDGE_SIZE);
}

static int setup(void **state)
{
	(void)state;
	mem_standard();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	mem_reset();
	return 0;
}

static struct boot_info bi;	/* ~16 KiB: static, not on the stack */

/* ------------------------------------------------------- assertions --- */
static bool has_error(const char *needle)
{
	for (unsigned i = 0; i < bi.nerrors && i < MBI_MAX_ERRORS; i++)
		if (strstr(bi.errors[i], needle))
			return true;
	return false;
}

static void dump_errors(void)
{
	for (unsigned i = 0; i < bi.nerrors; i++)
		print_message("  errors[%u] = %s\n", i, bi.errors[i]);
}

#define assert_error(needle)                                                  \
	do {                                                                  \
		if (!has_error(needle)) {                                     \
			dump_errors();                                        \
			fail_msg("no error line contains \"%s\"", needle);    \
		}                                                             \
	} while (0)

#define assert_no_errors()                                                    \
	do {                                                                  \
		if (bi.nerrors) {                                             \
			dump_errors();                                        \
			fail_msg("%u unexpected errors", bi.nerrors);         \
		}                                                             \
	} while (0)

/* What must hold whatever the input was. */
static void check_invariants(void)
{
	assert_true(bi.nerrors <= MBI_MAX_ERRORS);
	for (unsigned i = 0; i < bi.nerrors; i++) {
		size_t n = strnlen(bi.errors[i], MBI_ERROR_LEN);

		assert_true(n > 0 && n < MBI_ERROR_LEN);
		assert_memory_equal(bi.errors[i], "mbi: ", 5);
		for (size_t k = 0; k < n; k++)
			assert_true(bi.errors[i][k] >= 0x20 && bi.errors[i][k] < 0x7f);
	}
	assert_true(strnlen(bi.cmdline, MBI_CMDLINE_MAX) < MBI_CMDLINE_MAX);
	assert_true(strnlen(bi.loader, MBI_LOADER_MAX) < MBI_LOADER_MAX);
	if (!bi.has_cmdline)
		assert_string_equal(bi.cmdline, "");
	if (!bi.has_loader)
		assert_string_equal(bi.loader, "");
	assert_true(bi.nmmap <= MBI_MAX_MMAP);
	for (unsigned i = 0; i < bi.nmmap; i++) {
		assert_true(bi.mmap[i].len > 0);
		assert_true(bi.mmap[i].base + bi.mmap[i].len > bi.mmap[i].base);
	}
	if (bi.has_rsdp) {
		assert_true(bi.rsdp_tag == 14 || bi.rsdp_tag == 15);
		assert_true(bi.rsdp_len >= 20 && bi.rsdp_len <= sizeof(bi.rsdp));
	}
	assert_true(bi.proto >= 0 && bi.proto <= 2);
	if (bi.proto != 2)
		assert_int_equal(bi.info_size, 0);
	char path[64];

	mbi_boot_path(&bi, path, sizeof(path));
	assert_true(strlen(path) > 0);
}

static bool parse(uint32_t magic, uint64_t pa)
{
	memset(&bi, 0x5a, sizeof(bi));	/* the parser must reset everything */
	bool ok = mbi_parse(magic, pa, &bi);

	check_invariants();
	assert_int_equal(bi.magic, magic);
	assert_int_equal(bi.info_phys, pa);
	return ok;
}

static void assert_region(unsigned i, uint64_t base, uint64_t len, uint32_t type)
{
	assert_true(i < bi.nmmap);
	assert_int_equal(bi.mmap[i].base, base);
	assert_int_equal(bi.mmap[i].len, len);
	assert_int_equal(bi.mmap[i].type, type);
}

static const char *boot_path(void)
{
	static char b[128];

	return mbi_boot_path(&bi, b, sizeof(b));
}

/* ---------------------------------------------------- little endian --- */
static void le_put(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put32(uint64_t pa, uint32_t v)
{
	uint8_t b[4];

	le_put(b, v, 4);
	mem_put(pa, b, 4);
}

static void put_str(uint64_t pa, const char *s)
{
	mem_put(pa, s, strlen(s) + 1);
}

/* ------------------------------------------------ multiboot 1 builder --- */
#define MB1_MEM		(1u << 0)
#define MB1_BOOTDEV	(1u << 1)
#define MB1_CMDLINE	(1u << 2)
#define MB1_MODS	(1u << 3)
#define MB1_MMAP	(1u << 6)
#define MB1_LOADER	(1u << 9)
#define MB1_FB		(1u << 12)

struct mb1 {
	uint8_t b[116];		/* the whole 0.6.96 structure, with colour info */
};

static void mb1_init(struct mb1 *m, uint32_t flags)
{
	memset(m, 0, sizeof(*m));
	le_put(m->b, flags, 4);
}

static void mb1_set(struct mb1 *m, unsigned off, uint64_t v, int n)
{
	le_put(m->b + off, v, n);
}

struct e820 {
	uint64_t base, len;
	uint32_t type;
};

/* Write an mb1 memory map (20-byte entries, each with its size word). */
static uint32_t mb1_put_mmap(uint64_t pa, const struct e820 *e, unsigned n, uint32_t esz)
{
	uint8_t ent[64];
	uint32_t off = 0;

	for (unsigned i = 0; i < n; i++) {
		memset(ent, 0, sizeof(ent));
		le_put(ent, esz, 4);
		le_put(ent + 4, e[i].base, 8);
		le_put(ent + 12, e[i].len, 8);
		le_put(ent + 20, e[i].type, 4);
		mem_put(pa + off, ent, 4 + esz);
		off += 4 + esz;
	}
	return off;
}

/* What QEMU's -kernel loader puts in a 128 MiB guest (its e820 table). */
static const struct e820 qemu_e820[] = {
	{ 0x0, 0x9fc00, MMAP_RAM },
	{ 0x9fc00, 0x400, MMAP_RESERVED },
	{ 0xf0000, 0x10000, MMAP_RESERVED },
	{ 0x100000, 0x7ee0000, MMAP_RAM },
	{ 0x7fe0000, 0x20000, MMAP_RESERVED },
	{ 0xfffc0000, 0x40000, MMAP_RESERVED },
};
#define QEMU_NE820 (sizeof(qemu_e820) / sizeof(qemu_e820[0]))

#define MB1_INFO	0x9500ull	/* QEMU puts the info in low memory */
#define MB1_CMD		0x9600ull
#define MB1_NAME	0x9700ull
#define MB1_MAP		0x9800ull

/* The QEMU -kernel shape: mem, bootdev, cmdline, mods (none), mmap,
 * loader name "qemu". */
static void mb1_qemu(struct mb1 *m, const char *cmdline)
{
	mb1_init(m, MB1_MEM | MB1_BOOTDEV | MB1_CMDLINE | MB1_MODS | MB1_MMAP | MB1_LOADER);
	mb1_set(m, 4, 639, 4);
	mb1_set(m, 8, 130048, 4);
	mb1_set(m, 12, 0x8000ffff, 4);
	mb1_set(m, 16, MB1_CMD, 4);
	uint32_t len = mb1_put_mmap(MB1_MAP, qemu_e820, QEMU_NE820, 20);

	mb1_set(m, 44, len, 4);
	mb1_set(m, 48, MB1_MAP, 4);
	mb1_set(m, 64, MB1_NAME, 4);
	put_str(MB1_CMD, cmdline);
	put_str(MB1_NAME, "qemu");
}

static void mb1_install(const struct mb1 *m, uint64_t pa)
{
	mem_put(pa, m->b, sizeof(m->b));
}

static void check_qemu_e820(void)
{
	assert_int_equal(bi.nmmap, QEMU_NE820);
	for (unsigned i = 0; i < QEMU_NE820; i++)
		assert_region(i, qemu_e820[i].base, qemu_e820[i].len, qemu_e820[i].type);
}

/* ------------------------------------------------ multiboot 2 builder --- */
struct blob {
	uint8_t *b;
	size_t len, cap;
};

static void blob_put(struct blob *x, const void *p, size_t n)
{
	if (x->len + n > x->cap) {
		x->cap = (x->len + n) * 2 + 64;
		x->b = realloc(x->b, x->cap);
		assert_non_null(x->b);
	}
	if (p)
		memcpy(x->b + x->len, p, n);
	else
		memset(x->b + x->len, 0, n);
	x->len += n;
}

static void blob_int(struct blob *x, uint64_t v, int n)
{
	uint8_t t[8];

	le_put(t, v, n);
	blob_put(x, t, (size_t)n);
}

static void blob_free(struct blob *x)
{
	free(x->b);
	x->b = NULL;
	x->len = x->cap = 0;
}

static void blob_pad8(struct blob *x)
{
	while (x->len % 8)
		blob_put(x, "", 1);
}

static struct blob mb2_begin(void)
{
	struct blob x = { 0 };

	blob_int(&x, 0, 4);	/* total_size, set by mb2_finish */
	blob_int(&x, 0, 4);	/* reserved */
	return x;
}

/* A tag with a payload of n bytes; size = 8 + n; padded to 8. */
static void mb2_tag(struct blob *x, uint32_t type, const void *payload, size_t n)
{
	blob_int(x, type, 4);
	blob_int(x, 8 + n, 4);
	blob_put(x, payload, n);
	blob_pad8(x);
}

static void mb2_string(struct blob *x, uint32_t type, const char *s)
{
	mb2_tag(x, type, s, strlen(s) + 1);
}

static void mb2_meminfo(struct blob *x, uint32_t lower, uint32_t upper)
{
	uint8_t p[8];

	le_put(p, lower, 4);
	le_put(p + 4, upper, 4);
	mb2_tag(x, 4, p, 8);
}

static void mb2_mmap(struct blob *x, const struct e820 *e, unsigned n, uint32_t esz)
{
	struct blob p = { 0 };

	blob_int(&p, esz, 4);
	blob_int(&p, 0, 4);		/* entry_version */
	for (unsigned i = 0; i < n; i++) {
		uint8_t ent[64] = { 0 };

		le_put(ent, e[i].base, 8);
		le_put(ent + 8, e[i].len, 8);
		le_put(ent + 16, e[i].type, 4);
		blob_put(&p, ent, esz);
	}
	mb2_tag(x, 6, p.b, p.len);
	blob_free(&p);
}

static void mb2_fb(struct blob *x, uint64_t addr, uint32_t pitch, uint32_t w, uint32_t h,
		   uint8_t bpp, uint8_t type)
{
	uint8_t p[24 + 6] = { 0 };	/* common part, then RGB colour info */

	le_put(p, addr, 8);
	le_put(p + 8, pitch, 4);
	le_put(p + 12, w, 4);
	le_put(p + 16, h, 4);
	p[20] = bpp;
	p[21] = type;
	p[24] = 16; p[25] = 8; p[26] = 8; p[27] = 8; p[28] = 0; p[29] = 8;
	mb2_tag(x, 8, p, sizeof(p));
}

static void mb2_u64(struct blob *x, uint32_t type, uint64_t v)
{
	uint8_t p[8];

	le_put(p, v, 8);
	mb2_tag(x, type, p, 8);
}

static void make_rsdp(uint8_t out[36], uint8_t rev, const char *oem)
{
	memset(out, 0, 36);
	memcpy(out, "RSD PTR ", 8);
	memcpy(out + 9, oem, 6);
	out[15] = rev;
	le_put(out + 16, 0x7ffe0000, 4);
	if (rev >= 2) {
		le_put(out + 20, 36, 4);
		le_put(out + 24, 0x7ffe0100, 8);
	}
}

static void mb2_acpi_old(struct blob *x, const char *oem)
{
	uint8_t r[36];

	make_rsdp(r, 0, oem);
	mb2_tag(x, 14, r, 20);
}

static void mb2_acpi_new(struct blob *x, const char *oem)
{
	uint8_t r[36];

	make_rsdp(r, 2, oem);
	mb2_tag(x, 15, r, 36);
}

static void mb2_end(struct blob *x)
{
	mb2_tag(x, 0, NULL, 0);
}

/* Set total_size to the current length. */
static void mb2_finish(struct blob *x)
{
	le_put(x->b, x->len, 4);
}

#define MB2_INFO	0x10b000ull	/* 8-aligned, like GRUB's */

static void mb2_install(const struct blob *x, uint64_t pa)
{
	mem_put(pa, x->b, x->len);
}

/* A GRUB-on-BIOS shape. */
static struct blob mb2_grub_bios(void)
{
	struct blob x = mb2_begin();

	mb2_string(&x, 1, "/boot/ringlab.elf quick");
	mb2_string(&x, 2, "GRUB 2.06");
	mb2_meminfo(&x, 639, 523264);
	mb2_mmap(&x, qemu_e820, QEMU_NE820, 24);
	mb2_fb(&x, 0xfd000000, 4096, 1024, 768, 32, 1);
	mb2_acpi_old(&x, "BOCHS ");
	mb2_end(&x);
	mb2_finish(&x);
	return x;
}

/* ============================================================ tests === */

static void test_mb1_qemu_kernel(void **state)
{
	(void)state;
	struct mb1 m;

	mb1_qemu(&m, "build/ringlab.elf quick");
	mb1_install(&m, MB1_INFO);
	assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
	assert_no_errors();
	assert_int_equal(bi.proto, 1);
	assert_int_equal(bi.info_size, 0);
	assert_true(bi.has_cmdline);
	assert_string_equal(bi.cmdline, "build/ringlab.elf quick");
	assert_true(bi.has_loader);
	assert_string_equal(bi.loader, "qemu");
	assert_true(bi.has_meminfo);
	assert_int_equal(bi.mem_lower_kb, 639);
	assert_int_equal(bi.mem_upper_kb, 130048);
	check_qemu_e820();
	assert_int_equal(bi.nmmap_dropped, 0);
	assert_false(bi.has_fb);
	assert_false(bi.has_rsdp);
	assert_false(mbi_is_uefi(&bi));
	assert_int_equal(bi.ntags, 0);
	assert_string_equal(boot_path(), "QEMU -kernel");

	/* an empty command line is still a command line */
	put_str(MB1_CMD, "");
	assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
	assert_no_errors();
	assert_true(bi.has_cmdline);
	assert_string_equal(bi.cmdline, "");
}

static void test_mb1_other_loaders(void **state)
{
	(void)state;
	struct mb1 m;

	mb1_qemu(&m, "quick");
	mb1_install(&m, MB1_INFO);
	put_str(MB1_NAME, "iPXE");
	assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
	assert_no_errors();
	assert_string_equal(boot_path(), "multiboot1 (iPXE)");
	put_str(MB1_NAME, "GRUB 2.06");		/* GRUB's "multiboot" command */
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_string_equal(boot_path(), "multiboot1 (GRUB 2.06)");
	put_str(MB1_NAME, "qemu-system-x86_64");	/* "qemu" prefix */
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_string_equal(boot_path(), "QEMU -kernel");
	put_str(MB1_NAME, "syslinux mboot.c32");
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_string_equal(boot_path(), "multiboot1 (syslinux mboot.c32)");

	/* no loader name flag */
	mb1_set(&m, 0, MB1_MEM | MB1_CMDLINE | MB1_MMAP, 4);
	mb1_install(&m, MB1_INFO);
	assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
	assert_no_errors();
	assert_false(bi.has_loader);
	assert_string_equal(bi.loader, "");
	assert_string_equal(boot_path(), "multiboot1 (unknown loader)");

	/* the path buffer is bounded */
	char small[8];

	mb1_qemu(&m, "x");
	mb1_install(&m, MB1_INFO);
	put_str(MB1_NAME, "iPXE");
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_ptr_equal(mbi_boot_path(&bi, small, sizeof(small)), small);
	assert_string_equal(small, "multibo");
}

static void test_mb1_framebuffer(void **state)
{
	(void)state;
	struct mb1 m;

	mb1_qemu(&m, "quick");
	mb1_set(&m, 0, MB1_MEM | MB1_CMDLINE | MB1_MMAP | MB1_LOADER | MB1_FB, 4);
	mb1_set(&m, 88, 0xfd000000, 8);
	mb1_set(&m, 96, 4096, 4);
	mb1_set(&m, 100, 1024, 4);
	mb1_set(&m, 104, 768, 4);
	m.b[108] = 32;
	m.b[109] = 1;
	mb1_install(&m, MB1_INFO);
	assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
	assert_no_errors();
	assert_true(bi.has_fb);
	assert_int_equal(bi.fb.addr, 0xfd000000);
	assert_int_equal(bi.fb.pitch, 4096);
	assert_int_equal(bi.fb.width, 1024);
	assert_int_equal(bi.fb.height, 768);
	assert_int_equal(bi.fb.bpp, 32);
	assert_int_equal(bi.fb.type, 1);

	/* the same info flush against the end of readable memory with only
	 * the 72-byte base readable: no framebuffer, the rest still parsed */
	uint64_t pa = EDGE_END - 72;

	mem_put(pa, m.b, 72);
	assert_true(parse(MB1_BOOTLOADER_MAGIC, pa));
	assert_no_errors();
	assert_false(bi.has_fb);
	assert_string_equal(bi.cmdline, "quick");
	check_qemu_e820();
	/* fewer than 72 bytes: unreadable */
	pa = EDGE_END - 71;
	mem_put(pa, m.b, 71);
	assert_false(parse(MB1_BOOTLOADER_MAGIC, pa));
	assert_error("multiboot1 info at 0x7fff0fb9 is not readable");
}

static void test_mb2_grub_bios(void **state)
{
	(void)state;
	struct blob x = mb2_grub_bios();

	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_no_errors();
	assert_int_equal(bi.proto, 2);
	assert_int_equal(bi.info_size, x.len);
	assert_int_equal(bi.ntags, 7);		/* six and the end tag */
	assert_string_equal(bi.cmdline, "/boot/ringlab.elf quick");
	assert_string_equal(bi.loader, "GRUB 2.06");
	assert_true(bi.has_meminfo);
	assert_int_equal(bi.mem_lower_kb, 639);
	assert_int_equal(bi.mem_upper_kb, 523264);
	check_qemu_e820();
	assert_true(bi.has_fb);
	assert_int_equal(bi.fb.addr, 0xfd000000);
	assert_int_equal(bi.fb.pitch, 4096);
	assert_int_equal(bi.fb.width, 1024);
	assert_int_equal(bi.fb.height, 768);
	assert_int_equal(bi.fb.bpp, 32);
	assert_int_equal(bi.fb.type, 1);
	assert_true(bi.has_rsdp);
	assert_int_equal(bi.rsdp_tag, 14);
	assert_int_equal(bi.rsdp_len, 20);
	assert_memory_equal(bi.rsdp, "RSD PTR ", 8);
	assert_memory_equal(bi.rsdp + 9, "BOCHS ", 6);
	assert_false(mbi_is_uefi(&bi));
	assert_false(bi.efi32 || bi.efi64 || bi.efi_image_handle || bi.efi_bs_not_terminated);
	assert_string_equal(boot_path(), "GRUB BIOS");
	blob_free(&x);
}

/* Tag 13 (SMBIOS): major, minor, 6 reserved bytes, then the entry point,
 * copied for arch/x86/smbios.c; a tag too short for an anchor is an
 * error; a second tag is ignored. */
static void test_mb2_smbios_tag(void **state)
{
	(void)state;
	struct blob x = mb2_begin();
	uint8_t body[8 + 24] = { 3, 0 }, body2[8 + 24] = { 2, 8 }, shortb[10] = { 3, 0 };

	memcpy(body + 8, "_SM3_", 5);
	body[8 + 6] = 0x18;
	memcpy(body2 + 8, "_SM_", 4);
	mb2_mmap(&x, qemu_e820, QEMU_NE820, 24);
	mb2_tag(&x, 13, body, sizeof(body));
	mb2_tag(&x, 13, body2, sizeof(body2));
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_no_errors();
	assert_true(bi.has_smbios);
	assert_int_equal(bi.smbios_major, 3);
	assert_int_equal(bi.smbios_len, 24);
	assert_memory_equal(bi.smbios, body + 8, 24);
	blob_free(&x);

	x = mb2_begin();
	mb2_mmap(&x, qemu_e820, QEMU_NE820, 24);
	mb2_tag(&x, 13, shortb, sizeof(shortb));
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_error("mbi: SMBIOS tag too short (18 bytes)");
	assert_false(bi.has_smbios);
	blob_free(&x);
}

static void test_mb2_grub_uefi(void **state)
{
	(void)state;
	struct blob x = mb2_begin();
	uint8_t efi_mmap[8 + 2 * 40] = { 48, 0, 0, 0, 1, 0, 0, 0 };

	mb2_string(&x, 1, "/boot/ringlab.elf");
	mb2_string(&x, 2, "GRUB 2.06");
	mb2_u64(&x, 21, 0x200000);		/* load base address: ignored */
	mb2_mmap(&x, qemu_e820, QEMU_NE820, 24);
	mb2_tag(&x, 17, efi_mmap, sizeof(efi_mmap));	/* EFI memory map: ignored */
	mb2_fb(&x, 0x80000000, 5120, 1280, 800, 32, 1);
	mb2_u64(&x, 12, 0x7f9e018);		/* EFI 64-bit system table */
	mb2_acpi_old(&x, "OVMF  ");
	mb2_acpi_new(&x, "OVMF  ");
	mb2_tag(&x, 18, NULL, 0);		/* boot services not terminated */
	mb2_u64(&x, 20, 0x7e12345);		/* EFI 64-bit image handle */
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_no_errors();
	assert_int_equal(bi.ntags, 12);
	assert_string_equal(bi.cmdline, "/boot/ringlab.elf");
	assert_false(bi.has_meminfo);
	check_qemu_e820();
	assert_true(bi.efi64);
	assert_false(bi.efi32);
	assert_int_equal(bi.efi_systab, 0x7f9e018);
	assert_true(bi.efi_image_handle);
	assert_true(bi.efi_bs_not_terminated);
	assert_true(bi.has_rsdp);
	assert_int_equal(bi.rsdp_tag, 15);
	assert_int_equal(bi.rsdp_len, 36);
	uint8_t want[36];

	make_rsdp(want, 2, "OVMF  ");
	assert_memory_equal(bi.rsdp, want, 36);
	assert_int_equal(bi.fb.width, 1280);
	assert_true(mbi_is_uefi(&bi));
	assert_string_equal(boot_path(), "GRUB UEFI");
	blob_free(&x);

	/* EFI64 tag alone makes it UEFI; so does the image handle alone, or
	 * a 32-bit system table */
	x = mb2_begin();
	mb2_string(&x, 2, "GRUB 2.12");
	mb2_mmap(&x, qemu_e820, 2, 24);
	mb2_u64(&x, 12, 0x1000);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_no_errors();
	assert_string_equal(boot_path(), "GRUB UEFI");
	blob_free(&x);

	x = mb2_begin();
	mb2_string(&x, 2, "GRUB 2.06");
	mb2_mmap(&x, qemu_e820, 2, 24);
	mb2_u64(&x, 20, 0x1000);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_true(bi.efi_image_handle);
	assert_false(bi.efi64);
	assert_string_equal(boot_path(), "GRUB UEFI");
	blob_free(&x);

	x = mb2_begin();
	uint8_t st32[4];

	le_put(st32, 0x7fa000, 4);
	mb2_string(&x, 2, "GRUB 2.06");
	mb2_mmap(&x, qemu_e820, 2, 24);
	mb2_tag(&x, 11, st32, 4);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_true(bi.efi32);
	assert_int_equal(bi.efi_systab, 0x7fa000);
	assert_string_equal(boot_path(), "GRUB UEFI");
	blob_free(&x);
}

static void test_mb2_acpi_order(void **state)
{
	(void)state;
	uint8_t v2[36];

	make_rsdp(v2, 2, "NEWOEM");
	for (int order = 0; order < 2; order++) {
		struct blob x = mb2_begin();

		mb2_mmap(&x, qemu_e820, 2, 24);
		if (order == 0) {
			mb2_acpi_new(&x, "NEWOEM");
			mb2_acpi_old(&x, "OLDOEM");
		} else {
			mb2_acpi_old(&x, "OLDOEM");
			mb2_acpi_new(&x, "NEWOEM");
		}
		mb2_end(&x);
		mb2_finish(&x);
		mb2_install(&x, MB2_INFO);
		assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
		assert_no_errors();
		assert_true(bi.has_rsdp);
		assert_int_equal(bi.rsdp_tag, 15);
		assert_int_equal(bi.rsdp_len, 36);
		assert_memory_equal(bi.rsdp, v2, 36);
		blob_free(&x);
	}
	/* only the old one */
	struct blob x = mb2_begin();

	mb2_mmap(&x, qemu_e820, 2, 24);
	mb2_acpi_old(&x, "OLDOEM");
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_int_equal(bi.rsdp_tag, 14);
	assert_memory_equal(bi.rsdp + 9, "OLDOEM", 6);
	blob_free(&x);

	/* a too-short RSDP tag is an error and does not replace a good one */
	x = mb2_begin();
	mb2_mmap(&x, qemu_e820, 2, 24);
	mb2_acpi_old(&x, "OLDOEM");
	mb2_tag(&x, 15, "RSD PTR ", 8);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_error("ACPI RSDP tag 15 too short (16 bytes)");
	assert_int_equal(bi.rsdp_tag, 14);
	blob_free(&x);

	/* an oversized payload is cut to the rsdp buffer */
	x = mb2_begin();
	uint8_t big[100];

	memset(big, 0xab, sizeof(big));
	mb2_mmap(&x, qemu_e820, 2, 24);
	mb2_tag(&x, 15, big, sizeof(big));
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_no_errors();
	assert_int_equal(bi.rsdp_len, sizeof(bi.rsdp));
	assert_memory_equal(bi.rsdp, big, sizeof(bi.rsdp));
	blob_free(&x);
}

static void test_mb2_other_loaders(void **state)
{
	(void)state;
	struct blob x = mb2_begin();

	mb2_string(&x, 2, "iPXE");
	mb2_mmap(&x, qemu_e820, 2, 24);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_no_errors();
	assert_string_equal(boot_path(), "multiboot2 (iPXE)");
	blob_free(&x);

	/* no loader tag at all */
	x = mb2_begin();
	mb2_mmap(&x, qemu_e820, 2, 24);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_no_errors();
	assert_false(bi.has_loader);
	assert_false(bi.has_cmdline);
	assert_string_equal(boot_path(), "multiboot2 (unknown loader)");
	blob_free(&x);

	/* QEMU's "qemu" name only means QEMU -kernel for multiboot 1 */
	x = mb2_begin();
	mb2_string(&x, 2, "qemu");
	mb2_mmap(&x, qemu_e820, 2, 24);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_string_equal(boot_path(), "multiboot2 (qemu)");
	blob_free(&x);

	/* smallest valid block: header and end tag */
	x = mb2_begin();
	mb2_end(&x);
	mb2_finish(&x);
	assert_int_equal(x.len, 16);
	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_int_equal(bi.ntags, 1);
	assert_int_equal(bi.nerrors, 1);
	assert_error("no memory map and no basic memory information");
	blob_free(&x);
}

static void test_bad_pointer_and_magic(void **state)
{
	(void)state;
	assert_false(parse(MB1_BOOTLOADER_MAGIC, 0));
	assert_int_equal(bi.nerrors, 1);
	assert_error("mbi: boot information pointer is NULL (magic 0x2badb002)");
	assert_false(parse(MB2_BOOTLOADER_MAGIC, 0));
	assert_error("pointer is NULL (magic 0x36d76289)");
	assert_string_equal(boot_path(), "unknown");

	struct blob x = mb2_grub_bios();

	mb2_install(&x, MB2_INFO);
	/* the header magics, a zero, and a bit flip are not loader magics */
	const uint32_t bad[] = { 0x1badb002, 0xe85250d6, 0, 0x2badb003, 0x36d76288,
				 0xffffffff };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_false(parse(bad[i], MB2_INFO));
		assert_int_equal(bi.proto, 0);
		assert_int_equal(bi.nerrors, 1);
		char want[120];

		snprintf(want, sizeof(want),
			 "mbi: unknown boot loader magic 0x%08x (expected 0x2badb002 or 0x36d76289)",
			 bad[i]);
		assert_string_equal(bi.errors[0], want);
		assert_false(bi.has_cmdline);
		assert_int_equal(bi.nmmap, 0);
		assert_string_equal(boot_path(), "unknown");
	}
	/* right magic, wrong structure: mb1 magic on an mb2 block reads the
	 * total_size as flags, and must not crash */
	parse(MB1_BOOTLOADER_MAGIC, MB2_INFO);
	blob_free(&x);
}

static void test_unreadable_info(void **state)
{
	(void)state;
	assert_false(parse(MB1_BOOTLOADER_MAGIC, HOLE));
	assert_error("multiboot1 info at 0x40000000 is not readable");
	assert_false(parse(MB2_BOOTLOADER_MAGIC, HOLE));
	assert_error("multiboot2 info at 0x40000000 is not readable");
	/* near the top of the address space: ranges that wrap */
	assert_false(parse(MB1_BOOTLOADER_MAGIC, 0xfffffffffffffff0ull));
	assert_error("not readable");
	assert_false(parse(MB2_BOOTLOADER_MAGIC, 0xfffffffffffffff8ull));
	assert_error("not readable");
	/* mb2: the header is readable but not all of total_size */
	uint64_t pa = EDGE_END - 64;
	struct blob x = mb2_begin();

	mb2_mmap(&x, qemu_e820, 1, 24);
	mb2_end(&x);
	mb2_finish(&x);
	assert_true(x.len <= 64);
	le_put(x.b, 200, 4);		/* claims 200 bytes: 136 past the end */
	mem_put(pa, x.b, x.len);
	assert_false(parse(MB2_BOOTLOADER_MAGIC, pa));
	assert_error("multiboot2 info (0x7fff0fc0, 200 bytes) is not readable");
	assert_int_equal(bi.nmmap, 0);
	/* the same block fits when total_size is honest */
	le_put(x.b, x.len, 4);
	mem_put(pa, x.b, x.len);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, pa));
	assert_int_equal(bi.nmmap, 1);
	blob_free(&x);
}

static void test_mb2_alignment_and_total_size(void **state)
{
	(void)state;
	struct blob x = mb2_grub_bios();

	for (uint64_t mis = 1; mis < 8; mis++) {
		mb2_install(&x, MB2_INFO + mis);
		assert_false(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO + mis));
		assert_error("is not 8-byte aligned");
		assert_int_equal(bi.nmmap, 0);
	}
	const uint32_t bad_total[] = { 0, 1, 8, 15, MBI_MB2_MAX_SIZE + 1, MBI_MB2_MAX_SIZE + 8,
				       0x80000000u, 0xffffffffu };

	for (size_t i = 0; i < sizeof(bad_total) / sizeof(bad_total[0]); i++) {
		le_put(x.b, bad_total[i], 4);
		mb2_install(&x, MB2_INFO);
		assert_false(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
		char want[80];

		snprintf(want, sizeof(want), "multiboot2 total_size %u is impossible (16..%u)",
			 bad_total[i], MBI_MB2_MAX_SIZE);
		assert_error(want);
		assert_int_equal(bi.info_size, 0);
	}
	/* the largest allowed size is parsed (tags then padding, no end tag
	 * within the block is an error, not a crash) */
	le_put(x.b, MBI_MB2_MAX_SIZE, 4);
	mb2_install(&x, MB2_INFO);
	mem_fill(MB2_INFO + x.len, 0xee, MBI_MB2_MAX_SIZE - x.len);
	le_put(x.b, 16, 4);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_int_equal(bi.info_size, MBI_MB2_MAX_SIZE);
	assert_no_errors();	/* the end tag is there, early */
	/* total_size smaller than the tags: the tags past it are not read */
	uint32_t cut = 8 + 32;	/* header + the cmdline tag */

	le_put(x.b, cut, 4);
	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_string_equal(bi.cmdline, "/boot/ringlab.elf quick");
	assert_false(bi.has_loader);
	assert_error("no end tag within its 40 bytes");
	blob_free(&x);
}

static void test_mb2_bad_tag_sizes(void **state)
{
	(void)state;
	const uint32_t sizes[] = { 0, 1, 4, 7 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct blob x = mb2_begin();

		mb2_string(&x, 1, "quick");
		blob_int(&x, 2, 4);		/* a loader tag with a bad size */
		blob_int(&x, sizes[i], 4);
		blob_put(&x, "GRUB\0\0\0\0", 8);
		mb2_end(&x);
		mb2_finish(&x);
		mb2_install(&x, MB2_INFO);
		assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
		char want[100];

		snprintf(want, sizeof(want),
			 "multiboot2 tag type 2 at offset 24 has bad size %u; rest ignored", sizes[i]);
		assert_error(want);
		assert_error("no end tag");
		assert_string_equal(bi.cmdline, "quick");	/* before it: kept */
		assert_false(bi.has_loader);
		blob_free(&x);
	}
	/* a tag running past total_size */
	struct blob x = mb2_begin();

	mb2_string(&x, 1, "quick");
	blob_int(&x, 6, 4);
	blob_int(&x, 0x1000, 4);
	blob_int(&x, 24, 4);
	blob_int(&x, 0, 4);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_error("multiboot2 tag type 6 at offset 24 has bad size 4096; rest ignored");
	assert_int_equal(bi.nmmap, 0);
	blob_free(&x);
	/* the last tag is exactly at the end, its size padded past it: ok
	 * when the padding is inside total_size; a size of 0xffffffff never */
	x = mb2_begin();
	blob_int(&x, 1, 4);
	blob_int(&x, 0xffffffffu, 4);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_error("bad size 4294967295");
	blob_free(&x);
}

static void test_mb2_end_tag(void **state)
{
	(void)state;
	/* no end tag: the tags fill total_size exactly */
	struct blob x = mb2_begin();

	mb2_string(&x, 1, "quick");
	mb2_mmap(&x, qemu_e820, QEMU_NE820, 24);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	char want[80];

	snprintf(want, sizeof(want), "multiboot2 info has no end tag within its %zu bytes", x.len);
	assert_error(want);
	assert_int_equal(bi.nerrors, 1);
	assert_string_equal(bi.cmdline, "quick");
	check_qemu_e820();		/* what was there is used */
	blob_free(&x);

	/* total_size leaves 4 bytes after the last tag: too few for a tag */
	x = mb2_begin();
	mb2_string(&x, 1, "quick");
	blob_int(&x, 0, 4);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_error("no end tag");
	blob_free(&x);

	/* tags after the end tag are ignored */
	x = mb2_begin();
	mb2_string(&x, 1, "quick");
	mb2_mmap(&x, qemu_e820, 1, 24);
	mb2_end(&x);
	mb2_string(&x, 2, "after the end");
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_no_errors();
	assert_int_equal(bi.ntags, 3);
	assert_false(bi.has_loader);
	blob_free(&x);

	/* an end tag with a larger size is still the end */
	x = mb2_begin();
	mb2_mmap(&x, qemu_e820, 1, 24);
	mb2_tag(&x, 0, "\0\0\0\0\0\0\0\0", 8);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_no_errors();
	blob_free(&x);
}

static void test_mb2_strings(void **state)
{
	(void)state;
	/* cmdline tag without a NUL inside its size */
	struct blob x = mb2_begin();

	mb2_tag(&x, 1, "quick", 5);	/* size 13, no terminator */
	mb2_string(&x, 2, "GRUB 2.06");
	mb2_mmap(&x, qemu_e820, 1, 24);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_error("mbi: command line tag is not NUL-terminated; ignored");
	assert_int_equal(bi.nerrors, 1);
	assert_false(bi.has_cmdline);
	assert_string_equal(bi.cmdline, "");
	assert_string_equal(bi.loader, "GRUB 2.06");	/* next tag still read */
	blob_free(&x);

	/* the same for the loader name, and an empty payload */
	x = mb2_begin();
	mb2_tag(&x, 2, "GRUB", 4);
	mb2_tag(&x, 1, NULL, 0);
	mb2_mmap(&x, qemu_e820, 1, 24);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_error("boot loader name tag is not NUL-terminated; ignored");
	assert_error("command line tag is not NUL-terminated; ignored");
	assert_false(bi.has_loader);
	assert_string_equal(boot_path(), "multiboot2 (unknown loader)");
	blob_free(&x);

	/* longer than the buffers: truncated, and said so */
	static char longcmd[3000], longname[200];

	memset(longcmd, 'c', sizeof(longcmd) - 1);
	memset(longname, 'n', sizeof(longname) - 1);
	x = mb2_begin();
	mb2_string(&x, 1, longcmd);
	mb2_string(&x, 2, longname);
	mb2_mmap(&x, qemu_e820, 1, 24);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_error("mbi: command line longer than 2047 bytes; truncated");
	assert_error("mbi: boot loader name longer than 127 bytes; truncated");
	assert_true(bi.has_cmdline);
	assert_true(bi.cmdline_truncated);	/* the run is a config error */
	assert_int_equal(strlen(bi.cmdline), MBI_CMDLINE_MAX - 1);
	assert_memory_equal(bi.cmdline, longcmd, MBI_CMDLINE_MAX - 1);
	assert_int_equal(strlen(bi.loader), MBI_LOADER_MAX - 1);
	blob_free(&x);

	/* duplicate tags: the last good one wins; a bad one changes nothing */
	x = mb2_begin();
	mb2_string(&x, 1, "first");
	mb2_string(&x, 2, "GRUB 2.06");
	mb2_tag(&x, 1, "bad", 3);
	mb2_tag(&x, 2, "bad", 3);
	mb2_mmap(&x, qemu_e820, 1, 24);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_int_equal(bi.nerrors, 2);
	assert_error("command line tag is not NUL-terminated; ignored");
	assert_true(bi.has_cmdline);
	assert_string_equal(bi.cmdline, "first");
	assert_true(bi.has_loader);
	assert_string_equal(boot_path(), "GRUB BIOS");
	blob_free(&x);
	x = mb2_begin();
	mb2_string(&x, 1, "first");
	mb2_string(&x, 1, "second");
	mb2_mmap(&x, qemu_e820, 1, 24);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_no_errors();
	assert_string_equal(bi.cmdline, "second");
	blob_free(&x);

	/* exactly fitting strings: no error */
	longcmd[MBI_CMDLINE_MAX - 1] = '\0';
	longname[MBI_LOADER_MAX - 1] = '\0';
	x = mb2_begin();
	mb2_string(&x, 1, longcmd);
	mb2_string(&x, 2, longname);
	mb2_mmap(&x, qemu_e820, 1, 24);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_no_errors();
	assert_int_equal(strlen(bi.cmdline), MBI_CMDLINE_MAX - 1);
	assert_int_equal(strlen(bi.loader), MBI_LOADER_MAX - 1);
	blob_free(&x);
}

static void test_mb2_short_tags(void **state)
{
	(void)state;
	struct blob x = mb2_begin();

	mb2_tag(&x, 4, "\1\0\0\0", 4);			/* meminfo: 12 bytes */
	mb2_tag(&x, 6, "\x18\0\0\0", 4);		/* mmap: 12 bytes */
	mb2_tag(&x, 8, "\0\0\0\0\0\0\0\0", 8);	/* framebuffer: 16 bytes */
	mb2_tag(&x, 14, "RSD PTR \0\0\0\0", 12);	/* RSDP: 20 bytes */
	mb2_tag(&x, 12, "\1\2\3\4", 4);		/* EFI64 without a pointer */
	mb2_tag(&x, 11, "\1\2", 2);			/* EFI32 without a pointer */
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_error("basic meminfo tag too short (12 bytes)");
	assert_error("memory map tag too short (12 bytes)");
	assert_error("framebuffer tag too short (16 bytes)");
	assert_error("ACPI RSDP tag 14 too short (20 bytes)");
	assert_error("no memory map and no basic memory information");
	assert_false(bi.has_meminfo || bi.has_fb || bi.has_rsdp || bi.efi64 || bi.efi32);
	assert_int_equal(bi.nmmap, 0);
	assert_false(mbi_is_uefi(&bi));
	blob_free(&x);
}

static void test_mb2_mmap_entry_size(void **state)
{
	(void)state;
	const uint32_t bad[] = { 0, 8, 16, 20, 23, 25, 28, 31, 0xfffffff8u, 0x80000000u };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct blob x = mb2_begin();
		uint8_t p[8 + 48] = { 0 };

		le_put(p, bad[i], 4);
		le_put(p + 8, 0x100000, 8);	/* something entry-like */
		le_put(p + 16, 0x1000000, 8);
		le_put(p + 24, 1, 4);
		mb2_tag(&x, 6, p, sizeof(p));
		mb2_end(&x);
		mb2_finish(&x);
		mb2_install(&x, MB2_INFO);
		assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
		char want[MBI_ERROR_LEN];

		snprintf(want, sizeof(want),
			 "memory map entry_size %u invalid (need >= 24, multiple of 8)", bad[i]);
		if (bad[i] >= 24 && bad[i] % 8 == 0) {
			/* well-formed but larger than the tag: no entries,
			 * and said so (not just "no memory map") */
			snprintf(want, sizeof(want),
				 "mbi: memory map tag has 48 bytes of entries, not a multiple of entry_size %u; the last 48 ignored",
				 bad[i]);
			assert_error(want);
			assert_int_equal(bi.nmmap, 0);
		} else {
			assert_error(want);
			assert_int_equal(bi.nmmap, 0);
		}
		blob_free(&x);
	}
	/* an entry_size larger than the tag (and one that would wrap the
	 * offset): no entry is read past the tag */
	for (int k = 0; k < 2; k++) {
		struct blob x = mb2_begin();
		uint8_t p[8] = { 0 };

		le_put(p, k ? 0xfffffff8u : 32, 4);
		mb2_tag(&x, 6, p, sizeof(p));	/* header only, no entries */
		mb2_end(&x);
		mb2_finish(&x);
		mb2_install(&x, MB2_INFO);
		parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
		assert_int_equal(bi.nmmap, 0);
		assert_error("no memory map and no basic memory information");
		blob_free(&x);
	}
	/* a future, larger entry_size: entries read with that stride */
	struct blob x = mb2_begin();

	mb2_mmap(&x, qemu_e820, QEMU_NE820, 32);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_no_errors();
	check_qemu_e820();
	blob_free(&x);
	/* a partial trailing entry is ignored */
	x = mb2_begin();
	struct blob p = { 0 };

	blob_int(&p, 24, 4);
	blob_int(&p, 0, 4);
	blob_int(&p, 0x100000, 8);
	blob_int(&p, 0x200000, 8);
	blob_int(&p, 1, 4);
	blob_int(&p, 0, 4);
	blob_int(&p, 0x900000, 8);	/* only 16 bytes of a second entry */
	blob_int(&p, 0x100000, 8);
	mb2_tag(&x, 6, p.b, p.len);
	blob_free(&p);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_int_equal(bi.nmmap, 1);
	assert_region(0, 0x100000, 0x200000, 1);
	assert_error("mbi: memory map tag has 40 bytes of entries, not a multiple of entry_size 24; the last 16 ignored");
	assert_int_equal(bi.nerrors, 1);
	blob_free(&x);
	/* GRUB's shape, 24-byte entries, with an entry_size of 4096 (as
	 * tests/qemu/mbforge mmap=esize-big forges it): the map is named
	 * bad before the basic-meminfo fallback says there is none */
	x = mb2_begin();
	mb2_meminfo(&x, 639, 1047552);
	mb2_mmap(&x, qemu_e820, QEMU_NE820, 24);
	le_put(x.b + x.len - (8 + 24 * QEMU_NE820), 4096, 4);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_int_equal(bi.nerrors, 2);
	char want[MBI_ERROR_LEN];

	snprintf(want, sizeof(want),
		 "mbi: memory map tag has %u bytes of entries, not a multiple of entry_size 4096; the last %u ignored",
		 (unsigned)(24 * QEMU_NE820), (unsigned)(24 * QEMU_NE820));
	assert_string_equal(bi.errors[0], want);
	assert_string_equal(bi.errors[1], "mbi: no memory map; using mem_lower/mem_upper (639 KiB, 1047552 KiB)");
	assert_int_equal(bi.nmmap, 2);
	blob_free(&x);
}

static void test_mmap_wrapping_and_empty_entries(void **state)
{
	(void)state;
	const struct e820 e[] = {
		{ 0x0, 0x9fc00, MMAP_RAM },
		{ 0xffffffff00000000ull, 0x200000000ull, MMAP_RAM },	/* wraps */
		{ 0x100000, 0, MMAP_RAM },				/* empty: skipped */
		{ 0x100000, 0x1000000, MMAP_RAM },
		{ 0x1, UINT64_MAX, MMAP_RESERVED },			/* wraps */
		{ 0xfffffffffffff000ull, 0x1000, MMAP_RESERVED },	/* ends at 2^64 */
		{ 0xfee00000, 0x1000, MMAP_BAD },
	};
	struct blob x = mb2_begin();

	mb2_mmap(&x, e, 7, 24);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_error("memory map entry base=0xffffffff00000000 len=0x200000000 wraps; dropped");
	assert_error("memory map entry base=0x1 len=0xffffffffffffffff wraps; dropped");
	/* ending exactly at 2^64 is not representable as base + len */
	assert_error("base=0xfffffffffffff000 len=0x1000 wraps; dropped");
	assert_int_equal(bi.nmmap, 3);
	assert_region(0, 0, 0x9fc00, MMAP_RAM);
	assert_region(1, 0x100000, 0x1000000, MMAP_RAM);
	assert_region(bi.nmmap - 1, 0xfee00000, 0x1000, MMAP_BAD);
	blob_free(&x);

	/* the same through multiboot 1 */
	struct mb1 m;

	mb1_init(&m, MB1_MMAP);
	uint32_t len = mb1_put_mmap(MB1_MAP, e, 7, 20);

	mb1_set(&m, 44, len, 4);
	mb1_set(&m, 48, MB1_MAP, 4);
	mb1_install(&m, MB1_INFO);
	assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
	assert_error("base=0xffffffff00000000 len=0x200000000 wraps; dropped");
	assert_region(0, 0, 0x9fc00, MMAP_RAM);
	assert_region(1, 0x100000, 0x1000000, MMAP_RAM);
}

static void test_mmap_too_many_entries(void **state)
{
	(void)state;
	static struct e820 e[300];

	for (unsigned i = 0; i < 300; i++)
		e[i] = (struct e820){ 0x100000ull * (i + 1), 0x1000, i % 2 ? MMAP_RAM : MMAP_RESERVED };
	struct blob x = mb2_begin();

	mb2_mmap(&x, e, 300, 24);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_int_equal(bi.nmmap, MBI_MAX_MMAP);
	assert_int_equal(bi.nmmap_dropped, 300 - MBI_MAX_MMAP);
	assert_error("mbi: memory map has more than 256 entries; 44 dropped");
	assert_int_equal(bi.nerrors, 1);
	for (unsigned i = 0; i < MBI_MAX_MMAP; i++)
		assert_region(i, e[i].base, e[i].len, e[i].type);
	blob_free(&x);

	/* exactly the maximum: fine */
	x = mb2_begin();
	mb2_mmap(&x, e, MBI_MAX_MMAP, 24);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_no_errors();
	assert_int_equal(bi.nmmap, MBI_MAX_MMAP);
	blob_free(&x);

	/* multiboot 1 */
	struct mb1 m;

	mb1_init(&m, MB1_MMAP);
	uint32_t len = mb1_put_mmap(INFO_BASE + 0x10000, e, 300, 20);

	mb1_set(&m, 44, len, 4);
	mb1_set(&m, 48, INFO_BASE + 0x10000, 4);
	mb1_install(&m, MB1_INFO);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_int_equal(bi.nmmap, MBI_MAX_MMAP);
	assert_error("more than 256 entries; 44 dropped");
}

static void test_mb1_cmdline_pointer(void **state)
{
	(void)state;
	struct mb1 m;

	/* NULL pointer */
	mb1_qemu(&m, "quick");
	mb1_set(&m, 16, 0, 4);
	mb1_install(&m, MB1_INFO);
	assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
	assert_error("mbi: command line pointer is NULL");
	assert_int_equal(bi.nerrors, 1);
	assert_false(bi.has_cmdline);
	assert_string_equal(bi.loader, "qemu");		/* the rest is parsed */
	check_qemu_e820();

	/* unreadable */
	mb1_set(&m, 16, HOLE, 4);
	mb1_install(&m, MB1_INFO);
	assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
	assert_error("mbi: command line at 0x40000000 is not readable");
	assert_false(bi.has_cmdline);
	assert_string_equal(bi.cmdline, "");

	/* starts readable, runs into unreadable memory before its NUL */
	uint64_t pa = EDGE_END - 10;

	mem_put(pa, "0123456789", 10);
	mb1_set(&m, 16, pa, 4);
	mb1_install(&m, MB1_INFO);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_error("mbi: command line at 0x7fff0ff6 is not readable");
	assert_false(bi.has_cmdline);
	assert_string_equal(bi.cmdline, "");
	/* ... and a short string right at the end is fine */
	mem_put(pa, "012345678", 10);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_no_errors();
	assert_string_equal(bi.cmdline, "012345678");

	/* unterminated and long: cut at the buffer, reported */
	mem_fill(INFO_BASE, 'x', 0x10000);
	mb1_set(&m, 16, INFO_BASE, 4);
	mb1_install(&m, MB1_INFO);
	unsigned long long before = view_calls;

	assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
	assert_error("mbi: command line longer than 2047 bytes; truncated");
	assert_true(bi.has_cmdline);
	assert_true(bi.cmdline_truncated);
	assert_int_equal(strlen(bi.cmdline), MBI_CMDLINE_MAX - 1);
	assert_true(view_calls - before < 2 * MBI_CMDLINE_MAX + 64);	/* bounded */
	/* exactly 2047 characters: no error */
	mem_fill(INFO_BASE + MBI_CMDLINE_MAX - 1, 0, 1);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_no_errors();
	assert_false(bi.cmdline_truncated);
	assert_int_equal(strlen(bi.cmdline), MBI_CMDLINE_MAX - 1);
	/* 2048: truncated */
	mem_fill(INFO_BASE + MBI_CMDLINE_MAX - 1, 'x', 1);
	mem_fill(INFO_BASE + MBI_CMDLINE_MAX, 0, 1);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_error("command line longer than 2047 bytes; truncated");
}

static void test_mb1_loader_name(void **state)
{
	(void)state;
	struct mb1 m;
	char name[300];

	mb1_qemu(&m, "quick");
	mb1_install(&m, MB1_INFO);
	memset(name, 'L', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	put_str(MB1_NAME, name);
	assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
	assert_error("mbi: boot loader name longer than 127 bytes; truncated");
	assert_true(bi.has_loader);
	assert_int_equal(strlen(bi.loader), MBI_LOADER_MAX - 1);
	/* the boot path is cut to its buffer too */
	const char *bp = boot_path();

	assert_int_equal(strlen(bp), 127);
	assert_memory_equal(bp, "multiboot1 (LLLL", 16);
	assert_int_equal(strspn(bp + 12, "L"), 127 - 12);
	/* NULL and unreadable loader name pointers */
	mb1_set(&m, 64, 0, 4);
	mb1_install(&m, MB1_INFO);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_error("mbi: boot loader name pointer is NULL");
	assert_false(bi.has_loader);
	assert_string_equal(boot_path(), "multiboot1 (unknown loader)");
	mb1_set(&m, 64, 0xffffffff, 4);
	mb1_install(&m, MB1_INFO);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_error("mbi: boot loader name at 0xffffffff is not readable");
	assert_false(bi.has_loader);
}

static void test_mb1_mmap_bad(void **state)
{
	(void)state;
	struct mb1 m;

	/* entry sizes: too small, and running past mmap_length */
	const uint32_t bad[] = { 0, 4, 19, 100, 0xfffffffcu, 0xfffffffdu, 0xffffffffu };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		mb1_qemu(&m, "quick");
		uint32_t len = mb1_put_mmap(MB1_MAP, qemu_e820, 3, 20);

		put32(MB1_MAP + 24, bad[i]);	/* the second entry's size */
		mb1_set(&m, 44, len, 4);
		mb1_install(&m, MB1_INFO);
		assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
		char want[120];

		snprintf(want, sizeof(want),
			 "multiboot1 memory map entry at offset 24 has bad size %u; rest ignored",
			 bad[i]);
		assert_error(want);
		assert_int_equal(bi.nmmap, 1);	/* the first entry is kept */
		assert_region(0, qemu_e820[0].base, qemu_e820[0].len, qemu_e820[0].type);
	}
	/* mmap_length not a multiple of the entry: the tail is an error */
	mb1_qemu(&m, "quick");
	mb1_set(&m, 44, 24 * 2 + 10, 4);
	mb1_install(&m, MB1_INFO);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_error("multiboot1 memory map entry at offset 48 has bad size 20");
	assert_int_equal(bi.nmmap, 2);
	/* fewer than 4 bytes left: silently the end */
	mb1_set(&m, 44, 24 * 2 + 3, 4);
	mb1_install(&m, MB1_INFO);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_no_errors();
	assert_int_equal(bi.nmmap, 2);
	/* a larger entry size (the size word allows it) */
	uint32_t len = mb1_put_mmap(MB1_MAP, qemu_e820, QEMU_NE820, 28);

	mb1_set(&m, 44, len, 4);
	mb1_install(&m, MB1_INFO);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_no_errors();
	check_qemu_e820();

	/* the map itself unreadable, or absurdly long */
	mb1_qemu(&m, "quick");
	mb1_set(&m, 48, HOLE, 4);
	mb1_install(&m, MB1_INFO);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_error("multiboot1 memory map (0x40000000, 144 bytes) is not readable or too large");
	/* no map: falls back to mem_lower/mem_upper */
	assert_error("no memory map; using mem_lower/mem_upper (639 KiB, 130048 KiB)");
	assert_int_equal(bi.nmmap, 2);
	mb1_qemu(&m, "quick");
	mb1_set(&m, 44, 0x100000, 4);
	mb1_install(&m, MB1_INFO);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_error("(0x9800, 1048576 bytes) is not readable or too large");
	mb1_set(&m, 44, 0xffffffff, 4);
	mb1_install(&m, MB1_INFO);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_error("4294967295 bytes) is not readable or too large");
	/* the map runs past readable memory */
	mb1_qemu(&m, "quick");
	mb1_put_mmap(EDGE_END - 48, qemu_e820, 2, 20);
	mb1_set(&m, 44, 72, 4);
	mb1_set(&m, 48, EDGE_END - 48, 4);
	mb1_install(&m, MB1_INFO);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_error("is not readable or too large");
	/* an empty map: no entries */
	mb1_set(&m, 44, 0, 4);
	mb1_install(&m, MB1_INFO);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_error("no memory map; using mem_lower/mem_upper");
}

static void test_meminfo_fallback(void **state)
{
	(void)state;
	struct mb1 m;

	mb1_init(&m, MB1_MEM);
	mb1_set(&m, 4, 639, 4);
	mb1_set(&m, 8, 523264, 4);
	mb1_install(&m, MB1_INFO);
	assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
	assert_int_equal(bi.nerrors, 1);
	assert_error("mbi: no memory map; using mem_lower/mem_upper (639 KiB, 523264 KiB)");
	assert_int_equal(bi.nmmap, 2);
	assert_region(0, 0, 639 * 1024, MMAP_RAM);
	assert_region(1, 0x100000, 523264ull * 1024, MMAP_RAM);
	assert_false(bi.has_cmdline);
	assert_false(bi.has_loader);

	/* mem_upper in KiB can exceed 4 GiB in bytes */
	mb1_set(&m, 8, 0xffffffff, 4);
	mb1_set(&m, 4, 0, 4);
	mb1_install(&m, MB1_INFO);
	parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
	assert_int_equal(bi.nmmap, 1);		/* the empty low range is skipped */
	assert_region(0, 0x100000, 0xffffffffull * 1024, MMAP_RAM);

	/* neither */
	mb1_init(&m, 0);
	mb1_install(&m, MB1_INFO);
	assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
	assert_int_equal(bi.nerrors, 1);
	assert_error("mbi: no memory map and no basic memory information");
	assert_int_equal(bi.nmmap, 0);

	/* multiboot 2: meminfo tag without a map */
	struct blob x = mb2_begin();

	mb2_string(&x, 2, "GRUB 2.06");
	mb2_meminfo(&x, 640, 1024);
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	parse(MB2_BOOTLOADER_MAGIC, MB2_INFO);
	assert_error("no memory map; using mem_lower/mem_upper (640 KiB, 1024 KiB)");
	assert_region(0, 0, 640 * 1024, MMAP_RAM);
	assert_region(1, 0x100000, 1024 * 1024, MMAP_RAM);
	blob_free(&x);
}

static void test_error_cap(void **state)
{
	(void)state;
	struct blob x = mb2_begin();

	for (int i = 0; i < 30; i++)
		mb2_tag(&x, 4, "\1\0\0\0", 4);	/* each a "too short" error */
	mb2_end(&x);
	mb2_finish(&x);
	mb2_install(&x, MB2_INFO);
	assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
	assert_int_equal(bi.nerrors, MBI_MAX_ERRORS);
	assert_int_equal(bi.ntags, 31);
	for (unsigned i = 0; i < MBI_MAX_ERRORS; i++)
		assert_non_null(strstr(bi.errors[i], "basic meminfo tag too short"));
	blob_free(&x);
}

/* Random corruption of valid structures: never a crash, a hang or an
 * over-read (ASan), and the invariants hold. */
static void test_fuzz(void **state)
{
	(void)state;
	struct rng r;
	struct blob good = mb2_grub_bios();
	struct mb1 m;

	rng_seed(&r, 0x3b1);
	for (int t = 0; t < 4000; t++) {
		struct blob x = { 0 };

		blob_put(&x, good.b, good.len);
		unsigned flips = 1 + (unsigned)rng_below(&r, 8);

		for (unsigned k = 0; k < flips; k++) {
			size_t at = rng_below(&r, x.len);

			if (rng_below(&r, 2))
				x.b[at] ^= (uint8_t)(1u << rng_below(&r, 8));
			else
				x.b[at] = (uint8_t)rng_next(&r);
		}
		/* often keep total_size sane so the tags get walked */
		if (rng_below(&r, 4))
			le_put(x.b, rng_below(&r, 3) ? x.len : 16 + rng_below(&r, x.len), 4);
		/* place it flush against the end of readable memory */
		uint64_t pa = (EDGE_END - x.len) & ~7ull;

		mem_fill(EDGE_BASE, 0, EDGE_SIZE);
		mem_put(pa, x.b, x.len);
		parse(MB2_BOOTLOADER_MAGIC, pa);
		mem_views_free();
		blob_free(&x);

		/* multiboot 1: random flags and pointers, mostly into memory */
		mb1_qemu(&m, "build/ringlab.elf quick");
		for (unsigned k = 0; k < flips; k++) {
			size_t at = rng_below(&r, 72);

			m.b[at] ^= (uint8_t)(1u << rng_below(&r, 8));
		}
		if (rng_below(&r, 3) == 0)
			mb1_set(&m, 16, EDGE_END - rng_below(&r, 16), 4);
		mb1_install(&m, MB1_INFO);
		parse(MB1_BOOTLOADER_MAGIC, MB1_INFO);
		mem_views_free();
	}
	blob_free(&good);
}

/* The RGB colour info of a framebuffer (multiboot2 tag 8 type 1: six bytes
 * at body offset 24; multiboot1 flags bit 12 type 1: offsets 110..115),
 * copied as given (kernel/fbcon.c judges the values), and a type 1
 * framebuffer too short to hold it: one error, the framebuffer kept
 * without colour info (drawn in gray). */
static void mb2_fb_rgb(struct blob *x, unsigned body_len, uint8_t type, const uint8_t rgb[6])
{
	uint8_t p[32] = { 0 };

	le_put(p, 0xfd000000, 8);
	le_put(p + 8, 2048, 4);
	le_put(p + 12, 1024, 4);
	le_put(p + 16, 768, 4);
	p[20] = 16;
	p[21] = type;
	memcpy(p + 24, rgb, 6);
	mb2_tag(x, 8, p, body_len);
}

static void test_fb_colour_info(void **state)
{
	static const uint8_t bgr565[6] = { 0, 5, 5, 6, 11, 5 };	/* red at bit 0 */
	static const uint8_t odd[6] = { 250, 200, 0, 0, 31, 1 };	/* copied, not judged */
	(void)state;

	for (int k = 0; k < 2; k++) {
		struct blob x = mb2_begin();
		const uint8_t *c = k ? odd : bgr565;

		mb2_mmap(&x, qemu_e820, QEMU_NE820, 24);
		mb2_fb_rgb(&x, 30, 1, c);
		mb2_end(&x);
		mb2_finish(&x);
		mb2_install(&x, MB2_INFO);
		assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
		assert_no_errors();
		assert_true(bi.has_fb && bi.fb.has_rgb);
		assert_int_equal(bi.fb.bpp, 16);
		assert_int_equal(bi.fb.red_pos, c[0]);
		assert_int_equal(bi.fb.red_size, c[1]);
		assert_int_equal(bi.fb.green_pos, c[2]);
		assert_int_equal(bi.fb.green_size, c[3]);
		assert_int_equal(bi.fb.blue_pos, c[4]);
		assert_int_equal(bi.fb.blue_size, c[5]);
		blob_free(&x);
	}
	/* type 1 with 22..29 body bytes: framebuffer kept, no colour info */
	for (unsigned len = 22; len < 30; len++) {
		struct blob x = mb2_begin();

		mb2_mmap(&x, qemu_e820, QEMU_NE820, 24);
		mb2_fb_rgb(&x, len, 1, bgr565);
		mb2_end(&x);
		mb2_finish(&x);
		mb2_install(&x, MB2_INFO);
		assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
		assert_int_equal(bi.nerrors, 1);
		assert_error("mbi: framebuffer tag of type 1 (RGB) too short for its colour info");
		assert_true(bi.has_fb);
		assert_false(bi.fb.has_rgb);
		assert_int_equal(bi.fb.width, 1024);
		blob_free(&x);
	}
	/* types 0 (indexed) and 2 (EGA text) have no RGB info to want */
	for (uint8_t type = 0; type <= 2; type += 2) {
		struct blob x = mb2_begin();

		mb2_mmap(&x, qemu_e820, QEMU_NE820, 24);
		mb2_fb_rgb(&x, 22, type, bgr565);
		mb2_end(&x);
		mb2_finish(&x);
		mb2_install(&x, MB2_INFO);
		assert_true(parse(MB2_BOOTLOADER_MAGIC, MB2_INFO));
		assert_no_errors();
		assert_true(bi.has_fb);
		assert_false(bi.fb.has_rgb);
		blob_free(&x);
	}

	/* multiboot 1: colour info at 110..115 */
	struct mb1 m;

	mb1_qemu(&m, "quick");
	mb1_set(&m, 0, MB1_MEM | MB1_CMDLINE | MB1_MMAP | MB1_LOADER | MB1_FB, 4);
	mb1_set(&m, 88, 0xfd000000, 8);
	mb1_set(&m, 96, 2048, 4);
	mb1_set(&m, 100, 1024, 4);
	mb1_set(&m, 104, 768, 4);
	m.b[108] = 16;
	m.b[109] = 1;
	memcpy(m.b + 110, bgr565, 6);
	mb1_install(&m, MB1_INFO);
	assert_true(parse(MB1_BOOTLOADER_MAGIC, MB1_INFO));
	assert_no_errors();
	assert_true(bi.has_fb && bi.fb.has_rgb);
	assert_int_equal(bi.fb.red_pos, 0);
	assert_int_equal(bi.fb.red_size, 5);
	assert_int_equal(bi.fb.green_pos, 5);
	assert_int_equal(bi.fb.green_size, 6);
	assert_int_equal(bi.fb.blue_pos, 11);
	assert_int_equal(bi.fb.blue_size, 5);
	/* the info ends 110..115 bytes before unreadable memory: the
	 * framebuffer without its colour info, one error */
	for (unsigned n = 110; n < 116; n++) {
		uint64_t pa = EDGE_END - n;

		mem_put(pa, m.b, n);
		assert_true(parse(MB1_BOOTLOADER_MAGIC, pa));
		assert_int_equal(bi.nerrors, 1);
		assert_error("multiboot1 framebuffer colour info at");
		assert_true(bi.has_fb);
		assert_false(bi.fb.has_rgb);
		assert_int_equal(bi.fb.width, 1024);
		assert_string_equal(bi.cmdline, "quick");
	}
	/* indexed (type 0) at the same edge: no colour info wanted, no error */
	m.b[109] = 0;
	mem_put(EDGE_END - 110, m.b, 110);
	assert_true(parse(MB1_BOOTLOADER_MAGIC, EDGE_END - 110));
	assert_no_errors();
	assert_true(bi.has_fb);
	assert_false(bi.fb.has_rgb);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	/* A length check that wraps can turn a map walk into an endless loop
	 * (it did for the multiboot 1 map): fail fast instead of hanging. */
	alarm(120);

	const struct CMUnitTest tests[] = {
		T(test_mb1_qemu_kernel),
		T(test_mb1_other_loaders),
		T(test_mb1_framebuffer),
		T(test_fb_colour_info),
		T(test_mb2_grub_bios),
		T(test_mb2_grub_uefi),
		T(test_mb2_smbios_tag),
		T(test_mb2_acpi_order),
		T(test_mb2_other_loaders),
		T(test_bad_pointer_and_magic),
		T(test_unreadable_info),
		T(test_mb2_alignment_and_total_size),
		T(test_mb2_bad_tag_sizes),
		T(test_mb2_end_tag),
		T(test_mb2_strings),
		T(test_mb2_short_tags),
		T(test_mb2_mmap_entry_size),
		T(test_mmap_wrapping_and_empty_entries),
		T(test_mmap_too_many_entries),
		T(test_mb1_cmdline_pointer),
		T(test_mb1_loader_name),
		T(test_mb1_mmap_bad),
		T(test_meminfo_fallback),
		T(test_error_cap),
		T(test_fuzz),
	};

	return cmocka_run_group_tests_name("mbi", tests, NULL, NULL);
}
