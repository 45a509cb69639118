/* SPDX-License-Identifier: GPL-2.0-only */
/* Scaling of the "lost" threshold to the host; see lost.c. */
#ifndef RINGLAB_KERNEL_LOST_H
#define RINGLAB_KERNEL_LOST_H

#include <stdbool.h>

/* Measure the boot stall and set plat_lost_us(); prints one "# lost:"
 * line.  Call lost_begin() once, with the APs online: it posts the APs'
 * spins and returns at once, so the boot CPU can do other work (the
 * identity header) inside the window; then lost_end(), which spins the
 * boot CPU to the window's end, waits for the APs, times the round trips
 * and sets the threshold.  Nothing else may post work to the APs in
 * between.  quick spins for a shorter window (the quick profile's
 * boot-time budget). */
void lost_begin(bool quick);
void lost_end(void);

#endif
