/* SPDX-License-Identifier: GPL-2.0-only */
/* tlb: the closing summary (what a kernel developer asks first) and the
 * answers block's tlb_flush and tlb_shootdown (kernel/test.h), from what
 * the cases before it measured.  Every crossover is computed once, by
 * tlb_crossover(), and the metric, the summary line and the answer print
 * that one value.  The answers' sentences are claims (kernel/test.h
 * "claims"): a cost has no control; "no stale entry after the flush" has
 * the stale-entry control of the same CPUs beside it. */
#include "suites/tlb/tlb.h"
#include "kernel/test.h"
#include "kernel/platform.h"
#include "lib/printf.h"
#include "lib/stats.h"
#include "lib/string.h"

struct tlb_sum tlb_sum = { .local_stale = -1, .remote_stale = -1, .ib_pcid_ok = -1 };

uint64_t p50_of(uint64_t *sorted, size_t n)
{
	return n ? percentile_sorted(sorted, n, 50) : 0;
}

unsigned tlb_crossover(uint64_t full, uint64_t per_page)
{
	uint64_t n;

	if (!per_page)
		return 0;
	n = full / per_page;
	return n > 0xffffffffull ? 0xffffffffu : (unsigned)n;
}

/* The control names of the claims (docs/suites.md "TLB"). */
#define CONTROL_LOCAL	"local-stale-entry"
#define CONTROL_REMOTE	"remote-stale-entry"

static enum t_control control_of(int stale)
{
	return stale < 0 ? T_CONTROL_NONE : stale ? T_CONTROL_FIRED : T_CONTROL_NOT_OBSERVED;
}

/* What the control predicts in n reads: it saw c stale reads in m with no
 * flush, so a flush that did nothing would show c * n / m stale reads in
 * n (x10, lib/claims.h). */
static uint64_t expected_x10(uint64_t c, uint64_t m, uint64_t n)
{
	return m ? (uint64_t)((unsigned __int128)c * n * 10 / m) : 0;
}

/* The smallest CPU count from which INVLPGB+TLBSYNC is cheaper than the
 * IPI shootdown at every measured CPU count above it, for page index pi;
 * 0: at no measured count (or nothing to compare). */
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

/* "up to N", "never" (not even one page), "at all its pages" */
static const char *cross_text(char *buf, size_t size, unsigned cross, unsigned pages)
{
	if (!cross)
		rl_snprintf(buf, size, "never");
	else if (cross >= pages)
		rl_snprintf(buf, size, "at all its pages");
	else
		rl_snprintf(buf, size, "up to %u", cross);
	return buf;
}

/* "64 4K, 4096 4K": the measured sets whose crossover is (or is not) at
 * least Linux's ceiling */
static void ws_list(char *buf, size_t size, bool at_least)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < WS_N; i++) {
		const struct tlb_ws *w = &tlb_sum.ws[i];

		if (w->measured && (w->cross >= FLUSH_CEILING) == at_least)
			len += (size_t)rl_snprintf(buf + len, size - len, "%s%u %s", len ? ", " : "",
						   w->pages, w->large ? "2M" : "4K");
	}
}

/* tlb_flush's sentences: the crossover at each working set, with the
 * re-walk, set beside Linux's ceiling; the instruction cost alone; the
 * claim that no flush left a stale entry, with the local control. */
