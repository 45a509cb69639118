/* SPDX-License-Identifier: GPL-2.0-only */
/* Text parsing helpers; see parse.h. */
#include "lib/parse.h"
#include "lib/string.h"

bool parse_u64(struct slice s, uint64_t *out)
{
	unsigned base = 10;
	uint64_t v = 0;
	size_t i = 0;

	if (s.n >= 2 && s.p[0] == '0' && (s.p[1] == 'x' || s.p[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == s.n)
		return false;
	for (; i < s.n; i++) {
		char c = s.p[i];
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return false;
		if (v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	*out = v;
	return true;
}

static bool is_sep(char c, const char *seps)
{
	for (; *seps; seps++)
		if (c == *seps)
			return true;
	return false;
}

bool slice_next(struct slice *rest, const char *seps, struct slice *tok)
{
	size_t i = 0;

	while (i < rest->n && is_sep(rest->p[i], seps))
		i++;
	if (i == rest->n) {
		rest->p += i;
		rest->n = 0;
		return false;
	}
	size_t start = i;

	while (i < rest->n && !is_sep(rest->p[i], seps))
		i++;
	*tok = slice_of(rest->p + start, i - start);
	rest->p += i;
	rest->n -= i;
	return true;
}

bool slice_split(struct slice s, char c, struct slice *head, struct slice *tail)
{
	for (size_t i = 0; i < s.n; i++) {
		if (s.p[i] == c) {
			*head = slice_of(s.p, i);
			*tail = slice_of(s.p + i + 1, s.n - i - 1);
			return true;
		}
	}
	*head = s;
	*tail = slice_of(s.p + s.n, 0);
	return false;
}

bool slice_eq(struct slice s, const char *word)
{
	return str_eq_n(s.p, s.n, word);
}

struct slice slice_cstr(const char *s)
{
	return slice_of(s, strlen(s));
}
