/* SPDX-License-Identifier: GPL-2.0-only */
/* clear: how fast each way of zeroing memory clears regions of each size,
 * on one CPU and on all CPUs at once, whole range per call or one 4 KiB
 * page per call (the kernel's clear_page shape), and what reading the
 * cleared memory back costs afterwards.  The question behind it: when do
 * non-temporal stores (MOVNTI, MOVNTDQ, VMOVNTDQ, CLZERO) beat REP STOSB?
 * NT stores bypass the caches, which wins when the region is larger than
 * the cache (no read-for-ownership, no eviction of useful lines) and
 * loses when it fits (the data then has to come back from DRAM).
 *
 * Method: each CPU gets its own region with a guard page on each side,
 * first filled with a pattern on that CPU (hosted: this also populates the
 * pages, on the CPU's own NUMA node).  A sample is `reps` clears of the
 * region (reps = 256 KiB / size, at least 1, so small sizes are not
 * dominated by the timestamps), started on all CPUs at one TSC instant
 * (tsc_barrier); its bandwidth is the bytes cleared on all CPUs divided by
 * the time from the earliest start to the latest end (LFENCE;RDTSC on each
 * side; the NT methods end with SFENCE inside the clear).  Samples are
 * taken until the cell has run for a time target (0.25 ms quick, 3 ms
 * quick with iters=, 40 ms full) and at least 3 samples, as memtest86+
 * sizes its bandwidth loops by time.  A size whose cells would end the
 * case more than 25 s after it started (hosted: 120 s; quick: 30 s; a full
 * run of ring 0 under an emulator or hypervisor: t_guest_cap_ms()),
 * projected from the bandwidth measured at the size below, is left out
 * (an emulator clears at a few MB/s; the largest free region of a big
 * machine takes minutes).  After the last sample every CPU reads its
 * region back once (OR of all words, timed: the read-back cost, reported
 * as readback=MB/s), which also proves every byte zero, and checks both
 * guard pages.
 *
 * Quick without iters= is a time budget: at least 1 sample (truncated=
 * budget below 3), a sample's reps stop at the time target (reps_truncated=
 * budget), all-CPU cells only at the largest size and one per method path
 * (quick_all_cpu_cell), one cross-CPU call with one sample where that fills
 * the time target (each CPU then reads back as its clear ends:
 * readback_start=own-clear-end); REP STOSQ and MOV not per page; the setup
 * said once per run; "budget:" lines; under an emulator allcpu_bound().
 *
 * Metrics clear.{bandwidth,page_bandwidth,batch_bandwidth}.<method>.<size>.
 * <N>cpu in MB/s (10^6 bytes/s, PMU counts or pmu=none on MOVNTI and REP
 * STOSB) and clear.crossover.movnti.<shape>.<1cpu|allcpu> (the size from
 * which MOVNTI beats REP STOSB at every measured size, clear_crossover() in
 * lib/memsize.c), from which the nt_clear answer is built: docs/suites.md
 * "clear" says each. */
#include "kernel/test.h"
#include "kernel/platform.h"
#include "lib/memsize.h"
#include "lib/printf.h"
#include "lib/string.h"

SUITE_HOSTED(clear, 100, "memory clearing bandwidth by method, size, shape and CPU count; read-back cost");

#define PAGE		4096u
#define GUARD		PAGE
#define GUARD_BYTE	0x5a
#define POISON_BYTE	0xa5
#define SLOT_ALIGN	(2u << 20)
#define REPS_BYTES	(256u << 10)
#define MIN_SAMPLES	3
#define MIN_SAMPLES_QUICK	1	/* one honest sample (quick without iters=) */
#define MAX_SAMPLES	400
#define BARRIER_MARGIN_NS 20000
/* A size projected to end the case later than this after its start: left out */
#define SIZE_CAP_QUICK_MS	30000	/* only an emulator gets near it */
#define SIZE_CAP_FULL_MS	25000	/* ring 0 under an emulator: t_guest_cap_ms() */
#define SIZE_CAP_HOSTED_MS	120000	/* hosted full runs are started by hand */
/* Where the boot probes found ring 0 emulated (plat_ring0_emulated()) only
 * the general-purpose-register methods run, and the log says why: the probes
 * took AVX, AVX-512 and CLZERO away, not SSE2: MOVNTI needs it, MOVNTDQ's PXOR ends the guest. */

enum need { NEED_NONE, NEED_SSE2, NEED_AVX, NEED_AVX512, NEED_CLZERO };

static const struct method {
	const char *name;
	void (*fn)(void *p, size_t n);
	unsigned simd;		/* PLAT_SIMD_* */
	enum need need;
	bool nt;
	void (*nofence)(void *p, size_t n);	/* NT: the same without SFENCE */
} methods[] = {
	{ "rep_stosb", mem_clear_rep_stosb, 0, NEED_NONE, false, NULL },
	{ "rep_stosq", mem_clear_rep_stosq, 0, NEED_NONE, false, NULL },
	{ "mov", mem_clear_mov, 0, NEED_NONE, false, NULL },
	{ "movnti", mem_clear_movnti, 0, NEED_SSE2, true, mem_clear_movnti_nofence },
	{ "movntdq", mem_clear_movntdq, PLAT_SIMD_SSE, NEED_SSE2, true, mem_clear_movntdq_nofence },
	{ "vmovntdq_ymm", mem_clear_vmovntdq_ymm, PLAT_SIMD_AVX, NEED_AVX, true,
	  mem_clear_vmovntdq_ymm_nofence },
	{ "vmovntdq_zmm", mem_clear_vmovntdq_zmm, PLAT_SIMD_AVX | PLAT_SIMD_AVX512, NEED_AVX512, true,
	  mem_clear_vmovntdq_zmm_nofence },
	{ "clzero", mem_clear_clzero, 0, NEED_CLZERO, true, mem_clear_clzero_nofence },
};
#define NMETHODS (sizeof(methods) / sizeof(methods[0]))
#define METHOD_REP_STOSB 0
#define METHOD_MOVNTI	3	/* the kernel series' choice */

