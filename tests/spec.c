/* spec: what the speculation-control operations cost in ring 0.
 *
 * The seed (Linux "x86/bhi: avoid hardware mitigation for
 * 'spectre_bhi=vmexit'") timed kvm-unit-tests' `vmexit tscdeadline_immed`
 * in a guest on a Xeon Gold 6442Y: 3153 cycles per exit with no extra
 * work, 3878 with IA32_SPEC_CTRL toggled on every exit (BHI_DIS_S set in
 * the host, clear in the guest), 3629 with the long BHB-clearing loop,
 * 3294 with the TSX-abort sequence.  This suite measures the raw cost of
 * each of those operations with no hypervisor in between, and an
 * immediate TSC-deadline arm alone and right after each, so the log holds
 * a ring-0 version of that table (README, "Reading the spec table").
 *
 * Cases, each skipped with the CPUID bit it lacks:
 *   spec_ctrl    WRMSR IA32_SPEC_CTRL, same value and toggling two values
 *   bhb_clear    the 5x5 and 12x7 BHB-clearing loops (spec_seq.asm)
 *   tsx_abort    XBEGIN; XABORT (RTM, when a transaction can commit)
 *   verw         VERW m16 with the kernel data selector (MD_CLEAR)
 *   ibpb         WRMSR IA32_PRED_CMD.IBPB
 *   l1d_flush    WRMSR IA32_FLUSH_CMD.L1D_FLUSH
 *   immed_arm    WRMSR IA32_TSC_DEADLINE with a deadline already past,
 *                not waiting for the interrupt, alone and after each of
 *                the above.  The ring-0 counterpart of kvm-unit-tests'
 *                tscdeadline_immed; NOT tscdeadline.immediate, which waits
 *                for the interrupt (kvm-unit-tests' `tscdeadline`).
 *   restore_after_fault, restore_after_timeout: controls for the MSR
 *                restore path (below).
 *
 * Method: each sample is LFENCE;RDTSC - operation - LFENCE;RDTSC with
 * interrupts off; the bracket's own cost, the median of 64 empty pairs
 * (t_overhead_measure, kernel/test.h), is subtracted, and every timing
 * metric names it (overhead=bracket-median:lfence-rdtsc overhead_cycles=
 * overhead_n=).  Results carry env= as in # id.env (plat_env()): under a
 * hypervisor or emulator an MSR write may be a VM exit or emulated, and
 * nothing measured there is the hardware's cost.
 *
 * MSRs: every MSR a case changes is saved first and written back when the
 * case ends, also when it faulted or overran its budget: the first save
 * registers the restore with t_defer(), and the measurement runs under a
 * catch point of its own (plat_catch(), in guarded()), which the fault and
 * watchdog paths find before the runner's, so the restore runs and is
 * printed ("restore: ...") before the case reports (t_defer_run()).
 * restore_after_fault (a deliberate UD2) and restore_after_timeout (a
 * deliberate overrun of a 2 s budget, long enough for the set-up to finish
 * on a loaded nested KVM; 100 ms in quick) show that path working. */
#include "kernel/test.h"
#include "arch/x86/apic.h"
#include "arch/x86/apic_timer.h"
#include "arch/x86/cpu.h"
#include "arch/x86/cpufeature.h"
#include "arch/x86/cpuinfo.h"
#include "arch/x86/desc.h"
#include "arch/x86/fault.h"
#include "arch/x86/msr.h"
#include "arch/x86/regs.h"
#include "arch/x86/spec_seq.h"
#include "arch/x86/trapnr.h"
#include "arch/x86/tsc_read.h"
#include "kernel/platform.h"
#include "lib/printf.h"
#include "lib/stats.h"
#include "lib/string.h"

SUITE(spec, 86, "speculation-control costs: SPEC_CTRL writes, BHB clearing, TSX abort, VERW, IBPB, L1D flush, TSC-deadline immediate arm after each");

/* ---- environment and timing ---- */

static void say_env(struct test_ctx *t)
{
	if (plat_under_emulator())
		t_conclude(t, "WRMSRs and VERW may be VM exits or emulated here: these costs are those of %s, not the CPU's",
			   plat_env());
}

/* The spec_cost answer: one phrase per measurement, its p50 (the samples
 * are sorted by t_metric_dist, which must come first). */
static void answer_cost(struct test_ctx *t, const char *what, const char *label, const uint64_t *s,
			size_t n)
{
	char from[128];

	if (!n)
		return;
	rl_snprintf(from, sizeof(from), "%s.%s", t->full_name, what);
	t_answer(t, ANSWER_SPEC_COST, from, T_CONTROL_NONE, "%s p50 %llu cycles;", label,
		 (unsigned long long)s[(n - 1) / 2]);
}

/* The empty LFENCE;RDTSC pair's cost, this case, and its text for the
 * metrics' extra fields. */
#define OVERHEAD_PAIRS 64
static struct t_overhead overhead;
static char overhead_text[120];

static void measure_overhead(void)
{
	t_overhead_measure(&overhead, T_BRACKET_LFENCE, OVERHEAD_PAIRS);
	t_overhead_text(&overhead, overhead_text, sizeof(overhead_text));
}

/* One sample per call of op(arg, i): LFENCE;RDTSC around it, interrupts
 * off; the bracket's overhead removed afterwards.  Always inlined with a
 * constant op, so no indirect call lands in the window (it would be an
 * indirect branch, which IBRS itself slows). */
