/* SPDX-License-Identifier: GPL-2.0-only */
/* CPUID decoder host tests: leaf dumps of real CPUs (Intel, AMD, Hygon, a
 * KVM guest), what they decode to, and overrides on top of one. */
#include "tests/host/test_cpuinfo/cpuinfo_test.h"

/* ------------------------------------------------------ real dumps --- */

/* VirtualBox CPU database: Intel_Core_i7_6700K.h (2015, Windows host). */
static const struct leaf dump_i7_6700k[] = {
	{ 0x00000000, 0, { 0x00000016, 0x756e6547, 0x6c65746e, 0x49656e69 } },
	{ 0x00000001, 0, { 0x000506e3, 0x02100800, 0x7ffafbbf, 0xbfebfbff } },
	{ 0x00000002, 0, { 0x76036301, 0x00f0b5ff, 0x00000000, 0x00c30000 } },
	{ 0x00000003, 0, { 0x00000000, 0x00000000, 0x00000000, 0x00000000 } },
	{ 0x00000004, 0, { 0x1c004121, 0x01c0003f, 0x0000003f, 0x00000000 } },
	{ 0x00000004, 1, { 0x1c004122, 0x01c0003f, 0x0000003f, 0x00000000 } },
	{ 0x00000004, 2, { 0x1c004143, 0x00c0003f, 0x000003ff, 0x00000000 } },
	{ 0x00000004, 3, { 0x1c03c163, 0x03c0003f, 0x00001fff, 0x00000006 } },
	{ 0x00000004, 4, { 0x00000000, 0x00000000, 0x00000000, 0x00000000 } },
	{ 0x00000005, 0, { 0x00000040, 0x00000040, 0x00000003, 0x00142120 } },
	{ 0x00000006, 0, { 0x000027f7, 0x00000002, 0x00000009, 0x00000000 } },
	{ 0x00000007, 0, { 0x00000000, 0x029c6fbf, 0x00000000, 0x00000000 } },
	{ 0x00000007, 1, { 0x00000000, 0x00000000, 0x00000000, 0x00000000 } },
	{ 0x00000008, 0, { 0x00000000, 0x00000000, 0x00000000, 0x00000000 } },
	{ 0x00000009, 0, { 0x00000000, 0x00000000, 0x00000000, 0x00000000 } },
	{ 0x0000000a, 0, { 0x07300404, 0x00000000, 0x00000000, 0x00000603 } },
	{ 0x0000000b, 0, { 0x00000001, 0x00000002, 0x00000100, 0x00000002 } },
	{ 0x0000000b, 1, { 0x00000004, 0x00000008, 0x00000201, 0x00000002 } },
	{ 0x0000000b, 2, { 0x00000000, 0x00000000, 0x00000002, 0x00000002 } },
	{ 0x0000000c, 0, { 0x00000000, 0x00000000, 0x00000000, 0x00000000 } },
	{ 0x0000000d, 0, { 0x0000001f, 0x00000440, 0x00000440, 0x00000000 } },
	{ 0x0000000d, 1, { 0x0000000f, 0x000003c0, 0x00000100, 0x00000000 } },
	{ 0x0000000d, 2, { 0x00000100, 0x00000240, 0x00000000, 0x00000000 } },
	{ 0x0000000d, 3, { 0x00000040, 0x000003c0, 0x00000000, 0x00000000 } },
	{ 0x0000000d, 4, { 0x00000040, 0x00000400, 0x00000000, 0x00000000 } },
	{ 0x0000000d, 8, { 0x00000080, 0x00000000, 0x00000001, 0x00000000 } },
	{ 0x00000014, 0, { 0x00000001, 0x0000000f, 0x00000007, 0x00000000 } },
	{ 0x00000014, 1, { 0x02490002, 0x003f3fff, 0x00000000, 0x00000000 } },
	{ 0x00000015, 0, { 0x00000002, 0x0000014e, 0x00000000, 0x00000000 } },
	{ 0x00000016, 0, { 0x00000fa0, 0x00001068, 0x00000064, 0x00000000 } },
	{ 0x80000000, 0, { 0x80000008, 0x00000000, 0x00000000, 0x00000000 } },
	{ 0x80000001, 0, { 0x00000000, 0x00000000, 0x00000121, 0x2c100800 } },
	{ 0x80000002, 0, { 0x65746e49, 0x2952286c, 0x726f4320, 0x4d542865 } },
	{ 0x80000003, 0, { 0x37692029, 0x3037362d, 0x43204b30, 0x40205550 } },
	{ 0x80000004, 0, { 0x302e3420, 0x7a484730, 0x00000000, 0x00000000 } },
	{ 0x80000005, 0, { 0x00000000, 0x00000000, 0x00000000, 0x00000000 } },
	{ 0x80000006, 0, { 0x00000000, 0x00000000, 0x01006040, 0x00000000 } },
	{ 0x80000007, 0, { 0x00000000, 0x00000000, 0x00000000, 0x00000100 } },
	{ 0x80000008, 0, { 0x00003027, 0x00000000, 0x00000000, 0x00000000 } },
};

