/* SPDX-License-Identifier: GPL-2.0-only */
/* The "lost" threshold (kernel/platform.h T_LOST_US), scaled to how slow
 * this host turned out to be at boot.
 *
 * A fixed 2 s is thousands of times any real delivery, but an emulator
 * that runs 12 vCPUs on one host core stalls a vCPU for longer than that
 * (ipi.mesh once counted 4 acknowledgements lost that way).  So at boot,
 * with every CPU online, measure the worst stall the run can see: the
 * longest gap between two TSC reads of any CPU while all of them spin
 * together (as the heavy cases make them), and the longest round trip of an empty cross-CPU call to each AP.
 * The spins end at one deadline the boot CPU sets before it posts them, so
 * the phase lasts the window, not the window plus the latest CPU's late
 * start (under TCG on a loaded host that start was up to 18 ms late, with a
 * 20 ms window: tools/bench-boot.sh).  The APs' spins are posted before the
 * boot CPU prints the identity header (lost_begin) and the boot CPU joins
 * them after it (lost_end): the header costs no boot time of its own, and
 * the APs spin while a CPU does I/O-bound work, as in the heavy cases.
 * An AP that starts late spins less (but at least a quarter of the window
 * from its own start), and its lateness is itself a stall and is counted:
 * each AP notes its start on its own TSC; its lateness is that start after
 * the posting, bounded by when the boot CPU knew it had started (it saw
 * the AP's flag during its own spin, or the wait for the AP returned).
 * The bound keeps an AP whose TSC runs ahead from overstating it by more
 * than the boot CPU's delay in looking; one whose TSC is behind can
 * understate it by that offset, which on hardware is far below anything
 * that moves the scale.  An AP that does not finish its spin in time is a
 * failed call, and the scale goes to its cap.  The boot CPU's own late
 * start (it printed the header) is not a stall and is not counted.  The
 * line gives the shortest spin of an AP (of the boot CPU when it is the
 * only one).  The
 * threshold is then at least LOST_MARGIN times that stall, in whole
 * multiples of the base (capped at LOST_SCALE_MAX); the log states the
 * scale and what it was measured from. */
#include "kernel/lost.h"
#include "arch/x86/tsc_read.h"
#include "kernel/platform.h"
#include "kernel/report.h"

#define LOST_MARGIN		100	/* threshold >= 100 x the worst boot stall */
#define LOST_SCALE_MAX		30	/* 60 s: beyond that a CPU is gone, not slow */
#define LOST_SPIN_US		100000	/* all CPUs spin this long together */
/* quick: 20 ms.  Still many host scheduler slices (a few ms each), so an
 * oversubscribed host still shows its stalls: a vCPU descheduled inside
 * the window sees the whole gap at its next read, however long.  The
 * smp12-one-core case (12 vCPUs on one host core, quick) checks that. */
#define LOST_SPIN_US_QUICK	20000
#define LOST_PINGS		4	/* round trips per sampled AP */
#define LOST_SAMPLE		16	/* CPUs that spin / are pinged: bounded boot time */

static uint64_t lost_scale = 1;

uint64_t plat_lost_us(void)
{
	return T_LOST_BASE_US * lost_scale;
}

static void noop(void *arg)
{
	(void)arg;
}

static uint64_t cycles_to_us(uint64_t c)
{
	return plat_cycles_to_ns(c) / 1000u;
}

/* Per sampled CPU, by its slot in spin_list (the boot CPU last). */
static unsigned spin_list[LOST_SAMPLE];
static uint64_t spin_gap[LOST_SAMPLE], spin_len[LOST_SAMPLE], spin_start[LOST_SAMPLE];
static volatile bool spin_started[LOST_SAMPLE];
static bool spin_seen[LOST_SAMPLE];	/* the boot CPU saw it started, in its spin */
static int spin_rc[LOST_SAMPLE];	/* its post, then its wait */
static uint64_t spin_cycles, spin_deadline, spin_us;
static unsigned spin_n, spin_online;
static uint64_t spin_posted, late_start;	/* the boot CPU's clock */