static void answer_flush(struct test_ctx *t)
{
	char from[300], text[400], pge[80], c[40], under[48], over[48], beside[160];
	size_t len = 0, flen = 0, plen = 0;
	unsigned measured = 0;

	for (unsigned i = 0; i < WS_N; i++) {
		const struct tlb_ws *w = &tlb_sum.ws[i];

		if (!w->measured)
			continue;
		measured++;
		flen += (size_t)rl_snprintf(from + flen, sizeof(from) - flen, "%stlb.summary.rewalk_crossover.%s.1cpu",
					    flen ? "," : "", w->tag);
		len += (size_t)rl_snprintf(text + len, sizeof(text) - len, "%s%s with %u %s pages (%u-%u)",
					   len ? ", " : "", cross_text(c, sizeof(c), w->cross, w->pages),
					   w->pages, w->large ? "2M" : "4K", w->cross_lo, w->cross_hi);
		plen += (size_t)rl_snprintf(pge + plen, sizeof(pge) - plen, "%s%u", plen ? ", " : "",
					    w->cross_global);
	}
	if (measured) {
		ws_list(under, sizeof(under), true);
		ws_list(over, sizeof(over), false);
		if (!over[0])
			rl_snprintf(beside, sizeof(beside), "at or under every one");
		else if (!under[0])
			rl_snprintf(beside, sizeof(beside), "above every one");
		else
			rl_snprintf(beside, sizeof(beside), "above it with %s, at or under with %s", over, under);
		t_answer(t, ANSWER_TLB_FLUSH, from, T_CONTROL_NONE,
			 "Counting the re-walk of the working set, INVLPG beats a MOV CR3 flush: %s (p50, n=%zu; brackets: costs' p25-p75; PGE toggle: %s); Linux's %u is %s.",
			 text, tlb_sum.ws[0].n, pge, FLUSH_CEILING, beside);
	}
	if (tlb_sum.invlpg) {
		char x[48];

		if (tlb_sum.instr_cross)
			rl_snprintf(x, sizeof(x), "INVLPG cheaper up to %u pages", tlb_sum.instr_cross);
		else
			rl_snprintf(x, sizeof(x), "MOV CR3 cheaper than one INVLPG");
		t_answer(t, ANSWER_TLB_FLUSH, "tlb.summary.invlpg_vs_mov_cr3_crossover.1cpu", T_CONTROL_NONE,
			 "Instructions alone, empty TLB: INVLPG %llu, MOV CR3 %llu cycles (%s).",
			 (unsigned long long)tlb_sum.invlpg, (unsigned long long)tlb_sum.mov_cr3, x);
	}
	if (tlb_sum.local_stale >= 0) {
		struct claim cl = {
			.control = CONTROL_LOCAL,
			.state = control_of((int)tlb_sum.local_before_stale),
			.n = tlb_sum.local_rounds,
			.seen = tlb_sum.local_after_old,
			/* the same rounds' reads before the flush: c of n */
			.expected_x10 = expected_x10(tlb_sum.local_before_stale, tlb_sum.local_rounds,
						     tlb_sum.local_rounds),
			.floor = "a stale 4 KiB entry, read once",
		};

		t_answer_claim(t, ANSWER_TLB_FLUSH, "tlb.flush_4k.invlpg.1p.1cpu", &cl,
			       "Stale read after INVLPG, MOV CR3 or PGE toggle");
	}
}

/* "from N CPUs", "at every measured count", "at no measured count" */
static const char *from_cpus(char *buf, size_t size, unsigned c)
{
	if (!c)
		rl_snprintf(buf, size, "at no measured count");
	else if (sd_ncounts && c <= sd_counts[0])
		rl_snprintf(buf, size, "at every measured count");
	else
		rl_snprintf(buf, size, "from %u CPUs", c);
	return buf;
}

/* tlb_shootdown's sentences: the IPI shootdown's cost and the targets'
 * lost time; INVLPGB's, with the CPU-count crossover told as the IPI
 * side's scaling (INVLPGB always broadcasts); the claim that no remote CPU
 * read the old frame after a shootdown, with the remote control; INVLPGB
 * keeping another PCID's entry (a sighting); concurrent INVLPGB initiators
 * last.  With INVLPGB measured the IPI part is shorter, so that the line
 * keeps every claim. */
