/* SPDX-License-Identifier: GPL-2.0-only */
/* ACPI host tests: real Firecracker tables, table and error limits, root-
 * table quirks, signatures and random input. */
#include "tests/host/test_acpi/acpi_test.h"

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
 * boot log gave; the RSDP and XSDT are rebuilt (see
 * tests/host/data/acpi/README.md). */
#define FC_XSDT	0xa0e2full
#define FC_FACP	0xa0c97ull
#define FC_APIC	0xa0dabull
#define FC_MCFG	0xa0df3ull

void test_real_firecracker_tables(void **state)
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

void test_max_tables_and_error_saturation(void **state)
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

void test_root_partial_entry_and_duplicates(void **state)
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

void test_signature_sanitised(void **state)
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
void test_fuzz(void **state)
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
