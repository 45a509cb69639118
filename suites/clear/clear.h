/* SPDX-License-Identifier: GPL-2.0-only */
/* clear: what the suite's files share (suites/clear/).
 *
 *   suite.c      the suite, its method, and the list of its cases in run order
 *   cell.c       the methods, one cell (a method, a size, a shape, a CPU
 *                set): fill, timed clears, read-back and guard check, the
 *                PMU pass, and measure(), which takes a cell's samples
 *   shapes.c     the sizes and the cells of one shape, the size cap and
 *                the quick budget; cases bandwidth, page_bandwidth,
 *                batch_bandwidth
 *   controls.c   the negative controls of the zero and guard checks; case
 *                controls
 *   crossover.c  MOVNTI against REP STOSB per shape and CPU count, the
 *                separation test, and the nt_clear answer; case crossover */
#ifndef RINGLAB_SUITES_CLEAR_CLEAR_H
#define RINGLAB_SUITES_CLEAR_CLEAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "kernel/test.h"
#include "kernel/platform.h"
#include "lib/memsize.h"

/* The suite record (suite.c), for the TEST()s of the job files. */
SUITE_EXTERN(clear);

#define PAGE		4096u
#define GUARD		PAGE
#define GUARD_BYTE	0x5a
#define POISON_BYTE	0xa5
#define SLOT_ALIGN	(2u << 20)
#define REPS_BYTES	(256u << 10)
/* Full runs and quick with iters=: at least 5 samples a cell, the fewest
 * the crossover's separation test (crossover.c) accepts. */
#define MIN_SAMPLES	5
#define MIN_SAMPLES_QUICK	1	/* one honest sample (quick without iters=) */
#define MAX_SAMPLES	400
#define BARRIER_MARGIN_NS 20000

enum need { NEED_NONE, NEED_SSE2, NEED_AVX, NEED_AVX512, NEED_CLZERO };

struct method {
	const char *name;
	void (*fn)(void *p, size_t n);
	unsigned simd;		/* PLAT_SIMD_* */
	enum need need;
	bool nt;
	void (*nofence)(void *p, size_t n);	/* NT: the same without SFENCE */
};
#define NMETHODS	8u
extern const struct method methods[NMETHODS];
#define METHOD_REP_STOSB 0
#define METHOD_MOVNTI	3	/* the kernel series' choice */

/* The shapes of a clear: the whole range in one call; per 4 KiB page,
 * each NT call with its SFENCE (clear_page); per page with one SFENCE per
 * 2 MiB batch (a huge-page clear; REP STOSB and the NT methods only). */
enum shape { SH_WHOLE, SH_PERPAGE, SH_BATCH, NSHAPES };
extern const char *const shape_name[NSHAPES];
extern const char *const shape_short[NSHAPES];
#define BATCH_BYTES	(2u << 20)
/* Linux's clear_pages() shape (shapes.c, in batch_bandwidth): a
 * contiguous multi-page extent cleared by one call, in pieces of at most
 * this many bytes */
#define EXTENT_BYTES	(2u << 20)

static inline bool method_in_shape(const struct method *m, enum shape sh)
{
	return sh != SH_BATCH || m->nofence || m == &methods[METHOD_REP_STOSB];
}

bool method_available(const struct plat_mem_info *mi, const struct method *m, const char **why);

/* ---- one cell: a method, a size, a shape, a CPU set (cell.c) ---- */
/* what a cross-CPU call does; PH_FUSED all three in one call (quick) */
enum phase { PH_PREP = 1, PH_CLEAR = 2, PH_CHECK = 4, PH_FUSED = 7 };

struct cpu_slot {
	uint64_t start, end, rb_start, rb_end;	/* the timed clear and read-back (check) */
	unsigned reps_done;		/* repetitions the clear ran */
	uint64_t orv;			/* OR of the region after the check */
	int64_t guard_off;		/* the first damaged guard byte, from the region */
	bool guard_bad, late, rb_late;	/* damaged; missed the clear's, the check's barrier */
	int rc;				/* plat_simd_call result, why not PLAT_OK */
	char why[120];
	struct cell *cell;
	unsigned idx;
} __attribute__((aligned(64)));

struct cell {
	const struct method *m;
	enum shape shape;
	unsigned n;			/* CPUs: cpus[], their slots cs[] */
	const unsigned *cpus;
	uint8_t *base;
	uint64_t slot, bytes, rep_cap;	/* rep_cap, quick: a sample's reps stop after it (cycles) */
	uint64_t size_bytes;	/* allcpu_bound(): the size's bytes and reps per CPU (0: none) */
	unsigned reps, size_reps;
	bool extent;		/* batch shape, REP STOSB: one call per EXTENT_BYTES */
	bool cold;		/* PH_CLEAR: flush the region's lines first, one rep */
	enum phase phase;
	struct tsc_barrier bar, rb_bar;	/* the clear's and the check's */
	struct cpu_slot *cs;
};

static inline uint8_t *region_of(const struct cell *c, unsigned idx)
{
	return c->base + (uint64_t)idx * c->slot + GUARD;
}

void cell_work(void *arg);
bool run_phase(struct test_ctx *t, struct cell *c, enum phase ph, const char *what);

/* What a cell measured: the median, quartiles and count of its samples
 * (MB/s), its read-back, and its cold (lines flushed) clear (0: none). */
struct cstat {
	uint64_t med, p25, p75, rb, cold;
	unsigned n;
};
/* [shape][all cpus?][method][size] */
extern struct cstat cst[NSHAPES][2][NMETHODS][CLEAR_MAX_SIZES];
extern char size_names[CLEAR_MAX_SIZES][CLEAR_LABEL_MAX];
extern uint64_t size_bytes_seen[CLEAR_MAX_SIZES];	/* per CPU, 1-CPU cells */
extern uint64_t llc_seen;
extern unsigned nsizes_seen[NSHAPES], ncpu_seen;
extern bool shape_done[NSHAPES];
extern struct cstat extent_cst[CLEAR_MAX_SIZES];	/* rep_stosb_extent, 1 CPU (shapes.c) */
extern int controls_fired;	/* clear.controls: -1 not run, 1 both fired, 0 not */
/* cells whose zero and guard checks ran, and failed (measure()) */
extern uint64_t checks_done, checks_bad;

struct run {
	struct test_ctx *t;
	struct plat_mem_info mi;
	uint64_t *samples, target_cycles;
	bool emulated, bound_said;	/* plat_ring0_emulated(); allcpu_bound()'s line said */
	bool avail[NMETHODS];	/* method_available(), asked once per case */
	uint64_t cells, nsamp, missing, cut_cells, reps_cut;	/* quick: what the budget cut */
};

/* Measure one method in a prepared cell (cell.c); false if the case
 * should stop.  one1: the method's 1-CPU MB/s at this size, 0 if none;
 * cold: take one cold clear first. */
bool measure(struct run *ru, struct cell *c, const char *size_name, const char *what_name,
	     struct cstat *out, uint64_t one1, bool cold);

#endif
