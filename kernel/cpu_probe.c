/* SPDX-License-Identifier: GPL-2.0-only */
/* Boot probes of claimed CPU features; see cpu_probe.h. */
#include "kernel/cpu_probe.h"
#include "arch/x86/cpu.h"
#include "arch/x86/cpuinfo.h"
#include "arch/x86/desc.h"
#include "arch/x86/fault.h"
#include "arch/x86/msr.h"
#include "arch/x86/processor-flags.h"
#include "arch/x86/spec_seq.h"
#include "arch/x86/tlbflush.h"
#include "arch/x86/traps.h"
#include "arch/x86/tsc_read.h"
#include "arch/x86/trapnr.h"
#include "kernel/kernel.h"
#include "kernel/platform.h"
#include "kernel/report.h"
#include "lib/memsize.h"
#include "lib/printf.h"
#include "lib/string.h"

/* A line CLZERO and the SIMD stores may write: nothing else uses it. */
static uint8_t probe_line[256] __attribute__((aligned(64)));

static void do_xbegin_xend(void *p) { (void)p; (void)rtm_commit_probe(); }
static void do_xabort(void *p) { (void)p; rtm_xabort_probe(); }
static void do_invpcid(void *p) { (void)p; invpcid_flush_all(); }
static void do_clzero(void *p) { (void)p; mem_clear_clzero(probe_line, 64); }
static void do_serialize(void *p) { (void)p; __asm__ volatile(".byte 0x0f, 0x01, 0xe8" ::: "memory"); }
static void do_rdtscp(void *p) { (void)p; (void)rdtscp(); (void)rdmsr(MSR_TSC_AUX); }
static void do_verw(void *p) { (void)p; (void)verw(KERNEL_DS); }
static void do_tsc_adjust(void *p) { (void)p; (void)rdmsr(MSR_IA32_TSC_ADJUST); }
/* Nothing is armed yet (probes run before the APIC timer is set up), so a
 * zero deadline changes nothing (SDM vol. 3A 11.5.4.1). */
static void do_tsc_deadline(void *p) { (void)p; wrmsr(MSR_IA32_TSC_DEADLINE, 0); }
static void do_spec_ctrl(void *p)
{
	(void)p;
	wrmsr(MSR_IA32_SPEC_CTRL, rdmsr(MSR_IA32_SPEC_CTRL));	/* its own value back */
}
static void do_ibpb(void *p) { (void)p; wrmsr(MSR_IA32_PRED_CMD, PRED_CMD_IBPB); }
static void do_l1d_flush(void *p) { (void)p; wrmsr(MSR_IA32_FLUSH_CMD, L1D_FLUSH); }

/* Behaviour checks, run after the instruction executed without a fault:
 * a CPUID bit can also lie by an MSR that exists but does nothing (the
 * software KVM here accepts WRMSR IA32_SPEC_CTRL and reads back 0, and
 * ignores reserved bits of IA32_PRED_CMD).  Each returns false with what
 * it saw. */

/* IA32_SPEC_CTRL holds a bit the CPU enumerates (SDM vol. 4 table 2-2;
 * AMD APM vol. 2 "Speculation control"): write it flipped, read back,
 * restore the value found, also when the read-back differs. */
static bool holds_spec_ctrl(char *seen, size_t n)
{
	const struct cpuinfo *c = plat_cpu_info();
	uint64_t bit = (c->spec_ctrl || c->amd_ibrs) ? SPEC_CTRL_IBRS :
		       (c->stibp || c->amd_stibp) ? SPEC_CTRL_STIBP : SPEC_CTRL_SSBD;
	uint64_t base = 0, back = 0;
	struct fault_result r = rdmsr_safe(MSR_IA32_SPEC_CTRL, &base);

	if (fault_none(r))
		r = wrmsr_safe(MSR_IA32_SPEC_CTRL, base ^ bit);
	if (fault_none(r))
		r = rdmsr_safe(MSR_IA32_SPEC_CTRL, &back);
	(void)wrmsr_safe(MSR_IA32_SPEC_CTRL, base);
	if (!fault_none(r)) {
		rl_snprintf(seen, n, "WRMSR IA32_SPEC_CTRL <- 0x%llx raised vector %d",
			    (unsigned long long)(base ^ bit), r.vector);
		return false;
	}
	if (back != (base ^ bit)) {
		rl_snprintf(seen, n, "IA32_SPEC_CTRL written 0x%llx read back 0x%llx (the MSR holds no value)",
			    (unsigned long long)(base ^ bit), (unsigned long long)back);
		return false;
	}
	return true;
}

