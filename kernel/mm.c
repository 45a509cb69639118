/* SPDX-License-Identifier: GPL-2.0-only */
/* Physical page allocator; see mm.h. */
#include "kernel/mm.h"
#include "kernel/memmap.h"
#include "arch/x86/cpu.h"
#include "lib/string.h"

#define MM_MAX_RANGES	128
#define LOW_LIMIT	0x100000ull	/* below 1 MiB: BIOS data, trampoline */

static struct usable_range ranges[MM_MAX_RANGES];
static unsigned nranges;
static unsigned cur;		/* range being allocated from */
static uint64_t next;		/* next free byte in ranges[cur] */
static uint64_t ram_bytes, highest_ram;
static volatile int mm_lock;

extern char __kernel_start[], __kernel_end[];

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
	nranges = memmap_usable(bi->mmap, bi->nmmap, (uint64_t)(uintptr_t)__kernel_start,
				(uint64_t)(uintptr_t)__kernel_end, LOW_LIMIT,
				ranges, MM_MAX_RANGES);
	cur = 0;
	next = nranges ? ranges[0].base : 0;
}

/* Taken with interrupts off; bounded, because a CPU aborted by NMI while
 * allocating never releases it (then it is overridden: the allocator's
 * state is two words, written together, under the lock). */
#define MM_LOCK_SPINS 100000000u

static void lock(void)
{
	for (unsigned i = 0; i < MM_LOCK_SPINS; i++) {
		if (!__atomic_exchange_n(&mm_lock, 1, __ATOMIC_ACQUIRE))
			return;
		cpu_relax();
	}
}

static void unlock(void)
{
	__atomic_store_n(&mm_lock, 0, __ATOMIC_RELEASE);
}

static void *alloc(size_t npages, uint64_t align, uint64_t limit, bool zero)
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
	if (p && zero)
		memset(p, 0, bytes);
	return p;
}

void *page_alloc(size_t npages)
{
	return alloc(npages, PAGE_SIZE, UINT64_MAX, true);
}

void *page_alloc_below(size_t npages, uint64_t limit)
{
	return alloc(npages, PAGE_SIZE, limit, true);
}

void *page_alloc_raw(size_t npages, uint64_t align)
{
	if (align < PAGE_SIZE || (align & (align - 1)))
		return NULL;
	return alloc(npages, align, UINT64_MAX, false);
}

uint64_t mm_largest_free(uint64_t align)
{
	uint64_t best = 0;
	uint64_t flags = irq_save();

	lock();
	for (unsigned r = cur; r < nranges; r++) {
		uint64_t start = r == cur ? next : ranges[r].base;

		start = (start + align - 1) & ~(align - 1);
		if (start < ranges[r].end && ranges[r].end - start > best)
			best = ranges[r].end - start;
	}
	unlock();
	irq_restore(flags);
	return best;
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

const struct mem_region *mm_kernel_claim(const struct boot_info *bi)
{
	int i = memmap_claim_over(bi->mmap, bi->nmmap, (uint64_t)(uintptr_t)__kernel_start,
				  (uint64_t)(uintptr_t)__kernel_end);

	return i < 0 ? NULL : &bi->mmap[i];
}

uint64_t mm_ram_bytes(void)
{
	return ram_bytes;
}

uint64_t mm_highest_ram(void)
{
	return highest_ram;
}

