/* SPDX-License-Identifier: GPL-2.0-only */
/* spec: the MSRs a case changes, saved and written back however the case
 * ends, and the guarded region the measurement runs in (suites/spec/spec.h,
 * "MSRs"). */
#include "suites/spec/spec.h"
#include "kernel/test.h"
#include "kernel/platform.h"
#include "arch/x86/fault.h"

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

bool spec_msr_save(struct test_ctx *t, uint32_t msr, const char *name)
{
	return spec_msr_save_ex(t, msr, name, true);
}

bool spec_msr_save_ex(struct test_ctx *t, uint32_t msr, const char *name, bool say)
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
	if (say)
		t_diag(t, "save: %s (0x%x) = 0x%llx", name, msr, (unsigned long long)v);
	return true;
}

uint64_t spec_saved_value(uint32_t msr)
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

const char *spec_ended_name(int how, char *buf, size_t size)
{
	if (how == ENDED_RETURN)
		rl_snprintf(buf, size, "returning (%d: nothing stopped it)", how);
	else if (how == ENDED_TIMEOUT)
		rl_snprintf(buf, size, "the budget running out (%d)", how);
	else if (how == ENDED_OTHER)
		rl_snprintf(buf, size, "not running (%d)", how);
	else
		rl_snprintf(buf, size, "a fault (vector %d)", how);
	return buf;
}

int spec_guarded(struct test_ctx *t, void (*body)(struct test_ctx *t, void *arg), void *arg,
		 enum expect expect)
{
	struct guarded_call g = { t, body, arg };
	struct plat_fault f;
	/* an expected fault is caught without the exception dump (a dozen
	 * lines, ~60 ms of console under a KVM that emulates ring 0); the
	 * case names the vector it got */
	int rc = plat_catch(guarded_entry, &g, expect == EXPECT_FAULT ? PLAT_CATCH_QUIET : 0, &f);
	int how = rc == PLAT_OK ? ENDED_RETURN : rc == PLAT_TIMEOUT ? ENDED_TIMEOUT :
		  rc == PLAT_FAULT ? f.vector : ENDED_OTHER;

	restore_after = how == ENDED_RETURN ? "the measurement" :
			how == ENDED_TIMEOUT ? "a timeout" : "a fault";
	t_defer_run(t);
	/* The ending the case planted is its own to judge (restore.c); any
	 * other becomes the verdict in the runner's words.  A region that
	 * could not run at all fails, whatever was expected. */
	if ((rc == PLAT_TIMEOUT && expect == EXPECT_TIMEOUT) ||
	    (rc == PLAT_FAULT && expect == EXPECT_FAULT))
		rc = PLAT_OK;
	t_caught(t, rc, &f, "the guarded region could not run", "MSRs restored");
	return how;
}
