/* SPDX-License-Identifier: GPL-2.0-only */
/* VGA text-mode mirror of the console (80x25 at 0xB8000), used only when
 * booted by BIOS: under UEFI there is no text mode. */
#ifndef RINGLAB_ARCH_X86_VGA_H
#define RINGLAB_ARCH_X86_VGA_H

#include <stdbool.h>
#include <stddef.h>

/* Whether VGA text memory answers at 0xB8000: a pattern written to the
 * cell after the visible page reads back (restored afterwards).  Machines
 * and VMs without a VGA adapter read back all-ones or zeros. */
bool vga_present(void);
void vga_init(void);
void vga_write(const char *s, size_t n);

#endif
