/* SPDX-License-Identifier: GPL-2.0-only */
/* Usable RAM from the memory map; see memmap.h. */
#include "kernel/memmap.h"

#define PAGE 4096ull

struct sink {
	struct usable_range *out;
	unsigned n, max;
};

static void emit(struct sink *s, uint64_t base, uint64_t end)
{
	base = (base + PAGE - 1) & ~(PAGE - 1);
	end &= ~(PAGE - 1);
	if (end <= base || s->n >= s->max)
		return;
	unsigned i = s->n++;

	while (i > 0 && s->out[i - 1].base > base) {	/* keep sorted */
		s->out[i] = s->out[i - 1];
		i--;
	}
	s->out[i] = (struct usable_range){ base, end };
}

static void emit_minus(struct sink *s, uint64_t base, uint64_t end, uint64_t xs, uint64_t xe,
		       uint64_t low)
{
	if (base < low)
		base = low;
	if (end <= base)
		return;
	if (end <= xs || base >= xe) {
		emit(s, base, end);
		return;
	}
	if (base < xs)
		emit(s, base, xs);
	if (end > xe)
		emit(s, xe, end);
}

int memmap_claim_over(const struct mem_region *map, unsigned n, uint64_t xs, uint64_t xe)
{
	for (unsigned i = 0; i < n; i++) {
		uint64_t end = map[i].base + map[i].len;

		if (map[i].type != MMAP_RAM && end > map[i].base && map[i].base < xe && xs < end)
			return (int)i;
	}
	return -1;
}

unsigned memmap_usable(const struct mem_region *map, unsigned n, uint64_t xs, uint64_t xe,
		       uint64_t low, struct usable_range *out, unsigned max)
{
	struct sink s = { out, 0, max };

	for (unsigned i = 0; i < n; i++) {
		if (map[i].type != MMAP_RAM || map[i].base + map[i].len < map[i].base)
			continue;
		uint64_t pos = map[i].base, end = map[i].base + map[i].len;

		/* Walk forward through the non-RAM claims overlapping what is
		 * left, nearest first, whatever order the map lists them in.
		 * Each step moves pos past one claim, so at most n steps. */
		for (unsigned step = 0; step <= n && pos < end; step++) {
			const struct mem_region *next = 0;

			for (unsigned j = 0; j < n; j++) {
				const struct mem_region *o = &map[j];
				uint64_t oe = o->base + o->len;

				if (o->type == MMAP_RAM || oe < o->base || oe <= pos || o->base >= end)
					continue;
				if (!next || o->base < next->base)
					next = o;
			}
			if (!next)
				break;
			if (next->base > pos)
				emit_minus(&s, pos, next->base, xs, xe, low);
			pos = next->base + next->len;
		}
		if (pos < end)
			emit_minus(&s, pos, end, xs, xe, low);
	}
	/* Overlapping RAM entries give overlapping pieces: merge them, or
	 * the allocator would hand out the same page twice. */
	unsigned k = 0;

	for (unsigned i = 0; i < s.n; i++) {
		if (k && out[i].base <= out[k - 1].end) {
			if (out[i].end > out[k - 1].end)
				out[k - 1].end = out[i].end;
		} else {
			out[k++] = out[i];
		}
	}
	return k;
}
