/* The platform API tests use: time, CPUs, cross-CPU calls, memory.
 *
 * The kernel implements it in kernel/platform.c and kernel/smp.c; the
 * hosted build (tools/hosted/) implements it with one pinned thread per
 * CPU, so a suite that uses only this, kernel/test.h, lib/ and
 * arch/x86/tsc_read.h also runs as a Linux program.
 *
 * CPUs are numbered 0..plat_ncpus()-1; 0 runs the tests.  A CPU that
 * stopped answering is reported and left out: plat_online() says whether
 * it can still be used. */
#ifndef RINGLAB_KERNEL_PLATFORM_H
#define RINGLAB_KERNEL_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct test_ctx;

/* An interrupt or cross-CPU acknowledgement that has not arrived after
 * this long is "lost": thousands of times any real delivery, and long
 * enough for an emulator that starves a vCPU thread (8 spinning vCPUs on
 * 2 host cores under QEMU TCG stall for 200+ ms at a time). */
#define T_LOST_US		2000000

enum {
	PLAT_OK = 0,
	PLAT_TIMEOUT = -1,	/* no answer in time; the CPU is now lost */
	PLAT_FAULT = -2,	/* the function took an exception (dumped) */
	PLAT_ABORTED = -3,	/* it overran and was unwound by an NMI */
	PLAT_OFFLINE = -4,	/* the CPU is not available */
	PLAT_BUSY = -5,		/* the CPU is still running earlier work */
	PLAT_INVALID = -6,
};

const char *plat_strerror(int rc);

uint64_t plat_tsc_hz(void);
static inline uint64_t plat_ns_to_cycles(uint64_t ns)
{
	return (uint64_t)(((unsigned __int128)ns * plat_tsc_hz()) / 1000000000u);
}

unsigned plat_ncpus(void);
bool plat_online(unsigned cpu);
unsigned plat_this_cpu(void);
/* Physical APIC ID of a CPU (the kernel's), or the CPU number (hosted). */
uint32_t plat_cpu_apic_id(unsigned cpu);
/* Online CPUs other than 0, in order; returns how many were written. */
unsigned plat_other_cpus(unsigned *out, unsigned max);

typedef void (*plat_fn)(void *arg);

/* Start fn(arg) on cpu (not the caller) without waiting. */
int plat_post(unsigned cpu, plat_fn fn, void *arg);
/* Wait for work posted to cpu; on timeout the CPU is sent an NMI that
 * unwinds its work (PLAT_ABORTED), or it is declared lost (PLAT_TIMEOUT). */
int plat_wait(unsigned cpu, uint64_t timeout_ms);
/* post + wait; cpu == plat_this_cpu() calls fn directly. */
int plat_call(unsigned cpu, plat_fn fn, void *arg, uint64_t timeout_ms);
/* Run fn on every listed CPU at once (the caller too if listed, last and
 * inline), then wait for all.  Returns the first error, PLAT_OK if none;
 * per-CPU results in status[] when given. */
int plat_call_many(const unsigned *cpus, unsigned n, plat_fn fn, void *arg,
		   uint64_t timeout_ms, int *status);

/* Zeroed, page-aligned memory that lives until the current test ends. */
void *plat_alloc(size_t bytes);

/* Interrupts off/on around a measurement window on the calling CPU (no-op
 * in the hosted build).  Keep such windows bounded. */
uint64_t plat_irq_save(void);
void plat_irq_restore(uint64_t flags);

/* Run one test case: budget, fault and timeout handling, cleanup.  Used
 * by the runner only. */
void plat_run_case(struct test_ctx *t);

/* A rendezvous that releases every participant at the same TSC instant:
 * the last to arrive sets the release time a little in the future, all
 * spin until their TSC passes it.  Needs synchronized TSCs for the
 * "same instant" (tsc suite checks that).  Returns false on timeout. */
