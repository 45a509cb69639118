/* VGA text-mode mirror of the console (80x25 at 0xB8000), used only when
 * booted by BIOS: under UEFI there is no text mode. */
#ifndef RINGLAB_ARCH_X86_VGA_H
#define RINGLAB_ARCH_X86_VGA_H

#include <stddef.h>

void vga_init(void);
void vga_write(const char *s, size_t n);

#endif