/* How late the AP in slot i started: its own start on its own TSC after
 * the posting, at most `known` - spin_posted (the boot CPU's time when it
 * knew the AP had started: it saw the flag, or the wait returned). */
static uint64_t ap_lateness(unsigned i, uint64_t known)
{
	uint64_t own = spin_start[i] > spin_posted ? spin_start[i] - spin_posted : 0;
	uint64_t bound = known - spin_posted;

	return own < bound ? own : bound;
}

static void note_late(unsigned i, uint64_t known)
{
	uint64_t late = ap_lateness(i, known);

	if (late > late_start)
		late_start = late;
}

/* The boot CPU's part of its spin: each sampled AP whose start flag it
 * sees for the first time. */
static void watch_starts(uint64_t now)
{
	for (unsigned i = 0; i + 1 < spin_n; i++) {
		if (spin_seen[i] || !__atomic_load_n(&spin_started[i], __ATOMIC_ACQUIRE))
			continue;
		spin_seen[i] = true;
		note_late(i, now);
	}
}

/* Spin reading the TSC; the longest gap between two reads is how long
 * this CPU was not running (an emulator thread descheduled, an SMI).  It
 * stops at the common deadline (the boot CPU's TSC) and at most the whole
 * window from its own start (so a CPU whose TSC is behind the boot CPU's
 * still stops in time).  An AP spins at least a quarter of the window,
 * so that one that starts late can still see a gap after its start; the
 * boot CPU stops at the deadline, at once when the identity header
 * outlasted the window (the APs spun meanwhile), and spins a quarter
 * window only when it is the one CPU sampled.  arg: the slot. */
static void spin(void *arg)
{
	unsigned slot = (unsigned)(uintptr_t)arg;
	bool watch = slot + 1 == spin_n;
	uint64_t start = lfence_rdtsc(), prev = start, gap = 0;
	uint64_t end = start + spin_cycles < spin_deadline ? start + spin_cycles : spin_deadline;

	if (end < start + spin_cycles / 4 && (!watch || spin_n == 1))
		end = start + spin_cycles / 4;
	spin_start[slot] = start;
	__atomic_store_n(&spin_started[slot], true, __ATOMIC_RELEASE);
	if (watch)
		watch_starts(start);
	for (uint64_t now = prev; now < end; prev = now) {
		now = lfence_rdtsc();
		if (now - prev > gap)
			gap = now - prev;
		if (watch)
			watch_starts(now);
	}
	spin_gap[slot] = gap;
	spin_len[slot] = prev - start;
}

void lost_begin(bool quick)
{
	unsigned n = 0;

	spin_us = quick ? LOST_SPIN_US_QUICK : LOST_SPIN_US;
	/* 1. every CPU spins at once, as the heavy cases make them do:
	 * that is when an oversubscribed host starves vCPUs the most. */
	spin_cycles = plat_ns_to_cycles(spin_us * 1000ull);
	/* A sample of up to LOST_SAMPLE - 1 APs spread over all of them: with
	 * hundreds of vCPUs the whole set would make the boot slow, and the
	 * stall a vCPU sees depends on how many share the host, which the
	 * sample already shows. */
	spin_online = 0;
	for (unsigned i = 1; i < plat_ncpus(); i++)
		spin_online += plat_online(i);
	unsigned step = spin_online / (LOST_SAMPLE - 1) + 1, seen = 0;

	for (unsigned i = 1; i < plat_ncpus() && n + 1 < LOST_SAMPLE; i++)
		if (plat_online(i) && seen++ % step == 0)
			spin_list[n++] = i;
	spin_list[n++] = plat_this_cpu();	/* last: the boot CPU, in lost_end() */
	for (unsigned i = 0; i < LOST_SAMPLE; i++) {
		spin_gap[i] = spin_len[i] = spin_start[i] = 0;
		spin_started[i] = spin_seen[i] = false;
	}
	spin_n = n;
	late_start = 0;
	spin_posted = lfence_rdtsc();
	spin_deadline = spin_posted + spin_cycles;
	for (unsigned i = 0; i + 1 < n; i++)
		spin_rc[i] = plat_post(spin_list[i], spin, (void *)(uintptr_t)i);
}

