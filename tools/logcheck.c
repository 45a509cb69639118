/* SPDX-License-Identifier: GPL-2.0-only */
/* logcheck: check a ringlab log (docs/log-format.md) and the caller's
 * expectations of it.  Exit 0 when all is well (one summary line on
 * stdout), 1 when the log or an expectation fails (each problem on stderr),
 * 2 for a usage error, 126 for an unreadable file; with --exit-status the
 * run's status instead (docs/usage.md, "Exit status").  The checking itself is in
 * tools/liblogcheck/liblogcheck.c so the unit tests can drive it. */
#include "tools/liblogcheck/liblogcheck.h"
#include "tools/logcheck_json.h"
#include "lib/parse.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_text[] =
	"Usage: logcheck [--expect-status pass|fail|config-error|panic] [--qemu-exit N]\n"
	"                [--require-metric NAME]... [--min-cases N] [--require-answers]\n"
	"                [--all-runs] [--exit-status] [--quiet] [--json] LOGFILE\n"
	"       logcheck --help | --version\n"
	"\n"
	"Check a ringlab serial log (docs/log-format.md): its structure, counts, exit\n"
	"line and integrity line, and the caller's expectations of it.  LOGFILE '-'\n"
	"reads standard input.\n"
	"\n"
	"  --expect-status S   the exit line must say status=S\n"
	"  --qemu-exit N       QEMU's exit status must be the exit line's code*2+1\n"
	"  --require-metric M  a '# metric M' line must be present (repeatable)\n"
	"  --min-cases N       at least N case results\n"
	"  --require-answers   a log without the answers block ('# answers:') fails\n"
	"  --all-runs          a file with several runs is judged by its last complete\n"
	"                      run; a warning names the others that did not pass, and\n"
	"                      --all-runs makes them errors\n"
	"  --exit-status       exit with the run's status (below) instead of 0/1\n"
	"  --json              write the verdict and every line of the judged run, as\n"
	"                      parsed, as JSON on stdout (docs/log-format.md)\n"
	"  --quiet             no summary line and no notes (warnings are still printed)\n"
	"\n"
	"Exit status: 0 the log is valid and every expectation met (one summary line\n"
	"on stdout); 1 it is not (each problem on stderr); 2 a usage error; 126 the\n"
	"file cannot be read.  With --exit-status: 0 pass, 1 fail, 2 config-error,\n"
	"3 panic, 4 skip (every case skipped), 125 the log is broken or incomplete or\n"
	"an expectation failed (docs/usage.md, \"Exit status\").\n";

static void usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "logcheck: error: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (see logcheck --help)\n");
	exit(2);
}

/* The version of the tree this logcheck was built in: build/version.txt
 * beside the binary (the Makefile writes it), or VERSION one level up in
 * a release (tools/make-dist.sh), as every host tool looks it up. */
static void print_version(void)
{
	static const char *const names[] = { "version.txt", "../VERSION" };
	char exe[4096], path[4200], ver[128] = "unknown";
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');

		if (slash)
			*slash = '\0';
		for (size_t i = 0; i < 2; i++) {
			snprintf(path, sizeof(path), "%s/%s", exe, names[i]);
			FILE *f = fopen(path, "r");

			if (!f)
				continue;
			bool got = fgets(ver, sizeof(ver), f) != NULL;

			fclose(f);
			ver[strcspn(ver, "\r\n")] = '\0';
			if (got && ver[0])
				break;
			strcpy(ver, "unknown");
		}
	}
	printf("logcheck (ringlab) %s\n", ver);
	exit(0);
}

static long parse_count(const char *opt, const char *arg)
{
	uint64_t v;

	if (!parse_u64(slice_cstr(arg), &v) || v > LONG_MAX)
		usage_error("bad number for %s", opt);
	return (long)v;
}

/* The whole input in memory: the checker needs two passes and slices into
 * it; logs are megabytes at most, and reading stdin leaves no choice. */
