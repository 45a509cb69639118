/* SPDX-License-Identifier: GPL-2.0-only */
/* clear: the methods and one cell -- fill, timed clears, read-back and
 * guard check, the PMU pass -- and measure() (suites/clear/clear.h). */
#include "suites/clear/clear.h"
#include "lib/printf.h"
#include "lib/string.h"

const char *const shape_name[NSHAPES] = { "whole-range", "perpage_sfence", "batch_sfence" };
const char *const shape_short[NSHAPES] = { "whole", "perpage_sfence", "batch_sfence" };

/* Where the boot probes found ring 0 emulated (plat_ring0_emulated()) only
 * the general-purpose-register methods run, and the log says why: the probes
 * took AVX, AVX-512 and CLZERO away, not SSE2: MOVNTI needs it, MOVNTDQ's PXOR ends the guest. */

const struct method methods[NMETHODS] = {
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
bool method_available(const struct plat_mem_info *mi, const struct method *m,
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

/* Evict the region's lines from every cache level (CLFLUSH, SDM vol. 2A:
 * "invalidates from every level of the cache hierarchy"; baseline on
 * x86-64 with SSE2), so that the clear after it is cold: each store then
 * misses, as on a page the allocator hands out that nothing touched lately.
 * An emulator has no caches to flush (QEMU TCG): there the cold/hot
 * difference is the emulator's own, not a cache effect. */
static void flush_lines(const uint8_t *r, uint64_t bytes)
{
	for (uint64_t off = 0; off < bytes; off += 64)
		__asm__ volatile("clflush %0" : : "m"(r[off]) : "memory");
	__asm__ volatile("mfence" : : : "memory");
}

static void do_clear(struct cpu_slot *s, struct cell *c, uint8_t *r, uint64_t timeout)
{
	unsigned k, reps = c->cold ? 1 : c->reps;

	if (c->cold)
		flush_lines(r, c->bytes);
	s->late = !c->size_bytes && !tsc_barrier_wait(&c->bar, timeout);	/* allcpu_bound() */
	s->start = lfence_rdtsc();
	for (k = 0; k < reps; k++) {
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
		else if (c->extent)	/* clear_pages(): an extent per call */
			for (uint64_t off = 0; off < c->bytes; off += EXTENT_BYTES)
				c->m->fn(r + off, c->bytes - off < EXTENT_BYTES ? c->bytes - off :
						  EXTENT_BYTES);
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

void cell_work(void *arg)
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
bool run_phase(struct test_ctx *t, struct cell *c, enum phase ph, const char *what)
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

struct cstat cst[NSHAPES][2][NMETHODS][CLEAR_MAX_SIZES];
char size_names[CLEAR_MAX_SIZES][CLEAR_LABEL_MAX];
uint64_t size_bytes_seen[CLEAR_MAX_SIZES];
uint64_t llc_seen;
unsigned nsizes_seen[NSHAPES], ncpu_seen;
bool shape_done[NSHAPES];
int controls_fired = -1;
uint64_t checks_done, checks_bad;

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

/* Hardware counts beside the MOVNTI and REP STOSB cells (the seed's
 * evidence: the write-allocate traffic NT stores avoid): one more clear of
 * the cell, counted on CPU 0 (which clears its own region inline). */
static const enum plat_event clear_ev[] = { PLAT_EV_LLC_MISSES, PLAT_EV_RFO };
#define NCLEAR_EV (sizeof(clear_ev) / sizeof(clear_ev[0]))

/* The hardware event behind "rfo" where it counts: the encodings of
 * arch/x86/pmu.c (ring 0) and tools/hosted/perf_linux.c (hosted), named
 * as the SDM vol. 3B event tables and AMD's PPR name them. */
static const char *rfo_event(void)
{
	const struct cpuinfo *ci = plat_cpu_info();

	if (ci->vendor == VENDOR_AMD || ci->vendor == VENDOR_HYGON)
		return "L2RequestG1.RdBlkX(PMCx060,umask40h)";
	return plat_ring0() ? "OFFCORE_REQUESTS.DEMAND_RFO" : "perf:LLC-stores(Intel:offcore-demand-RFO)";
}

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
			rl_snprintf(out + len, outsz - len, " pmu_cpu=0 pmu_bytes=%llu%s%s",
				    (unsigned long long)(c->bytes * c->cs[0].reps_done),
				    counting[1] ? " rfo_event=" : "", counting[1] ? rfo_event() : "");
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
 * method's 1-CPU MB/s at this size, 0 if none.  what_name: the metric's
 * method part (NULL: the method's name).  cold: one cold clear (the
 * region's lines flushed) after the fill, before the hot samples, which
 * clear a region the previous sample left in the caches where it fits. */
bool measure(struct run *ru, struct cell *c, const char *size_name, const char *what_name,
	     struct cstat *out, uint64_t one1, bool cold)
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
	out->cold = 0;
	if (cold && !fused) {
		bool l;

		c->cold = true;
		bool ok = run_phase(t, c, PH_CLEAR, ctx);

		c->cold = false;
		if (!ok)
			return false;
		out->cold = mbps(c->bytes, span(c, false, &l), plat_tsc_hz());
	}
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
	char pmu[300] = "", bound[80] = "", cold_s[96] = "";

	/* the cold clear beside the hot median it is compared with */
	if (out->cold)
		rl_snprintf(cold_s, sizeof(cold_s), " cold=%llu cold_n=1 cold_how=clflush-then-clear hot=samples",
			    (unsigned long long)out->cold);

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

		checks_done++;
		checks_bad += s->orv || s->guard_bad;
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
	rl_snprintf(what, sizeof(what), "%s.%s.%ucpu", what_name ? what_name : c->m->name, size_name,
		    c->n);
	if (c->size_bytes)	/* bytes= and reps= are each CPU's share */
		rl_snprintf(bound, sizeof(bound), " allcpu_bound=%ucpus-worth size_bytes=%llu size_reps=%u start=on-arrival",
			    T_QUICK_ALLCPU_CPUS, (unsigned long long)c->size_bytes, c->size_reps);
	t_metric_dist(t, what, ru->samples, k, "MB/s",
		      "method=%s shape=%s bytes=%llu cpus=%u reps=%u%s readback=%llu readback_unit=MB/s%s late=%u%s%s%s%s%s",
		      c->m->name, c->extent ? "extent" : shape_name[c->shape], (unsigned long long)c->bytes, c->n, c->reps,
		      bound, (unsigned long long)rb, last ? " readback_start=own-clear-end" : "",
		      late, c->shape == SH_BATCH && c->m->nofence ? " sfence=per-2MiB-batch" :
		      c->shape == SH_PERPAGE && c->m->nt ? " sfence=per-4KiB-page" : "",
		      k < MIN_SAMPLES ? " truncated=budget" : "",
		      c->reps < planned ? " reps_truncated=budget" : "", cold_s, pmu);
	/* t_metric_dist sorted the samples: the median and the quartiles
	 * (nearest rank below) for crossover.c's separation test */
	out->n = (unsigned)k;
	out->med = k ? ru->samples[(k - 1) / 2] : 0;
	out->p25 = k ? ru->samples[(k - 1) / 4] : 0;
	out->p75 = k ? ru->samples[3 * (k - 1) / 4] : 0;
	out->rb = rb;
	return true;
}
