/* SPDX-License-Identifier: GPL-2.0-only */
/* CPUID decoder host tests: every feature bool against its documented
 * leaf/register/bit, one bit at a time. */
#include "tests/host/test_cpuinfo/cpuinfo_test.h"

/* Independent expectations for cpu_features[]: where each bit lives. */
static const struct {
	const char *name;
	uint32_t leaf, sub;
	enum reg reg;
	unsigned bit;
	const char *source;
} feature_bits[] = {
	{ "x2apic", 1, 0, ECX, 21, "CPUID.1:ECX[21]" },
	{ "tsc_deadline", 1, 0, ECX, 24, "CPUID.1:ECX[24]" },
	{ "invariant_tsc", 0x80000007, 0, EDX, 8, "CPUID.80000007H:EDX[8]" },
	{ "rdtscp", 0x80000001, 0, EDX, 27, "CPUID.80000001H:EDX[27]" },
	{ "erms", 7, 0, EBX, 9, "CPUID.7.0:EBX[9]" },
	{ "fsrm", 7, 0, EDX, 4, "CPUID.7.0:EDX[4]" },
	{ "pcid", 1, 0, ECX, 17, "CPUID.1:ECX[17]" },
	{ "invpcid", 7, 0, EBX, 10, "CPUID.7.0:EBX[10]" },
	{ "invlpgb", 0x80000008, 0, EBX, 3, "CPUID.80000008H:EBX[3]" },
	{ "clzero", 0x80000008, 0, EBX, 0, "CPUID.80000008H:EBX[0]" },
	{ "serialize", 7, 0, EDX, 14, "CPUID.7.0:EDX[14]" },
	{ "rtm", 7, 0, EBX, 11, "CPUID.7.0:EBX[11]" },
	{ "tsc_adjust", 7, 0, EBX, 1, "CPUID.7.0:EBX[1]" },
	{ "gbpages", 0x80000001, 0, EDX, 26, "CPUID.80000001H:EDX[26]" },
	{ "lfence_serializing", 0x80000021, 0, EAX, 2, "CPUID.80000021H:EAX[2]" },
	/* speculation control and PMU */
	{ "spec_ctrl", 7, 0, EDX, 26, "CPUID.7.0:EDX[26]" },
	{ "stibp", 7, 0, EDX, 27, "CPUID.7.0:EDX[27]" },
	{ "flush_l1d", 7, 0, EDX, 28, "CPUID.7.0:EDX[28]" },
	{ "arch_capabilities", 7, 0, EDX, 29, "CPUID.7.0:EDX[29]" },
	{ "md_clear", 7, 0, EDX, 10, "CPUID.7.0:EDX[10]" },
	{ "ssbd", 7, 0, EDX, 31, "CPUID.7.0:EDX[31]" },
	{ "bhi_ctrl", 7, 2, EDX, 4, "CPUID.7.2:EDX[4]" },
	{ "amd_ibpb", 0x80000008, 0, EBX, 12, "CPUID.80000008H:EBX[12]" },
	{ "amd_ibrs", 0x80000008, 0, EBX, 14, "CPUID.80000008H:EBX[14]" },
	{ "amd_stibp", 0x80000008, 0, EBX, 15, "CPUID.80000008H:EBX[15]" },
	{ "amd_ssbd", 0x80000008, 0, EBX, 24, "CPUID.80000008H:EBX[24]" },
	{ "verw_clear", 0x80000021, 0, EAX, 5, "CPUID.80000021H:EAX[5]" },
	{ "perfctr_core", 0x80000001, 0, ECX, 23, "CPUID.80000001H:ECX[23]" },
	{ "avx", 1, 0, ECX, 28, "CPUID.1:ECX[28]" },
	{ "avx2", 7, 0, EBX, 5, "CPUID.7.0:EBX[5]" },
	{ "avx512f", 7, 0, EBX, 16, "CPUID.7.0:EBX[16]" },
	/* not in the table, but decoded */
	{ "apic", 1, 0, EDX, 9, NULL },
	{ "tsc", 1, 0, EDX, 4, NULL },
	{ "msr", 1, 0, EDX, 5, NULL },
	{ "pge", 1, 0, EDX, 13, NULL },
	{ "nx", 0x80000001, 0, EDX, 20, NULL },
	{ "hypervisor", 1, 0, ECX, 31, NULL },
	{ "sse2", 1, 0, EDX, 26, NULL },
	{ "xsave", 1, 0, ECX, 26, NULL },
	{ "osxsave", 1, 0, ECX, 27, NULL },
	{ "topoext", 0x80000001, 0, ECX, 22, NULL },
};
#define NFEATURE_BITS (sizeof(feature_bits) / sizeof(feature_bits[0]))

