/* SPDX-License-Identifier: GPL-2.0-only */
/* Identity map construction and walking; see paging.h. */
#include "arch/x86/paging.h"
#include "arch/x86/cpu.h"
#include "arch/x86/log.h"
#include "lib/physmem.h"
#include "lib/physrange.h"
#include "lib/string.h"

extern char __kernel_start[], __kernel_end[];

static uint64_t *pml4;
static struct paging_stats st;

/* What firmware-supplied MMIO ranges are judged against (physrange.h). */
#define MAX_RAM_SPANS 256	/* as many as the memory map holds (kernel/mbi.h) */
static struct phys_span ram_spans[MAX_RAM_SPANS];
static unsigned nram_spans;
static bool full_map;		/* paging_init succeeded */
static bool fw_holes;		/* the map lists only RAM: see phys_view_fw() */

/* Mapped physical ranges, for phys_view(). */
#define MAX_MAPPED 160
static struct {
	uint64_t base, end;
} mapped[MAX_MAPPED];
static unsigned nmapped;

static void note_mapped(uint64_t base, uint64_t end)
{
	if (nmapped && mapped[nmapped - 1].end == base) {
		mapped[nmapped - 1].end = end;
		return;
	}
	if (nmapped < MAX_MAPPED)
		mapped[nmapped++] = (typeof(mapped[0])){ base, end };
}

static const struct paging_params *map_bi;	/* the memory map the tables follow */
static bool covered(const struct paging_params *bi, uint64_t base, uint64_t end, bool ram_only);

/* Firmware data lives in the BIOS area below 1 MiB or in memory-map
 * entries (RAM, ACPI, reserved).  Anything else below 4 GiB is a PCI or
 * APIC hole: mapped, but MMIO, and a corrupt table pointer must not make
 * a parser read it (phys_view_fw() below makes the one exception, for
 * firmware tables when the map lists only RAM).  Above 4 GiB only RAM is
 * mapped. */
const void *phys_view(uint64_t pa, size_t len)
{
	uint64_t end = pa + len;

	if (end < pa)
		return NULL;
	if (!full_map)
		return end <= SZ_4G ? (const void *)(uintptr_t)pa : NULL;
	if (end <= 0x100000)
		return (const void *)(uintptr_t)pa;
	if (!covered(map_bi, pa, end, false))
		return NULL;
	if (end > SZ_4G && !covered(map_bi, pa, end, true))
		return NULL;
	return (const void *)(uintptr_t)pa;
}

/* True when every page of [base, end) is identity-mapped uncached
 * (PCD|PWT: PAT entry 3 = UC under the power-on PAT, SDM vol. 3
 * §12.12.3), as paging_init maps every hole below 4 GiB.  Checked rather
 * than assumed: the pointer is dereferenced, and a hole mapped write-back
 * (or not at all) would be a speculative-read or #PF hazard. */
static bool mapped_uc(uint64_t base, uint64_t end)
{
	for (uint64_t va = base & ~(PAGE_SIZE - 1); va < end;) {
		uint64_t pa, leaf;
		unsigned level;

		if (!paging_translate(va, &pa, &leaf, &level) || pa != va ||
		    (leaf & (PTE_PCD | PTE_PWT)) != (PTE_PCD | PTE_PWT))
			return false;

		uint64_t size = 1ull << (12 + 9 * (level - 1));

		va = (va & ~(size - 1)) + size;
	}
	return true;
}

/* Firmware tables: what phys_view() gives, and, when the loader's map
 * lists only RAM (iPXE's multiboot1 map), holes below 4 GiB too, as Linux
 * maps ACPI tables wherever the checksummed RSDP/XSDT point, refusing only
 * RAM it owns (acpi_os_map_memory).  Without the firmware's reserved
 * entries there is no way to tell the ACPI area from a PCI hole, so the
 * rule is narrowed (phys_fw_hole_check): not RAM or the kernel, at most
 * 16 MiB, between 1 MiB and 4 GiB, never the I/O APIC, HPET/chipset or
 * LAPIC/MSI window; and only the table parsers use this entry, for
 * addresses reached from a checksummed RSDP or MP floating pointer.  With
 * a complete map (GRUB, SeaBIOS/OVMF E820) a hole stays refused. */
