/* SPDX-License-Identifier: GPL-2.0-only */
/* tlb: remote shootdown.  CPU 0 changes PTEs that other CPUs have cached
 * and makes them drop the entries, as Linux's flush_tlb_multi() does: an
 * IPI to every remote (INVLPG per page up to Linux's ceiling, a full flush
 * above it), a local flush, then waiting for every acknowledgement.  Every
 * CPU must read the new frame afterwards; the same rounds with no flush
 * are the remote stale-entry control.  The cost grid (pages x CPUs) is
 * what invlpgb.c compares INVLPGB+TLBSYNC against. */
#include "suites/tlb/tlb.h"
#include "kernel/test.h"
#include "kernel/platform.h"
#include "arch/x86/apic.h"
#include "arch/x86/cpu.h"
#include "arch/x86/paging.h"
#include "arch/x86/pgtable_test.h"
#include "arch/x86/tlbflush.h"
#include "arch/x86/traps.h"
#include "lib/printf.h"
#include "lib/string.h"

static struct sd *sd;		/* the shootdown in progress, if any */

/* How long a shootdown server spins before it halts (in quick under an
 * emulator with many CPUs its share, sd_start()); the time cap of one grid
 * point (at least SD_MIN_ROUNDS rounds), which only emulators reach. */
#define SD_SPIN_US	100u
#define SD_POINT_MS	300u
/* quick: empty timing brackets sd_setup() measures for the overhead (a
 * full run takes T_OVERHEAD_MAX_N).  Each costs two RDTSC exits under a
 * hypervisor that emulates RDTSC: 1024 of them are ~0.1 s there, while
 * the overhead they find is small beside a shootdown round. */
#define SD_OVH_N_QUICK	64u

/* CPU 0 commands the remote CPUs through one shared block; each remote runs
 * sd_server() (a posted work item, interrupts on) and the shootdown IPI's
 * handler sd_irq().  Window pages are va0 + i * step, i < npages.  The
 * commands (enum sd_cmd) and a remote's side of the block (struct sd_cpu)
 * are in tlb.h. */

const unsigned sd_pages[SD_NPAGES] = { 1, 2, 8, 32, 64, 512 };
uint64_t sd_ipi_p50[16][SD_NPAGES];
uint64_t sd_ib_p50[16][SD_NPAGES];
unsigned sd_counts[16], sd_ncounts;

static void sd_irq(struct regs *r)
{
	struct sd *s = sd;

	(void)r;
	if (!s)
		return;
	if (s->full)
		native_flush_tlb_local();
	else
		for (unsigned i = 0; i < s->npages; i++)
			__invlpg(s->va0 + i * s->step);
	__atomic_store_n(&s->cpu[plat_this_cpu()].ack, s->flush_seq, __ATOMIC_RELEASE);
}

static void sd_wake_irq(struct regs *r)
{
	(void)r;	/* ends the server's HLT; nothing else */
}

static void sd_read_all(struct sd *s, struct sd_cpu *me, int cmd)
{
	for (unsigned i = 0; i < s->npages; i++) {
		uint64_t v = peek(s->va0 + i * s->step);

		if (cmd == SD_CONTROL) {
			me->control_reads++;
			if (v == s->old)
				me->control_stale++;
			else if (v != s->want)
				me->verify_bad++, me->bad_value = v;
			continue;
		}
		if (cmd == SD_VERIFY)
			me->verify_reads++;
		if (v != s->want) {
			if (cmd == SD_TOUCH)
				me->touch_bad++;
			else if (v == s->old)
				me->verify_old++;
			else
				me->verify_bad++;
			me->bad_value = v;
		}
	}
}

/* A server's wait for CPU 0's next command, one step: true once a command
 * newer than `seen` is posted.  Before halt_from it spins (so a shootdown
 * right after a command finds this CPU running, as Linux's targets are),
 * then it halts until the next interrupt -- the command's wake-up IPI, or
 * a shootdown IPI -- so that emulators get their host CPU back. */