/* The shapes of a clear: the whole range in one call; per 4 KiB page,
 * each NT call with its SFENCE (clear_page); per page with one SFENCE per
 * 2 MiB batch (a huge-page clear; REP STOSB and the NT methods only). */
enum shape { SH_WHOLE, SH_PERPAGE, SH_BATCH, NSHAPES };
static const char *const shape_name[NSHAPES] = { "whole-range", "perpage_sfence", "batch_sfence" };
static const char *const shape_short[NSHAPES] = { "whole", "perpage_sfence", "batch_sfence" };
#define BATCH_BYTES	(2u << 20)

static bool method_in_shape(const struct method *m, enum shape sh)
{
	return sh != SH_BATCH || m->nofence || m == &methods[METHOD_REP_STOSB];
}

/* Per need: the CPUID feature, its name, and the XCR0 bits of its state
 * where the OS must enable one (SDM vol. 1 §13.3). */
static const struct { struct x86_cpu_feature f; const char *what, *state; } needs[] = {
	[NEED_SSE2] = { X86_FEATURE_SSE2, "SSE2", NULL },
	[NEED_AVX] = { X86_FEATURE_AVX, "AVX", "XCR0[2:1]" },
	[NEED_AVX512] = { X86_FEATURE_AVX512F, "AVX-512F", "XCR0[7:5]" },
	[NEED_CLZERO] = { X86_FEATURE_CLZERO, "CLZERO", NULL },
};

/* Whether a method can run; why not: the boot probe's or simulate='s
 * reason where one overruled CPUID (t_absent_why), else "CPU lacks AVX or
 * its state (<source>, XCR0[2:1])" with the feature table's source
 * (x86_feature_source).  A buffer per need. */
static bool method_available(const struct plat_mem_info *mi, const struct method *m,
			     const char **why)
{
	static char fallback[NEED_CLZERO + 1][160];
	enum need n = m->need;
	char src[40];

	if (n == NEED_NONE)
		return true;
	x86_feature_source(needs[n].f, src, sizeof(src));
	rl_snprintf(fallback[n], sizeof(fallback[n]), "CPU lacks %s%s (%s%s%s)", needs[n].what,
		    needs[n].state ? " or its state" : "", src, needs[n].state ? ", " : "",
		    needs[n].state ? needs[n].state : "");
	*why = t_absent_why(needs[n].f, needs[n].what, fallback[n]);
	return n == NEED_AVX ? mi->avx_state : n == NEED_AVX512 ? mi->avx512_state :
	       plat_cpu_has(needs[n].f);
}

/* ---- one cell: a method, a size, a shape, a CPU set ---- */
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
	enum phase phase;
	struct tsc_barrier bar, rb_bar;	/* the clear's and the check's */
	struct cpu_slot *cs;
};

static uint8_t *region_of(const struct cell *c, unsigned idx)
{
	return c->base + (uint64_t)idx * c->slot + GUARD;
}

/* The poison and guard fills (whole pages) with 8-byte stores: untimed,
 * and an emulator does them ~15x faster than the REP STOSB of memset (QEMU
 * TCG: ~6 GB/s vs ~450 MB/s), which made the fill most of a quick clear suite. */
static void fill(uint8_t *r, uint64_t bytes, uint8_t byte)
{
	uint64_t *q = (uint64_t *)r, v = 0x0101010101010101ull * byte;

	for (uint64_t i = 0; i < bytes / 8; i++)
		__atomic_store_n(&q[i], v, __ATOMIC_RELAXED);
}

/* Offset of the first byte of g[0..n) that is not GUARD_BYTE, or -1, a word at a
 * time (where an emulator interprets ring 0 a byte loop cost more than the clear) */
static int64_t guard_damage(const uint8_t *g, unsigned n)
{
	for (unsigned w = 0; w < n; w += 8)
		if (*(const uint64_t *)(g + w) != 0x0101010101010101ull * GUARD_BYTE)
			for (unsigned i = w; i < w + 8; i++)
				if (g[i] != GUARD_BYTE)
					return i;
	return -1;
}

static void do_clear(struct cpu_slot *s, struct cell *c, uint8_t *r, uint64_t timeout)
{
	unsigned k;

	s->late = !c->size_bytes && !tsc_barrier_wait(&c->bar, timeout);	/* allcpu_bound() */
	s->start = lfence_rdtsc();
	for (k = 0; k < c->reps; k++) {
		/* after 1, 2, 4, ... reps; plain RDTSC: no LFENCE stalls the
		 * clear it times, and a cap needs no ordering */
		if (c->rep_cap && k && !(k & (k - 1)) && rdtsc() - s->start >= c->rep_cap)
			break;
		if (c->shape == SH_BATCH && c->m->nofence)
			for (uint64_t off = 0; off < c->bytes; off += PAGE) {
				c->m->nofence(r + off, PAGE);
				if ((off + PAGE) % BATCH_BYTES == 0 || off + PAGE == c->bytes)
					mem_sfence();
			}
		else if (c->shape != SH_WHOLE)	/* per page (a REP STOSB batch: no fence) */
			for (uint64_t off = 0; off < c->bytes; off += PAGE)
				c->m->fn(r + off, PAGE);
		else
			c->m->fn(r, c->bytes);
	}
	s->end = lfence_rdtsc();
	s->reps_done = k;
}

