/* SPDX-License-Identifier: GPL-2.0-only */
/* What boot found out, for the suites that check it. */
#ifndef RINGLAB_KERNEL_KERNEL_H
#define RINGLAB_KERNEL_KERNEL_H

#include <stddef.h>
#include "arch/x86/acpi.h"
#include "arch/x86/cpuinfo.h"
#include "kernel/cmdline.h"
#include "kernel/mbi.h"

extern struct boot_info boot_info;
extern struct options boot_options;
extern struct acpi_info acpi;
extern struct cpuinfo boot_cpu;
extern bool boot_in_qemu;
extern const char ringlab_version[];

/* Print stored error strings ("where: text"), n of them, `stride` bytes
 * apart, as "# error: where: text" lines. */
void print_errors(const char *errs, size_t stride, unsigned n);
/* Decode CPUID again for plat_mem_info() (after the boot probes changed
 * the feature table: kernel/cpu_probe.c). */
void platform_mem_refresh(void);
/* The runner rewound the allocator at a case's end: forget the
 * plat_alloc_big() block (its memory and mark belong to that case). */
void platform_mem_case_end(void);
#define PRINT_ERRORS(arr, n) print_errors(&(arr)[0][0], sizeof((arr)[0]), (n))

#endif
