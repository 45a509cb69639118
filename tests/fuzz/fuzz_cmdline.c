/* SPDX-License-Identifier: GPL-2.0-only */
/* libFuzzer harness: kernel/cmdline.c.  Parse, then check the canonical
 * form parses back to the same options (cmdline.h's promise). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel/cmdline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct options a, b;
	static char canon[8192];

	cmdline_parse((const char *)data, size, &a);
	int n = cmdline_format(&a, canon, sizeof(canon));

	if (n < 0 || (size_t)n >= sizeof(canon))
		return 0;
	cmdline_parse(canon, sizeof(canon), &b);
	if (!options_equal(&a, &b))
		__builtin_trap();
	return 0;
}
