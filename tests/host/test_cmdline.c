/* Host unit tests for the command-line parser (kernel/cmdline.c).
 *
 * Every input is parsed from an exact-size heap copy without a terminating
 * NUL, so ASan reports any read past the length the parser was given. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/x86/uart.h"
#include "arch/x86/cpuinfo.h"
#include "kernel/cmdline.h"
#include "kernel/fbcon.h"
#include "lib/rand.h"

static struct options o;	/* ~3 KiB: static, not on the stack */

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
static unsigned parse_n(const char *text, size_t n)
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

static unsigned parse(const char *text)
{
	return parse_n(text, strlen(text));
}

static bool has_error(const char *needle)
{
	for (unsigned i = 0; i < o.nerrors; i++)
		if (strstr(o.errors[i], needle))
			return true;
	return false;
}

static void dump_errors(void)
{
	for (unsigned i = 0; i < o.nerrors; i++)
		print_message("  errors[%u] = %s\n", i, o.errors[i]);
}

#define assert_error(needle)                                                  \
	do {                                                                  \
		if (!has_error(needle)) {                                     \
			dump_errors();                                        \
			fail_msg("no error line contains \"%s\"", needle);    \
		}                                                             \
	} while (0)

#define assert_no_errors()                                                    \
	do {                                                                  \
		if (o.nerrors || o.nerrors_dropped) {                         \
			dump_errors();                                        \
			fail_msg("%u errors, %u dropped", o.nerrors,          \
				 o.nerrors_dropped);                          \
		}                                                             \
	} while (0)

/* Exactly one error, containing every given fragment. */
#define assert_one_error(...)                                                 \
	do {                                                                  \
		const char *frags_[] = { __VA_ARGS__ };                       \
		if (o.nerrors != 1 || o.nerrors_dropped) {                    \
			dump_errors();                                        \
			fail_msg("want exactly one error, have %u (+%u dropped)", \
				 o.nerrors, o.nerrors_dropped);               \
		}                                                             \
		for (size_t f_ = 0; f_ < sizeof(frags_) / sizeof(frags_[0]); f_++) \
			assert_error(frags_[f_]);                             \
	} while (0)

static void assert_defaults(const struct options *x)
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
}

/* ============================================================ tests === */

static void test_empty_and_defaults(void **state)
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

static void test_every_option(void **state)
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

static void test_path_first_token_skipped(void **state)
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

static void test_unknown_option(void **state)
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
				"fbscale=" };

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

static void test_numeric_ranges(void **state)
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

static void test_console(void **state)
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
			       "console=io:0x3f8,9600"), 1);
	assert_one_error("console=io:0x3f8,9600: at most 4 consoles");
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