struct tsc_barrier {
	volatile unsigned arrived;
	volatile uint64_t release_tsc;
	unsigned n;
	uint64_t margin_cycles;
};
void tsc_barrier_init(struct tsc_barrier *b, unsigned n, uint64_t margin_cycles);
bool tsc_barrier_wait(struct tsc_barrier *b, uint64_t timeout_cycles);

/* ---- memory experiments (issue 10): clear, litmus, fence ----
 * Kernel: kernel/platform_mem.c; hosted: tools/hosted/mem_linux.c; the
 * clearing primitives: arch/x86/clear.asm (linked into both). */

/* What the memory suites need to know about the CPU and the platform. */
struct plat_mem_info {
	bool ring0;		/* the kernel (false: hosted, ring 3) */
	uint64_t llc_bytes;	/* last-level cache, 0 if no CPUID leaf says */
	unsigned llc_level;
	const char *llc_source;	/* which CPUID leaf gave it */
	bool sse2, avx2, avx512f, clzero, erms, serialize;
	bool avx_state, avx512_state;	/* the state can be enabled (XCR0 / OS) */
	bool hypervisor;	/* CPUID.1:ECX[31] */
};
void plat_mem_info(struct plat_mem_info *mi);

/* Memory for one large experiment: page-aligned, 2 MiB-aligned where
 * possible, usable RAM only, NOT zeroed (hosted: mmap, huge pages advised,
 * populated by whoever touches it first).  One at a time: a new call
 * releases the previous one; released anyway when the test ends.  *how
 * says what was done (page sizes).  NULL when it does not fit. */
void *plat_alloc_big(size_t bytes, char *how, size_t howsz);
void plat_free_big(void *p);
/* The largest plat_alloc_big() could return now. */
uint64_t plat_big_avail(void);

/* Run fn(arg) on the calling CPU with the SIMD state enabled (need: the
 * PLAT_SIMD_* bits).  Ring 0 sets CR0/CR4/XCR0 for the call and restores
 * them afterwards, also when fn faults, overruns or is aborted (then the
 * result is PLAT_FAULT / PLAT_ABORTED / PLAT_TIMEOUT and why says where).
 * PLAT_INVALID with why when the state cannot be enabled. */
#define PLAT_SIMD_SSE		(1u << 0)
#define PLAT_SIMD_AVX		(1u << 1)
#define PLAT_SIMD_AVX512	(1u << 2)
int plat_simd_call(unsigned need, plat_fn fn, void *arg, char *why, size_t whysz);

/* Serializing operations the fence suite times through the seam: reps
 * executions in one loop, each after nlines stores to the 64-byte lines
 * at `lines` (nlines 0: alone); TSC cycles in *cycles.  False with *why
 * where not available (hosted: MOV to CR2 needs ring 0). */
enum plat_priv_op { PLAT_PRIV_MOV_CR2, PLAT_PRIV_IRET_SELF };
bool plat_priv_loop(enum plat_priv_op op, unsigned reps, volatile uint64_t *lines,
		    unsigned nlines, uint64_t *cycles, const char **why);

/* arch/x86/clear.asm: clear n bytes at p (64-byte aligned, n a multiple
 * of 64; rep_stosb takes any n).  The NT ones end with SFENCE. */
void mem_clear_rep_stosb(void *p, size_t n);
void mem_clear_rep_stosq(void *p, size_t n);
void mem_clear_mov(void *p, size_t n);
void mem_clear_movnti(void *p, size_t n);
void mem_clear_movntdq(void *p, size_t n);		/* PLAT_SIMD_SSE */
void mem_clear_vmovntdq_ymm(void *p, size_t n);	/* PLAT_SIMD_AVX */
void mem_clear_vmovntdq_zmm(void *p, size_t n);	/* PLAT_SIMD_AVX512 */
void mem_clear_clzero(void *p, size_t n);		/* CPUID 8000_0008h:EBX[0] */
/* OR of every 8-byte word of [p, p+n), n a multiple of 64. */
uint64_t mem_or_reduce(const void *p, size_t n);

#endif
