/* SPDX-License-Identifier: GPL-2.0-only */
/* The console: every byte of the log goes through console_write(), which
 * fans it out to the configured UARTs and the VGA mirror and keeps the
 * integrity count (lines and CRC-32 from the "KTAP version 1" line on, see
 * docs/log-format.md). */
#ifndef RINGLAB_KERNEL_CONSOLE_H
#define RINGLAB_KERNEL_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CONSOLE_MAX_UARTS 4

struct console_spec {
	uint16_t port;
	uint32_t baud;
};

/* COM1 at 115200 so that even the earliest panic is visible. */
void console_early_init(void);
/* Switch to the consoles the command line asked for (none: COM1), adding
 * the VGA mirror when vga is set.  A requested UART that is not detected is
 * reported through the returned text (empty when all is well). */
void console_configure(const struct console_spec *specs, unsigned n, bool vga,
		       char *report, size_t report_size);

void console_write(const char *s, size_t n);

/* Add a UART after the log has started (the one the ACPI SPCR table
 * names): it first gets everything written since `KTAP version 1`.  why
 * (a static string) is shown in console_describe().  False when the port
 * is already in use, not detected, or all slots are taken. */
bool console_add_uart(uint16_t port, uint32_t baud, const char *why);
bool console_has_uart(uint16_t port);
/* Add a screen sink (the framebuffer console, kernel/fbcon_boot.c): it first
 * gets the log so far, then every write.  NULL removes it. */
void console_set_screen(void (*write)(const char *s, size_t n));

void console_integrity_start(void);
void console_integrity(uint64_t *lines, uint32_t *crc);

/* Number of UARTs actually writing, and a description ("ttyS0@115200"). */
unsigned console_describe(char *buf, size_t size);

#endif
