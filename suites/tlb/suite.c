/* SPDX-License-Identifier: GPL-2.0-only */
/* tlb: does each way of invalidating TLB entries work, what does it cost,
 * and what does a remote shootdown cost, by IPI and by AMD's INVLPGB.
 *
 * The suite.  Its cases live in the files of their jobs (suites/tlb/tlb.h
 * says what each file holds); each TEST() names its place with .order, as
 * the runner cannot order cases of different files by source line
 * (kernel/test.h TEST).  In run order:
 *
 *   10  flush_4k          local.c
 *   20  global            local.c
 *   30  flush_2m          local.c
 *   40  invpcid           local.c
 *   50  pcid              local.c
 *   60  cleanup_on_fault  env.c
 *   70  timeout_cleanup   env.c (only when named)
 *   80  cost              local.c
 *   90  shootdown         shootdown.c
 *  100  invlpgb           invlpgb.c
 *  110  invlpgb_count     invlpgb.c
 *  120  summary           summary.c (reads what the cases before it measured)
 *
 * Gaps of 10, so that a case can go between two without renumbering. */
#include "kernel/test.h"

SUITE(tlb, 85, "TLB flush correctness with stale-entry controls (INVLPG, CR3, global, PCID/INVPCID, 2 MiB), flush and re-walk cost, IPI shootdown vs INVLPGB");
