/* SPDX-License-Identifier: GPL-2.0-only */
/* Host unit tests for arch/x86/smbios.c.
 *
 * Fake physical memory (fake_phys.c): the BIOS area 0xF0000-0xFFFFF, a
 * block at 0x7f000000 for tables and one at 0x7e000000 for an EFI system
 * table.  Every view is an exactly-sized heap copy, so ASan reports any
 * read past what the parser asked phys_view() for. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/x86/smbios.h"
#include "lib/physmem.h"
#include "tests/host/fake_phys.h"

#define FSEG		0xF0000ull
#define TAB		0x7f000000ull
#define EFI		0x7e000000ull

static struct smbios_info si;

/* ------------------------------------------------------- builders --- */
struct buf {
	uint8_t b[4096];
	size_t n;
};

static void add(struct buf *x, const void *p, size_t n)
{
	assert_true(x->n + n <= sizeof(x->b));
	if (n)
		memcpy(x->b + x->n, p, n);
	x->n += n;
}

/* One structure: header, `fields` (formatted area after the header), the
 * strings, the terminating NUL(s). */
static void smb(struct buf *x, uint8_t type, uint16_t handle, const uint8_t *fields,
		size_t nf, const char *const *strs, size_t ns)
{
	uint8_t h[4] = { type, (uint8_t)(4 + nf), (uint8_t)handle, (uint8_t)(handle >> 8) };

	add(x, h, 4);
	add(x, fields, nf);
	for (size_t i = 0; i < ns; i++)
		add(x, strs[i], strlen(strs[i]) + 1);
	if (!ns)
		add(x, "", 1);
	add(x, "", 1);
}

static void qemu_table(struct buf *x)
{
	static const uint8_t f0[] = { 1, 2, 0, 0, 3, 0 };
	static const char *const s0[] = { "SeaBIOS", "1.16.3", "04/01/2014" };
	uint8_t f1[23] = { 1, 2, 0, 3 };
	static const char *const s1[] = { "QEMU", "Standard PC (i440FX + PIIX, 1996)", "S123" };
	static const uint8_t f2[] = { 1, 2, 0, 0 };
	static const char *const s2[] = { "Lab", "Board \"X\"  " };

	memset(x, 0, sizeof(*x));
	smb(x, 0, 0, f0, sizeof(f0), s0, 3);
	smb(x, 1, 0x100, f1, sizeof(f1), s1, 3);
	smb(x, 2, 0x200, f2, sizeof(f2), s2, 2);
	smb(x, 127, 0x7f00, NULL, 0, NULL, 0);
}

static void fix_sum(uint8_t *p, size_t n, size_t at)
{
	uint8_t s = 0;

	p[at] = 0;
	for (size_t i = 0; i < n; i++)
		s = (uint8_t)(s + p[i]);
	p[at] = (uint8_t)-s;
}

static void ep3(uint8_t ep[24], uint64_t addr, uint32_t tlen)
{
	memset(ep, 0, 24);
	memcpy(ep, "_SM3_", 5);
	ep[6] = 0x18, ep[7] = 3, ep[8] = 2, ep[10] = 1;
	memcpy(ep + 12, &tlen, 4);
	memcpy(ep + 16, &addr, 8);
	fix_sum(ep, 24, 5);
}

static void ep2(uint8_t ep[31], uint32_t addr, uint16_t tlen)
{
	memset(ep, 0, 31);
	memcpy(ep, "_SM_", 4);
	ep[5] = 0x1f, ep[6] = 2, ep[7] = 8;
	memcpy(ep + 16, "_DMI_", 5);
	memcpy(ep + 22, &tlen, 2);
	memcpy(ep + 24, &addr, 4);
	ep[28] = 4, ep[30] = 0x28;
	fix_sum(ep + 16, 15, 5);
	fix_sum(ep, 31, 4);
}