static bool sd_next_cmd(struct sd *s, uint64_t seen, uint64_t halt_from)
{
	if (__atomic_load_n(&s->cmd_seq, __ATOMIC_ACQUIRE) != seen)
		return true;
	if (rdtsc_ordered() < halt_from)
		return false;
	cli();
	if (__atomic_load_n(&s->cmd_seq, __ATOMIC_ACQUIRE) == seen)
		safe_halt();	/* STI;HLT: a pending wake-up ends it */
	else
		sti();
	return __atomic_load_n(&s->cmd_seq, __ATOMIC_ACQUIRE) != seen;
}

static void sd_server(void *arg)
{
	struct sd *s = arg;
	struct sd_cpu *me = &s->cpu[plat_this_cpu()];
	uint64_t seen = me->done;

	for (;;) {
		uint64_t halt_from = rdtsc_ordered() + s->spin_cycles;

		if (!plat_spin_until(sd_next_cmd(s, seen, halt_from), T_LOST_US))
			return;		/* CPU 0 went away: stop serving */
		seen = __atomic_load_n(&s->cmd_seq, __ATOMIC_ACQUIRE);
		int cmd = s->cmd;

		if (cmd == SD_VICTIM) {
			unsigned phase = s->victim_phase;

			/* done at once: the loop runs until the next command */
			__atomic_store_n(&me->done, seen, __ATOMIC_RELEASE);
			sd_victim_loop(s, me, seen, phase);
			continue;
		}
		if (cmd == SD_INITIATE)
			sd_initiate(s, me);
		else if (cmd == SD_TOUCH || cmd == SD_VERIFY || cmd == SD_CONTROL)
			sd_read_all(s, me, cmd);
		__atomic_store_n(&me->done, seen, __ATOMIC_RELEASE);
		if (cmd == SD_EXIT)
			return;
	}
}

/* Whether every remote taking part has reached q in its ack counter (ack)
 * or its done counter; *i is the first that has not: each is read until
 * it arrives, in order, as one wait for the last of them. */
static bool sd_all_reached(const struct sd *s, bool ack, uint64_t q, unsigned *i)
{
	for (; *i < s->nremote; (*i)++) {
		const struct sd_cpu *c = &s->cpu[s->remote[*i]];

		if (__atomic_load_n(ack ? &c->ack : &c->done, __ATOMIC_ACQUIRE) != q)
			return false;
	}
	return true;
}

/* Issue a command to the remotes taking part (sd_post) and wait for all
 * (sd_wait). */
uint64_t sd_post(struct sd *s, int cmd)
{
	s->cmd = cmd;
	uint64_t q = s->cmd_seq + 1;

	__atomic_store_n(&s->cmd_seq, q, __ATOMIC_RELEASE);
	__asm__ volatile("mfence; lfence" ::: "memory");	/* as in sd_ipi_flush */
	for (unsigned r = 0; r < s->nremote; r++)
		apic_send(plat_cpu_apic_id(s->remote[r]), APIC_DM_FIXED | s->wake_vec);
	return q;
}

bool sd_wait(struct test_ctx *t, struct sd *s, uint64_t q, int cmd)
{
	unsigned i = 0;

	if (!plat_spin_until(sd_all_reached(s, false, q, &i), T_LOST_US))
		return t_fail(t, "cpu %u did not answer command %d within %u ms", s->remote[i], cmd,
			      (unsigned)(T_LOST_US / 1000));
	return true;
}

bool sd_command(struct test_ctx *t, struct sd *s, int cmd)
{
	return sd_wait(t, s, sd_post(s, cmd), cmd);
}

/* Quick in ring 0 under an emulator, whose few host threads run every
 * vCPU: a server spinning SD_SPIN_US after each command holds a host
 * thread that the other servers and CPU 0 wait for, so at many CPUs each
 * command costs the sum of their spins.  There the spins of a series add
 * up to T_QUICK_ALLCPU_CPUS CPUs' worth, each server its share
 * (t_allcpu_share()), at least 1 us: a target the IPI finds halted
 * rather than running, which under an emulator changes no conclusion. */