const void *phys_view_fw(uint64_t pa, size_t len)
{
	const void *p = phys_view(pa, len);
	struct phys_span kernel = { (uint64_t)(uintptr_t)__kernel_start,
				    (uint64_t)(uintptr_t)__kernel_end };

	if (p || !full_map || !fw_holes)
		return p;
	if (phys_fw_hole_check(pa, len, st.phys_bits, ram_spans, nram_spans, kernel) != PHYS_RANGE_OK)
		return NULL;
	if (!mapped_uc(pa, pa + len))
		return NULL;
	return (const void *)(uintptr_t)pa;
}

/* Tables created after boot (paging_map_mmio, possibly during a test)
 * come from a reserve taken at init: the runner releases each test's
 * allocations afterwards, and page tables must outlive the test. */
#define TABLE_RESERVE 64
static uint64_t *reserve[TABLE_RESERVE];
static unsigned nreserve;

static uint64_t *table_alloc(void)
{
	uint64_t *t;

	if (full_map) {
		if (!nreserve)
			return NULL;
		t = reserve[--nreserve];
		memset(t, 0, PAGE_SIZE);
	} else {
		t = map_bi->page_alloc_below(1, SZ_4G);
	}
	if (t)
		st.tables++;
	return t;
}

static uint64_t *next_table(uint64_t *table, unsigned idx)
{
	uint64_t e = table[idx];

	if (e & PTE_P) {
		if (e & PTE_PS)
			return NULL;	/* caller must split first */
		return (uint64_t *)(uintptr_t)(e & PTE_ADDR_MASK);
	}
	uint64_t *t = table_alloc();

	if (!t)
		return NULL;
	table[idx] = (uint64_t)(uintptr_t)t | PTE_P | PTE_W;
	return t;
}

/* Write a leaf entry.  A present entry is never replaced by a different
 * one: that would silently remap whatever the kernel already reaches
 * through it (its image, the IDT, a page table).  Rewriting the same
 * value is harmless (two memory-map regions sharing one 2 MiB chunk). */
static bool set_entry(uint64_t *e, uint64_t v, uint64_t *count)
{
	if (*e & PTE_P) {
		if (*e == v)
			return true;
		st.refused++;
		return false;
	}
	*e = v;
	(*count)++;
	return true;
}

static bool map_2m(uint64_t pa, uint64_t flags)
{
	uint64_t *pdpt = next_table(pml4, (pa >> 39) & 511);
	uint64_t *pd = pdpt ? next_table(pdpt, (pa >> 30) & 511) : NULL;

	if (!pd)
		return false;
	return set_entry(&pd[(pa >> 21) & 511], pa | flags | PTE_PS, &st.pages_2m);
}

static bool map_1g(uint64_t pa, uint64_t flags)
{
	uint64_t *pdpt = next_table(pml4, (pa >> 39) & 511);

	if (!pdpt)
		return false;
	return set_entry(&pdpt[(pa >> 30) & 511], pa | flags | PTE_PS, &st.pages_1g);
}

static bool is_ram_type(uint32_t t)
{
	return t == MMAP_RAM || t == MMAP_ACPI_RECLAIM || t == MMAP_ACPI_NVS;
}

static bool overlaps_ram(const struct paging_params *bi, uint64_t base, uint64_t end)
{
	for (unsigned i = 0; i < bi->nmmap; i++) {
		const struct mem_region *r = &bi->mmap[i];

		if (is_ram_type(r->type) && r->base < end && r->base + r->len > base)
			return true;
	}
	return false;
}

/* True when [base, end) is entirely covered by memory-map entries: of a
 * RAM type (1, 3, 4) when ram_only, of any type otherwise. */
static bool covered(const struct paging_params *bi, uint64_t base, uint64_t end, bool ram_only)
{
	uint64_t pos = base;
	bool progress = true;

	while (pos < end && progress) {
		progress = false;
		for (unsigned i = 0; i < bi->nmmap; i++) {
			const struct mem_region *r = &bi->mmap[i];

			if ((!ram_only || is_ram_type(r->type)) && r->base <= pos &&
			    r->base + r->len > pos) {
				pos = r->base + r->len;
				progress = true;
			}
		}
	}
	return pos >= end;
}

static bool map_4k(uint64_t pa, uint64_t flags)
{
	uint64_t *pdpt = next_table(pml4, (pa >> 39) & 511);
	uint64_t *pd = pdpt ? next_table(pdpt, (pa >> 30) & 511) : NULL;
	uint64_t *pt = pd ? next_table(pd, (pa >> 21) & 511) : NULL;

	if (!pt)
		return false;
	return set_entry(&pt[(pa >> 12) & 511], pa | flags, &st.pages_4k);
}

