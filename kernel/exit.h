/* SPDX-License-Identifier: GPL-2.0-only */
/* Leaving the run: QEMU's isa-debug-exit, halt, or reboot. */
#ifndef RINGLAB_KERNEL_EXIT_H
#define RINGLAB_KERNEL_EXIT_H

#include <stdbool.h>
#include "kernel/cmdline.h"

/* Port of QEMU's isa-debug-exit as the tests configure it
 * (-device isa-debug-exit,iobase=0xf4,iosize=0x04; docs/platform-notes.md
 * "QEMU device for the exit status"). */
#define QEMU_DEBUG_EXIT_PORT 0xf4

enum exit_status { EXIT_PASS = 0, EXIT_FAIL = 1, EXIT_CONFIG = 2, EXIT_PANIC = 3 };

void exit_configure(enum exit_mode m, bool in_qemu);
/* What the exit will do, for the log ("qemu-debug-exit", "halt", ...). */
const char *exit_action(void);
void machine_exit(int code) __attribute__((noreturn));

#endif
