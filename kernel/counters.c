/* SPDX-License-Identifier: GPL-2.0-only */
/* The parts of the event-count API (kernel/platform.h) both builds share:
 * names and the "beside a measurement" formatting. */
#include "kernel/platform.h"
#include "lib/printf.h"

const char *plat_event_name(enum plat_event ev)
{
	static const char *const names[PLAT_NEVENTS] = {
		"cycles", "instructions", "llc_refs", "llc_misses", "rfo",
	};

	return (unsigned)ev < PLAT_NEVENTS ? names[ev] : "unknown";
}

int plat_counts_format(char *buf, size_t size, const enum plat_event *ev, unsigned n,
		       const bool *counting, const uint64_t *delta)
{
	size_t len = 0;
	unsigned k = 0;

	if (size)
		buf[0] = '\0';
	for (unsigned i = 0; i < n; i++) {
		if (!counting[i])
			continue;
		len += (size_t)rl_snprintf(buf + (len < size ? len : size), len < size ? size - len : 0,
					   "%spmu_%s=%llu", k++ ? " " : "", plat_event_name(ev[i]),
					   (unsigned long long)delta[i]);
	}
	if (!k)
		len = (size_t)rl_snprintf(buf, size, "pmu=none");
	return (int)len;
}
