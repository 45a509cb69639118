/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the parts of the multiboot information parser's host tests
 * (tests/host/test_mbi.c has main()): fake memory layout, assertions, the
 * multiboot 1 and 2 builders and the test cases. */
#ifndef RINGLAB_TESTS_HOST_TEST_MBI_MBI_TEST_H
#define RINGLAB_TESTS_HOST_TEST_MBI_MBI_TEST_H

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

struct e820 {
	uint64_t base, len;
	uint32_t type;
};
#define QEMU_NE820 qemu_ne820	/* entries in qemu_e820[] */

#define MB1_INFO	0x9500ull	/* QEMU puts the info in low memory */
#define MB1_CMD		0x9600ull
#define MB1_NAME	0x9700ull
#define MB1_MAP		0x9800ull

/* ------------------------------------------------ multiboot 2 builder --- */
struct blob {
	uint8_t *b;
	size_t len, cap;
};

#define MB2_INFO	0x10b000ull	/* 8-aligned, like GRUB's */

/* builders.c */
void mem_standard(void);
extern struct boot_info bi;
bool has_error(const char *needle);
void dump_errors(void);
bool parse(uint32_t magic, uint64_t pa);
void assert_region(unsigned i, uint64_t base, uint64_t len, uint32_t type);
const char *boot_path(void);
void le_put(uint8_t *p, uint64_t v, int n);
void put32(uint64_t pa, uint32_t v);
void put_str(uint64_t pa, const char *s);
void mb1_init(struct mb1 *m, uint32_t flags);
void mb1_set(struct mb1 *m, unsigned off, uint64_t v, int n);
uint32_t mb1_put_mmap(uint64_t pa, const struct e820 *e, unsigned n, uint32_t esz);
extern const struct e820 qemu_e820[];
extern const size_t qemu_ne820;
void mb1_qemu(struct mb1 *m, const char *cmdline);
void mb1_install(const struct mb1 *m, uint64_t pa);
void check_qemu_e820(void);
void blob_put(struct blob *x, const void *p, size_t n);
void blob_int(struct blob *x, uint64_t v, int n);
void blob_free(struct blob *x);
struct blob mb2_begin(void);
void mb2_tag(struct blob *x, uint32_t type, const void *payload, size_t n);
void mb2_string(struct blob *x, uint32_t type, const char *s);
void mb2_meminfo(struct blob *x, uint32_t lower, uint32_t upper);
void mb2_mmap(struct blob *x, const struct e820 *e, unsigned n, uint32_t esz);
void mb2_fb(struct blob *x, uint64_t addr, uint32_t pitch, uint32_t w,
	    uint32_t h, uint8_t bpp, uint8_t type);
void mb2_u64(struct blob *x, uint32_t type, uint64_t v);
void make_rsdp(uint8_t out[36], uint8_t rev, const char *oem);
void mb2_acpi_old(struct blob *x, const char *oem);
void mb2_acpi_new(struct blob *x, const char *oem);
void mb2_end(struct blob *x);
void mb2_finish(struct blob *x);
void mb2_install(const struct blob *x, uint64_t pa);
struct blob mb2_grub_bios(void);

/* the cases, in the order main() runs them */
void test_mb1_qemu_kernel(void **state);
void test_mb1_other_loaders(void **state);
void test_mb1_framebuffer(void **state);
void test_fb_colour_info(void **state);
void test_mb2_grub_bios(void **state);
void test_mb2_grub_uefi(void **state);
void test_mb2_smbios_tag(void **state);
void test_mb2_acpi_order(void **state);
void test_mb2_other_loaders(void **state);
void test_bad_pointer_and_magic(void **state);
void test_unreadable_info(void **state);
void test_mb2_alignment_and_total_size(void **state);
void test_mb2_bad_tag_sizes(void **state);
void test_mb2_end_tag(void **state);
void test_mb2_strings(void **state);
void test_mb2_short_tags(void **state);
void test_mb2_mmap_entry_size(void **state);
void test_mmap_wrapping_and_empty_entries(void **state);
void test_mmap_too_many_entries(void **state);
void test_map_looks_uefi(void **state);
void test_mb1_cmdline_pointer(void **state);
void test_mb1_loader_name(void **state);
void test_mb1_mmap_bad(void **state);
void test_meminfo_fallback(void **state);
void test_error_cap(void **state);
void test_fuzz(void **state);

#endif
