/* SPDX-License-Identifier: GPL-2.0-only */
/* tlb: what the suite's files share (suites/tlb/).
 *
 *   suite.c      the suite, and the list of its cases in run order
 *   env.c        the test mapping and its cleanup (CR3, CR4, every TLB);
 *                cases cleanup_on_fault, timeout_cleanup
 *   local.c      local flush checks (INVLPG, MOV CR3, global, 2 MiB,
 *                INVPCID, PCID) and their cost; cases flush_4k, global,
 *                flush_2m, invpcid, pcid, cost
 *   workset.c    the full flush against INVLPG with a populated working
 *                set, re-walk included (part of case cost)
 *   shootdown.c  the remote shootdown machinery and its IPI grid; case
 *                shootdown
 *   victim.c     what a shootdown costs its targets (a victim loop), and
 *                concurrent INVLPGB initiators
 *   invlpgb.c    INVLPGB/TLBSYNC: checks (a non-zero PCID among them),
 *                grid, per-CPU count agreement; cases invlpgb,
 *                invlpgb_count
 *   summary.c    the closing summary, the one crossover rounding rule and
 *                the tlb_flush/tlb_shootdown answers; case summary
 *
 * Every experiment runs in a window of virtual addresses outside the
 * identity map (arch/x86/pgtable_test.h): a test page is mapped to frame A,
 * read (so the TLB holds A), its PTE is rewritten to frame B with no flush
 * and read again -- reading A is the stale entry, the negative control that
 * shows the check could catch a missing flush (allowed, not required:
 * reported, never failed) -- then the method under test flushes and a read
 * must return B, else the case fails.
 *
 * Metrics are named tlb.<case>.<method>.<pages>p.<cpus>cpu: <pages> is how
 * many pages the operation covers ("all" for whole-TLB flushes), <cpus> how
 * many CPUs hold the translation, the initiator included (1 = local only).
 * Correctness lines are counts (value = stale reads seen before the flush);
 * costs are distributions in TSC cycles. */
#ifndef RINGLAB_TESTS_TLB_TLB_H
#define RINGLAB_TESTS_TLB_TLB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "kernel/test.h"
#include "arch/x86/pgtable_test.h"

/* The suite record (suite.c), for the TEST()s of the job files. */
SUITE_EXTERN(tlb);

/* Linux's tlb_single_page_flush_ceiling (arch/x86/mm/tlb.c): above this
 * many pages a range flush becomes a full flush. */
#define FLUSH_CEILING		33u

/* What frames A and B hold (env.c). */
extern const uint64_t tlb_magic[2];

static inline uint64_t peek(uint64_t va)
{
	return *(volatile uint64_t *)(uintptr_t)va;
}

/* ---- env.c: the window, its frames, and putting everything back ---- */

struct remote_cr4;

struct env {
	struct pt_win w;
	uint64_t frame[2];	/* 4 KiB frames A and B */
	uint64_t frame2m[2];	/* 2 MiB frames A and B (0: none) */
	void *big;		/* plat_alloc_big() block holding them (NULL: none) */
	uint64_t cr3, cr4;	/* CPU 0's, restored at the end */
	bool remotes_used;
	/* remote CPUs' CR4 before remote_pge_on() or remote_pcid_on(), by CPU
	 * number (NULL: not changed); env_restore() writes them back */
	struct remote_cr4 *rcr4;
	struct test_ctx *t;
};

typedef void (*body_fn)(struct env *e);

/* Runs body with a fresh window; false if set-up failed (already failed). */
bool with_env(struct test_ctx *t, bool want_2m, body_fn body);
/* CR4.PGE on the calling CPU (CPU 0; env_restore() puts CR4 back). */
void pge_on(void);
/* CR4.PGE on every remote CPU listed; CR4.PCIDE with pcid in CR3 on every
 * remote CPU listed; and both back, CR3 first (remote_cr4_restore). */
bool remote_pge_on(struct test_ctx *t, struct env *e, const unsigned *cpus, unsigned n);
bool remote_pcid_on(struct test_ctx *t, struct env *e, const unsigned *cpus, unsigned n,
		    unsigned pcid);
void remote_cr4_restore(struct env *e);
/* plat_call target: a full non-global flush of the calling CPU's TLB. */
void flush_local_cr3(void *arg);

