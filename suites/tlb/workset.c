/* SPDX-License-Identifier: GPL-2.0-only */
/* tlb: the full flush against INVLPG with a populated working set, each
 * with the re-walk it causes, which is what Linux's 33-page ceiling
 * (tlb_single_page_flush_ceiling) trades: above it a range flush becomes
 * one full flush, after which every page of the working set must be walked
 * again; below it each page costs an INVLPG and the walk of that page only.
 * Timing the flush instructions on an empty TLB (local.c's cost series)
 * leaves the refill out and so favours the full flush.
 *
 * Working sets: 64, 512 and 4096 4 KiB pages (4096 overflow the second-level
 * TLB of most CPUs: 1536 to 3072 entries) and 64 2 MiB pages (Linux counts
 * a range of huge pages in strides of the page size against the same
 * ceiling).  Every page maps one of the window's two frames, so the data
 * is cache-hot and a re-walk is the page walk alone (the page-table
 * entries themselves, up to 32 KiB for 4096 pages, are cache-hot too).
 * One trial, interrupts off:
 *
 *	touch the set                          (the TLB holds what it can)
 *	h = time(touch the set)                (hot: capacity misses only)
 *	f = time(MOV CR3; touch the set)       (the full flush and its refill)
 *	g = time(CR4.PGE toggle; touch the set)
 *	i = time(INVLPG WS_INVLPG pages; touch the set)
 *
 * full = f - h, global = g - h, per page = (i - h) / WS_INVLPG: the same
 * trial's hot touch is subtracted, so the bracket and the capacity misses
 * cancel.  The crossover is tlb_crossover() (summary.c): the largest page
 * count whose INVLPGs with their re-walks cost no more than the full flush
 * with the refill of the set.  WS_INVLPG is 32, next to the ceiling, so
 * the per-page cost is measured where Linux decides. */
#include "suites/tlb/tlb.h"
#include "kernel/test.h"
#include "kernel/platform.h"
#include "arch/x86/cpu.h"
#include "arch/x86/paging.h"
#include "arch/x86/pgtable_test.h"
#include "arch/x86/tlbflush.h"
#include "lib/printf.h"
#include "lib/stats.h"

#define WS_INVLPG	32u
/* 4 KiB sets past the window's own page table: PD[1..7] point at these;
 * 2 MiB sets start at PD[WS_2M_FIRST], clear of them */
#define WS_4K_MAX	4096u
#define WS_EXTRA_PT	(WS_4K_MAX / 512u - 1u)
#define WS_2M_FIRST	16u
/* quick: trials a set gets (local.c's series have spent the case's sample
 * budget by the time the sets run) */
#define WS_MIN_QUICK	5u

static const struct {
	const char *tag;	/* in the metric names */
	unsigned pages;
	bool large;
} ws_sets[WS_N] = {
	{ "ws64", 64, false },
	{ "ws512", 512, false },
	{ "ws4096", 4096, false },
	{ "ws64x2m", 64, true },
};

/* Page tables 1..7 of the 4 KiB sets, in the kernel image (identity
 * mapped, so their address is their frame); every entry is written before
 * a PD entry points at them. */
static uint64_t ws_pt[WS_EXTRA_PT][512] __attribute__((aligned(4096)));

static uint64_t ws_va(unsigned i, bool large)
{
	return large ? pt_win_va_2m(WS_2M_FIRST + i) : pt_win_va_4k(i);
}

static void ws_map(struct env *e, unsigned pages, bool large)
{
	if (large) {
		for (unsigned i = 0; i < pages; i++)
			pt_win_map_2m(&e->w, WS_2M_FIRST + i, e->frame2m[i & 1], false);
		return;
	}
	for (unsigned i = 0; i < pages && i < 512; i++)
		pt_win_map_4k(&e->w, i, e->frame[i & 1], false);
	for (unsigned k = 1; k * 512 < pages; k++) {
		for (unsigned i = 0; i < 512; i++)
			ws_pt[k - 1][i] = (e->frame[i & 1] & PTE_ADDR_MASK) | PTE_P | PTE_W;
		/* one aligned store: a walk sees the old or the new entry */
		__atomic_store_n(pt_win_pde(&e->w, k),
				 (uint64_t)(uintptr_t)ws_pt[k - 1] | PTE_P | PTE_W, __ATOMIC_RELEASE);
	}
}

/* Unlinks what ws_map() added beyond the window's first page table and
 * drops every translation and paging-structure entry of it. */
static void ws_unmap(struct env *e, unsigned pages, bool large)
{
	if (large) {
		for (unsigned i = 0; i < pages; i++)
			pt_win_unmap_2m(&e->w, WS_2M_FIRST + i);
	}
	for (unsigned k = 1; !large && k * 512 < pages; k++)
		__atomic_store_n(pt_win_pde(&e->w, k), 0, __ATOMIC_RELEASE);
	native_flush_tlb_global();
}