static void sd_spin_share(struct test_ctx *t, struct sd *s, unsigned ncpus)
{
	uint64_t us = t_allcpu_share(t, SD_SPIN_US, ncpus, 1);

	s->spin_cycles = plat_us_to_cycles(us);
	if (us == SD_SPIN_US || s->spin_said)
		return;
	s->spin_said = true;
	t_diag(t, "budget: shootdown targets at %u CPUs spin %llu us, not %u us, before they halt (%u CPUs' worth in all, each its share): quick in ring 0 under an emulator, whose host threads run every vCPU",
	       ncpus, (unsigned long long)us, SD_SPIN_US, T_QUICK_ALLCPU_CPUS);
}

bool sd_start(struct test_ctx *t, struct env *e, struct sd *s, unsigned nremote)
{
	sd_spin_share(t, s, nremote + 1);
	s->nremote = nremote;
	s->cpu[plat_this_cpu()].slot = 0;
	for (unsigned i = 0; i < nremote; i++) {
		s->cpu[s->remote[i]].done = s->cmd_seq;
		s->cpu[s->remote[i]].slot = i + 1;
		e->remotes_used = true;
		int rc = plat_post(s->remote[i], sd_server, s);

		if (rc) {
			s->nremote = i;
			return t_fail(t, "cpu %u: %s", s->remote[i], plat_strerror(rc));
		}
	}
	return true;
}

void sd_stop(struct test_ctx *t, struct sd *s)
{
	sd_command(t, s, SD_EXIT);
	for (unsigned i = 0; i < s->nremote; i++) {
		int rc = plat_wait(s->remote[i], T_LOST_US / 1000);

		t_check(t, rc == PLAT_OK, "cpu %u: %s", s->remote[i], plat_strerror(rc));
	}
	/* sd_check_remotes() reads what these CPUs counted */
	s->nlast = s->nremote;
	s->nremote = 0;
}

/* The case's deferred action from sd_setup(): a series a fault or the
 * watchdog cut short is stopped (its servers told to exit) before
 * env_restore() runs, and the shootdown IPI's handler forgets it. */
static void sd_stop_deferred(struct test_ctx *t, void *arg)
{
	sd_stop(t, arg);
	sd = NULL;
}

void sd_map(struct env *e, struct sd *s, unsigned n, int k, bool global)
{
	for (unsigned i = 0; i < n; i++) {
		if (s->large)
			pt_win_map_2m(&e->w, PT_WIN_2M_FIRST + i, e->frame2m[k], global);
		else
			pt_win_map_4k(&e->w, i, e->frame[k], global);
	}
}


/* Linux's flush_tlb_multi() shape: IPI every remote, flush locally, then
 * wait for every acknowledgement. */
bool sd_ipi_flush(struct test_ctx *t, struct sd *s, unsigned n, bool full)
{
	uint64_t q = s->flush_seq + 1;

	s->full = full;
	__atomic_store_n(&s->flush_seq, q, __ATOMIC_RELEASE);
	/* The PTE and request stores must be visible before the IPI: an
	 * x2APIC ICR WRMSR is not serializing (SDM vol. 3 §11.12.3), so fence
	 * as Linux's weak_wrmsr_fence() does (see the wrmsr_order suite). */
	__asm__ volatile("mfence; lfence" ::: "memory");
	for (unsigned i = 0; i < s->nremote; i++)
		if (!apic_send(plat_cpu_apic_id(s->remote[i]), APIC_DM_FIXED | s->vec))
			t_fail(t, "IPI to cpu %u not sent (ICR busy)", s->remote[i]);
	if (full)
		native_flush_tlb_local();
	else
		for (unsigned i = 0; i < n; i++)
			__invlpg(s->va0 + i * s->step);
	unsigned i = 0;

	if (!plat_spin_until(sd_all_reached(s, true, q, &i), T_LOST_US))
		return t_fail(t, "cpu %u never acknowledged the shootdown IPI", s->remote[i]);
	return true;
}

/* Before a series: map the n pages to the current frame and make every
 * participating CPU drop whatever it cached of the window (an earlier
 * series may have left pages on the other frame). */
