/* SPDX-License-Identifier: GPL-2.0-only */
/* CPUID decoder host tests: PMU, address sizes, bad or out-of-range
 * maximum leaves, topology leaves and the environment classification. */
#include "tests/host/test_cpuinfo/cpuinfo_test.h"

void test_pmu(void **state)
{
	(void)state;
	static struct cpu c;
	static const struct {
		uint32_t eax, edx;
		uint8_t ver, gp, width, fixed;
	} cases[] = {
		{ 0x07300404, 0x00000603, 4, 4, 48, 3 },	/* Skylake */
		{ 0x07300403, 0x00000603, 3, 4, 48, 3 },
		{ 0x07300802, 0x00000003, 2, 8, 48, 3 },
		{ 0x07280201, 0x00000603, 1, 2, 40, 0 },	/* v1: EDX not defined */
		{ 0x00000000, 0xffffffff, 0, 0, 0, 0 },
		{ 0xffffff05, 0xffffffff, 5, 0xff, 0xff, 31 },	/* EDX[4:0] only */
		{ 0x00300405, 0x00008020, 5, 4, 48, 0 },	/* EDX[4:0] = 0 */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cpu_minimal(&c, "GenuineIntel", 0xa, 0);
		set_leaf(&c, 0xa, 0, cases[i].eax, 0, 0, cases[i].edx);
		decode(&c);
		assert_int_equal(ci.pmu_version, cases[i].ver);
		assert_int_equal(ci.pmu_gp_counters, cases[i].gp);
		assert_int_equal(ci.pmu_gp_width, cases[i].width);
		assert_int_equal(ci.pmu_fixed_counters, cases[i].fixed);
	}
	/* max_leaf 9: leaf 0xA is not asked */
	cpu_minimal(&c, "GenuineIntel", 9, 0);
	set_leaf(&c, 0xa, 0, 0x07300404, 0, 0, 0x603);
	decode(&c);
	assert_int_equal(ci.pmu_version, 0);
	assert_int_equal(ci.pmu_fixed_counters, 0);
	assert_false(was_asked(&c, 0xa));
}

void test_address_bits(void **state)
{
	(void)state;
	static struct cpu c;
	static const struct {
		uint32_t eax;
		uint8_t phys, virt;
	} cases[] = {
		{ 0x00003027, 39, 48 },
		{ 0x00003024, 36, 48 },
		{ 0x00003934, 52, 57 },		/* LA57 part */
		{ 0x00303030, 48, 48 },		/* guest phys bits in EAX[23:16] ignored */
		{ 0x00000000, 0, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cpu_minimal(&c, "GenuineIntel", 1, 0x80000008);
		set_leaf(&c, 0x80000008, 0, cases[i].eax, 0, 0, 0);
		decode(&c);
		assert_int_equal(ci.phys_bits, cases[i].phys);
		assert_int_equal(ci.virt_bits, cases[i].virt);
	}
}

void test_max_ext_leaf_garbage(void **state)
{
	(void)state;
	static struct cpu c;
	const uint32_t bad[] = { 0, 0x1234, 0x7fffffff, 0x40000000, 0x00000016, 0x8fffffff,
				 0x80010008, 0xffffffff };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		/* every extended leaf filled: none may be asked */
		cpu_blank(&c, "GenuineIntel");
		set_leaf(&c, 0x80000000, 0, bad[i], 0, 0, 0);
		set_leaf(&c, 0x80000001, 0, 0, 0, 0xffffffff, 0xffffffff);
		set_leaf(&c, 0x80000008, 0, 0x3027, 0xffffffff, 0, 0xffff);
		set_leaf(&c, 0x80000007, 0, 0, 0, 0, 0xffffffff);
		set_leaf(&c, 0x80000021, 0, 0xffffffff, 0, 0, 0);
		decode(&c);
		assert_int_equal(ci.max_ext_leaf, 0);
		assert_false(ci.nx || ci.gbpages || ci.rdtscp || ci.invariant_tsc ||
			     ci.invlpgb || ci.clzero || ci.lfence_serializing);
		assert_int_equal(ci.phys_bits, 0);
		assert_string_equal(ci.brand, "");
		for (unsigned k = 0; k < c.ncalls && k < MAX_CALLS; k++)
			assert_true(c.calls[k].leaf < 0x80000001);
	}
	/* exactly 0x80000000: valid, but no leaves above it */
	cpu_blank(&c, "GenuineIntel");
	set_leaf(&c, 0x80000000, 0, 0x80000000, 0, 0, 0);
	decode(&c);
	assert_int_equal(ci.max_ext_leaf, 0x80000000);
	assert_false(was_asked(&c, 0x80000001));
	/* 0x80000001: only that one */
	set_leaf(&c, 0x80000000, 0, 0x80000001, 0, 0, 0);
	set_leaf(&c, 0x80000001, 0, 0, 0, 0, 1u << 20);
	decode(&c);
	assert_true(ci.nx);
	assert_false(was_asked(&c, 0x80000002));
}

