/* SPDX-License-Identifier: GPL-2.0-only */
/* Command-line parser host tests: formatting options back into a command
 * line (round trips, random and truncated) and random input. */
#include "tests/host/test_cmdline/cmdline_test.h"

/* ------------------------------------------------------- round trip --- */

static void rand_list(struct rng *r, char *dst, size_t max)
{
	static const char alpha[] = "abcdefghijklmnopqrstuvwxyz0123456789_-.";
	size_t n = 0, items = 1 + rng_below(r, 6);

	for (size_t i = 0; i < items && n + 12 < max; i++) {
		if (i)
			dst[n++] = ',';
		size_t len = 1 + rng_below(r, 10);

		for (size_t k = 0; k < len; k++)
			dst[n++] = alpha[rng_below(r, sizeof(alpha) - 1)];
	}
	dst[n] = '\0';
}

static const unsigned baud_divisors[] = { 115200, 57600, 38400, 28800, 23040, 19200,
					  14400 / 2, 9600, 4800, 3200, 2400, 1200, 600,
					  300, 150, 75, 50, 25, 10, 5, 3, 2, 1 };

static void rand_options(struct rng *r, struct options *x)
{
	static const uint16_t ports[] = { UART_COM1, UART_COM2, UART_COM3, UART_COM4,
					  0x100, 0xe000, 0xfff8, 0x3f8 };

	memset(x, 0, sizeof(*x));
	x->nconsoles = (unsigned)rng_below(r, CONSOLE_MAX_UARTS + 1);
	for (unsigned i = 0; i < x->nconsoles; i++) {
		bool taken;

		do {	/* a port named twice is one console: distinct ports */
			x->consoles[i].port = rng_below(r, 3) ? ports[rng_below(r, 8)] :
					      (uint16_t)(0x100 + rng_below(r, 0xfff8 - 0x100 + 1));
			taken = false;
			for (unsigned j = 0; j < i; j++)
				taken |= x->consoles[j].port == x->consoles[i].port;
		} while (taken);
		x->consoles[i].baud = baud_divisors[rng_below(r, sizeof(baud_divisors) /
								 sizeof(baud_divisors[0]))];
	}
	if (rng_below(r, 2))
		rand_list(r, x->tests, sizeof(x->tests));
	if (rng_below(r, 2))
		rand_list(r, x->skip, sizeof(x->skip));
	x->quick = rng_below(r, 2);
	x->verbose = rng_below(r, 2);
	x->nosmp = rng_below(r, 2);
	x->novga = rng_below(r, 2);
	x->nofb = rng_below(r, 2);
	if (rng_below(r, 2))
		x->iters = 1 + rng_below(r, 1000000000ull);
	if (rng_below(r, 2)) {
		x->seed_set = true;
		x->seed = rng_below(r, 4) ? rng_next(r) : rng_below(r, 3);
	}
	if (rng_below(r, 2))
		x->cpus = 1 + (uint32_t)rng_below(r, 1u << 20);
	if (rng_below(r, 2))
		x->timeout_s = 1 + (uint32_t)rng_below(r, 86400);
	if (rng_below(r, 2))
		x->ap_timeout_ms = 1 + (uint32_t)rng_below(r, 60000);
	x->exit_mode = (enum exit_mode)rng_below(r, 4);
	x->apic = (enum apic_pref)rng_below(r, 3);
	x->simulate = rng_below(r, 2) ? SIM_X2APIC_NOSTICK : 0;
	x->fbscale = (uint8_t)rng_below(r, FBCON_SCALE_MAX + 1);
	if (rng_below(r, 2))
		x->acpi_rsdp = 1 + rng_below(r, (1ull << 52) - 1);
}

void round_trip(const struct options *in)
{
	static char buf[8192];
	static struct options again;
	int n = cmdline_format(in, buf, sizeof(buf));

	assert_true(n > 0 || !in->nconsoles);
	assert_int_equal((size_t)n, strlen(buf));
	assert_true((size_t)n < sizeof(buf));
	unsigned e = parse_n(buf, (size_t)n);

	if (e) {
		dump_errors();
		fail_msg("canonical line \"%s\" gave %u errors", buf, e);
	}
	if (!options_equal(in, &o))
		fail_msg("round trip changed the options: \"%s\"", buf);
	/* formatting is canonical: formatting again gives the same text */
	static char buf2[8192 + 32];

	assert_int_equal(cmdline_format(&o, buf2, sizeof(buf2)), n);
	assert_string_equal(buf, buf2);
	/* and it is stable under a loader-style path in front */
	snprintf(buf2, sizeof(buf2), "/boot/ringlab.elf %s", buf);
	assert_int_equal(parse(buf2), 0);
	memcpy(&again, &o, sizeof(again));
	assert_true(options_equal(in, &again));
}

