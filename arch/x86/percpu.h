/* SPDX-License-Identifier: GPL-2.0-only */
/* Per-CPU state of the hardware floor (GS base, GDT, TSS, IST stacks,
 * catch points, bring-up stage).  Each CPU's GS base points at its struct percpu, whose
 * first field points at itself, so this_cpu() is one load from %gs:0.
 * CPUs are numbered 0..n-1 in start order (0 = the boot CPU); APIC IDs are
 * looked up through cpu_by_apic_id(), never used as array indexes, so
 * 32-bit x2APIC IDs need no large tables. */
#ifndef RINGLAB_ARCH_X86_PERCPU_H
#define RINGLAB_ARCH_X86_PERCPU_H

#include <stdbool.h>
#include <stdint.h>
#include "arch/x86/topology.h"

#define MAX_CPUS	4096

/* Stack sizes.  IST stacks serve NMI, #DF and #MC, so a fault with a broken
 * RSP still reaches a handler (SDM vol. 3 §6.14.5). */
#define CPU_STACK_SIZE	(32 * 1024)
#define IST_STACK_SIZE	(8 * 1024)
#define IST_NMI		1
#define IST_DF		2
#define IST_MC		3

struct tss64 {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __attribute__((packed));

struct catch_frame;

/* Bring-up progress an AP reports through the trampoline and ap_main. */
enum ap_stage {
	AP_NOT_STARTED = 0,
	AP_REAL_MODE = 1,
	AP_PROTECTED_MODE = 2,
	AP_LONG_MODE = 3,
	AP_C_ENTRY = 4,
	AP_ONLINE = 5,
};

/* timeout_by when the boot CPU's own check in the uniprocessor watchdog's
 * periodic NMI (I/O APIC, PIT channel 0) asked for the unwind. */
#define TIMEOUT_BY_PERIODIC_NMI	0xffffffffu

struct percpu {
	struct percpu *self;		/* %gs:0 */
	unsigned index;			/* 0..ncpus-1 */
	uint32_t apic_id;		/* from the MADT; checked against CPUID */
	uint32_t acpi_uid;
	struct cpu_topo topo;		/* decoded on the CPU itself at bring-up */
	volatile bool online;		/* answering cross-CPU calls */
	volatile bool lost;		/* stopped answering; left out */

	struct catch_frame *catch_top;	/* innermost catch point */
	int exc_depth;			/* nesting of exception handling */
	int irq_depth;			/* IRQ handlers running (not yet EOIed) */
	volatile int abort_req;		/* set by another CPU before an NMI: unwind
					 * this CPU's CATCH_WORK frame */
	/* kernel/nmi_watch.c: the watcher CPU sets timeout_req to the case
	 * sequence number it stops (case_seq), then sends an NMI. */
	volatile uint64_t timeout_req, case_seq;
	volatile unsigned timeout_by;	/* the CPU that sent it, or
					 * TIMEOUT_BY_PERIODIC_NMI */
	volatile bool panicking;	/* this CPU is reporting a panic */
	const char *activity;		/* test name or "boot"/"idle", for dumps */

	uint64_t gdt[7];
	struct tss64 tss;
	uintptr_t stack_top;
	uintptr_t ist_top[3];

	uint64_t start_tsc;		/* BSP's TSC just before its INIT */
	uint64_t start_latency_cycles;	/* INIT -> seen online, on the BSP's clock */
	volatile enum ap_stage stage;

	volatile uint64_t nmi_count;
	volatile uint64_t spurious_count;
	volatile uint64_t stray_irq_count;
	volatile uint64_t pic_spurious_count;
};

static inline struct percpu *this_cpu(void)
{
	struct percpu *p;

	__asm__ volatile("mov %%gs:0, %0" : "=r"(p));
	return p;
}

extern struct percpu *cpus[MAX_CPUS];
extern unsigned ncpus;			/* CPUs with a percpu (started or tried) */

/* Installs p as this CPU's per-CPU area (GS base). */
void percpu_install(struct percpu *p);
struct percpu *cpu_by_apic_id(uint32_t apic_id);

#endif
