/* SPDX-License-Identifier: GPL-2.0-only */
/* HPET access; see hpet.h.  Registers: IA-PC HPET spec 1.0a §2.3. */
#include "arch/x86/hpet.h"
#include "arch/x86/paging.h"
#include "lib/printf.h"

#define HPET_CAP		0x000
#define  HPET_CAP_COUNT_64	(1ull << 13)
#define HPET_CONFIG		0x010
#define  HPET_CFG_ENABLE	(1ull << 0)
#define HPET_COUNTER		0x0f0
#define HPET_MAX_PERIOD_FS	100000000ull	/* spec: at most 100 ns */

static uint64_t rd(const struct hpet *h, unsigned off)
{
	return *(volatile uint64_t *)(h->base + off);
}

static void wr(const struct hpet *h, unsigned off, uint64_t v)
{
	*(volatile uint64_t *)(h->base + off) = v;
}

bool hpet_open(struct hpet *h, uint64_t phys, char *why, unsigned why_size)
{
	*h = (struct hpet){ 0 };
	/* paging_map_mmio() refuses (with an error line) a base that is not
	 * canonical, above MAXPHYADDR, or in RAM or the kernel image. */
	if (!phys || (phys & 7) || !paging_map_mmio(phys, HPET_BLOCK_SIZE)) {
		rl_snprintf(why, why_size, "HPET address 0x%llx unusable", (unsigned long long)phys);
		return false;
	}
	h->base = (volatile uint8_t *)(uintptr_t)phys;
	uint64_t cap = rd(h, HPET_CAP);
	uint64_t period = cap >> 32;

	if (cap == ~0ull || period == 0 || period > HPET_MAX_PERIOD_FS) {
		rl_snprintf(why, why_size, "HPET capabilities 0x%llx invalid (period %llu fs)",
			    (unsigned long long)cap, (unsigned long long)period);
		return false;
	}
	h->hz = 1000000000000000ull / period;
	h->counter_64bit = cap & HPET_CAP_COUNT_64;
	h->saved_config = rd(h, HPET_CONFIG);
	h->was_enabled = h->saved_config & HPET_CFG_ENABLE;
	if (!h->was_enabled)
		wr(h, HPET_CONFIG, h->saved_config | HPET_CFG_ENABLE);
	return true;
}

uint64_t hpet_read(const struct hpet *h)
{
	uint64_t v = rd(h, HPET_COUNTER);

	return h->counter_64bit ? v : (uint32_t)v;
}

void hpet_restore(struct hpet *h)
{
	if (h->base && !h->was_enabled)
		wr(h, HPET_CONFIG, h->saved_config);
}
