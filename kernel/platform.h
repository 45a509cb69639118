/* SPDX-License-Identifier: GPL-2.0-only */
/* The platform API tests use: time, CPUs and how they relate, CPU identity
 * and features, cross-CPU calls, memory, bounded waits.
 *
 * The kernel implements it in kernel/platform.c, kernel/case_run.c,
 * kernel/smp.c, kernel/apic_mode.c and kernel/cpu_rel.c; the hosted build
 * (tools/hosted/) implements it with one pinned thread per CPU;
 * kernel/cross_call.c and kernel/cpu_set.c are shared.  A suite that includes only this, kernel/test.h and lib/ runs as
 * a Linux program too (`make test` checks the includes of every
 * SUITE_HOSTED file; docs/suites.md lists which suites are hosted).
 * Through this header a suite also gets the TSC readers
 * (arch/x86/tsc_read.h) and the CPUID feature table (arch/x86/cpuinfo.h,
 * arch/x86/cpufeature.h), which work in ring 3.
 *
 * CPUs are numbered 0..plat_ncpus()-1; 0 runs the tests.  A CPU that
 * stopped answering is reported and left out: plat_online() says whether
 * it can still be used. */
#ifndef RINGLAB_KERNEL_PLATFORM_H
#define RINGLAB_KERNEL_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "arch/x86/acpi.h"
#include "arch/x86/apic.h"
#include "arch/x86/cpufeature.h"
#include "arch/x86/cpuinfo.h"
#include "arch/x86/tsc_read.h"
/* The types of the ring-0 bring-up accessors below (struct smpboot_result,
 * struct cpu_topo): a suite reaches them through this header. */
#include "arch/x86/smpboot.h"
#include "arch/x86/topology.h"
/* The data types (and pure parsing helpers) of the command line and of the
 * multiboot information the accessors below return: a suite reaches them
 * through this header, never by including kernel/ headers itself. */
#include "kernel/cmdline.h"
#include "kernel/mbi.h"

struct test_ctx;
struct rng;

/* An interrupt or cross-CPU acknowledgement that has not arrived after
 * this long is "lost": thousands of times any real delivery, and long
 * enough for an emulator that starves a vCPU thread (8 spinning vCPUs on
 * 2 host cores under QEMU TCG stall for 200+ ms at a time).  The base is
 * scaled at boot to the worst stall measured on this host (kernel/lost.c;
 * the "# lost:" line states the scale); the hosted build keeps the base. */
#define T_LOST_BASE_US		2000000
uint64_t plat_lost_us(void);
#define T_LOST_US		plat_lost_us()

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

/* ---- time: the one conversion family for suites (TSC cycles) ---- */
uint64_t plat_tsc_hz(void);
static inline uint64_t plat_ns_to_cycles(uint64_t ns)
{
	return (uint64_t)(((unsigned __int128)ns * plat_tsc_hz()) / 1000000000u);
}
static inline uint64_t plat_us_to_cycles(uint64_t us)
{
	return (uint64_t)(((unsigned __int128)us * plat_tsc_hz()) / 1000000u);
}
static inline uint64_t plat_ms_to_cycles(uint64_t ms)
{
	return (uint64_t)(((unsigned __int128)ms * plat_tsc_hz()) / 1000u);
}
static inline uint64_t plat_cycles_to_ns(uint64_t cycles)
{
	uint64_t hz = plat_tsc_hz();

	return hz ? (uint64_t)(((unsigned __int128)cycles * 1000000000u) / hz) : 0;
}

/* Spin until cond is true or timeout_us passes on the TSC; the value is
 * whether cond became true (checked once more at the deadline).  The one
 * bounded busy-wait for suites: never spin on a bare while.  No PAUSE in
 * the loop: the waits it serves sit in the measured path of cross-CPU
 * suites, and under QEMU TCG each PAUSE leaves the translated block; with
 * PAUSE in tsc_order's writer wait its negative control failed in 3 of 3
 * TCG runs on the loaded build machine, without it it passed 3 of 3. */
#define plat_spin_until(cond, timeout_us) \
	({ \
		uint64_t end_ = rdtsc_ordered() + plat_us_to_cycles(timeout_us); \
		bool ok_; \
		while (!(ok_ = (cond)) && rdtsc_ordered() < end_) \
			; \
		ok_; \
	})

/* ---- what the run was given: the kernel's boot state, read-only ----
 * Suites read these through the accessors, never the kernel's globals. */
