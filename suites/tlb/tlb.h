/* SPDX-License-Identifier: GPL-2.0-only */
/* tlb: what the suite's files share (suites/tlb/).
 *
 *   suite.c      the suite, and the list of its cases in run order
 *   env.c        the test mapping and its cleanup (CR3, CR4, every TLB);
 *                cases cleanup_on_fault, timeout_cleanup
 *   local.c      local flush checks (INVLPG, MOV CR3, global, 2 MiB,
 *                INVPCID, PCID) and their cost; cases flush_4k, global,
 *                flush_2m, invpcid, pcid, cost
 *   shootdown.c  the remote shootdown machinery and its IPI grid; case
 *                shootdown
 *   invlpgb.c    INVLPGB/TLBSYNC: checks, grid, per-CPU count agreement;
 *                cases invlpgb, invlpgb_count
 *   summary.c    the closing summary and the tlb_flush/tlb_shootdown
 *                answers; case summary
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
	/* remote CPUs' CR4 before remote_pge_on(), by CPU number (NULL: not
	 * changed); env_restore() writes them back */
	struct remote_cr4 *rcr4;
	struct test_ctx *t;
};

typedef void (*body_fn)(struct env *e);

/* Runs body with a fresh window; false if set-up failed (already failed). */
bool with_env(struct test_ctx *t, bool want_2m, body_fn body);
/* CR4.PGE on the calling CPU (CPU 0; env_restore() puts CR4 back). */
void pge_on(void);
/* CR4.PGE on every remote CPU listed, and back (remote_pge_off). */
bool remote_pge_on(struct test_ctx *t, struct env *e, const unsigned *cpus, unsigned n);
void remote_pge_off(struct env *e);
/* plat_call target: a full non-global flush of the calling CPU's TLB. */
void flush_local_cr3(void *arg);

/* ---- summary.c: what the closing summary prints (0: not measured) ---- */

struct tlb_sum {
	uint64_t invlpg, invlpg_absent, mov_cr3, global, rewalk_hit, rewalk_invlpg;
	uint64_t ipi_1p[2];		/* 1 page at 2 CPUs, at all CPUs */
	unsigned ipi_all_cpus;
	uint64_t invlpgb_1p[2];
	unsigned cross_pages;		/* smallest page count where INVLPGB beat IPI at all CPUs */
	bool invlpgb_measured;
	int local_stale, remote_stale;	/* -1: not run */
};
extern struct tlb_sum tlb_sum;

uint64_t p50_of(uint64_t *sorted, size_t n);

/* ---- shootdown.c: the remote shootdown machinery ---- */

enum sd_method { SD_IPI_INVLPG, SD_IPI_FULL, SD_INVLPGB, SD_NOFLUSH };

struct sd_cpu;

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
	unsigned vec, wake_vec;
	uint64_t spin_cycles;		/* a server's spin before it halts (sd_start) */
	bool spin_said, counts_said;	/* the all-CPU bound's budget: lines are out */
	bool large, global;
	unsigned invlpgb_flags;
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

/* ---- invlpgb.c ---- */

/* INVLPGB over n pages from va0, then TLBSYNC (CPUID-guarded). */
void invlpgb_flush_range(struct sd *s, uint64_t va0, unsigned n, bool pmd, unsigned flags,
			 unsigned pcid);

#endif
