/* SPDX-License-Identifier: GPL-2.0-only */
/* The event-count API (kernel/platform.h) in the hosted build:
 * perf_event_open(2) counters on the calling thread, user mode only. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kernel/platform.h"
#include "arch/x86/cpuinfo.h"

static int fds[PLAT_NEVENTS] = { -1, -1, -1, -1, -1 };
static unsigned asked;

static void attr_for(enum plat_event ev, struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_HARDWARE;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	switch (ev) {
	case PLAT_EV_CYCLES:
		a->config = PERF_COUNT_HW_CPU_CYCLES;
		break;
	case PLAT_EV_INSTRUCTIONS:
		a->config = PERF_COUNT_HW_INSTRUCTIONS;
		break;
	case PLAT_EV_LLC_REFS:
		a->config = PERF_COUNT_HW_CACHE_REFERENCES;
		break;
	case PLAT_EV_LLC_MISSES:
		a->config = PERF_COUNT_HW_CACHE_MISSES;
		break;
	default:
		/* PLAT_EV_RFO.  AMD family 17h-19h: the raw core event
		 * PMCx060 L2RequestG1 umask 40h RdBlkX, "data cache stores"
		 * (PPR for family 17h and 19h; arch/x86/pmu.c amd_rfo), for
		 * which perf has no generic name (it rejects LLC-stores on
		 * AMD) */
		if (plat_cpu_info()->vendor == VENDOR_AMD || plat_cpu_info()->vendor == VENDOR_HYGON) {
			uint32_t f = plat_cpu_info()->family;

			if (f == 0x17 || f == 0x18 || f == 0x19) {
				a->type = PERF_TYPE_RAW;
				a->config = 0x4060;
				break;
			}
		}
		/* "LLC-stores": on Intel the kernel maps it to demand-RFO
		 * offcore responses */
		a->type = PERF_TYPE_HW_CACHE;
		a->config = PERF_COUNT_HW_CACHE_LL | (PERF_COUNT_HW_CACHE_OP_WRITE << 8) |
			    ((uint64_t)PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16);
		break;
	}
}

static int open_one(enum plat_event ev)
{
	struct perf_event_attr a;

	attr_for(ev, &a);
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static void paranoid(char *buf, size_t size)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v;

	if (f && fscanf(f, "%d", &v) == 1)
		snprintf(buf, size, "perf_event_paranoid=%d", v);
	else
		snprintf(buf, size, "perf_event_paranoid unreadable");
	if (f)
		fclose(f);
}

static void reason(int err, char *buf, size_t size)
{
	char p[48];

	paranoid(p, sizeof(p));
	snprintf(buf, size, "perf_event_open: %s (%s)%s", strerror(err), p,
		 err == ENOENT || err == EOPNOTSUPP || err == ENODEV ?
		 ": no hardware PMU exposed to this kernel (a VM without a virtual PMU?)" :
		 err == EACCES || err == EPERM ? ": not permitted (paranoid level or seccomp)" : "");
}

void plat_pmu_info(struct plat_pmu_info *info)
{
	memset(info, 0, sizeof(*info));
	int fd = open_one(PLAT_EV_INSTRUCTIONS);

	if (fd < 0) {
		reason(errno, info->why, sizeof(info->why));
		snprintf(info->desc, sizeof(info->desc), "kind=perf_event_open");
		return;
	}
	close(fd);
	info->present = true;
	info->counters = PLAT_NEVENTS;	/* perf multiplexes beyond the hardware's */
	info->width = 64;
	snprintf(info->desc, sizeof(info->desc), "kind=perf_event_open scope=thread exclude_kernel=1");
}

unsigned plat_counters_open(const enum plat_event *ev, unsigned n, bool *counting, char *why,
			    size_t whylen)
{
	unsigned k = 0;

	plat_counters_close();
	if (why && whylen)
		why[0] = '\0';
	asked = n < PLAT_NEVENTS ? n : PLAT_NEVENTS;
	for (unsigned i = 0; i < n; i++) {
		counting[i] = false;
		if (i >= PLAT_NEVENTS)
			continue;
		fds[i] = open_one(ev[i]);
		if (fds[i] < 0) {
			if (why && !why[0]) {
				char r[200];

				reason(errno, r, sizeof(r));
				snprintf(why, whylen, "%s: %s", plat_event_name(ev[i]), r);
			}
			continue;
		}
		counting[i] = true;
		k++;
	}
	return k;
}

bool plat_counters_read(uint64_t *vals)
{
	bool any = false;

	for (unsigned i = 0; i < asked; i++) {
		vals[i] = 0;
		if (fds[i] < 0)
			continue;
		if (read(fds[i], &vals[i], sizeof(vals[i])) != (ssize_t)sizeof(vals[i]))
			return false;
		any = true;
	}
	return any;
}

void plat_counters_delta(const uint64_t *before, const uint64_t *after, uint64_t *delta)
{
	for (unsigned i = 0; i < asked; i++)
		delta[i] = after[i] - before[i];
}

void plat_counters_close(void)
{
	for (unsigned i = 0; i < PLAT_NEVENTS; i++) {
		if (fds[i] >= 0)
			close(fds[i]);
		fds[i] = -1;
	}
}
