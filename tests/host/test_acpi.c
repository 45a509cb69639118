/* Host unit tests for arch/x86/acpi.c.
 *
 * phys_view() reads the fake physical memory of fake_phys.c: here a few
 * regions (low 1 MiB, a block at 0x7ffe0000 like a 2 GiB QEMU guest's
 * ACPI area, one above 4 GiB), each its own heap block.  Every view is a
 * fresh heap copy of exactly the bytes asked for, so ASan reports any read
 * past what the parser asked phys_view() for, not just past a region.
 *
 * Run from the repository root: the real-table fixtures are read from
 * tests/host/data/acpi/ (see the README there). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/x86/acpi.h"
#include "lib/physmem.h"
#include "lib/rand.h"
#include "tests/host/fake_phys.h"

/* ------------------------------------------------------ fake memory --- */
#define LOW_BASE	0x0ull
#define LOW_SIZE	0x100000u
#define HI_BASE		0x7ffe0000ull	/* where QEMU puts tables in a 2 GiB guest */
#define HI_SIZE		0x20000u
#define TOP_BASE	0x100000000ull	/* above 4 GiB: reachable only via the XSDT */
#define TOP_SIZE	0x40000u

static void mem_standard(void)
{
	mem_add(LOW_BASE, LOW_SIZE);
	mem_add(HI_BASE, HI_SIZE);
	mem_add(TOP_BASE, TOP_SIZE);
}

static int teardown(void **state)
{
	(void)state;
	mem_reset();
	return 0;
}

static struct acpi_info ai;	/* ~140 KiB: static, not on the stack */

/* --------------------------------------------------- table builders --- */
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
	memcpy(x->b + x->len, p, n);
	x->len += n;
}