static void slot_body(void *arg)
{
	struct cpu_slot *s = arg;
	struct cell *c = s->cell;
	uint8_t *r = region_of(c, s->idx);
	uint64_t timeout = plat_ns_to_cycles(T_LOST_US * 1000ull);

	if (c->phase & PH_PREP) {
		fill(r - GUARD, GUARD, GUARD_BYTE);
		fill(r, c->bytes, POISON_BYTE);
		fill(r + c->bytes, GUARD, GUARD_BYTE);
	}
	if (c->phase & PH_CLEAR)
		do_clear(s, c, r, timeout);
	if (!(c->phase & PH_CHECK))
		return;
	/* one call (quick): each CPU reads back as its clear ends, without a
	 * second rendezvous (under TCG each costs ~10 ms of host time slices) */
	s->rb_late = c->phase != PH_FUSED && !c->size_bytes &&
		     !tsc_barrier_wait(&c->rb_bar, timeout);
	s->rb_start = lfence_rdtsc();
	s->orv = mem_or_reduce(r, c->bytes);
	s->rb_end = lfence_rdtsc();
	int64_t lo = guard_damage(r - GUARD, GUARD), hi = lo < 0 ? guard_damage(r + c->bytes, GUARD) : -1;

	s->guard_bad = lo >= 0 || hi >= 0;
	s->guard_off = lo >= 0 ? lo - GUARD : hi >= 0 ? (int64_t)c->bytes + hi : 0;
}

static void cell_work(void *arg)
{
	struct cell *c = arg;
	unsigned me = plat_this_cpu(), idx = 0;

	while (idx < c->n && c->cpus[idx] != me)
		idx++;
	if (idx == c->n)
		return;
	struct cpu_slot *s = &c->cs[idx];

	s->rc = PLAT_OK;
	if (c->m->simd && (c->phase & PH_CLEAR))
		s->rc = plat_simd_call(c->m->simd, slot_body, s, s->why, sizeof(s->why));
	else
		slot_body(s);
}

/* Run one phase on all CPUs of the cell; false (with a failure) if any
 * CPU did not complete it. */
static bool run_phase(struct test_ctx *t, struct cell *c, enum phase ph, const char *what)
{
	int st[c->n];

	c->phase = ph;
	tsc_barrier_init(&c->bar, c->n, plat_ns_to_cycles(BARRIER_MARGIN_NS));
	tsc_barrier_init(&c->rb_bar, c->n, plat_ns_to_cycles(BARRIER_MARGIN_NS));
	/* generous: 10 s plus the bytes at 10 MB/s (an emulator, or a hosted
	 * thread at a load of 17 per core first-touching huge pages) */
	int rc = plat_call_many(c->cpus, c->n, cell_work, c, 10000 + c->bytes * c->reps / 10000, st);

	for (unsigned i = 0; i < c->n; i++) {
		if (st[i] != PLAT_OK)
			return t_fail(t, "%s: cpu %u: %s", what, c->cpus[i], plat_strerror(st[i]));
		if (c->cs[i].rc != PLAT_OK)
			return t_fail(t, "%s: cpu %u: %s", what, c->cpus[i], c->cs[i].why);
	}
	return rc == PLAT_OK || t_fail(t, "%s: %s", what, plat_strerror(rc));
}

/* Earliest start to latest end on the cell's CPUs (rb: the read-back's) */
static uint64_t span(const struct cell *c, bool rb, bool *late)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	*late = false;
	for (const struct cpu_slot *s = c->cs; s < c->cs + c->n; s++) {
		uint64_t a = rb ? s->rb_start : s->start, b = rb ? s->rb_end : s->end;

		lo = a < lo ? a : lo;
		hi = b > hi ? b : hi;
		*late |= rb ? s->rb_late : s->late;
	}
	return hi > lo ? hi - lo : 0;
}

/* medians for the crossover: [shape][all cpus?][method][size], and the
 * read-back bandwidth after the same cell (MB/s) */
static uint64_t med[NSHAPES][2][NMETHODS][CLEAR_MAX_SIZES];
static uint64_t rback[NSHAPES][2][NMETHODS][CLEAR_MAX_SIZES];
static char size_names[CLEAR_MAX_SIZES][CLEAR_LABEL_MAX];
static unsigned nsizes_seen[NSHAPES], ncpu_seen;
static bool shape_done[NSHAPES];
static int controls_fired = -1;	/* clear.controls: -1 not run, 1 both fired, 0 not */

struct run {
	struct test_ctx *t;
	struct plat_mem_info mi;
	uint64_t *samples, target_cycles;
	bool emulated, bound_said;	/* plat_ring0_emulated(); allcpu_bound()'s line said */
	bool avail[NMETHODS];	/* method_available(), asked once per case */
	uint64_t cells, nsamp, missing, cut_cells, reps_cut;	/* quick: what the budget cut */
};

/* Hardware counts beside the MOVNTI and REP STOSB cells (the seed's
 * evidence: the write-allocate traffic NT stores avoid): one more clear of
 * the cell, counted on CPU 0 (which clears its own region inline). */
static const enum plat_event clear_ev[] = { PLAT_EV_LLC_MISSES, PLAT_EV_RFO };
#define NCLEAR_EV (sizeof(clear_ev) / sizeof(clear_ev[0]))

static void counted_pass(struct test_ctx *t, struct cell *c, const char *ctx, char *out, size_t outsz)
{
	bool counting[NCLEAR_EV];
	uint64_t a[NCLEAR_EV], b[NCLEAR_EV], d[NCLEAR_EV] = { 0 };
	char why[240], tok[200];
	unsigned k = plat_counters_open(clear_ev, NCLEAR_EV, counting, why, sizeof(why));

	if (k && plat_counters_read(a) && run_phase(t, c, PH_CLEAR, ctx) && plat_counters_read(b)) {
		plat_counters_delta(a, b, d);
		plat_counters_close();
		size_t len = (size_t)plat_counts_format(out, outsz, clear_ev, NCLEAR_EV, counting, d);

		if (len < outsz)
			rl_snprintf(out + len, outsz - len, " pmu_cpu=0 pmu_bytes=%llu",
				    (unsigned long long)(c->bytes * c->cs[0].reps_done));
		return;
	}
	plat_counters_close();
	if (k)
		str_copy(why, "reading the counters failed", sizeof(why));
	/* the reason as one token: a metric value has no spaces */
	size_t j = 0;

	for (size_t i = 0; why[i] && j + 1 < sizeof(tok) && j < 100; i++)
		tok[j++] = why[i] == ' ' || why[i] == '\t' ? '-' : why[i] == '=' ? ':' : why[i];
	tok[j] = '\0';
	rl_snprintf(out, outsz, "pmu=none pmu_why=%s", j ? tok : "no-counters");
}

