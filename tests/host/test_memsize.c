/* SPDX-License-Identifier: GPL-2.0-only */
/* Host unit tests for the clear suite's arithmetic (lib/memsize.c) and the
 * last-level-cache / SIMD decoding (arch/x86/meminfo.c).  The CPUID tables
 * are invented, each leaf built from the field layout of SDM vol. 2 CPUID
 * leaf 4 / APM vol. 3 E.4.15 and E.4.7, so the expected sizes are known. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "arch/x86/meminfo.h"
#include "lib/memsize.h"

/* ------------------------------------------------------- fake CPUID --- */
struct leaf {
	uint32_t leaf, sub;
	struct cpuid_regs r;
};

struct cpu {
	const struct leaf *t;
	unsigned n;
};

static struct cpuid_regs fake(uint32_t leaf, uint32_t sub, void *ctx)
{
	const struct cpu *c = ctx;

	for (unsigned i = 0; i < c->n; i++)
		if (c->t[i].leaf == leaf && c->t[i].sub == sub)
			return c->t[i].r;
	return (struct cpuid_regs){ 0, 0, 0, 0 };
}

/* CPUID.0 returns the vendor string in EBX, EDX, ECX: "GenuineIntel" is
 * { max, 0x756e6547, 0x6c65746e, 0x49656e69 }, "AuthenticAMD"
 * { max, 0x68747541, 0x444d4163, 0x69746e65 } as { eax, ebx, ecx, edx }. */

/* a cache leaf: type, level, ways, line, sets (partitions 1) */
#define CACHE(type, level, ways, line, sets) \
	{ (type) | (level) << 5, ((ways) - 1u) << 22 | ((line) - 1u), (sets) - 1u, 0 }

static void intel_leaf4(void **state)
{
	(void)state;
	static const struct leaf t[] = {
		{ 0, 0, { 0xd, 0x756e6547u, 0x6c65746eu, 0x49656e69u } },
		{ 1, 0, { 0x906ea, 0, (1u << 26) | (1u << 28), 1u << 26 } },
		{ 4, 0, CACHE(1, 1, 8, 64, 64) },	/* L1d 32 KiB */
		{ 4, 1, CACHE(2, 1, 8, 64, 64) },	/* L1i */
		{ 4, 2, CACHE(3, 2, 4, 64, 1024) },	/* L2 256 KiB */
		{ 4, 3, CACHE(3, 3, 16, 64, 8192) },	/* L3 8 MiB */
		{ 7, 0, { 0, (1u << 5), 0, 0 } },
		{ 0xd, 0, { 0x7, 0, 0, 0 } },
		{ 0x80000000u, 0, { 0x80000008u, 0, 0, 0 } },
	};
	struct cpu c = { t, sizeof(t) / sizeof(t[0]) };
	struct meminfo mi;

	meminfo_decode(&mi, fake, &c);
	assert_int_equal(mi.llc_bytes, 8ull << 20);
	assert_int_equal(mi.llc_level, 3);
	assert_string_equal(mi.llc_source, "CPUID.4");
	assert_int_equal(mi.xcr0_supported, 7);
	/* the instructions are the feature table's (one decoder) */
	struct cpuinfo ci;

	cpuinfo_decode(&ci, fake, &c);
	assert_true(ci.sse2 && ci.avx && ci.avx2 && ci.xsave);
	assert_false(ci.avx512f);
	assert_false(ci.clzero);
}

static void amd_topoext(void **state)
{
	(void)state;
	static const struct leaf t[] = {
		{ 0, 0, { 0x10, 0x68747541u, 0x444d4163u, 0x69746e65u } },
		{ 1, 0, { 0xa00f11, 0, 0, 1u << 26 } },
		/* leaf 4 is reserved (zeros) on AMD: must not be used */
		{ 0x80000000u, 0, { 0x80000021u, 0, 0, 0 } },
		{ 0x80000001u, 0, { 0, 0, 1u << 22, 0 } },
		{ 0x80000006u, 0, { 0, 0, 512u << 16, 4u << 18 } },	/* legacy says 2 MiB */
		{ 0x80000008u, 0, { 0, 1u << 0, 0, 0 } },
		{ 0x8000001du, 0, CACHE(1, 1, 8, 64, 64) },
		{ 0x8000001du, 1, CACHE(2, 1, 8, 64, 64) },
		{ 0x8000001du, 2, CACHE(3, 2, 8, 64, 1024) },
		{ 0x8000001du, 3, CACHE(3, 3, 16, 64, 32768) },	/* 32 MiB */
	};
	struct cpu c = { t, sizeof(t) / sizeof(t[0]) };
	struct meminfo mi;

	meminfo_decode(&mi, fake, &c);
	assert_int_equal(mi.llc_bytes, 32ull << 20);
	assert_string_equal(mi.llc_source, "CPUID.8000001DH");
	struct cpuinfo ci;

	cpuinfo_decode(&ci, fake, &c);
	assert_true(ci.clzero && ci.topoext);
	assert_true(ci.sse2);
	assert_false(ci.avx);
}

