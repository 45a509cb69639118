/* SPDX-License-Identifier: GPL-2.0-only */
/* tlb: the closing summary (what a kernel developer asks first) and the
 * answers block's tlb_flush and tlb_shootdown (kernel/test.h), from what
 * the cases before it measured. */
#include "suites/tlb/tlb.h"
#include "kernel/test.h"
#include "kernel/platform.h"
#include "lib/printf.h"
#include "lib/stats.h"
#include "lib/string.h"

struct tlb_sum tlb_sum = { .local_stale = -1, .remote_stale = -1 };

uint64_t p50_of(uint64_t *sorted, size_t n)
{
	return n ? percentile_sorted(sorted, n, 50) : 0;
}

static enum t_control control_of(int stale)
{
	return stale < 0 ? T_CONTROL_NONE : stale ? T_CONTROL_FIRED : T_CONTROL_NOT_OBSERVED;
}

/* The smallest CPU count from which INVLPGB+TLBSYNC is cheaper than the
 * IPI shootdown at every measured CPU count above it, for page index pi;
 * 0: never (or nothing to compare). */
static unsigned ib_cpu_crossover(unsigned pi)
{
	unsigned from = 0;

	for (unsigned ci = sd_ncounts; ci-- > 0;) {
		uint64_t ipi = sd_ipi_p50[ci][pi], ib = sd_ib_p50[ci][pi];

		if (!ipi || !ib)
			continue;
		if (ib >= ipi)
			break;
		from = sd_counts[ci];
	}
	return from;
}

/* The answers block (kernel/test.h): tlb_flush and tlb_shootdown. */
static void summary_answers(struct test_ctx *t)
{
	char from[400];

	if (tlb_sum.invlpg) {
		uint64_t x_cr3 = tlb_sum.mov_cr3 / tlb_sum.invlpg, x_pge = tlb_sum.global / tlb_sum.invlpg;

		rl_snprintf(from, sizeof(from),
			    "tlb.summary.invlpg_vs_mov_cr3_crossover.1cpu,tlb.cost.invlpg_present.1p.1cpu,tlb.cost.mov_cr3.all.1cpu,tlb.cost.global_flush.all.1cpu%s",
			    tlb_sum.local_stale >= 0 ? ",tlb.flush_4k.invlpg.1p.1cpu" : "");
		t_answer(t, ANSWER_TLB_FLUSH, from, control_of(tlb_sum.local_stale),
			 "INVLPG (%llu cycles/page) beats a full flush up to %llu pages against MOV CR3 (%llu cycles) and up to %llu against the CR4.PGE toggle (%llu); instruction cost only, the re-walk after it (%llu vs hit %llu cycles) comes on top; Linux's ceiling is %u.",
			 (unsigned long long)tlb_sum.invlpg, (unsigned long long)x_cr3,
			 (unsigned long long)tlb_sum.mov_cr3, (unsigned long long)x_pge,
			 (unsigned long long)tlb_sum.global, (unsigned long long)tlb_sum.rewalk_invlpg,
			 (unsigned long long)tlb_sum.rewalk_hit, FLUSH_CEILING);
	}
	if (tlb_sum.ipi_all_cpus > 1 && sd_ncounts) {
		unsigned all = sd_ncounts - 1, n = sd_counts[all];
		char ib[200];

		/* page index 0 is 1 page, 4 is 64 pages (a full flush by Linux's policy) */
		rl_snprintf(from, sizeof(from),
			    "tlb.shootdown.ipi_invlpg.1p.2cpu,tlb.shootdown.ipi_invlpg.1p.%ucpu,tlb.shootdown.ipi_invlpg.32p.%ucpu,tlb.shootdown.ipi_full.64p.%ucpu,tlb.shootdown.remote_stale_control.8p.allcpu",
			    n, n, n);
		if (tlb_sum.invlpgb_measured) {
			unsigned c1 = ib_cpu_crossover(0), c64 = ib_cpu_crossover(4);
			size_t len = strlen(from);

			rl_snprintf(ib, sizeof(ib),
				    "INVLPGB+TLBSYNC (1 page: %llu cycles at 2 CPUs, %llu at %u) beats it from %u CPUs for 1 page and from %u for 64 pages (0: never).",
				    (unsigned long long)tlb_sum.invlpgb_1p[0], (unsigned long long)tlb_sum.invlpgb_1p[1],
				    n, c1, c64);
			rl_snprintf(from + len, sizeof(from) - len,
				    ",tlb.invlpgb.invlpgb_tlbsync.1p.2cpu,tlb.invlpgb.invlpgb_tlbsync.1p.%ucpu,tlb.invlpgb.invlpgb_tlbsync.64p.%ucpu",
				    n, n);
		} else {
			char why[200];

			x86_feature_absent_why(X86_FEATURE_INVLPGB, "INVLPGB", why, sizeof(why));
			rl_snprintf(ib, sizeof(ib), "INVLPGB not measured: %s.",
				    plat_cpu_has(X86_FEATURE_INVLPGB) ? "tlb.invlpgb not run" : why);
		}
		t_answer(t, ANSWER_TLB_SHOOTDOWN, from, control_of(tlb_sum.remote_stale),
			 "IPI shootdown (p50, PTE write to last ack): 1 page %llu cycles at 2 CPUs, %llu at %u; 32 pages %llu, 64 pages (full flush) %llu at %u. %s",
			 (unsigned long long)tlb_sum.ipi_1p[0], (unsigned long long)tlb_sum.ipi_1p[1], n,
			 (unsigned long long)sd_ipi_p50[all][3], (unsigned long long)sd_ipi_p50[all][4], n, ib);
	}
}

