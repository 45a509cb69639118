/* SPDX-License-Identifier: GPL-2.0-only */
/* CPUID decoder host tests: the fake CPUID (a leaf table answering
 * cpuinfo_decode) and the helpers that list its bool fields. */
#include "tests/host/test_cpuinfo/cpuinfo_test.h"

static struct leaf *find(struct cpu *c, uint32_t leaf, uint32_t sub)
{
	for (unsigned i = 0; i < c->n; i++)
		if (c->t[i].leaf == leaf && c->t[i].sub == sub)
			return &c->t[i];
	return NULL;
}

static struct cpuid_regs regs_of(struct cpu *c, uint32_t leaf, uint32_t sub)
{
	struct leaf *l = find(c, leaf, sub);

	return l ? l->r : (struct cpuid_regs){ 0, 0, 0, 0 };
}

struct cpuid_regs fake_cpuid(uint32_t leaf, uint32_t sub, void *ctx)
{
	struct cpu *c = ctx;
	uint32_t max = regs_of(c, 0, 0).eax;
	uint32_t ext = regs_of(c, 0x80000000, 0).eax;

	if (c->ncalls < MAX_CALLS) {
		c->calls[c->ncalls].leaf = leaf;
		c->calls[c->ncalls].sub = sub;
	}
	c->ncalls++;
	if (leaf < 0x40000000) {
		if (leaf > max)
			fail_msg("CPUID leaf 0x%x asked, max_leaf is 0x%x", leaf, max);
	} else if (leaf < 0x80000000) {
		if (max < 1 || !(regs_of(c, 1, 0).ecx & (1u << 31)))
			fail_msg("hypervisor leaf 0x%x asked without CPUID.1:ECX[31]", leaf);
	} else if (leaf != 0x80000000) {
		if ((ext & 0xffff0000u) != 0x80000000u)
			fail_msg("extended leaf 0x%x asked, CPUID.80000000H:EAX is 0x%x", leaf, ext);
		if (leaf > ext)
			fail_msg("extended leaf 0x%x asked, max is 0x%x", leaf, ext);
	}
	return regs_of(c, leaf, sub);
}

void set_leaf(struct cpu *c, uint32_t leaf, uint32_t sub, uint32_t a, uint32_t b,
	      uint32_t cx, uint32_t d)
{
	struct leaf *l = find(c, leaf, sub);

	if (!l) {
		assert_true(c->n < MAX_LEAVES);
		l = &c->t[c->n++];
		l->leaf = leaf;
		l->sub = sub;
	}
	l->r = (struct cpuid_regs){ a, b, cx, d };
}

uint32_t *reg_ptr(struct cpu *c, uint32_t leaf, uint32_t sub, enum reg r)
{
	if (!find(c, leaf, sub))
		set_leaf(c, leaf, sub, 0, 0, 0, 0);
	struct leaf *l = find(c, leaf, sub);

	return r == EAX ? &l->r.eax : r == EBX ? &l->r.ebx : r == ECX ? &l->r.ecx : &l->r.edx;
}

void cpu_load(struct cpu *c, const struct leaf *t, size_t n)
{
	memset(c, 0, sizeof(*c));
	assert_true(n <= MAX_LEAVES);
	memcpy(c->t, t, n * sizeof(*t));
	c->n = (unsigned)n;
}

bool was_asked(const struct cpu *c, uint32_t leaf)
{
	for (unsigned i = 0; i < c->ncalls && i < MAX_CALLS; i++)
		if (c->calls[i].leaf == leaf)
			return true;
	return false;
}

struct cpuinfo ci;

void decode(struct cpu *c)
{
	c->ncalls = 0;
	memset(&ci, 0xa5, sizeof(ci));	/* the decoder must reset everything */
	cpuinfo_decode(&ci, fake_cpuid, c);
	assert_int_equal(strnlen(ci.vendor_str, sizeof(ci.vendor_str)), strlen(ci.vendor_str));
	assert_true(strlen(ci.brand) < sizeof(ci.brand));
	assert_true(strlen(ci.hv_signature) < sizeof(ci.hv_signature));
	for (const char *p = ci.brand; *p; p++)
		assert_true(*p >= 0x20 && *p <= 0x7e);
	for (const char *p = ci.hv_signature; *p; p++)
		assert_true(*p >= 0x20 && *p <= 0x7e);
	assert_true(ci.brand[0] != ' ');
	if (!ci.hypervisor) {
		assert_false(was_asked(c, 0x40000000));
		assert_string_equal(ci.hv_signature, "");
		assert_int_equal(ci.hv_max_leaf, 0);
	}
}

/* A minimal part: vendor and max leaves, everything else zero. */
void cpu_minimal(struct cpu *c, const char vendor[12], uint32_t max, uint32_t max_ext)
{
	uint32_t b, d, cx;

	memset(c, 0, sizeof(*c));
	memcpy(&b, vendor, 4);
	memcpy(&d, vendor + 4, 4);
	memcpy(&cx, vendor + 8, 4);
	set_leaf(c, 0, 0, max, b, cx, d);
	set_leaf(c, 0x80000000, 0, max_ext, 0, 0, 0);
}

/* The bool fields of struct cpuinfo, for "only this one changed". */
#define B(f) { #f, offsetof(struct cpuinfo, f) }
static const struct {
	const char *name;
	size_t off;
} bools[] = {
	B(apic), B(tsc), B(msr), B(pge), B(x2apic), B(tsc_deadline), B(invariant_tsc),
	B(rdtscp), B(erms), B(fsrm), B(pcid), B(invpcid), B(invlpgb), B(clzero),
	B(serialize), B(rtm), B(tsc_adjust), B(gbpages), B(nx), B(lfence_serializing),
	B(hypervisor), B(has_leaf_0b), B(has_leaf_1f),
	B(spec_ctrl), B(stibp), B(flush_l1d), B(arch_capabilities), B(md_clear), B(ssbd),
	B(bhi_ctrl), B(amd_ibpb), B(amd_ibrs), B(amd_stibp), B(amd_ssbd), B(verw_clear),
	B(perfctr_core), B(avx), B(avx2), B(avx512f), B(sse2), B(xsave), B(osxsave), B(topoext),
};
#undef B
#define NBOOLS (sizeof(bools) / sizeof(bools[0]))

size_t bool_offset(const char *name)
{
	for (size_t i = 0; i < NBOOLS; i++)
		if (!strcmp(bools[i].name, name))
			return bools[i].off;
	fail_msg("no bool field %s", name);
	return 0;
}

bool *field_ptr(struct cpuinfo *x, const char *name)
{
	return (bool *)((char *)x + bool_offset(name));
}

/* The set bools, space-separated, in table order. */
const char *on_list(const struct cpuinfo *x)
{
	static char b[512];
	size_t n = 0;

	b[0] = '\0';
	for (size_t i = 0; i < NBOOLS; i++)
		if (*(const bool *)((const char *)x + bools[i].off))
			n += (size_t)snprintf(b + n, sizeof(b) - n, "%s%s", n ? " " : "",
					      bools[i].name);
	return b;
}

/* A part that has every leaf the decoder reads, all zero. */
void cpu_blank(struct cpu *c, const char *vendor)
{
	cpu_minimal(c, vendor, 0x20, 0x80000021);
}
