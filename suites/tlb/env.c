/* SPDX-License-Identifier: GPL-2.0-only */
/* tlb: the test environment.  A window of virtual addresses outside the
 * identity map (arch/x86/pgtable_test.h) with its own page tables and the
 * frames the cases map into it, and putting everything back afterwards.
 *
 * Cleanup: env_setup() first saves CPU 0's CR3 and CR4 and registers
 * env_restore() as the case's deferred action (t_defer, kernel/test.h), so
 * that however the case ends -- returned, a fault or the watchdog caught by
 * with_env()'s plat_catch(), or stopped by the runner itself -- the window
 * is unlinked, CR3 and CR4 are restored on CPU 0 and every CPU flushes its
 * TLB before the result line (the runner then releases the frames and
 * tables).  The identity map is never written.  cleanup_on_fault and
 * timeout_cleanup check exactly that. */
#include "suites/tlb/tlb.h"
#include "kernel/test.h"
#include "kernel/platform.h"
#include "arch/x86/cpu.h"
#include "arch/x86/paging.h"
#include "arch/x86/pgtable_test.h"
#include "arch/x86/processor-flags.h"
#include "arch/x86/tlbflush.h"
#include "arch/x86/trapnr.h"
#include "lib/string.h"

const uint64_t tlb_magic[2] = { 0x4141414141410a0aull, 0x4242424242420b0bull };

struct remote_cr4 {
	volatile uint64_t cr4;
	volatile bool saved;
	volatile bool pcid_set;		/* CR3 holds a PCID remote_pcid_set() put there */
} __attribute__((aligned(64)));

static void env_restore(struct test_ctx *t, void *arg);

/* A frame's first word, which tells A from B when read through the window.
 * The frames are this case's RAM (t_alloc), not a device: a plain store,
 * made before any read through the window by the compiler barrier. */
static void frame_fill(uint64_t pa, uint64_t v)
{
	*(uint64_t *)(uintptr_t)pa = v;
	__asm__ volatile("" ::: "memory");
}

/* The window and its frames; false (the case failed) if the window's PML4
 * slot is taken.  From its first line on, env_restore() is the case's
 * deferred action: a set-up that fails half-way is undone as well. */
static bool env_setup(struct test_ctx *t, struct env *e, bool want_2m)
{
	char why[96];

	memset(e, 0, sizeof(*e));
	e->t = t;
	e->cr3 = read_cr3();	/* first: env_restore() writes them back */
	e->cr4 = read_cr4();
	if (!t_defer(t, env_restore, e))
		return false;
	/* The frames come from plat_alloc_big(), not t_alloc(): t_alloc()
	 * zeroes, and REP STOSB runs at ~1 MB/s under a hypervisor that
	 * emulates it (6 MiB of 2 MiB frames took 3 s), while only each
	 * frame's first word is ever read (frame_fill()).  Before the other
	 * allocations, as plat_alloc_big() starts by rewinding the allocator to
	 * where its previous block began; env_restore() hands the block back.
	 * 3 x 2 MiB: two aligned 2 MiB frames even where the block is only
	 * page-aligned; the two 4 KiB frames after them. */
	uint64_t big_bytes = (want_2m ? 3 * SZ_2M : 0) + 2 * 4096;
	uint8_t *big = plat_alloc_big(big_bytes, NULL, 0);

	if (!big)
		return t_fail(t, "no memory for the test frames (%llu bytes)",
			      (unsigned long long)big_bytes);
	e->big = big;
	if (want_2m) {
		uint64_t a = ((uint64_t)(uintptr_t)big + SZ_2M - 1) & ~(SZ_2M - 1);

		for (int k = 0; k < 2; k++) {
			e->frame2m[k] = a + (uint64_t)k * SZ_2M;
			frame_fill(e->frame2m[k], tlb_magic[k]);
		}
	}
	for (int k = 0; k < 2; k++) {
		e->frame[k] = (uint64_t)(uintptr_t)big + big_bytes - (uint64_t)(2 - k) * 4096;
		frame_fill(e->frame[k], tlb_magic[k]);
	}
	void *tables = t_alloc(t, 3 * 4096);
	if (!pt_win_install(&e->w, tables, why, sizeof(why)))
		return t_fail(t, "%s", why);
	return true;
}

