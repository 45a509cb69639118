/* SPDX-License-Identifier: GPL-2.0-only */
/* Command-line parser host tests: lists, fbscale=, enumerations, simulate=
 * and cpuid=, values on flags, the error cap, explicit lengths and control
 * characters in errors. */
#include "tests/host/test_cmdline/cmdline_test.h"

void test_lists(void **state)
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
	/* an empty list or an empty name is an error, and appends nothing:
	 * a bad tests= never means "run everything" (tests_given stays set,
	 * so the runner selects nothing) */
	assert_int_equal(parse("tests= tests=a tests=b"), 1);
	assert_one_error("cmdline: tests=: an empty name");
	assert_string_equal(o.tests, "a,b");
	assert_int_equal(parse("skip="), 1);
	assert_one_error("cmdline: skip=: an empty name");
	assert_string_equal(o.skip, "");
	assert_true(o.skip_given);
	const char *empty[] = { ",", "a,", ",a", "a,,b", ",," };
	char eline[32];

	for (size_t i = 0; i < sizeof(empty) / sizeof(empty[0]); i++) {
		snprintf(eline, sizeof(eline), "tests=%s", empty[i]);
		assert_int_equal(parse(eline), 1);
		assert_one_error("an empty name");
		assert_string_equal(o.tests, "");
		assert_true(o.tests_given);
	}
	assert_int_equal(parse("quick"), 0);
	assert_false(o.tests_given || o.skip_given);

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
	/* an empty append to a full list is the empty-name error, the list
	 * stays */
	snprintf(big, sizeof(big), "tests=%s tests=", lst);
	assert_int_equal(parse(big), 1);
	assert_one_error("an empty name");
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

/* acpi_rsdp=: the RSDP's physical address, Linux's option (a kexec from a
 * UEFI Linux hands over no RSDP): hex or decimal, 1 .. 2^52 - 1. */
void test_acpi_rsdp(void **state)
{
	(void)state;
	assert_int_equal(parse("quick"), 0);
	assert_int_equal(o.acpi_rsdp, 0);			/* default: not given */
	assert_int_equal(parse("acpi_rsdp=0x7fb7e014"), 0);
	assert_no_errors();
	assert_int_equal(o.acpi_rsdp, 0x7fb7e014);
	assert_int_equal(parse("acpi_rsdp=983040"), 0);	/* decimal: 0xf0000 */
	assert_int_equal(o.acpi_rsdp, 0xf0000);
	assert_int_equal(parse("acpi_rsdp=0xfffffffffffff"), 0);	/* the top */
	assert_int_equal(o.acpi_rsdp, 0xfffffffffffffull);
	assert_int_equal(parse("acpi_rsdp=0x1000 acpi_rsdp=0x2000"), 0);	/* the last wins */
	assert_int_equal(o.acpi_rsdp, 0x2000);

	const char *bad[] = { "0", "0x0", "0x10000000000000", "18446744073709551616",
			      "0x", "abc", "-1", "0x1000,0x2000", "0xfg" };
	char line[80];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(line, sizeof(line), "acpi_rsdp=%s", bad[i]);
		assert_int_equal(parse(line), 1);
		snprintf(line, sizeof(line), "cmdline: acpi_rsdp=%s: expected a physical address 0x1..0xfffffffffffff",
			 bad[i]);
		assert_one_error(line);
		assert_int_equal(o.acpi_rsdp, 0);
	}
	/* a bad value keeps the last good one */
	assert_int_equal(parse("acpi_rsdp=0xe0000 acpi_rsdp=zz"), 1);
	assert_int_equal(o.acpi_rsdp, 0xe0000);
	assert_int_equal(parse("acpi_rsdp"), 1);
	assert_one_error("cmdline: 'acpi_rsdp' needs a value (acpi_rsdp=...)");
	assert_int_equal(parse("acpi_rsdp="), 1);
	assert_one_error("cmdline: acpi_rsdp=: expected a physical address");
	/* canonical form: hex */
	static char b[64];

	parse("acpi_rsdp=983040 quick");
	cmdline_format(&o, b, sizeof(b));
	assert_string_equal(b, "quick acpi_rsdp=0xf0000");
	round_trip(&o);
}

/* fbscale=: the screen console's text scale (kernel/fbcon.h). */
void test_fbscale(void **state)
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

void test_enums_and_simulate(void **state)
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
void test_simulate_cpuid(void **state)
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

void test_flag_with_value_and_value_missing(void **state)
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

void test_error_cap(void **state)
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

void test_explicit_length(void **state)
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

void test_control_characters_echoed_safely(void **state)
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
