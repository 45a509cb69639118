/* SPDX-License-Identifier: GPL-2.0-only */
/* litmus: the MSRs of the WRMSR variants (suites/litmus/wrmsr.c).
 *
 * Every WRMSR writes back the value its MSR already holds on that CPU
 * (read just before): the TPR keeps its priority, the KERNEL_GS_BASE its
 * base, and IA32_TSC_DEADLINE the deadline it holds -- the runner's
 * watchdog deadline for this case, seconds ahead, or 0 when disarmed --
 * so the register never holds another value and there is nothing to
 * restore, whether the case ends normally, faults or is stopped; after
 * each run the value is read back and, if it differs, written back and
 * the case fails.  The x2APIC ICR holds no state to keep: each write
 * sends an IPI.  Its WRMSR sends this CPU a fixed IPI on the doorbell
 * vector (LITMUS_ICR_SELF_DOORBELL, lib/litmus.h), whose handler only
 * returns; the SB runs send it with interrupts off, so it is taken after
 * the iteration's load.  Under an emulator or hypervisor the WRMSR is emulated
 * (or a VM exit): the verdict there is the emulator's, not the CPU's. */
#include "suites/litmus/litmus.h"
#include "kernel/test.h"
#include "kernel/platform.h"
#include "lib/litmus.h"
#include "lib/printf.h"

const struct msr_desc lit_msrs[] = {
	[M_TSC_DEADLINE] = { "tsc_deadline", "IA32_TSC_DEADLINE", LITMUS_MSR_TSC_DEADLINE, "TSC_DEADLINE" },
	[M_X2APIC_TPR] = { "x2apic_tpr", "IA32_X2APIC_TPR", LITMUS_MSR_X2APIC_TPR, "x2APIC TPR" },
	[M_X2APIC_ICR] = { "x2apic_icr", "IA32_X2APIC_ICR", LITMUS_MSR_X2APIC_ICR, "x2APIC ICR" },
	[M_SERIALIZING] = { "serializing", "IA32_KERNEL_GS_BASE", LITMUS_MSR_KERNEL_GS_BASE, "KERNEL_GS_BASE" },
};

/* Only ever executed in ring 0 (plat_ring0()). */
static inline uint64_t lit_rdmsr(uint32_t msr)
{
	uint32_t lo, hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return (uint64_t)hi << 32 | lo;
}

static inline void lit_wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)) : "memory");
}

/* One read-and-write-back of the MSR on another CPU: plat_call runs it
 * under the cross-call fault catch, so an MSR that #GPs comes back as
 * PLAT_FAULT instead of taking the case down (QEMU TCG returns 0 for
 * unknown MSRs without a fault, so CPUID is checked first). */
static void probe_fn(void *arg)
{
	struct probe *p = arg;

	if (p->serialize) {
		__asm__ volatile(".byte 0x0f, 0x01, 0xe8" ::: "memory");	/* SERIALIZE */
		return;
	}
	uint64_t flags = plat_irq_save();

	lit_wrmsr(p->msr, p->set ? p->val : lit_rdmsr(p->msr));
	plat_irq_restore(flags);
}

bool lit_probe_elsewhere(struct probe *p, char *why, size_t size, const char *what)
{
	unsigned other;

	if (!plat_other_cpus(&other, 1)) {
		rl_snprintf(why, size, "no second CPU to try %s on under the cross-call fault catch", what);
		return false;
	}
	int rc = plat_call(other, probe_fn, p, 1000);

	if (rc != PLAT_OK) {
		rl_snprintf(why, size, "%s on cpu %u: %s", what, other, plat_strerror(rc));
		return false;
	}
	return true;
}

/* Whether the WRMSR of kind k can run here; NULL if yes, else why not
 * (naming the CPUID bit where the MSR does not exist). */