/* Measure one method in a prepared cell; returns false if the case
 * should stop (a failure that makes further cells pointless).  one1: the
 * method's 1-CPU MB/s at this size, 0 if none. */
static bool measure(struct run *ru, struct cell *c, const char *size_name, uint64_t *median,
		    uint64_t *readback, uint64_t one1)
{
	struct test_ctx *t = ru->t;
	char what[64], ctx[96];
	size_t k = 0;
	unsigned late = 0;

	/* quick: an all-CPU cell's first call fills and takes a sample, and
	 * where the 1-CPU rate says that one is all the time target allows
	 * (or allcpu_bound() held it), reads back too: one cross-CPU call,
	 * not three */
	bool fused = t_budgeted(t) && c->n > 1, last = fused && (c->size_bytes || !one1 ||
		c->bytes * c->reps * plat_tsc_hz() / (one1 * 1000000) >= ru->target_cycles);
	unsigned planned = c->reps, min_reps;

	rl_snprintf(ctx, sizeof(ctx), "%s %s %ucpu %s", c->m->name, size_name, c->n,
		    shape_name[c->shape]);
	if (!run_phase(t, c, last ? PH_FUSED : fused ? PH_PREP | PH_CLEAR : PH_PREP, ctx))
		return false;
	uint64_t t0 = lfence_rdtsc();

	while (k < MAX_SAMPLES && ((fused && !k) || !t_expired(t))) {
		if (k || !fused)
			if (!run_phase(t, c, PH_CLEAR, ctx))
				return false;
		bool l;
		uint64_t cyc = span(c, false, &l), bytes = 0;

		min_reps = c->reps;	/* the bytes each CPU cleared, the fewest reps */
		for (const struct cpu_slot *s = c->cs; s < c->cs + c->n; s++) {
			bytes += c->bytes * s->reps_done;
			min_reps = s->reps_done < min_reps ? s->reps_done : min_reps;
		}
		late += l;
		ru->samples[k++] = mbps(bytes, cyc, plat_tsc_hz());
		c->reps = min_reps ? min_reps : 1;	/* what the slowest CPU ran */
		if (last)
			break;
		/* quick: one honest sample, then the time target or the
		 * case's quick budget */
		if (k >= (t_budgeted(t) ? MIN_SAMPLES_QUICK : MIN_SAMPLES) &&
		    (lfence_rdtsc() - t0 >= ru->target_cycles || t_quick_spent(t)))
			break;
	}
	ru->cells++, ru->nsamp += k, ru->reps_cut += c->reps < planned;
	ru->missing += k < MIN_SAMPLES ? MIN_SAMPLES - k : 0, ru->cut_cells += k < MIN_SAMPLES;
	char pmu[300] = "", bound[80] = "";

	if (c->m == &methods[METHOD_MOVNTI] || c->m == &methods[METHOD_REP_STOSB]) {
		pmu[0] = ' ';
		counted_pass(t, c, ctx, pmu + 1, sizeof(pmu) - 1);
	}
	if (!last && !run_phase(t, c, PH_CHECK, ctx))
		return false;
	bool l;
	uint64_t rb = mbps(c->bytes * c->n, span(c, true, &l), plat_tsc_hz());

	late += l;
	for (unsigned i = 0; i < c->n; i++) {
		const struct cpu_slot *s = &c->cs[i];
		uint8_t *r = region_of(c, i);

		if (s->orv) {
			uint64_t off = 0;

			while (off < c->bytes && r[off] == 0)
				off++;
			t_fail(t, "%s: cpu %u: byte at offset %llu is 0x%02x after the clear", ctx,
			       c->cpus[i], (unsigned long long)off, off < c->bytes ? r[off] : 0);
		}
		if (s->guard_bad)
			t_fail(t, "%s: cpu %u: guard byte at offset %lld damaged (0x%02x, expected 0x%02x)",
			       ctx, c->cpus[i], (long long)s->guard_off, r[s->guard_off], GUARD_BYTE);
	}
	rl_snprintf(what, sizeof(what), "%s.%s.%ucpu", c->m->name, size_name, c->n);
	if (c->size_bytes)	/* bytes= and reps= are each CPU's share */
		rl_snprintf(bound, sizeof(bound), " allcpu_bound=%ucpus-worth size_bytes=%llu size_reps=%u start=on-arrival",
			    T_QUICK_ALLCPU_CPUS, (unsigned long long)c->size_bytes, c->size_reps);
	t_metric_dist(t, what, ru->samples, k, "MB/s",
		      "method=%s shape=%s bytes=%llu cpus=%u reps=%u%s readback=%llu readback_unit=MB/s%s late=%u%s%s%s%s",
		      c->m->name, shape_name[c->shape], (unsigned long long)c->bytes, c->n, c->reps,
		      bound, (unsigned long long)rb, last ? " readback_start=own-clear-end" : "",
		      late, c->shape == SH_BATCH && c->m->nofence ? " sfence=per-2MiB-batch" :
		      c->shape == SH_PERPAGE && c->m->nt ? " sfence=per-4KiB-page" : "",
		      k < MIN_SAMPLES ? " truncated=budget" : "",
		      c->reps < planned ? " reps_truncated=budget" : "", pmu);
	/* t_metric_dist sorted the samples */
	*median = k ? ru->samples[(k - 1) / 2] : 0;
	*readback = rb;
	return true;
}

