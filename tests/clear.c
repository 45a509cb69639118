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
 * (tsc_barrier); its bandwidth is bytes * reps * CPUs divided by the time
 * from the earliest start to the latest end (LFENCE;RDTSC on each side; the
 * NT methods end with SFENCE inside the clear).  Samples are taken until
 * the cell has run for a time target (3 ms quick, 40 ms full) and at least
 * 3 samples, as memtest86+ sizes its bandwidth loops by time.  A size
 * whose cells would end the case more than 25 s after it started (hosted:
 * 120 s; ring 0 in a guest, CPUID.1:ECX[31]: 5 s; quick: 30 s), projected
 * from the bandwidth measured at the size below, is left out (an emulator
 * clears at a few MB/s; the largest free region of a big machine takes
 * minutes).  After the last sample every CPU reads its region back once
 * (OR of all words,
 * timed: the read-back cost, reported as readback=MB/s), which also proves
 * every byte zero, and checks both guard pages.
 *
 * Metrics: clear.bandwidth.<method>.<size>.<N>cpu and
 * clear.page_bandwidth.<method>.<size>.<N>cpu in MB/s (10^6 bytes/s);
 * clear.crossover names, per shape and CPU count, the smallest size at
 * which the best NT method beats REP STOSB. */
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
#define MAX_SAMPLES	400
#define BARRIER_MARGIN_NS 20000
/* A size whose cells would end the case later than this after its start
 * (projected from the bandwidth just measured at the size below) is left
 * out, with a note: iterations and sizes are bounded by time, not by
 * count, so a full run stays short on a lab machine and in an emulator. */
#define SIZE_CAP_QUICK_MS	30000	/* only an emulator gets near it */
#define SIZE_CAP_GUEST_MS	5000	/* full runs of ring 0 in a guest */
#define SIZE_CAP_FULL_MS	25000
#define SIZE_CAP_HOSTED_MS	120000	/* hosted full runs are started by hand */
/* Below this, REP STOSB on a cached 4 KiB page means every instruction is
 * being emulated: TCG does 30-300 MB/s on this project's build machine, the
 * nested KVM there ~1 MB/s, and its instruction emulator can do neither
 * SSE (PXOR) nor CLZERO although CPUID offers them: the guest ends with
 * "KVM internal error: emulation failure", which no fault handler can
 * catch.  In a guest that slow only the general-purpose-register methods
 * (REP STOSB/STOSQ, MOV, MOVNTI) are run, and the log says why. */
#define EMULATED_MBPS	10

enum need { NEED_NONE, NEED_SSE2, NEED_AVX, NEED_AVX512, NEED_CLZERO };

static const struct method {
	const char *name;
	void (*fn)(void *p, size_t n);
	unsigned simd;		/* PLAT_SIMD_* */
	enum need need;
	bool nt;
} methods[] = {
	{ "rep_stosb", mem_clear_rep_stosb, 0, NEED_NONE, false },
	{ "rep_stosq", mem_clear_rep_stosq, 0, NEED_NONE, false },
	{ "mov", mem_clear_mov, 0, NEED_NONE, false },
	{ "movnti", mem_clear_movnti, 0, NEED_SSE2, true },
	{ "movntdq", mem_clear_movntdq, PLAT_SIMD_SSE, NEED_SSE2, true },
	{ "vmovntdq_ymm", mem_clear_vmovntdq_ymm, PLAT_SIMD_AVX, NEED_AVX, true },
	{ "vmovntdq_zmm", mem_clear_vmovntdq_zmm, PLAT_SIMD_AVX | PLAT_SIMD_AVX512, NEED_AVX512, true },
	{ "clzero", mem_clear_clzero, 0, NEED_CLZERO, true },
};
#define NMETHODS (sizeof(methods) / sizeof(methods[0]))
#define METHOD_REP_STOSB 0

static bool method_available(const struct plat_mem_info *mi, const struct method *m,
			     const char **why)
{
	switch (m->need) {
	case NEED_SSE2:
		*why = "CPU lacks SSE2 (CPUID.1:EDX[26])";
		return mi->sse2;
	case NEED_AVX:
		*why = t_absent_why(X86_FEATURE_AVX, "AVX", "CPU lacks AVX or its state (CPUID.1:ECX[28], XCR0[2:1])");
		return mi->avx_state;
	case NEED_AVX512:
		*why = t_absent_why(X86_FEATURE_AVX512F, "AVX-512F", "CPU lacks AVX-512F or its state (CPUID.7.0:EBX[16], XCR0[7:5])");
		return mi->avx512f && mi->avx512_state;
	case NEED_CLZERO:
		*why = t_absent_why(X86_FEATURE_CLZERO, "CLZERO", "CPU lacks CLZERO (CPUID.80000008H:EBX[0])");
		return mi->clzero;
	default:
		return true;
	}
}

