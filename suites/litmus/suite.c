/* SPDX-License-Identifier: GPL-2.0-only */
/* litmus: the x86 memory model, observed.
 *
 * The suite and its cases, in run order; each case's work lives in the file
 * of its job (suites/litmus/litmus.h lists them and says how a run goes).
 * The runner orders a suite's cases by the source line of their TEST()
 * (kernel/runner.c), whichever file it is in, so the cases of a suite split
 * over files are defined here, in one file: their order is this file's
 * order. */
#include "suites/litmus/litmus.h"
#include "kernel/test.h"

SUITE_HOSTED(litmus, 105, "x86-TSO litmus tests: SB, MP, MP with MOVNTI data, IRIW; WRMSR as SB's only barrier and its store-drain cost; negative controls");

TEST(litmus, sb, .budget_ms = 120000)
{
	lit_case_sb(t);
}

TEST(litmus, mp)
{
	lit_case_mp(t);
}

TEST(litmus, mp_nt)
{
	lit_case_mp_nt(t);
}

/* quick: 12 ms of samples, 6 ms a variant (four threads meet at a barrier
 * every iteration: under an emulator on fewer host cores than vCPUs each
 * iteration waits for host time slices, and its control has never fired
 * there; on hardware 2000 iterations take a few ms) */
TEST(litmus, iriw, .quick_budget_ms = 12)
{
	lit_case_iriw(t);
}

TEST(litmus, wrmsr_cost, .budget_ms = 120000)
{
	lit_case_wrmsr_cost(t);
}
