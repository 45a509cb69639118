/* SPDX-License-Identifier: GPL-2.0-only */
/* Hosted (Linux user space) side of the memory-experiment seam
 * (kernel/platform.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tools/hosted/hosted.h"
#include "arch/x86/cpu.h"
#include "arch/x86/cpuinfo.h"
#include "arch/x86/meminfo.h"
#include "arch/x86/tsc_read.h"
#include "kernel/platform.h"

#define HUGE_2M		(2ull << 20)
/* a shared machine: never take more than this fraction of MemAvailable */
#define AVAIL_DIVISOR	2

/* With OSXSAVE the OS set CR4.OSXSAVE, so XGETBV works in ring 3 (SDM
 * vol. 2A CPUID, vol. 1 §13.3). */
static uint64_t xcr0_os(void)
{
	uint32_t lo, hi;

	if (!x86_cpu_has(X86_FEATURE_OSXSAVE))
		return 0;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

void plat_mem_info(struct plat_mem_info *out)
{
	struct meminfo mi;
	uint64_t avx = XFEATURE_MASK_SSE | XFEATURE_MASK_YMM, x = xcr0_os();

	meminfo_decode(&mi, cpuid_effective, NULL);
	*out = (struct plat_mem_info){
		.llc_bytes = mi.llc_bytes,
		.llc_level = mi.llc_level,
		.llc_source = mi.llc_source,
		.avx_state = x86_cpu_has(X86_FEATURE_AVX) && (x & avx) == avx,
		.avx512_state = x86_cpu_has(X86_FEATURE_AVX512F) &&
				(x & (avx | XFEATURE_MASK_AVX512)) == (avx | XFEATURE_MASK_AVX512),
	};
}

static void *big_p;
static size_t big_len;

void plat_free_big(void *p)
{
	if (p && p == big_p) {
		hosted_unsafe_enter();
		munmap(big_p, big_len);
		big_p = NULL;
		big_len = 0;
		hosted_unsafe_leave();
	}
}

static void thp_mode(char *buf, size_t size)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");

	snprintf(buf, size, "unknown");
	if (f) {
		if (fgets(buf, (int)size, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
}

void *plat_alloc_big(size_t bytes, char *how, size_t howsz)
{
	size_t len = (bytes + HUGE_2M - 1) & ~(HUGE_2M - 1);
	char thp[64];

	plat_free_big(big_p);
	hosted_unsafe_enter();
	/* hugetlbfs pages if the administrator reserved some */
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);

	if (p != MAP_FAILED) {
		big_p = p;
		big_len = len;
		if (how)
			snprintf(how, howsz, "mmap MAP_HUGETLB (2MiB hugetlbfs pages), first touch by each CPU");
		hosted_unsafe_leave();
		return p;
	}
	/* else transparent huge pages: a 2 MiB-aligned range, MADV_HUGEPAGE */
	uint8_t *raw = mmap(NULL, len + HUGE_2M, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (raw == MAP_FAILED) {
		hosted_unsafe_leave();
		return NULL;
	}
	uint8_t *a = (uint8_t *)(((uintptr_t)raw + HUGE_2M - 1) & ~(uintptr_t)(HUGE_2M - 1));

	if (a > raw)
		munmap(raw, (size_t)(a - raw));
	if (a + len < raw + len + HUGE_2M)
		munmap(a + len, (size_t)(raw + len + HUGE_2M - (a + len)));
	int adv = madvise(a, len, MADV_HUGEPAGE);

	big_p = a;
	big_len = len;
	thp_mode(thp, sizeof(thp));
	if (how)
		snprintf(how, howsz, "mmap, 2MiB-aligned, MADV_HUGEPAGE %s (THP: %s), populated by first touch on each CPU",
			 adv == 0 ? "ok" : "refused", thp);
	hosted_unsafe_leave();
	return a;
}

uint64_t plat_big_avail(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	unsigned long long kb = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return (uint64_t)kb * 1024 / AVAIL_DIVISOR;
}

int plat_simd_call(unsigned need, plat_fn fn, void *arg, char *why, size_t whysz)
{
	struct plat_mem_info mi;

	plat_mem_info(&mi);
	if ((need & PLAT_SIMD_SSE) && !x86_cpu_has(X86_FEATURE_SSE2)) {
		x86_feature_absent_why(X86_FEATURE_SSE2, "SSE2", why, whysz);
		return PLAT_INVALID;
	}
	if ((need & (PLAT_SIMD_AVX | PLAT_SIMD_AVX512)) && !mi.avx_state) {
		snprintf(why, whysz, "the OS has not enabled AVX state (XCR0[2:1])");
		return PLAT_INVALID;
	}
	if ((need & PLAT_SIMD_AVX512) && !mi.avx512_state) {
		snprintf(why, whysz, "the OS has not enabled AVX-512 state (XCR0[7:5])");
		return PLAT_INVALID;
	}
	/* user space: the OS keeps SIMD state enabled and switched */
	fn(arg);
	return PLAT_OK;
}

bool plat_priv_loop(enum plat_priv_op op, unsigned reps, volatile uint64_t *lines,
		    unsigned nlines, uint64_t *cycles, const char **why)
{
	if (op == PLAT_PRIV_IRET_SELF) {
		/* IRET to the same privilege level also works in ring 3 */
		uint64_t t0 = lfence_rdtsc();

		for (unsigned i = 0; i < reps; i++) {
			for (unsigned k = 0; k < nlines; k++)
				lines[k * 8] = i;
			iret_to_self();
		}
		*cycles = lfence_rdtsc() - t0;
		return true;
	}
	*why = "ring 0 only (MOV to CR2 needs CPL 0; the hosted build runs in ring 3)";
	return false;
}