static inline __attribute__((always_inline)) void sample_op(uint64_t *s, size_t n,
							     void (*op)(void *arg, size_t i),
							     void *arg)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t flags = plat_irq_save();
		uint64_t t0 = lfence_rdtsc();

		op(arg, i);
		uint64_t t1 = lfence_rdtsc();

		plat_irq_restore(flags);
		s[i] = t1 - t0;
	}
	t_overhead_remove(&overhead, s, n);
}

static size_t iters(struct test_ctx *t)
{
	return (size_t)t_iters(t, 10000, 64);
}

static uint64_t *samples(struct test_ctx *t, size_t n)
{
	return t_alloc(t, n * sizeof(uint64_t));
}

#define METHOD "method=lfence-rdtsc-pair-irqs-off"

/* ---- saved MSRs and the guarded region ---- */

#define MAX_SAVED 4
static struct {
	uint32_t msr;
	const char *name;
	uint64_t val;
} saved[MAX_SAVED];
static unsigned nsaved;
/* How the region the restore follows ended, for its diagnostic. */
static const char *restore_after;

static void msr_restore_all(struct test_ctx *t, const char *after);

/* t_defer action: the saved MSRs back, however the case ends. */
static void msr_restore_deferred(struct test_ctx *t, void *arg)
{
	(void)arg;
	msr_restore_all(t, restore_after);
}

/* Read and remember an MSR this case is about to change; the first one
 * registers the restore. */
static bool msr_save(struct test_ctx *t, uint32_t msr, const char *name)
{
	uint64_t v;
	struct fault_result r = rdmsr_safe(msr, &v);

	if (!fault_none(r)) {
		t_fail(t, "RDMSR %s (0x%x) faulted (vector %d) although CPUID enumerates it", name, msr,
		       r.vector);
		return false;
	}
	if (nsaved == MAX_SAVED)
		return t_fail(t, "too many saved MSRs");
	if (!nsaved) {
		restore_after = "the end of the case";
		if (!t_defer(t, msr_restore_deferred, NULL))
			return false;
	}
	saved[nsaved].msr = msr;
	saved[nsaved].name = name;
	saved[nsaved].val = v;
	nsaved++;
	t_diag(t, "save: %s (0x%x) = 0x%llx", name, msr, (unsigned long long)v);
	return true;
}

static uint64_t saved_value(uint32_t msr)
{
	for (unsigned i = 0; i < nsaved; i++)
		if (saved[i].msr == msr)
			return saved[i].val;
	return 0;
}

/* Write every saved MSR back, newest first, and show it. */
static void msr_restore_all(struct test_ctx *t, const char *after)
{
	while (nsaved) {
		nsaved--;
		uint32_t msr = saved[nsaved].msr;
		uint64_t want = saved[nsaved].val, got = 0;
		struct fault_result w = wrmsr_safe(msr, want);
		struct fault_result r = rdmsr_safe(msr, &got);

		t_diag(t, "restore: %s (0x%x) <- 0x%llx after %s; reads back 0x%llx%s", saved[nsaved].name,
		       msr, (unsigned long long)want, after, (unsigned long long)got,
		       fault_none(w) && fault_none(r) ? "" : " (the write or read faulted)");
		t_check(t, fault_none(w) && fault_none(r) && got == want,
			"%s not restored: wrote 0x%llx, reads 0x%llx (write vector %d, read vector %d)",
			saved[nsaved].name, (unsigned long long)want, (unsigned long long)got, w.vector,
			r.vector);
	}
}

enum expect { EXPECT_RETURN, EXPECT_FAULT, EXPECT_TIMEOUT };

/* How a guarded region ended, when not by an exception (whose vector,
 * X86_TRAP_*, is returned instead). */
#define ENDED_RETURN	-1
#define ENDED_TIMEOUT	-2	/* the budget ran out (watchdog or NMI stop) */
#define ENDED_OTHER	-3	/* plat_catch() could not run or was aborted */

struct guarded_call {
	struct test_ctx *t;
	void (*body)(struct test_ctx *t, void *arg);
	void *arg;
};

static void guarded_entry(void *p)
{
	struct guarded_call *g = p;

	g->body(g->t, g->arg);
}

/* Run body(t, arg) under a catch point of its own (plat_catch); whatever
 * way it ends, the saved MSRs are restored (t_defer_run) before this
 * returns.  Returns how it ended: ENDED_RETURN, ENDED_TIMEOUT, or the
 * exception vector. */
static int guarded(struct test_ctx *t, void (*body)(struct test_ctx *t, void *arg), void *arg,
		   enum expect expect)
{
	struct guarded_call g = { t, body, arg };
	struct plat_fault f;
	int rc = plat_catch(guarded_entry, &g, 0, &f);
	int how = rc == PLAT_OK ? ENDED_RETURN : rc == PLAT_TIMEOUT ? ENDED_TIMEOUT :
		  rc == PLAT_FAULT ? f.vector : ENDED_OTHER;

