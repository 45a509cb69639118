/* SPDX-License-Identifier: GPL-2.0-only */
/* Command-line parser host tests: the parse wrappers (exact-size copies,
 * no NUL), the invariants every parse must keep and the defaults. */
#include "tests/host/test_cmdline/cmdline_test.h"

struct options o;	/* ~3 KiB: a global, not on the stack */

/* What must hold whatever the input was. */
static void check_invariants(const struct options *x)
{
	assert_true(x->nconsoles <= CONSOLE_MAX_UARTS);
	assert_true(x->nerrors <= CMDLINE_MAX_ERRORS);
	assert_true(strnlen(x->tests, CMDLINE_LIST_MAX) < CMDLINE_LIST_MAX);
	assert_true(strnlen(x->skip, CMDLINE_LIST_MAX) < CMDLINE_LIST_MAX);
	for (unsigned i = 0; i < x->nerrors; i++) {
		size_t n = strnlen(x->errors[i], CMDLINE_ERROR_LEN);

		assert_true(n > 0 && n < CMDLINE_ERROR_LEN);
		assert_memory_equal(x->errors[i], "cmdline: ", 9);
		for (size_t k = 0; k < n; k++)
			if (x->errors[i][k] < 0x20 || x->errors[i][k] >= 0x7f)
				fail_msg("error %u has byte 0x%02x at %zu: %s", i,
					 (unsigned char)x->errors[i][k], k, x->errors[i]);
	}
	for (unsigned i = 0; i < x->nconsoles; i++) {
		assert_true(x->consoles[i].port >= 0x100 && x->consoles[i].port <= 0xfff8);
		assert_true(x->consoles[i].baud >= 1 && x->consoles[i].baud <= UART_BASE_BAUD);
		assert_int_equal(UART_BASE_BAUD % x->consoles[i].baud, 0);
	}
	assert_true(x->exit_mode <= EXIT_REBOOT);
	assert_true(x->apic <= APIC_X2APIC);
	assert_int_equal(x->simulate & ~(SIM_X2APIC_NOSTICK | SIM_AP_NOSTART | SIM_AP_ALIAS | SIM_AP_LATE), 0);
	assert_true(x->smpboot <= SMPBOOT_SERIAL);
}

/* Parse n bytes of text from an exact-size, unterminated heap copy. */
unsigned parse_n(const char *text, size_t n)
{
	char *copy = malloc(n ? n : 1);

	assert_non_null(copy);
	memcpy(copy, text, n);
	memset(&o, 0xa5, sizeof(o));	/* parse must reset everything */
	unsigned r = cmdline_parse(copy, n, &o);

	free(copy);
	check_invariants(&o);
	assert_int_equal(r, o.nerrors + o.nerrors_dropped);
	return r;
}

unsigned parse(const char *text)
{
	return parse_n(text, strlen(text));
}

bool has_error(const char *needle)
{
	for (unsigned i = 0; i < o.nerrors; i++)
		if (strstr(o.errors[i], needle))
			return true;
	return false;
}

void dump_errors(void)
{
	for (unsigned i = 0; i < o.nerrors; i++)
		print_message("  errors[%u] = %s\n", i, o.errors[i]);
}

void assert_defaults(const struct options *x)
{
	assert_int_equal(x->nconsoles, 0);
	assert_string_equal(x->tests, "");
	assert_string_equal(x->skip, "");
	assert_false(x->quick);
	assert_false(x->verbose);
	assert_false(x->nosmp);
	assert_false(x->novga);
	assert_int_equal(x->iters, 0);
	assert_int_equal(x->seed, 0);
	assert_false(x->seed_set);
	assert_int_equal(x->cpus, 0);
	assert_int_equal(x->timeout_s, 0);
	assert_int_equal(x->ap_timeout_ms, 0);
	assert_int_equal(x->exit_mode, EXIT_DEFAULT);
	assert_int_equal(x->apic, APIC_AUTO);
	assert_int_equal(x->simulate, 0);
	assert_int_equal(x->acpi_rsdp, 0);
}
