/* SPDX-License-Identifier: GPL-2.0-only */
/* tlb: local flushes on CPU 0.  Correctness of INVLPG, MOV CR3, the
 * CR4.PGE toggle, INVPCID types 0-3 and PCID switching on 4 KiB, global and
 * 2 MiB pages, each with its stale-entry control (suites/tlb/tlb.h); then
 * the cost of each flush instruction and of the page walk after it. */
#include "suites/tlb/tlb.h"
#include "kernel/test.h"
#include "kernel/platform.h"
#include "arch/x86/cpu.h"
#include "arch/x86/paging.h"
#include "arch/x86/pgtable_test.h"
#include "arch/x86/processor-flags.h"
#include "arch/x86/tlbflush.h"
#include "lib/printf.h"

/* -------------------------------------------------- one stale round --- */

/* The page a round works on. */
struct probe {
	bool large;		/* a 2 MiB page (PD entry idx) */
	unsigned idx;
	bool global;
};

static uint64_t probe_va(const struct probe *p)
{
	return p->large ? pt_win_va_2m(p->idx) : pt_win_va_4k(p->idx);
}

static void probe_map(struct env *e, const struct probe *p, int k)
{
	if (p->large)
		pt_win_map_2m(&e->w, p->idx, e->frame2m[k], p->global);
	else
		pt_win_map_4k(&e->w, p->idx, e->frame[k], p->global);
}

struct tally {
	unsigned rounds;
	unsigned touch_bad;	/* the first read did not return frame A */
	unsigned stale;		/* before the flush: still A (the control) */
	unsigned after_new;	/* after the flush: B */
	unsigned after_old;	/* after the flush: still A */
	unsigned after_other;	/* after the flush: neither */
	uint64_t bad_value;
};

typedef void (*flush_fn)(struct env *e, uint64_t va);

/* Map to frame k, read, remap to the other frame with no flush, read
 * (stale?), flush with fl, read.  Interrupts are off for the few hundred
 * instructions of one round only. */
static void stale_round(struct env *e, const struct probe *p, flush_fn fl, struct tally *r)
{
	uint64_t va = probe_va(p), v;
	int k = (int)(r->rounds & 1), o = k ^ 1;
	uint64_t flags = irq_save();

	probe_map(e, p, k);
	__invlpg(va);		/* no entry from an earlier round, global or not */
	v = peek(va);
	if (v != tlb_magic[k]) {
		r->touch_bad++;
		r->bad_value = v;
	}
	probe_map(e, p, o);
	v = peek(va);
	if (v == tlb_magic[k])
		r->stale++;
	fl(e, va);
	v = peek(va);
	irq_restore(flags);
	if (v == tlb_magic[o])
		r->after_new++;
	else if (v == tlb_magic[k])
		r->after_old++;
	else
		r->after_other++, r->bad_value = v;
	r->rounds++;
}

static unsigned correctness_rounds(struct test_ctx *t)
{
	return (unsigned)t_iters(t, 64, 8);
}

/* flush_4k's rounds, on which the tlb_flush answer's claim rests: in quick
 * CLAIM_MIN_N (lib/claims.h) of them, so that "no stale entry after the
 * flush" is a claim its n supports (a round costs microseconds) */
static unsigned claim_rounds(struct test_ctx *t)
{
	return (unsigned)t_iters(t, 64, CLAIM_MIN_N);
}


/* must_flush: the method is architecturally required to drop the entry, so
 * anything but frame B afterwards fails; otherwise whether it kept the
 * entry is reported only.  The metric's value is the stale reads seen
 * before the flush (the negative control). */