	restore_after = how == ENDED_RETURN ? "the measurement" :
			how == ENDED_TIMEOUT ? "a timeout" : "a fault";
	t_defer_run(t);
	if (how == ENDED_TIMEOUT && expect != EXPECT_TIMEOUT) {
		t->result = RES_TIMEOUT;
		rl_snprintf(t->reason, sizeof(t->reason),
			    "budget of %llu ms exceeded at rip=0x%llx; MSRs restored",
			    (unsigned long long)t->budget_ms, (unsigned long long)f.rip);
	} else if (how >= 0 && expect != EXPECT_FAULT) {
		char d[160];

		plat_fault_describe(&f, d, sizeof(d));
		t_fail(t, "%s; MSRs restored", d);
	} else if (how == ENDED_OTHER) {
		t_fail(t, "the guarded region could not run: %s; MSRs restored", plat_strerror(rc));
	}
	return how;
}

/* ---- what the CPU has ---- */

/* The CPUID bits behind one capability, named as the skip reasons name
 * them; their source text comes from the feature table. */
struct bit_name {
	struct x86_cpu_feature f;
	const char *name;	/* NULL: the source alone */
};

/* "CPUID.7.0:EDX[26] (IBRS), [27] (STIBP) and CPUID.80000008H:EBX[14]
 * (IBRS)": x86_feature_source() for each, a register's prefix written
 * once for consecutive bits of it. */
static void bit_sources(char *buf, size_t size, const struct bit_name *b, size_t n)
{
	char prev[40] = "", src[40];
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && len < size; i++) {
		x86_feature_source(b[i].f, src, sizeof(src));
		char *bit = strchr(src, '[');
		size_t plen = bit ? (size_t)(bit - src) : strlen(src);
		bool same = i && bit && strlen(prev) == plen && !strncmp(prev, src, plen);

		len += (size_t)rl_snprintf(buf + len, size - len, "%s%s%s%s%s", !i ? "" : same ? ", " : " and ",
					   same ? bit : src, b[i].name ? " (" : "",
					   b[i].name ? b[i].name : "", b[i].name ? ")" : "");
		rl_snprintf(prev, sizeof(prev), "%.*s", (int)plen, src);
	}
}

/* "CPU lacks <what>: <sources> <tail>", built once. */
static const char *lacks_text(char *buf, size_t size, const char *what, const struct bit_name *b,
			      size_t n, const char *tail)
{
	if (!buf[0]) {
		char src[240];

		bit_sources(src, sizeof(src), b, n);
		rl_snprintf(buf, size, "CPU lacks %s: %s %s", what, src, tail);
	}
	return buf;
}

#define NBITS(a) (sizeof(a) / sizeof((a)[0]))

static bool has_spec_ctrl(void)
{
	const struct cpuinfo *c = plat_cpu_info();

	return c->spec_ctrl || c->stibp || c->ssbd || c->amd_ibrs || c->amd_stibp || c->amd_ssbd;
}

static const char *no_spec_ctrl_text(void)
{
	static const struct bit_name b[] = {
		{ X86_FEATURE_SPEC_CTRL, "IBRS" }, { X86_FEATURE_INTEL_STIBP, "STIBP" },
		{ X86_FEATURE_SPEC_CTRL_SSBD, "SSBD" }, { X86_FEATURE_AMD_IBRS, "IBRS" },
		{ X86_FEATURE_AMD_STIBP, "STIBP" }, { X86_FEATURE_AMD_SSBD, "SSBD" },
	};
	static char buf[300];

	return lacks_text(buf, sizeof(buf), "IA32_SPEC_CTRL", b, NBITS(b), "all clear");
}

static bool has_ibpb(void)
{
	return plat_cpu_info()->spec_ctrl || plat_cpu_info()->amd_ibpb;
}

static const char *no_ibpb_text(void)
{
	static const struct bit_name b[] = {
		{ X86_FEATURE_SPEC_CTRL, NULL }, { X86_FEATURE_AMD_IBPB, NULL },
	};
	static char buf[200];

	return lacks_text(buf, sizeof(buf), "IBPB (IA32_PRED_CMD)", b, NBITS(b), "clear");
}

static bool has_verw_clear(void)
{
	return plat_cpu_info()->md_clear || plat_cpu_info()->verw_clear;
}

static const char *no_verw_text(void)
{
	static const struct bit_name b[] = {
		{ X86_FEATURE_MD_CLEAR, "MD_CLEAR" }, { X86_FEATURE_VERW_CLEAR, "VERW_CLEAR" },
	};
	static char buf[200];

	return lacks_text(buf, sizeof(buf), "VERW buffer clearing", b, NBITS(b), "clear");
}

static const char *no_l1d_text(void)
{
	static const struct bit_name b[] = { { X86_FEATURE_FLUSH_L1D, "L1D_FLUSH" } };
	static char buf[160];

	return lacks_text(buf, sizeof(buf), "IA32_FLUSH_CMD", b, NBITS(b), "clear");
}

#define NO_SPEC_CTRL_TEXT no_spec_ctrl_text()
#define NO_IBPB_TEXT no_ibpb_text()
#define NO_VERW_TEXT no_verw_text()
#define NO_L1D_TEXT no_l1d_text()
/* The skip reasons: the boot probe's finding where it took the feature
 * away (cpu.probes), else which CPUID bits are clear. */
#define NO_SPEC_CTRL t_absent_why(X86_FEATURE_SPEC_CTRL, "IA32_SPEC_CTRL", \
				  t_absent_why(X86_FEATURE_AMD_IBRS, "IA32_SPEC_CTRL", NO_SPEC_CTRL_TEXT))
