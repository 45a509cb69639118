/* SPDX-License-Identifier: GPL-2.0-only */
/* ACPI host tests: finding the RSDP (multiboot tags, EBDA, BIOS ROM),
 * checksums and the XSDT/RSDT choice. */
#include "tests/host/test_acpi/acpi_test.h"

void test_checksum(void **state)
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

void test_rsdp_valid(void **state)
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

void test_tag15_uses_xsdt(void **state)
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

void test_tag14_rev0_uses_rsdt(void **state)
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

void test_bad_tag_falls_back_to_scan(void **state)
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

/* acpi_rsdp=ADDR (acpi_init_at): the user's RSDP comes first, wherever it
 * lies in mapped memory; a bad or unmapped one is one error line and the
 * search goes on (the loader's copy, then the BIOS area). */
void test_user_rsdp(void **state)
{
	(void)state;
	const uint64_t at = SYS_EXTRA + 0x800;	/* in the ACPI area, as under UEFI */
	uint8_t r[36], tag[36];

	sys_standard();
	make_rsdp(r, 2, (uint32_t)SYS_RSDT, SYS_XSDT, "USROEM");
	mem_put(at, r, sizeof(r));
	assert_true(acpi_init_at(&ai, at, NULL, 0, NULL));
	assert_no_errors();
	assert_string_equal(ai.rsdp_source, "acpi_rsdp=");
	assert_int_equal(ai.rsdp_phys, at);
	assert_string_equal(ai.oem_id, "USROEM");
	assert_true(ai.root_is_xsdt);
	check_standard_parsed();
	check_invariants();

	/* first, before the loader's copy and the BIOS ROM */
	mem_reset();
	sys_standard();
	mem_put(at, r, sizeof(r));
	make_rsdp(tag, 2, (uint32_t)SYS_RSDT, SYS_XSDT, "ROMOEM");
	mem_put(SYS_ROM_RSDP, tag, sizeof(tag));
	make_rsdp(tag, 2, (uint32_t)SYS_RSDT, SYS_XSDT, "TAGOEM");
	assert_true(acpi_init_at(&ai, at, tag, sizeof(tag), "multiboot2-tag15"));
	assert_no_errors();
	assert_string_equal(ai.oem_id, "USROEM");

	/* not a mapped range: refused without a read, the tag is used */
	assert_true(acpi_init_at(&ai, 0x40000000, tag, sizeof(tag), "multiboot2-tag15"));
	assert_int_equal(ai.nerrors, 1);
	assert_error("acpi: acpi_rsdp=0x40000000 is not in the memory map or the BIOS area; ignored");
	assert_string_equal(ai.rsdp_source, "multiboot2-tag15");
	assert_string_equal(ai.oem_id, "TAGOEM");
	/* an RSDP straddling the end of a mapped range is not readable either */
	assert_true(acpi_init_at(&ai, HI_BASE + HI_SIZE - 16, NULL, 0, NULL));
	assert_error("is not in the memory map or the BIOS area; ignored");
	assert_string_equal(ai.rsdp_source, "bios-rom");

	/* no RSDP there: the checks say why, the BIOS ROM scan finds one */
	assert_true(acpi_init_at(&ai, SYS_MADT, NULL, 0, NULL));
	assert_int_equal(ai.nerrors, 1);
	assert_error("acpi: acpi_rsdp=0x7ffe1000: bad signature; ignored");
	assert_string_equal(ai.rsdp_source, "bios-rom");
	assert_int_equal(ai.rsdp_phys, SYS_ROM_RSDP);
	r[8] ^= 0x40;
	mem_put(at, r, sizeof(r));
	assert_true(acpi_init_at(&ai, at, NULL, 0, NULL));
	assert_error("acpi: acpi_rsdp=0x7ffe4800: checksum mismatch; ignored");
	assert_string_equal(ai.oem_id, "ROMOEM");
	check_invariants();

	/* nothing anywhere else: the user's bad one does not count */
	mem_reset();
	sys_standard();
	mem_put(at, r, sizeof(r));
	assert_false(acpi_init_at(&ai, at, NULL, 0, NULL));
	assert_false(ai.have_rsdp);
	assert_error("acpi: no valid RSDP found");

	/* 0: not given, the same as acpi_init() */
	assert_false(acpi_init_at(&ai, 0, NULL, 0, NULL));
	assert_int_equal(ai.nerrors, 1);
	assert_error("acpi: no valid RSDP found");
}

static void set_ebda_segment(uint16_t seg)
{
	uint8_t w[2];

	le_put(w, seg, 2);
	mem_put(0x40e, w, 2);
}

void test_ebda_scan(void **state)
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

void test_ebda_pointer_out_of_range(void **state)
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

void test_bios_rom_scan(void **state)
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

void test_bad_rsdp_checksum_not_found(void **state)
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

void test_bad_extended_checksum(void **state)
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

void test_xsdt_bad_falls_back_to_rsdt(void **state)
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
