/* SPDX-License-Identifier: GPL-2.0-only */
/* The test runner: selection from tests=/skip=, execution, KTAP output.
 * Platform-independent; shared by the kernel and the hosted build. */
#ifndef RINGLAB_KERNEL_RUNNER_H
#define RINGLAB_KERNEL_RUNNER_H

#include "kernel/cmdline.h"

struct run_totals {
	unsigned passed, failed, skipped;
	unsigned suites;
	unsigned selection_errors;
	/* The `config` pseudo-case's failure, also counted in failed: the
	 * run's status is `fail` only when failed > config_failed. */
	unsigned config_failed;
};

/* The reserved suite and case that carry a configuration error. */
#define RUNNER_CONFIG_SUITE "config"
#define RUNNER_CONFIG_CASE  "cmdline"

/* Validate the selection (errors printed, counted in selection_errors). */
void runner_select(const struct options *o, struct run_totals *tot);
/* Print the plan and run every selected case.  Call after runner_select. */
void runner_run(const struct options *o, uint64_t seed, struct run_totals *tot);

/* Names of the built-in suites, space-separated (for messages). */
int runner_suite_names(char *buf, size_t size);

#endif
