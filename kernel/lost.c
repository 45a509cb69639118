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
 * the APs spin while a CPU does I/O-bound work, as in the heavy cases.  A
 * AP that starts late spins less (but at least a quarter of the window
 * from its own start), and its lateness is itself a stall and is counted:
 * each AP notes its start on its own TSC, and the boot CPU, in its own
 * spin, watches each sampled CPU's start flag; an AP's lateness is its own
 * start after the posting, bounded by when the boot CPU first saw it
 * started (so an AP whose TSC runs ahead cannot overstate it; one whose
 * TSC is behind can understate it by that offset, which on hardware is far
 * below anything that moves the scale); one not started when the boot
 * CPU's spin ends counts as late as that end (a lower bound).  The boot
 * CPU's own late start (it printed the header) is not a stall and is not
 * counted.  The line gives the shortest spin of an AP too (of the boot
 * CPU when it is the only one).  The
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

#define LOST_MAX_CPUS	1024

static uint64_t spin_gap[LOST_MAX_CPUS], spin_len[LOST_MAX_CPUS], spin_start[LOST_MAX_CPUS];
static uint64_t spin_cycles, spin_deadline, spin_us;
static volatile bool spin_started[LOST_MAX_CPUS];
static unsigned spin_list[LOST_MAX_CPUS];	/* the sampled CPUs; the watcher is last */
static int spin_post_rc[LOST_MAX_CPUS];
static unsigned spin_n, spin_watcher, spin_online;
static uint64_t spin_posted, late_start;	/* the watcher's clock */

/* How late sampled AP i started: its own start on its own TSC after the
 * posting, at most `seen` (when the watcher first saw its flag). */
static uint64_t ap_lateness(unsigned c, uint64_t seen)
{
	uint64_t own = spin_start[c] > spin_posted ? spin_start[c] - spin_posted : 0;
	uint64_t bound = seen - spin_posted;

	return own < bound ? own : bound;
}

/* The watcher's part of its spin: every sampled AP whose start flag it
 * sees for the first time started at most now - spin_posted after the
 * spins were posted. */
static void watch_starts(bool *seen, uint64_t now)
{
	for (unsigned i = 0; i + 1 < spin_n; i++) {
		unsigned c = spin_list[i];

		if (c >= LOST_MAX_CPUS || seen[i] || !__atomic_load_n(&spin_started[c], __ATOMIC_ACQUIRE))
			continue;
		seen[i] = true;
		uint64_t late = ap_lateness(c, now);

		if (late > late_start)
			late_start = late;
	}
}

/* Spin reading the TSC; the longest gap between two reads is how long
 * this CPU was not running (an emulator thread descheduled, an SMI).  It
 * stops at the common deadline (the boot CPU's TSC), but spins at least a
 * quarter of the window and at most the whole window from its own start
 * (so a CPU whose TSC is behind the boot CPU's still stops in time). */
static void spin(void *arg)
{
	unsigned slot = plat_this_cpu();

	(void)arg;
	uint64_t start = lfence_rdtsc(), prev = start, gap = 0;
	uint64_t end = start + spin_cycles < spin_deadline ? start + spin_cycles : spin_deadline;
	bool watch = slot == spin_watcher;
	static bool seen[LOST_MAX_CPUS];

	/* An AP that starts late still spins a quarter of the window, so
	 * that it too can see a gap after its start.  The boot CPU stops at
	 * the deadline, even at once when the header outlasted the window:
	 * the APs spun meanwhile; it spins a quarter window only when it is
	 * the one CPU sampled. */
	if (end < start + spin_cycles / 4 && (!watch || spin_n == 1))
		end = start + spin_cycles / 4;
	if (slot < LOST_MAX_CPUS) {
		spin_start[slot] = start;
		__atomic_store_n(&spin_started[slot], true, __ATOMIC_RELEASE);
	}
	if (watch) {
		for (unsigned i = 0; i + 1 < spin_n; i++)
			seen[i] = false;
		watch_starts(seen, start);
	}
	for (uint64_t now = prev; now < end; prev = now) {
		now = lfence_rdtsc();
		if (now - prev > gap)
			gap = now - prev;
		if (watch)
			watch_starts(seen, now);
	}
	if (watch)
		for (unsigned i = 0; i + 1 < spin_n; i++)
			if (!seen[i] && prev - spin_posted > late_start)
				late_start = prev - spin_posted;
	if (slot < LOST_MAX_CPUS) {
		spin_gap[slot] = gap;
		spin_len[slot] = prev - start;
	}
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
	spin_list[n++] = 0;	/* last: the boot CPU, in lost_end() */
	for (unsigned i = 0; i < LOST_MAX_CPUS; i++) {
		spin_gap[i] = spin_len[i] = spin_start[i] = 0;
		spin_started[i] = false;
	}
	spin_n = n;
	spin_watcher = plat_this_cpu();
	late_start = 0;
	spin_posted = lfence_rdtsc();
	spin_deadline = spin_posted + spin_cycles;
	for (unsigned i = 0; i + 1 < n; i++)
		spin_post_rc[i] = plat_post(spin_list[i], spin, NULL);
}

void lost_end(void)
{
	unsigned n = spin_n, calls = 0, failed = 0;
	uint64_t rtt = 0, gap = 0, shortest = UINT64_MAX;

	/* Alone, the boot CPU spins the whole window itself; with APs it
	 * spins what is left of it and watches their starts. */
	if (n == 1)
		spin_deadline = lfence_rdtsc() + spin_cycles;
	spin(NULL);
	for (unsigned i = 0; i + 1 < n; i++)
		if (spin_post_rc[i] != PLAT_OK ||
		    plat_wait(spin_list[i], T_LOST_BASE_US / 1000 + spin_us / 1000) != PLAT_OK)
			failed++;
	for (unsigned i = 0; i < n; i++) {
		if (spin_list[i] >= LOST_MAX_CPUS)
			continue;
		if (spin_gap[spin_list[i]] > gap)
			gap = spin_gap[spin_list[i]];
		/* the boot CPU's spin may be empty by design (see spin()) */
		if (spin_len[spin_list[i]] < shortest && (n == 1 || spin_list[i] != spin_watcher))
			shortest = spin_len[spin_list[i]];
	}
	/* 2. round trips of an empty call to each AP. */
	for (unsigned i = 0; i + 1 < n; i++) {
		for (unsigned k = 0; k < LOST_PINGS; k++) {
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
