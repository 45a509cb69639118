/* SPDX-License-Identifier: GPL-2.0-only */
/* boot: what the loader handed over and what the kernel built from it. */
#include "kernel/test.h"
#include "arch/x86/apic.h"
#include "arch/x86/e820.h"
#include "arch/x86/paging.h"
#include "kernel/platform.h"

SUITE(boot, 10, "multiboot information, memory map, identity map, command line");

extern char __kernel_start[], __kernel_end[];

TEST(boot, mbi)
{
	const struct boot_info *bi = plat_boot_info();

	t_diag(t, "protocol multiboot%d, info at 0x%llx (%u bytes), %u tags, loader '%s'",
	       bi->proto, (unsigned long long)bi->info_phys, bi->info_size, bi->ntags,
	       bi->has_loader ? bi->loader : "");
	t_check(t, bi->proto == 1 || bi->proto == 2, "unknown boot protocol (magic 0x%08x)",
		bi->magic);
	t_check(t, bi->has_loader, "no boot loader name");
	t_check(t, bi->has_cmdline, "no command line");
	t_check(t, bi->nmmap > 0, "no memory map");
	t_check(t, bi->nerrors == 0, "%u parse errors, first: %s", bi->nerrors,
		bi->nerrors ? bi->errors[0] : "");
	if (mbi_is_uefi(bi))
		t_check(t, bi->efi_systab != 0, "UEFI boot but EFI system table pointer is 0");
	if (bi->has_fb)
		t_diag(t, "framebuffer at 0x%llx %ux%u bpp %u pitch %u type %u",
		       (unsigned long long)bi->fb.addr, bi->fb.width, bi->fb.height, bi->fb.bpp,
		       bi->fb.pitch, bi->fb.type);
}

TEST(boot, mmap_sane)
{
	const struct boot_info *bi = plat_boot_info();
	uint64_t ks = (uint64_t)(uintptr_t)__kernel_start, ke = (uint64_t)(uintptr_t)__kernel_end;
	bool kernel_in_ram = false;

	if (!bi->nmmap) {
		t_fail(t, "no memory map");
		return;
	}
	for (unsigned i = 0; i < bi->nmmap; i++) {
		const struct mem_region *a = &bi->mmap[i];

		t_check(t, a->len > 0, "entry %u has length 0", i);
		t_check(t, a->base + a->len > a->base, "entry %u wraps around", i);
		if (a->type == MMAP_RAM && a->base <= ks && a->base + a->len >= ke)
			kernel_in_ram = true;
		for (unsigned j = i + 1; j < bi->nmmap; j++) {
			const struct mem_region *b = &bi->mmap[j];

			if (a->base < b->base + b->len && b->base < a->base + a->len &&
			    (a->type == MMAP_RAM || b->type == MMAP_RAM) && a->type != b->type)
				t_fail(t, "RAM entry overlaps a type-%u entry: 0x%llx-0x%llx and 0x%llx-0x%llx",
				       a->type == MMAP_RAM ? b->type : a->type,
				       (unsigned long long)a->base, (unsigned long long)(a->base + a->len),
				       (unsigned long long)b->base, (unsigned long long)(b->base + b->len));
		}
	}
	t_check(t, kernel_in_ram, "the kernel image 0x%llx-0x%llx is not inside one RAM entry",
		(unsigned long long)ks, (unsigned long long)ke);
	t_check(t, plat_ram_bytes() >= (16ull << 20), "only %llu bytes of RAM",
		(unsigned long long)plat_ram_bytes());
	t_metric_value(t, "ram", (int64_t)plat_ram_bytes(), "bytes", "regions=%u", bi->nmmap);
}

/* One address of the identity map: mapped, to itself, writable, with
 * the memory type the map promises. */
static bool check_identity(struct test_ctx *t, uint64_t pa, bool expect_wb)
{
	uint64_t got, leaf;
	unsigned level;

	if (!paging_translate(pa, &got, &leaf, &level))
		return t_fail(t, "0x%llx is not mapped", (unsigned long long)pa);
	if (got != pa)
		return t_fail(t, "0x%llx maps to 0x%llx", (unsigned long long)pa,
			      (unsigned long long)got);
	if (!(leaf & PTE_W))
		return t_fail(t, "0x%llx is mapped read-only", (unsigned long long)pa);
	bool uc = leaf & PTE_PCD;

	if (expect_wb && uc)
		return t_fail(t, "RAM at 0x%llx is mapped uncached", (unsigned long long)pa);
	if (!expect_wb && !uc)
		return t_fail(t, "MMIO at 0x%llx is mapped write-back", (unsigned long long)pa);
	return true;
}

