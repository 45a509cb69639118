/* SPDX-License-Identifier: GPL-2.0-only */
/* smp: every usable CPU is online, with the APIC ID firmware and CPUID
 * agree on; topology; how long each AP took to start. */
#include "kernel/test.h"
#include "arch/x86/apic.h"
#include "arch/x86/cpu.h"
#include "kernel/platform.h"
#include "lib/string.h"

SUITE(smp, 50, "CPU bring-up, APIC IDs, topology, AP start latency");

TEST(smp, online)
{
	const struct smpboot_result *r = plat_smpboot();
	const struct acpi_info *ai = plat_acpi();

	t_diag(t, "MADT: %u processor entries, %u enabled; started %u of %u attempted, %u failed, %u not started (cpus=/nosmp/unaddressable)",
	       r->listed, r->enabled, r->started, r->attempted, r->failed, r->skipped);
	/* Firmware errors are part of the verdict: a run whose CPUs could
	 * not be counted must never read as a clean pass. */
	if (!ai->have_madt) {
		t_fail(t, "no CPU enumeration: %s and no usable MP table; only the boot CPU ran (see the error lines above)",
		       ai->madt_invalid ? "the MADT is invalid" :
		       ai->have_rsdp ? "no MADT" : "no ACPI");
		return;
	}
	if (ai->madt_invalid)
		t_fail(t, "the MADT is invalid (see the error lines above): the CPU count cannot be trusted%s",
		       ai->cpus_source && !strcmp(ai->cpus_source, "mptable") ?
		       "; CPUs were taken from the MP table" : "");
	if (ai->cpus_source && !strcmp(ai->cpus_source, "mptable"))
		t_diag(t, "CPUs enumerated from the Intel MP table (no usable ACPI MADT)");
	/* CPUs that answered a start meant for another CPU, or claimed a
	 * slot someone else had: parked at bring-up and reported there. */
	unsigned strays = plat_smpboot_check_strays();

	t_check(t, strays == 0, "%u CPU(s) answered a start not meant for them or claimed a taken slot%s (see the error lines above)",
		strays, r->fw_xapic_high ? ": the firmware left IDs above 255 in xAPIC mode" : "");
	t_check(t, r->failed == 0, "%u enabled CPU(s) did not start (see the error lines above)",
		r->failed);
	if (r->late)
		t_diag(t, "%u CPU(s) arrived after they were given up and were parked", r->late);
	/* Every Enabled MADT CPU is online unless the command line left it
	 * out; and nothing is online that the MADT did not list. */
	unsigned missing = 0;

	for (unsigned i = 0; i < ai->ncpus; i++) {
		const struct acpi_cpu *c = &ai->cpus[i];

		if (!(c->flags & ACPI_MADT_ENABLED))
			continue;
		if (!plat_online(plat_cpu_by_apic_id(c->apic_id)))
			missing++;
	}
	t_check(t, missing == r->skipped + r->failed,
		"%u enabled CPUs are not online, but only %u were left out or failed", missing,
		r->skipped + r->failed);
	for (unsigned i = 0; i < plat_ncpus(); i++) {
		uint32_t id = plat_cpu_apic_id(i);
		bool listed = false;

		for (unsigned j = 0; j < ai->ncpus; j++)
			if (ai->cpus[j].apic_id == id && (ai->cpus[j].flags & ACPI_MADT_ENABLED))
				listed = true;
		t_check(t, listed || i == 0, "cpu %u (APIC ID %u) is online but not an enabled MADT entry",
			i, id);
	}
	t_metric_value(t, "online", (int64_t)plat_ncpus(), "count", "enabled=%u listed=%u",
		       r->enabled, r->listed);
}

struct id_report {
	uint32_t reg_id;	/* the APIC ID register */
	uint32_t cpuid_id;	/* CPUID 0x1F/0xB EDX, or leaf 1 EBX bits 31:24 */
	struct cpu_topo topo;
	bool done;
};

static struct id_report *ids;

static void read_ids(void *p)
{
	(void)p;
	struct id_report *r = &ids[plat_this_cpu()];

	r->reg_id = apic_id();
	plat_topo_read(&r->topo);
	r->cpuid_id = r->topo.x2apic_id;
	r->done = true;
}

/* Sort-free uniqueness check, O(n log n) via a copy sorted in place. */
static bool first_duplicate(struct test_ctx *t, const uint32_t *v, unsigned n, uint32_t *dup)
{
	uint64_t *s = t_alloc(t, n * sizeof(uint64_t));

	for (unsigned i = 0; i < n; i++)
		s[i] = v[i];
	sort_u64(s, n);
	for (unsigned i = 1; i < n; i++)
		if (s[i] == s[i - 1]) {
			*dup = (uint32_t)s[i];
			return true;
		}
	return false;
}

static bool gather_ids(struct test_ctx *t)
{
	ids = t_alloc(t, plat_ncpus() * sizeof(*ids));
	int rc = plat_call_online(read_ids, 0, 2000, NULL);

	return rc == PLAT_OK || t_fail(t, "reading IDs on every CPU: %s", plat_strerror(rc));
}

