/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the parts of the ACPI host tests (tests/host/test_acpi.c has
 * main()): fake memory layout, table builders, assertions, the standard
 * system and the test cases. */
#ifndef RINGLAB_TESTS_HOST_TEST_ACPI_ACPI_TEST_H
#define RINGLAB_TESTS_HOST_TEST_ACPI_ACPI_TEST_H

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

/* --------------------------------------------------- table builders --- */
struct blob {
	uint8_t *b;
	size_t len, cap;
};

#define X_NONE 0xff	/* make_fadt: leave X_PM_TMR_BLK zero */

/* Parse from an exact-size heap copy so that ASan catches over-reads. */
typedef void (*parse_fn)(struct acpi_info *, const void *, uint32_t);

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

/* ------------------------------------------------ a standard system --- */
/* MADT, FADT and HPET at 0x7ffe1000..., RSDT and XSDT listing them. */
#define SYS_RSDT	0x7ffe0000ull
#define SYS_XSDT	0x7ffe0100ull
#define SYS_MADT	0x7ffe1000ull
#define SYS_FADT	0x7ffe2000ull
#define SYS_HPET	0x7ffe3000ull
#define SYS_EXTRA	0x7ffe4000ull
#define SYS_ROM_RSDP	0xf5a30ull

/* builders.c */
void mem_standard(void);
extern struct acpi_info ai;
void blob_put(struct blob *x, const void *p, size_t n);
void le_put(uint8_t *p, uint64_t v, int n);
void blob_int(struct blob *x, uint64_t v, int n);
void blob_free(struct blob *x);
uint8_t sum(const uint8_t *p, size_t n);
struct blob sdt_begin(const char *sig, uint8_t rev);
void sdt_finish(struct blob *x);
void fix_checksum(uint8_t *t, size_t len);
struct blob madt_begin(uint32_t lapic, uint32_t flags, uint8_t rev);
void madt_lapic(struct blob *x, uint8_t uid, uint8_t id, uint32_t flags);
void madt_x2apic(struct blob *x, uint32_t id, uint32_t flags, uint32_t uid);
void madt_ioapic(struct blob *x, uint8_t id, uint32_t addr, uint32_t gsi);
void madt_override(struct blob *x, uint64_t addr);
void madt_iso(struct blob *x, uint8_t irq, uint32_t gsi, uint16_t flags);
void madt_lapic_nmi(struct blob *x, uint8_t uid, uint16_t flags, uint8_t lint);
void madt_x2apic_nmi(struct blob *x, uint32_t uid, uint8_t lint);
void raw(struct blob *x, const uint8_t *p, size_t n);
struct blob make_fadt(uint32_t len, uint8_t rev, uint32_t pm_blk,
		      uint8_t pm_len, uint32_t flags, uint8_t x_space, uint64_t x_addr);
struct blob make_hpet(uint8_t space, uint64_t addr, uint8_t number, uint16_t min_tick);
struct blob make_root(const char *sig, const uint64_t *addrs, unsigned n);
void make_rsdp(uint8_t out[36], uint8_t rev, uint32_t rsdt, uint64_t xsdt,
	       const char *oem);
void put_blob(uint64_t pa, const struct blob *x);
void parse_exact(parse_fn fn, const struct blob *x);
void ai_clear(void);
bool has_error(const char *needle);
void check_invariants(void);
struct blob small_madt(void);
void sys_install(const struct blob *madt, const struct blob *fadt,
		 const struct blob *hpet);
void sys_standard(void);
void check_standard_parsed(void);

/* the cases, in the order main() runs them */
void test_checksum(void **state);
void test_rsdp_valid(void **state);
void test_tag15_uses_xsdt(void **state);
void test_tag14_rev0_uses_rsdt(void **state);
void test_bad_tag_falls_back_to_scan(void **state);
void test_user_rsdp(void **state);
void test_ebda_scan(void **state);
void test_ebda_pointer_out_of_range(void **state);
void test_bios_rom_scan(void **state);
void test_bad_rsdp_checksum_not_found(void **state);
void test_bad_extended_checksum(void **state);
void test_xsdt_bad_falls_back_to_rsdt(void **state);
void test_table_bad_checksum_ignored(void **state);
void test_table_length_short(void **state);
void test_table_length_huge_or_unreadable(void **state);
void test_madt_entry_length_zero(void **state);
void test_madt_entry_past_end(void **state);
void test_madt_truncated_entries(void **state);
void test_madt_longer_entries_ok(void **state);
void test_madt_duplicate_apic_id(void **state);
void test_madt_ignored_ids_and_flags(void **state);
void test_madt_lapic_override_and_ioapics(void **state);
void test_madt_isa_overrides(void **state);
void test_qemu_like_madt(void **state);
void test_more_cpus_than_max(void **state);
void test_fadt_timer_width(void **state);
void test_fadt_short(void **state);
void test_fadt_x_pm_tmr_unusable(void **state);
void test_fadt_hw_reduced(void **state);
void test_hpet(void **state);
void test_real_firecracker_tables(void **state);
void test_max_tables_and_error_saturation(void **state);
void test_root_partial_entry_and_duplicates(void **state);
void test_signature_sanitised(void **state);
void test_fuzz(void **state);

#endif
