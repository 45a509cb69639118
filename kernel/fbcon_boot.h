/* The framebuffer console at boot (issue 11): checks the framebuffer GRUB
 * described in its multiboot2 tag, maps it and hooks kernel/fbcon.c to the
 * console.  See README "Screen output". */
#ifndef RINGLAB_KERNEL_FBCON_BOOT_H
#define RINGLAB_KERNEL_FBCON_BOOT_H

#include <stdbool.h>
#include <stdint.h>
#include "kernel/mbi.h"

/* Call after paging_init() and fw_addresses_check() (which drops a
 * framebuffer at an impossible address).  off: the `nofb` option.  Prints
 * one `# console:` line when the console is in use, one `# warning:` line
 * when a framebuffer is there but cannot be drawn on.  True when in use. */
bool fbcon_boot_start(const struct boot_info *bi, bool off);

/* True when fbcon_boot_start() put the console on a framebuffer; *pa and
 * *len then give the range it draws in (the boot suite checks its map). */
bool fbcon_boot_range(uint64_t *pa, uint64_t *len);

#endif
