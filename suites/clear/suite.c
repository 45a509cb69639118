/* SPDX-License-Identifier: GPL-2.0-only */
/* clear: how fast each way of zeroing memory clears regions of each size,
 * on one CPU and on all CPUs at once, whole range per call or one 4 KiB
 * page per call (the kernel's clear_page shape), and what reading the
 * cleared memory back costs afterwards.  The question behind it: when do
 * non-temporal stores (MOVNTI, MOVNTDQ, VMOVNTDQ, CLZERO) beat REP STOSB?
 * NT stores bypass the caches, which wins when the region is larger than
 * the cache (no read-for-ownership, no eviction of useful lines) and
 * loses when it fits (the data then has to come back from DRAM).
 *
 * Method: each CPU gets its own region with a guard page on each side,
 * first filled with a pattern on that CPU (hosted: this also populates the
 * pages, on the CPU's own NUMA node).  A sample is `reps` clears of the
 * region (reps = 256 KiB / size, at least 1, so small sizes are not
 * dominated by the timestamps), started on all CPUs at one TSC instant
 * (tsc_barrier); its bandwidth is the bytes cleared on all CPUs divided by
 * the time from the earliest start to the latest end (LFENCE;RDTSC on each
 * side; the NT methods end with SFENCE inside the clear).  Samples are
 * taken until the cell has run for a time target (0.25 ms quick, 3 ms
 * quick with iters=, 40 ms full) and at least 5 samples, as memtest86+
 * sizes its bandwidth loops by time.  A size whose cells would end the
 * case more than 25 s after it started (hosted: 120 s; quick: 30 s; a full
 * run of ring 0 under an emulator or hypervisor: t_guest_cap_ms()),
 * projected from the bandwidth measured at the size below, is left out
 * (an emulator clears at a few MB/s; the largest free region of a big
 * machine takes minutes).  After the last sample every CPU reads its
 * region back once (OR of all words, timed: the read-back cost, reported
 * as readback=MB/s), which also proves every byte zero, and checks both
 * guard pages.
 *
 * Quick without iters= is a time budget: at least 1 sample (truncated=
 * budget below 5), a sample's reps stop at the time target (reps_truncated=
 * budget), all-CPU cells only at the largest size and one per method path
 * (quick_all_cpu_cell), one cross-CPU call with one sample where that fills
 * the time target (each CPU then reads back as its clear ends:
 * readback_start=own-clear-end); REP STOSQ and MOV not per page; the setup
 * said once per run; "budget:" lines; under an emulator allcpu_bound().
 *
 * Metrics clear.{bandwidth,page_bandwidth,batch_bandwidth}.<method>.<size>.
 * <N>cpu in MB/s (10^6 bytes/s, PMU counts or pmu=none on MOVNTI and REP
 * STOSB) and clear.crossover.movnti.<shape>.<1cpu|allcpu> (the size from
 * which MOVNTI beats REP STOSB at every measured size, a win counted only
 * where the two spreads are apart: MOVNTI's 25th percentile above REP
 * STOSB's 75th, n >= 5 each; crossover.c), from which the nt_clear answer
 * is built: docs/suites.md "clear" says each.  Beside them: one cold clear
 * (the region's lines flushed first) of the 1-CPU whole-range MOVNTI and
 * REP STOSB cells, and REP STOSB in Linux's clear_pages() extent shape
 * (batch_bandwidth, rep_stosb_extent).
 *
 * The suite.  Its cases live in the files of their jobs (suites/clear/
 * clear.h says what each file holds); each TEST() names its place with
 * .order, as the runner cannot order cases of different files by source
 * line (kernel/test.h TEST).  In run order:
 *
 *   10  bandwidth         shapes.c
 *   20  page_bandwidth    shapes.c
 *   30  batch_bandwidth   shapes.c
 *   40  controls          controls.c
 *   50  crossover         crossover.c (reads what the cases before it measured)
 *
 * Gaps of 10, so that a case can go between two without renumbering. */
#include "kernel/test.h"

SUITE_HOSTED(clear, 100, "memory clearing bandwidth by method, size, shape and CPU count; read-back cost");