/* Parse "CPUID.<hex leaf>[H][.<sub>]:<REG>[<bit>]". */
static void parse_source(const char *s, uint32_t *leaf, uint32_t *sub, enum reg *reg,
			 unsigned *bit)
{
	char *end;
	char regname[4] = { 0 };

	assert_memory_equal(s, "CPUID.", 6);
	*leaf = (uint32_t)strtoul(s + 6, &end, 16);
	if (*end == 'H')
		end++;
	*sub = 0;
	if (*end == '.')
		*sub = (uint32_t)strtoul(end + 1, &end, 10);
	assert_int_equal(*end, ':');
	memcpy(regname, end + 1, 3);
	*reg = !strcmp(regname, "EAX") ? EAX : !strcmp(regname, "EBX") ? EBX :
	       !strcmp(regname, "ECX") ? ECX : !strcmp(regname, "EDX") ? EDX : (enum reg)-1;
	assert_true((int)*reg >= 0);
	assert_int_equal(end[4], '[');
	*bit = (unsigned)strtoul(end + 5, &end, 10);
	assert_string_equal(end, "]");
}

void test_feature_table(void **state)
{
	(void)state;
	static struct cpu c;
	static struct cpuinfo base;

	assert_int_equal(cpu_nfeatures, 31);
	cpu_blank(&c, "AuthenticAMD");
	decode(&c);
	memcpy(&base, &ci, sizeof(base));
	for (unsigned i = 0; i < cpu_nfeatures; i++)
		assert_false(cpu_feature_on(&base, &cpu_features[i]));

	for (unsigned i = 0; i < cpu_nfeatures; i++) {
		const struct cpu_feature *f = &cpu_features[i];
		char source[32];
		size_t k;

		x86_feature_source(f->bit, source, sizeof(source));

		for (k = 0; k < NFEATURE_BITS; k++)
			if (!strcmp(feature_bits[k].name, f->name))
				break;
		if (k == NFEATURE_BITS)
			fail_msg("cpu_features[%u] \"%s\" is not expected", i, f->name);
		/* the documented source is the right bit */
		if (!feature_bits[k].source || strcmp(source, feature_bits[k].source))
			fail_msg("%s: source \"%s\", want \"%s\"", f->name, source,
				 feature_bits[k].source ? feature_bits[k].source : "(none)");
		/* the offset is the field of that name */
		assert_int_equal(f->offset, bool_offset(f->name));
		/* setting exactly the bit the source names turns exactly this
		 * feature on */
		uint32_t leaf, sub;
		enum reg reg;
		unsigned bit;

		parse_source(source, &leaf, &sub, &reg, &bit);
		cpu_blank(&c, "AuthenticAMD");
		*reg_ptr(&c, leaf, sub, reg) |= 1u << bit;
		decode(&c);
		for (unsigned j = 0; j < cpu_nfeatures; j++)
			if (cpu_feature_on(&ci, &cpu_features[j]) != (j == i))
				fail_msg("bit %s: feature %s is %s", source, cpu_features[j].name,
					 j == i ? "off" : "on");
		assert_string_equal(on_list(&ci), f->name);
	}
	/* every expected table entry is in the table */
	for (size_t k = 0; k < NFEATURE_BITS; k++) {
		if (!feature_bits[k].source)
			continue;
		bool found = false;

		for (unsigned i = 0; i < cpu_nfeatures; i++)
			found |= !strcmp(cpu_features[i].name, feature_bits[k].name);
		if (!found)
			fail_msg("%s missing from cpu_features[]", feature_bits[k].name);
	}
}

/* Every bit of every feature register, one at a time: only the expected
 * bool changes, and nothing else in the struct except what that bit
 * implies. */
