/* SPDX-License-Identifier: GPL-2.0-only */
/* HPET main counter as a time reference (IA-PC HPET spec 1.0a §2.3;
 * docs/platform-notes.md "ACPI tables"). */
#ifndef RINGLAB_ARCH_X86_HPET_H
#define RINGLAB_ARCH_X86_HPET_H

#include <stdbool.h>
#include <stdint.h>

#define HPET_BLOCK_SIZE		0x400	/* register block, HPET spec 1.0a §2.3.1 */

struct hpet {
	volatile uint8_t *base;
	uint64_t hz;
	bool counter_64bit;
	bool was_enabled;	/* the firmware had the counter running */
	uint64_t saved_config;
};

/* Map and check the block at phys; start the main counter if it was
 * stopped (hpet_restore() puts the configuration back). */
bool hpet_open(struct hpet *h, uint64_t phys, char *why, unsigned why_size);
uint64_t hpet_read(const struct hpet *h);
void hpet_restore(struct hpet *h);

#endif