static void answer_shootdown(struct test_ctx *t)
{
	unsigned all = sd_ncounts - 1, n = sd_counts[all];
	const struct tlb_victim *vi = &tlb_sum.victim_ipi, *vb = &tlb_sum.victim_ib;
	bool ib = tlb_sum.invlpgb_measured;
	char from[200], vt[120] = "", grid[80] = "", x1[32], x64[32];
	int fl;

	if (n > 2)
		fl = rl_snprintf(from, sizeof(from), "tlb.shootdown.ipi_invlpg.1p.2cpu,tlb.shootdown.ipi_invlpg.1p.%ucpu",
				 n);
	else
		fl = rl_snprintf(from, sizeof(from), "tlb.shootdown.ipi_invlpg.1p.2cpu");
	if (!ib) {
		fl += rl_snprintf(from + fl, sizeof(from) - (size_t)fl, ",tlb.shootdown.ipi_full.64p.%ucpu", n);
		rl_snprintf(grid, sizeof(grid), "; 32 pages %llu, 64 pages (full flush) %llu at %u",
			    (unsigned long long)sd_ipi_p50[all][3], (unsigned long long)sd_ipi_p50[all][4], n);
	}
	if (vi->measured) {
		rl_snprintf(from + fl, sizeof(from) - (size_t)fl, ",tlb.shootdown.victim.ipi_invlpg.1p.%ucpu",
			    vi->cpus);
		rl_snprintf(vt, sizeof(vt), " Targets lose %llu cycles each (victim loop, p50, n=%zu).",
			    (unsigned long long)vi->lost_p50, vi->n);
	} else if (vi->budget_cut) {
		rl_snprintf(vt, sizeof(vt), " The targets' lost time was not measured (quick sample budget spent).");
	}
	char at_all[48] = "";

	if (n > 2)
		rl_snprintf(at_all, sizeof(at_all), ", %llu at %u", (unsigned long long)tlb_sum.ipi_1p[1], n);
	t_answer(t, ANSWER_TLB_SHOOTDOWN, from, T_CONTROL_NONE,
		 "IPI shootdown (p50, PTE write to last ack): 1 page %llu cycles at 2 CPUs%s%s.%s",
		 (unsigned long long)tlb_sum.ipi_1p[0], at_all, grid, vt);
	if (ib) {
		fl = rl_snprintf(from, sizeof(from), "tlb.invlpgb.invlpgb_tlbsync.1p.%ucpu", n);
		vt[0] = '\0';
		if (vb->measured) {
			fl += rl_snprintf(from + fl, sizeof(from) - (size_t)fl,
					  ",tlb.invlpgb.victim.invlpgb_tlbsync.1p.%ucpu", vb->cpus);
			rl_snprintf(vt, sizeof(vt), "; targets lose %llu each", (unsigned long long)vb->lost_p50);
		}
		t_answer(t, ANSWER_TLB_SHOOTDOWN, from, T_CONTROL_NONE,
			 "INVLPGB+TLBSYNC (always a broadcast): 1 page %llu at 2 CPUs, %llu at %u%s; so the CPU-count crossover is the IPI side's growth: IPI dearer %s (1 page), %s (64 pages).",
			 (unsigned long long)tlb_sum.invlpgb_1p[0], (unsigned long long)tlb_sum.invlpgb_1p[1], n,
			 vt, from_cpus(x1, sizeof(x1), ib_cpu_crossover(0)),
			 from_cpus(x64, sizeof(x64), ib_cpu_crossover(4)));
	}
	if (tlb_sum.remote_stale >= 0) {
		/* the reads after every IPI shootdown, and after every INVLPGB,
		 * against the remote control's rate (same CPUs, same window) */
		uint64_t reads = tlb_sum.remote_reads + (ib ? tlb_sum.ib_reads : 0);
		struct claim cl = {
			.control = CONTROL_REMOTE,
			.state = control_of(tlb_sum.remote_stale),
			.n = reads,
			.seen = tlb_sum.remote_old + (ib ? tlb_sum.ib_old : 0),
			.expected_x10 = expected_x10((uint64_t)tlb_sum.remote_stale,
						     tlb_sum.remote_control_reads, reads),
			.floor = "a stale remote entry",
		};

		t_answer_claim(t, ANSWER_TLB_SHOOTDOWN, "tlb.shootdown.remote_stale_control.8p.allcpu", &cl,
			       "Remote stale read after %s", ib ? "IPI or INVLPGB" : "an IPI shootdown");
	}
	if (ib && tlb_sum.ib_pcid_ok >= 0) {
		/* a sighting, not a negative: INVLPGB respects the PCID it
		 * names (tlb.invlpgb.wrong_pcid_control.1p.allcpu) */
		struct claim cl = {
			.n = tlb_sum.ib_wrong_pcid_reads, .seen = tlb_sum.ib_wrong_pcid_stale,
		};

		t_answer_claim(t, ANSWER_TLB_SHOOTDOWN, NULL, &cl, "PCID 1 entry kept by INVLPGB naming PCID 2");
	}
	if (ib && tlb_sum.ib_conc_k) {
		rl_snprintf(from, sizeof(from), "tlb.invlpgb.concurrent.1p.%ucpu", tlb_sum.ib_conc_k);
		t_answer(t, ANSWER_TLB_SHOOTDOWN, from, T_CONTROL_NONE,
			 "%u INVLPGB initiators at once: %llu each (alone %llu).", tlb_sum.ib_conc_k,
			 (unsigned long long)tlb_sum.ib_conc_p50, (unsigned long long)tlb_sum.ib_single_p50);
	}
	if (!ib) {
		char why[200];

		x86_feature_absent_why(X86_FEATURE_INVLPGB, "INVLPGB", why, sizeof(why));
		t_answer(t, ANSWER_TLB_SHOOTDOWN, NULL, T_CONTROL_NONE, "INVLPGB not measured: %s.",
			 plat_cpu_has(X86_FEATURE_INVLPGB) ? "tlb.invlpgb not run" : why);
	}
}

