/* SPDX-License-Identifier: GPL-2.0-only */
/* Command-line parser host tests: defaults, every option, the kernel path
 * token, unknown options, numeric ranges and console= forms. */
#include "tests/host/test_cmdline/cmdline_test.h"


void test_empty_and_defaults(void **state)
{
	(void)state;
	assert_int_equal(parse(""), 0);
	assert_no_errors();
	assert_defaults(&o);
	assert_int_equal(parse("   \t \r\n  "), 0);
	assert_defaults(&o);
	/* explicit length 0 on non-empty text */
	assert_int_equal(parse_n("quick", 0), 0);
	assert_defaults(&o);
}

void test_every_option(void **state)
{
	(void)state;
	assert_int_equal(parse("console=ttyS1,57600 tests=boot,cpu.cpuid skip=tsc.drift "
			       "quick verbose nosmp novga iters=1000 seed=0xdeadbeef cpus=3 "
			       "timeout=60 ap_timeout=250 exit=halt apic=x2apic "
			       "simulate=x2apic-nostick"), 0);
	assert_no_errors();
	assert_int_equal(o.nconsoles, 1);
	assert_int_equal(o.consoles[0].port, UART_COM2);
	assert_int_equal(o.consoles[0].baud, 57600);
	assert_string_equal(o.tests, "boot,cpu.cpuid");
	assert_string_equal(o.skip, "tsc.drift");
	assert_true(o.quick);
	assert_true(o.verbose);
	assert_true(o.nosmp);
	assert_true(o.novga);
	assert_int_equal(o.iters, 1000);
	assert_int_equal(o.seed, 0xdeadbeef);
	assert_true(o.seed_set);
	assert_int_equal(o.cpus, 3);
	assert_int_equal(o.timeout_s, 60);
	assert_int_equal(o.ap_timeout_ms, 250);
	assert_int_equal(o.exit_mode, EXIT_HALT);
	assert_int_equal(o.apic, APIC_X2APIC);
	assert_int_equal(o.simulate, SIM_X2APIC_NOSTICK);

	/* each flag alone sets only itself */
	parse("quick");
	assert_true(o.quick);
	assert_false(o.verbose || o.nosmp || o.novga);
	parse("verbose");
	assert_true(o.verbose);
	assert_false(o.quick || o.nosmp || o.novga);
	parse("nosmp");
	assert_true(o.nosmp);
	assert_false(o.quick || o.verbose || o.novga);
	parse("novga");
	assert_true(o.novga);
	assert_false(o.quick || o.verbose || o.nosmp);

	/* other separators: tabs, CR/LF (a GRUB config edited on Windows) */
	assert_int_equal(parse("quick\tverbose\r\nnosmp\n"), 0);
	assert_true(o.quick && o.verbose && o.nosmp);

	/* seed=0 is a seed, not "unset" */
	parse("seed=0");
	assert_no_errors();
	assert_true(o.seed_set);
	assert_int_equal(o.seed, 0);
	/* last value wins for numbers and enums */
	parse("iters=5 iters=7 exit=qemu exit=reboot apic=xapic apic=auto");
	assert_no_errors();
	assert_int_equal(o.iters, 7);
	assert_int_equal(o.exit_mode, EXIT_REBOOT);
	assert_int_equal(o.apic, APIC_AUTO);
}

