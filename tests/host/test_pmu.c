/* SPDX-License-Identifier: GPL-2.0-only */
/* Host unit tests for arch/x86/pmu.c: what CPUID describes, the event
 * encodings, and counter programming against a fake MSR file that faults
 * on MSRs it does not hold, can drop writes (a CPU with no working PMU),
 * and records every write. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "arch/x86/msr.h"
#include "arch/x86/pmu.h"

/* ------------------------------------------------------ fake MSR file --- */
#define MAX_MSRS 32

struct fake {
	struct { uint32_t msr; uint64_t val; } m[MAX_MSRS];
	unsigned n;
	bool drop_writes;	/* accept writes, keep reading 0 */
	unsigned writes, faults;
	uint32_t last_fault;
};

static int find(struct fake *f, uint32_t msr)
{
	for (unsigned i = 0; i < f->n; i++)
		if (f->m[i].msr == msr)
			return (int)i;
	return -1;
}

static void add(struct fake *f, uint32_t msr, uint64_t val)
{
	assert_true(f->n < MAX_MSRS);
	f->m[f->n].msr = msr;
	f->m[f->n].val = val;
	f->n++;
}

static uint64_t get(struct fake *f, uint32_t msr)
{
	int i = find(f, msr);

	assert_true(i >= 0);
	return f->m[i].val;
}

static int fake_rd(void *ctx, uint32_t msr, uint64_t *v)
{
	struct fake *f = ctx;
	int i = find(f, msr);

	if (i < 0) {
		f->faults++;
		f->last_fault = msr;
		return -1;
	}
	*v = f->drop_writes ? 0 : f->m[i].val;
	return 0;
}

static int fake_wr(void *ctx, uint32_t msr, uint64_t v)
{
	struct fake *f = ctx;
	int i = find(f, msr);

	if (i < 0) {
		f->faults++;
		f->last_fault = msr;
		return -1;
	}
	f->writes++;
	if (!f->drop_writes)
		f->m[i].val = v;
	return 0;
}

/* -------------------------------------------------------------- CPUs --- */

static void intel(struct cpuinfo *ci, unsigned version, unsigned ngp, unsigned model)
{
	memset(ci, 0, sizeof(*ci));
	ci->vendor = VENDOR_INTEL;
	ci->family = 6;
	ci->model = model;
	ci->pmu_version = (uint8_t)version;
	ci->pmu_gp_counters = (uint8_t)ngp;
	ci->pmu_gp_width = 48;
	ci->pmu_fixed_counters = version > 1 ? 3 : 0;
	ci->pmu_fixed_width = version > 1 ? 48 : 0;
	ci->pmu_events_len = 7;
}

static void amd(struct cpuinfo *ci, bool ext)
{
	memset(ci, 0, sizeof(*ci));
	ci->vendor = VENDOR_AMD;
	ci->family = 0x19;
	ci->perfctr_core = ext;
}

/* An Intel MSR file: ngp counter pairs and (v2+) GLOBAL_CTRL, with
 * recognisable previous contents. */
static void intel_msrs(struct fake *f, unsigned ngp, bool global)
{
	memset(f, 0, sizeof(*f));
	for (unsigned i = 0; i < ngp; i++) {
		add(f, MSR_ARCH_PERFMON_EVENTSEL0 + i, 0x1100 + i);
		add(f, MSR_ARCH_PERFMON_PERFCTR0 + i, 0x2200 + i);
	}
	if (global)
		add(f, MSR_CORE_PERF_GLOBAL_CTRL, 0x700000008ull);	/* fixed 0-2, PMC3 */
}

static const struct pmu_msr_ops *ops_for(struct fake *f)
{
	static struct pmu_msr_ops o;

	o = (struct pmu_msr_ops){ fake_rd, fake_wr, f };
	return &o;
}

/* ------------------------------------------------------------- tests --- */

