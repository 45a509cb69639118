/* SPDX-License-Identifier: GPL-2.0-only */
/* Bounded access to physical memory for parsers of firmware data.
 *
 * Parsers (multiboot info, ACPI tables) never dereference a physical
 * address directly: they ask phys_view() for a pointer to [pa, pa+len).  It
 * returns NULL when that range is not mapped readable, or wraps.  The
 * kernel implements it over its identity map (arch/x86/paging.c); host unit
 * tests implement it over a fake memory image, which is how they feed the
 * parsers deliberately broken structures. */
#ifndef RINGLAB_LIB_PHYSMEM_H
#define RINGLAB_LIB_PHYSMEM_H

#include <stddef.h>
#include <stdint.h>

const void *phys_view(uint64_t pa, size_t len);

/* The same for a firmware table (ACPI SDT, MP configuration table) whose
 * address came from a checksummed pointer (RSDP, RSDT/XSDT, MP floating
 * pointer).  When the loader's memory map lists only RAM, it may also
 * give a range in a hole below 4 GiB, where such a map cannot show the
 * firmware's reserved areas (lib/physrange.h, phys_fw_hole_check()).
 * Callers read the view only, bound it by the table's length field and
 * checksum it before using any field but the header's.  The host fakes
 * implement it as phys_view(). */
const void *phys_view_fw(uint64_t pa, size_t len);

#endif
