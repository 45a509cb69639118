/* SPDX-License-Identifier: GPL-2.0-only */
/* Where a run executes: one classification for every suite, the log
 * header (id.env) and every conclusion line.
 *
 *   bare-metal              no hypervisor bit, no emulator signal
 *   hypervisor:<signature>  CPUID.1:ECX[31] set; CPUID 4000_0000h's vendor
 *                           signature (spaces and '=' shown as '_')
 *   emulator:qemu-tcg       QEMU's instruction-set emulator (signature
 *                           "TCGTCGTCGTCG")
 *   emulator:bochs          no hypervisor bit, but the firmware's ACPI OEM
 *                           ID is "BOCHS " (Bochs' BIOS) and the loader is
 *                           not QEMU
 *   emulator:qemu           the loader is QEMU's -kernel but the guest
 *                           sees no hypervisor bit (-cpu ...,-hypervisor)
 *
 * systemd-detect-virt reads the same signals.  A timing conclusion drawn
 * anywhere but bare metal is the emulator's or the hypervisor's, not the
 * hardware's: cpu_env_timing_note() says so in one phrase. */
#ifndef RINGLAB_ARCH_X86_CPUENV_H
#define RINGLAB_ARCH_X86_CPUENV_H

#include <stdbool.h>
#include <stddef.h>
#include "arch/x86/cpuinfo.h"

enum cpu_env_kind { CPU_ENV_BARE_METAL, CPU_ENV_HYPERVISOR, CPU_ENV_EMULATOR };

struct cpu_env {
	enum cpu_env_kind kind;
	char name[40];		/* "bare-metal", "hypervisor:KVMKVMKVM", ... */
	char note[120];		/* "" on bare metal; else what timings mean */
};

/* acpi_oem: the RSDP's 6-byte OEM ID as a string (NULL or "" if unknown);
 * loader: the multiboot loader name (NULL or "" if unknown). */
void cpu_env_classify(const struct cpuinfo *ci, const char *acpi_oem, const char *loader,
		      struct cpu_env *env);

#endif