TEST(smp, apic_ids)
{
	uint32_t *v = t_alloc(t, plat_ncpus() * sizeof(uint32_t)), dup;
	unsigned n = 0;

	if (!gather_ids(t))
		return;
	bool x2 = plat_apic_mode() == APIC_MODE_X2APIC;

	for (unsigned i = 0; i < plat_ncpus(); i++) {
		struct id_report *r = &ids[i];
		uint32_t madt = plat_cpu_apic_id(i);

		if (!plat_online(i) || !r->done)
			continue;
		v[n++] = r->reg_id;
		t_check(t, r->reg_id == madt, "cpu %u: APIC ID register %u, MADT says %u", i,
			r->reg_id, madt);
		/* In xAPIC mode the register holds only 8 bits. */
		uint32_t cpuid_cmp = x2 || r->topo.leaf == 1 ? r->cpuid_id : r->cpuid_id & 0xff;

		t_check(t, cpuid_cmp == r->reg_id, "cpu %u: CPUID leaf 0x%x says APIC ID %u, register %u",
			i, r->topo.leaf, r->cpuid_id, r->reg_id);
	}
	t_check(t, !first_duplicate(t, v, n, &dup), "APIC ID %u appears on two CPUs", dup);
	/* Negative control: the uniqueness check sees a planted duplicate. */
	uint32_t planted[3] = { 4, 7, 4 };

	t_check(t, first_duplicate(t, planted, 3, &dup) && dup == 4,
		"duplicate check misses a planted duplicate");
	t_metric_value(t, "checked", n, "count", "mode=%s", apic_mode_name(plat_apic_mode()));
}

TEST(smp, topology)
{
	if (!gather_ids(t))
		return;
	unsigned n = 0, pkgs = 0, cores = 0;
	uint64_t *keys = t_alloc(t, plat_ncpus() * sizeof(uint64_t));
	uint64_t *pk = t_alloc(t, plat_ncpus() * sizeof(uint64_t));

	for (unsigned i = 0; i < plat_ncpus(); i++) {
		const struct cpu_topo *tp = &ids[i].topo;

		if (!plat_online(i) || !ids[i].done)
			continue;
		if (i < 8 || t->verbose)
			t_diag(t, "cpu %u: apic %u package %u core %u thread %u (leaf 0x%x, smt shift %u, package shift %u)",
			       i, tp->x2apic_id, tp->package, tp->core, tp->thread, tp->leaf,
			       tp->smt_shift, tp->pkg_shift);
		keys[n] = ((uint64_t)tp->package << 40) | ((uint64_t)tp->core << 20) | tp->thread;
		pk[n] = ((uint64_t)tp->package << 40) | ((uint64_t)tp->core << 20);
		n++;
	}
	sort_u64(keys, n);
	sort_u64(pk, n);
	for (unsigned i = 0; i < n; i++) {
		if (i && keys[i] == keys[i - 1])
			t_fail(t, "two CPUs decode to package %llu core %llu thread %llu",
			       (unsigned long long)(keys[i] >> 40),
			       (unsigned long long)((keys[i] >> 20) & 0xfffff),
			       (unsigned long long)(keys[i] & 0xfffff));
		if (!i || pk[i] != pk[i - 1])
			cores++;
		if (!i || (pk[i] >> 40) != (pk[i - 1] >> 40))
			pkgs++;
	}
	t_diag(t, "topology: %u packages, %u cores, %u threads", pkgs, cores, n);
	t_metric_value(t, "threads", n, "count", "packages=%u cores=%u", pkgs, cores);
}

TEST(smp, start_latency)
{
	const struct smpboot_result *r = plat_smpboot();
	uint64_t *ns = t_alloc(t, plat_ncpus() * sizeof(uint64_t));
	unsigned n = 0;

	if (r->attempted == 0) {
		t_skip(t, "no application processor was started");
		return;
	}
	unsigned missing = 0;

	for (unsigned i = 1; i < plat_ncpus(); i++) {
		if (!plat_cpu_start_cycles(i))
			missing++;
		ns[n++] = plat_cycles_to_ns(plat_cpu_start_cycles(i));
	}
	/* Each AP: from the BSP's INIT to the BSP seeing it online, on the
	 * BSP's clock (so no TSC synchronization is assumed). */
	/* Per AP: all of them in a verbose run, else the first few and the
	 * slowest. */
	unsigned slowest = 1;

	for (unsigned i = 1; i < plat_ncpus(); i++) {
		if (plat_cpu_start_cycles(i) > plat_cpu_start_cycles(slowest))
			slowest = i;
		if (i <= 4 || t->verbose)
			t_diag(t, "cpu %u (APIC ID %u): started in %llu ns", i, plat_cpu_apic_id(i),
			       (unsigned long long)plat_cycles_to_ns(plat_cpu_start_cycles(i)));
	}
	if (plat_ncpus() > 1)
		t_diag(t, "slowest: cpu %u (APIC ID %u), %llu ns", slowest, plat_cpu_apic_id(slowest),
		       (unsigned long long)plat_cycles_to_ns(plat_cpu_start_cycles(slowest)));
	/* Parallel: each AP's INIT was sent in one pass, then every SIPI;
	 * the BSP polls all APs and stamps each when it first sees it
	 * online.  Serial: one AP at a time. */
	t_metric_dist(t, "latency", ns, n, "ns", "method=init-to-online-on-bsp-clock start=%s",
		      r->serial ? "serial" : "parallel");
	t_metric_value(t, "total", (int64_t)plat_cycles_to_ns(r->total_cycles), "ns",
		       "started=%u failed=%u start=%s", r->started, r->failed,
		       r->serial ? "serial" : "parallel");
	t_check(t, missing == 0, "%u started CPUs have no recorded start latency", missing);
}