/* ---- one cell: a method, a size, a shape, a CPU set ---- */
enum phase { PH_PREP, PH_CLEAR, PH_CHECK };

struct cpu_slot {
	uint64_t start, end;
	uint64_t orv;			/* OR of the region after the check */
	bool guard_bad;			/* a guard byte was damaged */
	int64_t guard_off;		/* the first, from the region start */
	bool late;			/* missed the barrier */
	int rc;				/* plat_simd_call result */
	char why[120];
	struct cell *cell;
	unsigned idx;
} __attribute__((aligned(64)));

struct cell {
	const struct method *m;
	bool per_page;
	unsigned n;
	const unsigned *cpus;
	uint8_t *base;
	uint64_t slot, bytes;
	unsigned reps;
	enum phase phase;
	struct tsc_barrier bar;
	struct cpu_slot *cs;
};

static uint8_t *region_of(const struct cell *c, unsigned idx)
{
	return c->base + (uint64_t)idx * c->slot + GUARD;
}

static void slot_body(void *arg)
{
	struct cpu_slot *s = arg;
	struct cell *c = s->cell;
	uint8_t *r = region_of(c, s->idx);
	uint64_t timeout = plat_ns_to_cycles(T_LOST_US * 1000ull);

	switch (c->phase) {
	case PH_PREP:
		memset(r - GUARD, GUARD_BYTE, GUARD);
		memset(r, POISON_BYTE, c->bytes);
		memset(r + c->bytes, GUARD_BYTE, GUARD);
		break;
	case PH_CLEAR:
		s->late = !tsc_barrier_wait(&c->bar, timeout);
		s->start = lfence_rdtsc();
		for (unsigned k = 0; k < c->reps; k++) {
			if (c->per_page)
				for (uint64_t off = 0; off < c->bytes; off += PAGE)
					c->m->fn(r + off, PAGE);
			else
				c->m->fn(r, c->bytes);
		}
		s->end = lfence_rdtsc();
		break;
	case PH_CHECK:
		s->late = !tsc_barrier_wait(&c->bar, timeout);
		s->start = lfence_rdtsc();
		s->orv = mem_or_reduce(r, c->bytes);
		s->end = lfence_rdtsc();
		s->guard_bad = false;
		for (unsigned i = 0; i < GUARD && !s->guard_bad; i++)
			if (r[(int64_t)i - GUARD] != GUARD_BYTE) {
				s->guard_bad = true;
				s->guard_off = (int64_t)i - GUARD;
			}
		for (unsigned i = 0; i < GUARD && !s->guard_bad; i++)
			if (r[c->bytes + i] != GUARD_BYTE) {
				s->guard_bad = true;
				s->guard_off = (int64_t)(c->bytes + i);
			}
		break;
	}
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
	if (c->m->simd && c->phase == PH_CLEAR)
		s->rc = plat_simd_call(c->m->simd, slot_body, s, s->why, sizeof(s->why));
	else
		slot_body(s);
}

static uint64_t call_timeout_ms(const struct cell *c)
{
	/* generous: 10 s plus the bytes at 10 MB/s (an emulator, or a
	 * hosted thread on a host with a load of 17 per core, first-touching
	 * huge pages) */
	return 10000 + (c->bytes * c->reps) / 10000;
}

/* Run one phase on all CPUs of the cell; false (with a failure) if any
 * CPU did not complete it. */
static bool run_phase(struct test_ctx *t, struct cell *c, enum phase ph, const char *what)
{
	int st[c->n];

	c->phase = ph;
	tsc_barrier_init(&c->bar, c->n, plat_ns_to_cycles(BARRIER_MARGIN_NS));
	int rc = plat_call_many(c->cpus, c->n, cell_work, c, call_timeout_ms(c), st);

	for (unsigned i = 0; i < c->n; i++) {
		if (st[i] != PLAT_OK)
			return t_fail(t, "%s: cpu %u: %s", what, c->cpus[i], plat_strerror(st[i]));
		if (c->cs[i].rc != PLAT_OK)
			return t_fail(t, "%s: cpu %u: %s", what, c->cpus[i], c->cs[i].why);
	}
	return rc == PLAT_OK || t_fail(t, "%s: %s", what, plat_strerror(rc));
}