/* VirtualBox CPU database: Intel_Pentium_4_3_00GHz.h (2013).  Family 0xF,
 * and Intel's right-justified brand string with leading blanks. */
static const struct leaf dump_p4[] = {
	{ 0x00000000, 0, { 0x00000005, 0x756e6547, 0x6c65746e, 0x49656e69 } },
	{ 0x00000001, 0, { 0x00000f43, 0x00020800, 0x0000649d, 0xbfebfbff } },
	{ 0x00000002, 0, { 0x605b5001, 0x00000000, 0x00000000, 0x007d7040 } },
	{ 0x00000003, 0, { 0x00000000, 0x00000000, 0x00000000, 0x00000000 } },
	{ 0x00000004, 0, { 0x00004121, 0x01c0003f, 0x0000001f, 0x00000000 } },
	{ 0x00000004, 1, { 0x00004143, 0x01c0103f, 0x000007ff, 0x00000000 } },
	{ 0x00000005, 0, { 0x00000040, 0x00000040, 0x00000000, 0x00000000 } },
	{ 0x80000000, 0, { 0x80000008, 0x00000000, 0x00000000, 0x00000000 } },
	{ 0x80000001, 0, { 0x00000000, 0x00000000, 0x00000000, 0x20100800 } },
	{ 0x80000002, 0, { 0x20202020, 0x20202020, 0x20202020, 0x6e492020 } },
	{ 0x80000003, 0, { 0x286c6574, 0x50202952, 0x69746e65, 0x52286d75 } },
	{ 0x80000004, 0, { 0x20342029, 0x20555043, 0x30302e33, 0x007a4847 } },
	{ 0x80000005, 0, { 0x00000000, 0x00000000, 0x00000000, 0x00000000 } },
	{ 0x80000006, 0, { 0x00000000, 0x00000000, 0x08006040, 0x00000000 } },
	{ 0x80000007, 0, { 0x00000000, 0x00000000, 0x00000000, 0x00000000 } },
	{ 0x80000008, 0, { 0x00003024, 0x00000000, 0x00000000, 0x00000000 } },
};