static int setup(void **state)
{
	(void)state;
	mem_add(FSEG, 0x10000);
	mem_add(TAB, 0x10000);
	mem_add(EFI, 0x1000);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	mem_reset();
	return 0;
}

static void check_qemu_strings(void)
{
	assert_true(si.have_bios && si.have_system && si.have_board);
	assert_string_equal(si.bios_vendor, "SeaBIOS");
	assert_string_equal(si.bios_version, "1.16.3");
	assert_string_equal(si.bios_date, "04/01/2014");
	assert_string_equal(si.sys_vendor, "QEMU");
	assert_string_equal(si.sys_product, "Standard PC (i440FX + PIIX, 1996)");
	assert_string_equal(si.sys_serial, "S123");
	assert_string_equal(si.board_vendor, "Lab");
	assert_string_equal(si.board_product, "Board \"X\"");	/* trailing blanks dropped */
}

/* --------------------------------------------------------- sources --- */
static void test_scan_v2(void **state)
{
	struct buf t;
	uint8_t ep[31];

	(void)state;
	qemu_table(&t);
	mem_put(TAB, t.b, t.n);
	ep2(ep, (uint32_t)TAB, (uint16_t)t.n);
	mem_put(FSEG + 0x5a0, ep, sizeof(ep));
	assert_true(smbios_init(&si, NULL, 0, 0, false));
	assert_string_equal(si.source, "bios-scan");
	assert_int_equal(si.ep_phys, FSEG + 0x5a0);
	assert_int_equal(si.major, 2);
	assert_int_equal(si.minor, 8);
	assert_false(si.v3);
	assert_int_equal(si.nstructs, 4);
	assert_string_equal(si.error, "");
	check_qemu_strings();
}

static void test_tag_v3_preferred(void **state)
{
	struct buf t;
	uint8_t ep[24], e2[31];

	(void)state;
	qemu_table(&t);
	mem_put(TAB, t.b, t.n);
	ep3(ep, TAB, (uint32_t)t.n + 64);	/* 3.x: a maximum; zeros after are fine */
	ep2(e2, 0x12345, 10);			/* the scan would find a bad one */
	mem_put(FSEG, e2, sizeof(e2));
	assert_true(smbios_init(&si, ep, sizeof(ep), 0, false));
	assert_string_equal(si.source, "multiboot2-tag13");
	assert_true(si.v3);
	assert_int_equal(si.major, 3);
	assert_string_equal(si.error, "");
	check_qemu_strings();
}

static void test_tag_bad_checksum_falls_back(void **state)
{
	struct buf t;
	uint8_t ep[24], e2[31];

	(void)state;
	qemu_table(&t);
	mem_put(TAB, t.b, t.n);
	ep3(ep, TAB, (uint32_t)t.n);
	ep[5]++;
	ep2(e2, (uint32_t)TAB, (uint16_t)t.n);
	mem_put(FSEG + 0x10, e2, sizeof(e2));
	assert_true(smbios_init(&si, ep, sizeof(ep), 0, false));
	assert_string_equal(si.source, "bios-scan");
	assert_string_equal(si.error, "smbios: entry point from multiboot2-tag13: checksum mismatch, ignored");
	check_qemu_strings();
}

static void put_efi64(uint64_t ep_pa, const uint8_t *guid)
{
	uint8_t st[120] = { 0 }, e[24];
	uint64_t sig = 0x5453595320494249ull, n = 3, cfg = EFI + 0x200;
	static const uint8_t other[16] = { 1, 2, 3 };

	memcpy(st, &sig, 8);
	memcpy(st + 104, &n, 8);
	memcpy(st + 112, &cfg, 8);
	mem_put(EFI, st, sizeof(st));
	for (unsigned i = 0; i < 3; i++) {
		memcpy(e, i == 1 ? guid : other, 16);
		memcpy(e + 16, &ep_pa, 8);
		mem_put(cfg + i * 24, e, 24);
	}
}

