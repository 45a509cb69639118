/* Kernel side of the cross-CPU calls in kernel/platform.h: the AP idle
 * loop, the doorbell IPI, and the recovery of CPUs that stop answering. */
#ifndef RINGLAB_KERNEL_SMP_H
#define RINGLAB_KERNEL_SMP_H

#include <stdbool.h>
#include "kernel/percpu.h"

/* Install the doorbell handler (BSP, once). */
void smp_init_calls(void);
/* An AP's life after bring-up: wait for work, run it, repeat. */
void smp_ap_idle_loop(void) __attribute__((noreturn));
/* After a test: every online AP must be idle; stragglers get an NMI abort
 * and, failing that, are declared lost.  Returns how many needed help. */
unsigned smp_quiesce(void);
/* Number of CPUs online now. */
unsigned smp_online_count(void);

#endif

#include "arch/x86/apic.h"

/* Modes the ipi suite may use on this machine: the boot mode always; the
 * other one only when the firmware handed over in xAPIC mode, CPUID has
 * x2APIC, nothing forced or simulated a mode, and every online APIC ID
 * fits xAPIC's 8 bits.  why explains a refusal. */
bool smp_apic_mode_allowed(enum apic_mode m, char *why, unsigned why_size);
/* Switch every online CPU's APIC to m (through the disabled state, SDM
 * vol. 3 §11.12.5) and reprogram it.  Nothing may be in flight. */
bool smp_set_apic_mode(enum apic_mode m, char *why, unsigned why_size);

/* How two CPUs relate in the topology (from CPUID on each CPU). */
enum cpu_rel { REL_SELF, REL_SMT, REL_CORE, REL_PACKAGE };
enum cpu_rel cpu_relation(unsigned a, unsigned b);
const char *cpu_rel_name(enum cpu_rel r);
struct rng;
/* Up to max online CPUs (not `from`) with relation r to `from`, sampled
 * uniformly with rng so that big machines stay bounded. */
unsigned cpus_with_relation(unsigned from, enum cpu_rel r, unsigned *out, unsigned max,
			    struct rng *rng);