#define NO_IBPB t_absent_why(X86_FEATURE_AMD_IBPB, "IBPB", \
			     t_absent_why(X86_FEATURE_SPEC_CTRL, "IBPB", NO_IBPB_TEXT))
#define NO_VERW t_absent_why(X86_FEATURE_MD_CLEAR, "VERW buffer clearing", \
			     t_absent_why(X86_FEATURE_VERW_CLEAR, "VERW buffer clearing", NO_VERW_TEXT))
#define NO_L1D t_absent_why(X86_FEATURE_FLUSH_L1D, "IA32_FLUSH_CMD", NO_L1D_TEXT)

/* RTM enumerated and an empty transaction commits (within 64 tries:
 * interrupts and other events abort some). */
static bool rtm_usable(char *why, size_t n)
{
	if (!plat_cpu_has(X86_FEATURE_RTM)) {
		x86_feature_absent_why(X86_FEATURE_RTM, "RTM", why, n);
		return false;
	}
	uint32_t st = 0;

	for (int i = 0; i < 64; i++) {
		uint64_t flags = plat_irq_save();

		st = rtm_commit_probe();
		plat_irq_restore(flags);
		if (st == RTM_COMMITTED)
			return true;
	}
	char src[40];

	x86_feature_source(X86_FEATURE_RTM, src, sizeof(src));
	rl_snprintf(why, n, "RTM is enumerated (%s) but no transaction commits (last abort status 0x%x: TSX disabled, e.g. IA32_TSX_CTRL.RTM_DISABLE)",
		    src, st);
	return false;
}

/* The two SPEC_CTRL values a toggle alternates between: IBRS and
 * IBRS|BHI_DIS_S where BHI_CTRL is enumerated (the seed's host/guest
 * mismatch), else the saved value without and with the first bit the
 * CPU has. */
static void spec_ctrl_pair(uint64_t base, uint64_t *a, uint64_t *b, const char **what)
{
	const struct cpuinfo *c = plat_cpu_info();
	uint64_t bit;

	if (c->bhi_ctrl && c->spec_ctrl) {
		*a = base | SPEC_CTRL_IBRS;
		*b = *a | SPEC_CTRL_BHI_DIS_S;
		*what = "IBRS<->IBRS|BHI_DIS_S";
		return;
	}
	if (c->bhi_ctrl) {
		*a = base & ~SPEC_CTRL_BHI_DIS_S;
		*b = base | SPEC_CTRL_BHI_DIS_S;
		*what = "BHI_DIS_S";
		return;
	}
	if (c->spec_ctrl || c->amd_ibrs) {
		bit = SPEC_CTRL_IBRS;
		*what = "IBRS";
	} else if (c->stibp || c->amd_stibp) {
		bit = SPEC_CTRL_STIBP;
		*what = "STIBP";
	} else {
		bit = SPEC_CTRL_SSBD;
		*what = "SSBD";
	}
	*a = base & ~bit;
	*b = base | bit;
}

/* ---- spec_ctrl ---- */

struct spec_ctrl_run {
	uint64_t *s;
	size_t n;
	uint64_t a, b, last;
	const char *what;
};

static void op_spec_ctrl_same(void *p, size_t i)
{
	(void)i;
	wrmsr(MSR_IA32_SPEC_CTRL, *(const uint64_t *)p);
}

static void op_spec_ctrl_toggle(void *p, size_t i)
{
	struct spec_ctrl_run *r = p;

	r->last = (i & 1) ? r->a : r->b;
	wrmsr(MSR_IA32_SPEC_CTRL, r->last);
}

static void spec_ctrl_body(struct test_ctx *t, void *p)
{
	struct spec_ctrl_run *r = p;
	uint64_t cur = saved_value(MSR_IA32_SPEC_CTRL);

	/* same value: what a host pays when guest and host values agree and
	 * the write is still done */
	sample_op(r->s, r->n, op_spec_ctrl_same, &cur);
	t_metric_dist(t, "same_value", r->s, r->n, "cycles", "value=0x%llx env=%s %s " METHOD,
		      (unsigned long long)cur, plat_env(), overhead_text);
	answer_cost(t, "same_value", "SPEC_CTRL write of the same value", r->s, r->n);
	wrmsr(MSR_IA32_SPEC_CTRL, r->a);
	sample_op(r->s, r->n, op_spec_ctrl_toggle, r);
	t_metric_dist(t, "toggle", r->s, r->n, "cycles", "values=0x%llx,0x%llx bits=%s env=%s %s " METHOD,
		      (unsigned long long)r->a, (unsigned long long)r->b, r->what, plat_env(),
		      overhead_text);
	answer_cost(t, "toggle", "SPEC_CTRL toggle", r->s, r->n);
	/* the toggle really changed the register */
	uint64_t now = rdmsr(MSR_IA32_SPEC_CTRL);
	uint64_t other = r->last == r->a ? r->b : r->a;

	wrmsr(MSR_IA32_SPEC_CTRL, other);
	uint64_t now2 = rdmsr(MSR_IA32_SPEC_CTRL);

	t_check(t, now == r->last && now2 == other,
		"IA32_SPEC_CTRL did not take the toggled values: wrote 0x%llx, read 0x%llx; wrote 0x%llx, read 0x%llx",
		(unsigned long long)r->last, (unsigned long long)now, (unsigned long long)other,
		(unsigned long long)now2);
}