void test_path_first_token_skipped(void **state)
{
	(void)state;
	/* QEMU -kernel passes the kernel path first */
	assert_int_equal(parse("build/ringlab.elf quick"), 0);
	assert_true(o.quick);
	/* GRUB: "multiboot2 /boot/ringlab.elf ..." */
	assert_int_equal(parse("/boot/ringlab.elf verbose tests=boot"), 0);
	assert_true(o.verbose);
	assert_string_equal(o.tests, "boot");
	assert_int_equal(parse("/boot/ringlab"), 0);
	assert_defaults(&o);
	assert_int_equal(parse("ringlab.elf"), 0);
	assert_defaults(&o);
	/* leading blanks before the path */
	assert_int_equal(parse("   build/ringlab.elf  nosmp"), 0);
	assert_true(o.nosmp);

	/* a path anywhere else is an error, and only the first is skipped */
	assert_int_equal(parse("quick build/ringlab.elf"), 1);
	assert_one_error("unknown option 'build/ringlab.elf'");
	assert_true(o.quick);
	assert_int_equal(parse("/boot/ringlab.elf /boot/ringlab.elf"), 1);
	assert_one_error("unknown option '/boot/ringlab.elf'");
	/* a first token with '=' is an option even if it mentions .elf */
	assert_int_equal(parse("tests=x.elf"), 0);
	assert_string_equal(o.tests, "x.elf");
	assert_int_equal(parse("iters=1.elf"), 1);
	assert_one_error("iters='1.elf' is not valid");
	/* a non-path first token is parsed as an option */
	assert_int_equal(parse("bogus quick"), 1);
	assert_one_error("unknown option 'bogus'");
	assert_true(o.quick);
}

void test_unknown_option(void **state)
{
	(void)state;
	char want[CMDLINE_ERROR_LEN];

	assert_int_equal(parse("quick frobnicate verbose"), 1);
	snprintf(want, sizeof(want), "cmdline: unknown option 'frobnicate' (valid: %s)",
		 cmdline_valid_options);
	assert_string_equal(o.errors[0], want);
	assert_true(o.quick && o.verbose);	/* the rest is still parsed */

	assert_int_equal(parse("colour=red"), 1);
	snprintf(want, sizeof(want), "cmdline: unknown option 'colour=red' (valid: %s)",
		 cmdline_valid_options);
	assert_string_equal(o.errors[0], want);

	/* the valid list names every option */
	const char *names[] = { "console=", "tests=", "skip=", "quick", "verbose", "nosmp",
				"novga", "nofb", "iters=", "seed=", "cpus=", "timeout=",
				"ap_timeout=", "exit=", "apic=", "simulate=", "smpboot=",
				"fbscale=", "acpi_rsdp=" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_non_null(strstr(cmdline_valid_options, names[i]));

	/* case matters; prefixes and near-misses are unknown */
	parse("QUICK");
	assert_one_error("unknown option 'QUICK'");
	parse("quic");
	assert_one_error("unknown option 'quic'");
	parse("quickly");
	assert_one_error("unknown option 'quickly'");
	parse("=5");
	assert_one_error("unknown option '=5'");
	parse("Iters=5");
	assert_one_error("unknown option 'Iters=5'");
	assert_int_equal(o.iters, 0);
	/* a very long unknown option is echoed truncated, still one line */
	char lng[400];

	memset(lng, 'z', sizeof(lng) - 1);
	lng[sizeof(lng) - 1] = '\0';
	parse(lng);
	assert_one_error("unknown option 'zzzz", "(valid: console=");
}

void test_numeric_ranges(void **state)
{
	(void)state;
	static const struct {
		const char *key;
		uint64_t lo, hi;
	} opts[] = {
		{ "iters", 1, 1000000000ull },
		{ "cpus", 1, 1u << 20 },
		{ "timeout", 1, 86400 },
		{ "ap_timeout", 1, 60000 },
		{ "seed", 0, UINT64_MAX },
	};
	char line[128], frag[128];

	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		const char *k = opts[i].key;
		uint64_t lo = opts[i].lo, hi = opts[i].hi;

		/* both limits accepted, decimal and hex */
		snprintf(line, sizeof(line), "%s=%llu", k, (unsigned long long)lo);
		assert_int_equal(parse(line), 0);
		snprintf(line, sizeof(line), "%s=%llu", k, (unsigned long long)hi);
		assert_int_equal(parse(line), 0);
		snprintf(line, sizeof(line), "%s=0x%llx", k, (unsigned long long)hi);
		assert_int_equal(parse(line), 0);
		uint64_t got = !strcmp(k, "iters") ? o.iters : !strcmp(k, "cpus") ? o.cpus :
			       !strcmp(k, "timeout") ? o.timeout_s :
			       !strcmp(k, "ap_timeout") ? o.ap_timeout_ms : o.seed;

		assert_int_equal(got, hi);

		snprintf(frag, sizeof(frag), "expected a number %llu..%llu",
			 (unsigned long long)lo, (unsigned long long)hi);
		/* just outside the limits */
		if (lo > 0) {
			snprintf(line, sizeof(line), "%s=%llu", k, (unsigned long long)lo - 1);
			assert_int_equal(parse(line), 1);
			assert_one_error(frag);
			snprintf(line, sizeof(line), "cmdline: %s='%llu' is not valid", k,
				 (unsigned long long)lo - 1);
			assert_error(line);
		}
		if (hi < UINT64_MAX) {
			snprintf(line, sizeof(line), "%s=%llu", k, (unsigned long long)hi + 1);
			assert_int_equal(parse(line), 1);
			assert_one_error(frag);
		}
		/* garbage, empty, overflow, signs, blanks inside */
		const char *bad[] = { "", "abc", "12x", "-1", "+5", "0x", "1.5",
				      "18446744073709551616", "0x1g", "1,2" };

		for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
			snprintf(line, sizeof(line), "%s=%s", k, bad[b]);
			assert_int_equal(parse(line), 1);
			assert_one_error(frag);
			snprintf(line, sizeof(line), "%s='%s' is not valid", k, bad[b]);
			assert_error(line);
		}
		/* a rejected value leaves the default (or the earlier value) */
		snprintf(line, sizeof(line), "%s=1 %s=zzz", k, k);
		assert_int_equal(parse(line), 1);
		got = !strcmp(k, "iters") ? o.iters : !strcmp(k, "cpus") ? o.cpus :
		      !strcmp(k, "timeout") ? o.timeout_s :
		      !strcmp(k, "ap_timeout") ? o.ap_timeout_ms : o.seed;
		assert_int_equal(got, 1);
	}
	/* the seed flag is set only by a valid seed */
	parse("seed=x");
	assert_false(o.seed_set);
	parse("seed=18446744073709551615");
	assert_true(o.seed_set);
	assert_int_equal(o.seed, UINT64_MAX);
}

