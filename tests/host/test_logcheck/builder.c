/* SPDX-License-Identifier: GPL-2.0-only */
/* Log checker unit tests: the in-memory log builder and the wrappers that
 * run logcheck on it. */
#include "tests/host/test_logcheck/logcheck_test.h"

void lb_init(struct logbuf *b, const char *eol)
{
	b->cap = 1 << 12;
	b->p = malloc(b->cap);
	assert_non_null(b->p);
	b->n = 0;
	b->eol = eol;
	b->lines = 0;
	b->crc = 0;
}

void lb_free(struct logbuf *b)
{
	free(b->p);
	b->p = NULL;
}

void lb_raw(struct logbuf *b, const void *data, size_t n)
{
	while (b->n + n > b->cap) {
		b->cap *= 2;
		b->p = realloc(b->p, b->cap);
		assert_non_null(b->p);
	}
	memcpy(b->p + b->n, data, n);
	b->n += n;
}

/* One log line: a start line resets the integrity count, as the checker
 * judges the last run. */
void lb_line(struct logbuf *b, const char *line)
{
	size_t n = strlen(line);

	if (strcmp(line, "KTAP version 1") == 0) {
		b->lines = 0;
		b->crc = 0;
	}
	lb_raw(b, line, n);
	lb_raw(b, b->eol, strlen(b->eol));
	b->crc = crc32_update(b->crc, line, n);
	b->crc = crc32_update(b->crc, "\n", 1);
	b->lines++;
}

void lb_lines(struct logbuf *b, const char *const *lines)
{
	for (; *lines; lines++)
		lb_line(b, *lines);
}

void lb_seal(struct logbuf *b)
{
	char line[80];

	rl_snprintf(line, sizeof(line), "# integrity: lines=%zu crc32=%08x",
		    b->lines, (unsigned)b->crc);
	lb_raw(b, line, strlen(line));
	lb_raw(b, b->eol, strlen(b->eol));
}

/* Replace the first occurrence of `from` by `to` in the built text (after
 * sealing, so the integrity line no longer matches unless the edit is in
 * it). */
void lb_edit(struct logbuf *b, const char *from, const char *to)
{
	size_t fl = strlen(from), tl = strlen(to);
	char *hit = NULL;

	for (size_t i = 0; i + fl <= b->n; i++)
		if (memcmp(b->p + i, from, fl) == 0) {
			hit = b->p + i;
			break;
		}
	assert_non_null(hit);
	size_t off = (size_t)(hit - b->p), tail = b->n - off - fl;

	while (b->n + tl > b->cap) {
		b->cap *= 2;
		b->p = realloc(b->p, b->cap);
		assert_non_null(b->p);
	}
	memmove(b->p + off + tl, b->p + off + fl, tail);
	memcpy(b->p + off, to, tl);
	b->n = b->n - fl + tl;
}

struct logcheck_result R;

int check_opts(struct logbuf *b, const struct logcheck_opts *o)
{
	return logcheck_buffer_opts(b->p, b->n, o, &R);
}

int check(struct logbuf *b)
{
	return check_opts(b, NULL);
}

/* Build, seal and check a log from lines. */
int check_lines(const char *const *lines)
{
	struct logbuf b;

	lb_init(&b, "\n");
	lb_lines(&b, lines);
	lb_seal(&b);
	int rc = check(&b);

	lb_free(&b);
	return rc;
}

void dump_errors(void)
{
	size_t n = R.nerrors < LOGCHECK_MAX_ERRORS ? R.nerrors : LOGCHECK_MAX_ERRORS;

	for (size_t i = 0; i < n; i++)
		print_message("  error: %s\n", R.errors[i]);
	for (size_t i = 0; i < R.nnotes; i++)
		print_message("  %s: %s\n", R.notes[i].warning ? "warning" : "note",
			      R.notes[i].text);
}

bool has_note(bool warning, const char *sub)
{
	for (size_t i = 0; i < R.nnotes; i++)
		if (R.notes[i].warning == warning && strstr(R.notes[i].text, sub))
			return true;
	return false;
}

bool has_error(const char *sub)
{
	size_t n = R.nerrors < LOGCHECK_MAX_ERRORS ? R.nerrors : LOGCHECK_MAX_ERRORS;

	for (size_t i = 0; i < n; i++)
		if (strstr(R.errors[i], sub))
			return true;
	return false;
}