TEST(spec, spec_ctrl)
{
	if (!has_spec_ctrl()) {
		t_skip(t, "%s", NO_SPEC_CTRL);
		return;
	}
	struct spec_ctrl_run r = { .n = iters(t) };

	r.s = samples(t, r.n);
	if (!msr_save(t, MSR_IA32_SPEC_CTRL, "IA32_SPEC_CTRL"))
		return;
	say_env(t);
	measure_overhead();
	spec_ctrl_pair(saved_value(MSR_IA32_SPEC_CTRL), &r.a, &r.b, &r.what);
	char bhi[40];

	x86_feature_source(X86_FEATURE_BHI_CTRL, bhi, sizeof(bhi));
	t_diag(t, "toggle %s: 0x%llx <-> 0x%llx (BHI_CTRL %s%s%s)", r.what, (unsigned long long)r.a,
	       (unsigned long long)r.b, plat_cpu_info()->bhi_ctrl ? "enumerated" : "not enumerated (",
	       plat_cpu_info()->bhi_ctrl ? "" : bhi, plat_cpu_info()->bhi_ctrl ? "" : ")");
	guarded(t, spec_ctrl_body, &r, EXPECT_RETURN);
}

/* ---- bhb_clear ---- */

struct bhb_run {
	uint32_t want, got, bad;
};

static void op_bhb_short(void *p, size_t i)
{
	struct bhb_run *r = p;

	(void)i;
	r->got = bhb_clear_short();
	r->bad += r->got != r->want;
}

static void op_bhb_long(void *p, size_t i)
{
	struct bhb_run *r = p;

	(void)i;
	r->got = bhb_clear_long();
	r->bad += r->got != r->want;
}

TEST(spec, bhb_clear)
{
	size_t n = iters(t);
	uint64_t *s = samples(t, n);

	say_env(t);
	measure_overhead();
	/* hardware counts beside the timing, over all n runs (pmu=none where
	 * there is no PMU) */
	static const enum plat_event ev[2] = { PLAT_EV_CYCLES, PLAT_EV_INSTRUCTIONS };
	bool counting[2];
	char why[200], counts[120];

	for (int which = 0; which < 2; which++) {
		uint32_t want = which ? BHB_LONG_ITERS : BHB_SHORT_ITERS, bad = 0, got = 0;
		uint64_t c0[2] = { 0, 0 }, c1[2] = { 0, 0 }, cd[2] = { 0, 0 };
		bool counted = plat_counters_open(ev, 2, counting, why, sizeof(why)) &&
			       plat_counters_read(c0);

		struct bhb_run r = { want, 0, 0 };

		if (which)
			sample_op(s, n, op_bhb_long, &r);
		else
			sample_op(s, n, op_bhb_short, &r);
		bad = r.bad;
		got = r.got;
		if (counted && plat_counters_read(c1))
			plat_counters_delta(c0, c1, cd);
		else
			counting[0] = counting[1] = false;
		plat_counters_close();
		plat_counts_format(counts, sizeof(counts), ev, 2, counting, cd);
		if (which) {
			t_metric_dist(t, "long_12x7", s, n, "cycles", "inner_iterations=%u env=%s %s %s pmu_window=all-runs " METHOD,
				      want, plat_env(), overhead_text, counts);
			answer_cost(t, "long_12x7", "BHB clear (long, 12x7)", s, n);
		} else {
			t_metric_dist(t, "short_5x5", s, n, "cycles", "inner_iterations=%u env=%s %s %s pmu_window=all-runs " METHOD,
				      want, plat_env(), overhead_text, counts);
			answer_cost(t, "short_5x5", "BHB clear (short, 5x5)", s, n);
		}
		t_check(t, bad == 0, "%s loop: %u of %zu runs returned %u inner iterations, expected %u",
			which ? "long" : "short", bad, n, got, want);
	}
}

/* ---- tsx_abort ---- */

struct tsx_run {
	uint32_t last;
	size_t odd;
};

static void op_tsx_abort(void *p, size_t i)
{
	struct tsx_run *r = p;

	(void)i;
	r->last = rtm_abort_seq();
	/* explicit abort with our code; anything else means the transaction
	 * never began or aborted for another reason */
	r->odd += !(r->last & XABORT_EXPLICIT) || XABORT_CODE(r->last) != 0xff;
}

TEST(spec, tsx_abort)
{
	char why[200];

	if (!rtm_usable(why, sizeof(why))) {
		t_skip(t, "%s", why);
		return;
	}
	size_t n = iters(t), odd = 0;
	uint64_t *s = samples(t, n);
	uint32_t st = 0;

	say_env(t);
	measure_overhead();
	struct tsx_run r = { 0, 0 };

	sample_op(s, n, op_tsx_abort, &r);
	odd = r.odd;
	st = r.last;
	t_metric_dist(t, "xbegin_xabort", s, n, "cycles", "odd_status=%zu env=%s %s " METHOD,
		      odd, plat_env(), overhead_text);
	answer_cost(t, "xbegin_xabort", "TSX abort", s, n);
	t_check(t, odd * 10 <= n, "%zu of %zu aborts were not our XABORT 0xff (last status 0x%x)", odd, n, st);
}

/* ---- verw ---- */

static void op_verw(void *p, size_t i)
{
	(void)i;
	*(size_t *)p += !verw(KERNEL_DS);
}

