/* SPDX-License-Identifier: GPL-2.0-only */
/* tlb: AMD's broadcast invalidation, INVLPGB + TLBSYNC (AMD APM vol. 3).
 * Correctness on every CPU holding the translation, per variant (one page,
 * the CPUID maximum, 2 MiB stride, a whole PCID, a global page, and a
 * non-zero PCID with its wrong-PCID control), then its cost over the
 * shootdown grid beside the IPI shootdown's, what it costs the other CPUs
 * (victim.c), several initiators at once, and whether every CPU reports
 * the same INVLPGB count.  INVLPGB is never executed without its CPUID bit
 * and a boot probe that ran it (kernel/cpu_probe.c): an absent INVLPGB
 * kills the guest under some hypervisors. */
#include "suites/tlb/tlb.h"
#include "kernel/test.h"
#include "kernel/platform.h"
#include "arch/x86/cpu.h"
#include "arch/x86/paging.h"
#include "arch/x86/pgtable_test.h"
#include "arch/x86/processor-flags.h"
#include "arch/x86/tlbflush.h"
#include "lib/printf.h"

/* INVLPGB over n pages from va0 in chunks of at most the CPUID maximum,
 * then TLBSYNC.  ASID valid with ASID 0 names the host's own entries (as
 * Linux always does: "x86/mm: Always set the ASID valid bit for the INVLPGB
 * instruction").  Only reached when CPUID 8000_0008h:EBX[3] is set. */
void invlpgb_flush_range(struct sd *s, uint64_t va0, unsigned n, bool pmd, unsigned flags,
			 unsigned pcid)
{
	uint64_t step = pmd ? SZ_2M : 4096u;

	if (!plat_cpu_has(X86_FEATURE_INVLPGB) || !s->invlpgb_max)
		return;
	/* INVLPGB is weakly ordered (APM vol. 3): make the PTE stores global
	 * before any CPU can drop its entry and re-walk.  Conservative; part
	 * of the measured cost. */
	__asm__ volatile("mfence" ::: "memory");
	if (!(flags & INVLPGB_FLAG_VA))
		n = 1;		/* no address: one instruction, count 0 (as Linux) */
	for (unsigned done = 0; done < n;) {
		unsigned c = n - done < s->invlpgb_max ? n - done : s->invlpgb_max;
		struct invlpgb_ops op;

		if (invlpgb_pack(0, pcid, (flags & INVLPGB_FLAG_VA) ? va0 + done * step : 0, c,
				 pmd, flags | INVLPGB_FLAG_ASID, &op))
			__invlpgb(&op);
		done += c;
	}
	__tlbsync();
}

struct ib_variant {
	const char *metric;
	unsigned flags;
	bool large, global;
	unsigned pages;		/* 0: the CPUID maximum (at most 512) */
};

/* The non-zero PCID case: every CPU runs with CR4.PCIDE=1 and PCID
 * IB_PCID in CR3; INVLPGB naming that PCID must drop the entry everywhere,
 * and INVLPGB naming the next PCID must not need to (the control: its
 * stale reads show a flush of the wrong PCID would be caught). */
#define IB_PCID		1u
static const struct ib_variant ib_variants[] = {
	{ "one_page.1p.allcpu", INVLPGB_FLAG_VA, false, false, 1 },
	{ "range_max.maxp.allcpu", INVLPGB_FLAG_VA, false, false, 0 },
	{ "stride_2m.4p.allcpu", INVLPGB_FLAG_VA, true, false, 4 },
	{ "pcid0.all.allcpu", INVLPGB_FLAG_PCID, false, false, 8 },
	{ "global.1p.allcpu", INVLPGB_FLAG_VA | INVLPGB_FLAG_INCLUDE_GLOBAL, false, true, 1 },
};