/* ---- summary.c: what the closing summary prints (0: not measured) ---- */

/* workset.c: the working sets the full flush and INVLPG are timed with
 * (64, 512 and 4096 4 KiB pages, 64 2 MiB pages) */
#define WS_N	4u

/* One working set's costs: p50 (p25, p75) in cycles of the full flush plus
 * the re-walk of the whole set, and of INVLPG plus its re-walk per page;
 * the crossover the answer quotes (tlb_crossover() of the p50s, and of the
 * quartiles for its range). */
struct tlb_ws {
	bool measured;
	const char *tag;		/* "ws64", in the metric names */
	unsigned pages;			/* in the set */
	bool large;			/* 2 MiB pages */
	size_t n;			/* trials */
	uint64_t full[3], global[3], per_page[3];	/* p25, p50, p75 */
	unsigned cross, cross_lo, cross_hi;	/* MOV CR3: p50, p75/p25 .. p25/p75 */
	unsigned cross_global;		/* CR4.PGE toggle, p50 */
	unsigned below_global;		/* toggle trials faster than the hot touch */
};

/* A victim loop's lost time on the remote CPUs during shootdowns
 * (victim.c): cycles per remote CPU per shootdown, p50 of n. */
struct tlb_victim {
	bool measured;
	bool budget_cut;		/* not run: quick's sample budget was spent */
	unsigned cpus;			/* CPU 0 and its victims */
	size_t n;			/* remote CPU x window samples */
	uint64_t lost_p50, lost_p25, lost_p75;
	uint64_t shootdowns;		/* in all windows */
};

struct tlb_sum {
	uint64_t invlpg, invlpg_absent, mov_cr3, global, rewalk_hit, rewalk_invlpg;
	unsigned instr_cross, instr_cross_global;	/* tlb_crossover(), once */
	struct tlb_ws ws[WS_N];
	uint64_t ipi_1p[2];		/* 1 page at 2 CPUs, at all CPUs */
	unsigned ipi_all_cpus;
	uint64_t invlpgb_1p[2];
	unsigned cross_pages;		/* smallest page count where INVLPGB beat IPI at all CPUs */
	bool invlpgb_measured;
	int local_stale, remote_stale;	/* -1: not run */
	/* the claims' evidence: flush_4k's INVLPG, MOV CR3 and PGE toggle
	 * rounds (reads after the flush, stale among them, stale before it);
	 * the remote reads after IPI shootdowns and after INVLPGB, the remote
	 * control's reads */
	unsigned local_rounds, local_after_old, local_before_stale;
	uint64_t remote_reads, remote_old, remote_control_reads;
	uint64_t ib_reads, ib_old;
	struct tlb_victim victim_ipi, victim_ib;
	/* INVLPGB: concurrent initiators (p50 of one initiator's 1-page
	 * INVLPGB+TLBSYNC with k at once), the non-zero PCID case and its
	 * wrong-PCID control (-1: not run) */
	uint64_t ib_conc_p50, ib_single_p50;
	unsigned ib_conc_k;
	int ib_pcid_ok;
	unsigned ib_wrong_pcid_stale, ib_wrong_pcid_reads;
};
extern struct tlb_sum tlb_sum;

uint64_t p50_of(uint64_t *sorted, size_t n);
/* The one rounding rule of every flush crossover the suite prints (metric,
 * summary line and answer quote the value it returns): the largest page
 * count n with n * per_page <= full, i.e. floor(full / per_page); 0 when
 * even one page costs more, or nothing was measured. */
unsigned tlb_crossover(uint64_t full, uint64_t per_page);

/* Series a quick budget cut short, for one budget: line (local.c and
 * workset.c's series in tlb.cost). */
struct cost_cuts {
	unsigned series, cut;
	size_t fewest;
};

static inline void cost_cut(struct cost_cuts *c, size_t done, size_t planned)
{
	c->series++;
	if (done >= planned)
		return;
	if (!c->cut || done < c->fewest)
		c->fewest = done;
	c->cut++;
}

/* ---- workset.c ---- */

/* The full flush and INVLPG, each with the re-walk of a populated working
 * set, at each size; fills tlb_sum.ws.  The window of e must have 2 MiB
 * frames (with_env(t, true, ...)). */