void flush_local_cr3(void *arg)
{
	(void)arg;
	native_flush_tlb_local();
}

/* On a remote CPU: save CR4 (the first change only, so that it is what
 * the CPU had before the case). */
static struct remote_cr4 *remote_save(void *arg)
{
	struct remote_cr4 *r = &((struct remote_cr4 *)arg)[plat_this_cpu()];

	if (!r->saved) {
		r->cr4 = read_cr4();
		r->saved = true;
	}
	return r;
}

/* On a remote CPU: CR4.PGE (a global entry is only global with it set,
 * SDM vol. 3A §4.10.2.4). */
static void remote_pge_set(void *arg)
{
	(void)remote_save(arg);
	write_cr4(read_cr4() | X86_CR4_PGE);
}

/* The PCID remote_pcid_set() puts in CR3 (remote_pcid_on()'s). */
static unsigned remote_pcid;

/* On a remote CPU: CR4.PCIDE, then PCID remote_pcid in CR3.  PCIDE can be
 * set only with CR3[11:0] = 0 (SDM vol. 3A §4.10.1), so a CPU whose CR3
 * has other bits there is left alone and not counted. */
static void remote_pcid_set(void *arg)
{
	struct remote_cr4 *r = remote_save(arg);
	uint64_t cr3 = read_cr3();

	if (cr3 & X86_CR3_PCID_MASK)
		return;
	write_cr4(read_cr4() | X86_CR4_PCIDE);
	write_cr3(cr3 | remote_pcid);
	r->pcid_set = true;
}

/* On a remote CPU: CR3's PCID back to 0 where remote_pcid_set() set one,
 * then the CR4 remote_save() kept.  CR3 first: with PCIDE clear, CR3's low
 * bits are PWT/PCD again (SDM vol. 3A §4.5), not a PCID; clearing PCIDE
 * then drops every PCID's entries (SDM vol. 3A §4.10.4.1). */
static void remote_cr4_put_back(void *arg)
{
	struct remote_cr4 *r = &((struct remote_cr4 *)arg)[plat_this_cpu()];

	if (r->pcid_set) {
		write_cr3(read_cr3() & ~X86_CR3_PCID_MASK);
		r->pcid_set = false;
	}
	if (r->saved) {
		write_cr4(r->cr4);
		r->saved = false;
	}
}

static bool remote_call(struct test_ctx *t, struct env *e, const unsigned *cpus, unsigned n,
			plat_fn fn, const char *what)
{
	int st[256];

	if (!e->rcr4)
		e->rcr4 = t_alloc(t, plat_ncpus() * sizeof(struct remote_cr4));
	e->remotes_used = true;
	plat_call_many(cpus, n, fn, e->rcr4, T_LOST_US / 1000, st);
	for (unsigned i = 0; i < n; i++)
		if (st[i] != PLAT_OK)
			return t_fail(t, "cpu %u: %s: %s", cpus[i], what, plat_strerror(st[i]));
	return true;
}

/* CR4.PGE on every remote CPU listed (idle: no server running), as
 * CPU 0 gets it with pge_on(); false with a failure if any did not. */
bool remote_pge_on(struct test_ctx *t, struct env *e, const unsigned *cpus, unsigned n)
{
	return remote_call(t, e, cpus, n, remote_pge_set, "setting CR4.PGE");
}

bool remote_pcid_on(struct test_ctx *t, struct env *e, const unsigned *cpus, unsigned n,
		    unsigned pcid)
{
	const struct remote_cr4 *r;

	remote_pcid = pcid;
	if (!remote_call(t, e, cpus, n, remote_pcid_set, "setting CR4.PCIDE"))
		return false;
	r = e->rcr4;
	for (unsigned i = 0; i < n; i++)
		if (!r[cpus[i]].pcid_set)
			return t_fail(t, "cpu %u: CR3[11:0] is not 0: CR4.PCIDE not set", cpus[i]);
	return true;
}