const char *lit_msr_unusable(enum msr_kind k, char *why, size_t size)
{
	if (!plat_ring0())
		return "WRMSR needs ring 0 (the hosted build runs in ring 3)";
	switch (k) {
	case M_TSC_DEADLINE:
		if (!plat_cpu_has(X86_FEATURE_TSC_DEADLINE_TIMER)) {
			x86_feature_absent_why(X86_FEATURE_TSC_DEADLINE_TIMER, "TSC-deadline", why, size);
			return why;
		}
		break;
	case M_X2APIC_TPR:
	case M_X2APIC_ICR:
		if (!plat_cpu_has(X86_FEATURE_X2APIC)) {
			x86_feature_absent_why(X86_FEATURE_X2APIC, "x2APIC", why, size);
			return why;
		}
		/* the x2APIC MSRs #GP outside x2APIC mode (SDM vol. 3A
		 * "x2APIC Register Availability") */
		if (!(lit_rdmsr(LITMUS_MSR_APICBASE) & LITMUS_MSR_APICBASE_EXTD)) {
			char src[40];

			x86_feature_source(X86_FEATURE_X2APIC, src, sizeof(src));
			rl_snprintf(why, size, "the kernel is not in x2APIC mode (IA32_APIC_BASE.EXTD=0; %s says the CPU has it)",
				    src);
			return why;
		}
		break;
	case M_SERIALIZING:
	case M_NKINDS:
		break;
	}
	char what[64];
	struct probe p = { lit_msrs[k].msr, false, k == M_X2APIC_ICR, LITMUS_ICR_SELF_DOORBELL };

	rl_snprintf(what, sizeof(what), "WRMSR %s (0x%x)", lit_msrs[k].name, (unsigned)lit_msrs[k].msr);
	if (!lit_probe_elsewhere(&p, why, size, what))
		return why;
	return NULL;
}

/* RDMSR or WRMSR on a given CPU (CPU 0, the caller, directly; another
 * through plat_call, under its fault catch), interrupts off around it. */
struct msrop {
	uint32_t msr;
	bool write;
	uint64_t val;
};

static void msrop_fn(void *arg)
{
	struct msrop *o = arg;
	uint64_t flags = plat_irq_save();

	if (o->write)
		lit_wrmsr(o->msr, o->val);
	else
		o->val = lit_rdmsr(o->msr);
	plat_irq_restore(flags);
}

static bool msr_on(unsigned cpu, struct msrop *o)
{
	if (cpu == plat_this_cpu()) {
		msrop_fn(o);
		return true;
	}
	return plat_call(cpu, msrop_fn, o, 1000) == PLAT_OK;
}

/* The value to write back on `cpu`; false with why when it cannot be read
 * or IA32_TSC_DEADLINE holds a deadline that could pass during the run
 * (writing a passed deadline back would raise an interrupt per iteration). */
bool lit_msr_value(enum msr_kind k, unsigned cpu, uint64_t *v, char *why, size_t size)
{
	struct msrop o = { lit_msrs[k].msr, false, 0 };

	if (k == M_X2APIC_ICR) {	/* nothing held: the self-IPI it sends */
		*v = LITMUS_ICR_SELF_DOORBELL;
		return true;
	}
	if (!msr_on(cpu, &o)) {
		rl_snprintf(why, size, "RDMSR %s on cpu %u failed", lit_msrs[k].name, cpu);
		return false;
	}
	*v = o.val;
	if (k == M_TSC_DEADLINE && *v) {
		uint64_t now = rdtsc(), need = plat_ms_to_cycles(CAP_FULL_MS + 5000);

		if (*v < now + need) {
			rl_snprintf(why, size, "IA32_TSC_DEADLINE on cpu %u holds a deadline %llu ms ahead (a tick or a watchdog); writing it back during a run could re-arm a passed deadline",
				    cpu, (unsigned long long)(*v > now ? plat_cycles_to_ns(*v - now) / 1000000 : 0));
			return false;
		}
	}
	return true;
}

/* After a run (every path that returns): the MSR must still hold its
 * value on `cpu`; if not, it is written back and the case fails. */
void lit_msr_check_restore(struct test_ctx *t, enum msr_kind k, unsigned cpu, uint64_t v,
			   const char *what)
{
	struct msrop o = { lit_msrs[k].msr, false, 0 };

	if (k == M_X2APIC_ICR)	/* a command, not a register to keep */
		return;
	if (!msr_on(cpu, &o)) {
		t_fail(t, "%s: could not read %s back on cpu %u", what, lit_msrs[k].name, cpu);
		return;
	}
	/* a deadline that passed reads 0 (SDM vol. 3A "TSC-Deadline Mode") */
	if (o.val == v || (k == M_TSC_DEADLINE && o.val == 0 && rdtsc() >= v))
		return;
	uint64_t was = o.val;

	o = (struct msrop){ lit_msrs[k].msr, true, v };
	(void)msr_on(cpu, &o);
	o = (struct msrop){ lit_msrs[k].msr, false, 0 };
	(void)msr_on(cpu, &o);
	t_fail(t, "%s: %s on cpu %u read 0x%llx after the run, not 0x%llx; written back (reads 0x%llx)",
	       what, lit_msrs[k].name, cpu, (unsigned long long)was, (unsigned long long)v,
	       (unsigned long long)o.val);
}