bool sd_resync(struct test_ctx *t, struct env *e, struct sd *s, unsigned n)
{
	sd_map(e, s, n, s->cur, s->global);
	native_flush_tlb_global();
	return sd_ipi_flush(t, s, 0, true);
}

/* One measured round: remotes (and CPU 0) read the n pages, CPU 0 remaps
 * them to the other frame and flushes by method m; returns the cycles from
 * the first PTE write to the last acknowledgement (0 on a lost ack), then
 * checks every CPU reads the new frame. */
uint64_t sd_round(struct test_ctx *t, struct env *e, struct sd *s, unsigned n,
		  enum sd_method m, bool *ok)
{
	int k = s->cur, o = k ^ 1;
	bool full = m == SD_IPI_FULL;

	s->npages = n;
	s->want = tlb_magic[k];
	s->old = tlb_magic[k];
	if (!sd_command(t, s, SD_TOUCH))
		return *ok = false, 0;
	for (unsigned i = 0; i < n; i++)
		(void)peek(s->va0 + i * s->step);
	s->full = full;
	s->want = tlb_magic[o];
	s->old = tlb_magic[k];

	uint64_t t0 = lfence_rdtsc();

	sd_map(e, s, n, o, s->global);
	if (m == SD_IPI_INVLPG || m == SD_IPI_FULL) {
		if (!sd_ipi_flush(t, s, n, full))
			return *ok = false, 0;
	} else if (m == SD_INVLPGB) {
		invlpgb_flush_range(s, s->va0, n, s->large, s->invlpgb_flags, s->pcid);
	} else if (m == SD_INVLPGB_WRONG_PCID) {
		invlpgb_flush_range(s, s->va0, n, s->large, s->invlpgb_flags | INVLPGB_FLAG_PCID,
				    (s->pcid + 1) & X86_CR3_PCID_MASK);
	}
	uint64_t t1 = lfence_rdtsc();

	s->cur = o;
	if (m == SD_NOFLUSH || m == SD_INVLPGB_WRONG_PCID) {
		/* The remote negative controls: read with no flush at all, or
		 * after one that names another PCID; then a real one. */
		if (!sd_command(t, s, SD_CONTROL) || !sd_ipi_flush(t, s, n, false))
			return *ok = false, 0;
	}
	if (!sd_command(t, s, SD_VERIFY))
		return *ok = false, 0;
	for (unsigned i = 0; i < n; i++) {
		uint64_t v = peek(s->va0 + i * s->step);

		if (v != s->want) {
			t_fail(t, "cpu 0 reads 0x%llx at page %u after the flush", (unsigned long long)v, i);
			return *ok = false, 0;
		}
	}
	return t1 - t0;
}

/* After sd_stop(): every remote CPU of that series must have read the
 * frame each command expected; their reads after a flush are summed for
 * the answers' claims. */
bool sd_check_remotes(struct test_ctx *t, struct sd *s, const char *what)
{
	bool good = true;

	for (unsigned i = 0; i < s->nlast; i++) {
		struct sd_cpu *c = &s->cpu[s->remote[i]];

		s->reads_after += c->verify_reads;
		s->old_after += c->verify_old;
		c->verify_reads = 0;
		if (c->touch_bad || c->verify_old || c->verify_bad) {
			good = t_fail(t, "%s: cpu %u read the wrong frame: %u on touch, %u old and %u other after the flush (last 0x%llx)",
				      what, s->remote[i], c->touch_bad, c->verify_old, c->verify_bad,
				      (unsigned long long)c->bad_value);
			c->touch_bad = c->verify_old = c->verify_bad = 0;
		}
	}
	return good;
}


/* The same emulator, at many CPUs: each grid point there waits for every
 * CPU it takes part in to get a host thread, several times, so the
 * points between T_QUICK_ALLCPU_CPUS CPUs and all of them (8, 16, ... 256
 * at -smp 288) cost as much again as the all-CPU ones; the summary and
 * the answers use 2 and all. */