/* The ACPI tables found at boot (arch/x86/acpi.h); hosted: NULL. */
const struct acpi_info *plat_acpi(void);
/* The multiboot information as parsed (kernel/mbi.h); hosted: NULL. */
const struct boot_info *plat_boot_info(void);
/* The parsed command line (kernel/cmdline.h); hosted: its arguments. */
const struct options *plat_options(void);
/* The build's version string (`git describe`). */
const char *plat_version(void);
/* Usable RAM in bytes: type-1 RAM in the memory map; hosted: sysconf. */
uint64_t plat_ram_bytes(void);
/* The boot framebuffer's physical range, false when there is none
 * (hosted: always false). */
bool plat_fb_range(uint64_t *pa, uint64_t *len);
/* Whether a case spinning with interrupts off on CPU 0 can be stopped
 * (kernel/nmi_watch.c: a watcher CPU's NMI or the periodic I/O APIC NMI);
 * hosted: false. */
bool plat_nmi_watch_available(void);
/* End the run now: the open case and suite report PANIC, then
 * "ringlab: PANIC: <why>" and the exit lines (docs/log-format.md).
 * Hosted: the same lines, exit status 3. */
void plat_panic(const char *why) __attribute__((noreturn));

/* ---- CPU identity and features ---- */
/* CPU 0's CPUID, decoded (vendor, family/model, feature booleans). */
const struct cpuinfo *plat_cpu_info(void);
/* Whether the CPU has feature f (X86_FEATURE_*, arch/x86/cpufeature.h). */
static inline bool plat_cpu_has(struct x86_cpu_feature f)
{
	return x86_cpu_has(f);
}
/* True in the kernel (ring 0), false in the hosted build (ring 3). */
bool plat_ring0(void);
/* True under an emulator or hypervisor (QEMU TCG or KVM, any VM that sets
 * CPUID.1:ECX[31]): time there is not the hardware's, and some behaviours
 * (MSR #GP, ISR contents) are the emulator's. */
bool plat_under_emulator(void);
/* Where this run executes, one token (arch/x86/cpuenv.h): "bare-metal",
 * "hypervisor:<signature>", "emulator:qemu-tcg", "emulator:bochs".  Every
 * conclusion line carries it as env=<this>. */
const char *plat_env(void);
/* "" on bare metal; else one phrase saying that timings there are the
 * emulator's or hypervisor's ("under QEMU TCG: ... not a hardware result"),
 * for the sentence of a conclusion. */
const char *plat_env_note(void);

/* The boot probes of claimed features (kernel/cpu_probe.c): each
 * instruction a suite uses because CPUID claims it, executed once under
 * the fault catch.  A probe that faulted made its feature absent for the
 * rest of the run (plat_cpu_has() is false; x86_feature_absent_why() says
 * why).  The hosted build probes nothing (0 results). */
enum cpu_probe_state {
	CPU_PROBE_NOT_CLAIMED,	/* CPUID does not claim it: not executed */
	CPU_PROBE_OK,		/* executed, no fault */
	CPU_PROBE_FAULT,	/* executed, faulted: treated as absent */
	CPU_PROBE_NO_STATE,	/* claimed, but the OS state cannot be enabled */
	CPU_PROBE_MISMATCH,	/* executed without a fault, but did not do what
				 * the manual says (an MSR that holds no value,
				 * a reserved bit without #GP): absent */
	CPU_PROBE_NOT_RUN,	/* claimed, not executed: ring 0 is emulated
				 * here and an emulator without the instruction
				 * ends the guest; treated as absent */
};

struct cpu_probe_result {
	const char *name;	/* "rtm" */
	const char *feature;	/* "CPUID.7.0:EBX[11] (RTM)" */
	const char *insn;	/* "XBEGIN;XEND" */
	enum cpu_probe_state state;
	int vector;		/* CPU_PROBE_FAULT */
	const char *seen;	/* CPU_PROBE_MISMATCH: what happened instead */
	bool simulated;		/* the claim came from simulate=cpuid:+NAME */
};

/* The results in probe order; returns how many. */
unsigned plat_cpu_probes(const struct cpu_probe_result **out);
/* Under a hypervisor: REP STOSB on a cached 4 KiB page in MB/s, measured
 * once by the boot probes (0: not measured; bare metal, TCG and the hosted
 * build are not). */
uint64_t plat_emulated_mbps(void);
/* Below this, every ring-0 instruction is being emulated by the hypervisor
 * (the software KVM on this project's build machines: 1-2 MB/s; TCG and
 * hardware-assisted guests: hundreds to thousands), whose emulator does
 * neither SSE/AVX stores nor CLZERO although CPUID offers them: the guest
 * then ends with "KVM internal error: emulation failure", which no fault
 * handler can catch.  Such instructions are not executed there. */
