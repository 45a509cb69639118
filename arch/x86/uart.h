/* SPDX-License-Identifier: GPL-2.0-only */
/* 16550 UART output (docs/platform-notes.md "UART").  Every wait is bounded: an absent
 * or wedged UART slows output down once and is then dropped, it never
 * hangs the run. */
#ifndef RINGLAB_ARCH_X86_UART_H
#define RINGLAB_ARCH_X86_UART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UART_COM1	0x3f8
#define UART_COM2	0x2f8
#define UART_COM3	0x3e8
#define UART_COM4	0x2e8
#define UART_BASE_BAUD	115200

struct uart {
	uint16_t port;
	uint32_t baud;
	bool present;		/* detected at init */
	bool fifo;		/* 16550A FIFO enabled: 16 bytes per THRE */
	bool dead;		/* stopped answering: output dropped */
	unsigned timeouts;	/* consecutive THRE waits that timed out */
	uint64_t dropped;	/* bytes not sent because dead */
};

/* Probe and program port for baud 8N1.  Returns u->present. */
bool uart_init(struct uart *u, uint16_t port, uint32_t baud);
/* Write bytes, turning "\n" into "\r\n". */
void uart_write(struct uart *u, const char *s, size_t n);

#endif
