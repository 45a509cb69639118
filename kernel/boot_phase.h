/* SPDX-License-Identifier: GPL-2.0-only */
/* Where the boot's time goes: kmain marks the end of each phase on the
 * TSC, and one diagnostic line gives each phase's share in ms once the
 * TSC rate is known (docs/log-format.md "Durations"). */
#ifndef RINGLAB_KERNEL_BOOT_PHASE_H
#define RINGLAB_KERNEL_BOOT_PHASE_H

/* The boot's start (kmain's first instruction that can read the TSC). */
void boot_phase_start(void);
/* The phase called `name` (a string literal) ends now. */
void boot_phase_end(const char *name);
/* "# boot: phases ms: total=T <name>=ms ..." from the start to the last
 * mark, converted with the calibrated TSC rate. */
void boot_phase_print(void);

#endif