#define PLAT_EMULATED_MBPS	10
static inline bool plat_ring0_emulated(void)
{
	uint64_t mbps = plat_emulated_mbps();

	return mbps && mbps < PLAT_EMULATED_MBPS;
}

/* ---- CPUs and how they relate ---- */

unsigned plat_ncpus(void);
bool plat_online(unsigned cpu);
unsigned plat_this_cpu(void);
/* Physical APIC ID of a CPU (the kernel's), or the CPU number (hosted). */
uint32_t plat_cpu_apic_id(unsigned cpu);
/* Online CPUs other than 0, in order; returns how many were written. */
unsigned plat_other_cpus(unsigned *out, unsigned max);
/* Every online CPU, 0 first, in order; returns how many were written. */
unsigned plat_online_cpus(unsigned *out, unsigned max);

/* How two CPUs relate; each value prints as its name in lower case
 * without REL_ (plat_cpu_rel_name: "smt_sibling", "same_package", ...). */
enum cpu_rel { REL_SELF, REL_SMT_SIBLING, REL_SAME_PACKAGE, REL_OTHER_PACKAGE };
enum cpu_rel plat_cpu_relation(unsigned a, unsigned b);
const char *plat_cpu_rel_name(enum cpu_rel r);
/* Up to max online CPUs (not `from`) with relation r to `from`, sampled
 * uniformly with rng so that big machines stay bounded. */
unsigned plat_cpus_with_relation(unsigned from, enum cpu_rel r, unsigned *out, unsigned max,
				 struct rng *rng);

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

/* Run fn on every online CPU (CPU 0 last, inline) and wait for all, as
 * plat_call_many() over plat_online_cpus(); status[] (when given) is
 * indexed by CPU number and must have plat_ncpus() entries. */
int plat_call_online(plat_fn fn, void *arg, uint64_t timeout_ms, int *status);

/* Zeroed, page-aligned memory that lives until the current test ends, or
 * NULL.  Test bodies use t_alloc() (kernel/test.h), which never returns
 * NULL. */
void *plat_alloc(size_t bytes);

/* End the running case now (it keeps the result it has): from the case's
 * own body on CPU 0 only.  Used by t_abort() and t_alloc(). */
void plat_abort_case(void) __attribute__((noreturn));

/* Interrupts off/on around a measurement window on the calling CPU (no-op
 * in the hosted build).  Keep such windows bounded. */
uint64_t plat_irq_save(void);
void plat_irq_restore(uint64_t flags);

/* Run one test case: budget, fault and timeout handling, the case's
 * deferred actions (t_defer), cleanup.  Used by the runner only (kernel:
 * kernel/case_run.c; hosted: tools/hosted/platform_linux.c). */
void plat_run_case(struct test_ctx *t);

/* ---- ring 0 only: the hosted build does not define these ----
 * A SUITE_HOSTED suite calling one does not link into ringlab-hosted. */

/* The local APIC mode (enum apic_mode, arch/x86/apic.h, which this header
 * includes for it): whether m can be entered now, and entering it on
 * every online CPU (kernel/apic_mode.c).  False with the reason in why.
 * The runner puts the boot mode back when the case ends. */
bool plat_apic_mode_allowed(enum apic_mode m, char *why, size_t whysz);
bool plat_set_apic_mode(enum apic_mode m, char *why, size_t whysz);

/* A fault caught inside a case (plat_catch).  vector: the exception
 * vector (X86_TRAP_*, arch/x86/trapnr.h); cr2: for #PF only. */
struct plat_fault {
	int vector;
	uint64_t error_code, rip, cr2;
};
#define PLAT_CATCH_QUIET	(1u << 0)	/* the exception is expected: no dump */
/* Run body(arg) on CPU 0 inside a case under a catch point of its own: an
 * exception, or the case's budget running out (the watchdog, or the NMI
 * watchdog with interrupts off), unwinds to here instead of ending the
 * case.  Returns PLAT_OK, PLAT_FAULT (*f filled) or PLAT_TIMEOUT (f->rip =
 * where it was stopped; the budget is spent: the rest of the case gets
 * PLAT_CATCH_GRACE_MS, once per case whatever catches later, to clean up
 * and report, then it is stopped as a TIMEOUT like any overrun).  PLAT_INVALID outside a case body on
 * CPU 0.  t_abort() inside body still ends the case.  The catch frames
 * live in static storage (up to PLAT_CATCH_DEPTH nested calls), where
 * the resume after an unwind cannot clobber them.  The case's result is
 * not touched: the caller decides what the ending means. */