static uint64_t span(const struct cell *c, bool *late)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	*late = false;
	for (unsigned i = 0; i < c->n; i++) {
		if (c->cs[i].start < lo)
			lo = c->cs[i].start;
		if (c->cs[i].end > hi)
			hi = c->cs[i].end;
		*late |= c->cs[i].late;
	}
	return hi > lo ? hi - lo : 0;
}

/* medians for the crossover diagnostic: [shape][all cpus?][method][size] */
static uint64_t med[2][2][NMETHODS][CLEAR_MAX_SIZES];
static char size_names[CLEAR_MAX_SIZES][CLEAR_LABEL_MAX];
static unsigned nsizes_seen[2];	/* per shape */
static bool shape_done[2];

struct run {
	struct test_ctx *t;
	struct plat_mem_info mi;
	bool per_page;
	uint64_t *samples;
	uint64_t target_cycles;
	bool emulated;		/* see EMULATED_MBPS */
};

/* Measure one method in a prepared cell; returns false if the case
 * should stop (a failure that makes further cells pointless). */
static bool measure(struct run *ru, struct cell *c, const char *size_name, uint64_t *median)
{
	struct test_ctx *t = ru->t;
	char what[64], ctx[96];
	size_t k = 0;
	unsigned late = 0;

	rl_snprintf(ctx, sizeof(ctx), "%s %s %ucpu %s", c->m->name, size_name, c->n,
		    c->per_page ? "per-page" : "whole");
	if (!run_phase(t, c, PH_PREP, ctx))
		return false;
	uint64_t t0 = lfence_rdtsc();

	while (k < MAX_SAMPLES && !t_expired(t)) {
		if (!run_phase(t, c, PH_CLEAR, ctx))
			return false;
		bool l;
		uint64_t cyc = span(c, &l);

		late += l;
		ru->samples[k++] = mbps(c->bytes * c->reps * c->n, cyc, plat_tsc_hz());
		if (k >= MIN_SAMPLES && lfence_rdtsc() - t0 >= ru->target_cycles)
			break;
	}
	if (!run_phase(t, c, PH_CHECK, ctx))
		return false;
	bool l;
	uint64_t rb = mbps(c->bytes * c->n, span(c, &l), plat_tsc_hz());

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
	t_metric_dist(t, what, ru->samples, k, "MB/s",
		      "method=%s shape=%s bytes=%llu cpus=%u reps=%u readback=%llu readback_unit=MB/s late=%u%s",
		      c->m->name, c->per_page ? "4KiB-per-call" : "whole-range",
		      (unsigned long long)c->bytes, c->n, c->reps, (unsigned long long)rb, late,
		      k < MIN_SAMPLES ? " truncated=budget" : "");
	/* t_metric_dist sorted the samples */
	*median = k ? ru->samples[(k - 1) / 2] : 0;
	return true;
}

/* How long the cells of the next size would take (ms), from the medians
 * of the size below: per method, MIN_SAMPLES clears plus the pattern fill
 * and the read-back, on one CPU and on all. */
static uint64_t projected_ms(const struct plat_mem_info *mi, uint64_t m[2][NMETHODS][CLEAR_MAX_SIZES],
			     unsigned prev, uint64_t next_bytes, unsigned ncpu, uint64_t avail)
{
	uint64_t ms = 0;
	const char *why;

	if (!next_bytes)	/* "largest": as much as fits */
		next_bytes = avail / (ncpu ? ncpu : 1);
	for (unsigned all = 0; all < 2; all++)
		for (unsigned i = 0; i < NMETHODS; i++) {
			uint64_t bw = m[all][i][prev];	/* MB/s, aggregate */
			uint64_t reps = next_bytes >= REPS_BYTES ? 1 : REPS_BYTES / next_bytes;
			uint64_t bytes = next_bytes * (all ? ncpu : 1) * (MIN_SAMPLES * reps + 2);

			if (!method_available(mi, &methods[i], &why) || (all && ncpu == 1))
				continue;
			if (!bw)
				bw = 1;
			ms += bytes / (bw * 1000);
		}
	return ms;
}