static void le_put(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void blob_int(struct blob *x, uint64_t v, int n)
{
	uint8_t tmp[8];

	le_put(tmp, v, n);
	blob_put(x, tmp, (size_t)n);
}

static void blob_free(struct blob *x)
{
	free(x->b);
	x->b = NULL;
	x->len = x->cap = 0;
}

static uint8_t sum(const uint8_t *p, size_t n)
{
	uint8_t s = 0;

	while (n--)
		s = (uint8_t)(s + *p++);
	return s;
}

static struct blob sdt_begin(const char *sig, uint8_t rev)
{
	struct blob x = { 0 };
	uint8_t h[36] = { 0 };

	memcpy(h, sig, 4);
	h[8] = rev;
	memcpy(h + 10, "RLTEST", 6);
	memcpy(h + 16, "RINGLAB ", 8);
	le_put(h + 24, 1, 4);
	memcpy(h + 28, "RLAB", 4);
	le_put(h + 32, 0x20250101, 4);
	blob_put(&x, h, sizeof(h));
	return x;
}

/* Set Length and Checksum (§5.2.6). */
static void sdt_finish(struct blob *x)
{
	le_put(x->b + 4, x->len, 4);
	x->b[9] = 0;
	x->b[9] = (uint8_t)-sum(x->b, x->len);
}

static void fix_checksum(uint8_t *t, size_t len)
{
	t[9] = 0;
	t[9] = (uint8_t)-sum(t, len);
}

static struct blob madt_begin(uint32_t lapic, uint32_t flags, uint8_t rev)
{
	struct blob x = sdt_begin("APIC", rev);

	blob_int(&x, lapic, 4);
	blob_int(&x, flags, 4);
	return x;
}

static void madt_lapic(struct blob *x, uint8_t uid, uint8_t id, uint32_t flags)
{
	uint8_t e[8] = { 0, 8, uid, id };

	le_put(e + 4, flags, 4);
	blob_put(x, e, sizeof(e));
}

static void madt_x2apic(struct blob *x, uint32_t id, uint32_t flags, uint32_t uid)
{
	uint8_t e[16] = { 9, 16 };

	le_put(e + 4, id, 4);
	le_put(e + 8, flags, 4);
	le_put(e + 12, uid, 4);
	blob_put(x, e, sizeof(e));
}

static void madt_ioapic(struct blob *x, uint8_t id, uint32_t addr, uint32_t gsi)
{
	uint8_t e[12] = { 1, 12, id, 0 };

	le_put(e + 4, addr, 4);
	le_put(e + 8, gsi, 4);
	blob_put(x, e, sizeof(e));
}

static void madt_override(struct blob *x, uint64_t addr)
{
	uint8_t e[12] = { 5, 12 };

	le_put(e + 4, addr, 8);
	blob_put(x, e, sizeof(e));
}

static void madt_iso(struct blob *x, uint8_t irq, uint32_t gsi, uint16_t flags)
{
	uint8_t e[10] = { 2, 10, 0, irq };

	le_put(e + 4, gsi, 4);
	le_put(e + 8, flags, 2);
	blob_put(x, e, sizeof(e));
}

static void madt_lapic_nmi(struct blob *x, uint8_t uid, uint16_t flags, uint8_t lint)
{
	uint8_t e[6] = { 4, 6, uid };

	le_put(e + 3, flags, 2);
	e[5] = lint;
	blob_put(x, e, sizeof(e));
}

static void madt_x2apic_nmi(struct blob *x, uint32_t uid, uint8_t lint)
{
	uint8_t e[12] = { 10, 12 };

	le_put(e + 2, 0x0005, 2);
	le_put(e + 4, uid, 4);
	e[8] = lint;
	blob_put(x, e, sizeof(e));
}

static void raw(struct blob *x, const uint8_t *p, size_t n)
{
	blob_put(x, p, n);
}

#define X_NONE 0xff	/* make_fadt: leave X_PM_TMR_BLK zero */

/* A FADT of `len` bytes; fields past len are simply not written. */
static struct blob make_fadt(uint32_t len, uint8_t rev, uint32_t pm_blk,
			     uint8_t pm_len, uint32_t flags, uint8_t x_space,
			     uint64_t x_addr)
{
	struct blob x = sdt_begin("FACP", rev);
	uint8_t body[276 - 36] = { 0 };

	assert_true(len >= 36 && len <= 276);
	blob_put(&x, body, len - 36);
	if (len >= 80)
		le_put(x.b + 76, pm_blk, 4);
	if (len >= 92)
		x.b[91] = pm_len;
	if (len >= 116)
		le_put(x.b + 112, flags, 4);
	if (len >= 220 && x_space != X_NONE) {
		x.b[208] = x_space;
		x.b[209] = 32;
		x.b[211] = 3;
		le_put(x.b + 212, x_addr, 8);
	}
	sdt_finish(&x);
	return x;
}

static struct blob make_hpet(uint8_t space, uint64_t addr, uint8_t number,
			     uint16_t min_tick)
{
	struct blob x = sdt_begin("HPET", 1);

	blob_int(&x, 0x8086a201, 4);	/* event timer block ID */
	blob_int(&x, space, 1);
	blob_int(&x, 64, 1);
	blob_int(&x, 0, 1);
	blob_int(&x, 0, 1);
	blob_int(&x, addr, 8);
	blob_int(&x, number, 1);
	blob_int(&x, min_tick, 2);
	blob_int(&x, 0, 1);		/* page protection */
	sdt_finish(&x);
	return x;
}

static struct blob make_root(const char *sig, const uint64_t *addrs, unsigned n)
{
	struct blob x = sdt_begin(sig, 1);
	int esz = !strcmp(sig, "XSDT") ? 8 : 4;

	for (unsigned i = 0; i < n; i++)
		blob_int(&x, addrs[i], esz);
	sdt_finish(&x);
	return x;
}

static void make_rsdp(uint8_t out[36], uint8_t rev, uint32_t rsdt,
		      uint64_t xsdt, const char *oem)
{
	memset(out, 0, 36);
	memcpy(out, "RSD PTR ", 8);
	memcpy(out + 9, oem, 6);
	out[15] = rev;
	le_put(out + 16, rsdt, 4);
	out[8] = (uint8_t)-sum(out, 20);
	if (rev >= 2) {
		le_put(out + 20, 36, 4);
		le_put(out + 24, xsdt, 8);
		out[32] = (uint8_t)-sum(out, 36);
	}
}

static void put_blob(uint64_t pa, const struct blob *x)
{
	mem_put(pa, x->b, x->len);
}

/* Parse from an exact-size heap copy so that ASan catches over-reads. */
typedef void (*parse_fn)(struct acpi_info *, const void *, uint32_t);

static void parse_exact(parse_fn fn, const struct blob *x)
{
	uint8_t *p = malloc(x->len);

	assert_non_null(p);
	memcpy(p, x->b, x->len);
	fn(&ai, p, (uint32_t)x->len);
	free(p);
}

static void ai_clear(void)
{
	memset(&ai, 0, sizeof(ai));
}

/* ----------------------------------------------------- assertions --- */
static bool has_error(const char *needle)
{
	for (unsigned i = 0; i < ai.nerrors && i < ACPI_MAX_ERRORS; i++)
		if (strstr(ai.errors[i], needle))
			return true;
	return false;
}

#define assert_error(needle)                                                  \
	do {                                                                  \
		if (!has_error(needle)) {                                     \
			for (unsigned i_ = 0; i_ < ai.nerrors; i_++)          \
				print_message("  errors[%u] = %s\n", i_,      \
					      ai.errors[i_]);                 \
			fail_msg("no error line contains \"%s\"", needle);    \
		}                                                             \
	} while (0)

#define assert_no_errors()                                                    \
	do {                                                                  \
		for (unsigned i_ = 0; i_ < ai.nerrors; i_++)                  \
			print_message("  errors[%u] = %s\n", i_, ai.errors[i_]); \
		assert_int_equal(ai.nerrors, 0);                              \
	} while (0)

/* What must hold whatever the input was. */
static void check_invariants(void)
{
	assert_true(ai.nerrors <= ACPI_MAX_ERRORS);
	for (unsigned i = 0; i < ai.nerrors; i++) {
		size_t n = strnlen(ai.errors[i], ACPI_ERROR_LEN);

		assert_true(n < ACPI_ERROR_LEN);
		assert_true(n > 0);
		assert_memory_equal(ai.errors[i], "acpi: ", 6);
		for (size_t k = 0; k < n; k++)
			assert_true(ai.errors[i][k] >= 0x20 && ai.errors[i][k] < 0x7f);
	}
	assert_true(ai.ncpus <= ACPI_MAX_CPUS);
	assert_true(ai.nioapics <= ACPI_MAX_IOAPICS);
	assert_true(ai.ntables <= ACPI_MAX_TABLES);
	assert_true(acpi_enabled_cpus(&ai) <= ai.ncpus);
	for (unsigned i = 0; i < ai.ntables; i++)
		assert_int_equal(strnlen(ai.tables[i].sig, 5), 4);
	if (ai.have_rsdp) {
		assert_non_null(ai.rsdp_source);
		assert_int_equal(strnlen(ai.oem_id, 7), 6);
	}
	/* No two stored CPUs share an APIC ID. */
	for (unsigned i = 0; i < ai.ncpus && i < 64; i++)
		for (unsigned j = i + 1; j < ai.ncpus; j++)
			assert_true(ai.cpus[i].apic_id != ai.cpus[j].apic_id);
}

/* ------------------------------------------------ a standard system --- */
/* MADT, FADT and HPET at 0x7ffe1000..., RSDT and XSDT listing them. */
#define SYS_RSDT	0x7ffe0000ull
#define SYS_XSDT	0x7ffe0100ull
#define SYS_MADT	0x7ffe1000ull
#define SYS_FADT	0x7ffe2000ull
#define SYS_HPET	0x7ffe3000ull
#define SYS_EXTRA	0x7ffe4000ull
#define SYS_ROM_RSDP	0xf5a30ull

static struct blob small_madt(void)
{
	struct blob m = madt_begin(0xfee00000, 1, 5);

	for (unsigned i = 0; i < 4; i++)
		madt_lapic(&m, (uint8_t)i, (uint8_t)i, 1);
	madt_ioapic(&m, 4, 0xfec00000, 0);
	madt_iso(&m, 0, 2, 0);
	madt_iso(&m, 9, 9, 0xd);
	madt_lapic_nmi(&m, 0xff, 5, 1);
	sdt_finish(&m);
	return m;
}

static void sys_install(const struct blob *madt, const struct blob *fadt,
			const struct blob *hpet)
{
	uint64_t addrs[3] = { SYS_FADT, SYS_MADT, SYS_HPET };

	put_blob(SYS_MADT, madt);
	put_blob(SYS_FADT, fadt);
	put_blob(SYS_HPET, hpet);
	struct blob r = make_root("RSDT", addrs, 3), x = make_root("XSDT", addrs, 3);

	put_blob(SYS_RSDT, &r);
	put_blob(SYS_XSDT, &x);
	blob_free(&r);
	blob_free(&x);
}

static void sys_standard(void)
{
	struct blob m = small_madt();
	struct blob f = make_fadt(276, 6, 0x608, 4, 1u << 8, 1, 0x608);
	struct blob h = make_hpet(0, 0xfed00000, 0, 0x80);

	mem_standard();
	sys_install(&m, &f, &h);
	blob_free(&m);
	blob_free(&f);
	blob_free(&h);
}

static void check_standard_parsed(void)
{
	assert_true(ai.have_madt);
	assert_int_equal(ai.ncpus, 4);
	assert_int_equal(acpi_enabled_cpus(&ai), 4);
	assert_int_equal(ai.lapic_addr, 0xfee00000);
	assert_int_equal(ai.madt_flags, 1);
	assert_int_equal(ai.nioapics, 1);
	assert_true(ai.have_fadt);
	assert_int_equal(ai.pm_tmr_port, 0x608);
	assert_true(ai.pm_tmr_32bit);
	assert_true(ai.have_hpet);
	assert_int_equal(ai.hpet_addr, 0xfed00000);
	assert_int_equal(ai.ntables, 3);
}

/* ============================================================ tests === */
static void test_checksum(void **state)
{
	(void)state;
	uint8_t b[40];

	for (unsigned i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)(i * 37 + 11);
	b[9] = 0;
	b[9] = (uint8_t)-sum(b, sizeof(b));
	assert_true(acpi_checksum_ok(b, sizeof(b)));
	b[20] ^= 0x10;
	assert_false(acpi_checksum_ok(b, sizeof(b)));
	assert_false(acpi_checksum_ok(NULL, 4));
	assert_true(acpi_checksum_ok(b, 0));
}

static void test_rsdp_valid(void **state)
{
	(void)state;
	uint8_t r[36];

	make_rsdp(r, 0, 0x7ffe0000, 0, "BOCHS ");
	assert_true(acpi_rsdp_valid(r, 20));
	assert_false(acpi_rsdp_valid(r, 19));
	assert_false(acpi_rsdp_valid(NULL, 20));
	r[3] = 'X';
	assert_false(acpi_rsdp_valid(r, 20));		/* signature */
	make_rsdp(r, 0, 0x7ffe0000, 0, "BOCHS ");
	r[16] ^= 1;
	assert_false(acpi_rsdp_valid(r, 20));		/* checksum */

	make_rsdp(r, 2, 0x7ffe0000, 0x7ffe0100, "BOCHS ");
	assert_true(acpi_rsdp_valid(r, 36));
	assert_true(acpi_rsdp_valid(r, 100));
	assert_false(acpi_rsdp_valid(r, 35));		/* Length > what we have */
	assert_false(acpi_rsdp_valid(r, 20));
	r[33] = 0x55;					/* reserved: only xchecksum covers it */
	assert_false(acpi_rsdp_valid(r, 36));

	make_rsdp(r, 2, 0, 0x7ffe0100, "BOCHS ");
	le_put(r + 20, 20, 4);				/* Length < 36 */
	r[8] = 0;
	r[8] = (uint8_t)-sum(r, 20);
	r[32] = 0;
	r[32] = (uint8_t)-sum(r, 36);
	assert_false(acpi_rsdp_valid(r, 36));
	le_put(r + 20, 0xffffffff, 4);			/* absurd Length */
	r[8] = 0;
	r[8] = (uint8_t)-sum(r, 20);
	assert_false(acpi_rsdp_valid(r, 36));
}

static void test_tag15_uses_xsdt(void **state)
{
	(void)state;
	/* RSDT lists only a FADT; XSDT lists MADT, a different FADT, HPET:
	 * what gets parsed tells which root table was used. */
	struct blob m = small_madt();
	struct blob fx = make_fadt(276, 6, 0x608, 4, 1u << 8, 1, 0x608);
	struct blob fr = make_fadt(116, 1, 0xb008, 4, 0, X_NONE, 0);
	struct blob h = make_hpet(0, 0xfed00000, 0, 0x80);
	uint64_t xa[3] = { SYS_MADT, SYS_FADT, SYS_HPET }, ra[1] = { SYS_EXTRA };

	mem_standard();
	put_blob(SYS_MADT, &m);
	put_blob(SYS_FADT, &fx);
	put_blob(SYS_EXTRA, &fr);
	put_blob(SYS_HPET, &h);
	struct blob x = make_root("XSDT", xa, 3), r = make_root("RSDT", ra, 1);

	put_blob(SYS_XSDT, &x);
	put_blob(SYS_RSDT, &r);

	uint8_t rsdp[36];

	make_rsdp(rsdp, 2, (uint32_t)SYS_RSDT, SYS_XSDT, "BOCHS ");
	assert_true(acpi_init(&ai, rsdp, sizeof(rsdp), "multiboot2-tag15"));
	assert_no_errors();
	assert_true(ai.have_rsdp);
	assert_string_equal(ai.rsdp_source, "multiboot2-tag15");
	assert_int_equal(ai.rsdp_phys, 0);
	assert_int_equal(ai.revision, 2);
	assert_string_equal(ai.oem_id, "BOCHS ");
	assert_true(ai.root_is_xsdt);
	assert_int_equal(ai.root_phys, SYS_XSDT);
	assert_int_equal(ai.ntables, 3);
	assert_string_equal(ai.tables[0].sig, "APIC");
	assert_int_equal(ai.tables[0].phys, SYS_MADT);
	assert_int_equal(ai.tables[0].length, m.len);
	assert_int_equal(ai.tables[0].revision, 5);
	assert_true(ai.tables[0].checksum_ok);
	assert_string_equal(ai.cpus_source, "madt");
	assert_false(ai.madt_invalid);
	assert_string_equal(ai.tables[1].sig, "FACP");
	assert_string_equal(ai.tables[2].sig, "HPET");
	assert_int_equal(ai.fadt_revision, 6);	/* the XSDT's FADT */
	check_standard_parsed();
	check_invariants();
	blob_free(&m);
	blob_free(&fx);
	blob_free(&fr);
	blob_free(&h);
	blob_free(&x);
	blob_free(&r);
}

static void test_tag14_rev0_uses_rsdt(void **state)
{
	(void)state;
	sys_standard();

	/* An ACPI 1.0 RSDP is 20 bytes: the copy is exactly that long, so a
	 * read of the (absent) XSDT address would be an ASan error. */
	uint8_t r[36], *copy = malloc(20);

	make_rsdp(r, 0, (uint32_t)SYS_RSDT, 0, "OEMID1");
	memcpy(copy, r, 20);
	assert_true(acpi_init(&ai, copy, 20, "multiboot2-tag14"));
	free(copy);
	assert_no_errors();
	assert_string_equal(ai.rsdp_source, "multiboot2-tag14");
	assert_int_equal(ai.revision, 0);
	assert_false(ai.root_is_xsdt);
	assert_int_equal(ai.root_phys, SYS_RSDT);
	check_standard_parsed();
	check_invariants();
}

static void test_bad_tag_falls_back_to_scan(void **state)
{
	(void)state;
	sys_standard();
	uint8_t r[36], good[36];

	make_rsdp(good, 2, (uint32_t)SYS_RSDT, SYS_XSDT, "ROMOEM");
	mem_put(SYS_ROM_RSDP, good, sizeof(good));
	make_rsdp(r, 2, (uint32_t)SYS_RSDT, SYS_XSDT, "TAGOEM");
	r[8] ^= 0x40;
	assert_true(acpi_init(&ai, r, sizeof(r), "multiboot2-tag15"));
	assert_error("acpi: RSDP copy from multiboot2-tag15: checksum mismatch");
	assert_string_equal(ai.rsdp_source, "bios-rom");
	assert_int_equal(ai.rsdp_phys, SYS_ROM_RSDP);
	assert_string_equal(ai.oem_id, "ROMOEM");
	check_standard_parsed();
	check_invariants();

	/* A truncated tag copy (rev 2 but only 20 bytes) is not trusted. */
	mem_reset();
	sys_standard();
	mem_put(SYS_ROM_RSDP, good, sizeof(good));
	make_rsdp(r, 2, (uint32_t)SYS_RSDT, SYS_XSDT, "TAGOEM");
	uint8_t *copy = malloc(20);

	memcpy(copy, r, 20);
	assert_true(acpi_init(&ai, copy, 20, NULL));
	free(copy);
	assert_error("truncated");
	assert_string_equal(ai.rsdp_source, "bios-rom");
	check_invariants();
}

static void set_ebda_segment(uint16_t seg)
{
	uint8_t w[2];

	le_put(w, seg, 2);
	mem_put(0x40e, w, 2);
}

static void test_ebda_scan(void **state)
{
	(void)state;
	sys_standard();
	uint8_t r[36];

	set_ebda_segment(0x9fc0);			/* EBDA at 0x9fc00 */
	make_rsdp(r, 2, (uint32_t)SYS_RSDT, SYS_XSDT, "EBDAOE");
	mem_put(0x9fc00 + 0x3e0, r, sizeof(r));	/* near the end of the first KiB */
	make_rsdp(r, 2, (uint32_t)SYS_RSDT, SYS_XSDT, "ROMOEM");
	mem_put(SYS_ROM_RSDP, r, sizeof(r));		/* the EBDA is searched first */
	/* (0x9ffe0 + 36 runs past 0xa0000, the end of the EBDA window; only
	 * the 20-byte ACPI 1.0 part must lie inside it.) */
	assert_true(acpi_init(&ai, NULL, 0, NULL));
	assert_string_equal(ai.rsdp_source, "ebda");
	assert_int_equal(ai.rsdp_phys, 0x9ffe0);
	assert_string_equal(ai.oem_id, "EBDAOE");
	assert_no_errors();
	check_standard_parsed();

	/* Straddling the end of the window (0xa0000): not in the EBDA. */
	mem_reset();
	sys_standard();
	set_ebda_segment(0x9fc0);
	make_rsdp(r, 2, (uint32_t)SYS_RSDT, SYS_XSDT, "EBDAOE");
	mem_put(0x9fff0, r, sizeof(r));
	make_rsdp(r, 2, (uint32_t)SYS_RSDT, SYS_XSDT, "ROMOEM");
	mem_put(SYS_ROM_RSDP, r, sizeof(r));
	assert_true(acpi_init(&ai, NULL, 0, NULL));
	assert_string_equal(ai.rsdp_source, "bios-rom");

	/* Beyond the first KiB of the EBDA: not searched there. */
	mem_reset();
	sys_standard();
	set_ebda_segment(0x8000);
	make_rsdp(r, 2, (uint32_t)SYS_RSDT, SYS_XSDT, "EBDAOE");
	mem_put(0x80400, r, sizeof(r));
	make_rsdp(r, 2, (uint32_t)SYS_RSDT, SYS_XSDT, "ROMOEM");
	mem_put(SYS_ROM_RSDP, r, sizeof(r));
	assert_true(acpi_init(&ai, NULL, 0, NULL));
	assert_string_equal(ai.rsdp_source, "bios-rom");
	assert_string_equal(ai.oem_id, "ROMOEM");
	check_invariants();
}

static void test_ebda_pointer_out_of_range(void **state)
{
	(void)state;
	static const uint16_t segs[] = { 0x0000, 0x0030, 0x0040, 0xa000, 0xf000 };
	uint8_t r[36];

	for (unsigned i = 0; i < sizeof(segs) / sizeof(segs[0]); i++) {
		mem_reset();
		sys_standard();
		set_ebda_segment(segs[i]);
		/* An RSDP at that "EBDA" address (outside the ROM window
		 * except for 0xf000, handled below) must not be found. */
		uint64_t at = (uint64_t)segs[i] << 4;

		if (at >= 0xe0000)
			continue;
		make_rsdp(r, 0, (uint32_t)SYS_RSDT, 0, "BADEBD");
		mem_put(at + 0x10, r, 20);
		assert_false(acpi_init(&ai, NULL, 0, NULL));
		assert_false(ai.have_rsdp);
		assert_error("acpi: no valid RSDP found");
		check_invariants();
	}
	/* A bogus pointer into the ROM window: the ROM scan still finds it. */
	mem_reset();
	sys_standard();
	set_ebda_segment(0xf000);
	make_rsdp(r, 0, (uint32_t)SYS_RSDT, 0, "ROMOEM");
	mem_put(0xf0010, r, 20);
	assert_true(acpi_init(&ai, NULL, 0, NULL));
	assert_string_equal(ai.rsdp_source, "bios-rom");
	assert_int_equal(ai.rsdp_phys, 0xf0010);
}

static void test_bios_rom_scan(void **state)
{
	(void)state;
	uint8_t r[36];
	static const uint64_t at[] = { 0xe0000, 0xf5a30, 0xfffe0 };

	for (unsigned i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		mem_reset();
		sys_standard();
		make_rsdp(r, 0, (uint32_t)SYS_RSDT, 0, "ROMOEM");
		mem_put(at[i], r, 20);
		assert_true(acpi_init(&ai, NULL, 0, NULL));
		assert_string_equal(ai.rsdp_source, "bios-rom");
		assert_int_equal(ai.rsdp_phys, at[i]);
		assert_int_equal(ai.root_phys, SYS_RSDT);
		assert_no_errors();
		check_standard_parsed();
	}
	/* Not on a 16-byte boundary: not an RSDP (§5.2.5.1). */
	mem_reset();
	sys_standard();
	make_rsdp(r, 0, (uint32_t)SYS_RSDT, 0, "ROMOEM");
	mem_put(0xf5a38, r, 20);
	assert_false(acpi_init(&ai, NULL, 0, NULL));

	/* No low memory at all (a UEFI machine without a tag). */
	mem_reset();
	mem_add(HI_BASE, HI_SIZE);
	assert_false(acpi_init(&ai, NULL, 0, NULL));
	assert_int_equal(ai.nerrors, 1);
	assert_error("no valid RSDP");
}

static void test_bad_rsdp_checksum_not_found(void **state)
{
	(void)state;
	sys_standard();
	uint8_t r[36];

	make_rsdp(r, 0, (uint32_t)SYS_RSDT, 0, "ROMOEM");
	r[8] ^= 1;
	mem_put(SYS_ROM_RSDP, r, 20);
	assert_false(acpi_init(&ai, NULL, 0, NULL));
	assert_false(ai.have_rsdp);
	assert_false(ai.have_madt);
	assert_int_equal(ai.ntables, 0);
	assert_error("acpi: RSDP candidate in BIOS ROM at 0xf5a30: checksum mismatch, skipped");
	assert_error("no valid RSDP");
	check_invariants();
}

static void test_bad_extended_checksum(void **state)
{
	(void)state;
	sys_standard();
	uint8_t r[36];

	make_rsdp(r, 2, (uint32_t)SYS_RSDT, SYS_XSDT, "XBADCK");
	r[32] ^= 0x21;
	mem_put(0xe0000, r, 36);
	assert_false(acpi_init(&ai, NULL, 0, NULL));
	assert_error("at 0xe0000: extended checksum mismatch");

	/* A later valid candidate is still found. */
	make_rsdp(r, 0, (uint32_t)SYS_RSDT, 0, "GOODOE");
	mem_put(0xf0000, r, 20);
	assert_true(acpi_init(&ai, NULL, 0, NULL));
	assert_int_equal(ai.rsdp_phys, 0xf0000);
	assert_int_equal(ai.revision, 0);
	assert_error("extended checksum mismatch");
	check_standard_parsed();

	/* Bad Length in a rev 2 candidate. */
	mem_reset();
	sys_standard();
	make_rsdp(r, 2, (uint32_t)SYS_RSDT, SYS_XSDT, "BADLEN");
	le_put(r + 20, 0x7fffffff, 4);
	r[8] = 0;
	r[8] = (uint8_t)-sum(r, 20);
	mem_put(0xe0000, r, 36);
	assert_false(acpi_init(&ai, NULL, 0, NULL));
	assert_error("at 0xe0000: bad length");

	/* Rev 2 RSDP whose 36 bytes run past the end of readable memory. */
	mem_reset();
	mem_add(0xe0000, 0x20000);
	make_rsdp(r, 2, 0, SYS_XSDT, "EDGE  ");
	mem_put(0xfffe0, r, 32);	/* the last 4 bytes would be at 1 MiB */
	assert_false(acpi_init(&ai, NULL, 0, NULL));
	assert_error("at 0xfffe0: truncated");
	check_invariants();
}

static void test_xsdt_bad_falls_back_to_rsdt(void **state)
{
	(void)state;
	uint8_t r[36];

	/* Bad checksum. */
	sys_standard();
	mem_put(SYS_XSDT + 20, (uint8_t[]){ 0x99 }, 1);
	make_rsdp(r, 2, (uint32_t)SYS_RSDT, SYS_XSDT, "FALLBK");
	assert_true(acpi_init(&ai, r, 36, "multiboot2-tag15"));
	assert_false(ai.root_is_xsdt);
	assert_int_equal(ai.root_phys, SYS_RSDT);
	assert_error("acpi: XSDT at 0x7ffe0100: checksum mismatch");
	assert_error("using RSDT");
	check_standard_parsed();

	/* Unreadable XSDT address. */
	make_rsdp(r, 2, (uint32_t)SYS_RSDT, 0xdead0000ull, "FALLBK");
	assert_true(acpi_init(&ai, r, 36, "multiboot2-tag15"));
	assert_false(ai.root_is_xsdt);
	assert_error("XSDT at 0xdead0000: header not readable, using RSDT");
	check_standard_parsed();

	/* XSDT address points at the RSDT (wrong signature). */
	make_rsdp(r, 2, (uint32_t)SYS_RSDT, SYS_RSDT, "FALLBK");
	assert_true(acpi_init(&ai, r, 36, "multiboot2-tag15"));
	assert_false(ai.root_is_xsdt);
	assert_error("signature 'RSDT' is not XSDT");
	check_standard_parsed();

	/* XSDT address 0 in a rev 2 RSDP: quietly the RSDT. */
	make_rsdp(r, 2, (uint32_t)SYS_RSDT, 0, "FALLBK");
	assert_true(acpi_init(&ai, r, 36, "multiboot2-tag15"));
	assert_false(ai.root_is_xsdt);
	assert_no_errors();
	check_standard_parsed();

	/* Bad XSDT and no RSDT: RSDP found, but no tables. */
	make_rsdp(r, 2, 0, SYS_XSDT, "NOROOT");
	assert_true(acpi_init(&ai, r, 36, "multiboot2-tag15"));
	assert_true(ai.have_rsdp);
	assert_int_equal(ai.ntables, 0);
	assert_false(ai.have_madt);
	assert_error("no RSDT to fall back to");

	/* No root table address at all. */
	make_rsdp(r, 2, 0, 0, "NOROOT");
	assert_true(acpi_init(&ai, r, 36, "multiboot2-tag15"));
	assert_int_equal(ai.nerrors, 1);
	assert_error("RSDP gives no RSDT or XSDT address");
	make_rsdp(r, 0, 0, 0, "NOROOT");
	assert_true(acpi_init(&ai, r, 20, "multiboot2-tag14"));
	assert_error("RSDP gives no RSDT or XSDT address");

	/* Both bad. */
	mem_put(SYS_RSDT + 20, (uint8_t[]){ 0x99 }, 1);
	make_rsdp(r, 2, (uint32_t)SYS_RSDT, SYS_XSDT, "BOTHBD");
	assert_true(acpi_init(&ai, r, 36, "multiboot2-tag15"));
	assert_int_equal(ai.ntables, 0);
	assert_error("acpi: RSDT at 0x7ffe0000: checksum mismatch");
	check_invariants();
}

/* Install the standard system, then replace the MADT with `m` placed at
 * SYS_MADT, and run acpi_init via a tag. */
static void init_with_madt_bytes(const uint8_t *m, size_t len)
{
	mem_reset();
	sys_standard();
	mem_put(SYS_MADT, m, len);
	uint8_t r[36];

	make_rsdp(r, 2, (uint32_t)SYS_RSDT, SYS_XSDT, "BOCHS ");
	assert_true(acpi_init(&ai, r, 36, "multiboot2-tag15"));
	check_invariants();
}

static void test_table_bad_checksum_ignored(void **state)
{
	(void)state;
	struct blob m = small_madt();

	m.b[40] = 2;	/* flags 1 -> 2: the sum is now 0x01 */
	init_with_madt_bytes(m.b, m.len);
	assert_false(ai.have_madt);
	assert_int_equal(ai.ncpus, 0);
	assert_int_equal(ai.ntables, 3);
	assert_string_equal(ai.tables[1].sig, "APIC");
	assert_false(ai.tables[1].checksum_ok);
	assert_true(ai.madt_invalid);	/* smp.online fails on such a MADT */
	assert_true(ai.tables[0].checksum_ok);
	assert_true(ai.have_fadt);	/* the others are still used */
	assert_true(ai.have_hpet);
	assert_int_equal(ai.nerrors, 1);
	assert_string_equal(ai.errors[0],
			    "acpi: MADT at 0x7ffe1000: checksum mismatch (sum 0x01), ignored");
	blob_free(&m);
}

static void test_table_length_short(void **state)
{
	(void)state;
	struct blob m = small_madt();

	le_put(m.b + 4, 20, 4);
	fix_checksum(m.b, 20);
	init_with_madt_bytes(m.b, m.len);
	assert_false(ai.have_madt);
	assert_error("acpi: MADT at 0x7ffe1000: bad length 20, ignored");
	assert_int_equal(ai.tables[1].length, 20);
	assert_false(ai.tables[1].checksum_ok);

	/* 36..43: a valid SDT, too short for a MADT. */
	struct blob s = sdt_begin("APIC", 1);

	sdt_finish(&s);
	init_with_madt_bytes(s.b, s.len);
	assert_false(ai.have_madt);
	assert_error("MADT length 36 < 44");
	blob_free(&s);
	blob_free(&m);
}

static void test_table_length_huge_or_unreadable(void **state)
{
	(void)state;
	struct blob m = small_madt();

	le_put(m.b + 4, 0x7fffffff, 4);
	init_with_madt_bytes(m.b, m.len);
	assert_false(ai.have_madt);
	assert_error("acpi: MADT at 0x7ffe1000: bad length 2147483647, ignored");

	/* Plausible length but past the end of readable memory. */
	mem_reset();
	sys_standard();
	blob_free(&m);
	m = small_madt();
	uint64_t at = HI_BASE + HI_SIZE - 64;	/* 64 bytes before the end */
	uint64_t addrs[1] = { at };

	assert_true(m.len > 64);
	mem_put(at, m.b, 64);
	struct blob x = make_root("XSDT", addrs, 1);

	put_blob(SYS_XSDT, &x);
	uint8_t r[36];

	make_rsdp(r, 2, 0, SYS_XSDT, "BOCHS ");
	assert_true(acpi_init(&ai, r, 36, "multiboot2-tag15"));
	assert_false(ai.have_madt);
	assert_error("bytes not readable, ignored");
	assert_int_equal(ai.ntables, 1);
	assert_false(ai.tables[0].checksum_ok);

	/* Header itself unreadable, and a zero entry (skipped). */
	uint64_t addrs2[3] = { 0xdead0000, 0, SYS_MADT };

	blob_free(&x);
	x = make_root("XSDT", addrs2, 3);
	put_blob(SYS_XSDT, &x);
	assert_true(acpi_init(&ai, r, 36, "multiboot2-tag15"));
	assert_error("acpi: table at 0xdead0000: header not readable, ignored");
	assert_int_equal(ai.ntables, 2);
	assert_string_equal(ai.tables[0].sig, "????");
	assert_int_equal(ai.tables[0].phys, 0xdead0000);
	assert_true(ai.have_madt);
	check_invariants();
	blob_free(&x);
	blob_free(&m);
}

static void test_madt_entry_length_zero(void **state)
{
	(void)state;
	struct blob m = madt_begin(0xfee00000, 0, 4);

	madt_lapic(&m, 0, 0, 1);
	madt_lapic(&m, 1, 1, 1);
	raw(&m, (const uint8_t[]){ 0, 0, 2, 2, 1, 0, 0, 0 }, 8);	/* length 0 */
	madt_lapic(&m, 3, 3, 1);
	sdt_finish(&m);
	ai_clear();
	parse_exact(acpi_parse_madt, &m);
	assert_true(ai.have_madt);
	assert_int_equal(ai.ncpus, 2);
	assert_error("acpi: MADT: entry type 0 at offset 60 has length 0");
	assert_true(ai.madt_invalid);
	assert_error("walk stopped");

	/* Length 1 would also never make progress. */
	m.b[61] = 1;
	ai_clear();
	parse_exact(acpi_parse_madt, &m);
	assert_int_equal(ai.ncpus, 2);
	assert_error("has length 1");
	check_invariants();
	blob_free(&m);
}

static void test_madt_entry_past_end(void **state)
{
	(void)state;
	struct blob m = madt_begin(0xfee00000, 0, 4);

	madt_lapic(&m, 0, 0, 1);
	raw(&m, (const uint8_t[]){ 9, 16, 0, 0, 5, 0, 0, 0 }, 8);	/* claims 16, has 8 */
	sdt_finish(&m);
	ai_clear();
	parse_exact(acpi_parse_madt, &m);
	assert_int_equal(ai.ncpus, 1);
	assert_error("entry type 9 at offset 52 has length 16 (8 left), walk stopped");

	/* One stray byte after the last entry. */
	blob_free(&m);
	m = madt_begin(0xfee00000, 0, 4);
	madt_lapic(&m, 0, 0, 1);
	raw(&m, (const uint8_t[]){ 0 }, 1);
	sdt_finish(&m);
	ai_clear();
	parse_exact(acpi_parse_madt, &m);
	assert_int_equal(ai.ncpus, 1);
	assert_error("1 stray byte(s) at offset 52");
	assert_true(ai.madt_invalid);
	check_invariants();
	blob_free(&m);
}

static void test_madt_truncated_entries(void **state)
{
	(void)state;
	struct blob m = madt_begin(0xfee00000, 0, 5);

	madt_x2apic(&m, 0x100, 1, 0);
	/* type 9 with length 12: too short for its 16 bytes; skipped, and
	 * the walk goes on with the next entry. */
	raw(&m, (const uint8_t[]){ 9, 12, 0, 0, 0x01, 0x01, 0, 0, 1, 0, 0, 0 }, 12);
	raw(&m, (const uint8_t[]){ 0, 6, 7, 7, 1, 0 }, 6);		/* type 0, 6 < 8 */
	raw(&m, (const uint8_t[]){ 1, 8, 9, 0, 0, 0, 0xc0, 0xfe }, 8);	/* type 1, 8 < 12 */
	raw(&m, (const uint8_t[]){ 5, 8, 0, 0, 0, 0, 0, 0 }, 8);	/* type 5, 8 < 12 */
	madt_x2apic(&m, 0x102, 1, 2);
	sdt_finish(&m);
	ai_clear();
	parse_exact(acpi_parse_madt, &m);
	assert_int_equal(ai.ncpus, 2);
	assert_int_equal(ai.cpus[0].apic_id, 0x100);
	assert_int_equal(ai.cpus[1].apic_id, 0x102);
	assert_int_equal(ai.nioapics, 0);
	assert_int_equal(ai.lapic_addr, 0xfee00000);
	assert_error("type 9 entry at offset 60 has length 12 < 16, skipped");
	assert_error("type 0 entry at offset 72 has length 6 < 8, skipped");
	assert_error("type 1 entry at offset 78 has length 8 < 12, skipped");
	assert_error("type 5 entry at offset 86 has length 8 < 12, skipped");
	assert_int_equal(ai.nerrors, 4);
	check_invariants();
	blob_free(&m);
}

static void test_madt_longer_entries_ok(void **state)
{
	(void)state;
	/* Entries longer than we know (a future revision): fields read,
	 * extra bytes stepped over. */
	struct blob m = madt_begin(0xfee00000, 0, 7);

	raw(&m, (const uint8_t[]){ 0, 10, 4, 6, 1, 0, 0, 0, 0xaa, 0xbb }, 10);
	raw(&m, (const uint8_t[]){ 9, 20, 0, 0, 0x00, 0x02, 0, 0, 3, 0, 0, 0,
				   0x44, 0, 0, 0, 0xcc, 0xcc, 0xcc, 0xcc }, 20);
	madt_lapic(&m, 5, 8, 1);
	sdt_finish(&m);
	ai_clear();
	parse_exact(acpi_parse_madt, &m);
	assert_no_errors();
	assert_int_equal(ai.ncpus, 3);
	assert_int_equal(ai.cpus[0].apic_id, 6);
	assert_int_equal(ai.cpus[0].uid, 4);
	assert_int_equal(ai.cpus[0].type, 0);
	assert_int_equal(ai.cpus[1].apic_id, 0x200);
	assert_int_equal(ai.cpus[1].uid, 0x44);
	assert_int_equal(ai.cpus[1].flags, 3);
	assert_int_equal(ai.cpus[1].type, 9);
	assert_int_equal(ai.cpus[2].apic_id, 8);
	assert_int_equal(ai.madt_revision, 7);
	blob_free(&m);
}

static void test_madt_duplicate_apic_id(void **state)
{
	(void)state;
	struct blob m = madt_begin(0xfee00000, 0, 5);

	madt_lapic(&m, 0, 0, 1);
	madt_lapic(&m, 1, 1, 1);
	madt_lapic(&m, 2, 1, 1);		/* same xAPIC ID again */
	madt_x2apic(&m, 0, 1, 3);		/* x2APIC entry for CPU 0 again */
	madt_x2apic(&m, 0x101, 1, 4);
	sdt_finish(&m);
	ai_clear();
	parse_exact(acpi_parse_madt, &m);
	assert_int_equal(ai.ncpus, 3);
	assert_int_equal(ai.cpus[1].apic_id, 1);
	assert_int_equal(ai.cpus[1].uid, 1);	/* the first one is kept */
	assert_int_equal(ai.cpus[2].apic_id, 0x101);
	assert_error("APIC ID 0x1 listed again (type 0, uid 2), ignored");
	assert_error("APIC ID 0x0 listed again (type 9, uid 3), ignored");
	assert_int_equal(ai.nerrors, 2);
	assert_int_equal(acpi_enabled_cpus(&ai), 3);
	blob_free(&m);
}

static void test_madt_ignored_ids_and_flags(void **state)
{
	(void)state;
	struct blob m = madt_begin(0xfee00000, 0, 5);

	madt_lapic(&m, 0, 0, 1);
	madt_lapic(&m, 1, 0xff, 1);		/* invalid xAPIC ID */
	madt_x2apic(&m, 0xffffffff, 1, 2);	/* invalid x2APIC ID */
	madt_x2apic(&m, 0xff, 1, 3);		/* 0xff is fine as an x2APIC ID */
	madt_lapic(&m, 4, 4, 0);		/* neither flag */
	madt_x2apic(&m, 0x105, 0xfc, 5);	/* only reserved bits */
	madt_lapic(&m, 6, 6, 2);		/* online capable: stored, not enabled */
	madt_x2apic(&m, 0x107, 3, 7);		/* both */
	sdt_finish(&m);
	ai_clear();
	parse_exact(acpi_parse_madt, &m);
	assert_no_errors();
	assert_int_equal(ai.ncpus, 4);
	assert_int_equal(ai.ncpus_ignored, 4);
	assert_int_equal(ai.ncpus_dropped, 0);
	assert_int_equal(acpi_enabled_cpus(&ai), 3);
	assert_int_equal(ai.cpus[1].apic_id, 0xff);
	assert_int_equal(ai.cpus[2].apic_id, 6);
	assert_int_equal(ai.cpus[2].flags, ACPI_MADT_ONLINE_CAPABLE);
	blob_free(&m);
}

static void test_madt_lapic_override_and_ioapics(void **state)
{
	(void)state;
	struct blob m = madt_begin(0xfee00000, 1, 3);

	madt_lapic(&m, 0, 0, 1);
	madt_override(&m, 0x0000001234567000ull);
	madt_override(&m, 0xfee00000ull);	/* §5.2.12.8: only one allowed */
	for (unsigned i = 0; i < ACPI_MAX_IOAPICS + 3; i++)
		madt_ioapic(&m, (uint8_t)i, 0xfec00000 + 0x1000 * i, 24 * i);
	sdt_finish(&m);
	ai_clear();
	parse_exact(acpi_parse_madt, &m);
	assert_int_equal(ai.lapic_addr, 0x0000001234567000ull);
	assert_int_equal(ai.madt_flags, 1);
	assert_error("second LAPIC address override at offset 64, ignored");
	assert_int_equal(ai.nioapics, ACPI_MAX_IOAPICS);
	assert_int_equal(ai.ioapics[1].id, 1);
	assert_int_equal(ai.ioapics[1].addr, 0xfec01000);
	assert_int_equal(ai.ioapics[1].gsi_base, 24);
	assert_error("3 I/O APICs beyond the 32 kept, dropped");
	assert_int_equal(ai.nerrors, 2);
	check_invariants();
	blob_free(&m);
}

/* §5.2.12.5 Interrupt Source Overrides: kept per ISA IRQ; the lookup
 * falls back to identity; non-ISA, out-of-range, duplicate and short
 * entries are reported and ignored, and nothing reads past the entry. */
static void test_madt_isa_overrides(void **state)
{
	(void)state;
	struct blob m = madt_begin(0xfee00000, 1, 3);
	uint16_t flags = 0xffff;

	madt_lapic(&m, 0, 0, 1);
	madt_ioapic(&m, 0, 0xfec00000, 0);
	madt_iso(&m, 0, 2, 0);
	madt_iso(&m, 9, 9, 0xd);
	madt_iso(&m, 10, 10, 0xf);
	madt_iso(&m, 0, 7, 0);		/* a second one for IRQ 0 */
	madt_iso(&m, 16, 16, 0);	/* not an ISA IRQ */
	{
		uint8_t e[10] = { 2, 10, 1, 3 };	/* bus 1 */

		le_put(e + 4, 20, 4);
		raw(&m, e, sizeof(e));
	}
	{
		uint8_t e[8] = { 2, 8, 0, 4, 30, 0, 0, 0 };	/* short: skipped */

		raw(&m, e, sizeof(e));
	}
	sdt_finish(&m);
	ai_clear();
	parse_exact(acpi_parse_madt, &m);
	assert_true(ai.isa_irq[0].present);
	assert_int_equal(acpi_isa_irq_gsi(&ai, 0, &flags), 2);
	assert_int_equal(flags, 0);
	assert_int_equal(acpi_isa_irq_gsi(&ai, 9, &flags), 9);
	assert_int_equal(flags, 0xd);
	assert_int_equal(flags & ACPI_INTI_POLARITY_MASK, 1);	/* active high */
	assert_int_equal(flags & ACPI_INTI_TRIGGER_MASK, ACPI_INTI_TRIGGER_LEVEL);
	assert_int_equal(acpi_isa_irq_gsi(&ai, 10, &flags), 10);
	assert_int_equal(flags & ACPI_INTI_POLARITY_MASK, ACPI_INTI_POLARITY_LOW);
	/* no override: identity, flags "as the bus" */
	flags = 0xffff;
	assert_int_equal(acpi_isa_irq_gsi(&ai, 3, &flags), 3);
	assert_int_equal(flags, 0);
	assert_int_equal(acpi_isa_irq_gsi(&ai, 4, NULL), 4);
	assert_int_equal(acpi_isa_irq_gsi(&ai, 99, &flags), 99);
	assert_error("second interrupt source override for ISA IRQ 0");
	assert_error("for bus 0 IRQ 16 (not ISA 0-15), ignored");
	assert_error("for bus 1 IRQ 3 (not ISA 0-15), ignored");
	assert_error("type 2 entry at offset");
	assert_int_equal(ai.nerrors, 4);
	check_invariants();
	blob_free(&m);
}

/* What QEMU builds for -smp 300,maxcpus=... on q35 with x2APIC: xAPIC
 * entries below 255, x2APIC entries from 255 on, a not-present slot, an
 * online-capable slot, interrupt overrides and NMIs.  Placed above 4 GiB
 * and reached through the XSDT. */
static void test_qemu_like_madt(void **state)
{
	(void)state;
	struct blob m = madt_begin(0xfee00000, 1, 5);

	for (unsigned i = 0; i < 254; i++)
		madt_lapic(&m, (uint8_t)i, (uint8_t)i, 1);
	madt_lapic(&m, 254, 254, 0);			/* not present */
	for (unsigned id = 255; id < 300; id++)
		madt_x2apic(&m, id, 1, id);
	madt_x2apic(&m, 0x12345, ACPI_MADT_ONLINE_CAPABLE, 300);
	madt_ioapic(&m, 0, 0xfec00000, 0);
	madt_iso(&m, 0, 2, 0);
	madt_iso(&m, 5, 5, 0xd);
	madt_iso(&m, 9, 9, 0xd);
	madt_iso(&m, 10, 10, 0xd);
	madt_iso(&m, 11, 11, 0xd);
	madt_lapic_nmi(&m, 0xff, 0, 1);
	madt_x2apic_nmi(&m, 0xffffffff, 1);
	sdt_finish(&m);
	assert_true(m.len < TOP_SIZE);

	mem_reset();
	sys_standard();
	mem_put(TOP_BASE + 0x1000, m.b, m.len);
	uint64_t addrs[2] = { SYS_FADT, TOP_BASE + 0x1000 };
	struct blob x = make_root("XSDT", addrs, 2);

	put_blob(SYS_XSDT, &x);
	uint8_t r[36];

	make_rsdp(r, 2, (uint32_t)SYS_RSDT, SYS_XSDT, "BOCHS ");
	assert_true(acpi_init(&ai, r, 36, "multiboot2-tag15"));
	assert_no_errors();
	assert_true(ai.have_madt);
	assert_int_equal(ai.tables[1].phys, TOP_BASE + 0x1000);
	assert_int_equal(ai.ncpus, 254 + 45 + 1);
	assert_int_equal(ai.ncpus_ignored, 1);
	assert_int_equal(acpi_enabled_cpus(&ai), 299);
	assert_int_equal(ai.cpus[253].apic_id, 253);
	assert_int_equal(ai.cpus[253].type, 0);
	assert_int_equal(ai.cpus[254].apic_id, 255);
	assert_int_equal(ai.cpus[254].type, 9);
	assert_int_equal(ai.cpus[298].apic_id, 299);
	assert_int_equal(ai.cpus[298].uid, 299);
	assert_int_equal(ai.cpus[299].apic_id, 0x12345);
	assert_int_equal(ai.cpus[299].flags, ACPI_MADT_ONLINE_CAPABLE);
	assert_int_equal(ai.nioapics, 1);
	assert_int_equal(ai.ioapics[0].addr, 0xfec00000);
	assert_int_equal(ai.madt_flags, 1);
	assert_int_equal(ai.madt_revision, 5);
	check_invariants();
	blob_free(&x);
	blob_free(&m);
}

static void test_more_cpus_than_max(void **state)
{
	(void)state;
	const unsigned extra = 100;
	struct blob m = madt_begin(0xfee00000, 0, 5);

	for (unsigned i = 0; i < ACPI_MAX_CPUS + extra; i++)
		madt_x2apic(&m, i, 1, i);
	madt_x2apic(&m, 7, 1, 99999);		/* a duplicate of a kept one */
	sdt_finish(&m);
	ai_clear();
	parse_exact(acpi_parse_madt, &m);
	assert_int_equal(ai.ncpus, ACPI_MAX_CPUS);
	assert_int_equal(ai.ncpus_dropped, extra);
	assert_int_equal(ai.ncpus_ignored, 0);
	assert_int_equal(acpi_enabled_cpus(&ai), ACPI_MAX_CPUS);
	assert_int_equal(ai.cpus[ACPI_MAX_CPUS - 1].apic_id, ACPI_MAX_CPUS - 1);
	assert_error("100 CPU entries beyond the 8192 kept, dropped");
	assert_error("APIC ID 0x7 listed again");
	check_invariants();

	/* The same through acpi_init, table above 4 GiB (~131 KiB). */
	mem_reset();
	sys_standard();
	assert_true(m.len <= TOP_SIZE);
	mem_put(TOP_BASE, m.b, m.len);
	uint64_t addrs[1] = { TOP_BASE };
	struct blob x = make_root("XSDT", addrs, 1);

	put_blob(SYS_XSDT, &x);
	uint8_t r[36];

	make_rsdp(r, 2, 0, SYS_XSDT, "BIGBOX");
	assert_true(acpi_init(&ai, r, 36, "multiboot2-tag15"));
	assert_int_equal(ai.ncpus, ACPI_MAX_CPUS);
	assert_int_equal(ai.ncpus_dropped, extra);
	blob_free(&x);
	blob_free(&m);
}

static void test_fadt_timer_width(void **state)
{
	(void)state;
	struct blob f = make_fadt(276, 6, 0x608, 4, 1u << 8, 1, 0x608);

	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_no_errors();
	assert_true(ai.have_fadt);
	assert_int_equal(ai.fadt_revision, 6);
	assert_int_equal(ai.pm_tmr_port, 0x608);
	assert_true(ai.pm_tmr_32bit);
	assert_false(ai.hw_reduced);
	blob_free(&f);

	f = make_fadt(244, 4, 0x408, 4, 0, 1, 0x408);	/* 24-bit */
	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_no_errors();
	assert_int_equal(ai.pm_tmr_port, 0x408);
	assert_false(ai.pm_tmr_32bit);
	blob_free(&f);

	/* X_PM_TMR_BLK (when usable) wins over PM_TMR_BLK. */
	f = make_fadt(276, 6, 0x608, 4, 0, 1, 0x1808);
	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_int_equal(ai.pm_tmr_port, 0x1808);
	blob_free(&f);

	/* X_PM_TMR_BLK zero: PM_TMR_BLK, no complaint. */
	f = make_fadt(276, 6, 0x608, 4, 1u << 8, X_NONE, 0);
	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_no_errors();
	assert_int_equal(ai.pm_tmr_port, 0x608);
	blob_free(&f);
}

static void test_fadt_short(void **state)
{
	(void)state;
	/* ACPI 1.0: 116 bytes, nothing past Flags (exact-size copy: a read
	 * of X_PM_TMR_BLK would be an ASan error). */
	struct blob f = make_fadt(116, 1, 0xb008, 4, 1u << 8, X_NONE, 0);

	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_no_errors();
	assert_true(ai.have_fadt);
	assert_int_equal(ai.fadt_revision, 1);
	assert_int_equal(ai.pm_tmr_port, 0xb008);
	assert_true(ai.pm_tmr_32bit);
	blob_free(&f);

	/* Shorter than ACPI 1.0: Flags absent (read as 0), timer still read. */
	f = make_fadt(100, 1, 0xb008, 4, 0, X_NONE, 0);
	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_true(ai.have_fadt);
	assert_int_equal(ai.pm_tmr_port, 0xb008);
	assert_false(ai.pm_tmr_32bit);
	assert_false(ai.hw_reduced);
	assert_error("FADT length 100 < 116");
	blob_free(&f);

	/* Not even PM_TMR_LEN: no timer. */
	f = make_fadt(84, 1, 0xb008, 4, 0, X_NONE, 0);
	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_int_equal(ai.pm_tmr_port, 0);
	assert_error("PM_TMR_LEN 0 unusable");
	blob_free(&f);

	/* Header only, and below that. */
	f = make_fadt(36, 1, 0, 0, 0, X_NONE, 0);
	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_true(ai.have_fadt);
	assert_int_equal(ai.pm_tmr_port, 0);
	ai_clear();
	acpi_parse_fadt(&ai, f.b, 20);
	assert_false(ai.have_fadt);
	assert_error("FADT length 20 < 36, ignored");
	blob_free(&f);
}

static void test_fadt_x_pm_tmr_unusable(void **state)
{
	(void)state;
	/* X_PM_TMR_BLK in system memory: ignored, PM_TMR_BLK used. */
	struct blob f = make_fadt(276, 6, 0x608, 4, 0, 0, 0xfed80000);

	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_int_equal(ai.pm_tmr_port, 0x608);
	assert_error("X_PM_TMR_BLK 0xfed80000 in address space 0 unusable, trying PM_TMR_BLK");
	blob_free(&f);

	/* ... and with no PM_TMR_BLK either: no timer. */
	f = make_fadt(276, 6, 0, 0, 0, 0, 0xfed80000);
	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_int_equal(ai.pm_tmr_port, 0);
	assert_int_equal(ai.nerrors, 1);
	blob_free(&f);

	/* I/O but beyond the 16-bit port space. */
	f = make_fadt(276, 6, 0x608, 4, 0, 1, 0x10008);
	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_int_equal(ai.pm_tmr_port, 0x608);
	assert_error("X_PM_TMR_BLK 0x10008 in address space 1 unusable");
	blob_free(&f);

	/* PM_TMR_LEN must be 4; PM_TMR_BLK must be a port. */
	f = make_fadt(276, 6, 0x608, 2, 0, X_NONE, 0);
	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_int_equal(ai.pm_tmr_port, 0);
	assert_error("PM_TMR_BLK 0x608 with PM_TMR_LEN 2 unusable");
	blob_free(&f);
	f = make_fadt(276, 6, 0x12345, 4, 0, X_NONE, 0);
	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_int_equal(ai.pm_tmr_port, 0);
	blob_free(&f);
}

static void test_fadt_hw_reduced(void **state)
{
	(void)state;
	/* §5.2.9: HW-reduced -> timer fields and TMR_VAL_EXT ignored. */
	struct blob f = make_fadt(276, 6, 0x608, 4, (1u << 20) | (1u << 8), 1, 0x608);

	ai_clear();
	parse_exact(acpi_parse_fadt, &f);
	assert_no_errors();
	assert_true(ai.have_fadt);
	assert_true(ai.hw_reduced);
	assert_int_equal(ai.pm_tmr_port, 0);
	assert_false(ai.pm_tmr_32bit);
	blob_free(&f);
}

static void test_hpet(void **state)
{
	(void)state;
	struct blob h = make_hpet(0, 0xfed00000, 2, 0x37ee);

	ai_clear();
	parse_exact(acpi_parse_hpet, &h);
	assert_no_errors();
	assert_true(ai.have_hpet);
	assert_int_equal(ai.hpet_addr, 0xfed00000);
	assert_int_equal(ai.hpet_number, 2);
	assert_int_equal(ai.hpet_min_tick, 0x37ee);
	blob_free(&h);

	h = make_hpet(1, 0xfed00000, 0, 0x80);		/* I/O space */
	ai_clear();
	parse_exact(acpi_parse_hpet, &h);
	assert_false(ai.have_hpet);
	assert_int_equal(ai.hpet_addr, 0);
	assert_error("acpi: HPET: base 0xfed00000 in address space 1, ignored");
	blob_free(&h);

	h = make_hpet(0, 0, 0, 0x80);			/* no address */
	ai_clear();
	parse_exact(acpi_parse_hpet, &h);
	assert_false(ai.have_hpet);
	blob_free(&h);

	h = make_hpet(0, 0xfed00000, 0, 0x80);		/* truncated */
	h.len = 55;
	ai_clear();
	parse_exact(acpi_parse_hpet, &h);
	assert_false(ai.have_hpet);
	assert_error("HPET length 55 < 56, ignored");
	blob_free(&h);

	/* Through acpi_init: an I/O-space HPET does not stop the others. */
	mem_reset();
	struct blob m = small_madt();
	struct blob f = make_fadt(276, 6, 0x608, 4, 1u << 8, 1, 0x608);

	h = make_hpet(1, 0xfed00000, 0, 0x80);
	mem_standard();
	sys_install(&m, &f, &h);
	uint8_t r[36];

	make_rsdp(r, 0, (uint32_t)SYS_RSDT, 0, "BOCHS ");
	assert_true(acpi_init(&ai, r, 20, "multiboot2-tag14"));
	assert_false(ai.have_hpet);
	assert_true(ai.have_madt);
	assert_true(ai.have_fadt);
	assert_int_equal(ai.nerrors, 1);
	assert_true(ai.tables[2].checksum_ok);
	blob_free(&h);
	blob_free(&m);
	blob_free(&f);
}

static struct blob load_fixture(const char *name)
{
	char path[256];
	struct blob x = { 0 };
	uint8_t buf[4096];
	size_t n;

	snprintf(path, sizeof(path), "tests/host/data/acpi/%s", name);
	FILE *fp = fopen(path, "rb");

	if (!fp)
		fail_msg("cannot open %s (run from the repository root)", path);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		blob_put(&x, buf, n);
	fclose(fp);
	return x;
}

/* The development VM's own tables (Firecracker), at the addresses its
 * boot log gave; the RSDP and XSDT are rebuilt (see data/acpi/README.md). */
#define FC_XSDT	0xa0e2full
#define FC_FACP	0xa0c97ull
#define FC_APIC	0xa0dabull
#define FC_MCFG	0xa0df3ull

static void test_real_firecracker_tables(void **state)
{
	(void)state;
	struct blob apic = load_fixture("firecracker-APIC.bin");
	struct blob facp = load_fixture("firecracker-FACP.bin");
	struct blob mcfg = load_fixture("firecracker-MCFG.bin");

	assert_int_equal(apic.len, 72);
	assert_int_equal(facp.len, 276);
	assert_int_equal(mcfg.len, 60);
	assert_true(acpi_checksum_ok(apic.b, apic.len));
	assert_true(acpi_checksum_ok(facp.b, facp.len));

	mem_add(LOW_BASE, LOW_SIZE);
	put_blob(FC_FACP, &facp);
	put_blob(FC_APIC, &apic);
	put_blob(FC_MCFG, &mcfg);
	uint64_t addrs[3] = { FC_FACP, FC_APIC, FC_MCFG };
	struct blob x = make_root("XSDT", addrs, 3);

	memcpy(x.b + 10, "FIRECK", 6);
	memcpy(x.b + 16, "FCMVXSDT", 8);
	fix_checksum(x.b, x.len);
	assert_int_equal(x.len, 60);
	put_blob(FC_XSDT, &x);
	uint8_t r[36];

	make_rsdp(r, 2, 0, FC_XSDT, "FIRECK");	/* Firecracker has no RSDT */
	mem_put(0xe0000, r, sizeof(r));

	assert_true(acpi_init(&ai, NULL, 0, NULL));
	assert_no_errors();
	assert_string_equal(ai.rsdp_source, "bios-rom");
	assert_int_equal(ai.rsdp_phys, 0xe0000);
	assert_string_equal(ai.oem_id, "FIRECK");
	assert_true(ai.root_is_xsdt);
	assert_int_equal(ai.root_phys, FC_XSDT);

	assert_int_equal(ai.ntables, 3);
	assert_string_equal(ai.tables[0].sig, "FACP");
	assert_int_equal(ai.tables[0].phys, FC_FACP);
	assert_int_equal(ai.tables[0].length, 276);
	assert_int_equal(ai.tables[0].revision, 6);
	assert_string_equal(ai.tables[1].sig, "APIC");
	assert_int_equal(ai.tables[1].length, 72);
	assert_string_equal(ai.tables[2].sig, "MCFG");
	for (unsigned i = 0; i < 3; i++)
		assert_true(ai.tables[i].checksum_ok);

	/* MADT: 2 enabled xAPIC CPUs, one I/O APIC, no 8259s. */
	assert_true(ai.have_madt);
	assert_int_equal(ai.madt_revision, 6);
	assert_int_equal(ai.lapic_addr, 0xfee00000);
	assert_int_equal(ai.madt_flags, 0);
	assert_int_equal(ai.ncpus, 2);
	assert_int_equal(acpi_enabled_cpus(&ai), 2);
	assert_int_equal(ai.ncpus_ignored, 0);
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(ai.cpus[i].apic_id, i);
		assert_int_equal(ai.cpus[i].uid, i);
		assert_int_equal(ai.cpus[i].type, 0);
		assert_int_equal(ai.cpus[i].flags, ACPI_MADT_ENABLED);
	}
	assert_int_equal(ai.nioapics, 1);
	assert_int_equal(ai.ioapics[0].id, 0);
	assert_int_equal(ai.ioapics[0].addr, 0xfec00000);
	assert_int_equal(ai.ioapics[0].gsi_base, 0);

	/* FADT: hardware-reduced, so no PM timer. */
	assert_true(ai.have_fadt);
	assert_int_equal(ai.fadt_revision, 6);
	assert_true(ai.hw_reduced);
	assert_int_equal(ai.pm_tmr_port, 0);
	assert_false(ai.pm_tmr_32bit);
	assert_false(ai.have_hpet);
	check_invariants();

	/* The same tables handed over in a multiboot2 tag 15. */
	assert_true(acpi_init(&ai, r, sizeof(r), "multiboot2-tag15"));
	assert_no_errors();
	assert_int_equal(ai.rsdp_phys, 0);
	assert_int_equal(ai.ncpus, 2);
	assert_true(ai.hw_reduced);

	/* Any single flipped bit in the real MADT is caught by the checksum. */
	for (size_t i = 0; i < apic.len * 8; i += 7) {
		apic.b[i / 8] ^= (uint8_t)(1u << (i % 8));
		mem_put(FC_APIC, apic.b, apic.len);
		assert_true(acpi_init(&ai, r, sizeof(r), "multiboot2-tag15"));
		assert_false(ai.have_madt && ai.ncpus == 2 && acpi_checksum_ok(apic.b, apic.len));
		if (i / 8 >= 8)	/* past Length: reported as a checksum error */
			assert_error("MADT at 0xa0dab: checksum mismatch");
		check_invariants();
		apic.b[i / 8] ^= (uint8_t)(1u << (i % 8));
	}
	blob_free(&x);
	blob_free(&apic);
	blob_free(&facp);
	blob_free(&mcfg);
}