TEST(boot, identity_map)
{
	const struct boot_info *bi = plat_boot_info();
	uint64_t checked = 0;

	/* Without its own tables the kernel still runs on the boot map (the
	 * first 4 GiB, write-back, boot/entry.asm): the checks below would
	 * only report that map's attributes, so say what went wrong. */
	if (!paging_get_stats()->own_tables) {
		t_fail(t, "page tables were not built at boot (see the '# error: paging' line): the boot identity map (first 4 GiB, all write-back) is in use");
		return;
	}
	for (unsigned i = 0; i < bi->nmmap; i++) {
		const struct mem_region *r = &bi->mmap[i];

		if (r->type != MMAP_RAM)
			continue;
		/* Whole pages only: a page RAM shares with something else is
		 * mapped uncached on purpose (arch/x86/paging.c map_chunk). */
		uint64_t base = (r->base + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
		uint64_t end = (r->base + r->len) & ~(PAGE_SIZE - 1);

		if (end <= base)
			continue;
		uint64_t probes[3 + 16];
		unsigned np = 0;

		probes[np++] = base;
		probes[np++] = end - 1;
		probes[np++] = base + (end - base) / 2;
		for (unsigned k = 0; k < 16; k++)
			probes[np++] = base + rng_below(&t->rng, end - base);
		for (unsigned k = 0; k < np; k++) {
			if (!check_identity(t, probes[k], true))
				return;
			/* and it must be readable: a fault here fails the case */
			(void)*(volatile uint8_t *)(uintptr_t)probes[k];
			checked++;
		}
		for (uint64_t g = (base + SZ_1G - 1) & ~(SZ_1G - 1); g < end; g += SZ_1G) {
			if (!check_identity(t, g, true))
				return;
			checked++;
		}
	}
	/* Not RAM: the legacy VGA window (0xA0000) and, in xAPIC mode, the
	 * LAPIC page must be uncached (an MTRR would not save a write-back
	 * mapping spanning two memory types). */
	bool vga_ram = false;

	for (unsigned i = 0; i < bi->nmmap; i++)
		if (bi->mmap[i].type == MMAP_RAM && bi->mmap[i].base <= 0xa0000 &&
		    bi->mmap[i].base + bi->mmap[i].len > 0xa0000)
			vga_ram = true;
	if (!vga_ram) {
		check_identity(t, 0xa0000, false);
		checked++;
	}
	if (apic_mmio_phys()) {
		check_identity(t, apic_mmio_phys(), false);
		checked++;
	}
	/* The framebuffer the screen console draws in (only one that passed
	 * fw_addresses_check(); a refused one is never looked at): mapped to
	 * itself, uncached, first and last byte. */
	uint64_t fb_pa, fb_len;

	if (plat_fb_range(&fb_pa, &fb_len)) {
		bool first = check_identity(t, fb_pa, false);
		bool last = check_identity(t, fb_pa + fb_len - 1, false);

		checked += 2;
		if (first && last)
			t_diag(t, "framebuffer console at 0x%llx+0x%llx: identity-mapped uncached",
			       (unsigned long long)fb_pa, (unsigned long long)fb_len);
	}
	/* Negative control: the walker must report what is not mapped. */
	uint64_t hole = 0x00007f0000000000ull, noncanon = 0x8000000000000000ull;

	t_check(t, !paging_translate(hole, NULL, NULL, NULL),
		"walker claims the unmapped address 0x%llx is mapped", (unsigned long long)hole);
	t_check(t, !paging_translate(noncanon, NULL, NULL, NULL),
		"walker claims the non-canonical address 0x%llx is mapped",
		(unsigned long long)noncanon);
	const struct paging_stats *ps = paging_get_stats();

	t_metric_value(t, "checked", (int64_t)checked, "count",
		       "mapped_mib=%llu pages_1g=%llu pages_2m=%llu",
		       (unsigned long long)(ps->mapped_bytes >> 20),
		       (unsigned long long)ps->pages_1g, (unsigned long long)ps->pages_2m);
}

TEST(boot, cmdline_roundtrip)
{
	static struct options again, fromraw;
	static char canon[2048];
	const struct boot_info *bi = plat_boot_info();
	const struct options *opts = plat_options();

	/* What the loader passed parses to the options in use... */
	cmdline_parse(bi->cmdline, sizeof(bi->cmdline), &fromraw);
	t_check(t, options_equal(&fromraw, opts),
		"re-parsing the loader's command line gives different options");
	/* ...and the canonical form of those options parses back to them. */
	int n = cmdline_format(opts, canon, sizeof(canon));

	t_check(t, n < (int)sizeof(canon), "canonical command line too long (%d)", n);
	cmdline_parse(canon, sizeof(canon), &again);
	t_check(t, again.nerrors == 0, "canonical form '%s' does not parse: %s", canon,
		again.nerrors ? again.errors[0] : "");
	t_check(t, options_equal(&again, opts),
		"canonical form '%s' parses to different options", canon);
	t_diag(t, "canonical: %s", canon[0] ? canon : "(defaults)");
}