static void run_shape(struct test_ctx *t, bool per_page)
{
	struct run ru = { .t = t, .per_page = per_page };
	struct clear_size sizes[CLEAR_MAX_SIZES];
	unsigned cpus[plat_ncpus()], ncpu = 1;
	const char *why;

	plat_mem_info(&ru.mi);
	cpus[0] = 0;
	ncpu += plat_other_cpus(cpus + 1, plat_ncpus() - 1);
	unsigned nsz = clear_sizes(ru.mi.llc_bytes, t->quick, ru.mi.ring0, sizes, CLEAR_MAX_SIZES);

	ru.samples = plat_alloc(MAX_SAMPLES * sizeof(uint64_t));
	struct cpu_slot *cs = plat_alloc(ncpu * sizeof(struct cpu_slot));

	if (!ru.samples || !cs) {
		t_fail(t, "no memory for bookkeeping");
		return;
	}
	ru.target_cycles = plat_ns_to_cycles(t->quick ? 3000000ull : 40000000ull);
	uint64_t case_start = lfence_rdtsc();
	t_diag(t, "LLC %llu KiB (L%u, %s); ERMS %s; %u CPU(s); sizes per CPU:",
	       (unsigned long long)(ru.mi.llc_bytes >> 10), ru.mi.llc_level, ru.mi.llc_source,
	       ru.mi.erms ? "yes" : "no", ncpu);
	for (unsigned m = 0; m < NMETHODS; m++)
		if (!method_available(&ru.mi, &methods[m], &why))
			t_diag(t, "method %s not measured: %s", methods[m].name, why);
	memset(med[per_page], 0, sizeof(med[per_page]));
	nsizes_seen[per_page] = nsz;
	for (unsigned si = 0; si < nsz; si++) {
		str_copy(size_names[si], sizes[si].label, sizeof(size_names[si]));
		if (si > 0) {
			uint64_t ms = projected_ms(&ru.mi, med[per_page], si - 1, sizes[si].bytes,
						   ncpu, plat_big_avail());
			/* a ring-0 guest may be an emulator 100-1000x slower
			 * (CI boots full runs under QEMU TCG) */
			uint64_t cap = t->quick ? SIZE_CAP_QUICK_MS :
				       ru.mi.ring0 && ru.mi.hypervisor ? SIZE_CAP_GUEST_MS :
				       ru.mi.ring0 ? SIZE_CAP_FULL_MS : SIZE_CAP_HOSTED_MS;
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
			char how[160] = "";
			uint8_t *base = plat_alloc_big(slot * n, how, sizeof(how));

			if (!base) {
				t_diag(t, "%s x %u CPU(s) not measured: allocation of %llu MiB failed",
				       sizes[si].label, n, (unsigned long long)((slot * n) >> 20));
				continue;
			}
			if (!all)
				t_diag(t, "%s = %llu bytes%s; memory: %s", sizes[si].label,
				       (unsigned long long)bytes,
				       sizes[si].llc_double ? " (2 x LLC)" : "", how);
			for (unsigned m = 0; m < NMETHODS; m++) {
				if (!method_available(&ru.mi, &methods[m], &why))
					continue;
				if (ru.emulated && (methods[m].simd || methods[m].need == NEED_CLZERO))
					continue;
				struct cell c = {
					.m = &methods[m], .per_page = per_page, .n = n, .cpus = cpus,
					.base = base, .slot = slot, .bytes = bytes,
					.reps = bytes >= REPS_BYTES ? 1 : (unsigned)(REPS_BYTES / bytes),
					.cs = cs,
				};

				for (unsigned i = 0; i < n; i++)
					cs[i] = (struct cpu_slot){ .cell = &c, .idx = i };
				if (!measure(&ru, &c, sizes[si].label, &med[per_page][all][m][si])) {
					plat_free_big(base);
					return;
				}
				if (m == METHOD_REP_STOSB && si == 0 && !all && ru.mi.hypervisor &&
				    med[per_page][all][m][si] < EMULATED_MBPS) {
					ru.emulated = true;
					t_diag(t, "SIMD and CLZERO methods not measured: REP STOSB cleared a cached 4KiB page at %llu MB/s in a guest (CPUID.1:ECX[31]): an emulating hypervisor, whose emulator may not do them and would end the guest",
					       (unsigned long long)med[per_page][all][m][si]);
				}
				if (t_expired(t)) {
					t_diag(t, "budget used up after %s %s; the rest not measured",
					       methods[m].name, sizes[si].label);
					plat_free_big(base);
					return;
				}
			}
			plat_free_big(base);
		}
	}
	shape_done[per_page] = true;
}