static struct tally run_method_n(struct env *e, const char *metric, const struct probe *p,
				 flush_fn fl, bool must_flush, unsigned n)
{
	struct test_ctx *t = e->t;
	struct tally r = { 0 };

	for (unsigned i = 0; i < n; i++)
		stale_round(e, p, fl, &r);
	bool ok = r.after_old == 0 && r.after_other == 0;

	t_metric_value(t, metric, r.stale, "count",
		       "rounds=%u page=%s%s after_flush_new=%u after_flush_old=%u after_flush_other=%u control=%s verdict=%s",
		       r.rounds, p->large ? "2m" : "4k", p->global ? "-global" : "", r.after_new,
		       r.after_old, r.after_other, r.stale ? "fired" : "not-observed",
		       must_flush ? (ok ? "flushed" : "NOT-FLUSHED") :
				    (r.after_old ? "kept" : r.after_other ? "bad" : "dropped"));
	t_check(t, r.touch_bad == 0, "%s: %u first reads did not return frame A (last 0x%llx)",
		metric, r.touch_bad, (unsigned long long)r.bad_value);
	if (must_flush)
		t_check(t, ok, "%s: after the flush %u of %u reads returned the old frame, %u neither (last 0x%llx)",
			metric, r.after_old, r.rounds, r.after_other, (unsigned long long)r.bad_value);
	else
		t_check(t, r.after_other == 0, "%s: %u reads after the flush returned neither frame (0x%llx)",
			metric, r.after_other, (unsigned long long)r.bad_value);
	return r;
}

static struct tally run_method(struct env *e, const char *metric, const struct probe *p,
			       flush_fn fl, bool must_flush)
{
	return run_method_n(e, metric, p, fl, must_flush, correctness_rounds(e->t));
}

static void fl_invlpg(struct env *e, uint64_t va)
{
	(void)e;
	__invlpg(va);
}

static void fl_mov_cr3(struct env *e, uint64_t va)
{
	(void)e, (void)va;
	native_flush_tlb_local();
}

static void fl_global(struct env *e, uint64_t va)
{
	(void)e, (void)va;
	native_flush_tlb_global();
}

static void fl_invpcid0(struct env *e, uint64_t va)
{
	(void)e;
	invpcid_flush_one(read_cr3() & X86_CR3_PCID_MASK, va);
}

static void fl_invpcid1(struct env *e, uint64_t va)
{
	(void)e, (void)va;
	invpcid_flush_single_context(read_cr3() & X86_CR3_PCID_MASK);
}

static void fl_invpcid2(struct env *e, uint64_t va)
{
	(void)e, (void)va;
	invpcid_flush_all();
}

static void fl_invpcid3(struct env *e, uint64_t va)
{
	(void)e, (void)va;
	invpcid_flush_all_nonglobals();
}

/* ---------------------------------------------------- correctness --- */

static void body_flush_4k(struct env *e)
{
	const struct probe p = { false, 0, false };
	uint64_t pa = 0, leaf = 0;
	unsigned level = 0;

	/* The kernel's walker must agree with the window (a planted mapping
	 * is found, with its frame, as a 4 KiB leaf). */
	pt_win_map_4k(&e->w, 0, e->frame[0], false);
	t_check(e->t, paging_translate(pt_win_va_4k(0), &pa, &leaf, &level) && pa == e->frame[0] &&
		      level == 1,
		"walker does not see the test mapping: pa=0x%llx level=%u", (unsigned long long)pa,
		level);
	unsigned n = claim_rounds(e->t);
	struct tally r[3] = {
		run_method_n(e, "invlpg.1p.1cpu", &p, fl_invlpg, true, n),
		run_method_n(e, "mov_cr3.1p.1cpu", &p, fl_mov_cr3, true, n),
		run_method_n(e, "global_flush.1p.1cpu", &p, fl_global, true, n),
	};

	/* the tlb_flush answer's claim: reads after each of the three flushes,
	 * against the stale reads before them (the same rounds' control) */
	tlb_sum.local_stale = (int)r[0].stale;
	tlb_sum.local_rounds = tlb_sum.local_after_old = tlb_sum.local_before_stale = 0;
	for (unsigned i = 0; i < 3; i++) {
		tlb_sum.local_rounds += r[i].rounds;
		tlb_sum.local_after_old += r[i].after_old;
		tlb_sum.local_before_stale += r[i].stale;
	}
}