/* A command MSR with a reserved bit set must #GP (SDM vol. 4 table 2-2,
 * IA32_PRED_CMD / IA32_FLUSH_CMD: bits 63:1 reserved); no #GP means the
 * write went nowhere.  A no-op where the MSR is real. */
static bool reserved_gp(uint32_t msr, const char *name, char *seen, size_t n)
{
	struct fault_result r = wrmsr_safe(msr, 1ull << 63);

	if (r.vector == X86_TRAP_GP)
		return true;
	rl_snprintf(seen, n, "WRMSR %s with reserved bit 63 raised %s, not #GP (writes are ignored)",
		    name, fault_none(r) ? "no fault" : "another vector");
	return false;
}

static bool gp_pred_cmd(char *seen, size_t n)
{
	return reserved_gp(MSR_IA32_PRED_CMD, "IA32_PRED_CMD", seen, n);
}

static bool gp_flush_cmd(char *seen, size_t n)
{
	return reserved_gp(MSR_IA32_FLUSH_CMD, "IA32_FLUSH_CMD", seen, n);
}

/* CR4.PCIDE can be set only in IA-32e mode with CR3[11:0] = 0, else #GP
 * (SDM vol. 3A 4.10.1); set and cleared again at once, CR4 restored also
 * when the MOV faults (the fault leaves CR4 unchanged). */
static void do_pcide(void *p)
{
	uint64_t cr4 = read_cr4();

	(void)p;
	/* with PCD/PWT (or a PCID) in CR3 the #GP would be ours, not the CPU's */
	if (read_cr3() & 0xfff)
		return;
	write_cr4(cr4 | X86_CR4_PCIDE);
	write_cr4(cr4);
}

/* One page, of every PCID, on every CPU of the system, then wait for it (AMD APM
 * vol. 3 INVLPGB, TLBSYNC): a flush of a page the kernel does not use.
 * ASID valid, with ASID 0 (the host's own entries), as the suites issue it
 * (suites/tlb/invlpgb.c): without the bit, INVLPGB run outside a guest
 * drops the matching entries of every ASID, guests' included (Linux sets
 * it on every INVLPGB: "x86/mm: Always set the ASID valid bit for the
 * INVLPGB instruction"); in a guest the hypervisor's ASID replaces the
 * field either way.  So the probe runs the encoding the suites run. */
static void do_invlpgb(void *p)
{
	struct invlpgb_ops op;

	(void)p;
	if (invlpgb_pack(0, 0, (uint64_t)(uintptr_t)probe_line & ~0xfffull, 1, false,
			 INVLPGB_FLAG_VA | INVLPGB_FLAG_ASID, &op)) {
		__invlpgb(&op);
		__tlbsync();
	}
}

static void simd_store_ymm(void *p) { (void)p; mem_clear_vmovntdq_ymm(probe_line, sizeof(probe_line)); }
static void simd_store_zmm(void *p) { (void)p; mem_clear_vmovntdq_zmm(probe_line, sizeof(probe_line)); }

/* The store runs under its own quiet fault catch inside plat_simd_call()
 * (the innermost frame takes the fault: arch/x86/catch.h), so the vector
 * comes back as data and an expected #UD prints no dump; plat_simd_call()
 * restores CR0/CR4/XCR0 either way. */
struct simd_probe {
	plat_fn fn;
	struct fault_result fault;
};

static void simd_probe_body(void *arg)
{
	struct simd_probe *s = arg;

	s->fault = fault_catch(s->fn, 0);
}

