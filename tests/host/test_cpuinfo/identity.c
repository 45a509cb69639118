/* SPDX-License-Identifier: GPL-2.0-only */
/* CPUID decoder host tests: vendor, family/model/stepping, brand string
 * and hypervisor leaves. */
#include "tests/host/test_cpuinfo/cpuinfo_test.h"

void test_vendor_decode(void **state)
{
	(void)state;
	static struct cpu c;
	static const struct {
		const char v[13];
		enum cpu_vendor want;
	} cases[] = {
		{ "GenuineIntel", VENDOR_INTEL },
		{ "AuthenticAMD", VENDOR_AMD },
		{ "HygonGenuine", VENDOR_HYGON },
		{ "CentaurHauls", VENDOR_OTHER },
		{ "  Shanghai  ", VENDOR_OTHER },
		{ "GenuineIotel", VENDOR_OTHER },	/* one letter off */
		{ "AMDisbetter!", VENDOR_OTHER },	/* early K5 samples */
		{ "genuineintel", VENDOR_OTHER },
		{ "TCGTCGTCGTCG", VENDOR_OTHER },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cpu_minimal(&c, cases[i].v, 0, 0);
		decode(&c);
		assert_string_equal(ci.vendor_str, cases[i].v);
		assert_int_equal(ci.vendor, cases[i].want);
		assert_int_equal(ci.max_leaf, 0);
	}
	assert_string_equal(cpu_vendor_name(VENDOR_OTHER), "other");
	assert_string_equal(cpu_vendor_name((enum cpu_vendor)42), "other");
	/* the register order is EBX, EDX, ECX */
	memset(&c, 0, sizeof(c));
	set_leaf(&c, 0, 0, 0, 0x756e6547 /* Genu */, 0x6c65746e /* ntel */,
		 0x49656e69 /* ineI */);
	decode(&c);
	assert_int_equal(ci.vendor, VENDOR_INTEL);
	set_leaf(&c, 0, 0, 0, 0x756e6547, 0x49656e69, 0x6c65746e);	/* ECX/EDX swapped */
	decode(&c);
	assert_string_equal(ci.vendor_str, "GenuntelineI");
	assert_int_equal(ci.vendor, VENDOR_OTHER);
	/* a NUL inside the registers ends the string */
	set_leaf(&c, 0, 0, 0, 0x00434241, 0, 0);
	decode(&c);
	assert_string_equal(ci.vendor_str, "ABC");
	assert_int_equal(ci.vendor, VENDOR_OTHER);
}

void test_family_model_stepping(void **state)
{
	(void)state;
	static struct cpu c;
	static const struct {
		uint32_t sig, family, model, stepping;
	} cases[] = {
		{ 0x00000480, 4, 0x8, 0 },	/* 486 */
		{ 0x00000543, 5, 0x4, 3 },	/* Pentium MMX */
		{ 0x000106a2, 6, 0x1a, 2 },	/* Nehalem-EP: extended model */
		{ 0x000506e3, 6, 0x5e, 3 },	/* Skylake */
		{ 0x000906ea, 6, 0x9e, 10 },	/* Coffee Lake */
		{ 0x000b0671, 6, 0xb7, 1 },	/* Raptor Lake */
		{ 0x00000f43, 0xf, 0x4, 3 },	/* Pentium 4 */
		{ 0x00020f32, 0xf, 0x23, 2 },	/* family 0xF: extended model too */
		{ 0x00100f42, 0x10, 0x04, 2 },	/* Phenom II: 0xF + 1 */
		{ 0x00600f12, 0x15, 0x01, 2 },	/* Bulldozer */
		{ 0x00800f11, 0x17, 0x01, 1 },	/* Zen */
		{ 0x00900f01, 0x18, 0x00, 1 },	/* Hygon Dhyana */
		{ 0x00a20f12, 0x19, 0x21, 2 },	/* Zen 3 Vermeer */
		{ 0x00a00f11, 0x19, 0x01, 1 },	/* Zen 3 Milan */
		{ 0x00b40f40, 0x1a, 0x44, 0 },	/* Zen 5 */
		{ 0x0fff0f00, 0xf + 0xff, 0xf0, 0 },	/* the largest extended family */
		/* base family below 0xF: the extended family field is ignored */
		{ 0x0fff0543, 5, 0x4, 3 },	/* and extended model too (family 5) */
		{ 0x0ff20673, 6, 0x27, 3 },	/* family 6 still takes the extended model */
		{ 0x0a200a12, 0xa, 0x1, 2 },
		{ 0xf0000000, 0, 0, 0 },	/* reserved high bits ignored */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cpu_minimal(&c, "AuthenticAMD", 1, 0);
		set_leaf(&c, 1, 0, cases[i].sig, 0, 0, 0);
		decode(&c);
		assert_int_equal(ci.signature, cases[i].sig);
		if (ci.family != cases[i].family || ci.model != cases[i].model ||
		    ci.stepping != cases[i].stepping)
			fail_msg("signature 0x%08x: family 0x%x model 0x%x stepping %u, want "
				 "0x%x 0x%x %u", cases[i].sig, ci.family, ci.model, ci.stepping,
				 cases[i].family, cases[i].model, cases[i].stepping);
	}
	/* no leaf 1: nothing decoded */
	cpu_minimal(&c, "GenuineIntel", 0, 0);
	set_leaf(&c, 1, 0, 0x000506e3, 0xff000000, 0xffffffff, 0xffffffff);
	decode(&c);
	assert_int_equal(ci.signature, 0);
	assert_int_equal(ci.family, 0);
	assert_string_equal(on_list(&ci), "");
	/* initial APIC ID is EBX[31:24] */
	cpu_minimal(&c, "GenuineIntel", 1, 0);
	set_leaf(&c, 1, 0, 0x000506e3, 0xff0a0800, 0, 0);
	decode(&c);
	assert_int_equal(ci.initial_apic_id, 0xff);
}