TEST(spec, verw)
{
	if (!has_verw_clear()) {
		t_skip(t, "%s", NO_VERW);
		return;
	}
	size_t n = iters(t), notz = 0;
	uint64_t *s = samples(t, n);

	say_env(t);
	measure_overhead();
	sample_op(s, n, op_verw, &notz);
	t_metric_dist(t, "verw_kernel_ds", s, n, "cycles", "selector=0x%x env=%s %s " METHOD,
		      KERNEL_DS, plat_env(), overhead_text);
	answer_cost(t, "verw_kernel_ds", "VERW", s, n);
	t_check(t, notz == 0, "VERW of the kernel data selector 0x%x cleared ZF %zu times (it is writable)",
		KERNEL_DS, notz);
	/* negative control: the code selector is not writable, ZF must be 0 */
	t_check(t, !verw(KERNEL_CS), "control: VERW of the code selector 0x%x set ZF", KERNEL_CS);
}

/* ---- ibpb and l1d_flush: command MSRs, nothing to restore ---- */

struct command_op {
	uint32_t msr;
	uint64_t cmd;
};

static void op_command(void *p, size_t i)
{
	const struct command_op *c = p;

	(void)i;
	wrmsr(c->msr, c->cmd);
}

static void command_msr(struct test_ctx *t, uint32_t msr, uint64_t cmd, const char *what)
{
	size_t n = iters(t);
	uint64_t *s = samples(t, n);

	say_env(t);
	t_diag(t, "MSR 0x%x is a write-only command register: no state to save or restore", msr);
	struct fault_result r = wrmsr_safe(msr, cmd);

	if (!t_check(t, fault_none(r), "WRMSR 0x%x <- 0x%llx faulted (vector %d) although CPUID enumerates it",
		     msr, (unsigned long long)cmd, r.vector))
		return;
	measure_overhead();
	struct command_op op = { msr, cmd };

	sample_op(s, n, op_command, &op);
	t_metric_dist(t, what, s, n, "cycles", "msr=0x%x value=0x%llx env=%s %s " METHOD, msr,
		      (unsigned long long)cmd, plat_env(), overhead_text);
	answer_cost(t, what, msr == MSR_IA32_PRED_CMD ? "IBPB" : "L1D flush", s, n);
	/* negative control for the fault path: a reserved bit must #GP */
	r = wrmsr_safe(msr, 1ull << 63);
	t_check(t, r.vector == X86_TRAP_GP, "control: WRMSR 0x%x with reserved bit 63 gave vector %d, expected #GP (%d)",
		msr, r.vector, X86_TRAP_GP);
}

TEST(spec, ibpb)
{
	if (!has_ibpb()) {
		t_skip(t, "%s", NO_IBPB);
		return;
	}
	command_msr(t, MSR_IA32_PRED_CMD, PRED_CMD_IBPB, "pred_cmd_ibpb");
}

TEST(spec, l1d_flush)
{
	if (!plat_cpu_info()->flush_l1d) {
		t_skip(t, "%s", NO_L1D);
		return;
	}
	command_msr(t, MSR_IA32_FLUSH_CMD, L1D_FLUSH, "flush_cmd_l1d");
}

/* ---- immed_arm ---- */

static volatile uint64_t fired;

static void immed_irq(struct regs *r)
{
	(void)r;
	fired++;
}

static struct {
	uint64_t a, b;
	unsigned k;
} tog;

static void pre_none(void) {}
static void pre_spec_ctrl(void) { wrmsr(MSR_IA32_SPEC_CTRL, (tog.k++ & 1) ? tog.a : tog.b); }
static void pre_bhb_short(void) { bhb_clear_short(); }
static void pre_bhb_long(void) { bhb_clear_long(); }
static void pre_tsx_abort(void) { rtm_abort_seq(); }
static void pre_verw(void) { verw(KERNEL_DS); }
static void pre_ibpb(void) { wrmsr(MSR_IA32_PRED_CMD, PRED_CMD_IBPB); }
static void pre_l1d(void) { wrmsr(MSR_IA32_FLUSH_CMD, L1D_FLUSH); }

enum need { N_NONE, N_SPEC_CTRL, N_RTM, N_VERW, N_IBPB, N_L1D };

static const struct variant {
	const char *metric;	/* the metric name, greppable as written */
	const char *delta;	/* its difference from "alone" */
	enum need need;
} variants[] = {
	{ "alone", NULL, N_NONE },
	{ "after_spec_ctrl_toggle", "delta_spec_ctrl_toggle", N_SPEC_CTRL },
	{ "after_bhb_short", "delta_bhb_short", N_NONE },
	{ "after_bhb_long", "delta_bhb_long", N_NONE },
	{ "after_tsx_abort", "delta_tsx_abort", N_RTM },
	{ "after_verw", "delta_verw", N_VERW },
	{ "after_ibpb", "delta_ibpb", N_IBPB },
	{ "after_l1d_flush", "delta_l1d_flush", N_L1D },
};
#define NVARIANTS (sizeof(variants) / sizeof(variants[0]))
_Static_assert(NVARIANTS == 8, "immed_body's switch lists the variants in this order");

struct immed_run {
	uint64_t *s;
	size_t n;
	bool rtm;
};

