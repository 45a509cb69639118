/* SPDX-License-Identifier: GPL-2.0-only */
/* Console selection from the ACPI SPCR table: when the command line names
 * no console, the UART the firmware and BMC use for serial redirection is
 * added to the default COM1, and the log says which console was chosen and
 * why. */
#ifndef RINGLAB_KERNEL_CONSOLE_SPCR_H
#define RINGLAB_KERNEL_CONSOLE_SPCR_H

#include <stdbool.h>
#include "arch/x86/acpi.h"

/* user_chose: console= was given (then SPCR is only reported). */
void console_apply_spcr(const struct acpi_spcr *s, bool user_chose);

#endif