/* One 2 MiB chunk: a large page when it is all RAM (write-back) or, with
 * map_other, all not-RAM (uncached).  A chunk that mixes both is split
 * into 4 KiB pages, so that no MMIO, ROM or hole is ever mapped
 * write-back: a large page spanning several memory types is undefined
 * behaviour (SDM vol. 3 §12.11.9), and the legacy VGA window and option
 * ROMs share the first 2 MiB with RAM. */
static bool map_chunk(const struct paging_params *bi, uint64_t pa, bool map_other)
{
	const uint64_t wb = PTE_P | PTE_W, uc = PTE_P | PTE_W | PTE_PCD | PTE_PWT;

	if (covered(bi, pa, pa + SZ_2M, true))
		return map_2m(pa, wb);
	if (!overlaps_ram(bi, pa, pa + SZ_2M))
		return map_other ? map_2m(pa, uc) : true;
	for (uint64_t p = pa; p < pa + SZ_2M; p += PAGE_SIZE) {
		if (covered(bi, p, p + PAGE_SIZE, true)) {
			if (!map_4k(p, wb))
				return false;
		} else if (map_other && !map_4k(p, uc)) {
			return false;
		}
	}
	return true;
}

bool paging_init(const struct paging_params *bi)
{
	struct cpuid_regs ext = cpuid(0x80000000);
	uint64_t flags_wb = PTE_P | PTE_W;

	memset(&st, 0, sizeof(st));
	fw_holes = false;
	map_bi = bi;
	st.phys_bits = 36;
	if (ext.eax >= 0x80000008)
		st.phys_bits = cpuid(0x80000008).eax & 0xff;
	nram_spans = 0;
	for (unsigned i = 0; i < bi->nmmap && nram_spans < MAX_RAM_SPANS; i++)
		if (is_ram_type(bi->mmap[i].type) && bi->mmap[i].len &&
		    bi->mmap[i].base + bi->mmap[i].len > bi->mmap[i].base)
			ram_spans[nram_spans++] = (struct phys_span){
				bi->mmap[i].base, bi->mmap[i].base + bi->mmap[i].len };
	st.gbpages = x86_cpu_has(X86_FEATURE_GBPAGES);
	pml4 = table_alloc();
	if (!pml4) {
		arch_error("paging", "no memory below 4 GiB for page tables; keeping the boot map");
		return false;
	}
	nmapped = 0;
	for (uint64_t pa = 0; pa < SZ_4G; pa += SZ_2M)
		if (!map_chunk(bi, pa, true))
			goto oom;
	note_mapped(0, SZ_4G);

	uint64_t max_pa = st.phys_bits >= 64 ? UINT64_MAX : (1ull << st.phys_bits);

	for (unsigned i = 0; i < bi->nmmap; i++) {
		const struct mem_region *r = &bi->mmap[i];
		uint64_t base = r->base, end = r->base + r->len;

		if (!is_ram_type(r->type) || end <= SZ_4G)
			continue;
		if (base < SZ_4G)
			base = SZ_4G;
		if (end > max_pa) {
			arch_warn("paging", "RAM region 0x%llx-0x%llx lies above the CPU's %u physical address bits; not mapped beyond",
				 (unsigned long long)r->base, (unsigned long long)(r->base + r->len),
				 st.phys_bits);
			end = max_pa;
			if (end <= base)
				continue;
		}
		base &= ~(SZ_2M - 1);
		end = (end + SZ_2M - 1) & ~(SZ_2M - 1);
		for (uint64_t pa = base; pa < end;) {
			if (st.gbpages && !(pa & (SZ_1G - 1)) && pa + SZ_1G <= end &&
			    covered(bi, pa, pa + SZ_1G, true)) {
				uint64_t *pdpt = next_table(pml4, (pa >> 39) & 511);

				if (!pdpt)
					goto oom;
				if (!(pdpt[(pa >> 30) & 511] & PTE_P)) {
					if (!map_1g(pa, flags_wb))
						goto oom;
				}
				pa += SZ_1G;
				continue;
			}
			uint64_t *pdpt = next_table(pml4, (pa >> 39) & 511);

			if (!pdpt)
				goto oom;
			if (pdpt[(pa >> 30) & 511] & PTE_PS) {	/* already a 1 GiB page */
				pa = (pa | (SZ_1G - 1)) + 1;
				continue;
			}
			if (!map_chunk(bi, pa, false))
				goto oom;
			pa += SZ_2M;
		}
		note_mapped(base, end);
	}
	for (unsigned i = 0; i < nmapped; i++)
		st.mapped_bytes += mapped[i].end - mapped[i].base;
	for (nreserve = 0; nreserve < TABLE_RESERVE; nreserve++)
		if (!(reserve[nreserve] = map_bi->page_alloc_below(1, SZ_4G)))
			break;
	write_cr3((uint64_t)(uintptr_t)pml4);
	full_map = true;
	st.own_tables = true;

	static uint32_t types[MAX_RAM_SPANS];
	unsigned ntypes = 0;

	for (unsigned i = 0; i < bi->nmmap && ntypes < MAX_RAM_SPANS; i++)
		if (bi->mmap[i].len)
			types[ntypes++] = bi->mmap[i].type;
	fw_holes = ntypes < MAX_RAM_SPANS && phys_map_ram_only(types, ntypes);
	if (fw_holes)
		arch_diag("paging: the memory map lists only RAM (no reserved, ACPI or NVS entries), so firmware tables are read from holes below 4 GiB too (never 0x%llx-0x%llx)",
			  PHYS_FW_WINDOW_BASE, PHYS_FW_WINDOW_END - 1);
	return true;
oom:
	arch_error("paging", "out of memory below 4 GiB or a conflicting entry (%llu refused) while building page tables; keeping the boot map",
		  (unsigned long long)st.refused);
	pml4 = NULL;
	return false;
}