static void amd_legacy_and_none(void **state)
{
	(void)state;
	static const struct leaf t[] = {
		{ 0, 0, { 0x1, 0x68747541u, 0x444d4163u, 0x69746e65u } },
		{ 0x80000000u, 0, { 0x80000006u, 0, 0, 0 } },
		{ 0x80000006u, 0, { 0, 0, 512u << 16, 16u << 18 } },	/* L3 8 MiB */
	};
	struct cpu c = { t, sizeof(t) / sizeof(t[0]) };
	struct meminfo mi;

	meminfo_decode(&mi, fake, &c);
	assert_int_equal(mi.llc_bytes, 8ull << 20);
	assert_int_equal(mi.llc_level, 3);
	assert_string_equal(mi.llc_source, "CPUID.80000006H");

	static const struct leaf bare[] = {
		{ 0, 0, { 0x1, 0x756e6547u, 0x6c65746eu, 0x49656e69u } },
	};
	struct cpu b = { bare, 1 };

	meminfo_decode(&mi, fake, &b);
	assert_int_equal(mi.llc_bytes, 0);
	assert_string_equal(mi.llc_source, "none");
}

/* ------------------------------------------------------------ sizes --- */
static void labels(void **state)
{
	(void)state;
	char b[CLEAR_LABEL_MAX];

	size_label(4096, b, sizeof(b));
	assert_string_equal(b, "4KiB");
	size_label(2ull << 20, b, sizeof(b));
	assert_string_equal(b, "2MiB");
	size_label(1ull << 30, b, sizeof(b));
	assert_string_equal(b, "1GiB");
	size_label(1536ull << 10, b, sizeof(b));
	assert_string_equal(b, "1536KiB");
	size_label(100, b, sizeof(b));
	assert_string_equal(b, "100B");
	size_label(3ull << 30, b, sizeof(b));
	assert_string_equal(b, "3GiB");
}

static void size_lists(void **state)
{
	(void)state;
	struct clear_size s[CLEAR_MAX_SIZES];
	unsigned n = clear_sizes(32ull << 20, true, true, s, CLEAR_MAX_SIZES);

	assert_int_equal(n, 2);
	assert_string_equal(s[0].label, "4KiB");
	assert_string_equal(s[1].label, "2MiB");

	n = clear_sizes(32ull << 20, false, true, s, CLEAR_MAX_SIZES);
	assert_int_equal(n, 7);
	const char *want[] = { "4KiB", "2MiB", "16MiB", "64MiB", "128MiB", "1GiB", "largest" };

	for (unsigned i = 0; i < n; i++)
		assert_string_equal(s[i].label, want[i]);
	assert_true(s[3].llc_double);
	assert_false(s[2].llc_double);
	assert_int_equal(s[6].bytes, 0);

	/* 2 x 8 MiB coincides with 16 MiB: one entry, marked */
	n = clear_sizes(8ull << 20, false, false, s, CLEAR_MAX_SIZES);
	assert_int_equal(n, 5);
	assert_string_equal(s[2].label, "16MiB");
	assert_true(s[2].llc_double);

	/* no LLC known: the fixed sizes only */
	n = clear_sizes(0, false, false, s, CLEAR_MAX_SIZES);
	assert_int_equal(n, 5);
	for (unsigned i = 0; i < n; i++)
		assert_false(s[i].llc_double);

	/* 2 x 1.375 MiB, rounded up to 4 KiB: 2816 KiB, placed in order */
	n = clear_sizes(1408ull << 10, false, false, s, CLEAR_MAX_SIZES);
	assert_int_equal(n, 6);
	assert_string_equal(s[2].label, "2816KiB");

	/* a short output array keeps the smallest sizes */
	n = clear_sizes(32ull << 20, false, true, s, 3);
	assert_int_equal(n, 3);
	assert_string_equal(s[2].label, "largest");
}