/* The features a probe stands for: claimed if any is set, all cleared when
 * the probe faults. */
#define MAXF 6
struct probe {
	bool emul_risky;	/* an emulating hypervisor may not know it */
	const char *name;
	const char *what;	/* for the feature text */
	const char *insn;
	void (*fn)(void *);
	unsigned simd;		/* PLAT_SIMD_* need, or 0 */
	bool (*check)(char *seen, size_t n);	/* behaviour after no fault */
	/* separate members: X86_FEATURE_* are compound literals, which GCC
	 * takes as a static initializer of a struct member, not of an array
	 * element */
	struct x86_cpu_feature f0, f1, f2, f3, f4, f5;
};

static unsigned probe_nf(const struct probe *p)
{
	const struct x86_cpu_feature *f[MAXF] = { &p->f0, &p->f1, &p->f2, &p->f3, &p->f4, &p->f5 };
	unsigned n = 0;

	while (n < MAXF && f[n]->leaf)
		n++;
	return n;
}

static struct x86_cpu_feature probe_f(const struct probe *p, unsigned i)
{
	const struct x86_cpu_feature *f[MAXF] = { &p->f0, &p->f1, &p->f2, &p->f3, &p->f4, &p->f5 };

	return *f[i];
}

static const struct probe probes[] = {
	{ false, "rtm", "RTM", "XBEGIN;XEND", do_xbegin_xend, 0,
	  .f0 = X86_FEATURE_RTM },
	{ false, "rtm_xabort", "RTM", "XABORT", do_xabort, 0,
	  .f0 = X86_FEATURE_RTM },
	{ false, "pcid", "PCID", "MOV CR4 (PCIDE=1)", do_pcide, 0,
	  .f0 = X86_FEATURE_PCID, .f1 = X86_FEATURE_INVPCID },
	{ false, "invpcid", "INVPCID", "INVPCID type 2", do_invpcid, 0,
	  .f0 = X86_FEATURE_INVPCID },
	{ false, "invlpgb", "INVLPGB", "INVLPGB;TLBSYNC", do_invlpgb, 0,
	  .f0 = X86_FEATURE_INVLPGB },
	{ true, "clzero", "CLZERO", "CLZERO", do_clzero, 0,
	  .f0 = X86_FEATURE_CLZERO },
	{ false, "serialize", "SERIALIZE", "SERIALIZE", do_serialize, 0,
	  .f0 = X86_FEATURE_SERIALIZE },
	{ false, "rdtscp", "RDTSCP", "RDTSCP;RDMSR TSC_AUX", do_rdtscp, 0,
	  .f0 = X86_FEATURE_RDTSCP },
	{ true, "avx", "AVX", "VMOVNTDQ ymm", simd_store_ymm, PLAT_SIMD_AVX,
	  .f0 = X86_FEATURE_AVX, .f1 = X86_FEATURE_AVX2 },
	{ true, "avx512", "AVX-512F", "VMOVNTDQ zmm", simd_store_zmm, PLAT_SIMD_AVX512,
	  .f0 = X86_FEATURE_AVX512F },
	{ false, "spec_ctrl", "IA32_SPEC_CTRL", "WRMSR IA32_SPEC_CTRL", do_spec_ctrl, 0, .check = holds_spec_ctrl,
	  .f0 = X86_FEATURE_SPEC_CTRL, .f1 = X86_FEATURE_INTEL_STIBP, .f2 = X86_FEATURE_SPEC_CTRL_SSBD, .f3 = X86_FEATURE_AMD_IBRS, .f4 = X86_FEATURE_AMD_STIBP, .f5 = X86_FEATURE_AMD_SSBD },
	{ false, "ibpb", "IBPB", "WRMSR IA32_PRED_CMD", do_ibpb, 0, .check = gp_pred_cmd,
	  .f0 = X86_FEATURE_SPEC_CTRL, .f1 = X86_FEATURE_AMD_IBPB },
	{ false, "l1d_flush", "L1D_FLUSH", "WRMSR IA32_FLUSH_CMD", do_l1d_flush, 0, .check = gp_flush_cmd,
	  .f0 = X86_FEATURE_FLUSH_L1D },
	{ false, "tsc_deadline", "TSC-deadline", "WRMSR IA32_TSC_DEADLINE", do_tsc_deadline, 0,
	  .f0 = X86_FEATURE_TSC_DEADLINE_TIMER },
	{ false, "tsc_adjust", "IA32_TSC_ADJUST", "RDMSR IA32_TSC_ADJUST", do_tsc_adjust, 0,
	  .f0 = X86_FEATURE_TSC_ADJUST },
	{ false, "verw", "VERW buffer clearing", "VERW", do_verw, 0,
	  .f0 = X86_FEATURE_MD_CLEAR, .f1 = X86_FEATURE_VERW_CLEAR },
};
#define NPROBES (sizeof(probes) / sizeof(probes[0]))

