/* SPDX-License-Identifier: GPL-2.0-only */
/* Text parsing helpers for the command line and for host tools.  All work
 * on (pointer, length) slices so nothing needs NUL-terminated copies. */
#ifndef RINGLAB_LIB_PARSE_H
#define RINGLAB_LIB_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct slice {
	const char *p;
	size_t n;
};

/* Decimal, or hex with a 0x/0X prefix.  The whole slice must be digits;
 * overflow of 64 bits is an error.  Returns true on success. */
bool parse_u64(struct slice s, uint64_t *out);

/* Take the next token separated by any of the characters in `seps` from
 * *rest; returns false when nothing is left.  Empty tokens between
 * consecutive separators are skipped. */
bool slice_next(struct slice *rest, const char *seps, struct slice *tok);

/* Split s at the first occurrence of c: head before, tail after.  Returns
 * false (head = s, tail empty) when c does not occur. */
bool slice_split(struct slice s, char c, struct slice *head, struct slice *tail);

static inline struct slice slice_of(const char *p, size_t n)
{
	return (struct slice){ p, n };
}

bool slice_eq(struct slice s, const char *word);
struct slice slice_cstr(const char *s);

#endif