static bool variant_ok(struct test_ctx *t, const struct variant *v, const struct immed_run *r)
{
	const char *why = NULL;

	switch (v->need) {
	case N_NONE:
		return true;
	case N_SPEC_CTRL:
		why = has_spec_ctrl() ? NULL : NO_SPEC_CTRL;
		break;
	case N_RTM:
		why = r->rtm ? NULL : "RTM absent or unusable (see tsx_abort)";
		break;
	case N_VERW:
		why = has_verw_clear() ? NULL : NO_VERW;
		break;
	case N_IBPB:
		why = has_ibpb() ? NULL : NO_IBPB;
		break;
	case N_L1D:
		why = plat_cpu_info()->flush_l1d ? NULL : NO_L1D;
		break;
	}
	if (why)
		t_diag(t, "%s: skipped: %s", v->metric, why);
	return !why;
}

/* Wait (interrupts on) for the interrupt of the shot armed before. */
static bool consume(uint64_t before)
{
	return plat_spin_until(fired != before, T_LOST_US);
}

/* n immediate arms, each after pre(); inlined per constant pre. */
static inline __attribute__((always_inline)) void immed_sample(struct immed_run *r, void (*pre)(void),
							      size_t *lost, size_t *extra)
{
	for (size_t i = 0; i < r->n; i++) {
		uint64_t flags = plat_irq_save();
		uint64_t before = fired;
		uint64_t t0 = lfence_rdtsc();

		pre();
		wrmsr(MSR_IA32_TSC_DEADLINE, rdtsc());
		uint64_t t1 = lfence_rdtsc();

		plat_irq_restore(flags);	/* the pending interrupt is taken here */
		r->s[i] = t1 - t0;
		if (!consume(before))
			(*lost)++;
		else if (fired != before + 1)
			(*extra)++;
	}
	t_overhead_remove(&overhead, r->s, r->n);
}

static void immed_body(struct test_ctx *t, void *p)
{
	struct immed_run *r = p;
	uint64_t alone_p50 = 0;

	for (unsigned vi = 0; vi < NVARIANTS; vi++) {
		const struct variant *v = &variants[vi];
		size_t lost = 0, extra = 0;

		if (!variant_ok(t, v, r))
			continue;
		/* one call site per sequence, so each is a direct call */
		switch (vi) {
		case 0: immed_sample(r, pre_none, &lost, &extra); break;
		case 1: immed_sample(r, pre_spec_ctrl, &lost, &extra); break;
		case 2: immed_sample(r, pre_bhb_short, &lost, &extra); break;
		case 3: immed_sample(r, pre_bhb_long, &lost, &extra); break;
		case 4: immed_sample(r, pre_tsx_abort, &lost, &extra); break;
		case 5: immed_sample(r, pre_verw, &lost, &extra); break;
		case 6: immed_sample(r, pre_ibpb, &lost, &extra); break;
		default: immed_sample(r, pre_l1d, &lost, &extra); break;
		}
		t_metric_dist(t, v->metric, r->s, r->n, "cycles",
			      "lost=%zu env=%s %s method=lfence-rdtsc-around-sequence-and-wrmsr-tsc-deadline-irqs-off-interrupt-taken-after",
			      lost, plat_env(), overhead_text);
		answer_cost(t, v->metric, v->delta ? v->metric : "immediate TSC-deadline arm alone", r->s, r->n);
		uint64_t p50 = percentile_sorted(r->s, r->n, 50);	/* sorted by t_metric_dist */

		if (!v->delta)
			alone_p50 = p50;
		else
			t_metric_value(t, v->delta, (int64_t)p50 - (int64_t)alone_p50, "cycles",
				       "method=median-minus-alone-median env=%s %s", plat_env(),
				       overhead_text);
		t_check(t, lost == 0 && extra == 0,
			"%s: %zu immediate deadlines raised no interrupt, %zu raised more than one", v->metric,
			lost, extra);
	}
	/* Negative control for the interrupt accounting: a deadline armed far
	 * ahead and disarmed (0) before interrupts are enabled must raise
	 * nothing; an armed immediate one must (checked above). */
	uint64_t flags = plat_irq_save();
	uint64_t before = fired;

	wrmsr(MSR_IA32_TSC_DEADLINE, rdtsc() + plat_ns_to_cycles(1000000));
	wrmsr(MSR_IA32_TSC_DEADLINE, 0);
	plat_irq_restore(flags);
	/* 3 ms for a wrong interrupt to arrive; one ends the wait early */
	(void)plat_spin_until(fired != before, 3000);
	t_check(t, fired == before, "control: a disarmed deadline still raised %llu interrupt(s)",
		(unsigned long long)(fired - before));
}