/* VirtualBox CPU database: AMD_Ryzen_7_1800X_Eight_Core.h (2020, Linux). */
static const struct leaf dump_ryzen_1800x[] = {
	{ 0x00000000, 0, { 0x0000000d, 0x68747541, 0x444d4163, 0x69746e65 } },
	{ 0x00000001, 0, { 0x00800f11, 0x02100800, 0x7ed8320b, 0x178bfbff } },
	{ 0x00000005, 0, { 0x00000040, 0x00000040, 0x00000003, 0x00000000 } },
	{ 0x00000006, 0, { 0x00000004, 0x00000000, 0x00000001, 0x00000000 } },
	{ 0x00000007, 0, { 0x00000000, 0x209c01a9, 0x00000000, 0x00000000 } },
	{ 0x00000007, 1, { 0x00000000, 0x00000000, 0x00000000, 0x00000000 } },
	{ 0x0000000d, 0, { 0x00000007, 0x00000340, 0x00000340, 0x00000000 } },
	{ 0x0000000d, 1, { 0x0000000f, 0x00000340, 0x00000000, 0x00000000 } },
	{ 0x0000000d, 2, { 0x00000100, 0x00000240, 0x00000000, 0x00000000 } },
	{ 0x80000000, 0, { 0x8000001f, 0x68747541, 0x444d4163, 0x69746e65 } },
	{ 0x80000001, 0, { 0x00800f11, 0x20000000, 0x35c233ff, 0x2fd3fbff } },
	{ 0x80000002, 0, { 0x20444d41, 0x657a7952, 0x2037206e, 0x30303831 } },
	{ 0x80000003, 0, { 0x69452058, 0x2d746867, 0x65726f43, 0x6f725020 } },
	{ 0x80000004, 0, { 0x73736563, 0x2020726f, 0x20202020, 0x00202020 } },
	{ 0x80000005, 0, { 0xff40ff40, 0xff40ff40, 0x20080140, 0x40040140 } },
	{ 0x80000006, 0, { 0x26006400, 0x66006400, 0x02006140, 0x00808140 } },
	{ 0x80000007, 0, { 0x00000000, 0x0000001b, 0x00000000, 0x00006599 } },
	{ 0x80000008, 0, { 0x00003030, 0x00001007, 0x0000400f, 0x00000000 } },
	{ 0x8000000a, 0, { 0x00000001, 0x00008000, 0x00000000, 0x0001bcff } },
	{ 0x80000019, 0, { 0xf040f040, 0x00000000, 0x00000000, 0x00000000 } },
	{ 0x8000001a, 0, { 0x00000003, 0x00000000, 0x00000000, 0x00000000 } },
	{ 0x8000001b, 0, { 0x000003ff, 0x00000000, 0x00000000, 0x00000000 } },
	{ 0x8000001d, 0, { 0x00004121, 0x01c0003f, 0x0000003f, 0x00000000 } },
	{ 0x8000001d, 1, { 0x00004122, 0x00c0003f, 0x000000ff, 0x00000000 } },
	{ 0x8000001d, 2, { 0x00004143, 0x01c0003f, 0x000003ff, 0x00000002 } },
	{ 0x8000001d, 3, { 0x0001c163, 0x03c0003f, 0x00001fff, 0x00000001 } },
	{ 0x8000001e, 0, { 0x00000002, 0x00000101, 0x00000000, 0x00000000 } },
	{ 0x8000001f, 0, { 0x00000007, 0x0000016f, 0x0000000f, 0x00000000 } },
};

/* Captured on this machine (AMD EPYC, family 0x19 model 0x01, a KVM guest):
 * every leaf 0..max and 0x80000000..max_ext, subleaf 0, plus 0x40000000;
 * all-zero leaves are left out here (the fake reads absent leaves as 0). */
static const struct leaf dump_epyc_kvm[] = {
	{ 0x00000000, 0, { 0x00000010, 0x68747541, 0x444d4163, 0x69746e65 } },
	{ 0x00000001, 0, { 0x00a00f11, 0x00020800, 0xfffa3203, 0x178bfbff } },
	{ 0x00000006, 0, { 0x00000004, 0x00000000, 0x00000000, 0x00000000 } },
	{ 0x00000007, 0, { 0x00000000, 0x219c07ab, 0x0040069c, 0x88000010 } },
	{ 0x0000000b, 0, { 0x00000000, 0x00000001, 0x00000100, 0x00000000 } },
	{ 0x0000000d, 0, { 0x00000207, 0x00000988, 0x00000988, 0x00000000 } },
	{ 0x40000000, 0, { 0x40000001, 0x4b4d564b, 0x564b4d56, 0x0000004d } },
	{ 0x80000000, 0, { 0x80000022, 0x68747541, 0x444d4163, 0x69746e65 } },
	{ 0x80000001, 0, { 0x00a00f11, 0x40000000, 0x004003f3, 0x2fd3fbff } },
	{ 0x80000002, 0, { 0x20444d41, 0x43595045, 0x00000000, 0x00000000 } },
	{ 0x80000005, 0, { 0xff40ff40, 0xff40ff40, 0x20080140, 0x20080140 } },
	{ 0x80000006, 0, { 0x48002200, 0x68004200, 0x02006140, 0x08009140 } },
	{ 0x80000007, 0, { 0x00000000, 0x00000000, 0x00000000, 0x00000100 } },
	{ 0x80000008, 0, { 0x00303030, 0x130ad205, 0x00007001, 0x00000000 } },
	{ 0x80000019, 0, { 0xf040f040, 0xf0400000, 0x00000000, 0x00000000 } },
	{ 0x8000001a, 0, { 0x00000006, 0x00000000, 0x00000000, 0x00000000 } },
	{ 0x8000001d, 0, { 0x00000121, 0x01c0003f, 0x0000003f, 0x00000000 } },
	{ 0x80000021, 0, { 0x18000265, 0x00000000, 0x00000086, 0x00000000 } },
};