static void ws_touch(unsigned pages, bool large)
{
	for (unsigned i = 0; i < pages; i++)
		(void)peek(ws_va(i, large));
}

enum ws_flush { WS_NONE, WS_MOV_CR3, WS_GLOBAL, WS_INVLPG_N };

/* Cycles of one flush of kind f followed by a touch of the whole set. */
static uint64_t ws_time(enum ws_flush f, unsigned pages, bool large)
{
	uint64_t t0 = lfence_rdtsc();

	if (f == WS_MOV_CR3)
		native_flush_tlb_local();
	else if (f == WS_GLOBAL)
		native_flush_tlb_global();
	else if (f == WS_INVLPG_N)
		for (unsigned i = 0; i < WS_INVLPG; i++)
			__invlpg(ws_va(i, large));
	ws_touch(pages, large);
	return lfence_rdtsc() - t0;
}

/* x - h, or 0 (counted) where the flushed touch came out faster than the
 * hot one: noise, not a negative cost */
static uint64_t above(uint64_t x, uint64_t h, unsigned *below)
{
	if (x > h)
		return x - h;
	(*below)++;
	return 0;
}

static void quartiles(uint64_t *sorted, size_t n, uint64_t q[3])
{
	q[0] = n ? percentile_sorted(sorted, n, 25) : 0;
	q[1] = n ? percentile_sorted(sorted, n, 50) : 0;
	q[2] = n ? percentile_sorted(sorted, n, 75) : 0;
}

/* The crossover in pages, at most the set: past it the INVLPGs would name
 * pages the set does not have, which this does not measure. */
static unsigned ws_cross(uint64_t full, uint64_t per_page, unsigned pages)
{
	unsigned c = tlb_crossover(full, per_page);

	return c > pages ? pages : c;
}

/* One set: trials as above, its three cost metrics and its crossover. */
static void ws_one(struct env *e, unsigned si, uint64_t *s, size_t trials, struct cost_cuts *cuts)
{
	struct test_ctx *t = e->t;
	struct tlb_ws *w = &tlb_sum.ws[si];
	unsigned pages = ws_sets[si].pages, below_f = 0, below_g = 0, below_i = 0;
	bool large = ws_sets[si].large;
	uint64_t *f = s, *g = s + trials, *pp = s + 2 * trials;
	char name[64];
	size_t k;

	ws_map(e, pages, large);
	for (k = 0; k < trials && !t_expired(t); k++) {
		uint64_t fl = irq_save();

		ws_touch(pages, large);
		uint64_t h = ws_time(WS_NONE, pages, large);
		uint64_t tf = ws_time(WS_MOV_CR3, pages, large);
		uint64_t tg = ws_time(WS_GLOBAL, pages, large);
		uint64_t ti = ws_time(WS_INVLPG_N, pages, large);

		irq_restore(fl);
		f[k] = above(tf, h, &below_f);
		g[k] = above(tg, h, &below_g);
		pp[k] = above(ti, h, &below_i) / WS_INVLPG;
	}
	ws_unmap(e, pages, large);
	cost_cut(cuts, k, trials);
	rl_snprintf(name, sizeof(name), "mov_cr3_rewalk.%s.1cpu", ws_sets[si].tag);
	t_metric_dist(t, name, f, k, "cycles",
		      "what=mov-cr3-then-touch-set-minus-hot-touch set_pages=%u page=%s below_hot=%u",
		      pages, large ? "2m" : "4k", below_f);
	rl_snprintf(name, sizeof(name), "invlpg_rewalk.%s.1p.1cpu", ws_sets[si].tag);
	t_metric_dist(t, name, pp, k, "cycles",
		      "what=per-page-of-%u-invlpg-then-touch-set-minus-hot-touch set_pages=%u page=%s below_hot=%u",
		      WS_INVLPG, pages, large ? "2m" : "4k", below_i);
	quartiles(f, k, w->full);
	sort_u64(g, k);		/* no metric line of its own: the crossover's has its p50 */
	quartiles(g, k, w->global);
	w->below_global = below_g;
	quartiles(pp, k, w->per_page);
	w->tag = ws_sets[si].tag;
	w->pages = pages;
	w->large = large;
	w->n = k;
	w->measured = k > 0;
	w->cross = ws_cross(w->full[1], w->per_page[1], pages);
	w->cross_lo = ws_cross(w->full[0], w->per_page[2], pages);
	w->cross_hi = ws_cross(w->full[2], w->per_page[0], pages);
	w->cross_global = ws_cross(w->global[1], w->per_page[1], pages);
}

void ws_cost(struct env *e, struct cost_cuts *cuts)
{
	struct test_ctx *t = e->t;
	size_t trials = (size_t)t_iters(t, 200, WS_MIN_QUICK);
	uint64_t *s = t_alloc(t, 3 * trials * sizeof(uint64_t));

	for (unsigned si = 0; si < WS_N; si++) {
		if (t_expired(t))
			break;
		ws_one(e, si, s, trials, cuts);
	}
}