TEST_EX(spec, immed_arm, 0, 120000)
{
	if (!timer_has_tscdeadline) {
		char why[200];

		x86_feature_absent_why(X86_FEATURE_TSC_DEADLINE_TIMER, "TSC-deadline", why, sizeof(why));
		t_skip(t, "%s", why);
		return;
	}
	if (apic_mode == APIC_MODE_NONE) {
		t_skip(t, "no local APIC");
		return;
	}
	char why[200];
	struct immed_run r = { .n = iters(t) };

	r.rtm = rtm_usable(why, sizeof(why));
	r.s = samples(t, r.n);
	say_env(t);
	t_diag(t, "ring-0 counterpart of kvm-unit-tests' vmexit tscdeadline_immed: WRMSR IA32_TSC_DEADLINE <- now, not waiting for the interrupt (taken after the window); not tscdeadline.immediate, which waits for it");
	if (has_spec_ctrl()) {
		const char *what;

		if (!msr_save(t, MSR_IA32_SPEC_CTRL, "IA32_SPEC_CTRL"))
			return;
		spec_ctrl_pair(saved_value(MSR_IA32_SPEC_CTRL), &tog.a, &tog.b, &what);
		tog.k = 0;
		t_diag(t, "after_spec_ctrl_toggle alternates %s: 0x%llx <-> 0x%llx", what,
		       (unsigned long long)tog.a, (unsigned long long)tog.b);
	}
	measure_overhead();
	timer_claim(immed_irq);
	timer_tscdeadline_mode();
	guarded(t, immed_body, &r, EXPECT_RETURN);
	timer_release();
	t_diag(t, "timer: IA32_TSC_DEADLINE disarmed and the LAPIC timer handed back to the watchdog");
}

/* ---- controls for the restore path ----
 *
 * Each changes an MSR inside guarded() and then faults (UD2) or overruns
 * its budget; the case checks the guard saw that ending, that the MSR had
 * really been changed, and that it holds the saved value afterwards.  The
 * MSR is IA32_SPEC_CTRL where the CPU has it; elsewhere (QEMU TCG, the
 * nested KVM here) IA32_KERNEL_GS_BASE stands in: it exists in every
 * 64-bit CPU and ringlab never executes SWAPGS, so changing it for a
 * moment is harmless, and the restore path is the same code. */

static struct {
	uint32_t msr;
	const char *name;
	uint64_t orig, changed_to;
} ctl;

static bool control_setup(struct test_ctx *t)
{
	if (has_spec_ctrl()) {
		ctl.msr = MSR_IA32_SPEC_CTRL;
		ctl.name = "IA32_SPEC_CTRL";
	} else {
		ctl.msr = MSR_KERNEL_GS_BASE;
		ctl.name = "IA32_KERNEL_GS_BASE";
		t_diag(t, "IA32_SPEC_CTRL absent (%s); IA32_KERNEL_GS_BASE stands in for the restore path",
		       NO_SPEC_CTRL);
	}
	if (!msr_save(t, ctl.msr, ctl.name))
		return false;
	ctl.orig = ctl.changed_to = saved_value(ctl.msr);
	return true;
}

/* Change the control MSR to a value different from the saved one. */
static void control_change(void)
{
	uint64_t orig = ctl.orig, v;

	if (ctl.msr == MSR_IA32_SPEC_CTRL) {
		uint64_t a, b;
		const char *what;

		spec_ctrl_pair(orig, &a, &b, &what);
		v = orig == b ? a : b;
	} else {
		v = orig ^ 0x1000;	/* stays canonical */
	}
	wrmsr(ctl.msr, v);
	ctl.changed_to = rdmsr(ctl.msr);
}

static void control_verdict(struct test_ctx *t, int how, int want, const char *ending)
{
	uint64_t orig = ctl.orig;
	uint64_t now = rdmsr(ctl.msr);

	t_check(t, how == want, "the deliberate %s ended the region with %d, expected %d", ending, how, want);
	t_check(t, ctl.changed_to != orig, "control did not change %s (still 0x%llx)", ctl.name,
		(unsigned long long)orig);
	t_check(t, now == orig, "%s is 0x%llx after the %s, was 0x%llx before", ctl.name,
		(unsigned long long)now, ending, (unsigned long long)orig);
	t_diag(t, "control: %s was 0x%llx, changed to 0x%llx, then %s; now 0x%llx", ctl.name,
	       (unsigned long long)orig, (unsigned long long)ctl.changed_to, ending,
	       (unsigned long long)now);
}

static void fault_body(struct test_ctx *t, void *p)
{
	(void)t;
	(void)p;
	control_change();
	__asm__ volatile("ud2");
}

TEST(spec, restore_after_fault)
{
	if (!control_setup(t))
		return;
	t_diag(t, "control: %s is changed, then UD2 (the #UD dump that follows is deliberate)", ctl.name);
	int how = guarded(t, fault_body, 0, EXPECT_FAULT);

	control_verdict(t, how, X86_TRAP_UD, "UD2");
}

static void timeout_body(struct test_ctx *t, void *p)
{
	(void)p;
	control_change();
	/* spin past the budget with interrupts on; bounded (3 s past the
	 * deadline) in case the watchdog never fires (then the control fails) */
	uint64_t end = t->deadline_tsc + plat_ns_to_cycles(3000000000ull), now = rdtsc_ordered();

	(void)plat_spin_until(false, now < end ? plat_cycles_to_ns(end - now) / 1000 : 0);
}

/* quick: a 100 ms budget (the hard one: what is proven is that the
 * overrun is caught and the MSR restored, not how long it took) */
TEST_EXQ(spec, restore_after_timeout, 0, 2000, 100, true)
{
	if (!t->deadline_tsc) {
		t_skip(t, "no budget deadline to overrun");
		return;
	}
	if (!control_setup(t))
		return;
	t_diag(t, "control: %s is changed, then the case overruns its %llu ms budget on purpose", ctl.name,
	       (unsigned long long)t->budget_ms);
	int how = guarded(t, timeout_body, 0, EXPECT_TIMEOUT);

	control_verdict(t, how, ENDED_TIMEOUT, "overrun");
}
