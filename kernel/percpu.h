/* Compatibility (before issue 8): per-CPU state moved to arch/x86/percpu.h;
 * the cross-CPU mailbox is kernel/smp.c's own. */
#ifndef RINGLAB_KERNEL_PERCPU_H
#define RINGLAB_KERNEL_PERCPU_H
#include "arch/x86/percpu.h"
#endif
