/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the parts of the CPUID decoder's host tests
 * (tests/host/test_cpuinfo.c has main()): the fake CPUID, the feature-bool
 * helpers and the test cases. */
#ifndef RINGLAB_TESTS_HOST_TEST_CPUINFO_CPUINFO_TEST_H
#define RINGLAB_TESTS_HOST_TEST_CPUINFO_CPUINFO_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/x86/cpuenv.h"
#include "arch/x86/cpuinfo.h"

/* ------------------------------------------------------- fake CPUID --- */
struct leaf {
	uint32_t leaf, sub;
	struct cpuid_regs r;
};

#define MAX_LEAVES 128
#define MAX_CALLS 128

struct cpu {
	struct leaf t[MAX_LEAVES];
	unsigned n;
	struct { uint32_t leaf, sub; } calls[MAX_CALLS];
	unsigned ncalls;
};

enum reg { EAX, EBX, ECX, EDX };

/* fake_cpu.c */
struct cpuid_regs fake_cpuid(uint32_t leaf, uint32_t sub, void *ctx);
void set_leaf(struct cpu *c, uint32_t leaf, uint32_t sub, uint32_t a,
	      uint32_t b, uint32_t cx, uint32_t d);
uint32_t *reg_ptr(struct cpu *c, uint32_t leaf, uint32_t sub, enum reg r);
void cpu_load(struct cpu *c, const struct leaf *t, size_t n);
bool was_asked(const struct cpu *c, uint32_t leaf);
extern struct cpuinfo ci;
void decode(struct cpu *c);
void cpu_minimal(struct cpu *c, const char vendor[12], uint32_t max, uint32_t max_ext);
size_t bool_offset(const char *name);
bool *field_ptr(struct cpuinfo *x, const char *name);
const char *on_list(const struct cpuinfo *x);
void cpu_blank(struct cpu *c, const char *vendor);

/* the cases, in the order main() runs them */
void test_dump_intel_i7_6700k(void **state);
void test_dump_intel_pentium4(void **state);
void test_dump_amd_ryzen_1800x(void **state);
void test_dump_amd_epyc_kvm(void **state);
void test_dump_hygon_7185(void **state);
void test_vendor_decode(void **state);
void test_family_model_stepping(void **state);
void test_brand_string(void **state);
void test_hypervisor(void **state);
void test_feature_table(void **state);
void test_single_bits(void **state);
void test_invlpgb_and_clzero(void **state);
void test_pmu(void **state);
void test_address_bits(void **state);
void test_max_ext_leaf_garbage(void **state);
void test_leaves_above_max_not_consulted(void **state);
void test_topology_leaves(void **state);
void test_overrides(void **state);
void test_env_classify(void **state);

#endif