void test_single_bits(void **state)
{
	(void)state;
	static struct cpu c;
	static struct cpuinfo base, got;
	static const struct {
		uint32_t leaf, sub;
		enum reg reg;
	} regs[] = {
		{ 1, 0, ECX }, { 1, 0, EDX }, { 7, 0, EBX }, { 7, 0, ECX }, { 7, 0, EDX },
		{ 0x80000001, 0, ECX }, { 0x80000001, 0, EDX }, { 0x80000007, 0, EDX },
		{ 0x80000008, 0, EBX }, { 0x80000021, 0, EAX },
		{ 7, 1, EBX }, { 7, 1, EDX },	/* subleaf 1 must not count */
		{ 7, 2, EDX },
	};

	cpu_blank(&c, "GenuineIntel");
	decode(&c);
	memcpy(&base, &ci, sizeof(base));
	assert_string_equal(on_list(&base), "");
	for (size_t r = 0; r < sizeof(regs) / sizeof(regs[0]); r++) {
		for (unsigned bit = 0; bit < 32; bit++) {
			const char *want = NULL;

			for (size_t k = 0; k < NFEATURE_BITS; k++)
				if (feature_bits[k].leaf == regs[r].leaf &&
				    feature_bits[k].sub == regs[r].sub &&
				    feature_bits[k].reg == regs[r].reg && feature_bits[k].bit == bit)
					want = feature_bits[k].name;
			cpu_blank(&c, "GenuineIntel");
			*reg_ptr(&c, regs[r].leaf, regs[r].sub, regs[r].reg) = 1u << bit;
			decode(&c);
			memcpy(&got, &ci, sizeof(got));
			if (strcmp(on_list(&got), want ? want : ""))
				fail_msg("CPUID.%xH.%u reg %d bit %u: on \"%s\", want \"%s\"",
					 regs[r].leaf, regs[r].sub, regs[r].reg, bit, on_list(&got),
					 want ? want : "");
			/* undo what that bit is expected to change; the rest
			 * must be identical */
			if (want)
				*field_ptr(&got, want) = false;
			if (want && !strcmp(want, "invlpgb")) {
				assert_int_equal(got.invlpgb_max_pages, 1);	/* EDX = 0 */
				got.invlpgb_max_pages = 0;
			}
			if (want && !strcmp(want, "hypervisor"))
				assert_true(was_asked(&c, 0x40000000));
			assert_memory_equal(&got, &base, sizeof(got));
		}
	}
}

void test_invlpgb_and_clzero(void **state)
{
	(void)state;
	static struct cpu c;
	static const struct {
		uint32_t ebx, edx, pages;
	} cases[] = {
		{ 1u << 3, 0x00000007, 8 },	/* AMD Zen 3 (EPYC 7003, bare metal) */
		{ 1u << 3, 0xffff0007, 8 },	/* EDX[31:16] is not part of it */
		{ 1u << 3, 0x00000000, 1 },
		{ 1u << 3, 0x0000ffff, 65536 },
		{ 1u << 3, 0x000001ff, 512 },
		{ 0, 0x00000007, 0 },		/* INVLPGB clear: no count */
		{ 0, 0x0000ffff, 0 },
		{ (1u << 3) | 1, 0x00000007, 8 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cpu_blank(&c, "AuthenticAMD");
		set_leaf(&c, 0x80000008, 0, 0x00003030, cases[i].ebx, 0, cases[i].edx);
		decode(&c);
		assert_int_equal(ci.invlpgb, !!(cases[i].ebx & 8));
		assert_int_equal(ci.clzero, cases[i].ebx & 1);
		assert_int_equal(ci.invlpgb_max_pages, cases[i].pages);
		assert_int_equal(ci.phys_bits, 48);
	}
	/* max_ext below 0x80000008: nothing, and the leaf is not asked */
	cpu_minimal(&c, "AuthenticAMD", 1, 0x80000007);
	set_leaf(&c, 0x80000008, 0, 0x3030, 9, 0, 7);
	decode(&c);
	assert_false(ci.invlpgb || ci.clzero);
	assert_int_equal(ci.invlpgb_max_pages, 0);
	assert_int_equal(ci.phys_bits, 0);
	assert_false(was_asked(&c, 0x80000008));
}