static void test_describe(void **state)
{
	(void)state;
	struct cpuinfo ci;
	struct pmu_desc d;
	char buf[200];

	intel(&ci, 5, 8, 0x8f);
	pmu_describe(&d, &ci);
	assert_int_equal(d.kind, PMU_INTEL_ARCH);
	assert_int_equal(d.ngp, 8);
	assert_int_equal(d.gp_width, 48);
	assert_int_equal(d.nfixed, 3);
	pmu_desc_format(&d, buf, sizeof(buf));
	assert_non_null(strstr(buf, "kind=intel-arch version=5 gp=8 gp_width=48 fixed=3"));

	amd(&ci, true);
	pmu_describe(&d, &ci);
	assert_int_equal(d.kind, PMU_AMD_CORE);
	assert_int_equal(d.ngp, 6);
	assert_int_equal(d.gp_width, 48);
	amd(&ci, false);
	pmu_describe(&d, &ci);
	assert_int_equal(d.ngp, 4);

	/* Intel with leaf 0AH version 0 (QEMU TCG's Intel models, KVM
	 * without a PMU): none, with the reason naming the leaf */
	intel(&ci, 0, 0, 0x55);
	pmu_describe(&d, &ci);
	assert_int_equal(d.kind, PMU_NONE);
	assert_non_null(strstr(d.why, "CPUID.0AH"));
	/* an implausible width is refused */
	intel(&ci, 2, 4, 0x55);
	ci.pmu_gp_width = 0;
	pmu_describe(&d, &ci);
	assert_int_equal(d.kind, PMU_NONE);
}

static void test_encode(void **state)
{
	(void)state;
	struct cpuinfo ci;
	struct pmu_desc d;
	uint64_t sel;
	const char *why;

	intel(&ci, 4, 4, 0x55);	/* Skylake-SP */
	pmu_describe(&d, &ci);
	assert_true(pmu_encode(&d, PMU_EV_CYCLES, &sel, &why));
	assert_int_equal(sel, 0x003c);
	assert_true(pmu_encode(&d, PMU_EV_INSTRUCTIONS, &sel, &why));
	assert_int_equal(sel, 0x00c0);
	assert_true(pmu_encode(&d, PMU_EV_LLC_REFS, &sel, &why));
	assert_int_equal(sel, 0x4f2e);
	assert_true(pmu_encode(&d, PMU_EV_LLC_MISSES, &sel, &why));
	assert_int_equal(sel, 0x412e);
	assert_true(pmu_encode(&d, PMU_EV_RFO, &sel, &why));
	assert_int_equal(sel, 0x04b0);
	/* Sapphire Rapids (the seed's Xeon Gold 6442Y): Golden Cove encoding */
	d.model = 0x8f;
	assert_true(pmu_encode(&d, PMU_EV_RFO, &sel, &why));
	assert_int_equal(sel, 0x0421);
	/* Sandy Bridge and Rocket Lake: B0H/04H (SDM vol. 3B tables) */
	d.model = 0x2a;
	assert_true(pmu_encode(&d, PMU_EV_RFO, &sel, &why));
	assert_int_equal(sel, 0x04b0);
	d.model = 0xa7;
	assert_true(pmu_encode(&d, PMU_EV_RFO, &sel, &why));
	assert_int_equal(sel, 0x04b0);
	d.model = 0x01;
	assert_false(pmu_encode(&d, PMU_EV_RFO, &sel, &why));
	assert_non_null(why);

	/* CPUID.0AH:EBX bit set = absent; bits past EAX[31:24] too */
	d.events_absent = 1u << 1;
	assert_false(pmu_encode(&d, PMU_EV_INSTRUCTIONS, &sel, &why));
	assert_non_null(strstr(why, "CPUID.0AH:EBX"));
	assert_true(pmu_encode(&d, PMU_EV_CYCLES, &sel, &why));
	d.events_absent = 0;
	d.events_len = 3;
	assert_false(pmu_encode(&d, PMU_EV_LLC_REFS, &sel, &why));
	assert_true(pmu_encode(&d, PMU_EV_INSTRUCTIONS, &sel, &why));

	amd(&ci, true);
	pmu_describe(&d, &ci);
	assert_true(pmu_encode(&d, PMU_EV_CYCLES, &sel, &why));
	assert_int_equal(sel, 0x76);
	assert_true(pmu_encode(&d, PMU_EV_INSTRUCTIONS, &sel, &why));
	assert_int_equal(sel, 0xc0);
	assert_false(pmu_encode(&d, PMU_EV_LLC_MISSES, &sel, &why));
	/* family 19h: PMCx060 L2RequestG1 umask 40h RdBlkX (PPR) */
	assert_true(pmu_encode(&d, PMU_EV_RFO, &sel, &why));
	assert_int_equal(sel, 0x4060);
	d.family = 0x17;
	assert_true(pmu_encode(&d, PMU_EV_RFO, &sel, &why));
	assert_int_equal(sel, 0x4060);
	/* family 15h (Bulldozer): no encoding; the reason names the event */
	d.family = 0x15;
	assert_false(pmu_encode(&d, PMU_EV_RFO, &sel, &why));
	assert_non_null(strstr(why, "RdBlkX"));
}

