/* SPDX-License-Identifier: GPL-2.0-only */
/* Host unit tests for arch/x86/topology.c: CPUID 0x1F/0xB decoding into
 * package/core/thread, and the CPUID.1 fallback. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "arch/x86/topology.h"

struct level {
	uint32_t type, shift;
};

struct fake {
	uint32_t max_leaf;
	uint32_t x2apic_id;
	struct level b[4], f[4];	/* leaf 0xB / 0x1F sub-leaves */
	unsigned nb, nf;
	uint32_t l1_ebx, l1_edx;
};

static struct cpuid_regs fake_cpuid(uint32_t leaf, uint32_t sub, void *ctx)
{
	struct fake *f = ctx;
	struct cpuid_regs r = { 0, 0, 0, 0 };

	assert_true(leaf <= f->max_leaf);	/* never above the max leaf */
	if (leaf == 0) {
		r.eax = f->max_leaf;
	} else if (leaf == 1) {
		r.ebx = f->l1_ebx;
		r.edx = f->l1_edx;
	} else if (leaf == 0xb || leaf == 0x1f) {
		const struct level *lv = leaf == 0xb ? f->b : f->f;
		unsigned n = leaf == 0xb ? f->nb : f->nf;

		r.ecx = sub & 0xff;
		r.edx = f->x2apic_id;
		if (sub < n) {
			r.eax = lv[sub].shift;
			r.ebx = 1;
			r.ecx |= lv[sub].type << 8;
		}
	}
	return r;
}

static void test_leaf_b_smt_core(void **state)
{
	(void)state;
	/* 2 threads per core, 16 cores per package: shifts 1 and 5. */
	struct fake f = { .max_leaf = 0xb, .x2apic_id = (3u << 5) | (9u << 1) | 1,
			  .b = { { 1, 1 }, { 2, 5 } }, .nb = 2 };
	struct cpu_topo t;

	topo_decode(&t, fake_cpuid, &f);
	assert_int_equal(t.leaf, 0xb);
	assert_int_equal(t.x2apic_id, f.x2apic_id);
	assert_int_equal(t.thread, 1);
	assert_int_equal(t.core, 9);
	assert_int_equal(t.package, 3);
	assert_int_equal(t.smt_shift, 1);
	assert_int_equal(t.pkg_shift, 5);
}

static void test_leaf_1f_preferred_with_die(void **state)
{
	(void)state;
	/* 0x1F adds a die level: package shift is the last level's (7), not
	 * leaf 0xB's core shift (5). */
	struct fake f = { .max_leaf = 0x1f, .x2apic_id = (2u << 7) | (1u << 5) | (4u << 1),
			  .b = { { 1, 1 }, { 2, 5 } }, .nb = 2,
			  .f = { { 1, 1 }, { 2, 5 }, { 5, 7 } }, .nf = 3 };
	struct cpu_topo t;

	topo_decode(&t, fake_cpuid, &f);
	assert_int_equal(t.leaf, 0x1f);
	assert_int_equal(t.pkg_shift, 7);
	assert_int_equal(t.package, 2);
	assert_int_equal(t.thread, 0);
	/* core counts everything between SMT and package: die 1, core 4 */
	assert_int_equal(t.core, (1u << 4) | 4);
}

static void test_x2apic_id_above_255(void **state)
{
	(void)state;
	struct fake f = { .max_leaf = 0xb, .x2apic_id = 287, .b = { { 1, 0 }, { 2, 9 } }, .nb = 2 };
	struct cpu_topo t;

	topo_decode(&t, fake_cpuid, &f);
	assert_int_equal(t.x2apic_id, 287);
	assert_int_equal(t.core, 287);
	assert_int_equal(t.package, 0);
	assert_int_equal(t.thread, 0);
}

static void test_leaf_1f_empty_falls_back_to_b(void **state)
{
	(void)state;
	struct fake f = { .max_leaf = 0x1f, .x2apic_id = 5, .b = { { 1, 1 }, { 2, 3 } }, .nb = 2,
			  .nf = 0 };
	struct cpu_topo t;

	topo_decode(&t, fake_cpuid, &f);
	assert_int_equal(t.leaf, 0xb);
	assert_int_equal(t.package, 0);
	assert_int_equal(t.core, 2);
	assert_int_equal(t.thread, 1);
}

static void test_fallback_cpuid1(void **state)
{
	(void)state;
	/* No leaf 0xB: CPUID.1 says 8 logical per package (HTT set), initial
	 * APIC ID 13 -> package 1. */
	struct fake f = { .max_leaf = 7, .l1_ebx = (13u << 24) | (8u << 16),
			  .l1_edx = 1u << 28 };
	struct cpu_topo t;

	topo_decode(&t, fake_cpuid, &f);
	assert_int_equal(t.leaf, 1);
	assert_int_equal(t.x2apic_id, 13);
	assert_int_equal(t.pkg_shift, 3);
	assert_int_equal(t.package, 1);
	assert_int_equal(t.core, 5);
	/* without HTT the count field is not valid: one CPU per package */
	f.l1_edx = 0;
	topo_decode(&t, fake_cpuid, &f);
	assert_int_equal(t.pkg_shift, 0);
	assert_int_equal(t.package, 13);
}

static void test_bad_shifts_clamped(void **state)
{
	(void)state;
	/* A broken leaf with an SMT shift above the package shift must not
	 * produce a negative width (UB) or garbage. */
	struct fake f = { .max_leaf = 0xb, .x2apic_id = 0xffffffffu,
			  .b = { { 1, 6 }, { 2, 4 } }, .nb = 2 };
	struct cpu_topo t;

	topo_decode(&t, fake_cpuid, &f);
	assert_true(t.smt_shift <= t.pkg_shift);
	assert_int_equal(t.core, 0);
	assert_int_equal(t.package, 0xffffffffu >> 4);
	/* shift 31: still defined */
	struct fake g = { .max_leaf = 0xb, .x2apic_id = 0x80000001u, .b = { { 2, 31 } }, .nb = 1 };

	topo_decode(&t, fake_cpuid, &g);
	assert_int_equal(t.package, 1);
	assert_int_equal(t.core, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_leaf_b_smt_core),
		cmocka_unit_test(test_leaf_1f_preferred_with_die),
		cmocka_unit_test(test_x2apic_id_above_255),
		cmocka_unit_test(test_leaf_1f_empty_falls_back_to_b),
		cmocka_unit_test(test_fallback_cpuid1),
		cmocka_unit_test(test_bad_shifts_clamped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
