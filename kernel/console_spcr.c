/* SPDX-License-Identifier: GPL-2.0-only */
/* Console selection from SPCR; see console_spcr.h. */
#include "kernel/console_spcr.h"
#include "arch/x86/uart.h"
#include "kernel/console.h"
#include "kernel/report.h"

static const char *com_name(uint64_t port)
{
	return port == UART_COM1 ? "ttyS0" : port == UART_COM2 ? "ttyS1" :
	       port == UART_COM3 ? "ttyS2" : port == UART_COM4 ? "ttyS3" : "io";
}

void console_apply_spcr(const struct acpi_spcr *s, bool user_chose)
{
	if (!s->present) {
		rep_diag("console: %s; no ACPI SPCR table",
			 user_chose ? "as console= asked" : "ttyS0 (io 0x3f8) by default");
		return;
	}
	if (!s->usable) {
		rep_warn("console", "ACPI SPCR table not used: %s", s->why);
		return;
	}
	uint16_t port = (uint16_t)s->addr;
	uint32_t baud = s->baud ? s->baud : UART_BASE_BAUD;

	if (user_chose) {
		rep_diag("console: as console= asked; the ACPI SPCR table's %s (io 0x%x) is not added",
			 com_name(port), port);
		return;
	}
	if (console_has_uart(port)) {
		/* Already chosen: COM1 by default, or the first legacy UART
		 * that answered when COM1 has none (console.c's fallback). */
		rep_diag("console: %s (io 0x%x) already in use (%s); the ACPI SPCR table names the same port",
			 com_name(port), port,
			 port == UART_COM1 ? "the default" : "the first legacy UART that answered");
		return;
	}
	bool com1 = console_has_uart(UART_COM1);

	if (console_add_uart(port, baud, "spcr"))
		rep_diag("console: added %s (io 0x%x, %u baud%s) named by the ACPI SPCR table (firmware/BMC serial redirection), %s; it got the log from its start",
			 com_name(port), port, baud, s->baud ? "" : ", SPCR says 'as is'",
			 com1 ? "besides the default ttyS0" : "as the default ttyS0 has no UART");
	else
		rep_error("console", "the ACPI SPCR table names %s (io 0x%x) but no UART answers there",
			  com_name(port), port);
}