bool sd_allcpu_skip(struct test_ctx *t, struct sd *s, unsigned ncpu, unsigned total)
{
	unsigned last = ncpu;

	if (ncpu <= T_QUICK_ALLCPU_CPUS || ncpu == total || !t_allcpu_bounded(t, total))
		return false;
	if (!s->counts_said) {
		while (last * 2 < total)	/* sd_cpu_counts()'s last below total */
			last *= 2;
		t_diag(t, "budget: grid only at up to %u CPUs and at all %u, not at %u to %u: quick in ring 0 under an emulator, whose host threads run every vCPU",
		       T_QUICK_ALLCPU_CPUS, total, ncpu, last);
	}
	s->counts_said = true;
	return true;
}

/* CPU counts: 1, 2, 4, ... and all online (capped at 257, see struct sd). */
unsigned sd_cpu_counts(unsigned total, unsigned *out)
{
	unsigned n = 0;

	for (unsigned c = 1; c < total; c *= 2)
		out[n++] = c;
	out[n++] = total;
	return n;
}

struct sd *sd_setup(struct test_ctx *t, struct env *e, unsigned *total)
{
	struct sd *s = t_alloc(t, sizeof(*s));
	size_t nrounds = (size_t)t_iters(t, 200, 8);

	s->cpu = t_alloc(t, plat_ncpus() * sizeof(struct sd_cpu));
	s->samples = t_alloc(t, nrounds * sizeof(uint64_t));
	s->nrounds = nrounds;
	/* sd_round()'s LFENCE;RDTSC pair alone, removed from every sample */
	t_overhead_measure(&s->ovh, T_BRACKET_LFENCE,
			   t_budgeted(t) ? SD_OVH_N_QUICK : T_OVERHEAD_MAX_N);
	t_overhead_text(&s->ovh, s->ovh_text, sizeof(s->ovh_text));
	s->vec = irq_alloc_vector(sd_irq);
	s->wake_vec = irq_alloc_vector(sd_wake_irq);
	if (!s->vec || !s->wake_vec) {
		t_fail(t, "no free interrupt vector");
		return NULL;
	}
	unsigned n = plat_other_cpus(s->remote, 256);

	*total = n + 1;
	s->va0 = pt_win_va_4k(0);
	s->step = 4096;
	s->invlpgb_max = plat_cpu_has(X86_FEATURE_INVLPGB) ? plat_cpu_info()->invlpgb_max_pages : 0;
	s->invlpgb_flags = INVLPGB_FLAG_VA;
	sd_map(e, s, PT_WIN_4K_PAGES, 0, false);
	s->cur = 0;
	sd = s;
	/* registered after env_setup()'s restore, so it runs before it */
	if (!t_defer(t, sd_stop_deferred, s))
		return NULL;
	/* No CPU may keep paging-structure entries from an earlier window. */
	e->remotes_used = true;
	plat_call_many(s->remote, n, flush_local_cr3, NULL, T_LOST_US / 1000, NULL);
	return s;
}

/* True while a series may run another round: below nrounds, the case's
 * budget not spent, under the point's time cap once it has at least
 * SD_MIN_ROUNDS samples, and in quick, once the case's sample budget is
 * used, below min_quick rounds.  *capped gets SD_CAP_* when a cap ended
 * it. */
bool sd_more(struct test_ctx *t, size_t r, size_t nrounds, size_t min_quick, uint64_t t0,
	     unsigned *capped)
{
	if (r >= nrounds || t_expired(t))
		return false;
	if (r >= SD_MIN_ROUNDS && rdtsc_ordered() - t0 > plat_ms_to_cycles(SD_POINT_MS)) {
		*capped |= SD_CAP_TIME;
		return false;
	}
	if (r >= min_quick && t_quick_spent(t)) {
		*capped |= SD_CAP_QUICK;
		return false;
	}
	return true;
}

/* One more series of r rounds ran; capped: sd_more()'s. */
static void sd_count_series(struct sd *s, unsigned capped, size_t r)
{
	s->points++;
	if (!(capped & SD_CAP_QUICK))
		return;
	if (!s->quick_cut || r < s->quick_fewest)
		s->quick_fewest = r;
	s->quick_cut++;
}

