/* SPDX-License-Identifier: GPL-2.0-only */
/* The console for ringlab-hosted: stdout, with the same integrity
 * accounting as the kernel's (kernel/console.h). */
#include <pthread.h>
#include <stdio.h>
#include "kernel/console.h"
#include "lib/crc32.h"
#include "tools/hosted/hosted.h"

/* One writer at a time, so lines and the CRC stay whole when several
 * threads print. */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static bool integ_on;
static uint64_t integ_lines;
static uint32_t integ_crc;

void console_write(const char *s, size_t n)
{
	hosted_unsafe_enter();
	pthread_mutex_lock(&mu);
	fwrite(s, 1, n, stdout);
	if (integ_on) {
		integ_crc = crc32_update(integ_crc, s, n);
		for (size_t i = 0; i < n; i++)
			if (s[i] == '\n')
				integ_lines++;
	}
	if (n && s[n - 1] == '\n')
		fflush(stdout);
	pthread_mutex_unlock(&mu);
	hosted_unsafe_leave();
}

void console_integrity_start(void)
{
	integ_on = true;
	integ_lines = 0;
	integ_crc = 0;
}

void console_integrity(uint64_t *lines, uint32_t *crc)
{
	*lines = integ_lines;
	*crc = integ_crc;
}