TEST(tlb, flush_4k, .order = 10)
{
	with_env(t, false, body_flush_4k);
}

static void body_global(struct env *e)
{
	const struct probe g = { false, 1, true }, ng = { false, 0, false };

	pge_on();
	struct tally r = run_method(e, "mov_cr3_keeps.1p.1cpu", &g, fl_mov_cr3, false);

	t_diag(e->t, "MOV CR3 %s a global entry (kept in %u of %u rounds; SDM vol. 3A §4.10.4.1 says it need not drop it)",
	       r.after_old ? "keeps" : "did not keep", r.after_old, r.rounds);
	run_method(e, "pge_toggle.1p.1cpu", &g, fl_global, true);
	run_method(e, "invlpg.1p.1cpu", &g, fl_invlpg, true);
	run_method(e, "nonglobal_mov_cr3.1p.1cpu", &ng, fl_mov_cr3, true);
}

TEST(tlb, global, .order = 20)
{
	if (!t_require(t, X86_FEATURE_PGE, "PGE"))
		return;
	with_env(t, false, body_global);
}

static void body_flush_2m(struct env *e)
{
	const struct probe p = { true, 1, false }, g = { true, 2, true };
	uint64_t pa = 0;
	unsigned level = 0;

	pt_win_map_2m(&e->w, 1, e->frame2m[0], false);
	t_check(e->t, paging_translate(pt_win_va_2m(1) + 0x1234, &pa, NULL, &level) &&
		      pa == e->frame2m[0] + 0x1234 && level == 2,
		"walker does not see the 2 MiB test mapping: pa=0x%llx level=%u",
		(unsigned long long)pa, level);
	run_method(e, "invlpg.1p.1cpu", &p, fl_invlpg, true);
	run_method(e, "mov_cr3.1p.1cpu", &p, fl_mov_cr3, true);
	if (plat_cpu_has(X86_FEATURE_PGE)) {
		pge_on();
		run_method(e, "global_pge_toggle.1p.1cpu", &g, fl_global, true);
	}
}

/* Generous budget: a nested KVM emulates the PTE writes, flushes and
 * 2 MiB walks of every round. */
TEST(tlb, flush_2m, .order = 30, .budget_ms = 120000)
{
	with_env(t, true, body_flush_2m);
}

struct method_row {
	const char *metric;
	struct probe p;
	flush_fn fl;
	bool must_flush;
};

static void run_methods(struct env *e, const struct method_row *rows, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		run_method(e, rows[i].metric, &rows[i].p, rows[i].fl, rows[i].must_flush);
}

/* Non-global page first; then a global one, which types 0, 1 and 3 leave
 * alone (SDM vol. 2A INVPCID) but may drop anyway (reported), and type 2
 * must drop. */
static const struct method_row invpcid_rows[] = {
	{ "invpcid_type0.1p.1cpu", { false, 0, false }, fl_invpcid0, true },
	{ "invpcid_type1.all.1cpu", { false, 0, false }, fl_invpcid1, true },
	{ "invpcid_type2.all.1cpu", { false, 0, false }, fl_invpcid2, true },
	{ "invpcid_type3.all.1cpu", { false, 0, false }, fl_invpcid3, true },
	{ "invpcid_type0_global.1p.1cpu", { false, 1, true }, fl_invpcid0, false },
	{ "invpcid_type1_global.all.1cpu", { false, 1, true }, fl_invpcid1, false },
	{ "invpcid_type2_global.all.1cpu", { false, 1, true }, fl_invpcid2, true },
	{ "invpcid_type3_global.all.1cpu", { false, 1, true }, fl_invpcid3, false },
};

static void body_invpcid(struct env *e)
{
	run_methods(e, invpcid_rows, 4);
	if (!plat_cpu_has(X86_FEATURE_PGE)) {
		char why[200];

		x86_feature_absent_why(X86_FEATURE_PGE, "PGE", why, sizeof(why));
		t_diag(e->t, "global variants not run: %s", why);
		return;
	}
	pge_on();
	run_methods(e, invpcid_rows + 4, 4);
}

