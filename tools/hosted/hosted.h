/* SPDX-License-Identifier: GPL-2.0-only */
/* ringlab-hosted internals shared by its files. */
#ifndef RINGLAB_TOOLS_HOSTED_H
#define RINGLAB_TOOLS_HOSTED_H

#include <stdbool.h>
#include <stddef.h>

/* Start one pinned thread per allowed CPU (at most limit, 0 = all) and
 * calibrate the TSC.  Returns the CPU count; 0 with err on failure. */
unsigned hosted_platform_init(bool quick, unsigned limit, char *err, size_t errsz);

/* Brackets around code that holds a lock or is inside libc (stdio,
 * malloc): a timeout or abort signal arriving there is held back until the
 * bracket closes, because jumping out would leave the lock held. */
void hosted_unsafe_enter(void);
void hosted_unsafe_leave(void);

struct options;
/* The parsed arguments plat_options() returns (main.c's). */
void hosted_set_options(const struct options *o);

#endif