/* The answers block (kernel/test.h): tlb_flush and tlb_shootdown. */
static void summary_answers(struct test_ctx *t)
{
	answer_flush(t);
	if (tlb_sum.ipi_all_cpus > 1 && sd_ncounts)
		answer_shootdown(t);
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

/* Each working set's crossover metric (the value the answer quotes) and
 * one line for all of them. */
static void summary_ws(struct test_ctx *t)
{
	char name[64], line[300];
	size_t len = 0;

	for (unsigned i = 0; i < WS_N; i++) {
		const struct tlb_ws *w = &tlb_sum.ws[i];

		if (!w->measured)
			continue;
		rl_snprintf(name, sizeof(name), "rewalk_crossover.%s.1cpu", w->tag);
		t_metric_value(t, name, (int64_t)w->cross, "pages",
			       "rule=floor-full-over-per-page set_pages=%u page=%s mov_cr3_rewalk_p50=%llu invlpg_rewalk_p50=%llu range_p25_p75=%u-%u global_flush_rewalk_p50=%llu global_crossover=%u global_below_hot=%u ceiling=%u n=%zu",
			       w->pages, w->large ? "2m" : "4k", (unsigned long long)w->full[1],
			       (unsigned long long)w->per_page[1], w->cross_lo, w->cross_hi,
			       (unsigned long long)w->global[1], w->cross_global, w->below_global,
			       FLUSH_CEILING, w->n);
		len += (size_t)rl_snprintf(line + len, sizeof(line) - len, "%s%u %s %u/%u", len ? ", " : "",
					   w->pages, w->large ? "2M" : "4K", w->cross, w->cross_global);
	}
	if (len)
		t_conclude(t, "summary: with the re-walk of a populated working set, INVLPG beats a full flush up to (pages, MOV CR3/PGE toggle, p50 of n=%zu): %s; Linux's ceiling is %u",
			   tlb_sum.ws[0].n, line, FLUSH_CEILING);
}

static void summary_invlpgb(struct test_ctx *t)
{
	unsigned c1 = ib_cpu_crossover(0);
	char x[32];

	if (!tlb_sum.invlpgb_measured) {
		t_conclude(t, "summary: INVLPGB not measured (%s)", invlpgb_not_measured_why());
		return;
	}
	char p[40];

	if (tlb_sum.cross_pages)
		rl_snprintf(p, sizeof(p), "from %u pages", tlb_sum.cross_pages);
	else
		rl_snprintf(p, sizeof(p), "at no measured page count");
	t_conclude(t, "summary: INVLPGB+TLBSYNC of 1 page: %llu cycles at 2 CPUs, %llu at all; cheaper than IPI at all CPUs %s",
		   (unsigned long long)tlb_sum.invlpgb_1p[0], (unsigned long long)tlb_sum.invlpgb_1p[1], p);
	t_conclude(t, "summary: INVLPGB always broadcasts to every CPU, so the CPU-count crossover is where the IPI shootdown, growing with the CPUs it targets, passes it: %s for 1 page",
		   from_cpus(x, sizeof(x), c1));
	if (tlb_sum.victim_ib.measured)
		t_conclude(t, "summary: targets lose %llu cycles per INVLPGB (victim loop, p50), %llu per IPI shootdown",
			   (unsigned long long)tlb_sum.victim_ib.lost_p50,
			   (unsigned long long)tlb_sum.victim_ipi.lost_p50);
}

/* The closing diagnostic: what a kernel developer asks first. */
TEST(tlb, summary, .order = 120)
{
	if (!tlb_sum.invlpg && !tlb_sum.ipi_all_cpus) {
		t_skip(t, "nothing measured in this run (tlb.cost and tlb.shootdown not selected)");
		return;
	}
	if (tlb_sum.invlpg) {
		/* once: the metric, this line and the answer quote it */
		tlb_sum.instr_cross = tlb_crossover(tlb_sum.mov_cr3, tlb_sum.invlpg);
		tlb_sum.instr_cross_global = tlb_crossover(tlb_sum.global, tlb_sum.invlpg);
		t_conclude(t, "summary: INVLPG %llu cycles/page (absent entry %llu); full flush: MOV CR3 %llu, CR4.PGE toggle %llu cycles (p50)",
		       (unsigned long long)tlb_sum.invlpg, (unsigned long long)tlb_sum.invlpg_absent,
		       (unsigned long long)tlb_sum.mov_cr3, (unsigned long long)tlb_sum.global);
		t_conclude(t, "summary: one MOV CR3 costs as much as %u INVLPG(s)%s (instruction cost only, empty TLB; the working-set lines below add the re-walk; Linux's ceiling is %u pages); re-walk after INVLPG %llu vs hit %llu cycles",
		       tlb_sum.instr_cross, tlb_sum.instr_cross ? "" : ": a full flush is cheaper than one INVLPG here", FLUSH_CEILING, (unsigned long long)tlb_sum.rewalk_invlpg,
		       (unsigned long long)tlb_sum.rewalk_hit);
		t_metric_value(t, "invlpg_vs_mov_cr3_crossover.1cpu", (int64_t)tlb_sum.instr_cross, "pages",
			       "rule=floor-full-over-per-page invlpg_p50=%llu mov_cr3_p50=%llu",
			       (unsigned long long)tlb_sum.invlpg, (unsigned long long)tlb_sum.mov_cr3);
		summary_ws(t);
	} else {
		t_conclude(t, "summary: local flush costs not measured (tlb.cost not run)");
	}
	if (tlb_sum.ipi_all_cpus > 1) {
		t_conclude(t, "summary: IPI shootdown of 1 page: %llu cycles at 2 CPUs, %llu at all %u CPUs (p50, PTE write to last ack)",
		       (unsigned long long)tlb_sum.ipi_1p[0], (unsigned long long)tlb_sum.ipi_1p[1],
		       tlb_sum.ipi_all_cpus);
		if (tlb_sum.victim_ipi.measured)
			t_conclude(t, "summary: each target CPU loses %llu cycles per IPI shootdown (victim loop, p50 of %zu, %u CPUs)",
				   (unsigned long long)tlb_sum.victim_ipi.lost_p50, tlb_sum.victim_ipi.n,
				   tlb_sum.victim_ipi.cpus);
	} else {
		t_conclude(t, "summary: IPI shootdown not measured (one CPU, or tlb.shootdown not run)");
	}
	summary_invlpgb(t);
	t_conclude(t, "summary: stale-entry controls: local %s, remote %s",
	       tlb_sum.local_stale < 0 ? "not run" : tlb_sum.local_stale ? "fired" : "not observed",
	       tlb_sum.remote_stale < 0 ? "not run" : tlb_sum.remote_stale ? "fired" : "not observed");
	summary_answers(t);
}