bool paging_translate(uint64_t va, uint64_t *pa, uint64_t *leaf, unsigned *level)
{
	uint64_t *t = (uint64_t *)(uintptr_t)(read_cr3() & PTE_ADDR_MASK);

	/* Only canonical 48-bit addresses can be mapped (4-level paging). */
	if ((uint64_t)((int64_t)(va << 16) >> 16) != va)
		return false;
	for (int lvl = 4; lvl >= 1; lvl--) {
		uint64_t e = t[(va >> (12 + 9 * (lvl - 1))) & 511];

		if (!(e & PTE_P))
			return false;
		if (lvl == 1 || (lvl <= 3 && (e & PTE_PS))) {
			uint64_t size = 1ull << (12 + 9 * (lvl - 1));

			if (pa)
				*pa = (e & PTE_ADDR_MASK & ~(size - 1)) | (va & (size - 1));
			if (leaf)
				*leaf = e;
			if (level)
				*level = (unsigned)lvl;
			return true;
		}
		t = (uint64_t *)(uintptr_t)(e & PTE_ADDR_MASK);
	}
	return false;
}

const char *paging_mmio_check(uint64_t pa, uint64_t len)
{
	struct phys_span kernel = { (uint64_t)(uintptr_t)__kernel_start,
				    (uint64_t)(uintptr_t)__kernel_end };
	enum phys_range_verdict v = phys_range_check(pa, len, st.phys_bits ? st.phys_bits : 36,
						     ram_spans, nram_spans, kernel);

	return v == PHYS_RANGE_OK ? NULL : phys_range_text(v);
}

bool paging_map_mmio(uint64_t pa, uint64_t len)
{
	uint64_t flags_uc = PTE_P | PTE_W | PTE_PCD | PTE_PWT;
	const char *why = paging_mmio_check(pa, len);

	if (why) {
		arch_error("paging", "MMIO range 0x%llx+0x%llx %s; not mapped",
			  (unsigned long long)pa, (unsigned long long)len, why);
		return false;
	}

	uint64_t base = pa & ~(SZ_2M - 1), end = (pa + len + SZ_2M - 1) & ~(SZ_2M - 1);

	if (!full_map)
		return pa + len <= SZ_4G;
	for (uint64_t a = base; a < end; a += SZ_2M) {
		if (paging_translate(a, NULL, NULL, NULL))
			continue;
		/* Refuses (false) rather than replace a present entry. */
		if (!map_2m(a, flags_uc))
			return false;
		invlpg((void *)(uintptr_t)a);
	}
	note_mapped(base, end);
	return true;
}

const struct paging_stats *paging_get_stats(void)
{
	return &st;
}

uint64_t paging_root(void)
{
	return read_cr3() & PTE_ADDR_MASK;
}