/* How long the cells of the next size would take (ms), from the medians
 * of the size below: per method, MIN_SAMPLES clears (quick_pair: quick's
 * one) plus fill and read-back, on one CPU and on all.  In quick a rate
 * counts as at least 1/PROJECT_SPREAD of the fastest method's: one sample
 * taken while the vCPU was descheduled (TCG: 1 MB/s beside 10 GB/s) must
 * not leave the next size out and make metric names depend on timing. */
#define PROJECT_SPREAD	64

static uint64_t projected_ms(const bool *have, enum shape sh,
			     uint64_t m[2][NMETHODS][CLEAR_MAX_SIZES], unsigned prev,
			     uint64_t next_bytes, unsigned ncpu, uint64_t avail, bool quick_pair)
{
	uint64_t ms = 0, fastest = 0;

	if (!next_bytes)	/* "largest": as much as fits */
		next_bytes = avail / (ncpu ? ncpu : 1);
	for (unsigned i = 0; i < NMETHODS; i++)
		if (have[i] && method_in_shape(&methods[i], sh) && m[0][i][prev] > fastest)
			fastest = m[0][i][prev];
	for (unsigned all = 0; all < 2; all++)
		for (unsigned i = 0; i < NMETHODS; i++) {
			uint64_t bw = m[all][i][prev];	/* MB/s, aggregate */
			uint64_t reps = next_bytes >= REPS_BYTES ? 1 : REPS_BYTES / next_bytes;
			uint64_t bytes = next_bytes * (all ? ncpu : 1) *
					 ((quick_pair ? MIN_SAMPLES_QUICK : MIN_SAMPLES) * reps + 2);

			if (!have[i] || (all && ncpu == 1) || !method_in_shape(&methods[i], sh))
				continue;
			/* quick_pair: no all-CPU cell below the largest size
			 * (quick_all_cpu_cell): projected at the method's
			 * 1-CPU rate, else REP STOSB's */
			if (!bw && all && quick_pair)
				bw = m[0][i][prev] ? m[0][i][prev] : m[0][METHOD_REP_STOSB][prev];
			if (quick_pair && bw < fastest / PROJECT_SPREAD)
				bw = fastest / PROJECT_SPREAD;
			ms += bytes / ((bw ? bw : 1) * 1000);
		}
	return ms;
}

/* Quick without iters=: whether method m gets an all-CPU cell at size si
 * of nsz (a rendezvous waits 10-40 ms for host time slices under TCG): the
 * largest size only, each kind of path once: per page VMOVNTDQ ymm, per
 * batch the crossover pair, whole range MOVNTI, zmm and CLZERO (Bochs). */
static bool quick_all_cpu_cell(enum shape sh, unsigned m, unsigned si, unsigned nsz)
{
	if (si + 1 < nsz)
		return false;
	switch (sh) {
	case SH_WHOLE:
		return m == METHOD_MOVNTI || methods[m].need == NEED_AVX512 ||
		       methods[m].need == NEED_CLZERO;
	case SH_PERPAGE:
		return methods[m].need == NEED_AVX;
	default:
		return m == METHOD_REP_STOSB || m == METHOD_MOVNTI;
	}
}

static const char *const quick_all_cpu_what[NSHAPES] = { "movnti, vmovntdq_zmm and clzero",
							 "vmovntdq_ymm", "rep_stosb and movnti" };

/* Quick in ring 0 under an emulator, whose few host threads run every vCPU:
 * an all-CPU cell cost the sum of every CPU's work and, far more, of every
 * CPU spinning in the TSC rendezvous while CPU 0 still posted the call
 * (seconds a call at 288 CPUs).  There it clears T_QUICK_ALLCPU_CPUS CPUs'
 * worth in all (t_allcpu_share()), each CPU its share (fewer reps, else
 * pages; regions packed, few fresh pages touched) from when the call
 * reaches it, in one call on quick's budget (measure()). */
static void allcpu_bound(struct run *ru, struct cell *c, const char *size_name)
{
	if (!t_allcpu_bounded(ru->t, c->n))
		return;
	uint64_t w = t_allcpu_share(ru->t, c->bytes * c->reps, c->n, PAGE);

	c->size_bytes = c->bytes, c->size_reps = c->reps;
	if (w >= c->bytes)
		c->reps = (unsigned)(w / c->bytes);
	else
		c->bytes = w / PAGE * PAGE, c->reps = 1;
	c->slot = (c->bytes + 2 * GUARD + PAGE - 1) / PAGE * PAGE;	/* within the allocation */
	if (!ru->bound_said)
		t_diag(ru->t, "budget: all-CPU cells (%u CPUs) clear %u CPUs' worth in all, each CPU its share (at %s %llu bytes x %u, not %llu x %u) from when the call reaches it, no TSC rendezvous (allcpu_bound= and start= in the metrics): quick in ring 0 under an emulator, whose host threads run every vCPU",
		       c->n, T_QUICK_ALLCPU_CPUS, size_name, (unsigned long long)c->bytes, c->reps,
		       (unsigned long long)c->size_bytes, c->size_reps);
	ru->bound_said = true;
}

/* Quick without iters=: the case that printed the setup (LLC, methods
 * left out, sizes); later cases point at it (where an emulator interprets
 * ring 0 a line costs milliseconds). */
static char setup_said_in[96];

