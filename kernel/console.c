/* SPDX-License-Identifier: GPL-2.0-only */
/* Console fan-out and log integrity; see console.h. */
#include <stdarg.h>
#include "kernel/console.h"
#include "arch/x86/cpu.h"
#include "arch/x86/uart.h"
#include "arch/x86/vga.h"
#include "arch/x86/percpu.h"
#include "lib/crc32.h"
#include "lib/printf.h"
#include "lib/string.h"

static struct uart uarts[CONSOLE_MAX_UARTS];
static const char *uart_why[CONSOLE_MAX_UARTS];	/* why added late, or NULL */
static unsigned nuarts;
static bool vga_on;
static void (*screen)(const char *s, size_t n);	/* framebuffer console */

/* Everything written since the log started, so that a UART added later
 * (the one the ACPI SPCR table names) still gets the whole log from its
 * `KTAP version 1` line.  Recording stops when it is full: the log is
 * about 1 KiB when ACPI is read. */
#define HISTORY_SIZE 16384
static char history[HISTORY_SIZE];
static size_t history_len;
static bool history_full;

static bool integ_on;
static uint64_t integ_lines;
static uint32_t integ_crc;

/* Console lock.  Held with interrupts off, so neither the watchdog nor a
 * cross-CPU call can interrupt a holder.  A CPU that faults while holding
 * it (the dump path) writes without it; a holder that never releases it
 * (an NMI-aborted CPU) is overridden after a bounded wait. */
static volatile int lock_owner = -1;
#define LOCK_SPINS 20000000u

