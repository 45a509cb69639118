/* SPDX-License-Identifier: GPL-2.0-only */
/* The register frame arch/x86/isr.asm builds for every interrupt. */
#ifndef RINGLAB_ARCH_X86_REGS_H
#define RINGLAB_ARCH_X86_REGS_H

#include <stdint.h>

struct regs {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error_code;
	/* pushed by the CPU */
	uint64_t rip, cs, rflags, rsp, ss;
};

_Static_assert(sizeof(struct regs) == 22 * 8, "isr.asm frame layout");

#endif
