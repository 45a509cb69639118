/* SPDX-License-Identifier: GPL-2.0-only */
/* TSC frequency calibration against every reference the machine has, and
 * the conversions the rest of the kernel uses.
 *
 * Measured references: PIT channel 2, ACPI PM timer, HPET.  Declared
 * references: CPUID 0x15 (crystal x ratio), CPUID 0x16 (base MHz, a
 * nominal value), hypervisor leaf 0x40000010 (TSC kHz).  The frequency used
 * is taken in this order of preference: CPUID 0x15 with an enumerated
 * crystal, the hypervisor leaf, HPET, PM timer, PIT, CPUID 0x16.
 *
 * A declared frequency is trusted only while the measured references do
 * not jointly contradict it: when at least two measured references agree
 * with each other (within TSC_AGREE_PPM plus their uncertainties) and the
 * declared one is outside that tolerance of them, a measured reference is
 * chosen instead and tsc_calibration.why says so.  CPUID 0x15 is
 * model data (SDM vol. 2A, CPUID leaf 15H) that real parts get wrong too:
 * Linux's native_calibrate_tsc() keeps crystal-frequency quirks for parts
 * that enumerate none or a wrong one.  And
 * Bochs' Ice Lake model declares 1.4976 GHz for a TSC that its HPET, PM
 * timer and PIT all time at its ips setting (docs/platform-notes.md
 * "Bochs").  Every timeout and every ns figure of the run is derived from
 * the chosen frequency, so choosing the one that the clocks agree on keeps
 * the run's waits as long as they were meant to be; tsc.calibration still
 * fails, because the declared value is wrong. */
#ifndef RINGLAB_ARCH_X86_TSC_H
#define RINGLAB_ARCH_X86_TSC_H

#include <stdbool.h>
#include <stdint.h>

struct acpi_info;

enum tsc_ref_id {
	TSC_REF_CPUID15, TSC_REF_HYPERVISOR, TSC_REF_HPET, TSC_REF_PMTIMER,
	TSC_REF_PIT, TSC_REF_CPUID16, TSC_NREFS
};

struct tsc_ref {
	const char *name;
	bool present;		/* the machine has this reference */
	bool ok;		/* it produced a frequency */
	bool measured;		/* timed against the TSC (vs. declared by CPUID) */
	uint64_t hz;
	uint64_t err_ppm;	/* measurement uncertainty bound (measured only) */
	uint64_t window_us;
	char note[160];		/* why absent or failed, or detail */
};

/* Each measured reference is timed over `runs` windows of this length and
 * the median kept; the references share the windows (tsc.c measure_joint():
 * HPET and PM timer stamped at both ends of each window, the PIT timing one
 * count inside it), so calibration costs `runs` windows, not `runs` per
 * reference.  quick (the command-line option) uses short windows: the
 * references are still all measured and compared (tsc.calibration), each
 * with the larger uncertainty the short window gives: 3 shared windows of
 * 2.5 ms plus the PIT's retries of disturbed runs, where each reference
 * had 3 of its own before (TCG -smp 4 on a loaded 2-core host, median of
 * 7 boots: 35 ms instead of 48 ms). */
#define TSC_CAL_WINDOW_US	50000
#define TSC_CAL_QUICK_WINDOW_US	2500
#define TSC_CAL_RUNS		3

/* Agreement tolerance between two frequencies: 0.1% plus the measured
 * references' own uncertainties; nominal CPUID 0x16 values are only
 * expected within 2% (suites/tsc.c uses the same numbers). */
#define TSC_AGREE_PPM		1000
#define TSC_NOMINAL_PPM		20000

struct tsc_calibration {
	struct tsc_ref ref[TSC_NREFS];
	uint64_t hz;
	const char *source;
	unsigned nok;		/* references that produced a frequency */
	bool quick;		/* short windows (TSC_CAL_QUICK_WINDOW_US) */
	uint64_t window_us;
	unsigned runs;
	/* Set when a declared reference was overruled by measured ones that
	 * agree among themselves: which, and why (one sentence). */
	const char *overruled;
	char why[200];
};

extern uint64_t tsc_hz;		/* a safe guess until tsc_calibrate() */

void tsc_early_guess(void);
/* Measure every reference and set tsc_hz (boot). */
void tsc_calibrate(const struct acpi_info *ai, bool quick);
/* Measure into *out without changing tsc_hz or the boot calibration. */
void tsc_measure(struct tsc_calibration *out, const struct acpi_info *ai, bool quick);
const struct tsc_calibration *tsc_get_calibration(void);

/* Deviation of hz from the chosen frequency, in ppm (signed). */
int64_t tsc_dev_ppm(uint64_t hz);

static inline uint64_t tsc_us_to_cycles(uint64_t us)
{
	return (uint64_t)(((unsigned __int128)us * tsc_hz) / 1000000u);
}

static inline uint64_t tsc_ms_to_cycles(uint64_t ms)
{
	return (uint64_t)(((unsigned __int128)ms * tsc_hz) / 1000u);
}

static inline uint64_t tsc_cycles_to_ns(uint64_t c)
{
	return tsc_hz ? (uint64_t)(((unsigned __int128)c * 1000000000u) / tsc_hz) : 0;
}

/* Busy-wait; bounded by definition. */
void tsc_delay_us(uint64_t us);

#endif
