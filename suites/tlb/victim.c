/* SPDX-License-Identifier: GPL-2.0-only */
/* tlb: what a shootdown costs the CPUs it targets, and INVLPGB from many
 * initiators at once.
 *
 * The initiator's latency (shootdown.c's grid) is half of the price: an IPI
 * shootdown also interrupts every target, which enters the handler,
 * flushes, acknowledges and returns, while INVLPGB is carried out by the
 * hardware without the targets' instructions (AMD APM vol. 3, INVLPGB).
 * The targets' side is measured the way it shows in a workload: each
 * target runs a victim loop (a counted loop of empty steps, interrupts
 * on) through two windows of equal length, one while CPU 0 idles and one
 * while CPU 0 shoots down one page as fast as it can; the iterations the
 * loop lost in the second window, at the first window's rate, are the
 * cycles the shootdowns took from it:
 *
 *	lost per shootdown = (cycles_2 - iters_2 * cycles_1 / iters_1) / k
 *
 * (k shootdowns in window 2), one sample per target and window pair.
 * Both windows start and end on a command, so the wake-up IPI a command
 * sends is in both.  The targets do not read the page in either window:
 * what is measured is the interruption, not a re-walk.
 *
 * Concurrent initiators: k CPUs issue INVLPGB+TLBSYNC of one page each (a
 * page of its own) from the same TSC instant, rounds of them back to back;
 * against one initiator's cost at the same CPU count it shows whether
 * broadcasts from several CPUs queue behind each other. */
#include "suites/tlb/tlb.h"
#include "kernel/test.h"
#include "kernel/platform.h"
#include "arch/x86/cpu.h"
#include "arch/x86/pgtable_test.h"
#include "arch/x86/tlbflush.h"
#include "lib/printf.h"
#include "lib/stats.h"

/* empty steps between two looks at the command word */
#define VICTIM_INNER	256u
/* how far ahead of now the initiators' common start is: a halted server
 * must wake (the command's IPI) and reach it first */
#define CONC_LEAD_US	500u

void sd_victim_loop(struct sd *s, struct sd_cpu *me, uint64_t seen, unsigned phase)
{
	uint64_t n = 0, t0 = rdtsc_ordered(), lost = plat_us_to_cycles(T_LOST_US), t1;

	for (;;) {
		for (unsigned i = 0; i < VICTIM_INNER; i++)
			__asm__ volatile("");
		n += VICTIM_INNER;
		if (__atomic_load_n(&s->cmd_seq, __ATOMIC_RELAXED) != seen)
			break;
		/* CPU 0 gone: stop (its deferred stop also ends the loop) */
		if (!(n & 0xfffff) && rdtsc_ordered() - t0 > lost)
			break;
	}
	t1 = rdtsc_ordered();
	me->victim_iters[phase & 1] = n;
	me->victim_cycles[phase & 1] = t1 - t0;
}

void sd_initiate(struct sd *s, struct sd_cpu *me)
{
	uint64_t *out = s->conc + (size_t)me->slot * s->conc_rounds;
	uint64_t va = pt_win_va_4k(me->slot);

	while (rdtsc_ordered() < s->conc_start)
		cpu_relax();
	for (unsigned r = 0; r < s->conc_rounds; r++) {
		uint64_t t0 = lfence_rdtsc();

		/* guarded inside: nothing runs without CPUID's bit and the
		 * boot probe */
		invlpgb_flush_range(s, va, 1, false, INVLPGB_FLAG_VA, s->pcid);
		out[r] = lfence_rdtsc() - t0;
	}
}

/* One window of CPU 0 shooting down page 0 by method m; returns how many
 * (0 on a lost acknowledgement, already failed). */
static uint64_t victim_shoot(struct test_ctx *t, struct env *e, struct sd *s, enum sd_method m,
			     uint64_t window)
{
	uint64_t k = 0, t0 = rdtsc_ordered();

	do {
		sd_map(e, s, 1, s->cur ^ 1, s->global);
		if (m == SD_INVLPGB)
			invlpgb_flush_range(s, s->va0, 1, false, INVLPGB_FLAG_VA, s->pcid);
		else if (!sd_ipi_flush(t, s, 1, false))
			return 0;
		s->cur ^= 1;
		k++;
	} while (rdtsc_ordered() - t0 < window);
	return k;
}

bool sd_victim(struct test_ctx *t, struct env *e, struct sd *s, unsigned ncpu, enum sd_method m,
	       struct tlb_victim *out)
{
	const char *what = m == SD_INVLPGB ? "INVLPGB victim loop" : "IPI victim loop";
	size_t reps = (size_t)t_iters(t, 10, 2), n = 0;
	uint64_t window_us = t_pick(t, 2000, 500, 500), window = plat_us_to_cycles(window_us);
	uint64_t shots = 0;
	unsigned faster = 0, unusable = 0, total = ncpu;
	bool ok;
	char name[96];