static bool console_lock(uint64_t *flags)
{
	int me;

	*flags = irq_save();
	me = (int)(this_cpu() ? this_cpu()->index : 0);
	if (lock_owner == me)
		return false;		/* re-entered from a fault: no lock */
	for (unsigned i = 0; i < LOCK_SPINS; i++) {
		int expected = -1;

		if (__atomic_compare_exchange_n(&lock_owner, &expected, me, 0,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return true;
		cpu_relax();
	}
	__atomic_store_n(&lock_owner, me, __ATOMIC_SEQ_CST);	/* broken */
	return true;
}

static void console_unlock(bool locked, uint64_t flags)
{
	if (locked)
		__atomic_store_n(&lock_owner, -1, __ATOMIC_RELEASE);
	irq_restore(flags);
}

void console_early_init(void)
{
	nuarts = 0;
	if (uart_init(&uarts[0], UART_COM1, UART_BASE_BAUD))
		nuarts = 1;
}

void console_configure(const struct console_spec *specs, unsigned n, bool vga,
		       char *report, size_t report_size)
{
	struct console_spec def = { UART_COM1, UART_BASE_BAUD };
	size_t len = 0;
	uint64_t flags;
	bool locked = console_lock(&flags);

	if (report_size)
		report[0] = '\0';
	if (n == 0) {
		specs = &def;
		n = 1;
	}
	nuarts = 0;
	for (unsigned i = 0; i < CONSOLE_MAX_UARTS; i++)
		uart_why[i] = NULL;
	for (unsigned i = 0; i < n && i < CONSOLE_MAX_UARTS; i++) {
		if (uart_init(&uarts[nuarts], specs[i].port, specs[i].baud)) {
			nuarts++;
		} else if (len < report_size) {
			len += (size_t)rl_snprintf(report + len, report_size - len,
						   "%sno UART detected at io 0x%x",
						   len ? "; " : "", specs[i].port);
		}
	}
	if (nuarts == 0) {
		/* Nothing asked for answers: fall back to the first legacy
		 * port that does (a machine with only COM2), so
		 * that the error itself, and the run, can be seen. */
		static const uint16_t com[4] = { UART_COM1, UART_COM2, UART_COM3, UART_COM4 };

		for (unsigned i = 0; i < 4 && !nuarts; i++) {
			bool asked = false;

			for (unsigned j = 0; j < n; j++)
				asked |= specs[j].port == com[i];
			if (asked || !uart_init(&uarts[0], com[i], UART_BASE_BAUD))
				continue;
			nuarts = 1;
			if (len < report_size)
				rl_snprintf(report + len, report_size - len,
					    "; falling back to ttyS%u (io 0x%x)", i, com[i]);
		}
	}
	vga_on = vga;
	if (vga_on)
		vga_init();
	console_unlock(locked, flags);
}

/* Newlines in s, eight bytes at a time: a byte of w ^ "\n\n..." is zero
 * exactly where s has a newline, and ~(((x & 0x7f..) + 0x7f..) | x) sets
 * the top bit of exactly those bytes (no carry crosses a byte); the
 * multiply adds the eight 0/1 bytes into the top one.  Every logged byte
 * is counted, and under a hypervisor that emulates ring 0 a per-byte test
 * was a tenth of a line's cost. */
static uint64_t count_newlines(const char *s, size_t n)
{
	const uint64_t ones = 0x0101010101010101ull, low7 = ones * 0x7f, nl = ones * '\n';
	uint64_t count = 0;

	for (; n >= 8; s += 8, n -= 8) {
		uint64_t w;

		__builtin_memcpy(&w, s, 8);
		uint64_t x = w ^ nl, z = ~(((x & low7) + low7) | x) & ~low7;

		count += ((z >> 7) * ones) >> 56;
	}
	while (n--)
		count += *s++ == '\n';
	return count;
}

static void integ_feed(const char *s, size_t n)
{
	/* The CRC covers the text as printed minus '\r' (docs/log-format.md):
	 * callers write '\n' only, the UART driver adds the '\r'. */
	integ_crc = crc32_update(integ_crc, s, n);
	integ_lines += count_newlines(s, n);
}

void console_write(const char *s, size_t n)
{
	uint64_t flags;
	bool locked = console_lock(&flags);

	for (unsigned i = 0; i < nuarts; i++)
		uart_write(&uarts[i], s, n);
	if (integ_on && !history_full) {
		if (history_len + n <= HISTORY_SIZE) {
			memcpy(history + history_len, s, n);
			history_len += n;
		} else {
			history_full = true;
		}
	}
	if (vga_on)
		vga_write(s, n);
	if (screen)
		screen(s, n);
	if (integ_on)
		integ_feed(s, n);
	console_unlock(locked, flags);
}

bool console_add_uart(uint16_t port, uint32_t baud, const char *why)
{
	uint64_t flags;
	bool locked = console_lock(&flags), ok = false;

	for (unsigned i = 0; i < nuarts; i++)
		if (uarts[i].port == port)
			goto out;
	if (nuarts < CONSOLE_MAX_UARTS && uart_init(&uarts[nuarts], port, baud)) {
		uart_why[nuarts] = why;
		/* Replay the log so far; a full history means the replay is
		 * incomplete, which the integrity line will show. */
		uart_write(&uarts[nuarts], history, history_len);
		nuarts++;
		ok = true;
	}
out:
	console_unlock(locked, flags);
	return ok;
}

void console_set_screen(void (*write)(const char *s, size_t n))
{
	uint64_t flags;
	bool locked = console_lock(&flags);

	screen = write;
	if (screen)
		screen(history, history_len);	/* the log so far */
	console_unlock(locked, flags);
}

bool console_has_uart(uint16_t port)
{
	for (unsigned i = 0; i < nuarts; i++)
		if (uarts[i].port == port)
			return true;
	return false;
}

void console_integrity_start(void)
{
	history_len = 0;
	history_full = false;
	integ_on = true;
	integ_lines = 0;
	integ_crc = 0;
}

void console_integrity(uint64_t *lines, uint32_t *crc)
{
	*lines = integ_lines;
	*crc = integ_crc;
}

unsigned console_describe(char *buf, size_t size)
{
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	for (unsigned i = 0; i < nuarts && len < size; i++) {
		const char *name = uarts[i].port == UART_COM1 ? "ttyS0" :
				   uarts[i].port == UART_COM2 ? "ttyS1" :
				   uarts[i].port == UART_COM3 ? "ttyS2" :
				   uarts[i].port == UART_COM4 ? "ttyS3" : "io";
		len += (size_t)rl_snprintf(buf + len, size - len, "%s%s(0x%x)@%u%s%s%s%s",
					   i ? " " : "", name, uarts[i].port, uarts[i].baud,
					   uarts[i].fifo ? "" : ",nofifo",
					   uarts[i].dead ? ",dead" : "",
					   uart_why[i] ? "," : "", uart_why[i] ? uart_why[i] : "");
	}
	if (vga_on && len < size)
		rl_snprintf(buf + len, size - len, "%svga", len ? " " : "");
	return nuarts;
}