static void test_max_tables_and_error_saturation(void **state)
{
	(void)state;
	const unsigned n = ACPI_MAX_TABLES + 6;
	uint64_t addrs[ACPI_MAX_TABLES + 6];

	sys_standard();
	for (unsigned i = 0; i < n; i++) {
		struct blob s = sdt_begin("SSDT", 2);

		blob_int(&s, i, 4);
		sdt_finish(&s);
		addrs[i] = SYS_EXTRA + 0x40 * i;
		put_blob(addrs[i], &s);
		blob_free(&s);
	}
	addrs[n - 1] = SYS_MADT;	/* parsed though not recorded */
	struct blob x = make_root("XSDT", addrs, n);

	put_blob(SYS_XSDT, &x);
	uint8_t r[36];

	make_rsdp(r, 2, 0, SYS_XSDT, "MANYTB");
	assert_true(acpi_init(&ai, r, 36, "multiboot2-tag15"));
	assert_int_equal(ai.ntables, ACPI_MAX_TABLES);
	assert_string_equal(ai.tables[63].sig, "SSDT");
	assert_true(ai.have_madt);
	assert_int_equal(ai.nerrors, 1);
	assert_error("acpi: XSDT lists 6 tables beyond the 64 recorded");
	blob_free(&x);

	/* 30 unreadable entries: 16 error lines, the last one saying so. */
	for (unsigned i = 0; i < 30; i++)
		addrs[i] = 0x200000000ull + 0x1000 * i;
	x = make_root("XSDT", addrs, 30);
	put_blob(SYS_XSDT, &x);
	assert_true(acpi_init(&ai, r, 36, "multiboot2-tag15"));
	assert_int_equal(ai.nerrors, ACPI_MAX_ERRORS);
	assert_int_equal(ai.ntables, 30);
	assert_string_equal(ai.errors[0], "acpi: table at 0x200000000: header not readable, ignored");
	assert_string_equal(ai.errors[ACPI_MAX_ERRORS - 1],
			    "acpi: too many errors, later ones not recorded");
	check_invariants();
	blob_free(&x);
}