TEST(tlb, invpcid, .order = 40)
{
	if (!t_require(t, X86_FEATURE_INVPCID, "INVPCID"))
		return;
	with_env(t, false, body_invpcid);
}

/* PCID switching.  PCID 1 caches frame A; CR3 moves to PCID 2 (flushing
 * PCID 2) after the PTE became B; then back to PCID 1:
 *   noflush_control  with CR3 bit 63 set (NOFLUSH): reading A shows PCID 1
 *                    kept its entry (the control), then MOV CR3 to PCID 1
 *                    without bit 63 must drop it: B.
 *   invpcidN_other   INVPCID type N issued from PCID 2 (types 0/1 naming
 *                    PCID 1), then back to PCID 1 with NOFLUSH: must be B. */
enum pcid_variant { PV_NOFLUSH, PV_INVPCID0, PV_INVPCID1, PV_INVPCID2, PV_INVPCID3, PV_N };
static const char *const pv_metric[PV_N] = {
	"cr3_noflush_then_flush.1p.1cpu",
	"invpcid_type0_other_pcid.1p.1cpu",
	"invpcid_type1_other_pcid.all.1cpu",
	"invpcid_type2_other_pcid.all.1cpu",
	"invpcid_type3_other_pcid.all.1cpu",
};

struct pcid_tally {
	unsigned rounds, touch_bad, pcid2_bad, kept, wrong;
	uint64_t bad_value;
};

static void pcid_round(struct env *e, enum pcid_variant v, struct pcid_tally *r)
{
	const struct probe p = { false, 0, false };
	uint64_t va = probe_va(&p), root = e->cr3 & PTE_ADDR_MASK, x;
	int k = (int)(r->rounds & 1), o = k ^ 1;
	uint64_t flags = irq_save();

	probe_map(e, &p, k);
	write_cr3(root | 1);
	if ((x = peek(va)) != tlb_magic[k])
		r->touch_bad++, r->bad_value = x;
	/* The PTE changes while PCID 1 is current, and the serializing MOV CR3
	 * to PCID 2 (which flushes PCID 2) comes after it, so PCID 2 must
	 * walk to B; only PCID 1 may still hold A. */
	probe_map(e, &p, o);
	write_cr3(root | 2);
	if ((x = peek(va)) != tlb_magic[o])
		r->pcid2_bad++, r->bad_value = x;
	switch (v) {
	case PV_NOFLUSH:
		write_cr3(root | 1 | X86_CR3_PCID_NOFLUSH);
		if (peek(va) == tlb_magic[k])
			r->kept++;
		write_cr3(root | 1);
		break;
	case PV_INVPCID0:
		invpcid_flush_one(1, va);
		write_cr3(root | 1 | X86_CR3_PCID_NOFLUSH);
		break;
	case PV_INVPCID1:
		invpcid_flush_single_context(1);
		write_cr3(root | 1 | X86_CR3_PCID_NOFLUSH);
		break;
	case PV_INVPCID2:
		invpcid_flush_all();
		write_cr3(root | 1 | X86_CR3_PCID_NOFLUSH);
		break;
	default:
		invpcid_flush_all_nonglobals();
		write_cr3(root | 1 | X86_CR3_PCID_NOFLUSH);
		break;
	}
	if ((x = peek(va)) != tlb_magic[o])
		r->wrong++, r->bad_value = x;
	write_cr3(root);	/* PCID 0, flushing it */
	irq_restore(flags);
	r->rounds++;
}