/* The non-zero PCID case (IB_PCID above).  CR4.PCIDE=1 needs CR3[11:0]
 * = 0 when it is set (SDM vol. 3A §4.10.1); each CPU's CR3 and CR4 go back
 * afterwards, CR3 first (remote_cr4_restore()), and by env_restore() on a
 * fault or timeout.  False when the case must end (already failed). */
static bool ib_pcid_case(struct env *e, struct sd *s, unsigned total)
{
	struct test_ctx *t = e->t;
	uint64_t root = e->cr3 & PTE_ADDR_MASK;
	unsigned stale = 0, reads = 0, capped = 0;
	size_t r, rw;
	bool ok;

	if (!plat_cpu_has(X86_FEATURE_PCID) || (e->cr3 & X86_CR3_PCID_MASK)) {
		char why[200];

		x86_feature_absent_why(X86_FEATURE_PCID, "PCID", why, sizeof(why));
		t_diag(t, "pcid%u.1p.allcpu not run: %s", IB_PCID,
		       plat_cpu_has(X86_FEATURE_PCID) ? "CR3[11:0] is not 0" : why);
		return true;
	}
	write_cr4(read_cr4() | X86_CR4_PCIDE);
	write_cr3(root | IB_PCID);
	if (!remote_pcid_on(t, e, s->remote, total - 1, IB_PCID))
		return false;
	s->pcid = IB_PCID;
	s->invlpgb_flags = INVLPGB_FLAG_VA | INVLPGB_FLAG_PCID;

	uint64_t t0 = rdtsc_ordered();

	ok = sd_start(t, e, s, total - 1) && sd_resync(t, e, s, 1);
	for (r = 0; ok && sd_more(t, r, s->nrounds, SD_MIN_ROUNDS, t0, &capped); r++)
		sd_round(t, e, s, 1, SD_INVLPGB, &ok);
	sd_stop(t, s);
	ok = sd_check_remotes(t, s, "pcid") && ok;
	t_metric_value(t, "pcid1.1p.allcpu", ok ? 0 : 1, "count",
		       "rounds=%zu pages=1 cpus=%u flags=0x%x pcid=%u verdict=%s", r, total,
		       s->invlpgb_flags | INVLPGB_FLAG_ASID, IB_PCID, ok ? "flushed-everywhere" : "FAILED");
	tlb_sum.ib_pcid_ok = ok;
	/* the control: the same rounds, INVLPGB naming PCID IB_PCID + 1 */
	for (unsigned i = 0; i < total - 1; i++)
		s->cpu[s->remote[i]].control_stale = s->cpu[s->remote[i]].control_reads = 0;
	capped = 0;
	t0 = rdtsc_ordered();
	ok = sd_start(t, e, s, total - 1) && sd_resync(t, e, s, 1);
	for (rw = 0; ok && sd_more(t, rw, s->nrounds, SD_MIN_ROUNDS, t0, &capped); rw++)
		sd_round(t, e, s, 1, SD_INVLPGB_WRONG_PCID, &ok);
	sd_stop(t, s);
	ok = sd_check_remotes(t, s, "wrong-pcid control") && ok;
	for (unsigned i = 0; i < total - 1; i++) {
		stale += s->cpu[s->remote[i]].control_stale;
		reads += s->cpu[s->remote[i]].control_reads;
	}
	t_metric_value(t, "wrong_pcid_control.1p.allcpu", stale, "count",
		       "rounds=%zu reads=%u remote_cpus=%u pcid_run=%u pcid_named=%u control=%s", rw, reads,
		       total - 1, IB_PCID, IB_PCID + 1, stale ? "fired" : "not-observed");
	tlb_sum.ib_wrong_pcid_stale = stale;
	tlb_sum.ib_wrong_pcid_reads = reads;
	/* back to PCID 0 everywhere, CR3 before CR4 */
	remote_cr4_restore(e);
	e->rcr4 = NULL;
	write_cr3(root);
	write_cr4(e->cr4);
	s->pcid = 0;
	s->invlpgb_flags = INVLPGB_FLAG_VA;
	return ok;
}

