/* SPDX-License-Identifier: GPL-2.0-only */
/* ACPI host tests: table length/checksum checks and MADT entry parsing. */
#include "tests/host/test_acpi/acpi_test.h"

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

void test_table_bad_checksum_ignored(void **state)
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

void test_table_length_short(void **state)
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

void test_table_length_huge_or_unreadable(void **state)
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

void test_madt_entry_length_zero(void **state)
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

void test_madt_entry_past_end(void **state)
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

void test_madt_truncated_entries(void **state)
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

void test_madt_longer_entries_ok(void **state)
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

void test_madt_duplicate_apic_id(void **state)
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

void test_madt_ignored_ids_and_flags(void **state)
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

void test_madt_lapic_override_and_ioapics(void **state)
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
void test_madt_isa_overrides(void **state)
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
void test_qemu_like_madt(void **state)
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

void test_more_cpus_than_max(void **state)
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
