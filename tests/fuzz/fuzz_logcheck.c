/* SPDX-License-Identifier: GPL-2.0-only */
/* libFuzzer harness: tools/liblogcheck/liblogcheck.c, the parser every host tool and
 * CI job feeds ringlab logs through; also the metric-line grammar. */
#include <stddef.h>
#include <stdint.h>

#include "tools/liblogcheck/liblogcheck.h"

/* Touch every slice of every event, so ASan sees any that points outside
 * the input (the JSON export, tools/logcheck_json.c, reads them all). */
static void on_event(const struct logcheck_event *ev, void *arg)
{
	const struct slice *s[] = { &ev->text, &ev->name, &ev->key, &ev->value, &ev->fields,
				    &ev->suite, &ev->from, &ev->control, &ev->env };
	unsigned long *sum = arg;

	*sum += ev->duration_ns;

	for (unsigned i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		for (size_t k = 0; k < s[i]->n; k++)
			*sum += (unsigned char)s[i]->p[k];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct logcheck_result r;
	static const char *const req[] = { "tsc_order.now.lfence_rdtsc" };
	static unsigned long sum;
	struct logcheck_opts o = {
		.on_event = on_event, .event_arg = &sum, .expect_status = "pass",
		.qemu_exit = 1, .min_cases = 3, .require_metrics = req, .nrequire = 1,
		.require_answers = true,
	};
	char err[128];

	logcheck_buffer((const char *)data, size, &r);
	if (r.nerrors && r.errors[0][0] == '\0' && r.nerrors <= LOGCHECK_MAX_ERRORS)
		__builtin_trap();	/* an error without a message */
	logcheck_buffer_opts((const char *)data, size, &o, &r);
	logcheck_metric_line((const char *)data, size, err, sizeof(err));
	/* the duration_ms= number of `# time:` lines: bounded, 12+6 digits */
	uint64_t ns;

	if (logcheck_parse_ms((const char *)data, size, &ns) && ns > 999999999999999999ull)
		__builtin_trap();
	return 0;
}
