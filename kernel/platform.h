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

/* Hardware event counts to put beside a measurement (issue 13), on the
 * calling CPU: the core PMU in ring 0 (arch/x86/pmu.c, kernel/counters_pmu.c),
 * perf_event_open in the hosted build (tools/hosted/perf_linux.c, counting
 * user mode only).  Where there is no PMU (QEMU TCG, the nested KVM here,
 * most containers) opening fails with the reason and the measurement
 * carries no counts.  Whatever is open is closed, and the PMU MSRs put
 * back, when the case ends, however it ends. */
enum plat_event {
	PLAT_EV_CYCLES,		/* core cycles */
	PLAT_EV_INSTRUCTIONS,	/* instructions retired */
	PLAT_EV_LLC_REFS,	/* last-level cache references */
	PLAT_EV_LLC_MISSES,	/* last-level cache misses */
	PLAT_EV_RFO,		/* read-for-ownership requests (write-allocate) */
	PLAT_NEVENTS
};

struct plat_pmu_info {
	bool present;
	unsigned counters;	/* general-purpose counters available */
	unsigned width;		/* their width in bits */
	char desc[200];		/* what was found, key=value words */
	char why[240];		/* !present: the reason */
};

const char *plat_event_name(enum plat_event ev);
void plat_pmu_info(struct plat_pmu_info *info);
/* Open counters for as many of ev[0..n-1] as this CPU can count at once;
 * counting[i] says which.  Returns how many count; when not all, why holds
 * the first reason. */
unsigned plat_counters_open(const enum plat_event *ev, unsigned n, bool *counting, char *why,
			    size_t whylen);
/* Running totals of the open events, in the order asked (0 for those not
 * counting).  False if nothing is open or a read failed. */
bool plat_counters_read(uint64_t *vals);
/* after - before per event, handling counter wrap. */
void plat_counters_delta(const uint64_t *before, const uint64_t *after, uint64_t *delta);
void plat_counters_close(void);
/* "pmu_cycles=N pmu_instructions=N ..." for the counting events, or
 * "pmu=none" when none count: for a metric's extra fields. */
int plat_counts_format(char *buf, size_t size, const enum plat_event *ev, unsigned n,
		       const bool *counting, const uint64_t *delta);

#endif
