/* The "lost" threshold (kernel/platform.h T_LOST_US), scaled to how slow
 * this host turned out to be at boot.
 *
 * A fixed 2 s is thousands of times any real delivery, but an emulator
 * that runs 12 vCPUs on one host core stalls a vCPU for longer than that
 * (issue 12 D6: ipi.mesh counted 4 acknowledgements lost).  So at boot,
 * with every CPU online, measure the worst stall the run can see: the
 * longest gap between two TSC reads of the boot CPU spinning, and the
 * longest round trip of an empty cross-CPU call to each AP.  The
 * threshold is then at least LOST_MARGIN times that stall, in whole
 * multiples of the base (capped at LOST_SCALE_MAX); the log states the
 * scale and what it was measured from. */
#include "kernel/lost.h"
#include "arch/x86/tsc_read.h"
#include "kernel/platform.h"
#include "kernel/report.h"

#define LOST_MARGIN		50	/* threshold >= 50 x the worst boot stall */
#define LOST_SCALE_MAX		30	/* 60 s: beyond that a CPU is gone, not slow */
#define LOST_SPIN_US		20000	/* boot CPU spin */
#define LOST_PINGS		4	/* round trips per AP */

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
	uint64_t hz = plat_tsc_hz();

	return hz ? (uint64_t)(((unsigned __int128)c * 1000000u) / hz) : 0;
}

void lost_calibrate(void)
{
	uint64_t spin_end = rdtsc_lfence() + plat_ns_to_cycles(LOST_SPIN_US * 1000ull);
	uint64_t prev = rdtsc_lfence(), gap = 0, rtt = 0;
	unsigned others[64], n, calls = 0, failed = 0;

	for (uint64_t now = prev; now < spin_end; prev = now) {
		now = rdtsc_lfence();
		if (now - prev > gap)
			gap = now - prev;
	}
	n = plat_other_cpus(others, sizeof(others) / sizeof(others[0]));
	for (unsigned i = 0; i < n; i++) {
		for (unsigned k = 0; k < LOST_PINGS; k++) {
			uint64_t t0 = rdtsc_lfence();

			if (plat_call(others[i], noop, NULL, T_LOST_BASE_US / 1000) != PLAT_OK) {
				failed++;
				break;
			}
			uint64_t d = rdtsc_lfence() - t0;

			calls++;
			if (d > rtt)
				rtt = d;
		}
	}
	uint64_t gap_us = cycles_to_us(gap), rtt_us = cycles_to_us(rtt);
	uint64_t worst = gap_us > rtt_us ? gap_us : rtt_us;
	uint64_t scale = (worst * LOST_MARGIN + T_LOST_BASE_US - 1) / T_LOST_BASE_US;

	if (scale < 1)
		scale = 1;
	if (scale > LOST_SCALE_MAX)
		scale = LOST_SCALE_MAX;
	lost_scale = scale;
	rep_diag("lost: threshold T_LOST_US=%llu us = base %u us x scale %llu; worst boot stall %llu us (boot-CPU spin gap %llu us over %u us, cross-CPU round trip %llu us over %u calls to %u CPUs, %u failed); rule: threshold >= %u x worst stall, scale <= %u",
		 (unsigned long long)plat_lost_us(), T_LOST_BASE_US, (unsigned long long)scale,
		 (unsigned long long)worst, (unsigned long long)gap_us, LOST_SPIN_US,
		 (unsigned long long)rtt_us, calls, n, failed, LOST_MARGIN, LOST_SCALE_MAX);
}