static void body_pcid(struct env *e)
{
	struct test_ctx *t = e->t;

	if (e->cr3 & X86_CR3_PCID_MASK) {
		t_fail(t, "CR3[11:0]=0x%llx: CR4.PCIDE cannot be set (SDM vol. 3A §4.10.1)",
		       (unsigned long long)(e->cr3 & X86_CR3_PCID_MASK));
		return;
	}
	write_cr4(read_cr4() | X86_CR4_PCIDE);
	bool control_fired = false;

	for (int v = 0; v < PV_N; v++) {
		struct pcid_tally r = { 0 };

		if (v != PV_NOFLUSH && !plat_cpu_has(X86_FEATURE_INVPCID)) {
			char why[200];

			x86_feature_absent_why(X86_FEATURE_INVPCID, "INVPCID", why, sizeof(why));
			t_diag(t, "%s not run: %s", pv_metric[v], why);
			continue;
		}
		for (unsigned i = 0, n = correctness_rounds(t); i < n; i++)
			pcid_round(e, (enum pcid_variant)v, &r);
		t_metric_value(t, pv_metric[v], v == PV_NOFLUSH ? r.kept : r.wrong, "count",
			       "rounds=%u kept_by_noflush=%u wrong_after_flush=%u control=%s",
			       r.rounds, r.kept, r.wrong,
			       v == PV_NOFLUSH ? (r.kept ? "fired" : "not-observed") : "see-noflush");
		t_check(t, r.touch_bad == 0 && r.pcid2_bad == 0,
			"%s: wrong frame on first read (%u) or in PCID 2 (%u), last 0x%llx",
			pv_metric[v], r.touch_bad, r.pcid2_bad, (unsigned long long)r.bad_value);
		t_check(t, r.wrong == 0, "%s: %u of %u reads returned the old frame after the flush (0x%llx)",
			pv_metric[v], r.wrong, r.rounds, (unsigned long long)r.bad_value);
		if (v == PV_NOFLUSH)
			control_fired = r.kept > 0;
	}
	/* Dropping PCID-tagged entries at any time is allowed (SDM vol. 3A
	 * 4.10.4.1), so a CPU or emulator that does (Bochs flushes on every
	 * CR3 write) makes the flush checks blind: say so, do not pretend. */
	if (!control_fired)
		t_conclude(t, "control not observed: no entry of PCID 1 survived a no-flush CR3 write, so the INVPCID/CR3 flush checks could not have caught a flush that does nothing; they show only that the instructions execute and leave no stale entry");
}

TEST(tlb, pcid, .order = 50)
{
	if (!t_require(t, X86_FEATURE_PCID, "PCID"))
		return;
	with_env(t, false, body_pcid);
}
/* -------------------------------------------------------------- cost --- */

#define COST_U	16u	/* operations per U run; 2U = 32 pages */
#define ABSENT_FIRST 256u	/* window pages 256.. are never mapped */

enum cost_op { OP_INVLPG_PRESENT, OP_INVLPG_ABSENT, OP_MOV_CR3, OP_GLOBAL, OP_INVPCID0,
	       OP_INVPCID1, OP_INVPCID2, OP_INVPCID3, OP_N };
static const struct {
	const char *metric, *rewalk;
	bool invpcid;
} cost_ops[OP_N] = {
	{ "invlpg_present.1p.1cpu", "rewalk_after_invlpg.1p.1cpu", false },
	{ "invlpg_absent.1p.1cpu", NULL, false },
	{ "mov_cr3.all.1cpu", "rewalk_after_mov_cr3.1p.1cpu", false },
	{ "global_flush.all.1cpu", "rewalk_after_global_flush.1p.1cpu", false },
	{ "invpcid_type0.1p.1cpu", "rewalk_after_invpcid_type0.1p.1cpu", true },
	{ "invpcid_type1.all.1cpu", "rewalk_after_invpcid_type1.1p.1cpu", true },
	{ "invpcid_type2.all.1cpu", "rewalk_after_invpcid_type2.1p.1cpu", true },
	{ "invpcid_type3.all.1cpu", "rewalk_after_invpcid_type3.1p.1cpu", true },
};

static void touch_pages(unsigned first, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		(void)peek(pt_win_va_4k(first + i));
}