static void test_lists(void **state)
{
	(void)state;
	assert_int_equal(parse("tests=boot"), 0);
	assert_string_equal(o.tests, "boot");
	assert_int_equal(parse("tests=boot,cpu.cpuid,tsc_drift,smp-ipi"), 0);
	assert_string_equal(o.tests, "boot,cpu.cpuid,tsc_drift,smp-ipi");
	/* repeated options append with a comma */
	assert_int_equal(parse("tests=a tests=b.c skip=x tests=d skip=y,z"), 0);
	assert_string_equal(o.tests, "a,b.c,d");
	assert_string_equal(o.skip, "x,y,z");
	/* an empty value appends nothing */
	assert_int_equal(parse("tests= tests=a tests= tests=b"), 0);
	assert_string_equal(o.tests, "a,b");
	assert_int_equal(parse("skip="), 0);
	assert_string_equal(o.skip, "");

	/* invalid characters: the whole value is rejected */
	const char *bad[] = { "Boot", "a/b", "a;b", "a b", "x*", "caf\xc3\xa9", "a=b",
			      "tab\x01", "A" };
	char line[64];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(line, sizeof(line), "tests=ok tests=%s", bad[i]);
		parse(line);
		if (strchr(bad[i], ' ')) {	/* "a b": "tests=a" then unknown "b" */
			assert_one_error("unknown option 'b'");
			assert_string_equal(o.tests, "ok,a");
			continue;
		}
		if (strchr(bad[i], '=')) {	/* value "a=b": split at the first '=' */
			assert_one_error("names may contain only a-z 0-9 _ - . and ','",
					 "tests=a=b");
			assert_string_equal(o.tests, "ok");
			continue;
		}
		assert_one_error("cmdline: tests=", "names may contain only a-z 0-9 _ - . and ','");
		assert_string_equal(o.tests, "ok");
		snprintf(line, sizeof(line), "skip=%s", bad[i]);
		parse(line);
		assert_one_error("cmdline: skip=", "names may contain only");
		assert_string_equal(o.skip, "");
	}

	/* overflow: 1023 characters fit, 1024 do not */
	static char big[CMDLINE_LIST_MAX + 64], lst[CMDLINE_LIST_MAX + 16];

	memset(lst, 'a', CMDLINE_LIST_MAX - 1);
	lst[CMDLINE_LIST_MAX - 1] = '\0';
	snprintf(big, sizeof(big), "tests=%s", lst);
	assert_int_equal(parse(big), 0);
	assert_int_equal(strlen(o.tests), CMDLINE_LIST_MAX - 1);
	/* an empty append to a full list is still fine */
	snprintf(big, sizeof(big), "tests=%s tests=", lst);
	assert_int_equal(parse(big), 0);
	assert_int_equal(strlen(o.tests), CMDLINE_LIST_MAX - 1);
	lst[CMDLINE_LIST_MAX - 1] = 'a';
	lst[CMDLINE_LIST_MAX] = '\0';
	snprintf(big, sizeof(big), "skip=%s", lst);
	assert_int_equal(parse(big), 1);
	assert_one_error("cmdline: skip= list longer than 1023 characters");
	assert_string_equal(o.skip, "");
	/* appending: 1021 + ',' + 1 = 1023 fits, one more does not */
	memset(lst, 'b', 1021);
	lst[1021] = '\0';
	snprintf(big, sizeof(big), "tests=%s tests=c", lst);
	assert_int_equal(parse(big), 0);
	assert_int_equal(strlen(o.tests), 1023);
	assert_int_equal(o.tests[1021], ',');
	assert_int_equal(o.tests[1022], 'c');
	snprintf(big, sizeof(big), "tests=%s tests=cd", lst);
	assert_int_equal(parse(big), 1);
	assert_one_error("tests= list longer than 1023 characters");
	assert_int_equal(strlen(o.tests), 1021);	/* the earlier part stays */

	/* a long list keeps the whole names that fit (never
	 * "run everything"), and the error names the limit and the first
	 * name lost. */
	size_t n = 0;

	n += (size_t)snprintf(big + n, sizeof(big) - n, "tests=");
	for (int i = 0; n < CMDLINE_LIST_MAX + 20; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "%sboot.x%03d", i ? "," : "", i);
	assert_int_equal(parse(big), 1);
	assert_one_error("tests= list longer than 1023 characters (CMDLINE_LIST_MAX - 1); names from 'boot.x");
	assert_true(strlen(o.tests) > CMDLINE_LIST_MAX - 12);
	assert_true(strlen(o.tests) <= CMDLINE_LIST_MAX - 1);
	assert_memory_equal(o.tests, "boot.x000,boot.x001,", 20);
	assert_int_equal(strlen(o.tests) % 10, 9);	/* ends on a whole name */
	assert_ptr_equal(strstr(big, o.tests), big + 6);
	/* a second tests= after a full list: dropped, said so */
	snprintf(big + n, sizeof(big) - n, " tests=smp.online");
	assert_int_equal(parse(big), 2);

	/* the loader cut the command line: a config error naming the limit */
	parse("quick");
	cmdline_note_truncated(&o, 2047);
	assert_int_equal(o.nerrors, 1);
	assert_non_null(strstr(o.errors[0], "command line longer than 2047 bytes (the limit)"));
}

static void round_trip(const struct options *in);

/* fbscale=: the screen console's text scale (kernel/fbcon.h). */
static void test_fbscale(void **state)
{
	char b[64];

	(void)state;
	parse("quick");
	assert_int_equal(o.fbscale, 0);			/* default: auto */
	for (unsigned s = 1; s <= FBCON_SCALE_MAX; s++) {
		snprintf(b, sizeof(b), "fbscale=%u", s);
		assert_int_equal(parse(b), 0);
		assert_int_equal(o.fbscale, s);
		/* canonical form and round trip */
		assert_int_equal(cmdline_format(&o, b, sizeof(b)), 9);
		assert_int_equal(b[8], '0' + (int)s);
		round_trip(&o);
	}
	assert_int_equal(parse("fbscale=2 fbscale=auto"), 0);	/* the last one wins */
	assert_int_equal(o.fbscale, 0);
	assert_int_equal(cmdline_format(&o, b, sizeof(b)), 0);	/* auto is the default: not written */
	assert_int_equal(parse("fbscale=0"), 1);
	assert_one_error("cmdline: fbscale=0: valid values are auto and 1 to 3");
	assert_int_equal(parse("fbscale=4"), 1);
	assert_one_error("cmdline: fbscale=4: valid values are auto and 1 to 3");
	assert_int_equal(parse("fbscale=2x"), 1);
	assert_int_equal(parse("fbscale=AUTO"), 1);
	assert_int_equal(parse("fbscale=99999999999999999999"), 1);
	assert_int_equal(parse("fbscale=3 fbscale=9"), 1);
	assert_int_equal(o.fbscale, 3);			/* a bad value keeps the last good one */
	assert_int_equal(parse("fbscale="), 1);
	assert_one_error("fbscale=: valid values are auto and 1 to 3");
	assert_int_equal(parse("fbscale"), 1);
	assert_one_error("cmdline: 'fbscale' needs a value (fbscale=...)");
}

