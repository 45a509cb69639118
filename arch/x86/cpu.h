/* SPDX-License-Identifier: GPL-2.0-only */
/* Thin inline wrappers for instructions C cannot express: CPUID, MSRs, port
 * I/O, control registers, fences, interrupt flag.  Nothing here has policy. */
#ifndef RINGLAB_ARCH_X86_CPU_H
#define RINGLAB_ARCH_X86_CPU_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/x86/cpufeature.h"
#include "arch/x86/processor-flags.h"

static inline struct cpuid_regs cpuid_count(uint32_t leaf, uint32_t sub)
{
	struct cpuid_regs r;

	__asm__ volatile("cpuid"
			 : "=a"(r.eax), "=b"(r.ebx), "=c"(r.ecx), "=d"(r.edx)
			 : "a"(leaf), "c"(sub));
	return r;
}

static inline struct cpuid_regs cpuid(uint32_t leaf)
{
	return cpuid_count(leaf, 0);
}

static inline void cpu_relax(void)
{
	__asm__ volatile("pause" ::: "memory");
}

static inline void barrier(void)
{
	__asm__ volatile("" ::: "memory");
}

static inline void mfence(void) { __asm__ volatile("mfence" ::: "memory"); }
static inline void lfence(void) { __asm__ volatile("lfence" ::: "memory"); }
static inline void sfence(void) { __asm__ volatile("sfence" ::: "memory"); }

/* IRET to the next instruction at the current privilege level: a
 * serializing instruction that works in any ring (SDM vol. 3 §10.3 lists
 * IRET; Linux's sync_core() uses it).  In 64-bit mode IRET always pops
 * SS:RSP, so all five words are pushed (SDM vol. 2 IRET). */
static inline void iret_to_self(void)
{
	uint64_t tmp;

	__asm__ volatile("mov %%ss, %k0\n\t"
			 "pushq %0\n\t"
			 "leaq 8(%%rsp), %0\n\t"
			 "pushq %0\n\t"
			 "pushfq\n\t"
			 "mov %%cs, %k0\n\t"
			 "pushq %0\n\t"
			 "leaq 1f(%%rip), %0\n\t"
			 "pushq %0\n\t"
			 "iretq\n"
			 "1:"
			 : "=&r"(tmp)::"memory", "cc");
}

/* VERW m16: ZF=1 if the selector names a segment writable at the current
 * privilege.  The memory-operand form is the one that also overwrites the
 * CPU buffers on parts that enumerate MD_CLEAR (Intel, "Microarchitectural
 * Data Sampling" guidance; SDM vol. 2 VERW).  Returns ZF. */
static inline bool verw(uint16_t sel)
{
	bool zf;

	__asm__ volatile("verw %1" : "=@ccz"(zf) : "m"(sel) : "memory");
	return zf;
}

#ifndef RINGLAB_USER
/* ---- ring-0 only from here on ---- */

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr" ::"c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32))
			 : "memory");
}

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" ::"a"(v), "Nd"(port));
}

static inline void outw(uint16_t port, uint16_t v)
{
	__asm__ volatile("outw %0, %1" ::"a"(v), "Nd"(port));
}

static inline void outl(uint16_t port, uint32_t v)
{
	__asm__ volatile("outl %0, %1" ::"a"(v), "Nd"(port));
}

static inline uint8_t inb(uint16_t port)
{
	uint8_t v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline uint16_t inw(uint16_t port)
{
	uint16_t v;

	__asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline uint32_t inl(uint16_t port)
{
	uint32_t v;

	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

#define DEFINE_CR_ACCESS(n) \
	static inline uint64_t read_cr##n(void) \
	{ \
		uint64_t v; \
		__asm__ volatile("mov %%cr" #n ", %0" : "=r"(v)); \
		return v; \
	} \
	static inline void write_cr##n(uint64_t v) \
	{ \
		__asm__ volatile("mov %0, %%cr" #n ::"r"(v) : "memory"); \
	}
DEFINE_CR_ACCESS(0)
DEFINE_CR_ACCESS(3)
DEFINE_CR_ACCESS(4)
#undef DEFINE_CR_ACCESS

static inline uint64_t read_cr2(void)
{
	uint64_t v;

	__asm__ volatile("mov %%cr2, %0" : "=r"(v));
	return v;
}

/* X86_CR0_* and X86_CR4_*: arch/x86/processor-flags.h (shared with asm) */

static inline void write_cr2(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr2" ::"r"(v) : "memory");
}

/* XCR0 (needs CR4.OSXSAVE; XSETBV is ring 0 only, SDM vol. 2 XSETBV). */
static inline uint64_t xgetbv0(void)
{
	uint32_t lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

static inline void xsetbv0(uint64_t v)
{
	__asm__ volatile("xsetbv" ::"a"((uint32_t)v), "d"((uint32_t)(v >> 32)), "c"(0) : "memory");
}

static inline void invlpg(const void *va)
{
	__asm__ volatile("invlpg (%0)" ::"r"(va) : "memory");
}

static inline void cli(void) { __asm__ volatile("cli" ::: "memory"); }
static inline void sti(void) { __asm__ volatile("sti" ::: "memory"); }
static inline void hlt(void) { __asm__ volatile("hlt" ::: "memory"); }

/* STI's one-instruction interrupt shadow makes "sti; hlt" race-free:
 * an interrupt that became pending before STI wakes the HLT (SDM vol. 2,
 * STI). */
static inline void safe_halt(void)
{
	__asm__ volatile("sti; hlt" ::: "memory");
}

#define X86_RFLAGS_IF	(1ull << 9)

static inline uint64_t read_rflags(void)
{
	uint64_t f;

	__asm__ volatile("pushfq; popq %0" : "=r"(f)::"memory");
	return f;
}

static inline uint64_t irq_save(void)
{
	uint64_t f = read_rflags();

	cli();
	return f;
}

static inline void irq_restore(uint64_t flags)
{
	if (flags & X86_RFLAGS_IF)
		sti();
}

static inline bool irqs_enabled(void)
{
	return read_rflags() & X86_RFLAGS_IF;
}

static inline void __attribute__((noreturn)) halt_forever(void)
{
	for (;;)
		__asm__ volatile("cli; hlt");
}
#endif /* !RINGLAB_USER */

#endif
