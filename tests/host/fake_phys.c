/* SPDX-License-Identifier: GPL-2.0-only */
/* Fake physical memory for host unit tests: see fake_phys.h. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "lib/physmem.h"
#include "tests/host/fake_phys.h"

struct region {
	uint64_t base;
	size_t size;
	uint8_t *bytes;
};

static struct region regions[8];
static unsigned nregions;
static void **views;
static size_t nviews, cap_views;
unsigned long long view_calls;

/* The region holding all of [pa, pa+len), or NULL: a range across two
 * adjacent regions is not readable, as across two unrelated mappings. */
static struct region *region_of(uint64_t pa, size_t len)
{
	if (pa + len < pa)
		return NULL;
	for (unsigned i = 0; i < nregions; i++) {
		struct region *r = &regions[i];

		if (pa >= r->base && pa + len <= r->base + r->size)
			return r;
	}
	return NULL;
}

const void *phys_view(uint64_t pa, size_t len)
{
	view_calls++;
	const struct region *r = region_of(pa, len);

	if (!r)
		return NULL;
	if (nviews == cap_views) {
		cap_views = cap_views ? cap_views * 2 : 1024;
		views = realloc(views, cap_views * sizeof(*views));
		assert_non_null(views);
	}
	void *v = malloc(len ? len : 1);

	assert_non_null(v);
	memcpy(v, r->bytes + (pa - r->base), len);
	views[nviews++] = v;
	return v;
}

void mem_add(uint64_t base, size_t size)
{
	assert_true(nregions < sizeof(regions) / sizeof(regions[0]));
	struct region *r = &regions[nregions++];

	r->base = base;
	r->size = size;
	r->bytes = calloc(1, size);
	assert_non_null(r->bytes);
}

void mem_put(uint64_t pa, const void *data, size_t len)
{
	struct region *r = region_of(pa, len);

	if (!r) {
		fail_msg("mem_put: 0x%llx+%zu not in fake memory", (unsigned long long)pa, len);
		return;	/* not reached: fail_msg() longjmps out of the test */
	}
	memcpy(r->bytes + (pa - r->base), data, len);
}

void mem_fill(uint64_t pa, int c, size_t len)
{
	struct region *r = region_of(pa, len);

	if (!r) {
		fail_msg("mem_fill: 0x%llx+%zu not in fake memory", (unsigned long long)pa, len);
		return;	/* not reached: fail_msg() longjmps out of the test */
	}
	memset(r->bytes + (pa - r->base), c, len);
}

void mem_views_free(void)
{
	for (size_t i = 0; i < nviews; i++)
		free(views[i]);
	nviews = 0;
}

void mem_reset(void)
{
	mem_views_free();
	free(views);
	views = NULL;
	cap_views = 0;
	for (unsigned i = 0; i < nregions; i++)
		free(regions[i].bytes);
	nregions = 0;
	view_calls = 0;
}

/* Fake memory has no holes: a firmware-table view is a plain view. */
const void *phys_view_fw(uint64_t pa, size_t len)
{
	return phys_view(pa, len);
}