static void test_efi64_smbios3(void **state)
{
	static const uint8_t g3[16] = { 0x44, 0x15, 0xfd, 0xf2, 0x94, 0x97, 0x2c, 0x4a,
					0x99, 0x2e, 0xe5, 0xbb, 0xcf, 0x20, 0xe3, 0x94 };
	struct buf t;
	uint8_t ep[24];

	(void)state;
	qemu_table(&t);
	mem_put(TAB, t.b, t.n);
	ep3(ep, TAB, (uint32_t)t.n);
	mem_put(EFI + 0x800, ep, sizeof(ep));
	put_efi64(EFI + 0x800, g3);
	assert_true(smbios_init(&si, NULL, 0, EFI, true));
	assert_string_equal(si.source, "efi-smbios3");
	check_qemu_strings();
}

static void test_efi64_smbios2(void **state)
{
	static const uint8_t g2[16] = { 0x31, 0x2d, 0x9d, 0xeb, 0x88, 0x2d, 0xd3, 0x11,
					0x9a, 0x16, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d };
	struct buf t;
	uint8_t ep[31];

	(void)state;
	qemu_table(&t);
	mem_put(TAB, t.b, t.n);
	ep2(ep, (uint32_t)TAB, (uint16_t)t.n);
	mem_put(EFI + 0x800, ep, sizeof(ep));
	put_efi64(EFI + 0x800, g2);
	assert_true(smbios_init(&si, NULL, 0, EFI, true));
	assert_string_equal(si.source, "efi-smbios");
	check_qemu_strings();
}

static void test_efi_bad_signature(void **state)
{
	(void)state;
	assert_false(smbios_init(&si, NULL, 0, EFI, true));
	assert_string_equal(si.error, "smbios: EFI system table at 0x7e000000 has a bad signature");
	assert_string_equal(si.why, "no valid entry point in the loader's tag, the EFI table or 0xF0000-0xFFFFF");
}

static void test_none(void **state)
{
	(void)state;
	assert_false(smbios_init(&si, NULL, 0, 0, false));
	assert_false(si.found);
	assert_string_equal(si.why, "no entry point in 0xF0000-0xFFFFF");
	assert_string_equal(si.error, "");
	/* no BIOS area at all */
	mem_reset();
	assert_false(smbios_init(&si, NULL, 0, 0, false));
}

/* ---------------------------------------------------- entry points --- */
static void test_ep_checks(void **state)
{
	uint8_t ep[31], e3[24];

	(void)state;
	ep2(ep, 0x1000, 100);
	assert_null(smbios_ep_check(&si, ep, sizeof(ep)));
	assert_string_equal(smbios_ep_check(&si, ep, 20), "truncated");
	ep[16] = 'X';
	fix_sum(ep, 31, 4);
	assert_string_equal(smbios_ep_check(&si, ep, sizeof(ep)), "no _DMI_ intermediate anchor");
	ep2(ep, 0x1000, 100);
	ep[22]++;		/* in the intermediate part only */
	ep[4]--;		/* outer sum still zero */
	assert_string_equal(smbios_ep_check(&si, ep, sizeof(ep)), "intermediate checksum mismatch");
	ep2(ep, 0x1000, 100);
	ep[5] = 0x10;
	assert_string_equal(smbios_ep_check(&si, ep, sizeof(ep)), "bad entry point length");
	ep[5] = 0xff;
	assert_string_equal(smbios_ep_check(&si, ep, sizeof(ep)), "bad entry point length");
	ep3(e3, 0x1000, 100);
	assert_null(smbios_ep_check(&si, e3, sizeof(e3)));
	e3[6] = 0x30;
	assert_string_equal(smbios_ep_check(&si, e3, sizeof(e3)), "truncated");
	memcpy(e3, "_XX3_", 5);
	assert_string_equal(smbios_ep_check(&si, e3, sizeof(e3)), "no _SM_ or _SM3_ anchor");
	assert_string_equal(smbios_ep_check(&si, NULL, 0), "truncated");
}

