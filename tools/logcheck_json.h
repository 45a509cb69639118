/* SPDX-License-Identifier: GPL-2.0-only */
/* `logcheck --json`: the verdict and the checker's event stream as JSON,
 * the one machine-readable form of a parsed log (tools/ringlab-report reads
 * it).  Host-only. */
#ifndef RINGLAB_TOOLS_LOGCHECK_JSON_H
#define RINGLAB_TOOLS_LOGCHECK_JSON_H

#include <stdio.h>

#include "tools/liblogcheck/liblogcheck.h"

/* Checks text like logcheck_buffer_opts() (o's event hook is taken over)
 * and writes the JSON document to f.  Returns logcheck_buffer_opts()'s
 * value. */
int logcheck_json(FILE *f, const char *text, size_t len, struct logcheck_opts *o,
		  struct logcheck_result *r);

#endif
