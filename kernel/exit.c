/* SPDX-License-Identifier: GPL-2.0-only */
/* Machine exit; see exit.h. */
#include "kernel/exit.h"
#include "arch/x86/cpu.h"

static enum exit_mode mode = EXIT_HALT;

void exit_configure(enum exit_mode m, bool in_qemu)
{
	/* Default: isa-debug-exit only where we know we are in QEMU; on a
	 * lab machine port 0xf4 belongs to nobody we should write to. */
	mode = m == EXIT_DEFAULT ? (in_qemu ? EXIT_QEMU : EXIT_HALT) : m;
}

const char *exit_action(void)
{
	return mode == EXIT_QEMU ? "qemu-debug-exit (port 0xf4), else halt" :
	       mode == EXIT_REBOOT ? "reboot" : "halt";
}

static void __attribute__((noreturn)) reboot(void)
{
	/* PCI reset control register (0xCF9): system reset, then full reset;
	 * then the 8042 pulse; then a triple fault with an empty IDT. */
	outb(0xcf9, 0x02);
	outb(0xcf9, 0x06);
	for (volatile int i = 0; i < 1000000; i++)
		;
	outb(0x64, 0xfe);
	for (volatile int i = 0; i < 1000000; i++)
		;
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) null_idt = { 0, 0 };
	__asm__ volatile("lidt %0; int3" ::"m"(null_idt));
	halt_forever();
}

void machine_exit(int code)
{
	if (mode == EXIT_QEMU)
		outl(QEMU_DEBUG_EXIT_PORT, (uint32_t)code);
	if (mode == EXIT_REBOOT)
		reboot();
	halt_forever();
}
