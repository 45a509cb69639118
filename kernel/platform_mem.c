/* SPDX-License-Identifier: GPL-2.0-only */
/* Kernel side of the memory-experiment seam (kernel/platform.h):
 * CPU facts, large allocations, the SIMD state for SIMD clears, and the
 * privileged instructions the fence suite times. */
#include "kernel/platform.h"
#include "arch/x86/catch.h"
#include "arch/x86/cpu.h"
#include "arch/x86/cpuinfo.h"
#include "arch/x86/meminfo.h"
#include "arch/x86/paging.h"
#include "arch/x86/traps.h"
#include "arch/x86/tsc_read.h"
#include "kernel/kernel.h"
#include "kernel/mm.h"
#include "lib/printf.h"

static struct meminfo mi_cache;
static volatile bool mi_done;

static const struct meminfo *meminfo_get(void)
{
	/* all CPUs are alike here; decoded once (CPUID exits under KVM) */
	if (!mi_done) {
		meminfo_decode(&mi_cache, cpuid_effective, 0);
		mi_done = true;
	}
	return &mi_cache;
}

void platform_mem_refresh(void)
{
	mi_done = false;
}

#define XCR0_AVX	(XFEATURE_MASK_FP | XFEATURE_MASK_SSE | XFEATURE_MASK_YMM)

void plat_mem_info(struct plat_mem_info *out)
{
	const struct meminfo *mi = meminfo_get();

	*out = (struct plat_mem_info){
		.llc_bytes = mi->llc_bytes,
		.llc_level = mi->llc_level,
		.llc_source = mi->llc_source,
		/* XCR0 can hold what CPUID.0DH says the CPU supports */
		.avx_state = x86_cpu_has(X86_FEATURE_AVX) && x86_cpu_has(X86_FEATURE_XSAVE) &&
			     (mi->xcr0_supported & XCR0_AVX) == XCR0_AVX,
		.avx512_state = x86_cpu_has(X86_FEATURE_AVX512F) && x86_cpu_has(X86_FEATURE_XSAVE) &&
				(mi->xcr0_supported & (XCR0_AVX | XFEATURE_MASK_AVX512)) ==
					(XCR0_AVX | XFEATURE_MASK_AVX512),
	};
}

/* ---- large allocations: one at a time, released by rewinding the bump
 * allocator to where it stood before (the runner rewinds further at the
 * end of the test anyway) ---- */
static void *big_p;
static struct mm_mark big_mark;

void plat_free_big(void *p)
{
	if (p && p == big_p) {
		mm_release(big_mark);
		big_p = NULL;
	}
}

void platform_mem_case_end(void)
{
	big_p = NULL;
}

void *plat_alloc_big(size_t bytes, char *how, size_t howsz)
{
	size_t npages = (bytes + PAGE_SIZE - 1) / PAGE_SIZE;

	plat_free_big(big_p);
	big_mark = mm_mark();
	void *p = page_alloc_raw(npages, SZ_2M);

	if (!p)
		p = page_alloc_raw(npages, PAGE_SIZE);
	big_p = p;
	if (p && how) {
		uint64_t pa = 0, leaf = 0;
		unsigned level = 0;

		(void)paging_translate((uint64_t)(uintptr_t)p, &pa, &leaf, &level);
		rl_snprintf(how, howsz, "usable RAM at 0x%llx, identity-mapped WB, %s pages",
			    (unsigned long long)pa,
			    level == 3 ? "1GiB" : level == 2 ? "2MiB" : level == 1 ? "4KiB" : "unmapped?");
	}
	return p;
}

uint64_t plat_big_avail(void)
{
	return mm_largest_free(SZ_2M);
}

/* ---- SIMD state for one call (SDM vol. 3 §13.1 "XSAVE-supported
 * features", §2.5 CR0.EM/MP/TS, CR4.OSFXSR/OSXMMEXCPT/OSXSAVE) ---- */
struct simd_saved {
	uint64_t cr0, cr4, xcr0;
	bool xcr0_changed;
};

