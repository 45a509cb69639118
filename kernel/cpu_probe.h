/* SPDX-License-Identifier: GPL-2.0-only */
/* Boot probes of claimed CPU features: no instruction on CPUID's word
 * alone.  Every instruction or MSR a suite uses because a CPUID bit says it
 * exists is executed once, at boot, on the boot CPU, under the fault catch
 * (the kvm-unit-tests "asm_safe" idea), and only when CPUID claims it (an
 * absent INVLPGB, for one, kills the guest under some hypervisors).  When
 * the probe faults, one warning line says so and the feature is treated as
 * absent from then on (arch/x86/cpufeature.h overrides): skip reasons then
 * name the probe result (x86_feature_absent_why).  The cpu.probes case
 * prints the table; on bare metal a claimed feature that faults fails it. */
#ifndef RINGLAB_KERNEL_CPU_PROBE_H
#define RINGLAB_KERNEL_CPU_PROBE_H

#include <stdbool.h>
#include "kernel/platform.h"

/* Run every probe (boot CPU, once); prints a warning per fault. */
void cpu_probes_run(void);
/* The results: plat_cpu_probes() (kernel/platform.h). */

#endif
