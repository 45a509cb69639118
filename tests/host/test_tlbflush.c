/* SPDX-License-Identifier: GPL-2.0-only */
/* Host unit tests for the operand packing in arch/x86/tlbflush.h, against
 * the manuals' definitions written out here bit by bit:
 *
 *   INVLPGB (AMD APM vol. 3, "INVLPGB"):
 *     rAX[0] VA valid, [1] PCID valid, [2] ASID valid, [3] include global,
 *     [4] final translation only, [5] include nested; rAX[63:12] the VA
 *     ECX[15:0] pages beyond the first; ECX[31] 2 MiB stride
 *     EDX[15:0] ASID; EDX[27:16] PCID (12 bits)
 *   INVPCID (SDM vol. 2A, "INVPCID"): descriptor bits 11:0 PCID, 63:12
 *     reserved (0), 127:64 linear address. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "arch/x86/tlbflush.h"

static void test_invlpgb_flag_bits(void **state)
{
	(void)state;
	assert_int_equal(INVLPGB_FLAG_VA, 1u << 0);
	assert_int_equal(INVLPGB_FLAG_PCID, 1u << 1);
	assert_int_equal(INVLPGB_FLAG_ASID, 1u << 2);
	assert_int_equal(INVLPGB_FLAG_INCLUDE_GLOBAL, 1u << 3);
	assert_int_equal(INVLPGB_FLAG_FINAL_ONLY, 1u << 4);
	assert_int_equal(INVLPGB_FLAG_INCLUDE_NESTED, 1u << 5);
}

static void test_invlpgb_one_page(void **state)
{
	struct invlpgb_ops op;

	(void)state;
	assert_true(invlpgb_pack(0, 0, 0xffffc00000003000ull, 1, false,
				 INVLPGB_FLAG_VA | INVLPGB_FLAG_ASID, &op));
	assert_int_equal(op.rax, 0xffffc00000003000ull | 0x5);
	assert_int_equal(op.ecx, 0);		/* no extra pages, 4 KiB stride */
	assert_int_equal(op.edx, 0);
}

static void test_invlpgb_range_stride_ids(void **state)
{
	struct invlpgb_ops op;

	(void)state;
	/* 512 pages at 2 MiB stride, PCID 0xabc, ASID 0x1234, global too */
	assert_true(invlpgb_pack(0x1234, 0xabc, 0x40000000ull, 512, true,
				 INVLPGB_FLAG_VA | INVLPGB_FLAG_PCID | INVLPGB_FLAG_ASID |
				 INVLPGB_FLAG_INCLUDE_GLOBAL, &op));
	assert_int_equal(op.rax, 0x40000000ull | 0xf);
	assert_int_equal(op.ecx, (1u << 31) | 511u);
	assert_int_equal(op.edx & 0xffff, 0x1234);		/* ASID in EDX[15:0] */
	assert_int_equal((op.edx >> 16) & 0xfff, 0xabc);	/* PCID in EDX[27:16] */
	assert_int_equal(op.edx >> 28, 0);
	/* the largest count: ECX[15:0] = 0xffff */
	assert_true(invlpgb_pack(0, 0, 0, INVLPGB_MAX_PAGES, false, INVLPGB_FLAG_VA, &op));
	assert_int_equal(op.ecx, 0xffffu);
}

static void test_invlpgb_rejects(void **state)
{
	struct invlpgb_ops op = { 0x77, 0x77, 0x77 };

	(void)state;
	assert_false(invlpgb_pack(0, 0, 0x1000, 0, false, 0, &op));		/* no pages */
	assert_false(invlpgb_pack(0, 0, 0x1000, INVLPGB_MAX_PAGES + 1, false, 0, &op));
	assert_false(invlpgb_pack(0, 0, 0x1001, 1, false, 0, &op));		/* flag bits in VA */
	assert_false(invlpgb_pack(0, 0, 0x1000, 1, true, 0, &op));		/* not 2 MiB aligned */
	assert_false(invlpgb_pack(0, 0x1000, 0, 1, false, 0, &op));		/* PCID > 12 bits */
	assert_false(invlpgb_pack(0x10000, 0, 0, 1, false, 0, &op));		/* ASID > 16 bits */
	assert_false(invlpgb_pack(0, 0, 0, 1, false, 1u << 6, &op));		/* undefined flag */
	assert_int_equal(op.rax, 0x77);						/* untouched */
	assert_int_equal(op.ecx, 0x77);
	assert_int_equal(op.edx, 0x77);
}

static void test_invpcid_desc(void **state)
{
	struct invpcid_desc d = { 0, 0 };

	(void)state;
	assert_int_equal(sizeof(d), 16);
	assert_int_equal(offsetof(struct invpcid_desc, addr), 8);
	assert_true(invpcid_pack(0xfff, 0xffffc00000001000ull, &d));
	assert_int_equal(d.pcid, 0xfff);			/* bits 63:12 stay zero */
	assert_int_equal(d.addr, 0xffffc00000001000ull);
	assert_false(invpcid_pack(0x1000, 0, &d));
	assert_int_equal(INVPCID_TYPE_INDIV_ADDR, 0);
	assert_int_equal(INVPCID_TYPE_SINGLE_CTXT, 1);
	assert_int_equal(INVPCID_TYPE_ALL_INCL_GLOBAL, 2);
	assert_int_equal(INVPCID_TYPE_ALL_NON_GLOBAL, 3);
	assert_int_equal(X86_CR3_PCID_NOFLUSH, 1ull << 63);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_invlpgb_flag_bits),
		cmocka_unit_test(test_invlpgb_one_page),
		cmocka_unit_test(test_invlpgb_range_stride_ids),
		cmocka_unit_test(test_invlpgb_rejects),
		cmocka_unit_test(test_invpcid_desc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
