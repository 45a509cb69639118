/* libFuzzer harness: tools/logcheck_lib.c, the parser every host tool and
 * CI job feeds ringlab logs through; also the metric-line grammar. */
#include <stddef.h>
#include <stdint.h>

#include "tools/logcheck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct logcheck_result r;
	static const char *const req[] = { "tsc_order.now.lfence_rdtsc" };
	struct logcheck_opts o = { "pass", 1, 3, req, 1 };
	char err[128];

	logcheck_buffer((const char *)data, size, &r);
	if (r.nerrors && r.errors[0][0] == '\0' && r.nerrors <= LOGCHECK_MAX_ERRORS)
		__builtin_trap();	/* an error without a message */
	logcheck_buffer_opts((const char *)data, size, &o, &r);
	logcheck_metric_line((const char *)data, size, err, sizeof(err));
	return 0;
}