static __attribute__((noinline)) bool simd_enable(unsigned need, struct simd_saved *s, char *why, size_t whysz)
{
	struct plat_mem_info mi;

	plat_mem_info(&mi);
	char src[40];

	if ((need & PLAT_SIMD_SSE) && !x86_cpu_has(X86_FEATURE_SSE2)) {
		x86_feature_absent_why(X86_FEATURE_SSE2, "SSE2", why, whysz);
		return false;
	}
	if ((need & (PLAT_SIMD_AVX | PLAT_SIMD_AVX512)) && !mi.avx_state) {
		x86_feature_source(X86_FEATURE_AVX, src, sizeof(src));
		rl_snprintf(why, whysz, "AVX state cannot be enabled (%s with XSAVE, and XCR0 components 2:1 supported)", src);
		return false;
	}
	if ((need & PLAT_SIMD_AVX512) && !mi.avx512_state) {
		x86_feature_source(X86_FEATURE_AVX512F, src, sizeof(src));
		rl_snprintf(why, whysz, "AVX-512 state cannot be enabled (%s, and XCR0 components 7:5 supported)", src);
		return false;
	}
	s->cr0 = read_cr0();
	s->cr4 = read_cr4();
	s->xcr0_changed = false;
	write_cr0((s->cr0 & ~(X86_CR0_EM | X86_CR0_TS)) | X86_CR0_MP);
	uint64_t cr4 = s->cr4 | X86_CR4_OSFXSR | X86_CR4_OSXMMEXCPT;

	if (need & (PLAT_SIMD_AVX | PLAT_SIMD_AVX512))
		cr4 |= X86_CR4_OSXSAVE;
	write_cr4(cr4);
	if (need & (PLAT_SIMD_AVX | PLAT_SIMD_AVX512)) {
		/* XCR0 is 1 (x87 only) at reset, also with OSXSAVE clear */
		s->xcr0 = (s->cr4 & X86_CR4_OSXSAVE) ? xgetbv0() : XFEATURE_MASK_FP;
		uint64_t x = s->xcr0 | XCR0_AVX;

		if (need & PLAT_SIMD_AVX512)
			x |= XFEATURE_MASK_AVX512;
		if (x != s->xcr0) {
			xsetbv0(x);
			s->xcr0_changed = true;
		}
	}
	return true;
}

static void simd_restore(const struct simd_saved *s)
{
	if (s->xcr0_changed)
		xsetbv0(s->xcr0);	/* while CR4.OSXSAVE is still set */
	write_cr4(s->cr4);
	write_cr0(s->cr0);
}

int plat_simd_call(unsigned need, plat_fn fn, void *arg, char *why, size_t whysz)
{
	struct simd_saved s;
	struct catch_frame f;
	volatile int rc = PLAT_OK;

	if (!simd_enable(need, &s, why, whysz))
		return PLAT_INVALID;
	/* Our frame is of the kind every unwind on this CPU looks for first:
	 * CATCH_TEST on the CPU running the test (faults, the watchdog),
	 * CATCH_WORK on a CPU running cross-CPU work (faults, the NMI abort),
	 * so the state is restored before anything else runs. */
	catch_push(&f, catch_find(CATCH_TEST) ? CATCH_TEST : CATCH_WORK);
	if (catch_enter(&f) == 0) {
		fn(arg);
		catch_pop(&f);
	} else if (f.vector == CATCH_TIMEOUT) {
		rc = PLAT_TIMEOUT;
		rl_snprintf(why, whysz, "test budget exceeded with SIMD state on, at rip=0x%llx",
			    (unsigned long long)f.fault_rip);
	} else if (f.vector == CATCH_ABORT) {
		rc = PLAT_ABORTED;
		rl_snprintf(why, whysz, "aborted by NMI with SIMD state on, at rip=0x%llx",
			    (unsigned long long)f.fault_rip);
	} else {
		rc = PLAT_FAULT;
		rl_snprintf(why, whysz, "%s (vector %d) error=0x%llx at rip=0x%llx with SIMD state on",
			    exception_mnemonic((unsigned)f.vector), f.vector,
			    (unsigned long long)f.error_code, (unsigned long long)f.fault_rip);
	}
	simd_restore(&s);
	return rc;
}

/* ---- privileged timing loops ---- */
bool plat_priv_loop(enum plat_priv_op op, unsigned reps, volatile uint64_t *lines,
		    unsigned nlines, uint64_t *cycles, const char **why)
{
	uint64_t flags, t0, t1;

	if (op != PLAT_PRIV_MOV_CR2 && op != PLAT_PRIV_IRET_SELF) {
		*why = "unknown operation";
		return false;
	}
	flags = irq_save();
	/* MOV to CR2 is serializing (SDM vol. 3 §10.3); writing back the
	 * value it holds changes nothing.  Interrupts are off, so no page
	 * fault can change it meanwhile. */
	uint64_t cr2 = read_cr2();

	t0 = lfence_rdtsc();
	for (unsigned i = 0; i < reps; i++) {
		for (unsigned k = 0; k < nlines; k++)
			lines[k * 8] = i;
		if (op == PLAT_PRIV_MOV_CR2)
			write_cr2(cr2);
		else
			iret_to_self();
	}
	t1 = lfence_rdtsc();
	irq_restore(flags);
	*cycles = t1 - t0;
	return true;
}
