/* SPDX-License-Identifier: GPL-2.0-only */
/* 16550 UART driver; see uart.h. */
#include "arch/x86/uart.h"
#include "arch/x86/cpu.h"

#define UART_THR	0	/* DLAB=0 write */
#define UART_DLL	0	/* DLAB=1 */
#define UART_IER	1
#define UART_DLM	1	/* DLAB=1 */
#define UART_FCR	2	/* write */
#define UART_IIR	2	/* read */
#define UART_LCR	3
#define UART_MCR	4
#define UART_LSR	5
#define UART_SCR	7

#define UART_LCR_8N1	0x03
#define UART_LCR_DLAB	0x80
#define UART_MCR_DTR_RTS 0x03
#define UART_LSR_THRE	0x20
#define UART_FCR_ENABLE_CLEAR 0x07
#define UART_IIR_FIFO_MASK 0xc0

/* One inb on a real LPC UART takes about a microsecond, so this bounds a
 * single THRE wait to roughly 0.1-0.2 s; one character at 9600 baud needs
 * about 1 ms. */
#define UART_THRE_SPINS	150000
/* After this many consecutive timeouts the UART is declared dead. */
#define UART_DEAD_AFTER	3

static bool uart_detect(uint16_t port)
{
	/* A missing UART reads as a floating bus, 0xff (seen in QEMU for an
	 * absent COM2; on boards this is bus behaviour, not a rule, hence
	 * also the scratch test, as Linux does for 8250 detection). */
	if (inb(port + UART_LSR) == 0xff)
		return false;
	uint8_t saved = inb(port + UART_SCR);
	bool ok = true;

	outb(port + UART_SCR, 0x5a);
	if (inb(port + UART_SCR) != 0x5a)
		ok = false;
	outb(port + UART_SCR, 0xa5);
	if (inb(port + UART_SCR) != 0xa5)
		ok = false;
	outb(port + UART_SCR, saved);
	return ok;
}

bool uart_init(struct uart *u, uint16_t port, uint32_t baud)
{
	*u = (struct uart){ .port = port, .baud = baud };
	if (!baud || UART_BASE_BAUD % baud)
		return false;
	if (!uart_detect(port))
		return false;
	uint16_t div = (uint16_t)(UART_BASE_BAUD / baud);

	/* Programming order as Linux early_printk: 8N1, no interrupts, FIFO,
	 * DTR|RTS, then the divisor under DLAB. */
	outb(port + UART_LCR, UART_LCR_8N1);
	outb(port + UART_IER, 0);
	outb(port + UART_FCR, UART_FCR_ENABLE_CLEAR);
	outb(port + UART_MCR, UART_MCR_DTR_RTS);
	outb(port + UART_LCR, UART_LCR_8N1 | UART_LCR_DLAB);
	outb(port + UART_DLL, (uint8_t)div);
	outb(port + UART_DLM, (uint8_t)(div >> 8));
	outb(port + UART_LCR, UART_LCR_8N1);
	u->fifo = (inb(port + UART_IIR) & UART_IIR_FIFO_MASK) == UART_IIR_FIFO_MASK;
	u->present = true;
	return true;
}

static bool wait_thre(struct uart *u)
{
	for (unsigned i = 0; i < UART_THRE_SPINS; i++) {
		if (inb(u->port + UART_LSR) & UART_LSR_THRE) {
			u->timeouts = 0;
			return true;
		}
		cpu_relax();
	}
	if (++u->timeouts >= UART_DEAD_AFTER)
		u->dead = true;
	return false;
}

void uart_write(struct uart *u, const char *s, size_t n)
{
	bool pending_lf = false;

	if (!u->present)
		return;
	while (n || pending_lf) {
		if (u->dead) {
			u->dropped += n;
			return;
		}
		if (!wait_thre(u))
			continue;	/* counts towards dead; bytes retried */
		/* THRE with the FIFO enabled means the whole FIFO is empty. */
		unsigned room = u->fifo ? 16 : 1;

		while (room && (n || pending_lf)) {
			char c;

			if (pending_lf) {
				c = '\n';
				pending_lf = false;
			} else {
				c = *s++;
				n--;
				if (c == '\n') {
					c = '\r';
					pending_lf = true;
				}
			}
			outb(u->port + UART_THR, (uint8_t)c);
			room--;
		}
	}
}
