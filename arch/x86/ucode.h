/* SPDX-License-Identifier: GPL-2.0-only */
/* Microcode revision (Intel IA32_BIOS_SIGN_ID / AMD PATCH_LEVEL, MSR 0x8B). */
#ifndef RINGLAB_ARCH_X86_UCODE_H
#define RINGLAB_ARCH_X86_UCODE_H

#include <stdbool.h>
#include <stdint.h>
#include "arch/x86/cpuinfo.h"

bool ucode_revision(const struct cpuinfo *ci, uint64_t *rev);

#endif