/* n operations, timed as one block. */
static uint64_t time_ops(enum cost_op op, unsigned n)
{
	uint64_t t0 = 0, t1;

	switch (op) {
	case OP_INVLPG_PRESENT:
		touch_pages(0, n);
		t0 = lfence_rdtsc();
		for (unsigned i = 0; i < n; i++)
			__invlpg(pt_win_va_4k(i));
		break;
	case OP_INVLPG_ABSENT:
		t0 = lfence_rdtsc();
		for (unsigned i = 0; i < n; i++)
			__invlpg(pt_win_va_4k(ABSENT_FIRST + i));
		break;
	case OP_MOV_CR3:
		t0 = lfence_rdtsc();
		for (unsigned i = 0; i < n; i++)
			native_flush_tlb_local();
		break;
	case OP_GLOBAL:
		t0 = lfence_rdtsc();
		for (unsigned i = 0; i < n; i++)
			native_flush_tlb_global();
		break;
	default: {
		unsigned long type = (unsigned long)(op - OP_INVPCID0);

		touch_pages(0, n);
		t0 = lfence_rdtsc();
		for (unsigned i = 0; i < n; i++)
			__invpcid(0, pt_win_va_4k(i), type);
		break;
	}
	}
	t1 = lfence_rdtsc();
	return t1 - t0;
}

/* One flush of the kind op measures, aimed at page 0. */
static void flush_once(enum cost_op op)
{
	switch (op) {
	case OP_INVLPG_PRESENT:
		__invlpg(pt_win_va_4k(0));
		break;
	case OP_MOV_CR3:
		native_flush_tlb_local();
		break;
	case OP_GLOBAL:
		native_flush_tlb_global();
		break;
	default:
		__invpcid(0, pt_win_va_4k(0), (unsigned long)(op - OP_INVPCID0));
		break;
	}
}

static uint64_t time_load(uint64_t va)
{
	uint64_t t0 = lfence_rdtsc();

	(void)peek(va);
	return lfence_rdtsc() - t0;
}

/* quick: trials each series gets before the case's sample budget
 * (.quick_budget_ms of TEST(tlb, cost) below) may stop it */
#define COST_MIN_QUICK	8
#define COST_MIN_USABLE	2

/* Series the quick budget cut short get one budget line for all of them
 * (struct cost_cuts, tlb.h; each metric line has its n), as under a
 * hypervisor that exits on every serial character a line per series
 * costs more than the series. */

/* Quick without iters=: the re-walk only where the summary uses it (the
 * hit and after INVLPG); every flush instruction's own cost still runs. */
static bool cost_rewalk_in_quick(const struct test_ctx *t, int op)
{
	return !t_budgeted(t) || op < 0 || op == OP_INVLPG_PRESENT;
}

