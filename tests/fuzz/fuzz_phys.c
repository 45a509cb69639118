/* SPDX-License-Identifier: GPL-2.0-only */
/* Fake physical memory for the fuzz harnesses; see fuzz_phys.h. */
#include "tests/fuzz/fuzz_phys.h"

#include <stdlib.h>
#include <string.h>

#include "lib/physmem.h"

static struct {
	uint64_t base;
	size_t size;
	uint8_t *bytes;
} reg[4];
static unsigned nreg;

void fz_mem_reset(void)
{
	for (unsigned i = 0; i < nreg; i++)
		free(reg[i].bytes);
	nreg = 0;
}

void fz_mem_add(uint64_t base, size_t size, const uint8_t *data, size_t len)
{
	if (nreg >= 4 || !size)
		return;
	reg[nreg].base = base;
	reg[nreg].size = size;
	reg[nreg].bytes = calloc(1, size);
	if (!reg[nreg].bytes)
		abort();
	if (data)
		memcpy(reg[nreg].bytes, data, len < size ? len : size);
	nreg++;
}

const void *phys_view(uint64_t pa, size_t len)
{
	if (pa + len < pa)
		return NULL;
	for (unsigned i = 0; i < nreg; i++)
		if (pa >= reg[i].base && pa + len <= reg[i].base + reg[i].size)
			return reg[i].bytes + (pa - reg[i].base);
	return NULL;
}

/* Fake memory has no holes: a firmware-table view is a plain view. */
const void *phys_view_fw(uint64_t pa, size_t len)
{
	return phys_view(pa, len);
}