static void body_invlpgb(struct env *e)
{
	struct test_ctx *t = e->t;
	unsigned total, counts[16], ncounts;
	struct sd *s = sd_setup(t, e, &total);
	char name[80];

	if (!s)
		return;
	size_t nrounds = s->nrounds;
	uint64_t *samples = s->samples;

	/* CR4.PGE on every participating CPU, not only CPU 0: without it a
	 * remote CPU caches the global.1p entry as non-global and the
	 * INCLUDE_GLOBAL flush would go unchecked there.  Put back after the
	 * variants below, and by env_restore() on a fault or timeout. */
	bool pge_all = false;

	if (plat_cpu_has(X86_FEATURE_PGE)) {
		pge_on();
		if (!remote_pge_on(t, e, s->remote, total - 1))
			return;
		pge_all = true;
	}
	/* Correctness on CPU 0 and every remote CPU holding the translation. */
	for (unsigned v = 0; v < sizeof(ib_variants) / sizeof(ib_variants[0]); v++) {
		const struct ib_variant *iv = &ib_variants[v];
		unsigned n = iv->pages ? iv->pages : (s->invlpgb_max < 512 ? s->invlpgb_max : 512);
		bool ok = true;

		s->large = iv->large;
		s->global = iv->global;
		s->invlpgb_flags = iv->flags;
		s->va0 = iv->large ? pt_win_va_2m(PT_WIN_2M_FIRST) : pt_win_va_4k(0);
		s->step = iv->large ? SZ_2M : 4096;
		if (!sd_start(t, e, s, total - 1))
			return;
		size_t r;
		unsigned capped = 0;
		uint64_t t0 = rdtsc_ordered();

		ok = sd_resync(t, e, s, n);
		for (r = 0; ok && sd_more(t, r, nrounds, SD_MIN_ROUNDS, t0, &capped); r++)
			sd_round(t, e, s, n, SD_INVLPGB, &ok);
		sd_stop(t, s);
		if (capped & SD_CAP_QUICK)
			t_budget_note(t, iv->metric, r, nrounds);
		ok = sd_check_remotes(t, s, iv->metric) && ok;
		t_metric_value(t, iv->metric, ok ? 0 : 1, "count",
			       "rounds=%zu pages=%u cpus=%u flags=0x%x stride=%s cr4_pge=%s verdict=%s", r, n,
			       total, iv->flags | INVLPGB_FLAG_ASID, iv->large ? "2m" : "4k",
			       pge_all ? "all-cpus" : "none", ok ? "flushed-everywhere" : "FAILED");
		if (iv->large)
			for (unsigned i = 0; i < n; i++)
				pt_win_unmap_2m(&e->w, PT_WIN_2M_FIRST + i);
	}
	if (pge_all) {
		remote_cr4_restore(e);
		e->rcr4 = NULL;
		write_cr4(e->cr4);
	}
	s->large = s->global = false;
	s->invlpgb_flags = INVLPGB_FLAG_VA;
	s->va0 = pt_win_va_4k(0);
	s->step = 4096;
	if (!ib_pcid_case(e, s, total))
		return;
	/* Cost over the shootdown grid, next to the IPI medians, with Linux's
	 * policy: up to the 33-page ceiling a range flush (INVLPGB with the
	 * address, in chunks of the CPUID maximum), above it one flush of the
	 * whole PCID (INVLPGB with PCID and no address: Linux's
	 * invlpgb_flush_single_pcid_nosync()); next to the ceiling (64 pages)
	 * also the range flush, as the IPI grid measures both sides. */
	ncounts = sd_cpu_counts(total, counts);
	for (unsigned ci = 0; ci < ncounts; ci++) {
		unsigned ncpu = counts[ci], cross = 0;

		if (sd_allcpu_skip(t, s, ncpu, total))
			continue;
		for (unsigned pi = 0; pi < SD_NPAGES; pi++) {
			unsigned n = sd_pages[pi];
			uint64_t med = 0, ipi = ci < 16 ? sd_ipi_p50[ci][pi] : 0;

			bool range = n <= FLUSH_CEILING;

			s->invlpgb_flags = range ? INVLPGB_FLAG_VA : INVLPGB_FLAG_PCID;
			rl_snprintf(name, sizeof(name), "invlpgb_tlbsync.%up.%ucpu", n, ncpu);
			if (!sd_point(t, e, s, n, ncpu, SD_INVLPGB, name,
				      range ? "linux-invlpgb-range" : "linux-invlpgb-pcid-flush-above-ceiling",
				      samples, nrounds, &med))
				return;
			if (ci < 16)
				sd_ib_p50[ci][pi] = med;
			if (n == 64) {
				s->invlpgb_flags = INVLPGB_FLAG_VA;
				rl_snprintf(name, sizeof(name), "invlpgb_range.%up.%ucpu", n, ncpu);
				if (!sd_point(t, e, s, n, ncpu, SD_INVLPGB, name, "other-side-of-ceiling-range",
					      samples, nrounds, NULL))
					return;
			}
			s->invlpgb_flags = INVLPGB_FLAG_VA;
			if (n == 1 && ncpu == 2)
				tlb_sum.invlpgb_1p[0] = med;
			if (n == 1 && ncpu == total)
				tlb_sum.invlpgb_1p[1] = med;
			t_diag(t, "%u pages, %u CPUs: INVLPGB+TLBSYNC p50 %llu cycles, IPI shootdown p50 %s%llu",
			       n, ncpu, (unsigned long long)med, ipi ? "" : "(not measured) ",
			       (unsigned long long)ipi);
			if (ipi && med < ipi && !cross)
				cross = n;
		}
		if (ncpu == total)
			tlb_sum.cross_pages = cross;
		if (cross)
			t_conclude(t, "crossover at %u CPUs: INVLPGB cheaper than IPI from pages=%u", ncpu, cross);
		else
			t_conclude(t, "crossover at %u CPUs: INVLPGB cheaper than IPI at no measured page count (or IPI not measured)",
				   ncpu);
	}
	sd_budget_note(t, s, "invlpgb grid");
	tlb_sum.invlpgb_measured = true;
	/* every remote read after an INVLPGB: the checks and the grid */
	tlb_sum.ib_reads = s->reads_after;
	tlb_sum.ib_old = s->old_after;
	tlb_sum.ib_single_p50 = sd_ib_p50[ncounts - 1][0];
	/* the other CPUs' lost time, as tlb.shootdown measured for the IPI */
	sd_victim(t, e, s, total, SD_INVLPGB, &tlb_sum.victim_ib);
	/* concurrent initiators: 2 and every CPU */
	const unsigned inits[2] = { 2, total };

	for (unsigned i = 0; i < (total > 2 ? 2u : 1u); i++) {
		uint64_t med;

		rl_snprintf(name, sizeof(name), "concurrent.1p.%ucpu", inits[i]);
		if (!sd_concurrent(t, e, s, inits[i], name, &med))
			return;
		tlb_sum.ib_conc_p50 = med;
		tlb_sum.ib_conc_k = inits[i];
	}
}