static void test_root_partial_entry_and_duplicates(void **state)
{
	(void)state;
	sys_standard();
	/* A second MADT (with more CPUs) after the first: ignored. */
	struct blob m2 = madt_begin(0xfee00000, 0, 5);

	for (unsigned i = 0; i < 8; i++)
		madt_lapic(&m2, (uint8_t)i, (uint8_t)(i + 16), 1);
	sdt_finish(&m2);
	put_blob(SYS_EXTRA, &m2);
	uint64_t addrs[4] = { SYS_MADT, SYS_FADT, SYS_HPET, SYS_EXTRA };
	struct blob x = make_root("XSDT", addrs, 4);

	/* Length with 4 stray bytes: a partial entry. */
	blob_int(&x, 0x12345678, 4);
	sdt_finish(&x);
	put_blob(SYS_XSDT, &x);
	uint8_t r[36];

	make_rsdp(r, 2, 0, SYS_XSDT, "DUPLIC");
	assert_true(acpi_init(&ai, r, 36, "multiboot2-tag15"));
	assert_int_equal(ai.ncpus, 4);
	assert_int_equal(ai.ntables, 4);
	assert_error("acpi: another MADT at 0x7ffe4000, ignored");
	assert_true(ai.madt_invalid);	/* two CPU lists: smp.online fails */
	assert_error("XSDT length 72 leaves a partial entry");
	assert_int_equal(ai.nerrors, 2);

	/* First MADT has a bad checksum: the second one is used. */
	mem_put(SYS_MADT + 40, (uint8_t[]){ 0x77 }, 1);
	assert_true(acpi_init(&ai, r, 36, "multiboot2-tag15"));
	assert_int_equal(ai.ncpus, 8);
	assert_int_equal(ai.cpus[0].apic_id, 16);
	assert_error("MADT at 0x7ffe1000: checksum mismatch");
	check_invariants();
	blob_free(&x);
	blob_free(&m2);
}