void sd_budget_note(struct test_ctx *t, struct sd *s, const char *grid)
{
	char what[140];

	if (!s->quick_cut)
		return;
	rl_snprintf(what, sizeof(what), "%s: %u of %u series, the fewest rounds", grid, s->quick_cut,
		    s->points);
	t_budget_note(t, what, s->quick_fewest, s->nrounds);
}

/* One grid point: nrounds rounds of method m on n pages with ncpu CPUs. */
bool sd_point(struct test_ctx *t, struct env *e, struct sd *s, unsigned n, unsigned ncpu,
	      enum sd_method m, const char *metric, const char *policy, uint64_t *samples,
	      size_t nrounds, uint64_t *p50)
{
	size_t k = 0, r;
	bool ok = true;
	unsigned capped = 0;
	uint64_t t0 = rdtsc_ordered();

	if (!sd_start(t, e, s, ncpu - 1))
		return false;
	ok = sd_resync(t, e, s, n);
	for (r = 0; ok && sd_more(t, r, nrounds, SD_MIN_QUICK, t0, &capped); r++) {
		uint64_t c = sd_round(t, e, s, n, m, &ok);

		if (ok)
			samples[k++] = c;
	}
	sd_stop(t, s);
	sd_count_series(s, capped, r);
	ok = sd_check_remotes(t, s, metric) && ok;
	t_overhead_remove(&s->ovh, samples, k);
	t_metric_dist(t, metric, samples, k, "cycles",
		      "pages=%u cpus=%u remote=%u policy=%s ceiling=%u method=pte-write-to-last-ack clock=cpu0-tsc %s rounds_capped=%s",
		      n, ncpu, ncpu - 1, policy, FLUSH_CEILING, s->ovh_text, capped ? "yes" : "no");
	if (p50)
		*p50 = p50_of(samples, k);
	return ok;
}

/* Quick without iters= (a time budget): the remote grid points, those
 * the summary and the answer use: the single page at every remote CPU
 * count, and both sides of the 33-page ceiling (32 and 64 pages, Linux's
 * choice at each) at all CPUs; the other method only at 64 pages.  Each
 * remote point waits for every remote CPU; under an emulator that is host
 * time slices (QEMU TCG, 4 vCPUs on 2 host cores: 2-60 ms a point).  The
 * local-only points (1 CPU; tlb.cost times the local flushes) are cheap to
 * run, but each prints two long lines: ~50 ms on a serial port that exits
 * to the hypervisor per character. */
static bool sd_quick_point(const struct test_ctx *t, unsigned ncpu, unsigned total,
			   unsigned pages, bool other_side)
{
	if (!t_budgeted(t))
		return true;
	if (other_side)
		return ncpu == total && pages == 64;
	return (pages == 1 && ncpu > 1) || (ncpu == total && (pages == 32 || pages == 64));
}

static void sd_quick_said(struct test_ctx *t, unsigned total, bool *said)
{
	if (!*said)
		t_diag(t, "budget: grid only at 1 page on 2+ CPUs and 32, 64 pages on all %u, other side of the ceiling only at 64 (quick budget)",
		       total);
	*said = true;
}

