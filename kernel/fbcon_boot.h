/* SPDX-License-Identifier: GPL-2.0-only */
/* The framebuffer console at boot: checks the framebuffer the loader
 * described (multiboot2 tag or multiboot1 info), maps it and hooks
 * kernel/fbcon.c to the console.  See docs/platform-notes.md "Screen
 * console". */
#ifndef RINGLAB_KERNEL_FBCON_BOOT_H
#define RINGLAB_KERNEL_FBCON_BOOT_H

#include <stdbool.h>
#include <stdint.h>
#include "kernel/mbi.h"

/* Call after paging_init() and fw_addresses_check() (which drops a
 * framebuffer at an impossible address).  off: the `nofb` option; the
 * text scale comes from the `fbscale=` option (boot_options).  Prints two
 * `# console:` lines when the console is in use (the framebuffer and text
 * grid; the scale, cell size and colours), one `# warning:` line when a
 * framebuffer is there but cannot be drawn on (and one when its colour
 * layout is unusable and it is drawn in gray).  True when in use. */
bool fbcon_boot_start(const struct boot_info *bi, bool off);

/* True when fbcon_boot_start() put the console on a framebuffer; *pa and
 * *len then give the range it draws in (the boot suite checks its map). */
bool fbcon_boot_range(uint64_t *pa, uint64_t *len);

#endif
