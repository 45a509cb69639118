/* SPDX-License-Identifier: GPL-2.0-only */
/* libFuzzer harness: kernel/mbi.c.  Byte 0 picks multiboot1 or 2; the rest
 * is the info block at 0x10000, after 64 KiB of zeroed low memory
 * (pointers in it may reach anywhere there, or outside). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel/mbi.h"
#include "tests/fuzz/fuzz_phys.h"

#define INFO	0x10000u
#define LOW	0x20000u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct boot_info bi;
	if (size < 1)
		return 0;
	uint32_t magic = (data[0] & 1) ? MB2_BOOTLOADER_MAGIC : MB1_BOOTLOADER_MAGIC;

	/* Low memory (the BDA and the EBDA) zero, the info block as given. */
	fz_mem_add(0, INFO, NULL, 0);
	fz_mem_add(INFO, size < LOW - INFO ? size : LOW - INFO, data + 1, size - 1);
	mbi_parse(magic, INFO, &bi);
	for (unsigned i = 0; i < bi.nerrors && i < MBI_MAX_ERRORS; i++)
		if (strnlen(bi.errors[i], MBI_ERROR_LEN) >= MBI_ERROR_LEN)
			__builtin_trap();
	if (strnlen(bi.cmdline, sizeof(bi.cmdline)) >= sizeof(bi.cmdline) || bi.nmmap > MBI_MAX_MMAP)
		__builtin_trap();
	fz_mem_reset();
	return 0;
}
