/* ringlab-hosted internals shared by its files. */
#ifndef RINGLAB_TOOLS_HOSTED_H
#define RINGLAB_TOOLS_HOSTED_H

#include <stdbool.h>
#include <stddef.h>

/* Start one pinned thread per allowed CPU (at most limit, 0 = all) and
 * calibrate the TSC.  Returns the CPU count; 0 with err on failure. */
unsigned hosted_platform_init(bool quick, unsigned limit, char *err, size_t errsz);

#endif
