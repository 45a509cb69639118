/* SPDX-License-Identifier: GPL-2.0-only */
/* phys_view() and phys_view_fw() (lib/physmem.h; the same here) for the
 * libFuzzer harnesses: up to four regions at chosen physical addresses, each an exactly-sized heap copy so
 * that ASan flags any read past what a parser was given. */
#ifndef RINGLAB_TESTS_FUZZ_PHYS_H
#define RINGLAB_TESTS_FUZZ_PHYS_H

#include <stddef.h>
#include <stdint.h>

void fz_mem_reset(void);
/* Copy size bytes of data (zero-padded to size if len < size) to base. */
void fz_mem_add(uint64_t base, size_t size, const uint8_t *data, size_t len);

#endif
