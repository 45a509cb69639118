/* SPDX-License-Identifier: GPL-2.0-only */
/* Command-line options, shared by the kernel and the hosted build.
 *
 *   console=ttyS0..3[,baud] | console=io:0xNNN[,baud]   (up to 4, all used)
 *   tests=LIST  skip=LIST     suite or suite.case, comma-separated
 *   quick  verbose  nosmp  novga  nofb (no framebuffer console)
 *   fbscale=auto|1|2|3  text scale of the framebuffer console (kernel/fbcon.h)
 *   list   print the suites and cases (and what each answers), run none
 *   iters=N  seed=N  cpus=N  timeout=SECONDS  ap_timeout=MS
 *   exit=qemu|halt|reboot
 *   apic=auto|xapic|x2apic
 *   simulate=x2apic-nostick    test hook: behave as if IA32_APIC_BASE.EXTD
 *                              did not stick, to exercise the xAPIC fallback
 *   simulate=ap-nostart        test hook: send the first AP INIT but no
 *                              SIPI, to exercise the AP-timeout path
 *   simulate=ap-alias          test hook: the first AP start is broadcast
 *                              (every AP answers it) and the second AP
 *                              identifies itself as the first
 *   simulate=ap-late           test hook: the first AP's SIPI is held back
 *                              until it has been given up, to exercise the
 *                              late-arrival path
 *   simulate=cpuid:+NAME       test hook: the CPUID feature table claims
 *   simulate=cpuid:-NAME       (or denies) feature NAME (a cpu.features
 *                              name: rtm, invpcid, clzero, ...), to show
 *                              that a lying CPUID bit is caught by the boot
 *                              probe (kernel/cpu_probe.h); up to 8
 *   smpboot=parallel|serial    start all APs at once (default) or one by one
 *   acpi_rsdp=ADDR             the ACPI RSDP's physical address (Linux's
 *                              option of that name): where a loader passes
 *                              no RSDP and none lies in the BIOS area
 *                              (kexec from a UEFI Linux); checked as any
 *                              RSDP is, tried before the loader's copy
 *
 * A first token that looks like the kernel's path (QEMU and some loaders
 * pass it) is skipped.  An unknown option or bad value produces one error
 * line naming the valid choices and the rest is still parsed. */
#ifndef RINGLAB_KERNEL_CMDLINE_H
#define RINGLAB_KERNEL_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "kernel/console.h"

#define CMDLINE_LIST_MAX	1024
#define CMDLINE_MAX_ERRORS	8
#define CMDLINE_ERROR_LEN	240
#define CMDLINE_MAX_SIM_CPUID	8

enum exit_mode { EXIT_DEFAULT = 0, EXIT_QEMU, EXIT_HALT, EXIT_REBOOT };
enum apic_pref { APIC_AUTO = 0, APIC_XAPIC, APIC_X2APIC };

#define SIM_X2APIC_NOSTICK	(1u << 0)
#define SIM_AP_NOSTART		(1u << 1)
#define SIM_AP_ALIAS		(1u << 2)
#define SIM_AP_LATE		(1u << 3)

enum smpboot_mode { SMPBOOT_PARALLEL = 0, SMPBOOT_SERIAL };

struct options {
	struct console_spec consoles[CONSOLE_MAX_UARTS];
	unsigned nconsoles;
	char tests[CMDLINE_LIST_MAX];	/* comma list as given ("" = all) */
	char skip[CMDLINE_LIST_MAX];
	/* tests= / skip= appeared, valid or not: a tests= that ends empty
	 * (every name refused) selects nothing, never "all" */
	bool tests_given, skip_given;
	bool quick, verbose, nosmp, novga, nofb;
	bool list;			/* print suites and cases, run none */
	uint64_t iters;			/* 0 = each test's default */
	uint64_t seed;
	bool seed_set;
	uint32_t cpus;			/* 0 = all */
	uint32_t timeout_s;		/* 0 = each test's budget */
	uint32_t ap_timeout_ms;		/* 0 = default */
	enum exit_mode exit_mode;
	enum apic_pref apic;
	uint32_t simulate;		/* SIM_* bits */
	struct {
		uint8_t feature;	/* index into cpu_features[] */
		bool on;
	} sim_cpuid[CMDLINE_MAX_SIM_CPUID];
	unsigned nsim_cpuid;
	enum smpboot_mode smpboot;
	uint8_t fbscale;		/* 0 = auto, else 1..FBCON_SCALE_MAX */
	uint64_t acpi_rsdp;		/* 0 = not given */

	char errors[CMDLINE_MAX_ERRORS][CMDLINE_ERROR_LEN];
	unsigned nerrors;
	unsigned nerrors_dropped;
};

/* Parse text (n bytes, need not be NUL-terminated) into *o (reset first).
 * Returns the number of errors. */
unsigned cmdline_parse(const char *text, size_t n, struct options *o);

/* The loader's command line did not fit in `limit` bytes: one error (so
 * the run ends as a config error) naming the limit. */
void cmdline_note_truncated(struct options *o, size_t limit);

/* The canonical command line for *o (errors excluded): parsing it gives
 * the same options.  Returns the length like snprintf. */
int cmdline_format(const struct options *o, char *buf, size_t size);

/* True when the two option sets are the same (errors excluded). */
bool options_equal(const struct options *a, const struct options *b);

/* The list of valid option names, for error lines. */
extern const char cmdline_valid_options[];

#endif