static void run_shape(struct test_ctx *t, enum shape per_page)
{
	struct run ru = { .t = t };
	struct clear_size sizes[CLEAR_MAX_SIZES];
	unsigned cpus[plat_ncpus()], ncpu = 1;
	const char *why;
	char how[160];
	bool say = !t_budgeted(t) || !setup_said_in[0];

	plat_mem_info(&ru.mi);
	ru.emulated = plat_ring0_emulated();
	if (ru.emulated && say)
		t_diag(t, "SIMD and CLZERO methods not measured: REP STOSB cleared a cached 4KiB page at %llu MB/s at boot: this hypervisor emulates ring-0 instructions, and its emulator may not do them and would end the guest",
		       (unsigned long long)plat_emulated_mbps());
	cpus[0] = 0;
	ncpu += plat_other_cpus(cpus + 1, plat_ncpus() - 1);
	ncpu_seen = ncpu;
	unsigned nsz = clear_sizes(ru.mi.llc_bytes, t_quick(t), plat_ring0(), sizes, CLEAR_MAX_SIZES);

	ru.samples = t_alloc(t, MAX_SAMPLES * sizeof(uint64_t));
	struct cpu_slot *cs = t_alloc(t, ncpu * sizeof(struct cpu_slot));

	/* quick without iters= (a time budget): 0.25 ms a cell */
	ru.target_cycles = plat_ns_to_cycles(t_pick(t, 40000000, 3000000, 250000));
	uint64_t case_start = lfence_rdtsc();
	if (say)
		t_diag(t, "LLC %llu KiB (L%u, %s); ERMS %s; %u CPU(s); sizes per CPU:",
		       (unsigned long long)(ru.mi.llc_bytes >> 10), ru.mi.llc_level, ru.mi.llc_source,
		       plat_cpu_has(X86_FEATURE_ERMS) ? "yes" : "no", ncpu);
	else
		t_diag(t, "LLC, methods left out and sizes: as in %s above", setup_said_in);
	for (unsigned m = 0; m < NMETHODS; m++) {
		ru.avail[m] = method_available(&ru.mi, &methods[m], &why);
		/* quick: the line above already says why for SIMD and CLZERO */
		if (!ru.avail[m] && say && !(t_budgeted(t) && ru.emulated &&
					     (methods[m].simd || methods[m].need == NEED_CLZERO)))
			t_diag(t, "method %s not measured: %s", methods[m].name, why);
	}
	if (per_page == SH_BATCH)
		t_diag(t, "batch_sfence: per-4KiB calls without SFENCE, one SFENCE per %u KiB batch (or per region when smaller); rep_stosq and mov have nothing to batch (see page_bandwidth)",
		       BATCH_BYTES >> 10);
	memset(med[per_page], 0, sizeof(med[per_page]));
	memset(rback[per_page], 0, sizeof(rback[per_page]));
	nsizes_seen[per_page] = nsz;
	bool quick_said = false, quick_said_1cpu = false;
	for (unsigned si = 0; si < nsz; si++) {
		str_copy(size_names[si], sizes[si].label, sizeof(size_names[si]));
		if (si > 0) {
			/* at every CPU's full share even where allcpu_bound()
			 * cuts it: which sizes run does not depend on the bound */
			uint64_t ms = projected_ms(ru.avail, per_page, med[per_page], si - 1, sizes[si].bytes,
						   ncpu, plat_big_avail(), t_budgeted(t));
			/* ring 0 under an emulator may be 100-1000x slower
			 * (CI boots full runs under QEMU TCG): the runner's cap */
			uint64_t cap = t_guest_cap_ms(t, T_CAP_CLEAR_SIZE);

			cap = t_quick(t) ? SIZE_CAP_QUICK_MS : cap ? cap :
			      plat_ring0() ? SIZE_CAP_FULL_MS : SIZE_CAP_HOSTED_MS;
			uint64_t spent = (lfence_rdtsc() - case_start) * 1000 / plat_tsc_hz();

			if (spent + ms > cap) {
				t_diag(t, "%s and larger not measured: at the bandwidth measured for %s they would take ~%llu s more, after %llu s (cap %llu s)",
				       sizes[si].label, sizes[si - 1].label, (unsigned long long)(ms / 1000),
				       (unsigned long long)(spent / 1000), (unsigned long long)(cap / 1000));
				nsizes_seen[per_page] = si;
				break;
			}
		}
		for (unsigned all = 0; all < 2; all++) {
			unsigned n = all ? ncpu : 1;
			uint64_t slot = 0, avail = plat_big_avail();

			if (all && ncpu == 1) {
				t_diag(t, "%s: one CPU online, no all-CPU run", sizes[si].label);
				continue;
			}
			uint64_t bytes = clear_fit(sizes[si].bytes, n, GUARD, SLOT_ALIGN, avail, &slot);

			if (!bytes) {
				t_diag(t, "%s x %u CPU(s) not measured: does not fit in the %llu MiB available",
				       sizes[si].label, n, (unsigned long long)(avail >> 20));
				continue;
			}
			how[0] = '\0';
			uint8_t *base = plat_alloc_big(slot * n, how, sizeof(how));

			if (!base) {
				t_diag(t, "%s x %u CPU(s) not measured: allocation of %llu MiB failed",
				       sizes[si].label, n, (unsigned long long)((slot * n) >> 20));
				continue;
			}
			if (!all && say)
				t_diag(t, "%s = %llu bytes%s; memory: %s", sizes[si].label,
				       (unsigned long long)bytes,
				       sizes[si].llc_double ? " (2 x LLC)" : "", how);
			for (unsigned m = 0; m < NMETHODS; m++) {
				if (!ru.avail[m] || !method_in_shape(&methods[m], per_page))
					continue;
				if (ru.emulated && (methods[m].simd || methods[m].need == NEED_CLZERO))
					continue;
				/* quick: per page, REP STOSQ and MOV (no fence
				 * to place) would be the whole-range cells again */
				if (!all && t_budgeted(t) && per_page == SH_PERPAGE &&
				    !methods[m].nt && m != METHOD_REP_STOSB) {
					if (!quick_said_1cpu)
						t_diag(t, "budget: rep_stosq and mov not measured per page (quick budget): no fence to place, see bandwidth");
					quick_said_1cpu = true;
					continue;
				}
				if (all && t_budgeted(t) &&
				    !quick_all_cpu_cell(per_page, m, si, nsz)) {
					if (!quick_said) {
						t_diag(t, "budget: all-CPU cells (%u CPUs) only at %s and only %s (quick budget)",
						       n, sizes[nsz - 1].label, quick_all_cpu_what[per_page]);
						quick_said = true;
					}
					continue;
				}
				struct cell c = {
					.m = &methods[m], .shape = per_page, .n = n, .cpus = cpus,
					.base = base, .slot = slot, .bytes = bytes,
					.reps = bytes >= REPS_BYTES ? 1 : (unsigned)(REPS_BYTES / bytes),
					.rep_cap = t_budgeted(t) ? ru.target_cycles : 0, .cs = cs,
				};

				allcpu_bound(&ru, &c, sizes[si].label);
				for (unsigned i = 0; i < n; i++)
					cs[i] = (struct cpu_slot){ .cell = &c, .idx = i };
				if (!measure(&ru, &c, sizes[si].label, &med[per_page][all][m][si],
					     &rback[per_page][all][m][si], med[per_page][0][m][si])) {
					plat_free_big(base);
					goto out;
				}
				if (t_expired(t)) {
					t_diag(t, "budget used up after %s %s; the rest not measured",
					       methods[m].name, sizes[si].label);
					plat_free_big(base);
					goto out;
				}
			}
			plat_free_big(base);
		}
	}
	shape_done[per_page] = true;
out:
	if (!t_budgeted(t))
		return;
	if (say)
		str_copy(setup_said_in, t->full_name, sizeof(setup_said_in));
	/* what the quick budget cut in this case, one "budget:" line */
	rl_snprintf(how, sizeof(how), "of %llu cells %llu below %u samples (truncated=budget), %llu with fewer reps (reps_truncated=budget)",
		    (unsigned long long)ru.cells, (unsigned long long)ru.cut_cells, MIN_SAMPLES,
		    (unsigned long long)ru.reps_cut);
	if (ru.missing)
		t_budget_note(t, how, ru.nsamp, ru.nsamp + ru.missing);
	else if (ru.reps_cut)
		t_diag(t, "budget: %s", how);
}

