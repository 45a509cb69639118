/* SPDX-License-Identifier: GPL-2.0-only */
/* ACPI host tests: fake memory, table builders, assertions and the
 * standard system every part builds on. */
#include "tests/host/test_acpi/acpi_test.h"

void mem_standard(void)
{
	mem_add(LOW_BASE, LOW_SIZE);
	mem_add(HI_BASE, HI_SIZE);
	mem_add(TOP_BASE, TOP_SIZE);
}

struct acpi_info ai;	/* ~140 KiB: a global, not on the stack */

void blob_put(struct blob *x, const void *p, size_t n)
{
	if (x->len + n > x->cap) {
		x->cap = (x->len + n) * 2 + 64;
		x->b = realloc(x->b, x->cap);
		assert_non_null(x->b);
	}
	memcpy(x->b + x->len, p, n);
	x->len += n;
}

void le_put(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

void blob_int(struct blob *x, uint64_t v, int n)
{
	uint8_t tmp[8];

	le_put(tmp, v, n);
	blob_put(x, tmp, (size_t)n);
}

void blob_free(struct blob *x)
{
	free(x->b);
	x->b = NULL;
	x->len = x->cap = 0;
}

uint8_t sum(const uint8_t *p, size_t n)
{
	uint8_t s = 0;

	while (n--)
		s = (uint8_t)(s + *p++);
	return s;
}

struct blob sdt_begin(const char *sig, uint8_t rev)
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
void sdt_finish(struct blob *x)
{
	le_put(x->b + 4, x->len, 4);
	x->b[9] = 0;
	x->b[9] = (uint8_t)-sum(x->b, x->len);
}

void fix_checksum(uint8_t *t, size_t len)
{
	t[9] = 0;
	t[9] = (uint8_t)-sum(t, len);
}

struct blob madt_begin(uint32_t lapic, uint32_t flags, uint8_t rev)
{
	struct blob x = sdt_begin("APIC", rev);

	blob_int(&x, lapic, 4);
	blob_int(&x, flags, 4);
	return x;
}

void madt_lapic(struct blob *x, uint8_t uid, uint8_t id, uint32_t flags)
{
	uint8_t e[8] = { 0, 8, uid, id };

	le_put(e + 4, flags, 4);
	blob_put(x, e, sizeof(e));
}

void madt_x2apic(struct blob *x, uint32_t id, uint32_t flags, uint32_t uid)
{
	uint8_t e[16] = { 9, 16 };

	le_put(e + 4, id, 4);
	le_put(e + 8, flags, 4);
	le_put(e + 12, uid, 4);
	blob_put(x, e, sizeof(e));
}

void madt_ioapic(struct blob *x, uint8_t id, uint32_t addr, uint32_t gsi)
{
	uint8_t e[12] = { 1, 12, id, 0 };

	le_put(e + 4, addr, 4);
	le_put(e + 8, gsi, 4);
	blob_put(x, e, sizeof(e));
}

void madt_override(struct blob *x, uint64_t addr)
{
	uint8_t e[12] = { 5, 12 };

	le_put(e + 4, addr, 8);
	blob_put(x, e, sizeof(e));
}

void madt_iso(struct blob *x, uint8_t irq, uint32_t gsi, uint16_t flags)
{
	uint8_t e[10] = { 2, 10, 0, irq };

	le_put(e + 4, gsi, 4);
	le_put(e + 8, flags, 2);
	blob_put(x, e, sizeof(e));
}

void madt_lapic_nmi(struct blob *x, uint8_t uid, uint16_t flags, uint8_t lint)
{
	uint8_t e[6] = { 4, 6, uid };

	le_put(e + 3, flags, 2);
	e[5] = lint;
	blob_put(x, e, sizeof(e));
}

void madt_x2apic_nmi(struct blob *x, uint32_t uid, uint8_t lint)
{
	uint8_t e[12] = { 10, 12 };

	le_put(e + 2, 0x0005, 2);
	le_put(e + 4, uid, 4);
	e[8] = lint;
	blob_put(x, e, sizeof(e));
}

void raw(struct blob *x, const uint8_t *p, size_t n)
{
	blob_put(x, p, n);
}

/* A FADT of `len` bytes; fields past len are simply not written. */
struct blob make_fadt(uint32_t len, uint8_t rev, uint32_t pm_blk,
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

struct blob make_hpet(uint8_t space, uint64_t addr, uint8_t number,
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

struct blob make_root(const char *sig, const uint64_t *addrs, unsigned n)
{
	struct blob x = sdt_begin(sig, 1);
	int esz = !strcmp(sig, "XSDT") ? 8 : 4;

	for (unsigned i = 0; i < n; i++)
		blob_int(&x, addrs[i], esz);
	sdt_finish(&x);
	return x;
}

void make_rsdp(uint8_t out[36], uint8_t rev, uint32_t rsdt,
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

void put_blob(uint64_t pa, const struct blob *x)
{
	mem_put(pa, x->b, x->len);
}

void parse_exact(parse_fn fn, const struct blob *x)
{
	uint8_t *p = malloc(x->len);

	assert_non_null(p);
	memcpy(p, x->b, x->len);
	fn(&ai, p, (uint32_t)x->len);
	free(p);
}

void ai_clear(void)
{
	memset(&ai, 0, sizeof(ai));
}

/* ----------------------------------------------------- assertions --- */
bool has_error(const char *needle)
{
	for (unsigned i = 0; i < ai.nerrors && i < ACPI_MAX_ERRORS; i++)
		if (strstr(ai.errors[i], needle))
			return true;
	return false;
}

/* What must hold whatever the input was. */
void check_invariants(void)
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

struct blob small_madt(void)
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

void sys_install(const struct blob *madt, const struct blob *fadt,
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

void sys_standard(void)
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

void check_standard_parsed(void)
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
