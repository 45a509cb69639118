/* SPDX-License-Identifier: GPL-2.0-only */
/* GDT, TSS and IDT setup (SDM vol. 3 §3.4.5, §6.10-6.14, §8.7). */
#include "arch/x86/desc.h"
#include "arch/x86/percpu.h"
#include "arch/x86/trapnr.h"
#include "lib/string.h"

struct desc_ptr {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

static struct idt_gate idt[256] __attribute__((aligned(16)));
extern const uint64_t isr_stub_table[256];

void idt_build(void)
{
	for (unsigned v = 0; v < 256; v++) {
		uint8_t ist = 0;

		if (v == X86_TRAP_NMI)
			ist = IST_NMI;
		else if (v == X86_TRAP_DF)
			ist = IST_DF;
		else if (v == X86_TRAP_MC)
			ist = IST_MC;
		idt[v] = idt_interrupt_gate(isr_stub_table[v], KERNEL_CS, ist);
	}
}

void desc_load_cpu(struct percpu *p)
{
	uint64_t tss = (uint64_t)(uintptr_t)&p->tss;
	uint64_t limit = sizeof(p->tss) - 1;

	memset(&p->tss, 0, sizeof(p->tss));
	p->tss.ist[IST_NMI - 1] = p->ist_top[0];
	p->tss.ist[IST_DF - 1] = p->ist_top[1];
	p->tss.ist[IST_MC - 1] = p->ist_top[2];
	p->tss.rsp[0] = p->stack_top;
	p->tss.iomap_base = sizeof(p->tss);	/* no I/O bitmap */

	p->gdt[0] = 0;
	p->gdt[1] = 0x00af9a000000ffffull;	/* 64-bit code, DPL 0 */
	p->gdt[2] = 0x00cf92000000ffffull;	/* data */
	/* 16-byte available 64-bit TSS descriptor, type 9, present. */
	p->gdt[3] = (limit & 0xffff) | ((tss & 0xffffff) << 16) | (0x89ull << 40) |
		    (((limit >> 16) & 0xf) << 48) | (((tss >> 24) & 0xff) << 56);
	p->gdt[4] = tss >> 32;
	p->gdt[5] = 0;
	p->gdt[6] = 0;

	struct desc_ptr gdtr = { sizeof(p->gdt) - 1, (uint64_t)(uintptr_t)p->gdt };
	struct desc_ptr idtr = { sizeof(idt) - 1, (uint64_t)(uintptr_t)idt };

	__asm__ volatile(
		"lgdt %0\n\t"
		"pushq %1\n\t"
		"leaq 1f(%%rip), %%rax\n\t"
		"pushq %%rax\n\t"
		"lretq\n"
		"1:\n\t"
		"movl %2, %%eax\n\t"
		"movl %%eax, %%ds\n\t"
		"movl %%eax, %%es\n\t"
		"movl %%eax, %%ss\n\t"
		:
		: "m"(gdtr), "i"(KERNEL_CS), "i"(KERNEL_DS)
		: "rax", "memory");
	/* Loading FS/GS selectors would clear their bases; GS holds percpu. */
	__asm__ volatile("ltr %w0" ::"r"((uint16_t)KERNEL_TSS));
	__asm__ volatile("lidt %0" ::"m"(idtr));
}