/* Every remote CPU's CR3 PCID and CR4 back to what the calls above found. */
void remote_cr4_restore(struct env *e)
{
	unsigned others[256];
	unsigned n;

	if (!e->rcr4)
		return;
	n = plat_other_cpus(others, 256);
	plat_call_many(others, n, remote_cr4_put_back, e->rcr4, T_LOST_US / 1000, NULL);
}

/* Undo everything (the case's deferred action, registered by
 * env_setup()): CPU 0's CR3 (PCID 0, flushing) and CR4, the window
 * unlinked, then every TLB flushed, globals included, so no CPU keeps a
 * translation to frames the runner is about to release.  A shootdown
 * still in progress was stopped before (sd_setup() registers that after
 * this, so it runs first). */
static void env_restore(struct test_ctx *t, void *arg)
{
	struct env *e = arg;
	uint64_t f = irq_save();

	(void)t;
	write_cr3(e->cr3 & ~(X86_CR3_PCID_NOFLUSH | X86_CR3_PCID_MASK));
	write_cr4(e->cr4);
	pt_win_remove(&e->w);
	native_flush_tlb_global();
	irq_restore(f);
	if (e->remotes_used) {
		unsigned others[256];
		unsigned n = plat_other_cpus(others, 256);

		remote_cr4_restore(e);	/* before the flush: their CR3/CR4 as found */
		e->rcr4 = NULL;

		/* CPUs beyond 256 never take part (see shootdown). */
		plat_call_many(others, n, flush_local_cr3, NULL, T_LOST_US / 1000, NULL);
		e->remotes_used = false;
	}
	/* Last, with no CPU left caching a translation to them: the frames go
	 * back now, before the case's other cleanup (the runner forgets the
	 * block at the case's end too). */
	if (e->big) {
		plat_free_big(e->big);
		e->big = NULL;
	}
}

struct guarded {
	struct env *e;
	body_fn body;
};

static void run_body(void *arg)
{
	struct guarded *g = arg;

	g->body(g->e);
}

/* What with_env() says when a fault or the watchdog ended the body; the
 * restore it names is env_restore(), which the runner runs before it
 * prints the result (and reports, should it fail). */
#define RESTORED_TEXT	"test mapping removed, CR3/CR4 restored"

/* body under a catch point of its own (plat_catch); unless the fault is
 * expected (PLAT_CATCH_QUIET), the runner turns how it ended into the
 * case's verdict (t_caught: a fault fails the case, the watchdog times it
 * out).  Returns plat_catch()'s result. */
static int run_guarded(struct test_ctx *t, struct env *e, body_fn body, unsigned flags,
		       struct plat_fault *f)
{
	struct guarded g = { e, body };
	int rc = plat_catch(run_body, &g, flags, f);

	if (!(flags & PLAT_CATCH_QUIET))
		t_caught(t, rc, f, "test body", RESTORED_TEXT);
	return rc;
}

/* Runs body with a fresh window; false if set-up failed (already failed). */
bool with_env(struct test_ctx *t, bool want_2m, body_fn body)
{
	static struct env e;
	struct plat_fault f;

	if (!env_setup(t, &e, want_2m))
		return false;
	run_guarded(t, &e, body, 0, &f);
	return true;
}

void pge_on(void)
{
	write_cr4(read_cr4() | X86_CR4_PGE);
}

/* A fault in the middle of a case must leave nothing behind: map, set
 * CR4.PGE, then touch an unmapped window page (#PF, caught quietly);
 * afterwards the PML4 slot, CR3 and CR4 must be as before and the window
 * must not translate, while the identity map still does. */