static void body_cost(struct env *e)
{
	struct test_ctx *t = e->t;
	size_t trials = (size_t)t_iters(t, 2000, 60);
	uint64_t *s = t_alloc(t, trials * sizeof(uint64_t));
	struct t_overhead ovh;
	char ovh_text[120];
	bool invpcid = plat_cpu_has(X86_FEATURE_INVPCID);
	struct cost_cuts cuts = { 0 };
	bool quick_said = false;

	for (unsigned i = 0; i < 2 * COST_U; i++)
		pt_win_map_4k(&e->w, i, e->frame[i & 1], false);
	if (plat_cpu_has(X86_FEATURE_PGE))
		pge_on();	/* as Linux runs: global flush = CR4.PGE toggle */
	/* The LFENCE;RDTSC bracket alone (time_load()'s), subtracted from
	 * single loads. */
	t_overhead_measure(&ovh, T_BRACKET_LFENCE, trials);
	t_overhead_text(&ovh, ovh_text, sizeof(ovh_text));
	if (!invpcid) {
		char why[200];

		x86_feature_absent_why(X86_FEATURE_INVPCID, "INVPCID", why, sizeof(why));
		t_diag(t, "invpcid_type0-3 not measured (cost and re-walk): %s", why);
	}
	for (int op = 0; op < OP_N; op++) {
		size_t k = 0, dropped = 0;

		if (cost_ops[op].invpcid && !invpcid)
			continue;
		size_t i;

		for (i = 0; i < trials && !t_expired(t); i++) {
			if (i >= COST_MIN_QUICK && t_quick_spent(t))
				break;
			uint64_t f = irq_save();
			uint64_t a = time_ops((enum cost_op)op, COST_U);
			uint64_t b = time_ops((enum cost_op)op, 2 * COST_U);

			irq_restore(f);
			if (b > a)
				s[k++] = (b - a) / COST_U;
			else
				dropped++;
		}
		t_metric_dist(t, cost_ops[op].metric, s, k, "cycles",
			      "method=u2u %s u=%u dropped=%zu what=one-flush-instruction",
			      t_u2u_overhead_text(), COST_U, dropped);
		cost_cut(&cuts, i, trials);
		/* most trials usable (a spent case budget excuses it); under an
		 * emulator or hypervisor in quick, COST_MIN_USABLE: the host's
		 * preemptions drop the rest */
		if (!t_expired(t))
			t_check_usable(t, cost_ops[op].metric, k, i, COST_MIN_USABLE, false);
		uint64_t med = p50_of(s, k);

		if (op == OP_INVLPG_PRESENT)
			tlb_sum.invlpg = med;
		else if (op == OP_INVLPG_ABSENT)
			tlb_sum.invlpg_absent = med;
		else if (op == OP_MOV_CR3)
			tlb_sum.mov_cr3 = med;
		else if (op == OP_GLOBAL)
			tlb_sum.global = med;
	}
	/* Re-walk: the first load of page 0 after each flush, minus the
	 * bracket; "hit" is the same load with the entry cached. */
	for (int op = -1; op < OP_N; op++) {
		const char *name = op < 0 ? "rewalk_hit.1p.1cpu" : cost_ops[op].rewalk;
		size_t k = 0;

		if (op >= 0 && (!name || (cost_ops[op].invpcid && !invpcid)))
			continue;
		if (!cost_rewalk_in_quick(t, op)) {
			if (!quick_said)
				t_diag(t, "budget: re-walk measured only when hit and after INVLPG (quick budget)");
			quick_said = true;
			continue;
		}
		size_t i;

		for (i = 0; i < trials && !t_expired(t); i++) {
			if (i >= COST_MIN_QUICK && t_quick_spent(t))
				break;
			uint64_t f = irq_save();

			(void)peek(pt_win_va_4k(0));
			if (op >= 0)
				flush_once((enum cost_op)op);
			uint64_t c = time_load(pt_win_va_4k(0));

			irq_restore(f);
			s[k++] = c;
		}
		t_overhead_remove(&ovh, s, k);
		t_metric_dist(t, name, s, k, "cycles", "method=first-load-after-flush %s data=cache-hot",
			      ovh_text);
		cost_cut(&cuts, i, trials);
		if (op < 0)
			tlb_sum.rewalk_hit = p50_of(s, k);
		else if (op == OP_INVLPG_PRESENT)
			tlb_sum.rewalk_invlpg = p50_of(s, k);
	}
	ws_cost(e, &cuts);
	if (cuts.cut) {
		char what[80];

		rl_snprintf(what, sizeof(what), "%u of %u series (n= in each metric line), the fewest",
			    cuts.cut, cuts.series);
		t_budget_note(t, what, cuts.fewest, trials);
	}
}

/* quick: 15 ms of sample budget, at least COST_MIN_QUICK (8) trials a
 * series (the working sets: WS_MIN_QUICK, workset.c).  The window gets
 * 2 MiB frames for the 2 MiB working set. */
TEST(tlb, cost, .order = 80, .budget_ms = 60000, .quick_budget_ms = 15)
{
	with_env(t, true, body_cost);
}

