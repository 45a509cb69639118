/* SPDX-License-Identifier: GPL-2.0-only */
/* clear: the sizes and cells of one shape, the size cap and the quick
 * budget; cases bandwidth, page_bandwidth, batch_bandwidth
 * (suites/clear/clear.h). */
#include "suites/clear/clear.h"
#include "lib/printf.h"
#include "lib/string.h"

/* A size projected to end the case later than this after its start: left out */
#define SIZE_CAP_QUICK_MS	30000	/* only an emulator gets near it */
#define SIZE_CAP_FULL_MS	25000	/* ring 0 under an emulator: t_guest_cap_ms() */
#define SIZE_CAP_HOSTED_MS	120000	/* hosted full runs are started by hand */

/* How long the cells of the next size would take (ms), from the medians
 * of the size below: per method, MIN_SAMPLES clears (quick_pair: quick's
 * one) plus fill and read-back, on one CPU and on all.  In quick a rate
 * counts as at least 1/PROJECT_SPREAD of the fastest method's: one sample
 * taken while the vCPU was descheduled (TCG: 1 MB/s beside 10 GB/s) must
 * not leave the next size out and make metric names depend on timing. */
#define PROJECT_SPREAD	64

static uint64_t projected_ms(const bool *have, enum shape sh,
			     struct cstat m[2][NMETHODS][CLEAR_MAX_SIZES], unsigned prev,
			     uint64_t next_bytes, unsigned ncpu, uint64_t avail, bool quick_pair)
{
	uint64_t ms = 0, fastest = 0;

	if (!next_bytes)	/* "largest": as much as fits */
		next_bytes = avail / (ncpu ? ncpu : 1);
	for (unsigned i = 0; i < NMETHODS; i++)
		if (have[i] && method_in_shape(&methods[i], sh) && m[0][i][prev].med > fastest)
			fastest = m[0][i][prev].med;
	for (unsigned all = 0; all < 2; all++)
		for (unsigned i = 0; i < NMETHODS; i++) {
			uint64_t bw = m[all][i][prev].med;	/* MB/s, aggregate */
			uint64_t reps = next_bytes >= REPS_BYTES ? 1 : REPS_BYTES / next_bytes;
			uint64_t bytes = next_bytes * (all ? ncpu : 1) *
					 ((quick_pair ? MIN_SAMPLES_QUICK : MIN_SAMPLES) * reps + 2);

			if (!have[i] || (all && ncpu == 1) || !method_in_shape(&methods[i], sh))
				continue;
			/* quick_pair: no all-CPU cell below the largest size
			 * (quick_all_cpu_cell): projected at the method's
			 * 1-CPU rate, else REP STOSB's */
			if (!bw && all && quick_pair)
				bw = m[0][i][prev].med ? m[0][i][prev].med : m[0][METHOD_REP_STOSB][prev].med;
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

/* Linux's current clear_pages() shape: the pages of a contiguous extent
 * (a huge page, a large folio) cleared by one call over the whole extent
 * -- one REP STOSB over many pages, the string instruction's start-up
 * paid once and its fast-string path free to pick its stores -- where
 * clear_page() was called once per 4 KiB page.  Its caller bounds an
 * extent so that it can reschedule between extents; EXTENT_BYTES stands
 * for that bound.  Measured beside per page (page_bandwidth) and per
 * batch (batch_bandwidth), 1 CPU, as rep_stosb_extent. */
struct cstat extent_cst[CLEAR_MAX_SIZES];

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
		t_diag(t, "batch_sfence: per-4KiB calls without SFENCE, one SFENCE per %u KiB batch (or per region when smaller); rep_stosq and mov have nothing to batch (see page_bandwidth); rep_stosb_extent: Linux's clear_pages() shape, one REP STOSB call per extent of up to %u KiB",
		       BATCH_BYTES >> 10, EXTENT_BYTES >> 10);
	memset(cst[per_page], 0, sizeof(cst[per_page]));
	if (per_page == SH_BATCH)
		memset(extent_cst, 0, sizeof(extent_cst));
	llc_seen = ru.mi.llc_bytes;
	nsizes_seen[per_page] = nsz;
	bool quick_said = false, quick_said_1cpu = false;
	for (unsigned si = 0; si < nsz; si++) {
		str_copy(size_names[si], sizes[si].label, sizeof(size_names[si]));
		size_bytes_seen[si] = sizes[si].bytes;
		if (si > 0) {
			/* at every CPU's full share even where allcpu_bound()
			 * cuts it: which sizes run does not depend on the bound */
			uint64_t ms = projected_ms(ru.avail, per_page, cst[per_page], si - 1, sizes[si].bytes,
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
				/* batch_bandwidth, 1 CPU: REP STOSB in Linux's
				 * clear_pages() shape too (ext 1, below) */
				unsigned next = per_page == SH_BATCH && !all && m == METHOD_REP_STOSB ? 2 : 1;

				for (unsigned ext = 0; ext < next; ext++) {
					struct cell c = {
						.m = &methods[m], .shape = per_page, .n = n, .cpus = cpus,
						.base = base, .slot = slot, .bytes = bytes, .extent = ext,
						.reps = bytes >= REPS_BYTES ? 1 : (unsigned)(REPS_BYTES / bytes),
						.rep_cap = t_budgeted(t) ? ru.target_cycles : 0, .cs = cs,
					};
					/* cold and hot, whole range, 1 CPU, the
					 * crossover pair: every size, quick the largest */
					bool cold = per_page == SH_WHOLE && !all &&
						    (m == METHOD_MOVNTI || m == METHOD_REP_STOSB) &&
						    (!t_budgeted(t) || si + 1 == nsz);

					allcpu_bound(&ru, &c, sizes[si].label);
					for (unsigned i = 0; i < n; i++)
						cs[i] = (struct cpu_slot){ .cell = &c, .idx = i };
					if (!measure(&ru, &c, sizes[si].label, ext ? "rep_stosb_extent" : NULL,
						     ext ? &extent_cst[si] : &cst[per_page][all][m][si],
						     cst[per_page][0][m][si].med, cold)) {
						plat_free_big(base);
						goto out;
					}
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

TEST(clear, bandwidth, .order = 10, .budget_ms = 300000)
{
	run_shape(t, SH_WHOLE);
}

/* perpage_sfence: one SFENCE per 4 KiB page (each NT call ends with it) */
TEST(clear, page_bandwidth, .order = 20, .budget_ms = 300000)
{
	run_shape(t, SH_PERPAGE);
}

/* batch_sfence: per-page calls, one SFENCE per 2 MiB batch */
TEST(clear, batch_bandwidth, .order = 30, .budget_ms = 300000)
{
	run_shape(t, SH_BATCH);
}
