/* SPDX-License-Identifier: GPL-2.0-only */
/* Connect arch/'s log and panic hooks to the kernel's report and panic
 * (kernel/arch_hooks.c).  First thing kmain does. */
#ifndef RINGLAB_KERNEL_ARCH_HOOKS_H
#define RINGLAB_KERNEL_ARCH_HOOKS_H

void arch_hooks_register(void);

#endif