/* VirtualBox CPU database: Hygon_C86_7185_32_core.h (2019, Linux). */
static const struct leaf dump_hygon_7185[] = {
	{ 0x00000000, 0, { 0x0000000d, 0x6f677948, 0x656e6975, 0x6e65476e } },
	{ 0x00000001, 0, { 0x00900f01, 0x3b400800, 0x7cd83209, 0x178bfbff } },
	{ 0x00000005, 0, { 0x00000040, 0x00000040, 0x00000003, 0x00000011 } },
	{ 0x00000006, 0, { 0x00000004, 0x00000000, 0x00000001, 0x00000000 } },
	{ 0x00000007, 0, { 0x00000000, 0x009c01a9, 0x00000000, 0x00000000 } },
	{ 0x00000007, 1, { 0x00000000, 0x00000000, 0x00000000, 0x00000000 } },
	{ 0x0000000d, 0, { 0x00000007, 0x00000340, 0x00000340, 0x00000000 } },
	{ 0x0000000d, 1, { 0x0000000f, 0x00000340, 0x00000000, 0x00000000 } },
	{ 0x0000000d, 2, { 0x00000100, 0x00000240, 0x00000000, 0x00000000 } },
	{ 0x80000000, 0, { 0x8000001f, 0x6f677948, 0x656e6975, 0x6e65476e } },
	{ 0x80000001, 0, { 0x00900f01, 0x40000000, 0x35c233ff, 0x2fd3fbff } },
	{ 0x80000002, 0, { 0x6f677948, 0x3843206e, 0x31372036, 0x33203538 } },
	{ 0x80000003, 0, { 0x6f632d32, 0x50206572, 0x65636f72, 0x726f7373 } },
	{ 0x80000004, 0, { 0x20202020, 0x20202020, 0x20202020, 0x00202020 } },
	{ 0x80000005, 0, { 0xff40ff40, 0xff40ff40, 0x20080140, 0x40040140 } },
	{ 0x80000006, 0, { 0x36006400, 0x56006400, 0x02006140, 0x0200c140 } },
	{ 0x80000007, 0, { 0x00000000, 0x0000001b, 0x00000000, 0x00006599 } },
	{ 0x80000008, 0, { 0x00003030, 0x00001007, 0x0000603f, 0x00000000 } },
	{ 0x8000000a, 0, { 0x00000001, 0x00008000, 0x00000000, 0x0001bcff } },
	{ 0x80000019, 0, { 0xf040f040, 0x00000000, 0x00000000, 0x00000000 } },
	{ 0x8000001a, 0, { 0x00000003, 0x00000000, 0x00000000, 0x00000000 } },
	{ 0x8000001b, 0, { 0x000003ff, 0x00000000, 0x00000000, 0x00000000 } },
	{ 0x8000001d, 0, { 0x00004121, 0x01c0003f, 0x0000003f, 0x00000000 } },
	{ 0x8000001e, 0, { 0x0000003b, 0x0000011d, 0x00000303, 0x00000000 } },
	{ 0x8000001f, 0, { 0x00000000, 0x00000000, 0x00000000, 0x00000000 } },
};

#define LOAD(c, dump) cpu_load(c, dump, sizeof(dump) / sizeof(dump[0]))


void test_dump_intel_i7_6700k(void **state)
{
	(void)state;
	static struct cpu c;

	LOAD(&c, dump_i7_6700k);
	decode(&c);
	assert_string_equal(ci.vendor_str, "GenuineIntel");
	assert_int_equal(ci.vendor, VENDOR_INTEL);
	assert_string_equal(cpu_vendor_name(ci.vendor), "Intel");
	assert_int_equal(ci.max_leaf, 0x16);
	assert_int_equal(ci.max_ext_leaf, 0x80000008);
	assert_int_equal(ci.signature, 0x000506e3);
	assert_int_equal(ci.family, 6);
	assert_int_equal(ci.model, 0x5e);
	assert_int_equal(ci.stepping, 3);
	assert_string_equal(ci.brand, "Intel(R) Core(TM) i7-6700K CPU @ 4.00GHz");
	assert_int_equal(ci.initial_apic_id, 2);
	assert_string_equal(on_list(&ci), "apic tsc msr pge x2apic tsc_deadline invariant_tsc "
					  "rdtscp erms pcid invpcid rtm tsc_adjust gbpages nx "
					  "has_leaf_0b avx avx2 sse2 xsave osxsave");
	assert_int_equal(ci.invlpgb_max_pages, 0);
	assert_int_equal(ci.pmu_version, 4);
	assert_int_equal(ci.pmu_gp_counters, 4);
	assert_int_equal(ci.pmu_gp_width, 48);
	assert_int_equal(ci.pmu_fixed_counters, 3);
	assert_int_equal(ci.phys_bits, 39);
	assert_int_equal(ci.virt_bits, 48);
	assert_false(was_asked(&c, 0x1f));		/* above max_leaf 0x16 */
	assert_false(was_asked(&c, 0x80000021));	/* above max_ext */
}

