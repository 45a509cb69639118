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

#endif