static void test_enums_and_simulate(void **state)
{
	(void)state;
	parse("exit=qemu");
	assert_int_equal(o.exit_mode, EXIT_QEMU);
	parse("exit=halt");
	assert_int_equal(o.exit_mode, EXIT_HALT);
	parse("exit=reboot");
	assert_int_equal(o.exit_mode, EXIT_REBOOT);
	assert_int_equal(parse("exit=poweroff"), 1);
	assert_one_error("cmdline: exit=poweroff: valid values are qemu, halt, reboot");
	assert_int_equal(o.exit_mode, EXIT_DEFAULT);
	assert_int_equal(parse("exit="), 1);
	assert_one_error("exit=: valid values are qemu, halt, reboot");
	assert_int_equal(parse("exit=QEMU"), 1);
	assert_int_equal(parse("exit=qemu2"), 1);
	assert_int_equal(parse("exit=halt exit=bogus"), 1);
	assert_int_equal(o.exit_mode, EXIT_HALT);	/* kept */

	parse("apic=auto");
	assert_int_equal(o.apic, APIC_AUTO);
	parse("apic=xapic");
	assert_int_equal(o.apic, APIC_XAPIC);
	parse("apic=x2apic");
	assert_int_equal(o.apic, APIC_X2APIC);
	assert_no_errors();
	assert_int_equal(parse("apic=x3apic"), 1);
	assert_one_error("cmdline: apic=x3apic: valid values are auto, xapic, x2apic");
	assert_int_equal(parse("apic="), 1);
	assert_one_error("apic=: valid values are auto, xapic, x2apic");

	assert_int_equal(parse("simulate=x2apic-nostick"), 0);
	assert_int_equal(o.simulate, SIM_X2APIC_NOSTICK);
	assert_int_equal(parse("simulate=x2apic-nostick,x2apic-nostick"), 0);
	assert_int_equal(o.simulate, SIM_X2APIC_NOSTICK);
	assert_int_equal(parse("simulate=bogus"), 1);
	assert_one_error("cmdline: simulate=bogus: valid values are x2apic-nostick");
	assert_int_equal(o.simulate, 0);
	/* one error per bad item; good items still apply */
	assert_int_equal(parse("simulate=foo,x2apic-nostick,bar"), 2);
	assert_error("simulate=foo:");
	assert_error("simulate=bar:");
	assert_int_equal(o.simulate, SIM_X2APIC_NOSTICK);

	/* AP bring-up: the aliasing hook and the start mode, round-tripped */
	char buf[256];
	struct options back;

	assert_int_equal(parse("simulate=ap-alias,ap-nostart smpboot=serial"), 0);
	assert_int_equal(o.simulate, SIM_AP_ALIAS | SIM_AP_NOSTART);
	assert_int_equal(o.smpboot, SMPBOOT_SERIAL);
	cmdline_format(&o, buf, sizeof(buf));
	assert_non_null(strstr(buf, "simulate=ap-nostart,ap-alias"));
	assert_non_null(strstr(buf, "smpboot=serial"));
	assert_int_equal(cmdline_parse(buf, strlen(buf), &back), 0);
	assert_true(options_equal(&o, &back));
	/* all four hooks, in the canonical order whatever the given one */
	assert_int_equal(parse("simulate=ap-late,x2apic-nostick,ap-alias,ap-nostart"), 0);
	assert_int_equal(o.simulate, SIM_AP_LATE | SIM_X2APIC_NOSTICK | SIM_AP_ALIAS | SIM_AP_NOSTART);
	cmdline_format(&o, buf, sizeof(buf));
	assert_string_equal(buf, "simulate=x2apic-nostick,ap-nostart,ap-alias,ap-late");
	assert_int_equal(cmdline_parse(buf, strlen(buf), &back), 0);
	assert_true(options_equal(&o, &back));
	assert_int_equal(parse("simulate=ap-late"), 0);
	assert_int_equal(o.simulate, SIM_AP_LATE);
	parse("smpboot=parallel");
	assert_int_equal(o.smpboot, SMPBOOT_PARALLEL);
	assert_int_equal(parse("smpboot=both"), 1);
	assert_one_error("cmdline: smpboot=both: valid values are parallel, serial");
	assert_int_equal(parse("smpboot"), 1);
	assert_one_error("cmdline: 'smpboot' needs a value (smpboot=...)");
}