TEST(clear, bandwidth, .budget_ms = 300000)
{
	run_shape(t, SH_WHOLE);
}

/* perpage_sfence: one SFENCE per 4 KiB page (each NT call ends with it) */
TEST(clear, page_bandwidth, .budget_ms = 300000)
{
	run_shape(t, SH_PERPAGE);
}

/* batch_sfence: per-page calls, one SFENCE per 2 MiB batch */
TEST(clear, batch_bandwidth, .budget_ms = 300000)
{
	run_shape(t, SH_BATCH);
}

/* The checks above must be able to fail: clear one line short, and one
 * byte long, and see the zero check and the guard check catch each. */
TEST(clear, controls)
{
	const unsigned cpus[1] = { 0 };
	struct cpu_slot cs[1];
	static const struct method short_m = { "short", NULL, 0, NEED_NONE, false, NULL };
	/* one page and its guards: t_alloc zeroes, and the fills and clears
	 * run at ~1 MB/s where an emulator interprets ring 0 */
	const uint64_t slot = PAGE + 2 * GUARD;
	uint8_t *base = t_alloc(t, slot);
	struct cell c = { .m = &short_m, .n = 1, .cpus = cpus, .base = base, .slot = slot,
			  .bytes = PAGE, .reps = 1, .cs = cs };

	cs[0] = (struct cpu_slot){ .cell = &c, .idx = 0 };
	uint8_t *r = region_of(&c, 0);

	for (unsigned over = 0; over < 2; over++) {	/* short by one line, one byte over */
		c.phase = PH_PREP;
		cell_work(&c);
		mem_clear_rep_stosb(r, over ? c.bytes + 1 : c.bytes - 64);
		tsc_barrier_init(&c.rb_bar, 1, 0);
		c.phase = PH_CHECK;
		cell_work(&c);
		if (over)
			break;
		t_check(t, cs[0].orv != 0, "a clear one line short was not detected by the zero check");
		t_check(t, !cs[0].guard_bad, "a short clear damaged a guard (offset %lld)",
			(long long)cs[0].guard_off);
	}
	t_check(t, cs[0].orv == 0, "the overrunning clear left the region non-zero");
	t_check(t, cs[0].guard_bad && cs[0].guard_off == (int64_t)c.bytes,
		"a one-byte overrun was not detected by the guard check (damaged %d at %lld)",
		cs[0].guard_bad, (long long)cs[0].guard_off);
	t_diag(t, "negative controls: short clear -> zero check fired; 1-byte overrun -> guard check fired at +%lld",
	       (long long)cs[0].guard_off);
	controls_fired = !t_failed(t);
}

/* What one crossover found, for the answer. */
struct xo {
	bool measured;
	int from;		/* size index, -1: never */
	char text[96];		/* "from 2MiB on" / "nowhere up to 1GiB" */
	char metric[64];	/* the metric's full name */
};

/* MOVNTI (or method m) against REP STOSB over the sizes of one shape and
 * CPU count: "from S on" only if it wins at every measured size >= S
 * (clear_crossover, lib/memsize.c). */
static void method_crossover(unsigned shape, unsigned all, unsigned m, struct xo *x)
{
	uint64_t nt[CLEAR_MAX_SIZES], stosb[CLEAR_MAX_SIZES];
	unsigned nsz = nsizes_seen[shape];
	bool any = false;

	x->measured = false;
	for (unsigned s = 0; s < nsz; s++) {
		nt[s] = med[shape][all][m][s];
		stosb[s] = med[shape][all][METHOD_REP_STOSB][s];
		any |= nt[s] && stosb[s];
	}
	if (!any)
		return;
	x->measured = true;
	x->from = clear_crossover(nt, stosb, nsz);
	int fw = clear_first_win(nt, stosb, nsz);

	rl_snprintf(x->text, sizeof(x->text), x->from >= 0 ? "from %s on" : "nowhere up to %s",
		    size_names[x->from >= 0 ? x->from : (int)nsz - 1]);
	if (fw >= 0 && (x->from < 0 || fw < x->from))
		rl_snprintf(x->text + strlen(x->text), sizeof(x->text) - strlen(x->text),
			    " (won at %s, lost above)", size_names[fw]);
}

