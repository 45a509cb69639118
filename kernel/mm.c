/* Physical page allocator; see mm.h. */
#include "kernel/mm.h"
#include "arch/x86/cpu.h"
#include "lib/string.h"

#define MM_MAX_RANGES	128
#define LOW_LIMIT	0x100000ull	/* below 1 MiB: BIOS data, trampoline */

struct range {
	uint64_t base, end;
};

static struct range ranges[MM_MAX_RANGES];
static unsigned nranges;
static unsigned cur;		/* range being allocated from */
static uint64_t next;		/* next free byte in ranges[cur] */
static uint64_t ram_bytes, highest_ram;
static volatile int mm_lock;

extern char __kernel_start[], __kernel_end[];

static void add_range(uint64_t base, uint64_t end)
{
	base = (base + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	end &= ~(PAGE_SIZE - 1);
	if (end <= base || nranges >= MM_MAX_RANGES)
		return;
	/* insertion sort by base */
	unsigned i = nranges++;

	while (i > 0 && ranges[i - 1].base > base) {
		ranges[i] = ranges[i - 1];
		i--;
	}
	ranges[i] = (struct range){ base, end };
}

static void add_minus_kernel(uint64_t base, uint64_t end)
{
	uint64_t ks = (uint64_t)(uintptr_t)__kernel_start;
	uint64_t ke = (uint64_t)(uintptr_t)__kernel_end;

	if (base < LOW_LIMIT)
		base = LOW_LIMIT;
	if (end <= base)
		return;
	if (end <= ks || base >= ke) {
		add_range(base, end);
		return;
	}
	if (base < ks)
		add_range(base, ks);
	if (end > ke)
		add_range(ke, end);
}

void mm_init(const struct boot_info *bi)
{
	nranges = 0;
	ram_bytes = highest_ram = 0;
	for (unsigned i = 0; i < bi->nmmap; i++) {
		const struct mem_region *r = &bi->mmap[i];

		if (r->type != MMAP_RAM)
			continue;
		ram_bytes += r->len;
		if (r->base + r->len > highest_ram)
			highest_ram = r->base + r->len;
	}
	/* A usable page must be RAM in every entry that covers it: some
	 * firmware lists overlapping entries, and reserved wins. */
	for (unsigned i = 0; i < bi->nmmap; i++) {
		const struct mem_region *r = &bi->mmap[i];

		if (r->type != MMAP_RAM)
			continue;
		uint64_t base = r->base, end = r->base + r->len;

		for (unsigned j = 0; j < bi->nmmap && base < end; j++) {
			const struct mem_region *o = &bi->mmap[j];
			uint64_t ob = o->base, oe = o->base + o->len;

			if (o->type == MMAP_RAM || oe <= base || ob >= end)
				continue;
			if (ob <= base) {
				base = oe;		/* reserved covers the start */
			} else {
				add_minus_kernel(base, ob);	/* keep the part before it */
				base = oe < end ? oe : end;
			}
		}
		if (base < end)
			add_minus_kernel(base, end);
	}
	cur = 0;
	next = nranges ? ranges[0].base : 0;
}

static void lock(void)
{
	while (__atomic_exchange_n(&mm_lock, 1, __ATOMIC_ACQUIRE))
		cpu_relax();
}

static void unlock(void)
{
	__atomic_store_n(&mm_lock, 0, __ATOMIC_RELEASE);
}

static void *alloc(size_t npages, uint64_t align, uint64_t limit)
{
	uint64_t bytes = (uint64_t)npages * PAGE_SIZE;
	void *p = NULL;

	if (!npages)
		return NULL;
	uint64_t flags = irq_save();

	lock();
	for (unsigned r = cur; r < nranges; r++) {
		uint64_t start = r == cur ? next : ranges[r].base;

		start = (start + align - 1) & ~(align - 1);
		if (start + bytes < start || start + bytes > ranges[r].end)
			continue;
		if (start + bytes > limit)
			break;
		cur = r;
		next = start + bytes;
		p = (void *)(uintptr_t)start;
		break;
	}
	unlock();
	irq_restore(flags);
	if (p)
		memset(p, 0, bytes);
	return p;
}

void *page_alloc(size_t npages)
{
	return alloc(npages, PAGE_SIZE, UINT64_MAX);
}

void *page_alloc_aligned(size_t npages, uint64_t align)
{
	if (align < PAGE_SIZE || (align & (align - 1)))
		return NULL;
	return alloc(npages, align, UINT64_MAX);
}

void *page_alloc_below(size_t npages, uint64_t limit)
{
	return alloc(npages, PAGE_SIZE, limit);
}

struct mm_mark mm_mark(void)
{
	return (struct mm_mark){ cur, next };
}

void mm_release(struct mm_mark m)
{
	uint64_t flags = irq_save();

	lock();
	cur = m.range;
	next = m.next;
	unlock();
	irq_restore(flags);
}

uint64_t mm_ram_bytes(void)
{
	return ram_bytes;
}

uint64_t mm_highest_ram(void)
{
	return highest_ram;
}

uint64_t mm_free_bytes(void)
{
	uint64_t f = 0;

	for (unsigned r = cur; r < nranges; r++)
		f += ranges[r].end - (r == cur ? next : ranges[r].base);
	return f;
}
