/* SPDX-License-Identifier: GPL-2.0-only */
/* See irq_eoi.h. */
#include "arch/x86/irq_eoi.h"

static void (*eoi_fn)(void);

void irq_eoi_register(void (*eoi)(void))
{
	__atomic_store_n(&eoi_fn, eoi, __ATOMIC_RELEASE);
}

void irq_eoi(void)
{
	void (*fn)(void) = __atomic_load_n(&eoi_fn, __ATOMIC_ACQUIRE);

	if (fn)
		fn();
}
