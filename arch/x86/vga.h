/* SPDX-License-Identifier: GPL-2.0-only */
/* VGA text-mode mirror of the console (80x25 at 0xB8000), used only when
 * booted by BIOS: under UEFI there is no text mode. */
#ifndef RINGLAB_ARCH_X86_VGA_H
#define RINGLAB_ARCH_X86_VGA_H

#include <stdbool.h>
#include <stddef.h>

/* Whether a VGA text screen is there: the CRT controller's index
 * register (I/O 0x3D4) reads back what was selected, and a pattern written
 * to the text-memory cell after the visible page at 0xB8000 reads back
 * (both restored afterwards).  Machines and VMs without a VGA adapter read
 * the port as all-ones; some have plain RAM at 0xB8000. */
bool vga_present(void);
void vga_init(void);
void vga_write(const char *s, size_t n);

#endif
