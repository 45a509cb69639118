/* SPDX-License-Identifier: GPL-2.0-only */
/* SPCR, the Serial Port Console Redirection table: which UART the firmware
 * and the BMC use for the console (Microsoft, "Serial Port Console
 * Redirection Table", revisions 2 and 4; Linux drivers/acpi/spcr.c reads
 * the same fields).  Only what a console needs is kept: interface type,
 * base address and baud rate.  The table has been checked for length and
 * checksum by acpi.c; every read here is bounded by len. */
#include "arch/x86/acpi.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "lib/bytes.h"

/* Field offsets (SPCR spec, table 3). */
#define SPCR_INTERFACE_TYPE	36
#define SPCR_BASE_ADDRESS	40	/* Generic Address Structure, 12 bytes */
#define SPCR_GAS_SPACE_ID	(SPCR_BASE_ADDRESS + 0)
#define SPCR_GAS_ADDRESS	(SPCR_BASE_ADDRESS + 4)
#define SPCR_BAUD_RATE		58
#define SPCR_MIN_LENGTH		(SPCR_BAUD_RATE + 1)

/* Interface types: the DBG2 serial subtypes (ACPI DBG2 spec, table 3). */
#define SPCR_IFACE_16550		0x00
#define SPCR_IFACE_16450		0x01	/* 16550 subset */
#define SPCR_IFACE_16550_GAS		0x12	/* 16550-compatible, GAS-described */

/* "Configured Baud Rate": an index, not a rate; 0 means "as is". */
static uint32_t spcr_baud(uint8_t code, bool *ok)
{
	*ok = true;
	switch (code) {
	case 0: return 0;
	case 3: return 9600;
	case 4: return 19200;
	case 6: return 57600;
	case 7: return 115200;
	default:
		*ok = false;
		return 0;
	}
}

void acpi_parse_spcr(struct acpi_info *ai, const void *table, uint32_t len)
{
	const uint8_t *t = table;
	struct acpi_spcr *s = &ai->spcr;
	bool baud_ok;

	memset(s, 0, sizeof(*s));
	s->present = true;
	if (len < SPCR_MIN_LENGTH) {
		rl_snprintf(s->why, sizeof(s->why), "SPCR is %u bytes, shorter than the %u it needs",
			    len, SPCR_MIN_LENGTH);
		return;
	}
	s->interface_type = t[SPCR_INTERFACE_TYPE];
	s->space = t[SPCR_GAS_SPACE_ID];
	s->addr = (uint64_t)le32(t + SPCR_GAS_ADDRESS) |
		  (uint64_t)le32(t + SPCR_GAS_ADDRESS + 4) << 32;
	s->baud = spcr_baud(t[SPCR_BAUD_RATE], &baud_ok);

	if (s->interface_type != SPCR_IFACE_16550 && s->interface_type != SPCR_IFACE_16450 &&
	    s->interface_type != SPCR_IFACE_16550_GAS)
		rl_snprintf(s->why, sizeof(s->why),
			    "interface type 0x%x is not a 16550-compatible UART", s->interface_type);
	else if (s->space != ACPI_ADR_SPACE_SYSTEM_IO)
		rl_snprintf(s->why, sizeof(s->why),
			    "the UART is in address space %u, not system I/O (MMIO UARTs are not supported)",
			    s->space);
	else if (s->addr == 0 || s->addr > 0xfff8)
		rl_snprintf(s->why, sizeof(s->why), "I/O address 0x%llx is not a UART base",
			    (unsigned long long)s->addr);
	else if (!baud_ok)
		rl_snprintf(s->why, sizeof(s->why), "baud rate code %u is not defined",
			    t[SPCR_BAUD_RATE]);
	else
		s->usable = true;
}