/* Why INVLPGB was not measured: not run, its bit clear ("CPUID.80000008H:
 * EBX[3] clear"), or what took it away (t_absent_why). */
static const char *invlpgb_not_measured_why(void)
{
	static char clear[60];
	int n;

	if (plat_cpu_has(X86_FEATURE_INVLPGB))
		return "tlb.invlpgb not run";
	n = x86_feature_source(X86_FEATURE_INVLPGB, clear, sizeof(clear));
	rl_snprintf(clear + n, sizeof(clear) - (size_t)n, " clear");
	return t_absent_why(X86_FEATURE_INVLPGB, "INVLPGB", clear);
}

/* The closing diagnostic: what a kernel developer asks first. */
TEST(tlb, summary, .order = 120)
{
	if (!tlb_sum.invlpg && !tlb_sum.ipi_all_cpus) {
		t_skip(t, "nothing measured in this run (tlb.cost and tlb.shootdown not selected)");
		return;
	}
	if (tlb_sum.invlpg) {
		uint64_t full = tlb_sum.mov_cr3, cross = (full + tlb_sum.invlpg / 2) / tlb_sum.invlpg;

		t_conclude(t, "summary: INVLPG %llu cycles/page (absent entry %llu); full flush: MOV CR3 %llu, CR4.PGE toggle %llu cycles (p50)",
		       (unsigned long long)tlb_sum.invlpg, (unsigned long long)tlb_sum.invlpg_absent,
		       (unsigned long long)tlb_sum.mov_cr3, (unsigned long long)tlb_sum.global);
		t_conclude(t, "summary: one MOV CR3 costs as much as %llu INVLPG(s)%s (instruction cost only; Linux's ceiling is %u pages); re-walk after INVLPG %llu vs hit %llu cycles",
		       (unsigned long long)cross, cross ? "" : ": a full flush is cheaper than one INVLPG here", FLUSH_CEILING, (unsigned long long)tlb_sum.rewalk_invlpg,
		       (unsigned long long)tlb_sum.rewalk_hit);
		t_metric_value(t, "invlpg_vs_mov_cr3_crossover.1cpu", (int64_t)cross, "pages",
			       "invlpg_p50=%llu mov_cr3_p50=%llu", (unsigned long long)tlb_sum.invlpg,
			       (unsigned long long)tlb_sum.mov_cr3);
	} else {
		t_conclude(t, "summary: local flush costs not measured (tlb.cost not run)");
	}
	if (tlb_sum.ipi_all_cpus > 1)
		t_conclude(t, "summary: IPI shootdown of 1 page: %llu cycles at 2 CPUs, %llu at all %u CPUs (p50, PTE write to last ack)",
		       (unsigned long long)tlb_sum.ipi_1p[0], (unsigned long long)tlb_sum.ipi_1p[1],
		       tlb_sum.ipi_all_cpus);
	else
		t_conclude(t, "summary: IPI shootdown not measured (one CPU, or tlb.shootdown not run)");
	if (tlb_sum.invlpgb_measured)
		t_conclude(t, "summary: INVLPGB+TLBSYNC of 1 page: %llu cycles at 2 CPUs, %llu at all; cheaper than IPI at all CPUs from %u pages (0: never)",
		       (unsigned long long)tlb_sum.invlpgb_1p[0], (unsigned long long)tlb_sum.invlpgb_1p[1],
		       tlb_sum.cross_pages);
	else
		t_conclude(t, "summary: INVLPGB not measured (%s)", invlpgb_not_measured_why());
	t_conclude(t, "summary: stale-entry controls: local %s, remote %s",
	       tlb_sum.local_stale < 0 ? "not run" : tlb_sum.local_stale ? "fired" : "not observed",
	       tlb_sum.remote_stale < 0 ? "not run" : tlb_sum.remote_stale ? "fired" : "not observed");
	summary_answers(t);
}
