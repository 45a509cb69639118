/* SPDX-License-Identifier: GPL-2.0-only */
/* Boot phase durations (kernel/boot_phase.h).  The marks are raw TSC
 * reads taken before the TSC is calibrated; they are converted only when
 * printed, so the early phases are timed with the calibrated rate too. */
#include "kernel/boot_phase.h"
#include "arch/x86/tsc_read.h"
#include "kernel/report.h"
#include "lib/printf.h"

#define BOOT_PHASE_MAX	16

static uint64_t phase_start, phase_tsc[BOOT_PHASE_MAX];
static const char *phase_name[BOOT_PHASE_MAX];
static unsigned phase_n;

void boot_phase_start(void)
{
	phase_start = rdtsc();
	phase_n = 0;
}

void boot_phase_end(const char *name)
{
	if (phase_n < BOOT_PHASE_MAX) {
		phase_tsc[phase_n] = rdtsc();
		phase_name[phase_n++] = name;
	}
}

void boot_phase_print(void)
{
	char line[512], ms[24];
	size_t len;
	uint64_t prev = phase_start;

	if (!phase_n)
		return;
	rep_ms_text(ms, sizeof(ms), phase_tsc[phase_n - 1] - phase_start);
	len = (size_t)rl_snprintf(line, sizeof(line), "boot: phases ms: total=%s", ms);
	for (unsigned i = 0; i < phase_n && len < sizeof(line); i++) {
		rep_ms_text(ms, sizeof(ms), phase_tsc[i] - prev);
		prev = phase_tsc[i];
		len += (size_t)rl_snprintf(line + len, sizeof(line) - len, " %s=%s", phase_name[i], ms);
	}
	rep_diag("%s", line);
}
