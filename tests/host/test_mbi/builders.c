/* SPDX-License-Identifier: GPL-2.0-only */
/* Multiboot parser host tests: fake memory, assertions and the multiboot 1
 * and multiboot 2 structure builders. */
#include "tests/host/test_mbi/mbi_test.h"

void mem_standard(void)
{
	mem_add(LOW_BASE, LOW_SIZE);
	mem_add(INFO_BASE, INFO_SIZE);
	mem_add(EDGE_BASE, EDGE_SIZE);
}

struct boot_info bi;	/* ~16 KiB: a global, not on the stack */

/* ------------------------------------------------------- assertions --- */
bool has_error(const char *needle)
{
	for (unsigned i = 0; i < bi.nerrors && i < MBI_MAX_ERRORS; i++)
		if (strstr(bi.errors[i], needle))
			return true;
	return false;
}

void dump_errors(void)
{
	for (unsigned i = 0; i < bi.nerrors; i++)
		print_message("  errors[%u] = %s\n", i, bi.errors[i]);
}

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

bool parse(uint32_t magic, uint64_t pa)
{
	memset(&bi, 0x5a, sizeof(bi));	/* the parser must reset everything */
	bool ok = mbi_parse(magic, pa, &bi);

	check_invariants();
	assert_int_equal(bi.magic, magic);
	assert_int_equal(bi.info_phys, pa);
	return ok;
}

void assert_region(unsigned i, uint64_t base, uint64_t len, uint32_t type)
{
	assert_true(i < bi.nmmap);
	assert_int_equal(bi.mmap[i].base, base);
	assert_int_equal(bi.mmap[i].len, len);
	assert_int_equal(bi.mmap[i].type, type);
}

const char *boot_path(void)
{
	static char b[128];

	return mbi_boot_path(&bi, b, sizeof(b));
}

/* ---------------------------------------------------- little endian --- */
void le_put(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

void put32(uint64_t pa, uint32_t v)
{
	uint8_t b[4];

	le_put(b, v, 4);
	mem_put(pa, b, 4);
}

void put_str(uint64_t pa, const char *s)
{
	mem_put(pa, s, strlen(s) + 1);
}

void mb1_init(struct mb1 *m, uint32_t flags)
{
	memset(m, 0, sizeof(*m));
	le_put(m->b, flags, 4);
}

void mb1_set(struct mb1 *m, unsigned off, uint64_t v, int n)
{
	le_put(m->b + off, v, n);
}

/* Write an mb1 memory map (20-byte entries, each with its size word). */
uint32_t mb1_put_mmap(uint64_t pa, const struct e820 *e, unsigned n, uint32_t esz)
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
const struct e820 qemu_e820[] = {
	{ 0x0, 0x9fc00, MMAP_RAM },
	{ 0x9fc00, 0x400, MMAP_RESERVED },
	{ 0xf0000, 0x10000, MMAP_RESERVED },
	{ 0x100000, 0x7ee0000, MMAP_RAM },
	{ 0x7fe0000, 0x20000, MMAP_RESERVED },
	{ 0xfffc0000, 0x40000, MMAP_RESERVED },
};
const size_t qemu_ne820 = sizeof(qemu_e820) / sizeof(qemu_e820[0]);

/* The QEMU -kernel shape: mem, bootdev, cmdline, mods (none), mmap,
 * loader name "qemu". */
void mb1_qemu(struct mb1 *m, const char *cmdline)
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

void mb1_install(const struct mb1 *m, uint64_t pa)
{
	mem_put(pa, m->b, sizeof(m->b));
}

void check_qemu_e820(void)
{
	assert_int_equal(bi.nmmap, QEMU_NE820);
	for (unsigned i = 0; i < QEMU_NE820; i++)
		assert_region(i, qemu_e820[i].base, qemu_e820[i].len, qemu_e820[i].type);
}

void blob_put(struct blob *x, const void *p, size_t n)
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

void blob_int(struct blob *x, uint64_t v, int n)
{
	uint8_t t[8];

	le_put(t, v, n);
	blob_put(x, t, (size_t)n);
}

void blob_free(struct blob *x)
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

struct blob mb2_begin(void)
{
	struct blob x = { 0 };

	blob_int(&x, 0, 4);	/* total_size, set by mb2_finish */
	blob_int(&x, 0, 4);	/* reserved */
	return x;
}

/* A tag with a payload of n bytes; size = 8 + n; padded to 8. */
void mb2_tag(struct blob *x, uint32_t type, const void *payload, size_t n)
{
	blob_int(x, type, 4);
	blob_int(x, 8 + n, 4);
	blob_put(x, payload, n);
	blob_pad8(x);
}

void mb2_string(struct blob *x, uint32_t type, const char *s)
{
	mb2_tag(x, type, s, strlen(s) + 1);
}

void mb2_meminfo(struct blob *x, uint32_t lower, uint32_t upper)
{
	uint8_t p[8];

	le_put(p, lower, 4);
	le_put(p + 4, upper, 4);
	mb2_tag(x, 4, p, 8);
}

void mb2_mmap(struct blob *x, const struct e820 *e, unsigned n, uint32_t esz)
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

void mb2_fb(struct blob *x, uint64_t addr, uint32_t pitch, uint32_t w, uint32_t h,
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

void mb2_u64(struct blob *x, uint32_t type, uint64_t v)
{
	uint8_t p[8];

	le_put(p, v, 8);
	mb2_tag(x, type, p, 8);
}

void make_rsdp(uint8_t out[36], uint8_t rev, const char *oem)
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

void mb2_acpi_old(struct blob *x, const char *oem)
{
	uint8_t r[36];

	make_rsdp(r, 0, oem);
	mb2_tag(x, 14, r, 20);
}

void mb2_acpi_new(struct blob *x, const char *oem)
{
	uint8_t r[36];

	make_rsdp(r, 2, oem);
	mb2_tag(x, 15, r, 36);
}

void mb2_end(struct blob *x)
{
	mb2_tag(x, 0, NULL, 0);
}

/* Set total_size to the current length. */
void mb2_finish(struct blob *x)
{
	le_put(x->b, x->len, 4);
}

void mb2_install(const struct blob *x, uint64_t pa)
{
	mem_put(pa, x->b, x->len);
}

/* A GRUB-on-BIOS shape. */
struct blob mb2_grub_bios(void)
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