static char others_whole[300];	/* the other NT methods, whole range, 1 CPU */

/* One crossover's metric and conclusions; its metric's name joins from[]. */
static void crossover_for(struct test_ctx *t, unsigned shape, unsigned all, struct xo *x,
			  char *from, size_t fromsz)
{
	const char *cpus = all ? "all CPUs" : "1 CPU";
	unsigned nsz = nsizes_seen[shape];
	char what[64], others[300] = "";
	bool any = false;

	method_crossover(shape, all, METHOD_MOVNTI, x);
	if (!x->measured)
		return;
	size_t fl = strlen(from);
	/* the read-back cost beside it: at the crossover, else the largest */
	unsigned at = x->from >= 0 ? (unsigned)x->from : nsz - 1;
	const uint64_t *mv = med[shape][all][METHOD_MOVNTI], *sb = med[shape][all][METHOD_REP_STOSB];
	const uint64_t *rm = rback[shape][all][METHOD_MOVNTI], *rs = rback[shape][all][METHOD_REP_STOSB];

	rl_snprintf(what, sizeof(what), "movnti.%s.%s", shape_short[shape], all ? "allcpu" : "1cpu");
	rl_snprintf(x->metric, sizeof(x->metric), "clear.crossover.%s", what);
	rl_snprintf(from + fl, fromsz - fl, "%s%s", fl ? "," : "", x->metric);
	t_metric_value(t, what, x->from >= 0 ? (int64_t)x->from : -1, "count",
		       "what=size-index from=%s rule=wins-at-every-measured-size-from-here shape=%s cpus=%u at=%s movnti=%llu rep_stosb=%llu readback_movnti=%llu readback_rep_stosb=%llu unit_bw=MB/s",
		       x->from >= 0 ? size_names[x->from] : "never", shape_name[shape], all ? ncpu_seen : 1,
		       size_names[at], (unsigned long long)mv[at], (unsigned long long)sb[at],
		       (unsigned long long)rm[at], (unsigned long long)rs[at]);
	t_conclude(t, "crossover %s %s: MOVNTI beats REP STOSB %s (at %s: MOVNTI %llu vs REP STOSB %llu MB/s; read-back after %llu vs %llu MB/s)",
		   shape_name[shape], cpus, x->text, size_names[at], (unsigned long long)mv[at],
		   (unsigned long long)sb[at], (unsigned long long)rm[at], (unsigned long long)rs[at]);
	for (unsigned m = 0; m < NMETHODS; m++) {
		struct xo o;
		size_t len = strlen(others);

		if (!methods[m].nt || m == METHOD_MOVNTI)
			continue;
		method_crossover(shape, all, m, &o);
		any |= o.measured;
		rl_snprintf(others + len, sizeof(others) - len, "%s%s %s", len ? ", " : "", methods[m].name,
			    o.measured ? o.text : "not measured");
	}
	/* quick: not a line of "not measured" (the answer says so) */
	if (any || !t_budgeted(t))
		t_conclude(t, "crossover %s %s, other NT methods vs REP STOSB: %s", shape_name[shape], cpus,
			   others);
	if (shape == SH_WHOLE && !all)
		str_copy(others_whole, others, sizeof(others_whole));
}

TEST(clear, crossover)
{
	struct xo x[NSHAPES][2] = { 0 };
	char from[400] = "";

	if (!shape_done[SH_WHOLE] && !shape_done[SH_PERPAGE] && !shape_done[SH_BATCH]) {
		t_skip(t, "needs clear.bandwidth, clear.page_bandwidth or clear.batch_bandwidth earlier in the run");
		return;
	}
	for (unsigned shape = 0; shape < NSHAPES; shape++)
		for (unsigned all = 0; shape_done[shape] && all < 2; all++)
			crossover_for(t, shape, all, &x[shape][all], from, sizeof(from));
	if (!from[0])
		return;
	/* the answer: whole range and the kernel series' batch shape; the
	 * per-page-SFENCE shape (biased towards REP STOSB) as a note */
	char ans[520] = "MOVNTI clears faster than REP STOSB";
	static const unsigned order[] = { SH_WHOLE, SH_BATCH, SH_PERPAGE };
	static const char *const how[] = { "whole range", "per 4 KiB page with one SFENCE per 2 MiB batch",
					   "with an SFENCE per page" };
	size_t len;

	for (unsigned i = 0, n = 0; i < 3; i++) {
		unsigned sh = order[i];

		if (!x[sh][0].measured)
			continue;
		len = strlen(ans);
		rl_snprintf(ans + len, sizeof(ans) - len, "%s %s: %s (1 CPU)%s%s%s", n++ ? ";" : "", how[i],
			    x[sh][0].text, x[sh][1].measured ? ", " : "",
			    x[sh][1].measured ? x[sh][1].text : "", x[sh][1].measured ? " (all CPUs)" : "");
	}
	unsigned last = nsizes_seen[SH_WHOLE] ? nsizes_seen[SH_WHOLE] - 1 : 0;

	str_copy(ans + strlen(ans), ".", sizeof(ans) - strlen(ans));
	len = strlen(ans);
	if (shape_done[SH_WHOLE] && nsizes_seen[SH_WHOLE])
		rl_snprintf(ans + len, sizeof(ans) - len,
			    " Reading %s back: %llu MB/s after MOVNTI vs %llu after REP STOSB.",
			    size_names[last], (unsigned long long)rback[SH_WHOLE][0][METHOD_MOVNTI][last],
			    (unsigned long long)rback[SH_WHOLE][0][METHOD_REP_STOSB][last]);
	t_answer(t, ANSWER_NT_CLEAR, from,
		 controls_fired < 0 ? T_CONTROL_NONE : controls_fired ? T_CONTROL_FIRED : T_CONTROL_NOT_OBSERVED,
		 "%s Other NT methods (whole range, 1 CPU): %s.", ans,
		 others_whole[0] ? others_whole : "not measured");
}