/* Fill the three brand leaves from a 48-byte buffer. */
static void set_brand(struct cpu *c, const uint8_t b[48])
{
	for (uint32_t i = 0; i < 3; i++) {
		uint32_t r[4];

		memcpy(r, b + 16 * i, 16);
		set_leaf(c, 0x80000002 + i, 0, r[0], r[1], r[2], r[3]);
	}
}

void test_brand_string(void **state)
{
	(void)state;
	static struct cpu c;
	uint8_t b[48];

	/* leading blanks trimmed, trailing kept */
	cpu_minimal(&c, "GenuineIntel", 1, 0x80000004);
	memset(b, 0, sizeof(b));
	memcpy(b, "     Genuine Intel(R) CPU 0000 @ 2.00GHz  ", 42);
	set_brand(&c, b);
	decode(&c);
	assert_string_equal(ci.brand, "Genuine Intel(R) CPU 0000 @ 2.00GHz  ");

	/* all blanks: empty */
	memset(b, ' ', 47);
	b[47] = 0;
	set_brand(&c, b);
	decode(&c);
	assert_string_equal(ci.brand, "");
	/* 48 blanks, no NUL at all */
	memset(b, ' ', 48);
	set_brand(&c, b);
	decode(&c);
	assert_string_equal(ci.brand, "");

	/* 48 characters, no NUL: all kept */
	for (int i = 0; i < 48; i++)
		b[i] = (uint8_t)('A' + i % 26);
	set_brand(&c, b);
	decode(&c);
	assert_int_equal(strlen(ci.brand), 48);
	assert_memory_equal(ci.brand, b, 48);

	/* non-printable bytes become '?' (a tab is not a leading blank) */
	memset(b, 0, sizeof(b));
	memcpy(b, "  \tCPU\x01\x7f\xff\x80 x\x1f", 14);
	set_brand(&c, b);
	decode(&c);
	assert_string_equal(ci.brand, "?CPU???? x?");

	/* a NUL ends the string, later bytes ignored */
	memset(b, 0, sizeof(b));
	memcpy(b, "AMD\0\x01\x02 junk", 12);
	set_brand(&c, b);
	decode(&c);
	assert_string_equal(ci.brand, "AMD");

	/* all NUL (some hypervisors): empty */
	memset(b, 0, sizeof(b));
	set_brand(&c, b);
	decode(&c);
	assert_string_equal(ci.brand, "");

	/* max_ext below 0x80000004: no brand, the leaves are not asked */
	memset(b, 'Z', sizeof(b));
	set_brand(&c, b);
	for (uint32_t max = 0x80000000; max < 0x80000004; max++) {
		set_leaf(&c, 0x80000000, 0, max, 0, 0, 0);
		decode(&c);
		assert_string_equal(ci.brand, "");
		assert_false(was_asked(&c, 0x80000002));
	}
	set_leaf(&c, 0x80000000, 0, 0x80000004, 0, 0, 0);
	decode(&c);
	assert_int_equal(strlen(ci.brand), 48);
}

void test_hypervisor(void **state)
{
	(void)state;
	static struct cpu c;
	static const struct {
		uint32_t b, cx, d;
		const char *want;
	} sigs[] = {
		{ 0x4b4d564b, 0x564b4d56, 0x0000004d, "KVMKVMKVM" },
		{ 0x7263694d, 0x666f736f, 0x76482074, "Microsoft Hv" },
		{ 0x61774d56, 0x4d566572, 0x65726177, "VMwareVMware" },
		{ 0x54474354, 0x43544743, 0x47435447, "TCGTCGTCGTCG" },
		{ 0x01020304, 0x4d564b7f, 0xffffff41, "?????KVMA???" },	/* 0x7f too */
		{ 0, 0, 0, "" },
	};

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		cpu_minimal(&c, "GenuineIntel", 1, 0);
		set_leaf(&c, 1, 0, 0x000506e3, 0, 1u << 31, 0);
		set_leaf(&c, 0x40000000, 0, 0x40000010, sigs[i].b, sigs[i].cx, sigs[i].d);
		decode(&c);
		assert_true(ci.hypervisor);
		assert_int_equal(ci.hv_max_leaf, 0x40000010);
		assert_string_equal(ci.hv_signature, sigs[i].want);
		assert_string_equal(on_list(&ci), "hypervisor");
	}
	/* without CPUID.1:ECX[31] the leaf is never asked (the fake fails) */
	cpu_minimal(&c, "GenuineIntel", 1, 0);
	set_leaf(&c, 1, 0, 0x000506e3, 0, 0x7ffffffe, 0);
	set_leaf(&c, 0x40000000, 0, 0x40000001, 0x4b4d564b, 0x564b4d56, 0x4d);
	decode(&c);
	assert_false(ci.hypervisor);
	assert_string_equal(ci.hv_signature, "");
	/* nor with max_leaf 0, whatever leaf 1 would say */
	cpu_minimal(&c, "GenuineIntel", 0, 0);
	set_leaf(&c, 1, 0, 0, 0, 1u << 31, 0);
	decode(&c);
	assert_false(ci.hypervisor);
}