void test_console(void **state)
{
	(void)state;
	static const uint16_t com[4] = { UART_COM1, UART_COM2, UART_COM3, UART_COM4 };
	char line[64];

	for (int i = 0; i < 4; i++) {
		snprintf(line, sizeof(line), "console=ttyS%d", i);
		assert_int_equal(parse(line), 0);
		assert_int_equal(o.nconsoles, 1);
		assert_int_equal(o.consoles[0].port, com[i]);
		assert_int_equal(o.consoles[0].baud, UART_BASE_BAUD);	/* default */
		snprintf(line, sizeof(line), "console=ttyS%d,9600", i);
		assert_int_equal(parse(line), 0);
		assert_int_equal(o.consoles[0].port, com[i]);
		assert_int_equal(o.consoles[0].baud, 9600);
	}
	assert_int_equal(parse("console=io:0x3f8,9600"), 0);
	assert_int_equal(o.consoles[0].port, 0x3f8);
	assert_int_equal(o.consoles[0].baud, 9600);
	assert_int_equal(parse("console=io:0xe000"), 0);	/* a PCI UART */
	assert_int_equal(o.consoles[0].port, 0xe000);
	assert_int_equal(o.consoles[0].baud, 115200);
	assert_int_equal(parse("console=io:1016,38400"), 0);	/* decimal port */
	assert_int_equal(o.consoles[0].port, 0x3f8);
	/* a port named twice is one console; with two speeds, an error */
	assert_int_equal(parse("console=ttyS0 console=ttyS0"), 0);
	assert_int_equal(o.nconsoles, 1);
	assert_int_equal(parse("console=ttyS0,115200 console=io:0x3f8 console=ttyS1"), 0);
	assert_int_equal(o.nconsoles, 2);
	assert_int_equal(parse("console=ttyS0 console=ttyS0,9600"), 1);
	assert_one_error("console=ttyS0,9600: this port is already a console at 115200 baud");
	assert_int_equal(o.nconsoles, 1);
	assert_int_equal(parse("console=io:0x100 console=io:0xfff8"), 0);	/* limits */
	assert_int_equal(o.consoles[0].port, 0x100);
	assert_int_equal(o.consoles[1].port, 0xfff8);

	/* every divisor of 115200 is a valid baud; a few are listed */
	const unsigned good[] = { 115200, 57600, 38400, 19200, 14400, 9600, 4800, 2400,
				  1200, 300, 50, 1 };

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		snprintf(line, sizeof(line), "console=ttyS0,%u", good[i]);
		assert_int_equal(parse(line), 0);
		assert_int_equal(o.consoles[0].baud, good[i]);
	}
	/* 115200 / 14400 = 8 is fine; these do not divide, or are not numbers */
	const char *badbaud[] = { "0", "7", "56000", "76800", "230400", "115201", "abc",
				  "9600n8", "115200n8", "-9600", "0x", "99999999999999999999" };

	for (size_t i = 0; i < sizeof(badbaud) / sizeof(badbaud[0]); i++) {
		snprintf(line, sizeof(line), "console=ttyS0,%s", badbaud[i]);
		assert_int_equal(parse(line), 1);
		assert_one_error("baud must divide 115200");
		assert_int_equal(o.nconsoles, 0);	/* nothing half-added */
	}
	/* bad devices */
	const char *baddev[] = { "ttyS4", "ttyS", "ttyS01", "ttyUSB0", "tty0", "com1",
				 "io:", "", "TTYS0", "io:0x3f8x" };

	for (size_t i = 0; i < sizeof(baddev) / sizeof(baddev[0]); i++) {
		snprintf(line, sizeof(line), "console=%s", baddev[i]);
		assert_int_equal(parse(line), 1);
		if (!strncmp(baddev[i], "io:", 3) && baddev[i][3])
			assert_one_error("bad I/O port");
		else
			assert_one_error("valid devices are ttyS0, ttyS1, ttyS2, ttyS3, io:0xNNN");
		assert_int_equal(o.nconsoles, 0);
	}
	/* port limits: the message says 0x100..0xfff8, and so does the check */
	const char *badport[] = { "io:0", "io:0x0", "io:0x1", "io:0x80", "io:0xff",
				  "io:0xfff9", "io:0xffff", "io:0x10000", "io:zz" };

	for (size_t i = 0; i < sizeof(badport) / sizeof(badport[0]); i++) {
		snprintf(line, sizeof(line), "console=%s,9600", badport[i]);
		assert_int_equal(parse(line), 1);
		assert_one_error("bad I/O port (expected io:0x100..0xfff8)");
		assert_int_equal(o.nconsoles, 0);
	}

	/* up to four consoles, in order, all used */
	assert_int_equal(parse("console=ttyS0 console=ttyS1,9600 console=io:0x3e8,19200 "
			       "console=ttyS3,57600"), 0);
	assert_int_equal(o.nconsoles, 4);
	assert_int_equal(o.consoles[0].port, UART_COM1);
	assert_int_equal(o.consoles[1].port, UART_COM2);
	assert_int_equal(o.consoles[1].baud, 9600);
	assert_int_equal(o.consoles[2].port, UART_COM3);
	assert_int_equal(o.consoles[2].baud, 19200);
	assert_int_equal(o.consoles[3].port, UART_COM4);
	assert_int_equal(o.consoles[3].baud, 57600);
	/* a fifth is an error; the first four stay */
	assert_int_equal(parse("console=ttyS0 console=ttyS1 console=ttyS2 console=ttyS3 "
			       "console=io:0x100,9600"), 1);
	assert_one_error("console=io:0x100,9600: at most 4 consoles");
	assert_int_equal(o.nconsoles, 4);
	assert_int_equal(o.consoles[3].port, UART_COM4);
	/* a bad console does not use up a slot */
	assert_int_equal(parse("console=ttyS9 console=ttyS0 console=ttyS1 console=ttyS2 "
			       "console=ttyS3"), 1);
	assert_int_equal(o.nconsoles, 4);

	/* the echo in the message is of the whole value */
	parse("console=ttyS0,12345");
	assert_one_error("cmdline: console=ttyS0,12345: baud must divide 115200");
}