/* simulate=cpuid:+NAME / -NAME: names from the feature table, in the order
 * given, round-tripped after the other hooks; bad names and too many items
 * are one error each (kernel/cpu_probe.h). */
static void test_simulate_cpuid(void **state)
{
	char buf[256];
	struct options back;

	(void)state;
	assert_int_equal(parse("simulate=cpuid:+rtm"), 0);
	assert_int_equal(o.nsim_cpuid, 1);
	assert_string_equal(cpu_features[o.sim_cpuid[0].feature].name, "rtm");
	assert_true(o.sim_cpuid[0].on);
	assert_int_equal(parse("simulate=ap-late,cpuid:-x2apic,cpuid:+clzero"), 0);
	assert_int_equal(o.simulate, SIM_AP_LATE);
	assert_int_equal(o.nsim_cpuid, 2);
	assert_string_equal(cpu_features[o.sim_cpuid[0].feature].name, "x2apic");
	assert_false(o.sim_cpuid[0].on);
	cmdline_format(&o, buf, sizeof(buf));
	assert_string_equal(buf, "simulate=ap-late,cpuid:-x2apic,cpuid:+clzero");
	assert_int_equal(cmdline_parse(buf, strlen(buf), &back), 0);
	assert_true(options_equal(&o, &back));
	/* alone, the cpuid items open the option */
	assert_int_equal(parse("quick simulate=cpuid:+invlpgb"), 0);
	cmdline_format(&o, buf, sizeof(buf));
	assert_non_null(strstr(buf, " simulate=cpuid:+invlpgb"));
	assert_int_equal(cmdline_parse(buf, strlen(buf), &back), 0);
	assert_true(options_equal(&o, &back));
	/* a different sign or feature is a different option set */
	assert_int_equal(parse("simulate=cpuid:-invlpgb"), 0);
	back = o;
	assert_int_equal(parse("simulate=cpuid:+invlpgb"), 0);
	assert_false(options_equal(&o, &back));

	assert_int_equal(parse("simulate=cpuid:+nosuch"), 1);
	assert_one_error("cmdline: simulate=cpuid:+nosuch: unknown CPU feature");
	assert_int_equal(parse("simulate=cpuid:rtm"), 1);
	assert_one_error("simulate=cpuid:rtm: valid values are");
	assert_int_equal(parse("simulate=cpuid:+"), 1);
	assert_int_equal(o.nsim_cpuid, 0);
	assert_int_equal(parse("simulate=cpuid:+rtm,cpuid:+rtm,cpuid:+rtm,cpuid:+rtm,cpuid:+rtm,cpuid:+rtm,cpuid:+rtm,cpuid:+rtm,cpuid:+clzero"), 1);
	assert_one_error("at most 8 cpuid: items");
	assert_int_equal(o.nsim_cpuid, 8);
}

static void test_flag_with_value_and_value_missing(void **state)
{
	(void)state;
	const char *flags[] = { "quick", "verbose", "nosmp", "novga" };
	char line[64], want[80];

	for (size_t i = 0; i < 4; i++) {
		snprintf(line, sizeof(line), "%s=1", flags[i]);
		assert_int_equal(parse(line), 1);
		snprintf(want, sizeof(want), "cmdline: '%s' takes no value", flags[i]);
		assert_string_equal(o.errors[0], want);
		assert_false(o.quick || o.verbose || o.nosmp || o.novga);
		snprintf(line, sizeof(line), "%s=", flags[i]);
		assert_int_equal(parse(line), 1);
		assert_one_error(want);
	}
	const char *valued[] = { "console", "tests", "skip", "iters", "seed", "cpus",
				 "timeout", "ap_timeout", "exit", "apic", "simulate" };

	for (size_t i = 0; i < sizeof(valued) / sizeof(valued[0]); i++) {
		assert_int_equal(parse(valued[i]), 1);
		snprintf(want, sizeof(want), "cmdline: '%s' needs a value (%s=...)", valued[i],
			 valued[i]);
		assert_string_equal(o.errors[0], want);
	}
	assert_defaults(&o);
}