static void fitting(void **state)
{
	(void)state;
	uint64_t slot = 0;
	const uint64_t M = 1ull << 20, G = 1ull << 30;

	assert_int_equal(clear_fit(G, 2, 4096, 2 * M, 3 * G, &slot), G);
	assert_int_equal(slot, G + 2 * M);
	assert_int_equal(clear_fit(G, 2, 4096, 2 * M, 2 * G, &slot), 0);
	assert_int_equal(clear_fit(4096, 1, 4096, 2 * M, 2 * M, &slot), 4096);
	assert_int_equal(slot, 2 * M);
	/* largest: per-CPU share minus guards, in 2 MiB steps */
	assert_int_equal(clear_fit(0, 4, 4096, 2 * M, 1000 * M, &slot), 248 * M);
	assert_true(slot * 4 <= 1000 * M);
	assert_int_equal(clear_fit(0, 4, 4096, 2 * M, 8 * M, &slot), 0);
	assert_int_equal(clear_fit(G, 0, 4096, 2 * M, 8 * G, &slot), 0);
	assert_int_equal(clear_fit(G, 1, 4096, 3 * M, 8 * G, &slot), 0);	/* align not 2^n */
}

static void crossover_and_rate(void **state)
{
	(void)state;
	const uint64_t stosb[] = { 60000, 45000, 20000, 9000, 5400 };
	const uint64_t nt[] = { 16000, 15000, 14000, 11800, 11800 };
	const uint64_t never[] = { 1, 2, 3, 4, 5 };
	const uint64_t missing[] = { 0, 0, 30000, 0, 0 };

	assert_int_equal(clear_crossover(nt, stosb, 5), 3);
	assert_int_equal(clear_crossover(never, stosb, 5), -1);
	assert_int_equal(clear_crossover(missing, stosb, 5), 2);
	assert_int_equal(clear_crossover(nt, missing, 5), -1);
	assert_int_equal(clear_first_win(nt, stosb, 5), 3);
	assert_int_equal(clear_first_win(never, stosb, 5), -1);
	assert_int_equal(mbps(1000000, 3000000000ull, 3000000000ull), 1);
	assert_int_equal(mbps(1ull << 30, 100000000, 1000000000), 10737);
	assert_int_equal(mbps(1, 0, 1000), 0);
	/* to the nearest: 4 KiB in 4.5 ms is 0.91 MB/s, 1.5 MB/s rounds up,
	 * 0.4 MB/s down */
	assert_int_equal(mbps(4096, 4500000, 1000000000), 1);
	assert_int_equal(mbps(1500000, 1000000000, 1000000000), 2);
	assert_int_equal(mbps(400000, 1000000000, 1000000000), 0);
	assert_int_equal(mbps(1499999, 1000000000, 1000000000), 1);
}

/* The crossover rule: "from S on" only if NT wins at every measured size
 * >= S.  Sizes 4 KiB, 64 KiB, 1 MiB, 16 MiB, 128 MiB. */
static void crossover_non_monotone(void **state)
{
	(void)state;
	const uint64_t base[] = { 1000, 1000, 1000, 1000, 1000 };
	/* wins at 4K, loses at 64K, wins from 1M on */
	const uint64_t dip[] = { 1500, 900, 1100, 1200, 1300 };
	const uint64_t nowhere[] = { 900, 800, 1000, 700, 999 };
	const uint64_t everywhere[] = { 1001, 2000, 3000, 1500, 1100 };
	const uint64_t largest_only[] = { 900, 900, 900, 900, 1001 };
	/* wins at 4K and 1M, loses at the largest: no crossover */
	const uint64_t lose_last[] = { 1500, 900, 1100, 1200, 999 };
	/* an unmeasured size neither breaks nor extends the run */
	const uint64_t hole[] = { 900, 1100, 0, 1200, 1300 };

	assert_int_equal(clear_crossover(dip, base, 5), 2);
	assert_int_equal(clear_first_win(dip, base, 5), 0);
	assert_int_equal(clear_crossover(nowhere, base, 5), -1);
	assert_int_equal(clear_first_win(nowhere, base, 5), -1);
	assert_int_equal(clear_crossover(everywhere, base, 5), 0);
	assert_int_equal(clear_crossover(largest_only, base, 5), 4);
	assert_int_equal(clear_crossover(lose_last, base, 5), -1);
	assert_int_equal(clear_first_win(lose_last, base, 5), 0);
	assert_int_equal(clear_crossover(hole, base, 5), 1);
	assert_int_equal(clear_crossover(dip, base, 0), -1);
	/* equal is not a win */
	assert_int_equal(clear_crossover(base, base, 5), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(intel_leaf4),
		cmocka_unit_test(amd_topoext),
		cmocka_unit_test(amd_legacy_and_none),
		cmocka_unit_test(labels),
		cmocka_unit_test(size_lists),
		cmocka_unit_test(fitting),
		cmocka_unit_test(crossover_and_rate),
		cmocka_unit_test(crossover_non_monotone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