static void body_shootdown(struct env *e)
{
	struct test_ctx *t = e->t;
	unsigned total, counts[16], ncounts;
	struct sd *s = sd_setup(t, e, &total);
	char name[80];

	if (!s)
		return;
	size_t nrounds = s->nrounds;
	uint64_t *samples = s->samples;
	bool quick_said = false;

	ncounts = sd_cpu_counts(total, counts);
	tlb_sum.ipi_all_cpus = total;
	memcpy(sd_counts, counts, sizeof(sd_counts));
	sd_ncounts = ncounts;
	for (unsigned ci = 0; ci < ncounts; ci++) {
		unsigned ncpu = counts[ci];

		if (sd_allcpu_skip(t, s, ncpu, total))
			continue;
		for (unsigned pi = 0; pi < SD_NPAGES; pi++) {
			unsigned n = sd_pages[pi];
			bool linux_invlpg = n <= FLUSH_CEILING;
			uint64_t med = 0;

			if (!sd_quick_point(t, ncpu, total, n, false)) {
				sd_quick_said(t, total, &quick_said);
				continue;
			}

			/* Linux's choice, then (next to the ceiling) the other one,
			 * so both sides of the 33-page ceiling are measured. */
			if (linux_invlpg)
				rl_snprintf(name, sizeof(name), "ipi_invlpg.%up.%ucpu", n, ncpu);
			else
				rl_snprintf(name, sizeof(name), "ipi_full.%up.%ucpu", n, ncpu);
			if (!sd_point(t, e, s, n, ncpu, linux_invlpg ? SD_IPI_INVLPG : SD_IPI_FULL, name,
				      "linux", samples, nrounds, &med))
				return;
			sd_ipi_p50[ci][pi] = med;
			if (n == 1 && ncpu == 2)
				tlb_sum.ipi_1p[0] = med;
			if (n == 1 && ncpu == total)
				tlb_sum.ipi_1p[1] = med;
			if (n != 32 && n != 64)
				continue;
			if (!sd_quick_point(t, ncpu, total, n, true)) {
				sd_quick_said(t, total, &quick_said);
				continue;
			}
			if (linux_invlpg)
				rl_snprintf(name, sizeof(name), "ipi_full.%up.%ucpu", n, ncpu);
			else
				rl_snprintf(name, sizeof(name), "ipi_invlpg.%up.%ucpu", n, ncpu);
			if (!sd_point(t, e, s, n, ncpu, linux_invlpg ? SD_IPI_FULL : SD_IPI_INVLPG, name,
				      "other-side-of-ceiling", samples, nrounds, NULL))
				return;
		}
	}
	if (total < 2) {
		sd_budget_note(t, s, "grid");
		t_skip(t, "needs a second CPU for a remote shootdown (the 1cpu local costs are reported)");
		return;
	}
	/* The remote negative control: the same rounds with no flush at all;
	 * then a real shootdown so every TLB is right again.  In quick one
	 * round (8 pages on every remote CPU) once the budget is spent: where
	 * remote entries survive (QEMU TCG), every read of every round is
	 * stale. */
	unsigned reads = 0, stale = 0, capped = 0;
	bool ok = sd_start(t, e, s, total - 1) && sd_resync(t, e, s, 8);
	uint64_t t0 = rdtsc_ordered();
	size_t r;

	for (r = 0; ok && sd_more(t, r, nrounds, SD_MIN_QUICK, t0, &capped); r++) {
		sd_round(t, e, s, 8, SD_NOFLUSH, &ok);
		if (ok)
			sd_round(t, e, s, 8, SD_IPI_INVLPG, &ok);
	}
	sd_stop(t, s);
	sd_count_series(s, capped, r);
	sd_budget_note(t, s, "grid and remote control");
	for (unsigned i = 0; i < total - 1; i++) {
		reads += s->cpu[s->remote[i]].control_reads;
		stale += s->cpu[s->remote[i]].control_stale;
	}
	sd_check_remotes(t, s, "remote control");
	t_metric_value(t, "remote_stale_control.8p.allcpu", stale, "count",
		       "reads=%u remote_cpus=%u control=%s", reads, total - 1,
		       stale ? "fired" : "not-observed");
	t_diag(t, "remote stale control: %u of %u reads on %u remote CPUs returned the old frame with no shootdown%s",
	       stale, reads, total - 1, stale ? "" : " (the check could not be shown to catch a missing remote flush here)");
	tlb_sum.remote_stale = (int)stale;
	tlb_sum.remote_control_reads = reads;
	/* every remote read after an IPI shootdown of the grid and the
	 * control's rounds: the tlb_shootdown answer's claim */
	tlb_sum.remote_reads = s->reads_after;
	tlb_sum.remote_old = s->old_after;
	/* what the other CPUs lose to it: a victim loop's throughput */
	sd_victim(t, e, s, total, SD_IPI_INVLPG, &tlb_sum.victim_ipi);
}

/* quick: 20 ms of sample budget; then one round a point (sd_more()) */
TEST(tlb, shootdown, .order = 90, .budget_ms = 120000, .quick_budget_ms = 20)
{
	with_env(t, false, body_shootdown);
}