static void test_error_cap(void **state)
{
	(void)state;
	/* 20 bad options: the first CMDLINE_MAX_ERRORS are kept in order */
	char line[512];
	size_t n = 0;

	for (int i = 0; i < 20; i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, "bad%d ", i);
	n += (size_t)snprintf(line + n, sizeof(line) - n, "quick");
	assert_int_equal(parse(line), 20);
	assert_int_equal(o.nerrors, CMDLINE_MAX_ERRORS);
	assert_int_equal(o.nerrors_dropped, 20 - CMDLINE_MAX_ERRORS);
	for (unsigned i = 0; i < CMDLINE_MAX_ERRORS; i++) {
		char want[32];

		snprintf(want, sizeof(want), "'bad%u'", i);
		assert_non_null(strstr(o.errors[i], want));
	}
	assert_true(o.quick);	/* parsing went on */
	/* exactly at the cap: nothing dropped */
	n = 0;
	for (int i = 0; i < CMDLINE_MAX_ERRORS; i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, "x%d ", i);
	assert_int_equal(parse(line), CMDLINE_MAX_ERRORS);
	assert_int_equal(o.nerrors_dropped, 0);
}

static void test_explicit_length(void **state)
{
	(void)state;
	const char *text = "quick verbose nosmp";

	/* the length cuts the text: "quick verb" -> unknown "verb" */
	assert_int_equal(parse_n(text, 10), 1);
	assert_one_error("unknown option 'verb'");
	assert_true(o.quick);
	assert_false(o.verbose);
	assert_int_equal(parse_n(text, 5), 0);
	assert_true(o.quick);
	/* a NUL before the length ends the text (boot_info.cmdline is a
	 * NUL-padded buffer) */
	static const char padded[32] = "quick\0verbose";

	assert_int_equal(parse_n(padded, sizeof(padded)), 0);
	assert_true(o.quick);
	assert_false(o.verbose);
	/* a number cut by the length */
	assert_int_equal(parse_n("iters=12345", 8), 0);
	assert_int_equal(o.iters, 12);
	/* a value cut to empty */
	assert_int_equal(parse_n("iters=12345", 6), 1);
	assert_one_error("iters=''");
}

static void test_control_characters_echoed_safely(void **state)
{
	(void)state;
	parse("exit=\x1b[2Jhalt");
	assert_one_error("cmdline: exit=?[2Jhalt: valid values");
	parse("\x01\x02\x7f\xff");
	assert_one_error("unknown option '?" "?" "?" "?'");
	parse("apic=\xc3\xa9");
	assert_one_error("apic=??:");
	parse("iters=1\x08");
	assert_one_error("iters='1?'");
	parse("console=ttyS0,\x07");
	assert_one_error("console=ttyS0,?:");
	parse("simulate=\x1b");
	assert_one_error("simulate=?:");
	parse("quick=\x1b");
	assert_one_error("'quick' takes no value");
	/* every byte value in an option */
	char t[8];

	for (int c = 1; c < 256; c++) {
		if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
			continue;
		snprintf(t, sizeof(t), "exit=%c", c);
		parse(t);
		assert_int_equal(o.nerrors, 1);		/* invariants check the echo */
		if (c == '/')
			continue;	/* "/zz" first is a path, skipped */
		snprintf(t, sizeof(t), "%czz", c);
		parse(t);
		assert_int_equal(o.nerrors, 1);
	}
}

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
		x->consoles[i].port = rng_below(r, 3) ? ports[rng_below(r, 8)] :
				      (uint16_t)(0x100 + rng_below(r, 0xfff8 - 0x100 + 1));
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
}

static void round_trip(const struct options *in)
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

static void test_format_round_trip(void **state)
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

static void test_format_random_round_trip(void **state)
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

static void test_format_truncation(void **state)
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
static void test_fuzz(void **state)
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_and_defaults),
		cmocka_unit_test(test_every_option),
		cmocka_unit_test(test_path_first_token_skipped),
		cmocka_unit_test(test_unknown_option),
		cmocka_unit_test(test_numeric_ranges),
		cmocka_unit_test(test_console),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_enums_and_simulate),
		cmocka_unit_test(test_fbscale),
		cmocka_unit_test(test_simulate_cpuid),
		cmocka_unit_test(test_flag_with_value_and_value_missing),
		cmocka_unit_test(test_error_cap),
		cmocka_unit_test(test_explicit_length),
		cmocka_unit_test(test_control_characters_echoed_safely),
		cmocka_unit_test(test_format_round_trip),
		cmocka_unit_test(test_format_random_round_trip),
		cmocka_unit_test(test_format_truncation),
		cmocka_unit_test(test_fuzz),
	};

	return cmocka_run_group_tests_name("cmdline", tests, NULL, NULL);
}
