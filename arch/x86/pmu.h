/* SPDX-License-Identifier: GPL-2.0-only */
/* Core performance counters: what CPUID says is there, and programming
 * general-purpose counters for a few events.
 *
 * Intel: the architectural PMU, CPUID 0AH (SDM vol. 3 §21.2): version,
 * general-purpose counters IA32_PMCx / IA32_PERFEVTSELx and their width,
 * fixed counters (version 2+), and IA32_PERF_GLOBAL_CTRL (version 2+), which
 * must also enable a counter for it to count.  The events used are the
 * architectural ones (SDM vol. 3 §21.2.1.2, table "UMask and Event Select
 * Encodings for Pre-Defined Architectural Performance Events"), each only
 * when CPUID.0AH:EBX does not mark it absent; the RFO event is
 * model-specific (OFFCORE_REQUESTS.DEMAND_RFO, the SDM vol. 3B event
 * tables; pmu.c intel_rfo).  On AMD family 17h-19h the RFO event is the
 * core PMU's PMCx060 L2RequestG1.RdBlkX (the family's PPR; pmu.c amd_rfo).
 *
 * AMD: the core counters (APM vol. 2 §13.2.1): four legacy PerfEvtSel /
 * PerfCtr pairs at C001_0000h / C001_0004h, or six interleaved ones at
 * C001_0200h + 2i when CPUID 8000_0001h:ECX[23] (PerfCtrExtCore) is set;
 * 48 bits wide.  There is no CPUID bit for the legacy four, so, as Linux
 * does (check_hw_exists), a counter must hold a written value before the
 * PMU is believed: emulators and hypervisors without a virtual PMU accept
 * and drop the writes.
 *
 * All MSR access goes through struct pmu_msr_ops, so host unit tests run
 * the programming against a fake MSR file (tests/host/test_pmu.c). */
#ifndef RINGLAB_ARCH_X86_PMU_H
#define RINGLAB_ARCH_X86_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "arch/x86/cpuinfo.h"

enum pmu_kind { PMU_NONE, PMU_INTEL_ARCH, PMU_AMD_CORE };

enum pmu_event {
	PMU_EV_CYCLES,		/* core cycles, unhalted */
	PMU_EV_INSTRUCTIONS,	/* instructions retired */
	PMU_EV_LLC_REFS,	/* last-level cache references */
	PMU_EV_LLC_MISSES,	/* last-level cache misses */
	PMU_EV_RFO,		/* demand read-for-ownership requests */
	PMU_NEVENTS
};

#define PMU_MAX_GP	8

struct pmu_desc {
	enum pmu_kind kind;
	unsigned version;		/* Intel CPUID.0AH:EAX[7:0] */
	unsigned ngp, gp_width;		/* general-purpose counters used */
	unsigned nfixed, fixed_width;	/* Intel fixed counters (enumerated only) */
	uint32_t events_absent;		/* Intel CPUID.0AH:EBX, within events_len */
	unsigned events_len;
	bool amd_ext;			/* AMD PerfCtrExtCore */
	enum cpu_vendor vendor;
	uint32_t family, model;
	char why[120];			/* kind == PMU_NONE: the reason */
};

void pmu_describe(struct pmu_desc *d, const struct cpuinfo *ci);
/* One line for the log: "intel-arch v5 gp=8x48 fixed=4x48 ..." */
int pmu_desc_format(const struct pmu_desc *d, char *buf, size_t size);

const char *pmu_event_name(enum pmu_event ev);
/* The event-select value (without enable/OS/USR bits) for ev, or false
 * with the reason. */
bool pmu_encode(const struct pmu_desc *d, enum pmu_event ev, uint64_t *sel, const char **why);

/* MSR access: 0 on success, nonzero if the access faulted. */
struct pmu_msr_ops {
	int (*rd)(void *ctx, uint32_t msr, uint64_t *val);
	int (*wr)(void *ctx, uint32_t msr, uint64_t val);
	void *ctx;
};

uint32_t pmu_ctl_msr(const struct pmu_desc *d, unsigned i);
uint32_t pmu_ctr_msr(const struct pmu_desc *d, unsigned i);

/* A set of events on general-purpose counters 0..n-1 of the calling CPU. */
struct pmu_set {
	const struct pmu_desc *d;
	const struct pmu_msr_ops *ops;
	unsigned n;
	enum pmu_event ev[PMU_MAX_GP];
	uint64_t sel[PMU_MAX_GP];		/* programmed selector values */
	uint64_t saved_ctl[PMU_MAX_GP], saved_ctr[PMU_MAX_GP];
	uint64_t saved_global;
	bool has_global, open;
};

/* Program the events (counting in ring 0 and 3) after saving what the
 * counters held; returns 0, or -1 with the reason in why.  Fails, with
 * everything restored, if counter 0 does not hold a written value. */
int pmu_open(struct pmu_set *s, const struct pmu_desc *d, const struct pmu_msr_ops *ops,
	     const enum pmu_event *ev, unsigned n, char *why, size_t whylen);
/* Current counts (running; take differences, pmu_delta handles wrap). */
int pmu_read(const struct pmu_set *s, uint64_t *vals);
uint64_t pmu_delta(const struct pmu_set *s, uint64_t before, uint64_t after);
/* Put back every MSR pmu_open changed.  Safe to call twice. */
void pmu_close(struct pmu_set *s);
/* After pmu_close: the selectors and IA32_PERF_GLOBAL_CTRL read back as
 * saved?  0 if so, else -1 with the first MSR that does not (the counters
 * themselves are written back too, but may have moved on since if a saved
 * selector was enabled). */
int pmu_verify_restored(const struct pmu_set *s, unsigned n, uint32_t *bad_msr, uint64_t *got);

#endif