static struct cpu_probe_result results[NPROBES];
static char seen_text[NPROBES][160];

/* PLAT_EMULATED_MBPS (kernel/platform.h) says why the SIMD and CLZERO
 * probes are not executed where ring 0 is emulated: the features are then
 * treated as absent. */
static uint8_t stosb_page[4096] __attribute__((aligned(4096)));
static uint64_t emulated_mbps;

static uint64_t stosb_mbps(void)
{
	uint64_t best = ~0ull, hz = plat_tsc_hz();

	for (int r = 0; r < 4; r++) {	/* the first one warms the page */
		uint64_t t0 = rdtsc_ordered();

		mem_clear_rep_stosb(stosb_page, sizeof(stosb_page));
		uint64_t dt = rdtsc_ordered() - t0;

		if (r && dt < best)
			best = dt;
	}
	if (!best || !hz)
		return 0;
	uint64_t r = mbps(sizeof(stosb_page), best, hz);

	/* measured: below 1 MB/s is the slowest emulation, not "not
	 * measured" (0), which would let the SIMD probes run there */
	return r ? r : 1;
}

uint64_t plat_emulated_mbps(void)
{
	return emulated_mbps;
}
static char feature_text[NPROBES][96];

static bool simulated_on(struct x86_cpu_feature f)
{
	const struct x86_feature_override *o = x86_feature_override_of(f);

	return o && o->on && o->why == X86_OVR_SIMULATED;
}

/* The first claimed feature of p (index into p->f), or -1. */
static int claimed(const struct probe *p)
{
	for (unsigned i = 0; i < probe_nf(p); i++)
		if (x86_cpu_has(probe_f(p, i)))
			return (int)i;
	return -1;
}

/* The probe of p took its features away: every claimed bit gets the
 * override, and one warning line names them all. */
static void take_away(const struct probe *p, enum x86_override_why why, const char *detail,
		      int vector, const char *tail)
{
	char srcs[200];
	size_t len = 0;

	srcs[0] = '\0';
	for (unsigned i = 0; i < probe_nf(p); i++) {
		if (!x86_cpu_has(probe_f(p, i)))
			continue;
		if (len + 2 < sizeof(srcs))
			len += (size_t)rl_snprintf(srcs + len, sizeof(srcs) - len, "%s", len ? ", " : "");
		if (len < sizeof(srcs))
			len += (size_t)x86_feature_source(probe_f(p, i), srcs + len, sizeof(srcs) - len);
		x86_feature_override(probe_f(p, i), false, why, p->name,
				     why == X86_OVR_PROBE_MISMATCH ? detail : p->insn, vector);
	}
	if (len >= sizeof(srcs))
		len = sizeof(srcs) - 1;
	rep_warn("cpu", "%s (%s) %s set but %s: treated as absent%s", srcs, p->what,
		 strchr(srcs, ',') ? "are" : "is", detail, tail);
}