TEST(tlb, invlpgb, .order = 100, .budget_ms = 120000)
{
	/* never executed without the bit: an absent INVLPGB kills the
	 * guest under some hypervisors */
	if (!t_require(t, X86_FEATURE_INVLPGB, "INVLPGB/TLBSYNC"))
		return;
	with_env(t, true, body_invlpgb);
}

/* Each CPU decodes its own CPUID with the feature table's decoder
 * (cpuinfo_decode(), arch/x86/cpuinfo.c, from the instruction itself: no
 * overrides) into its own slot of a test-local array (never into shared
 * identification state: Linux's INVLPGB enablement hit a late-onlined CPU
 * writing read-only data); CPU 0 then compares.  A planted disagreement
 * must be found (the control). */
struct cnt_slot {
	struct cpuinfo ci;
	volatile bool read;
};

/* Where the count comes from: a field, which the feature table
 * (arch/x86/cpufeature.h) does not name; cpuinfo_decode() reads it. */
#define INVLPGB_COUNT_SOURCE	CPUID_SOURCE_INVLPGB_MAX_PAGES	/* arch/x86/cpuinfo.h */

static void read_count(void *arg)
{
	struct cnt_slot *c = &((struct cnt_slot *)arg)[plat_this_cpu()];

	cpuinfo_decode(&c->ci, cpuid_native, NULL);
	__atomic_store_n(&c->read, true, __ATOMIC_RELEASE);
}