void test_dump_intel_pentium4(void **state)
{
	(void)state;
	static struct cpu c;

	LOAD(&c, dump_p4);
	decode(&c);
	assert_int_equal(ci.vendor, VENDOR_INTEL);
	assert_int_equal(ci.max_leaf, 5);
	assert_int_equal(ci.family, 0xf);
	assert_int_equal(ci.model, 4);
	assert_int_equal(ci.stepping, 3);
	/* 14 leading blanks trimmed */
	assert_string_equal(ci.brand, "Intel(R) Pentium(R) 4 CPU 3.00GHz");
	assert_string_equal(on_list(&ci), "apic tsc msr pge nx sse2");
	assert_int_equal(ci.pmu_version, 0);		/* leaf 0xA is above max */
	assert_int_equal(ci.phys_bits, 36);
	assert_int_equal(ci.virt_bits, 48);
	assert_false(was_asked(&c, 7));
	assert_false(was_asked(&c, 0xa));
	assert_false(was_asked(&c, 0xb));
}

void test_dump_amd_ryzen_1800x(void **state)
{
	(void)state;
	static struct cpu c;

	LOAD(&c, dump_ryzen_1800x);
	decode(&c);
	assert_string_equal(ci.vendor_str, "AuthenticAMD");
	assert_int_equal(ci.vendor, VENDOR_AMD);
	assert_string_equal(cpu_vendor_name(ci.vendor), "AMD");
	assert_int_equal(ci.max_leaf, 0xd);
	assert_int_equal(ci.max_ext_leaf, 0x8000001f);
	assert_int_equal(ci.family, 0x17);
	assert_int_equal(ci.model, 0x01);
	assert_int_equal(ci.stepping, 1);
	/* AMD pads on the right; only leading blanks are trimmed */
	assert_string_equal(ci.brand, "AMD Ryzen 7 1800X Eight-Core Processor         ");
	assert_int_equal(ci.initial_apic_id, 2);
	assert_string_equal(on_list(&ci), "apic tsc msr pge invariant_tsc rdtscp clzero "
					  "gbpages nx amd_ibpb perfctr_core avx avx2 sse2 xsave osxsave topoext");
	assert_int_equal(ci.invlpgb_max_pages, 0);
	assert_int_equal(ci.pmu_version, 0);
	assert_int_equal(ci.phys_bits, 48);
	assert_int_equal(ci.virt_bits, 48);
	assert_false(ci.lfence_serializing);		/* 0x80000021 above max */
	assert_false(was_asked(&c, 0x80000021));
}

void test_dump_amd_epyc_kvm(void **state)
{
	(void)state;
	static struct cpu c;

	LOAD(&c, dump_epyc_kvm);
	decode(&c);
	assert_int_equal(ci.vendor, VENDOR_AMD);
	assert_int_equal(ci.max_leaf, 0x10);
	assert_int_equal(ci.max_ext_leaf, 0x80000022);
	assert_int_equal(ci.signature, 0x00a00f11);
	assert_int_equal(ci.family, 0x19);
	assert_int_equal(ci.model, 0x01);
	assert_int_equal(ci.stepping, 1);
	assert_string_equal(ci.brand, "AMD EPYC");	/* KVM's short model name */
	assert_int_equal(ci.initial_apic_id, 0);
	assert_true(ci.hypervisor);
	assert_string_equal(ci.hv_signature, "KVMKVMKVM");
	assert_int_equal(ci.hv_max_leaf, 0x40000001);
	assert_string_equal(on_list(&ci), "apic tsc msr pge x2apic tsc_deadline invariant_tsc "
					  "rdtscp erms fsrm pcid invpcid clzero tsc_adjust "
					  "gbpages nx lfence_serializing hypervisor has_leaf_0b "
					  "stibp ssbd amd_ibpb amd_ibrs amd_stibp amd_ssbd verw_clear avx avx2 sse2 xsave osxsave topoext");
	assert_false(ci.invlpgb);	/* KVM does not pass INVLPGB through */
	assert_int_equal(ci.invlpgb_max_pages, 0);
	assert_int_equal(ci.phys_bits, 48);
	assert_int_equal(ci.virt_bits, 48);
	assert_int_equal(ci.pmu_version, 0);
}

