/* SPDX-License-Identifier: GPL-2.0-only */
/* Scaling of the "lost" threshold to the host; see lost.c. */
#ifndef RINGLAB_KERNEL_LOST_H
#define RINGLAB_KERNEL_LOST_H

#include <stdbool.h>

/* Measure the boot stall and set plat_lost_us(); prints one "# lost:"
 * line.  Call once, with the APs online; quick spins for a shorter
 * window (the quick profile's boot-time budget). */
void lost_calibrate(bool quick);

#endif