void test_leaves_above_max_not_consulted(void **state)
{
	(void)state;
	static struct cpu c;

	/* fill every leaf the decoder knows with all-ones, then lower the
	 * maxima step by step: the fake fails on any leaf above them */
	for (uint32_t max = 0; max <= 0x20; max++) {
		cpu_minimal(&c, "GenuineIntel", max, 0);
		for (uint32_t l = 1; l <= 0x20; l++)
			set_leaf(&c, l, 0, 0x000506e3, 0xffffffff, 0x7fffffff, 0xffffffff);
		decode(&c);
		assert_int_equal(ci.max_leaf, max);
		assert_int_equal(ci.tsc, max >= 1);
		assert_int_equal(ci.erms, max >= 7);
		assert_int_equal(ci.pmu_version != 0, max >= 0xa);
		assert_int_equal(ci.has_leaf_0b, max >= 0xb);
		assert_int_equal(ci.has_leaf_1f, max >= 0x1f);
		for (unsigned k = 0; k < c.ncalls && k < MAX_CALLS; k++) {
			assert_true(c.calls[k].leaf <= max || c.calls[k].leaf == 0x80000000);
			/* leaf 7 sub-leaf 2 (BHI_CTRL) is the one sub-leaf read */
			assert_int_equal(c.calls[k].sub, c.calls[k].leaf == 7 && c.calls[k].sub == 2 ? 2 : 0);
		}
	}
	for (uint32_t ext = 0x80000000; ext <= 0x80000022; ext++) {
		cpu_minimal(&c, "AuthenticAMD", 1, ext);
		for (uint32_t l = 0x80000001; l <= 0x80000022; l++)
			set_leaf(&c, l, 0, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff);
		decode(&c);
		assert_int_equal(ci.max_ext_leaf, ext);
		assert_int_equal(ci.nx, ext >= 0x80000001);
		assert_int_equal(ci.brand[0] != '\0', ext >= 0x80000004);
		assert_int_equal(ci.invariant_tsc, ext >= 0x80000007);
		assert_int_equal(ci.clzero, ext >= 0x80000008);
		assert_int_equal(ci.lfence_serializing, ext >= 0x80000021);
	}
}

void test_topology_leaves(void **state)
{
	(void)state;
	static struct cpu c;

	cpu_blank(&c, "GenuineIntel");
	set_leaf(&c, 0xb, 0, 1, 2, 0x100, 0);
	decode(&c);
	assert_true(ci.has_leaf_0b);
	assert_false(ci.has_leaf_1f);
	/* only EBX[15:0] (logical processors at this level) counts */
	set_leaf(&c, 0xb, 0, 1, 0xffff0000, 0x100, 0);
	decode(&c);
	assert_false(ci.has_leaf_0b);
	set_leaf(&c, 0x1f, 0, 1, 2, 0x100, 0);
	decode(&c);
	assert_true(ci.has_leaf_1f);
	/* subleaf 0 is the one looked at */
	cpu_blank(&c, "GenuineIntel");
	set_leaf(&c, 0xb, 1, 4, 8, 0x201, 0);
	set_leaf(&c, 0x1f, 1, 4, 8, 0x201, 0);
	decode(&c);
	assert_false(ci.has_leaf_0b);
	assert_false(ci.has_leaf_1f);
}

/* The environment classification (cpuenv.h): one token, never blank. */
void test_env_classify(void **state)
{
	struct cpuinfo e;
	struct cpu_env env;

	(void)state;
	memset(&e, 0, sizeof(e));
	cpu_env_classify(&e, NULL, NULL, &env);
	assert_string_equal(env.name, "bare-metal");
	assert_int_equal(env.kind, CPU_ENV_BARE_METAL);
	assert_string_equal(env.note, "");
	/* Bochs: no hypervisor bit, its BIOS's ACPI OEM ID */
	cpu_env_classify(&e, "BOCHS ", "GRUB 2.06", &env);
	assert_string_equal(env.name, "emulator:bochs");
	assert_non_null(strstr(env.note, "not a hardware result"));
	/* QEMU -kernel with the hypervisor bit hidden */
	cpu_env_classify(&e, "BOCHS ", "qemu", &env);
	assert_string_equal(env.name, "emulator:qemu");
	e.hypervisor = true;
	memcpy(e.hv_signature, "TCGTCGTCGTCG", 13);
	cpu_env_classify(&e, "BOCHS ", "qemu", &env);
	assert_string_equal(env.name, "emulator:qemu-tcg");
	assert_int_equal(env.kind, CPU_ENV_EMULATOR);
	memcpy(e.hv_signature, "KVMKVMKVM\0\0\0", 13);
	cpu_env_classify(&e, "BOCHS ", "qemu", &env);
	assert_string_equal(env.name, "hypervisor:KVMKVMKVM");
	assert_int_equal(env.kind, CPU_ENV_HYPERVISOR);
	assert_non_null(strstr(env.note, "KVMKVMKVM"));
	memcpy(e.hv_signature, "Microsoft Hv", 13);
	cpu_env_classify(&e, NULL, NULL, &env);
	assert_string_equal(env.name, "hypervisor:Microsoft_Hv");
	memcpy(e.hv_signature, "a=b;c)d,    ", 13);
	cpu_env_classify(&e, NULL, NULL, &env);
	assert_string_equal(env.name, "hypervisor:a_b_c_d");
	e.hv_signature[0] = 0;
	cpu_env_classify(&e, NULL, NULL, &env);
	assert_string_equal(env.name, "hypervisor:unnamed");
}