void test_dump_hygon_7185(void **state)
{
	(void)state;
	static struct cpu c;

	LOAD(&c, dump_hygon_7185);
	decode(&c);
	assert_string_equal(ci.vendor_str, "HygonGenuine");
	assert_int_equal(ci.vendor, VENDOR_HYGON);
	assert_string_equal(cpu_vendor_name(ci.vendor), "Hygon");
	assert_int_equal(ci.family, 0x18);
	assert_int_equal(ci.model, 0x00);
	assert_int_equal(ci.stepping, 1);
	assert_string_equal(ci.brand, "Hygon C86 7185 32-core Processor               ");
	assert_int_equal(ci.initial_apic_id, 0x3b);
	assert_string_equal(on_list(&ci), "apic tsc msr pge invariant_tsc rdtscp clzero "
					  "gbpages nx amd_ibpb perfctr_core avx avx2 sse2 xsave osxsave topoext");
	assert_int_equal(ci.phys_bits, 48);
	assert_int_equal(ci.virt_bits, 48);
}

/* Overrides (cpufeature.h): a simulated claim sets the bit in what every
 * decoder sees, a probe fault clears it, the skip reason names why. */
void test_overrides(void **state)
{
	static struct cpu c;
	char why[200];

	(void)state;
	x86_overrides_clear();
	cpu_load(&c, dump_epyc_kvm, sizeof(dump_epyc_kvm) / sizeof(dump_epyc_kvm[0]));
	decode(&c);
	bool had_rtm = ci.rtm, had_x2apic = ci.x2apic;

	assert_false(had_rtm);
	assert_true(had_x2apic);
	assert_true(x86_feature_override(X86_FEATURE_RTM, true, X86_OVR_SIMULATED, "rtm", NULL, -1));
	assert_true(x86_feature_override(X86_FEATURE_X2APIC, false, X86_OVR_SIMULATED, "x2apic", NULL, -1));
	struct cpuid_regs r = fake_cpuid(7, 0, &c);

	x86_overrides_apply(7, 0, &r);
	assert_true(r.ebx & (1u << 11));
	/* another sub-leaf of an indexed leaf is not touched */
	r = (struct cpuid_regs){ 0, 0, 0, 0 };
	x86_overrides_apply(7, 1, &r);
	assert_int_equal(r.ebx, 0);
	r = fake_cpuid(1, 0, &c);
	x86_overrides_apply(1, 0, &r);
	assert_false(r.ecx & (1u << 21));
	x86_feature_absent_why(X86_FEATURE_X2APIC, "x2APIC", why, sizeof(why));
	assert_string_equal(why, "x2APIC: CPUID.1:ECX[21] cleared by simulate=cpuid:-x2apic");
	/* the probe's verdict replaces the simulated claim */
	assert_true(x86_feature_override(X86_FEATURE_RTM, false, X86_OVR_PROBE_FAULT, "rtm",
					 "XBEGIN;XEND", 6));
	assert_false(x86_feature_override_of(X86_FEATURE_RTM)->on);
	x86_feature_absent_why(X86_FEATURE_RTM, "RTM", why, sizeof(why));
	assert_string_equal(why, "RTM: CPUID.7.0:EBX[11] is set but XBEGIN;XEND raised vector 6 in the boot probe (cpu.probes): treated as absent");
	x86_feature_absent_why(X86_FEATURE_CLZERO, "CLZERO", why, sizeof(why));
	assert_string_equal(why, "CPU lacks CLZERO (CPUID.80000008H:EBX[0])");
	/* the table is bounded */
	x86_overrides_clear();
	for (unsigned i = 0; i < X86_MAX_OVERRIDES; i++)
		assert_true(x86_feature_override(X86_CPU_FEATURE(0x1, 0, EDX, i), false,
						 X86_OVR_SIMULATED, "x", NULL, -1));
	assert_false(x86_feature_override(X86_FEATURE_RTM, true, X86_OVR_SIMULATED, "rtm", NULL, -1));
	assert_null(x86_feature_override_of(X86_FEATURE_RTM));
	x86_overrides_clear();
	assert_null(x86_feature_override_of(X86_CPU_FEATURE(0x1, 0, EDX, 0)));
}