static void test_intel_program_restore(void **state)
{
	(void)state;
	struct cpuinfo ci;
	struct pmu_desc d;
	struct pmu_set s;
	struct fake f, before;
	char why[200] = "";
	const enum pmu_event ev[2] = { PMU_EV_CYCLES, PMU_EV_INSTRUCTIONS };
	const uint64_t en = ARCH_PERFMON_EVENTSEL_USR | ARCH_PERFMON_EVENTSEL_OS |
			    ARCH_PERFMON_EVENTSEL_ENABLE;

	intel(&ci, 2, 4, 0x55);
	pmu_describe(&d, &ci);
	intel_msrs(&f, 4, true);
	memcpy(&before, &f, sizeof(f));
	assert_int_equal(pmu_open(&s, &d, ops_for(&f), ev, 2, why, sizeof(why)), 0);
	assert_int_equal(get(&f, MSR_ARCH_PERFMON_EVENTSEL0), 0x003c | en);
	assert_int_equal(get(&f, MSR_ARCH_PERFMON_EVENTSEL0 + 1), 0x00c0 | en);
	assert_int_equal(get(&f, MSR_ARCH_PERFMON_PERFCTR0), 0);
	/* GLOBAL_CTRL: our two counters enabled, the rest kept */
	assert_int_equal(get(&f, MSR_CORE_PERF_GLOBAL_CTRL), before.m[8].val | 3);
	/* untouched: counters 2 and 3 */
	assert_int_equal(get(&f, MSR_ARCH_PERFMON_EVENTSEL0 + 2), 0x1102);
	assert_int_equal(f.faults, 0);

	uint64_t v[2];

	f.m[find(&f, MSR_ARCH_PERFMON_PERFCTR0 + 1)].val = 12345;
	assert_int_equal(pmu_read(&s, v), 0);
	assert_int_equal(v[1], 12345);

	pmu_close(&s);
	pmu_close(&s);	/* twice is harmless */
	uint32_t bad;
	uint64_t got;

	assert_int_equal(pmu_verify_restored(&s, 2, &bad, &got), 0);
	/* and it notices a selector left behind */
	f.m[find(&f, MSR_ARCH_PERFMON_EVENTSEL0 + 1)].val = 0x4000c0;
	assert_int_equal(pmu_verify_restored(&s, 2, &bad, &got), -1);
	assert_int_equal(bad, MSR_ARCH_PERFMON_EVENTSEL0 + 1);
	assert_int_equal(got, 0x4000c0);
	f.m[find(&f, MSR_ARCH_PERFMON_EVENTSEL0 + 1)].val = before.m[2].val;
	for (unsigned i = 0; i < f.n; i++)
		if (f.m[i].val != before.m[i].val)
			fail_msg("MSR 0x%x is 0x%llx after close, was 0x%llx", f.m[i].msr,
				 (unsigned long long)f.m[i].val, (unsigned long long)before.m[i].val);
	assert_int_equal(pmu_read(&s, v), -1);
}

/* Version 1 has no IA32_PERF_GLOBAL_CTRL: the fake faults if touched. */
static void test_intel_v1_no_global(void **state)
{
	(void)state;
	struct cpuinfo ci;
	struct pmu_desc d;
	struct pmu_set s;
	struct fake f;
	char why[200];
	const enum pmu_event ev[1] = { PMU_EV_INSTRUCTIONS };

	intel(&ci, 1, 2, 0x0f);
	pmu_describe(&d, &ci);
	intel_msrs(&f, 2, false);
	assert_int_equal(pmu_open(&s, &d, ops_for(&f), ev, 1, why, sizeof(why)), 0);
	pmu_close(&s);
	assert_int_equal(f.faults, 0);
}