TEST_EX(clear, bandwidth, 0, 300000)
{
	run_shape(t, false);
}

TEST_EX(clear, page_bandwidth, 0, 300000)
{
	run_shape(t, true);
}

/* The checks above must be able to fail: clear one line short, and one
 * byte long, and see the zero check and the guard check catch each. */
TEST(clear, controls)
{
	const unsigned cpus[1] = { 0 };
	struct cpu_slot cs[1];
	static const struct method short_m = { "short", NULL, 0, NEED_NONE, false };
	uint8_t *base = plat_alloc(2 * SLOT_ALIGN);

	if (!base) {
		t_fail(t, "no memory");
		return;
	}
	struct cell c = { .m = &short_m, .n = 1, .cpus = cpus, .base = base, .slot = SLOT_ALIGN,
			  .bytes = 4 * PAGE, .reps = 1, .cs = cs };

	cs[0] = (struct cpu_slot){ .cell = &c, .idx = 0 };
	uint8_t *r = region_of(&c, 0);

	/* short by one line */
	c.phase = PH_PREP;
	cell_work(&c);
	mem_clear_rep_stosb(r, c.bytes - 64);
	tsc_barrier_init(&c.bar, 1, 0);
	c.phase = PH_CHECK;
	cell_work(&c);
	t_check(t, cs[0].orv != 0, "a clear one line short was not detected by the zero check");
	t_check(t, !cs[0].guard_bad, "a short clear damaged a guard (offset %lld)",
		(long long)cs[0].guard_off);
	/* one byte over the end */
	c.phase = PH_PREP;
	cell_work(&c);
	mem_clear_rep_stosb(r, c.bytes + 1);
	tsc_barrier_init(&c.bar, 1, 0);
	c.phase = PH_CHECK;
	cell_work(&c);
	t_check(t, cs[0].orv == 0, "the overrunning clear left the region non-zero");
	t_check(t, cs[0].guard_bad && cs[0].guard_off == (int64_t)c.bytes,
		"a one-byte overrun was not detected by the guard check (damaged %d at %lld)",
		cs[0].guard_bad, (long long)cs[0].guard_off);
	t_diag(t, "negative controls: short clear -> zero check fired; 1-byte overrun -> guard check fired at +%lld",
	       (long long)cs[0].guard_off);
}

static void crossover_for(struct test_ctx *t, unsigned shape, unsigned all)
{
	uint64_t best_nt[CLEAR_MAX_SIZES], stosb[CLEAR_MAX_SIZES];
	unsigned best_m[CLEAR_MAX_SIZES];
	bool any = false;

	unsigned nsz = nsizes_seen[shape];

	for (unsigned s = 0; s < nsz; s++) {
		best_nt[s] = 0;
		best_m[s] = 0;
		stosb[s] = med[shape][all][METHOD_REP_STOSB][s];
		for (unsigned m = 0; m < NMETHODS; m++)
			if (methods[m].nt && med[shape][all][m][s] > best_nt[s]) {
				best_nt[s] = med[shape][all][m][s];
				best_m[s] = m;
			}
		any |= stosb[s] != 0;
	}
	if (!any)
		return;
	int x = clear_crossover(best_nt, stosb, nsz);
	const char *shape_name = shape ? "per-page" : "whole-range";

	if (x < 0)
		t_conclude(t, "crossover %s %s: REP STOSB is never beaten by an NT method at the sizes measured (up to %s)",
		       shape_name, all ? "all CPUs" : "1 CPU", size_names[nsz - 1]);
	else
		t_conclude(t, "crossover %s %s: the best NT method beats REP STOSB from %s on (%s %llu MB/s vs REP STOSB %llu MB/s)",
		       shape_name, all ? "all CPUs" : "1 CPU", size_names[x], methods[best_m[x]].name,
		       (unsigned long long)best_nt[x], (unsigned long long)stosb[x]);
}

TEST(clear, crossover)
{
	if (!shape_done[0] && !shape_done[1]) {
		t_skip(t, "needs clear.bandwidth or clear.page_bandwidth earlier in the run");
		return;
	}
	for (unsigned shape = 0; shape < 2; shape++)
		if (shape_done[shape])
			for (unsigned all = 0; all < 2; all++)
				crossover_for(t, shape, all);
}