	out->measured = false;
	ncpu = (unsigned)t_pick(t, total, 2, 2);
	if (ncpu > total)
		ncpu = total;
	if (ncpu < 2)
		return false;
	if (m == SD_INVLPGB)
		rl_snprintf(name, sizeof(name), "victim.invlpgb_tlbsync.1p.%ucpu", ncpu);
	else
		rl_snprintf(name, sizeof(name), "victim.ipi_invlpg.1p.%ucpu", ncpu);
	/* quick: only on what is left of the case's sample budget, and one
	 * target (every victim spins through both windows; under an emulator
	 * each hand-over between a spinning victim and CPU 0 waits for a host
	 * time slice, 10-30 ms under QEMU TCG on a loaded host) */
	if (t_quick_spent(t)) {
		t_diag(t, "budget: %s not measured: quick sample budget spent (full runs and iters= measure it)",
		       what);
		t_metric_not_run(t, name, "cycles", "budget", "what=victim-loop-not-measured cpus=%u", ncpu);
		out->budget_cut = true;
		return false;
	}
	if (ncpu < total)
		t_diag(t, "budget: %s: victims on %u CPUs, not all %u (quick)", what, ncpu, total);
	uint64_t *lost = t_alloc(t, reps * (ncpu - 1) * sizeof(uint64_t));

	s->npages = 1;
	s->full = false;
	ok = sd_start(t, e, s, ncpu - 1) && sd_resync(t, e, s, 1);
	for (size_t r = 0; ok && r < reps && !t_expired(t); r++) {
		uint64_t t0, k;

		s->victim_phase = 0;
		if (!(ok = sd_command(t, s, SD_VICTIM)))
			break;
		t0 = rdtsc_ordered();
		while (rdtsc_ordered() - t0 < window)
			cpu_relax();
		s->victim_phase = 1;
		if (!(ok = sd_command(t, s, SD_VICTIM)))
			break;
		k = victim_shoot(t, e, s, m, window);
		if (!(ok = sd_command(t, s, SD_NOP) && k))
			break;
		shots += k;
		for (unsigned i = 0; i < s->nremote; i++) {
			const struct sd_cpu *c = &s->cpu[s->remote[i]];
			uint64_t i0 = c->victim_iters[0], c0 = c->victim_cycles[0];
			uint64_t i1 = c->victim_iters[1], c1 = c->victim_cycles[1];

			if (!i0 || !c0) {
				unusable++;
				continue;
			}
			/* the cycles window 2's iterations needed at window 1's rate */
			uint64_t need = (uint64_t)((unsigned __int128)i1 * c0 / i0);

			if (c1 <= need)
				faster++;
			lost[n++] = c1 > need ? (c1 - need) / k : 0;
		}
	}
	sd_stop(t, s);
	t_metric_dist(t, name, lost, n, "cycles",
		      "what=victim-loop-cycles-lost-per-target-per-shootdown method=%s cpus=%u remote=%u windows=%zu window_us=%llu shootdowns=%llu faster_than_idle=%u unusable=%u",
		      m == SD_INVLPGB ? "invlpgb-tlbsync" : "ipi-invlpg", ncpu, ncpu - 1, reps,
		      (unsigned long long)window_us, (unsigned long long)shots, faster, unusable);
	out->measured = ok && n > 0;
	out->cpus = ncpu;
	out->n = n;
	out->shootdowns = shots;
	out->lost_p25 = n ? percentile_sorted(lost, n, 25) : 0;
	out->lost_p50 = n ? percentile_sorted(lost, n, 50) : 0;
	out->lost_p75 = n ? percentile_sorted(lost, n, 75) : 0;
	return ok;
}

bool sd_concurrent(struct test_ctx *t, struct env *e, struct sd *s, unsigned ncpu,
		   const char *metric, uint64_t *p50)
{
	unsigned rounds = (unsigned)t_iters(t, 64, 8);
	size_t n = (size_t)ncpu * rounds;
	bool ok;

	*p50 = 0;
	if (ncpu < 2 || ncpu > PT_WIN_4K_PAGES)
		return true;
	s->conc_rounds = rounds;
	s->conc = t_alloc(t, n * sizeof(uint64_t));
	ok = sd_start(t, e, s, ncpu - 1);
	if (ok) {
		s->conc_start = rdtsc_ordered() + plat_us_to_cycles(CONC_LEAD_US);

		uint64_t q = sd_post(s, SD_INITIATE);

		sd_initiate(s, &s->cpu[plat_this_cpu()]);
		ok = sd_wait(t, s, q, SD_INITIATE);
	}
	sd_stop(t, s);
	if (!ok)
		return false;
	t_overhead_remove(&s->ovh, s->conc, n);
	t_metric_dist(t, metric, s->conc, n, "cycles",
		      "what=one-initiator-1-page-invlpgb-tlbsync initiators=%u rounds=%u start=common-tsc %s",
		      ncpu, rounds, s->ovh_text);
	*p50 = p50_of(s->conc, n);
	return true;
}