void test_format_round_trip(void **state)
{
	(void)state;
	static struct options x;

	/* defaults: an empty line */
	memset(&x, 0, sizeof(x));
	char b[64];

	assert_int_equal(cmdline_format(&x, b, sizeof(b)), 0);
	assert_string_equal(b, "");
	round_trip(&x);

	/* a parsed line, formatted canonically */
	parse("build/ringlab.elf quick console=ttyS0 console=ttyS1,9600 tests=boot "
	      "exit=qemu seed=0x10 apic=x2apic");
	assert_no_errors();
	memcpy(&x, &o, sizeof(x));
	static char fb[512];

	cmdline_format(&x, fb, sizeof(fb));
	assert_string_equal(fb, "console=io:0x3f8,115200 console=io:0x2f8,9600 tests=boot "
				"quick seed=16 exit=qemu apic=x2apic");
	round_trip(&x);

	parse("tests=a,b skip=c verbose nosmp novga iters=3 cpus=2 timeout=9 "
	      "ap_timeout=10 exit=halt apic=xapic simulate=x2apic-nostick exit=reboot");
	assert_no_errors();
	memcpy(&x, &o, sizeof(x));
	cmdline_format(&x, fb, sizeof(fb));
	assert_string_equal(fb, "tests=a,b skip=c verbose nosmp novga iters=3 cpus=2 "
				"timeout=9 ap_timeout=10 exit=reboot apic=xapic "
				"simulate=x2apic-nostick");
	round_trip(&x);

	/* maximal lists and four consoles */
	memset(&x, 0, sizeof(x));
	memset(x.tests, 't', CMDLINE_LIST_MAX - 1);
	memset(x.skip, 's', CMDLINE_LIST_MAX - 1);
	x.nconsoles = 4;
	for (int i = 0; i < 4; i++)
		x.consoles[i] = (struct console_spec){ (uint16_t)(0xfff8 - i), 1 };
	x.seed_set = true;
	x.seed = UINT64_MAX;
	x.iters = 1000000000ull;
	x.cpus = 1u << 20;
	round_trip(&x);

	/* options_equal sees every field */
	memset(&x, 0, sizeof(x));
	static struct options y;

	for (int f = 0; f < 19; f++) {
		memset(&y, 0, sizeof(y));
		switch (f) {
		case 0: y.nconsoles = 1; y.consoles[0] = (struct console_spec){ 0x3f8, 9600 }; break;
		case 1: y.tests[0] = 'a'; break;
		case 2: y.skip[0] = 'a'; break;
		case 3: y.quick = true; break;
		case 4: y.verbose = true; break;
		case 5: y.nosmp = true; break;
		case 6: y.novga = true; break;
		case 7: y.iters = 1; break;
		case 8: y.seed = 1; break;
		case 9: y.seed_set = true; break;
		case 10: y.cpus = 1; break;
		case 11: y.timeout_s = 1; break;
		case 12: y.ap_timeout_ms = 1; break;
		case 13: y.exit_mode = EXIT_HALT; break;
		case 14: y.apic = APIC_XAPIC; break;
		case 15: y.simulate = SIM_X2APIC_NOSTICK; break;
		case 16: y.nerrors = 3; y.errors[0][0] = 'x'; break;	/* errors excluded */
		case 17: y.nofb = true; break;
		case 18: y.fbscale = 2; break;
		}
		assert_true(options_equal(&x, &x));
		if (f == 16)
			assert_true(options_equal(&x, &y));
		else
			assert_false(options_equal(&x, &y));
	}
	/* same ports, different baud; same baud, different port */
	x.nconsoles = y.nconsoles = 1;
	x.consoles[0] = (struct console_spec){ 0x3f8, 9600 };
	memset(&y, 0, sizeof(y));
	y.nconsoles = 1;
	y.consoles[0] = (struct console_spec){ 0x3f8, 19200 };
	assert_false(options_equal(&x, &y));
	y.consoles[0] = (struct console_spec){ 0x2f8, 9600 };
	assert_false(options_equal(&x, &y));
}

void test_format_random_round_trip(void **state)
{
	(void)state;
	static struct options x;
	struct rng r;

	rng_seed(&r, 0xc0ffee);
	for (int t = 0; t < 3000; t++) {
		rand_options(&r, &x);
		round_trip(&x);
	}
}

void test_format_truncation(void **state)
{
	(void)state;
	static struct options x;
	static char full[4096], b[4096];

	parse("console=ttyS0 console=ttyS2,9600 tests=boot,cpu skip=tsc quick verbose "
	      "iters=77 seed=5 exit=halt simulate=x2apic-nostick");
	assert_no_errors();
	memcpy(&x, &o, sizeof(x));
	int n = cmdline_format(&x, full, sizeof(full));

	for (size_t size = 0; size <= (size_t)n + 1; size++) {
		memset(b, 0x5a, sizeof(b));
		assert_int_equal(cmdline_format(&x, size ? b : NULL, size), n);
		if (!size)
			continue;
		size_t len = strlen(b);

		assert_int_equal(len, size - 1 < (size_t)n ? size - 1 : (size_t)n);
		assert_memory_equal(b, full, len);
		for (size_t i = len + 1; i < sizeof(b); i++)
			assert_int_equal((unsigned char)b[i], 0x5a);
	}
}

/* Random junk: never crashes, invariants hold, error count is right. */
void test_fuzz(void **state)
{
	(void)state;
	static const char *const pieces[] = {
		"console=", "ttyS", "io:0x", "3f8", ",", "9600", "tests=", "skip=", "quick",
		"verbose", "nosmp", "novga", "nofb", "iters=", "seed=", "cpus=", "timeout=",
		"ap_timeout=", "exit=", "apic=", "simulate=", "x2apic-nostick", "qemu",
		"fbscale=", "auto",
		"halt", "=", " ", "\t", "0", "1", "99999999999999999999", "/boot/r.elf",
		"\x01", "\xff", "a", ".", "-", "_",
	};
	struct rng r;
	char line[600];

	rng_seed(&r, 77);
	for (int t = 0; t < 20000; t++) {
		size_t n = 0;
		size_t k = rng_below(&r, 40);

		for (size_t i = 0; i < k; i++) {
			const char *p = pieces[rng_below(&r, sizeof(pieces) / sizeof(pieces[0]))];
			size_t pl = strlen(p);

			if (n + pl >= sizeof(line))
				break;
			memcpy(line + n, p, pl);
			n += pl;
		}
		parse_n(line, n);	/* invariants checked inside */
		/* whatever was accepted formats and parses back identically */
		static struct options x;

		memcpy(&x, &o, sizeof(x));
		x.nerrors = 0;
		x.nerrors_dropped = 0;
		round_trip(&x);
	}
}