void lost_end(void)
{
	unsigned n = spin_n, calls = 0, failed = 0;
	uint64_t rtt = 0, gap = 0, shortest = UINT64_MAX;

	/* Alone, the boot CPU spins the whole window itself; with APs it
	 * spins what is left of it and watches their starts. */
	if (n == 1)
		spin_deadline = lfence_rdtsc() + spin_cycles;
	spin((void *)(uintptr_t)(n - 1));
	for (unsigned i = 0; i + 1 < n; i++) {
		if (spin_rc[i] == PLAT_OK)
			spin_rc[i] = plat_wait(spin_list[i], T_LOST_BASE_US / 1000 + spin_us / 1000);
		if (spin_rc[i] != PLAT_OK) {
			failed++;
			continue;
		}
		/* not seen in the boot CPU's spin (it was short, or empty):
		 * the AP's own start, bounded by the wait's return */
		if (!spin_seen[i])
			note_late(i, lfence_rdtsc());
	}
	for (unsigned i = 0; i < n; i++) {
		if (i + 1 < n && spin_rc[i] != PLAT_OK)
			continue;
		if (spin_gap[i] > gap)
			gap = spin_gap[i];
		/* the boot CPU's spin may be empty by design (see spin()) */
		if (spin_len[i] < shortest && (n == 1 || i + 1 < n))
			shortest = spin_len[i];
	}
	/* 2. round trips of an empty call to each AP that answered. */
	for (unsigned i = 0; i + 1 < n; i++) {
		for (unsigned k = 0; k < LOST_PINGS && spin_rc[i] == PLAT_OK; k++) {
			uint64_t t0 = lfence_rdtsc();

			if (plat_call(spin_list[i], noop, NULL, T_LOST_BASE_US / 1000) != PLAT_OK) {
				failed++;
				break;
			}
			uint64_t d = lfence_rdtsc() - t0;

			calls++;
			if (d > rtt)
				rtt = d;
		}
	}
	uint64_t gap_us = cycles_to_us(gap), rtt_us = cycles_to_us(rtt), late_us = cycles_to_us(late_start);
	uint64_t worst = gap_us > rtt_us ? gap_us : rtt_us;

	if (late_us > worst)
		worst = late_us;
	uint64_t scale = (worst * LOST_MARGIN + T_LOST_BASE_US - 1) / T_LOST_BASE_US;

	/* A CPU that did not answer a 2 s call at all: the host is at least
	 * that slow; take the largest scale rather than lose CPUs later. */
	if (failed)
		scale = LOST_SCALE_MAX;
	if (scale < 1)
		scale = 1;
	if (scale > LOST_SCALE_MAX)
		scale = LOST_SCALE_MAX;
	lost_scale = scale;
	rep_diag("lost: threshold T_LOST_US=%llu us = base %u us x scale %llu; worst boot stall %llu us (longest TSC gap of %u of %u CPUs spinning together until a common deadline %llu us after the start, shortest spin %llu us: %llu us; latest AP start %llu us after the boot CPU posted the spins; cross-CPU round trip %llu us over %u calls; %u failed); rule: threshold >= %u x worst stall, scale <= %u",
		 (unsigned long long)plat_lost_us(), T_LOST_BASE_US, (unsigned long long)scale,
		 (unsigned long long)worst, n, spin_online + 1, (unsigned long long)spin_us,
		 (unsigned long long)cycles_to_us(shortest == UINT64_MAX ? 0 : shortest),
		 (unsigned long long)gap_us, (unsigned long long)late_us, (unsigned long long)rtt_us,
		 calls, failed, LOST_MARGIN, LOST_SCALE_MAX);
}
