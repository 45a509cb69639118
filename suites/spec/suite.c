/* SPDX-License-Identifier: GPL-2.0-only */
/* spec: what the speculation-control operations cost in ring 0.
 *
 * The suite.  Its cases live in the files of their jobs (suites/spec/spec.h
 * says what each file holds and what the suite measures); each TEST()
 * names its place with .order, as the runner cannot order cases of
 * different files by source line (kernel/test.h TEST).  In run order:
 *
 *   10  spec_ctrl              ops.c
 *   20  bhb_clear              ops.c
 *   30  tsx_abort              ops.c
 *   40  verw                   ops.c
 *   50  ibpb                   ops.c
 *   60  l1d_flush              ops.c
 *   70  immed_arm              immed.c
 *   80  restore_after_fault    restore.c
 *   90  restore_after_timeout  restore.c
 *
 * Gaps of 10, so that a case can go between two without renumbering. */
#include "kernel/test.h"

SUITE(spec, 86, "speculation-control costs: SPEC_CTRL writes, BHB clearing, TSX abort, VERW, IBPB, L1D flush, TSC-deadline immediate arm after each");
