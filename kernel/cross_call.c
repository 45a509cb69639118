/* SPDX-License-Identifier: GPL-2.0-only */
/* plat_call() and plat_call_many() on top of each platform's plat_post()
 * and plat_wait() (kernel/smp.c, tools/hosted/platform_linux.c): shared by
 * the kernel and the hosted build. */
#include "kernel/platform.h"

int plat_call(unsigned cpu, plat_fn fn, void *arg, uint64_t timeout_ms)
{
	if (cpu == plat_this_cpu()) {
		fn(arg);
		return PLAT_OK;
	}
	int rc = plat_post(cpu, fn, arg);

	return rc ? rc : plat_wait(cpu, timeout_ms);
}

int plat_call_many(const unsigned *list, unsigned n, plat_fn fn, void *arg,
		   uint64_t timeout_ms, int *status)
{
	unsigned self = plat_this_cpu();
	bool self_listed = false;
	int first = PLAT_OK;

	for (unsigned i = 0; i < n; i++) {
		int rc = PLAT_OK;

		if (list[i] == self)
			self_listed = true;
		else
			rc = plat_post(list[i], fn, arg);
		if (status)
			status[i] = rc;
		if (rc && first == PLAT_OK)
			first = rc;
	}
	if (self_listed)
		fn(arg);	/* last, so the others are already running */
	for (unsigned i = 0; i < n; i++) {
		if (list[i] == self || (status && status[i]))
			continue;
		int rc = plat_wait(list[i], timeout_ms);

		if (status)
			status[i] = rc;
		if (rc && first == PLAT_OK)
			first = rc;
	}
	return first;
}