static void body_fault(struct env *e)
{
	pt_win_map_4k(&e->w, 0, e->frame[0], true);
	if (plat_cpu_has(X86_FEATURE_PGE))
		pge_on();
	(void)peek(pt_win_va_4k(0));
	(void)peek(pt_win_va_4k(7));	/* not mapped: #PF */
}

TEST(tlb, cleanup_on_fault, .order = 60)
{
	static struct env e;
	struct plat_fault f;
	uint64_t cr3 = read_cr3(), cr4 = read_cr4(), slot;
	uint64_t *pml4 = (uint64_t *)(uintptr_t)paging_root();

	slot = pml4[PT_WIN_PML4_INDEX];
	if (!env_setup(t, &e, false))
		return;
	int rc = run_guarded(t, &e, body_fault, PLAT_CATCH_QUIET, &f);
	uint64_t pa = 0;

	t_defer_run(t);		/* the restore, now: it is what is checked */
	t_check(t, rc == PLAT_FAULT && f.vector == X86_TRAP_PF && e.w.installed == false,
		"planted fault: got vector %d, expected #PF (%d)", f.vector, X86_TRAP_PF);
	t_check(t, pml4[PT_WIN_PML4_INDEX] == slot, "PML4 slot %u is 0x%llx after the fault, was 0x%llx",
		PT_WIN_PML4_INDEX, (unsigned long long)pml4[PT_WIN_PML4_INDEX],
		(unsigned long long)slot);
	t_check(t, read_cr3() == cr3 && read_cr4() == cr4, "CR3/CR4 0x%llx/0x%llx after the fault, were 0x%llx/0x%llx",
		(unsigned long long)read_cr3(), (unsigned long long)read_cr4(),
		(unsigned long long)cr3, (unsigned long long)cr4);
	t_check(t, !paging_translate(pt_win_va_4k(0), NULL, NULL, NULL), "the test window still translates");
	t_check(t, paging_translate(e.frame[0], &pa, NULL, NULL) && pa == e.frame[0],
		"identity map broken at 0x%llx", (unsigned long long)e.frame[0]);
}

/* The watchdog stops the case (timeout_cleanup, below) in the middle of
 * a mapping with CR4.PGE set; the restore must still leave everything as
 * it was, which the case checks after the unwind (and the next case that
 * installs the window would find its PML4 slot in use). */
static void body_hang(struct env *e)
{
	pt_win_map_4k(&e->w, 0, e->frame[0], true);
	if (plat_cpu_has(X86_FEATURE_PGE))
		pge_on();
	(void)peek(pt_win_va_4k(0));
	/* nothing ends this wait but the watchdog */
	(void)plat_spin_until(false, 60u * 1000000u);
	t_fail(e->t, "the watchdog did not stop the case within 60 s");
}

/* Fails on purpose (run only when named): the watchdog stops it after
 * 1 s; what is checked is what the unwind left behind. */
TEST(tlb, timeout_cleanup, .order = 70, .flags = T_EXPLICIT, .budget_ms = 1000)
{
	uint64_t *pml4 = (uint64_t *)(uintptr_t)paging_root();
	uint64_t slot = pml4[PT_WIN_PML4_INDEX], cr3 = read_cr3(), cr4 = read_cr4();

	with_env(t, false, body_hang);
	/* Reached after the watchdog's unwind: the restore runs now, so that
	 * it can be checked; a failure here replaces the TIMEOUT result,
	 * which the QEMU case would notice. */
	t_defer_run(t);
	t_check(t, pml4[PT_WIN_PML4_INDEX] == slot && read_cr3() == cr3 && read_cr4() == cr4 &&
		   !paging_translate(pt_win_va_4k(0), NULL, NULL, NULL),
		"after the timeout: PML4 slot 0x%llx (was 0x%llx), CR3 0x%llx (0x%llx), CR4 0x%llx (0x%llx)",
		(unsigned long long)pml4[PT_WIN_PML4_INDEX], (unsigned long long)slot,
		(unsigned long long)read_cr3(), (unsigned long long)cr3,
		(unsigned long long)read_cr4(), (unsigned long long)cr4);
}
