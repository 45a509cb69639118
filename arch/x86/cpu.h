/* Thin inline wrappers for instructions C cannot express: CPUID, MSRs, port
 * I/O, control registers, fences, interrupt flag.  Nothing here has policy. */
#ifndef RINGLAB_ARCH_X86_CPU_H
#define RINGLAB_ARCH_X86_CPU_H

#include <stdbool.h>
#include <stdint.h>

struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

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

#define X86_CR0_PE	(1ull << 0)
#define X86_CR0_WP	(1ull << 16)
#define X86_CR0_PG	(1ull << 31)
#define X86_CR4_PAE	(1ull << 5)
#define X86_CR4_PGE	(1ull << 7)
#define X86_CR4_PCIDE	(1ull << 17)

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