void ws_cost(struct env *e, struct cost_cuts *cuts);

/* ---- shootdown.c: the remote shootdown machinery ---- */

/* SD_INVLPGB_WRONG_PCID: INVLPGB naming another PCID than the one the
 * CPUs run with, a negative control like SD_NOFLUSH (invlpgb.c) */
enum sd_method { SD_IPI_INVLPG, SD_IPI_FULL, SD_INVLPGB, SD_NOFLUSH, SD_INVLPGB_WRONG_PCID };

/* CPU 0's commands to the servers (shootdown.c; SD_VICTIM and SD_INITIATE:
 * victim.c) */
enum sd_cmd { SD_TOUCH = 1, SD_VERIFY, SD_CONTROL, SD_EXIT, SD_VICTIM, SD_INITIATE, SD_NOP };

/* One remote CPU's side of the block (by CPU number). */
struct sd_cpu {
	volatile uint64_t ack;		/* last flush_seq handled */
	volatile uint64_t done;		/* last cmd_seq handled */
	volatile unsigned touch_bad, verify_old, verify_bad, control_stale, control_reads;
	volatile uint64_t verify_reads;	/* reads after a flush (SD_VERIFY) */
	volatile uint64_t bad_value;
	unsigned slot;			/* its place among those taking part, CPU 0 = 0 */
	/* SD_VICTIM: the loop's iterations and cycles, by phase */
	volatile uint64_t victim_iters[2], victim_cycles[2];
} __attribute__((aligned(64)));

/* The block through which CPU 0 commands the remote CPUs' servers
 * (shootdown.c says how); invlpgb.c sets the variant fields. */
struct sd {
	volatile uint64_t cmd_seq;
	volatile int cmd;
	volatile unsigned npages;
	volatile uint64_t va0, step;
	volatile uint64_t want, old;	/* magic values */
	volatile bool full;		/* the handler flushes everything */
	volatile uint64_t flush_seq;
	struct sd_cpu *cpu;		/* by CPU number */
	unsigned remote[256];
	unsigned nremote;		/* taking part now */
	unsigned nlast;			/* took part in the last series (sd_stop()) */
	unsigned vec, wake_vec;
	uint64_t spin_cycles;		/* a server's spin before it halts (sd_start) */
	bool spin_said, counts_said;	/* the all-CPU bound's budget: lines are out */
	bool large, global;
	unsigned invlpgb_flags;
	unsigned pcid;			/* INVLPGB's PCID (0 unless invlpgb.c's PCID case) */
	int cur;			/* frame the window maps now */
	unsigned invlpgb_max;
	uint64_t *samples;		/* nrounds of them */
	size_t nrounds;
	struct t_overhead ovh;		/* sd_round()'s timing bracket */
	char ovh_text[96];		/* t_overhead_text(&ovh) */
	/* series so far (sd_point()s and the remote control), how many the
	 * quick budget cut short, and the fewest rounds one of those ran
	 * (sd_budget_note()) */
	unsigned points, quick_cut;
	size_t quick_fewest;
	/* remote reads after a flush, and the old frame among them, summed
	 * by sd_check_remotes() over the series (the answers' claims) */
	uint64_t reads_after, old_after;
	/* SD_VICTIM's phase (0: CPU 0 idle, 1: CPU 0 shooting down) */
	volatile unsigned victim_phase;
	/* SD_INITIATE: every initiator starts at start_tsc and times rounds
	 * INVLPGB+TLBSYNC of one page of its own into conc[slot * rounds + r] */
	volatile uint64_t conc_start;
	unsigned conc_rounds;
	uint64_t *conc;
};

/* The page counts of the grid; Linux-policy IPI shootdown medians by [cpu
 * count index][page index], for the INVLPGB comparison (0: not measured),
 * and INVLPGB's; the CPU counts measured. */
#define SD_NPAGES	6u
extern const unsigned sd_pages[SD_NPAGES];
extern uint64_t sd_ipi_p50[16][SD_NPAGES];
extern uint64_t sd_ib_p50[16][SD_NPAGES];
extern unsigned sd_counts[16], sd_ncounts;

