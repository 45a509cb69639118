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
#include "arch/x86/trapnr.h"
#include "kernel/kernel.h"
#include "kernel/platform.h"
#include "kernel/report.h"
#include "lib/printf.h"
#include "lib/string.h"

/* A line CLZERO and the SIMD stores may write: nothing else uses it. */
static uint8_t probe_line[256] __attribute__((aligned(64)));

static void do_xbegin_xend(void *p) { (void)p; (void)rtm_commit_probe(); }
/* XABORT outside a transaction is a no-op where RTM exists (SDM vol. 2
 * XABORT), #UD where it does not. */
static void do_xabort(void *p) { (void)p; __asm__ volatile(".byte 0xc6, 0xf8, 0xff" ::: "memory"); }
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

/* CR4.PCIDE can be set only in IA-32e mode with CR3[11:0] = 0, else #GP
 * (SDM vol. 3A 4.10.1); set and cleared again at once, CR4 restored also
 * when the MOV faults (the fault leaves CR4 unchanged). */
static void do_pcide(void *p)
{
	uint64_t cr4 = read_cr4();

	(void)p;
	write_cr4(cr4 | X86_CR4_PCIDE);
	write_cr4(cr4);
}

/* One page, this CPU's PCID 0, on every CPU of the system, then wait for
 * it (AMD APM vol. 3 INVLPGB, TLBSYNC): a flush of a page the kernel does
 * not use. */
static void do_invlpgb(void *p)
{
	struct invlpgb_ops op;

	(void)p;
	if (invlpgb_pack(0, 0, (uint64_t)(uintptr_t)probe_line & ~0xfffull, 1, false,
			 INVLPGB_FLAG_VA, &op)) {
		__invlpgb(&op);
		__tlbsync();
	}
}

static void simd_store_ymm(void *p) { (void)p; mem_clear_vmovntdq_ymm(probe_line, sizeof(probe_line)); }
static void simd_store_zmm(void *p) { (void)p; mem_clear_vmovntdq_zmm(probe_line, sizeof(probe_line)); }

struct simd_probe {
	unsigned need;
	plat_fn fn;
	int rc;
	int vector;
	char why[160];
};

/* plat_simd_call() catches the fault itself (and restores CR0/CR4/XCR0);
 * the vector is taken from its text, "<mnemonic> (vector N) ...". */
static void do_simd(struct simd_probe *s)
{
	s->rc = plat_simd_call(s->need, s->fn, 0, s->why, sizeof(s->why));
	s->vector = -1;
	for (const char *q = s->why; *q; q++)
		if (!strncmp(q, "(vector ", 8)) {
			s->vector = 0;
			for (q += 8; *q >= '0' && *q <= '9'; q++)
				s->vector = s->vector * 10 + (*q - '0');
			break;
		}
}

/* The features a probe stands for: claimed if any is set, all cleared when
 * the probe faults. */
