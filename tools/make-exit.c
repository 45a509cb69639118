/* SPDX-License-Identifier: GPL-2.0-only */
/* make-exit: a function for GNU make, loaded with its `load` directive
 * (GNU make manual, "Loading Dynamic Objects"), so that `make run` ends
 * with the run's exit status (docs/usage.md, "Exit status").  make itself
 * only exits 0, 1 (-q) or 2, whatever status a recipe failed with; the
 * Makefile's run targets record the status of tools/run-qemu.sh and
 * expand $(ringlab-exit N) in a later recipe, which ends make with status
 * N (nothing happens for 0).  Built and loaded only for those goals. */
#include <gnumake.h>

#include <stdio.h>
#include <stdlib.h>

int plugin_is_GPL_compatible;

static char *ringlab_exit(const char *name, unsigned int argc, char **argv)
{
	const char *p = argv[0];
	int n = 0;

	(void)name;
	(void)argc;
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	for (; *p >= '0' && *p <= '9' && n < 256; p++)
		n = n * 10 + (*p - '0');
	if (n > 0 && n < 256) {
		/* the run's own output is already out; nothing of make's
		 * is pending (its recipes are done) */
		fflush(stdout);
		fflush(stderr);
		exit(n);
	}
	return NULL;
}

int ringlab_exit_gmk_setup(const gmk_floc *floc)
{
	(void)floc;
	gmk_add_function("ringlab-exit", ringlab_exit, 1, 1, GMK_FUNC_DEFAULT);
	return 1;
}