static void test_table_unreadable_or_huge(void **state)
{
	uint8_t ep[24];

	(void)state;
	ep3(ep, 0x90000000ull, 100);		/* no fake memory there */
	assert_true(smbios_init(&si, ep, sizeof(ep), 0, false));
	assert_string_equal(si.error, "smbios: structure table 0x90000000+100 not readable");
	assert_false(si.have_system);
	ep3(ep, TAB, SMBIOS_TABLE_MAX_LEN + 1);
	assert_true(smbios_init(&si, ep, sizeof(ep), 0, false));
	assert_string_equal(si.error, "smbios: structure table length 1048577 (limit 1048576), not read");
}

/* ------------------------------------------------------------ walk --- */
static void test_walk_length_past_table(void **state)
{
	struct buf t;

	(void)state;
	qemu_table(&t);
	/* the type 1 structure's length runs past the table */
	size_t off = 0;

	while (t.b[off] != 1) {		/* skip type 0: header+fields, strings, NUL */
		off += t.b[off + 1];
		while (t.b[off] || t.b[off + 1])
			off++;
		off += 2;
	}
	t.b[off + 1] = 0xff;
	memset(&si, 0, sizeof(si));
	assert_false(smbios_walk(&si, t.b, (uint32_t)t.n, false));
	assert_true(si.have_bios);
	assert_false(si.have_system);
	assert_non_null(strstr(si.error, "structure type 1 handle 0x100 at table offset"));
	assert_non_null(strstr(si.error, "has length 255"));
	/* length < 4 would never advance */
	memset(&si, 0, sizeof(si));
	t.b[off + 1] = 2;
	assert_false(smbios_walk(&si, t.b, (uint32_t)t.n, false));
	assert_non_null(strstr(si.error, "has length 2"));
}

static void test_walk_no_double_nul(void **state)
{
	uint8_t t[] = { 1, 8, 0, 1, 1, 2, 0, 3, 'Q', 'E', 'M', 'U', 0, 'X' };

	(void)state;
	memset(&si, 0, sizeof(si));
	assert_false(smbios_walk(&si, t, sizeof(t), false));
	assert_string_equal(si.error, "smbios: structure type 1 handle 0x100 at table offset 0: string set runs past the table (14 bytes), walk stopped");
	assert_false(si.have_system);
	/* a structure with no room for its string set at all */
	memset(&si, 0, sizeof(si));
	assert_false(smbios_walk(&si, t, 8, false));
}

static void test_walk_bad_string_index_and_sanitize(void **state)
{
	struct buf x;
	uint8_t f1[4] = { 1, 9, 0, 2 };
	static const char *const s1[] = { "Ven\x01\xff\n", "SER" };

	(void)state;
	memset(&x, 0, sizeof(x));
	memset(&si, 0, sizeof(si));
	smb(&x, 1, 1, f1, sizeof(f1), s1, 2);
	assert_true(smbios_walk(&si, x.b, (uint32_t)x.n, false));
	assert_true(si.have_system);
	assert_string_equal(si.sys_vendor, "Ven???");
	assert_string_equal(si.sys_product, "");
	assert_string_equal(si.sys_serial, "SER");
	assert_string_equal(si.error, "smbios: structure type 1 handle 0x1: system product is string 9, past the structure's strings");
}

static void test_walk_long_string_bounded(void **state)
{
	struct buf x;
	char longs[300];
	uint8_t f1[4] = { 1, 0, 0, 0 };
	const char *s1[] = { longs };

	(void)state;
	memset(longs, 'A', sizeof(longs) - 1);
	longs[sizeof(longs) - 1] = 0;
	memset(&x, 0, sizeof(x));
	memset(&si, 0, sizeof(si));
	smb(&x, 1, 1, f1, sizeof(f1), s1, 1);
	assert_true(smbios_walk(&si, x.b, (uint32_t)x.n, false));
	assert_int_equal(strlen(si.sys_vendor), SMBIOS_STR_MAX - 1);
}