static void test_signature_sanitised(void **state)
{
	(void)state;
	sys_standard();
	struct blob t = sdt_begin("A\nB\x01", 1);

	sdt_finish(&t);
	t.b[30] ^= 0xff;	/* bad checksum, so it gets reported */
	put_blob(SYS_EXTRA, &t);
	uint64_t addrs[1] = { SYS_EXTRA };
	struct blob x = make_root("XSDT", addrs, 1);

	put_blob(SYS_XSDT, &x);
	uint8_t r[36];

	make_rsdp(r, 2, 0, SYS_XSDT, "OE\tM\x7f\n");
	assert_true(acpi_init(&ai, r, 36, "multiboot2-tag15"));
	assert_string_equal(ai.oem_id, "OE?M??");
	assert_string_equal(ai.tables[0].sig, "A?B?");
	assert_error("acpi: A?B? at 0x7ffe4000: checksum mismatch");
	check_invariants();
	blob_free(&t);
	blob_free(&x);
}

/* Corrupt random bytes of valid images many times; whatever comes out,
 * nothing may crash or read out of bounds (ASan/UBSan), and the
 * invariants must hold.  Half the time the checksum is fixed up so that
 * the corrupted bytes reach the parsers. */
static void test_fuzz(void **state)
{
	(void)state;
	struct rng rng;
	struct blob m = small_madt(), f, h, mq;
	unsigned reached_parser = 0, rejected = 0;

	/* A richer MADT too: x2APIC entries, override. */
	mq = madt_begin(0xfee00000, 1, 5);
	for (unsigned i = 0; i < 6; i++)
		madt_lapic(&mq, (uint8_t)i, (uint8_t)i, i & 1 ? 1 : 2);
	for (unsigned i = 0; i < 6; i++)
		madt_x2apic(&mq, 0x100 + i, 1, 6 + i);
	madt_override(&mq, 0xfee00000);
	madt_ioapic(&mq, 8, 0xfec00000, 0);
	madt_iso(&mq, 0, 2, 0);
	madt_x2apic_nmi(&mq, 0xffffffff, 1);
	sdt_finish(&mq);
	f = make_fadt(276, 6, 0x608, 4, 1u << 8, 1, 0x608);
	h = make_hpet(0, 0xfed00000, 0, 0x80);

	rng_seed(&rng, 0x5eed0acb1ull);
	for (unsigned iter = 0; iter < 4000; iter++) {
		struct blob mc = { 0 }, fc = { 0 }, hc = { 0 }, xc, rc;
		const struct blob *mb = (iter & 1) ? &mq : &m;
		uint64_t addrs[3] = { SYS_FADT, SYS_MADT, SYS_HPET };

		blob_put(&mc, mb->b, mb->len);
		blob_put(&fc, f.b, f.len);
		blob_put(&hc, h.b, h.len);
		xc = make_root("XSDT", addrs, 3);
		rc = make_root("RSDT", addrs, 3);
		uint8_t rsdp[36];

		make_rsdp(rsdp, 2, (uint32_t)SYS_RSDT, SYS_XSDT, "FUZZ  ");

		struct blob *targets[5] = { &mc, &fc, &hc, &xc, &rc };
		unsigned which = (unsigned)rng_below(&rng, 6);
		unsigned nflip = 1 + (unsigned)rng_below(&rng, 8);

		for (unsigned k = 0; k < nflip; k++) {
			uint8_t *p;
			size_t len;

			if (which == 5) {
				p = rsdp;
				len = sizeof(rsdp);
			} else {
				p = targets[which]->b;
				len = targets[which]->len;
			}
			size_t at = (size_t)rng_below(&rng, len);

			/* Often hit a length byte: where the danger is. */
			if (rng_below(&rng, 4) == 0)
				at = which == 5 ? 20 + (size_t)rng_below(&rng, 4)
					       : 4 + (size_t)rng_below(&rng, 4);
			if (which == 0 && rng_below(&rng, 3) == 0 && len > 45)
				at = 44 + (size_t)rng_below(&rng, len - 44);
			p[at] = (uint8_t)rng_next(&rng);
		}
		if (rng_below(&rng, 2)) {
			if (which == 5) {
				rsdp[8] = 0;
				rsdp[8] = (uint8_t)-sum(rsdp, 20);
				rsdp[32] = 0;
				rsdp[32] = (uint8_t)-sum(rsdp, 36);
			} else {
				/* Fix the checksum over the *claimed* length
				 * when it fits, as a sloppy firmware would. */
				struct blob *t = targets[which];
				uint32_t cl = (uint32_t)t->b[4] | (uint32_t)t->b[5] << 8 |
					      (uint32_t)t->b[6] << 16 | (uint32_t)t->b[7] << 24;

				fix_checksum(t->b, cl >= 10 && cl <= t->len ? cl : t->len);
			}
		}

		mem_standard();
		put_blob(SYS_MADT, &mc);
		put_blob(SYS_FADT, &fc);
		put_blob(SYS_HPET, &hc);
		put_blob(SYS_XSDT, &xc);
		put_blob(SYS_RSDT, &rc);
		bool ok = acpi_init(&ai, rsdp, sizeof(rsdp), "multiboot2-tag15");

		check_invariants();
		if (which != 5)
			assert_true(ok);
		if (ai.have_madt)
			assert_true(ai.ncpus + ai.ncpus_ignored <= 32);
		if (ai.have_madt && which == 0)
			reached_parser++;
		else if (which == 0)
			rejected++;
		mem_reset();
		blob_free(&mc);
		blob_free(&fc);
		blob_free(&hc);
		blob_free(&xc);
		blob_free(&rc);
	}
	/* Both outcomes happened: the fuzz exercised the MADT walker. */
	assert_true(reached_parser > 100);
	assert_true(rejected > 100);

	/* Raw random bytes straight into each parser, exact-size buffers. */
	for (unsigned iter = 0; iter < 3000; iter++) {
		uint32_t len = (uint32_t)rng_below(&rng, 300);
		uint8_t *p = malloc(len ? len : 1);

		for (uint32_t i = 0; i < len; i++)
			p[i] = (uint8_t)rng_next(&rng);
		if (len > 45 && rng_below(&rng, 2)) {
			/* plausible entry lengths, so the walk gets somewhere */
			for (uint32_t off = 44; off + 1 < len; off += p[off + 1] ? p[off + 1] : 1) {
				p[off] = (uint8_t)rng_below(&rng, 11);
				p[off + 1] = (uint8_t)(2 + rng_below(&rng, 18));
			}
		}
		ai_clear();
		acpi_parse_madt(&ai, p, len);
		acpi_parse_fadt(&ai, p, len);
		acpi_parse_hpet(&ai, p, len);
		check_invariants();
		assert_true(ai.ncpus + ai.ncpus_ignored <= len / 8);
		free(p);
	}
	blob_free(&m);
	blob_free(&mq);
	blob_free(&f);
	blob_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_checksum, teardown),
		cmocka_unit_test_teardown(test_rsdp_valid, teardown),
		cmocka_unit_test_teardown(test_tag15_uses_xsdt, teardown),
		cmocka_unit_test_teardown(test_tag14_rev0_uses_rsdt, teardown),
		cmocka_unit_test_teardown(test_bad_tag_falls_back_to_scan, teardown),
		cmocka_unit_test_teardown(test_ebda_scan, teardown),
		cmocka_unit_test_teardown(test_ebda_pointer_out_of_range, teardown),
		cmocka_unit_test_teardown(test_bios_rom_scan, teardown),
		cmocka_unit_test_teardown(test_bad_rsdp_checksum_not_found, teardown),
		cmocka_unit_test_teardown(test_bad_extended_checksum, teardown),
		cmocka_unit_test_teardown(test_xsdt_bad_falls_back_to_rsdt, teardown),
		cmocka_unit_test_teardown(test_table_bad_checksum_ignored, teardown),
		cmocka_unit_test_teardown(test_table_length_short, teardown),
		cmocka_unit_test_teardown(test_table_length_huge_or_unreadable, teardown),
		cmocka_unit_test_teardown(test_madt_entry_length_zero, teardown),
		cmocka_unit_test_teardown(test_madt_entry_past_end, teardown),
		cmocka_unit_test_teardown(test_madt_truncated_entries, teardown),
		cmocka_unit_test_teardown(test_madt_longer_entries_ok, teardown),
		cmocka_unit_test_teardown(test_madt_duplicate_apic_id, teardown),
		cmocka_unit_test_teardown(test_madt_ignored_ids_and_flags, teardown),
		cmocka_unit_test_teardown(test_madt_lapic_override_and_ioapics, teardown),
		cmocka_unit_test_teardown(test_madt_isa_overrides, teardown),
		cmocka_unit_test_teardown(test_qemu_like_madt, teardown),
		cmocka_unit_test_teardown(test_more_cpus_than_max, teardown),
		cmocka_unit_test_teardown(test_fadt_timer_width, teardown),
		cmocka_unit_test_teardown(test_fadt_short, teardown),
		cmocka_unit_test_teardown(test_fadt_x_pm_tmr_unusable, teardown),
		cmocka_unit_test_teardown(test_fadt_hw_reduced, teardown),
		cmocka_unit_test_teardown(test_hpet, teardown),
		cmocka_unit_test_teardown(test_real_firecracker_tables, teardown),
		cmocka_unit_test_teardown(test_max_tables_and_error_saturation, teardown),
		cmocka_unit_test_teardown(test_root_partial_entry_and_duplicates, teardown),
		cmocka_unit_test_teardown(test_signature_sanitised, teardown),
		cmocka_unit_test_teardown(test_fuzz, teardown),
	};

	return cmocka_run_group_tests_name("acpi", tests, NULL, NULL);
}