static void test_amd_ext_msrs(void **state)
{
	(void)state;
	struct cpuinfo ci;
	struct pmu_desc d;
	struct pmu_set s;
	struct fake f;
	char why[200];
	const enum pmu_event ev[2] = { PMU_EV_CYCLES, PMU_EV_INSTRUCTIONS };

	amd(&ci, true);
	pmu_describe(&d, &ci);
	assert_int_equal(pmu_ctl_msr(&d, 0), 0xc0010200);
	assert_int_equal(pmu_ctr_msr(&d, 0), 0xc0010201);
	assert_int_equal(pmu_ctl_msr(&d, 5), 0xc001020a);
	assert_int_equal(pmu_ctr_msr(&d, 5), 0xc001020b);
	memset(&f, 0, sizeof(f));
	for (unsigned i = 0; i < 6; i++) {
		add(&f, 0xc0010200 + 2 * i, 0);
		add(&f, 0xc0010201 + 2 * i, 0);
	}
	assert_int_equal(pmu_open(&s, &d, ops_for(&f), ev, 2, why, sizeof(why)), 0);
	assert_int_equal(get(&f, 0xc0010200) & 0xff, 0x76);
	assert_true(get(&f, 0xc0010200) & ARCH_PERFMON_EVENTSEL_ENABLE);
	assert_int_equal(get(&f, 0xc0010202) & 0xff, 0xc0);
	pmu_close(&s);
	assert_int_equal(get(&f, 0xc0010200), 0);
	assert_int_equal(f.faults, 0);

	/* legacy: the K7 MSRs */
	amd(&ci, false);
	pmu_describe(&d, &ci);
	assert_int_equal(pmu_ctl_msr(&d, 3), 0xc0010003);
	assert_int_equal(pmu_ctr_msr(&d, 3), 0xc0010007);
}

/* Writes accepted but not kept (QEMU TCG, a hypervisor without a virtual
 * PMU): refused, with the reason, and the rest left as it was. */
static void test_dropped_writes_refused(void **state)
{
	(void)state;
	struct cpuinfo ci;
	struct pmu_desc d;
	struct pmu_set s;
	struct fake f;
	char why[300] = "";
	const enum pmu_event ev[1] = { PMU_EV_INSTRUCTIONS };

	amd(&ci, false);
	pmu_describe(&d, &ci);
	memset(&f, 0, sizeof(f));
	for (unsigned i = 0; i < 4; i++) {
		add(&f, 0xc0010000 + i, 0);
		add(&f, 0xc0010004 + i, 0);
	}
	f.drop_writes = true;
	assert_int_equal(pmu_open(&s, &d, ops_for(&f), ev, 1, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "does not hold a written value"));
	assert_false(s.open);

	/* and a working file passes the same probe */
	f.drop_writes = false;
	assert_int_equal(pmu_open(&s, &d, ops_for(&f), ev, 1, why, sizeof(why)), 0);
	pmu_close(&s);
}

/* Absent MSRs: the failure names the access and nothing is written. */
static void test_faulting_msrs(void **state)
{
	(void)state;
	struct cpuinfo ci;
	struct pmu_desc d;
	struct pmu_set s;
	struct fake f;
	char why[200] = "";
	const enum pmu_event ev[2] = { PMU_EV_CYCLES, PMU_EV_INSTRUCTIONS };

	intel(&ci, 2, 4, 0x55);
	pmu_describe(&d, &ci);
	memset(&f, 0, sizeof(f));
	add(&f, MSR_CORE_PERF_GLOBAL_CTRL, 0);
	add(&f, MSR_ARCH_PERFMON_EVENTSEL0, 0);
	add(&f, MSR_ARCH_PERFMON_PERFCTR0, 0);	/* counter 1 missing */
	assert_int_equal(pmu_open(&s, &d, ops_for(&f), ev, 2, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "counter 1"));
	assert_int_equal(f.writes, 0);

	/* more events than counters, and no PMU at all */
	const enum pmu_event five[5] = { 0, 1, 2, 3, 4 };

	intel_msrs(&f, 4, true);
	assert_int_equal(pmu_open(&s, &d, ops_for(&f), five, 5, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "4 general-purpose counters"));
	intel(&ci, 0, 0, 0x55);
	pmu_describe(&d, &ci);
	assert_int_equal(pmu_open(&s, &d, ops_for(&f), ev, 1, why, sizeof(why)), -1);
	assert_int_equal(f.writes, 0);
}

static void test_delta_wraps(void **state)
{
	(void)state;
	struct cpuinfo ci;
	struct pmu_desc d;
	struct pmu_set s;

	amd(&ci, false);
	pmu_describe(&d, &ci);
	memset(&s, 0, sizeof(s));
	s.d = &d;
	assert_int_equal(pmu_delta(&s, 0xfffffffffff0ull, 0x10), 0x20);
	assert_int_equal(pmu_delta(&s, 100, 250), 150);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_encode),
		cmocka_unit_test(test_intel_program_restore),
		cmocka_unit_test(test_intel_v1_no_global),
		cmocka_unit_test(test_amd_ext_msrs),
		cmocka_unit_test(test_dropped_writes_refused),
		cmocka_unit_test(test_faulting_msrs),
		cmocka_unit_test(test_delta_wraps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