static void test_walk_short_structures_and_stray(void **state)
{
	/* a 2.0-era type 1 of 8 bytes: no serial field beyond */
	uint8_t t[] = { 1, 6, 0, 0, 1, 0, 'V', 0, 0, 0xaa };

	(void)state;
	memset(&si, 0, sizeof(si));
	assert_false(smbios_walk(&si, t, sizeof(t), false));
	assert_true(si.have_system);
	assert_string_equal(si.sys_vendor, "V");
	assert_string_equal(si.error, "smbios: 1 stray byte(s) at table offset 9");
	memset(&si, 0, sizeof(si));
	assert_true(smbios_walk(&si, t, sizeof(t), true));	/* 3.x: a maximum */
}

static void test_walk_struct_cap(void **state)
{
	static uint8_t t[(SMBIOS_MAX_STRUCTS + 10) * 6];

	(void)state;
	for (size_t i = 0; i < SMBIOS_MAX_STRUCTS + 10; i++) {
		uint8_t s[6] = { 200, 4, (uint8_t)i, (uint8_t)(i >> 8), 0, 0 };

		memcpy(t + i * 6, s, 6);
	}
	memset(&si, 0, sizeof(si));
	assert_false(smbios_walk(&si, t, sizeof(t), false));
	assert_int_equal(si.nstructs, SMBIOS_MAX_STRUCTS);
	assert_string_equal(si.error, "smbios: more than 4096 structures, walk stopped");
}

static void test_quote(void **state)
{
	char b[16];

	(void)state;
	smbios_quote(b, sizeof(b), "a\"b\\c");
	assert_string_equal(b, "\"a\\\"b\\\\c\"");
	smbios_quote(b, sizeof(b), "");
	assert_string_equal(b, "\"\"");
	smbios_quote(b, sizeof(b), "0123456789abcdefghij");
	assert_string_equal(b, "\"0123456789ab\"");
	smbios_quote(b, 6, "\\\\\\");
	assert_string_equal(b, "\"\\\\\"");
}

/* Random bytes as a table and as the BIOS area: no crash, no overread
 * (ASan), strings printable. */
static void test_fuzz(void **state)
{
	static uint8_t t[2048];
	uint32_t x = 12345;

	(void)state;
	for (int it = 0; it < 3000; it++) {
		size_t n = 1 + (size_t)(x % sizeof(t));

		for (size_t i = 0; i < n; i++) {
			x = x * 1103515245u + 12345u;
			t[i] = (uint8_t)(x >> 16);
			if (!(x & 0x300))
				t[i] = 0;
		}
		memset(&si, 0, sizeof(si));
		smbios_walk(&si, t, (uint32_t)n, it & 1);
		for (const char *c = si.sys_vendor; *c; c++)
			assert_true(*c >= 0x20 && *c < 0x7f);
		mem_views_free();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_scan_v2, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tag_v3_preferred, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tag_bad_checksum_falls_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_efi64_smbios3, setup, teardown),
		cmocka_unit_test_setup_teardown(test_efi64_smbios2, setup, teardown),
		cmocka_unit_test_setup_teardown(test_efi_bad_signature, setup, teardown),
		cmocka_unit_test_setup_teardown(test_none, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ep_checks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_unreadable_or_huge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_walk_length_past_table, setup, teardown),
		cmocka_unit_test_setup_teardown(test_walk_no_double_nul, setup, teardown),
		cmocka_unit_test_setup_teardown(test_walk_bad_string_index_and_sanitize, setup, teardown),
		cmocka_unit_test_setup_teardown(test_walk_long_string_bounded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_walk_short_structures_and_stray, setup, teardown),
		cmocka_unit_test_setup_teardown(test_walk_struct_cap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_quote, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fuzz, setup, teardown),
	};

	return cmocka_run_group_tests_name("smbios", tests, NULL, NULL);
}