static char *read_all(FILE *f, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);

	if (!buf)
		return NULL;
	for (;;) {
		if (n == cap) {
			char *nb = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
		size_t got = fread(buf + n, 1, cap - n, f);

		n += got;
		if (got == 0) {
			if (ferror(f)) {
				free(buf);
				return NULL;
			}
			break;
		}
	}
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	static const char *const statuses[] = { "pass", "fail", "config-error", "panic" };
	struct logcheck_opts o = { .qemu_exit = -1, .min_cases = -1 };
	const char **req = calloc((size_t)argc, sizeof(*req));
	const char *path = NULL;
	bool quiet = false, no_more_opts = false, json = false, exit_status = false;

	if (!req)
		return 126;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = NULL;
		char name[32];

		if (no_more_opts || a[0] != '-' || strcmp(a, "-") == 0) {
			if (path)
				usage_error("more than one LOGFILE ('%s')", a);
			path = a;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			no_more_opts = true;
			continue;
		}
		if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
			quiet = true;
			continue;
		}
		if (strcmp(a, "--require-answers") == 0) {
			o.require_answers = true;
			continue;
		}
		if (strcmp(a, "--json") == 0) {
			json = true;
			continue;
		}
		if (strcmp(a, "--all-runs") == 0) {
			o.all_runs = true;
			continue;
		}
		if (strcmp(a, "--exit-status") == 0) {
			exit_status = true;
			continue;
		}
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(usage_text, stdout);
			return 0;
		}
		if (strcmp(a, "--version") == 0)
			print_version();
		/* Options with a value: `--opt VALUE` or `--opt=VALUE`. */
		const char *eq = strchr(a, '=');
		size_t nl = eq ? (size_t)(eq - a) : strlen(a);

		if (nl >= sizeof(name))
			usage_error("unknown option '%s'", a);
		memcpy(name, a, nl);
		name[nl] = '\0';
		if (strcmp(name, "--expect-status") && strcmp(name, "--qemu-exit") &&
		    strcmp(name, "--require-metric") && strcmp(name, "--min-cases"))
			usage_error("unknown option '%s'", a);
		if (eq)
			val = eq + 1;
		else if (i + 1 < argc)
			val = argv[++i];
		else
			usage_error("%s needs a value", name);

		if (strcmp(name, "--expect-status") == 0) {
			bool ok = false;

			for (size_t k = 0; k < 4; k++)
				ok |= strcmp(val, statuses[k]) == 0;
			if (!ok)
				usage_error("--expect-status must be pass, fail, config-error or panic, not '%s'",
					    val);
			o.expect_status = val;
		} else if (strcmp(name, "--qemu-exit") == 0) {
			o.qemu_exit = parse_count(name, val);
		} else if (strcmp(name, "--min-cases") == 0) {
			o.min_cases = parse_count(name, val);
		} else {
			if (!*val)
				usage_error("%s needs a non-empty name", name);
			req[o.nrequire++] = val;
		}
	}
	if (!path)
		usage_error("%s", "no LOGFILE given");
	o.require_metrics = req;

	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	size_t len = 0;
	char *text = f ? read_all(f, &len) : NULL;

	if (!text) {
		fprintf(stderr, "logcheck: error: cannot read %s: %s\n",
			strcmp(path, "-") == 0 ? "standard input" : path, strerror(errno));
		return 126;
	}
	if (f != stdin)
		fclose(f);

	/* About 13 KiB: keep it off the stack. */
	struct logcheck_result *r = malloc(sizeof(*r));

	if (!r) {
		fprintf(stderr, "logcheck: error: out of memory\n");
		return 126;
	}
	int bad = json ? logcheck_json(stdout, text, len, &o, r)
		       : logcheck_buffer_opts(text, len, &o, r);

	/* Notes and warnings (several runs, output after the integrity line)
	 * are facts about the file, not errors; the JSON carries them too. */
	for (size_t i = 0; i < r->nnotes; i++)
		if (r->notes[i].warning || !quiet)
			fprintf(stderr, "logcheck: %s: %s\n", r->notes[i].warning ? "warning" : "note",
				r->notes[i].text);
	if (bad) {
		size_t shown = r->nerrors < LOGCHECK_MAX_ERRORS ? r->nerrors : LOGCHECK_MAX_ERRORS;

		for (size_t i = 0; i < shown; i++)
			fprintf(stderr, "logcheck: error: %s\n", r->errors[i]);
		if (r->nerrors > shown)
			fprintf(stderr, "logcheck: error: ... and %zu more errors\n",
				r->nerrors - shown);
	} else if (!quiet && !json) {
		printf("logcheck: ok: %zu cases (%zu passed, %zu failed, %zu skipped) in %zu suites, "
		       "%zu metrics, integrity ok (%zu lines, crc32 %08x), status=%s",
		       r->cases, r->passed, r->failed, r->skipped, r->suites, r->metrics,
		       r->lines_computed, (unsigned)r->crc_computed, r->status);
		if (r->runs > 1)
			printf(" (run %zu of %zu in the file)", r->judged, r->runs);
		printf("\n");
	}
	int rc = exit_status ? logcheck_exit_code(r) : bad ? 1 : 0;

	free(r);
	free(text);
	free(req);
	return rc;
}