static void run_one(unsigned k)
{
	const struct probe *p = &probes[k];
	struct cpu_probe_result *r = &results[k];
	int c = claimed(p);
	char src[40];

	*r = (struct cpu_probe_result){ p->name, feature_text[k], p->insn, CPU_PROBE_NOT_CLAIMED, -1, NULL, false };
	x86_feature_source(probe_f(p, c < 0 ? 0 : (unsigned)c), src, sizeof(src));
	rl_snprintf(feature_text[k], sizeof(feature_text[k]), "%s (%s)", src, p->what);
	if (c < 0)
		return;
	r->simulated = simulated_on(probe_f(p, (unsigned)c));
	if (p->emul_risky && plat_ring0_emulated()) {
		char d[200];

		r->state = CPU_PROBE_NOT_RUN;
		rl_snprintf(d, sizeof(d), "%s is not executed: this hypervisor emulates ring-0 instructions (REP STOSB %llu MB/s on a cached page) and an emulator without it ends the guest",
			    p->insn, (unsigned long long)emulated_mbps);
		take_away(p, X86_OVR_NOT_PROBED, d, -1, "");
		return;
	}
	if (p->simd) {
		struct simd_probe s = { p->fn, { .vector = -1 } };
		char why[160];
		int rc = plat_simd_call(p->simd, simd_probe_body, &s, why, sizeof(why));

		if (rc == PLAT_INVALID) {
			/* CPUID claims the instructions but the state cannot
			 * be enabled (XCR0): nothing executed, not a fault */
			r->state = CPU_PROBE_NO_STATE;
			return;
		}
		if (rc == PLAT_OK && fault_none(s.fault)) {
			r->state = CPU_PROBE_OK;
			return;
		}
		if (rc == PLAT_OK) {
			r->state = CPU_PROBE_FAULT;
			r->vector = s.fault.vector;
		} else {	/* the SIMD state switch itself failed: say how */
			rl_snprintf(seen_text[k], sizeof(seen_text[k]), "%s failed: %s", p->insn, why);
			r->state = CPU_PROBE_MISMATCH;
			r->seen = seen_text[k];
		}
	} else {
		uint64_t flags = plat_irq_save();
		struct fault_result f = fault_catch(p->fn, 0);

		plat_irq_restore(flags);
		if (fault_none(f) && p->check && !p->check(seen_text[k], sizeof(seen_text[k]))) {
			r->state = CPU_PROBE_MISMATCH;
			r->seen = seen_text[k];
		} else if (fault_none(f)) {
			r->state = CPU_PROBE_OK;
			return;
		} else {
			r->state = CPU_PROBE_FAULT;
			r->vector = f.vector;
		}
	}
	if (r->state == CPU_PROBE_MISMATCH) {
		take_away(p, X86_OVR_PROBE_MISMATCH, r->seen, -1, "");
		return;
	}
	char d[120];

	rl_snprintf(d, sizeof(d), "%s raised %s (vector %d)", p->insn,
		    exception_mnemonic((unsigned)r->vector), r->vector);
	take_away(p, X86_OVR_PROBE_FAULT, d, r->vector,
		  r->simulated ? " (the claim was simulated: simulate=cpuid:+...)" : "");
}

void cpu_probes_run(void)
{
	/* Touch the probe line first: a store that misses in the
	 * hypervisor's page tables exits to its instruction emulator, and
	 * the software KVM here cannot emulate CLZERO (the VM stops with
	 * "KVM internal error. Suberror: 1, emulation failure", which no
	 * fault catch in the guest can handle; docs/platform-notes.md). */
	for (unsigned i = 0; i < sizeof(probe_line); i++)
		((volatile uint8_t *)probe_line)[i] = 0;
	if (plat_cpu_info()->hypervisor && strcmp(plat_env(), "emulator:qemu-tcg"))
		emulated_mbps = stosb_mbps();
	for (unsigned k = 0; k < NPROBES; k++)
		run_one(k);
	/* everyone who decoded CPUID before sees the corrected table */
	cpuinfo_read(&boot_cpu);
	platform_mem_refresh();
}

unsigned plat_cpu_probes(const struct cpu_probe_result **out)
{
	*out = results;
	return NPROBES;
}