#define MAXF 6
struct probe {
	const char *name;
	const char *what;	/* for the feature text */
	const char *insn;
	void (*fn)(void *);
	unsigned simd;		/* PLAT_SIMD_* need, or 0 */
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
	{ "rtm", "RTM", "XBEGIN;XEND", do_xbegin_xend, 0,
	  .f0 = X86_FEATURE_RTM },
	{ "rtm_xabort", "RTM", "XABORT", do_xabort, 0,
	  .f0 = X86_FEATURE_RTM },
	{ "pcid", "PCID", "MOV CR4 (PCIDE=1)", do_pcide, 0,
	  .f0 = X86_FEATURE_PCID, .f1 = X86_FEATURE_INVPCID },
	{ "invpcid", "INVPCID", "INVPCID type 2", do_invpcid, 0,
	  .f0 = X86_FEATURE_INVPCID },
	{ "invlpgb", "INVLPGB", "INVLPGB;TLBSYNC", do_invlpgb, 0,
	  .f0 = X86_FEATURE_INVLPGB },
	{ "clzero", "CLZERO", "CLZERO", do_clzero, 0,
	  .f0 = X86_FEATURE_CLZERO },
	{ "serialize", "SERIALIZE", "SERIALIZE", do_serialize, 0,
	  .f0 = X86_FEATURE_SERIALIZE },
	{ "rdtscp", "RDTSCP", "RDTSCP;RDMSR TSC_AUX", do_rdtscp, 0,
	  .f0 = X86_FEATURE_RDTSCP },
	{ "avx", "AVX", "VMOVNTDQ ymm", simd_store_ymm, PLAT_SIMD_AVX,
	  .f0 = X86_FEATURE_AVX, .f1 = X86_FEATURE_AVX2 },
	{ "avx512", "AVX-512F", "VMOVNTDQ zmm", simd_store_zmm, PLAT_SIMD_AVX512,
	  .f0 = X86_FEATURE_AVX512F },
	{ "spec_ctrl", "IA32_SPEC_CTRL", "WRMSR IA32_SPEC_CTRL", do_spec_ctrl, 0,
	  .f0 = X86_FEATURE_SPEC_CTRL, .f1 = X86_FEATURE_INTEL_STIBP, .f2 = X86_FEATURE_SPEC_CTRL_SSBD, .f3 = X86_FEATURE_AMD_IBRS, .f4 = X86_FEATURE_AMD_STIBP, .f5 = X86_FEATURE_AMD_SSBD },
	{ "ibpb", "IBPB", "WRMSR IA32_PRED_CMD", do_ibpb, 0,
	  .f0 = X86_FEATURE_SPEC_CTRL, .f1 = X86_FEATURE_AMD_IBPB },
	{ "l1d_flush", "L1D_FLUSH", "WRMSR IA32_FLUSH_CMD", do_l1d_flush, 0,
	  .f0 = X86_FEATURE_FLUSH_L1D },
	{ "tsc_deadline", "TSC-deadline", "WRMSR IA32_TSC_DEADLINE", do_tsc_deadline, 0,
	  .f0 = X86_FEATURE_TSC_DEADLINE_TIMER },
	{ "tsc_adjust", "IA32_TSC_ADJUST", "RDMSR IA32_TSC_ADJUST", do_tsc_adjust, 0,
	  .f0 = X86_FEATURE_TSC_ADJUST },
	{ "verw", "VERW buffer clearing", "VERW", do_verw, 0,
	  .f0 = X86_FEATURE_MD_CLEAR, .f1 = X86_FEATURE_VERW_CLEAR },
};
#define NPROBES (sizeof(probes) / sizeof(probes[0]))

static struct cpu_probe_result results[NPROBES];
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

static void run_one(unsigned k)
{
	const struct probe *p = &probes[k];
	struct cpu_probe_result *r = &results[k];
	int c = claimed(p);
	char src[40];

	*r = (struct cpu_probe_result){ p->name, feature_text[k], p->insn, CPU_PROBE_NOT_CLAIMED, -1, false };
	x86_feature_source(probe_f(p, c < 0 ? 0 : (unsigned)c), src, sizeof(src));
	rl_snprintf(feature_text[k], sizeof(feature_text[k]), "%s (%s)", src, p->what);
	if (c < 0)
		return;
	r->simulated = simulated_on(probe_f(p, (unsigned)c));
	if (p->simd) {
		struct simd_probe s = { p->simd, p->fn, PLAT_OK, -1, "" };

		do_simd(&s);
		if (s.rc == PLAT_INVALID) {
			/* CPUID claims the instructions but the state cannot
			 * be enabled (XCR0): nothing executed, not a fault */
			r->state = CPU_PROBE_NO_STATE;
			return;
		}
		if (s.rc == PLAT_OK) {
			r->state = CPU_PROBE_OK;
			return;
		}
		r->state = CPU_PROBE_FAULT;
		r->vector = s.vector;
	} else {
		uint64_t flags = plat_irq_save();
		struct fault_result f = fault_catch(p->fn, 0);

		plat_irq_restore(flags);
		if (fault_none(f)) {
			r->state = CPU_PROBE_OK;
			return;
		}
		r->state = CPU_PROBE_FAULT;
		r->vector = f.vector;
	}
	for (unsigned i = 0; i < probe_nf(p); i++)
		if (x86_cpu_has(probe_f(p, i))) {
			char fsrc[40];

			x86_feature_source(probe_f(p, i), fsrc, sizeof(fsrc));
			x86_feature_override(probe_f(p, i), false, X86_OVR_PROBE_FAULT, p->name, p->insn,
					     r->vector);
			rep_warn("cpu", "%s (%s) is set but %s raised %s (vector %d): treated as absent%s",
				 fsrc, p->what, p->insn, exception_mnemonic((unsigned)r->vector),
				 r->vector, r->simulated ? " (the claim was simulated: simulate=cpuid:+...)" : "");
		}
}

void cpu_probes_run(void)
{
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
