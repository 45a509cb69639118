/* SPDX-License-Identifier: GPL-2.0-only */
/* Speculation-control sequences written in assembly (spec_seq.asm).
 *
 * bhb_clear_short / bhb_clear_long: the 5x5 and 12x7 BHB-clearing loops of
 * calls and taken jumps.  Each returns how many inner iterations ran (25
 * and 84), which the caller checks.  They touch only RAX, RCX, RDX and the
 * stack (all caller-saved), and end with LFENCE.
 *
 * rtm_abort_seq: XBEGIN; XABORT 0xff.  Needs RTM (CPUID.7.0:EBX[11]);
 * without it XBEGIN is #UD.  Returns EAX after the abort.
 * rtm_commit_probe: XBEGIN; XEND.  RTM_COMMITTED if the empty transaction
 * committed, else the abort status (0 when RTM is enumerated but disabled,
 * e.g. IA32_TSX_CTRL.RTM_DISABLE). */
#ifndef RINGLAB_ARCH_X86_SPEC_SEQ_H
#define RINGLAB_ARCH_X86_SPEC_SEQ_H

#include <stdint.h>

#define BHB_SHORT_ITERS	(5 * 5)
#define BHB_LONG_ITERS	(12 * 7)

uint32_t bhb_clear_short(void);
uint32_t bhb_clear_long(void);

/* RTM abort status (EAX after an abort), SDM vol. 1 §16.3.5 */
#define XABORT_EXPLICIT		(1u << 0)
#define XABORT_RETRY		(1u << 1)
#define XABORT_CODE(s)		((s) >> 24)
#define RTM_COMMITTED		0xffffffffu

uint32_t rtm_abort_seq(void);
uint32_t rtm_commit_probe(void);
void rtm_xabort_probe(void);

#endif