#define PLAT_CATCH_DEPTH	4
#define PLAT_CATCH_GRACE_MS	1000
int plat_catch(plat_fn body, void *arg, unsigned flags, struct plat_fault *f);
/* "unexpected #UD (vector 6, Invalid Opcode) error=0x0 at rip=0x...",
 * with " cr2=0x..." for #PF: the one wording, also the runner's reason for
 * a case ended by an exception.  Returns the length like snprintf. */
int plat_fault_describe(const struct plat_fault *f, char *buf, size_t size);

/* ---- ring 0 only: the CPUs as the kernel brought them up ----
 * Bring-up, topology and per-CPU state for the smp, apic, ipi, tsc and
 * timer suites (kernel/platform.c).  A suite reaches them here, never
 * through arch/x86/percpu.h, smpboot.h or topology.h. */

/* The most CPUs the kernel runs (arch/x86/percpu.h MAX_CPUS: kernel/
 * platform.c checks that they agree).  plat_ncpus() never exceeds it in
 * either build, so it sizes a suite's static CPU lists. */
#define PLAT_MAX_CPUS		4096
/* plat_cpu_by_apic_id()'s "no such CPU"; plat_online() is false for it. */
#define PLAT_NO_CPU		0xffffffffu

/* Busy-wait us microseconds on the TSC: a settling time, not a wait for
 * a condition (that is plat_spin_until). */
void plat_delay_us(uint64_t us);
/* The local APIC mode the kernel runs every online CPU in now. */
enum apic_mode plat_apic_mode(void);
/* What AP bring-up did (arch/x86/smpboot.h): the MADT's counts, the CPUs
 * started, failed, left out, parked, and how long it took. */
const struct smpboot_result *plat_smpboot(void);
/* Report (as error lines) the CPUs that answered a start not meant for
 * them or claimed a taken slot since bring-up; returns the error total. */
unsigned plat_smpboot_check_strays(void);
/* The CPU number bring-up gave the CPU with this APIC ID (started or
 * tried), or PLAT_NO_CPU when none has it. */
unsigned plat_cpu_by_apic_id(uint32_t apic_id);
/* From CPU 0's INIT to CPU 0 seeing cpu online, on CPU 0's clock (TSC
 * cycles); 0 where not recorded (CPU 0, an AP that did not start). */
uint64_t plat_cpu_start_cycles(unsigned cpu);
/* The package number cpu decoded of itself at bring-up (what
 * plat_cpu_relation() compares). */
uint32_t plat_cpu_package(unsigned cpu);
/* The calling CPU's topology, decoded from CPUID now (arch/x86/
 * topology.h: leaf 0x1F, 0xB or the leaf-1 fallback). */
void plat_topo_read(struct cpu_topo *t);
/* Interrupts on the spurious vector cpu has handled: counted, never EOIed
 * (SDM vol. 3 §11.9).  Safe in an interrupt handler. */
uint64_t plat_spurious_count(unsigned cpu);

/* ---- a rendezvous at one TSC instant (kernel and hosted) ---- */

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

/* ---- memory experiments: clear, litmus, fence ----
 * Kernel: kernel/platform_mem.c; hosted: tools/hosted/mem_linux.c; the
 * clearing primitives: arch/x86/clear.asm (linked into both). */

/* What the memory suites need to know about the caches and the SIMD
 * state.  Instructions are features: plat_cpu_has(X86_FEATURE_*); ring 0
 * is plat_ring0(); an emulator or hypervisor is plat_under_emulator(). */
struct plat_mem_info {
	uint64_t llc_bytes;	/* last-level cache, 0 if no CPUID leaf says */
	unsigned llc_level;
	const char *llc_source;	/* which CPUID leaf gave it */
	/* the instructions (plat_cpu_has) and their register state, which
	 * ring 0 can enable (XCR0) or the OS has enabled (hosted) */
	bool avx_state, avx512_state;
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
/* The same NT stores without the trailing SFENCE (a batch of per-page
 * clears fenced once at its end, by mem_sfence()). */
void mem_clear_movnti_nofence(void *p, size_t n);
void mem_clear_movntdq_nofence(void *p, size_t n);		/* PLAT_SIMD_SSE */
void mem_clear_vmovntdq_ymm_nofence(void *p, size_t n);	/* PLAT_SIMD_AVX */
void mem_clear_vmovntdq_zmm_nofence(void *p, size_t n);	/* PLAT_SIMD_AVX512 */
void mem_clear_clzero_nofence(void *p, size_t n);
void mem_sfence(void);
/* OR of every 8-byte word of [p, p+n), n a multiple of 64. */
uint64_t mem_or_reduce(const void *p, size_t n);
/* Hardware event counts to put beside a measurement, on the
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