struct sd *sd_setup(struct test_ctx *t, struct env *e, unsigned *total);
bool sd_start(struct test_ctx *t, struct env *e, struct sd *s, unsigned nremote);
void sd_stop(struct test_ctx *t, struct sd *s);
bool sd_resync(struct test_ctx *t, struct env *e, struct sd *s, unsigned n);
uint64_t sd_round(struct test_ctx *t, struct env *e, struct sd *s, unsigned n,
		  enum sd_method m, bool *ok);
bool sd_check_remotes(struct test_ctx *t, struct sd *s, const char *what);
unsigned sd_cpu_counts(unsigned total, unsigned *out);
/* Quick in ring 0 under an emulator with more than T_QUICK_ALLCPU_CPUS
 * CPUs (t_allcpu_bounded()): whether a grid leaves out its points at ncpu
 * of total CPUs (it keeps those up to T_QUICK_ALLCPU_CPUS and at all);
 * the first time, a budget: line says so. */
bool sd_allcpu_skip(struct test_ctx *t, struct sd *s, unsigned ncpu, unsigned total);
/* Rounds a series runs at least: under the per-point time cap always,
 * and in quick once the sample budget is spent; in quick a grid point or
 * the remote control runs SD_MIN_QUICK (every round checks every CPU), an
 * INVLPGB correctness series SD_MIN_ROUNDS. */
#define SD_MIN_ROUNDS	3u
#define SD_MIN_QUICK	1u
/* sd_more()'s *capped: why a series stopped before nrounds */
#define SD_CAP_TIME	1u	/* the per-point time cap */
#define SD_CAP_QUICK	2u	/* the quick sample budget */
bool sd_more(struct test_ctx *t, size_t r, size_t nrounds, size_t min_quick, uint64_t t0,
	     unsigned *capped);
/* One budget line for the series the quick budget cut short so far (each
 * grid point's metric line has its n and rounds_capped=yes); nothing if
 * none was. */
void sd_budget_note(struct test_ctx *t, struct sd *s, const char *grid);
bool sd_point(struct test_ctx *t, struct env *e, struct sd *s, unsigned n, unsigned ncpu,
	      enum sd_method m, const char *metric, const char *policy, uint64_t *samples,
	      size_t nrounds, uint64_t *p50);
/* Post a command to the servers taking part (returns its sequence number)
 * and wait until every one has done it; sd_command() does both. */
uint64_t sd_post(struct sd *s, int cmd);
bool sd_wait(struct test_ctx *t, struct sd *s, uint64_t q, int cmd);
bool sd_command(struct test_ctx *t, struct sd *s, int cmd);
/* Point the first n window pages at frame k. */
void sd_map(struct env *e, struct sd *s, unsigned n, int k, bool global);
/* Linux's flush_tlb_multi() shape over the servers taking part. */
bool sd_ipi_flush(struct test_ctx *t, struct sd *s, unsigned n, bool full);

/* ---- victim.c: what the other CPUs lose, and concurrent initiators ---- */

/* The server's side (called from sd_server()): SD_VICTIM's loop, which
 * counts until the next command; SD_INITIATE's timed INVLPGBs. */
void sd_victim_loop(struct sd *s, struct sd_cpu *me, uint64_t seen, unsigned phase);
void sd_initiate(struct sd *s, struct sd_cpu *me);
/* The remote CPUs' lost time per shootdown by method m (SD_IPI_INVLPG or
 * SD_INVLPGB, one page), at ncpu CPUs (2 in quick): the metric
 * victim.<method>.1p.<n>cpu and *out. */
bool sd_victim(struct test_ctx *t, struct env *e, struct sd *s, unsigned ncpu, enum sd_method m,
	       struct tlb_victim *out);
/* INVLPGB+TLBSYNC of one page each from ncpu initiators at once: a
 * metric named metric; *p50 its median (0: not measured). */
bool sd_concurrent(struct test_ctx *t, struct env *e, struct sd *s, unsigned ncpu,
		   const char *metric, uint64_t *p50);

/* ---- invlpgb.c ---- */

/* INVLPGB over n pages from va0, then TLBSYNC (CPUID-guarded). */
void invlpgb_flush_range(struct sd *s, uint64_t va0, unsigned n, bool pmd, unsigned flags,
			 unsigned pcid);

#endif
