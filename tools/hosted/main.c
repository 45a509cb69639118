/* SPDX-License-Identifier: GPL-2.0-only */
/* ringlab-hosted: the suites that need no ring 0 (SUITE_HOSTED), built from
 * the same sources as the kernel and run as an ordinary Linux program with
 * one pinned thread per CPU.  Arguments are the kernel's command-line
 * options (build/ringlab-hosted tests=rdtsc,tsc_order quick); the output is
 * the same log format (docs/log-format.md); the exit status is the exit
 * line's code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "tools/hosted/hosted.h"
#include "arch/x86/cpuinfo.h"
#include "arch/x86/tsc_read.h"
#include "kernel/cmdline.h"
#include "kernel/platform.h"
#include "kernel/report.h"
#include "kernel/test.h"
#include "kernel/runner.h"

static void microcode(char *buf, size_t size)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];

	snprintf(buf, size, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "microcode", 9)) {
			char *v = strchr(line, ':');

			if (v) {
				v++;
				while (*v == ' ')
					v++;
				v[strcspn(v, "\n")] = '\0';
				snprintf(buf, size, "%s", v);
			}
			break;
		}
	}
	fclose(f);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ringlab-hosted [OPTION...]\n"
		"Runs ringlab's suites that need no ring 0 (docs/suites.md) as a Linux\n"
		"program, one pinned thread per CPU, and prints the ringlab log\n"
		"(docs/log-format.md) on stdout.  Options are the kernel's command line:\n"
		"  tests=LIST  skip=LIST   suites or suite.case, comma-separated\n"
		"  quick  verbose  nosmp   shorter run / more output / CPU 0 only\n"
		"  list                    print the suites and cases (# list: lines), run none\n"
		"  iters=N  seed=N  cpus=N  timeout=SECONDS\n"
		"  -h, --help              this text\n"
		"Exit status: 0 pass, 1 a case failed, 2 bad option (nothing was run).\n"
		"Example: ringlab-hosted tests=rdtsc,tsc_order quick\n");
}

int main(int argc, char **argv)
{
	static char cmd[4096];
	static struct options o;
	size_t len = 0;
	char err[200] = "", buf[256];
	struct run_totals tot = { 0 };

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		}
		if (argv[i][0] == '-') {
			fprintf(stderr, "ringlab-hosted: unknown option '%s'; nothing was run (see --help)\n",
				argv[i]);
			return 2;
		}
		int w = snprintf(cmd + len, sizeof(cmd) - len, "%s%s", i > 1 ? " " : "", argv[i]);

		if (w < 0 || (size_t)w >= sizeof(cmd) - len) {
			fprintf(stderr, "ringlab-hosted: arguments longer than %zu bytes; nothing was run\n",
				sizeof(cmd) - 1);
			return 2;
		}
		len += (size_t)w;
	}
	if (cmdline_parse(cmd, len, &o)) {
		for (unsigned i = 0; i < o.nerrors; i++)
			fprintf(stderr, "ringlab-hosted: %s\n", o.errors[i]);
		fprintf(stderr, "ringlab-hosted: nothing was run (see --help)\n");
		return 2;
	}
	hosted_set_options(&o);
	unsigned n = hosted_platform_init(o.quick, o.nosmp ? 1 : o.cpus, err, sizeof(err));

	rep_start();
	rep_diag("ringlab %s starting (hosted)", plat_version());
	for (unsigned i = 0; i < o.nerrors; i++)
		rep_diag("error: %s", o.errors[i]);
	if (o.nconsoles || o.apic != APIC_AUTO || o.simulate || o.exit_mode != EXIT_DEFAULT ||
	    o.ap_timeout_ms || o.novga || o.nofb)
		rep_warn("hosted", "console=, apic=, simulate=, exit=, ap_timeout=, novga and nofb have no effect in the hosted build");
	if (err[0])
		rep_error("hosted", "%s", err);

	struct cpuinfo ci;
	struct utsname u;

	cpuinfo_read(&ci);
	uname(&u);
	rep_id("version", "%s", plat_version());
	rep_id("boot", "hosted (Linux %s %s)", u.release, u.machine);
	rep_id("firmware", "n/a (user space)");
	rep_id("loader", "none");
	rep_sanitize(buf, sizeof(buf), cmd);
	rep_id("cmdline", "%s", buf);
	rep_id("console", "stdout");
	rep_id("cpu.vendor", "%s", ci.vendor_str);
	rep_id("cpu.signature", "family=0x%x model=0x%x stepping=0x%x (cpuid 0x%08x)", ci.family,
	       ci.model, ci.stepping, ci.signature);
	microcode(buf, sizeof(buf));
	rep_id("cpu.microcode", "%s", buf);
	rep_id("cpu.brand", "%s", ci.brand[0] ? ci.brand : "unknown");
	rep_id("hypervisor", "%s", ci.hypervisor ? ci.hv_signature : "none");
	rep_id("env", "%s", plat_env());
	rep_id("tsc", "hz=%llu source=clock_monotonic_raw", (unsigned long long)plat_tsc_hz());
	rep_id("ram", "bytes=%llu", (unsigned long long)plat_ram_bytes());
	rep_id("cpus", "online=%u (one pinned thread each)", n);
	rep_id("apic", "n/a (user space)");
	uint64_t seed = o.seed_set ? o.seed : rdtsc();

	rep_id("seed", "%llu", (unsigned long long)seed);
	runner_select(&o, &tot);
	runner_run(&o, seed, &tot);
	answers_print();
	rep_summary(tot.passed, tot.failed, tot.skipped);
	int code = 0;
	const char *status = "pass";

	if (tot.failed > tot.config_failed) {
		code = 1;
		status = "fail";
	} else if (tot.config_failed) {
		code = 2;
		status = "config-error";
	}
	rep_exit(status, code);
	rep_integrity();
	fflush(stdout);
	return code;
}
