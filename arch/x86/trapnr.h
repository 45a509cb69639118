/* SPDX-License-Identifier: GPL-2.0-only */
/* Exception vectors (SDM vol. 3A §6.3.1, Table 6-1) and the page-fault
 * error code bits (SDM vol. 3A §4.7), with Linux's trapnr.h/trap_pf.h names.
 * No other file spells a vector or an error-code bit as a number. */
#ifndef RINGLAB_ARCH_X86_TRAPNR_H
#define RINGLAB_ARCH_X86_TRAPNR_H

#define X86_TRAP_DE	0	/* divide error */
#define X86_TRAP_DB	1	/* debug */
#define X86_TRAP_NMI	2	/* non-maskable interrupt */
#define X86_TRAP_BP	3	/* breakpoint */
#define X86_TRAP_OF	4	/* overflow */
#define X86_TRAP_BR	5	/* bound range */
#define X86_TRAP_UD	6	/* invalid opcode */
#define X86_TRAP_NM	7	/* device not available */
#define X86_TRAP_DF	8	/* double fault */
#define X86_TRAP_OLD_MF	9	/* coprocessor segment overrun */
#define X86_TRAP_TS	10	/* invalid TSS */
#define X86_TRAP_NP	11	/* segment not present */
#define X86_TRAP_SS	12	/* stack fault */
#define X86_TRAP_GP	13	/* general protection */
#define X86_TRAP_PF	14	/* page fault */
#define X86_TRAP_SPURIOUS 15	/* reserved */
#define X86_TRAP_MF	16	/* x87 floating point */
#define X86_TRAP_AC	17	/* alignment check */
#define X86_TRAP_MC	18	/* machine check */
#define X86_TRAP_XF	19	/* SIMD floating point */
#define X86_TRAP_VE	20	/* virtualization */
#define X86_TRAP_CP	21	/* control protection */
#define X86_TRAP_HV	28	/* hypervisor injection */
#define X86_TRAP_VC	29	/* VMM communication */
#define X86_TRAP_SX	30	/* security */
#define X86_TRAP_NR	32	/* vectors 0..31 are exceptions */

#define X86_PF_PROT	(1u << 0)	/* 0: not present, 1: protection */
#define X86_PF_WRITE	(1u << 1)	/* 0: read, 1: write */
#define X86_PF_USER	(1u << 2)	/* from CPL 3 */
#define X86_PF_RSVD	(1u << 3)	/* a reserved bit was set */
#define X86_PF_INSTR	(1u << 4)	/* instruction fetch */

#endif