/* The most pages one INVLPGB may name; 0 without INVLPGB. */
static unsigned cnt_max(const struct cnt_slot *c)
{
	return c->ci.invlpgb_max_pages;
}

/* CPUs whose INVLPGB bit or max count differ from CPU 0's. */
static unsigned cnt_disagree(struct test_ctx *t, const struct cnt_slot *c, unsigned n, bool print)
{
	unsigned bad = 0, ref = cnt_max(&c[0]);
	char src[40];

	x86_feature_source(X86_FEATURE_INVLPGB, src, sizeof(src));
	for (unsigned i = 1; i < n; i++) {
		if (!c[i].read)
			continue;
		if (cnt_max(&c[i]) != ref) {
			bad++;
			if (print)
				t_diag(t, "cpu %u: INVLPGB max pages %u (%s=%u), cpu 0 says %u", i,
				       cnt_max(&c[i]), src, c[i].ci.invlpgb, ref);
		}
	}
	return bad;
}

TEST(tlb, invlpgb_count, .order = 110)
{
	unsigned n = plat_ncpus(), list[256], nl = 0, unread = 0;
	struct cnt_slot *c = t_alloc(t, (n + 1) * sizeof(*c));
	uint32_t max_pages = plat_cpu_info()->invlpgb_max_pages;

	for (unsigned i = 0; i < n && nl < 256; i++)
		if (plat_online(i))
			list[nl++] = i;
	plat_call_many(list, nl, read_count, c, T_LOST_US / 1000, NULL);
	for (unsigned i = 0; i < nl; i++)
		if (!c[list[i]].read)
			unread++;
	t_check(t, unread == 0, "%u CPUs did not report CPUID 8000_0008h", unread);
	t_check(t, cnt_max(&c[0]) == max_pages, "cpu 0 reads max pages %u, the feature table has %u",
		cnt_max(&c[0]), max_pages);
	unsigned dis = cnt_disagree(t, c, n, true);

	t_metric_value(t, "disagreeing_cpus.allcpu", dis, "count",
		       "cpus=%u cpu0_max_pages=%u invlpgb=%s source=" INVLPGB_COUNT_SOURCE, nl,
		       cnt_max(&c[0]), plat_cpu_has(X86_FEATURE_INVLPGB) ? "yes" : "no");
	if (dis)
		t_diag(t, "%u CPUs disagree with cpu 0 about INVLPGB; Linux uses the boot CPU's value", dis);
	/* Control: plant a disagreement in the last slot (a spare slot when
	 * there is only one CPU) and count again: exactly one more, less the
	 * one that slot may already have contributed. */
	unsigned last = n > 1 ? n - 1 : n;
	unsigned was = n > 1 && c[last].read && cnt_max(&c[last]) != cnt_max(&c[0]);

	c[last].ci = c[0].ci;
	c[last].ci.invlpgb = true;
	c[last].ci.invlpgb_max_pages = cnt_max(&c[0]) + 8;
	c[last].read = true;
	unsigned planted = cnt_disagree(t, c, last + 1, false);

	t_check(t, planted == dis - was + 1, "planted disagreement not found (%u counted, %u before)",
		planted, dis);
}
