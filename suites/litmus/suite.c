/* SPDX-License-Identifier: GPL-2.0-only */
/* litmus: the x86 memory model, observed.
 *
 * The suite.  Its cases live in the files of their jobs
 * (suites/litmus/litmus.h says what each file holds and how a run goes);
 * each TEST() names its place with .order, as the runner cannot order
 * cases of different files by source line (kernel/test.h TEST).  In run
 * order:
 *
 *   10  sb          classic.c (and wrmsr.c's WRMSR variants)
 *   20  mp          classic.c
 *   30  mp_nt       classic.c
 *   40  iriw        classic.c
 *   50  wrmsr_cost  cost.c
 *
 * Gaps of 10, so that a case can go between two without renumbering. */
#include "kernel/test.h"

SUITE_HOSTED(litmus, 105, "x86-TSO litmus tests: SB, MP, MP with MOVNTI data, IRIW; WRMSR as SB's only barrier beside a delay of its length, and its cost after pending stores; negative controls");

/* SUITE_HOSTED() defines the suite static to this file; the job files'
 * TEST()s reach it by this name (litmus.h). */
