/* SPDX-License-Identifier: GPL-2.0-only */
/* tlb: does each way of invalidating TLB entries work, what does it cost,
 * and what does a remote shootdown cost, by IPI and by AMD's INVLPGB.
 *
 * The suite and its cases, in run order; each case's work lives in the file
 * of its job (suites/tlb/tlb.h lists them).  The runner orders a suite's
 * cases by the source line of their TEST() (kernel/runner.c), whichever
 * file it is in, so the cases of a suite split over files are defined here,
 * in one file: their order is this file's order. */
#include "suites/tlb/tlb.h"
#include "kernel/test.h"

SUITE(tlb, 85, "TLB flush correctness with stale-entry controls (INVLPG, CR3, global, PCID/INVPCID, 2 MiB), flush and re-walk cost, IPI shootdown vs INVLPGB");

TEST(tlb, flush_4k)
{
	tlb_flush_4k(t);
}

TEST(tlb, global)
{
	tlb_global(t);
}

/* Generous budget: a nested KVM emulates the PTE writes, flushes and
 * 2 MiB walks of every round. */
TEST(tlb, flush_2m, .budget_ms = 120000)
{
	tlb_flush_2m(t);
}

TEST(tlb, invpcid)
{
	tlb_invpcid(t);
}

TEST(tlb, pcid)
{
	tlb_pcid(t);
}

TEST(tlb, cleanup_on_fault)
{
	tlb_cleanup_on_fault(t);
}

/* Fails on purpose (run only when named): the watchdog stops it after
 * 1 s; what is checked is what the unwind left behind. */
TEST(tlb, timeout_cleanup, .flags = T_EXPLICIT, .budget_ms = 1000)
{
	tlb_timeout_cleanup(t);
}

/* quick: 15 ms of sample budget, at least 8 trials a series */
TEST(tlb, cost, .budget_ms = 60000, .quick_budget_ms = 15)
{
	tlb_cost(t);
}

/* quick: 20 ms of sample budget; then one round a point (shootdown.c) */
TEST(tlb, shootdown, .budget_ms = 120000, .quick_budget_ms = 20)
{
	tlb_shootdown(t);
}

TEST(tlb, invlpgb, .budget_ms = 120000)
{
	tlb_invlpgb(t);
}

TEST(tlb, invlpgb_count)
{
	tlb_invlpgb_count(t);
}

TEST(tlb, summary)
{
	tlb_summary(t);
}
