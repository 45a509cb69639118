/* SPDX-License-Identifier: GPL-2.0-only */
/* Control-register bits (SDM vol. 3A §2.5; Linux processor-flags.h names),
 * shared with the assembly: the Makefile turns every plain
 * `#define NAME VALUE` line below into a NASM `%define` in
 * build/k/gen/processor-flags.inc, so C and asm read one definition.
 * Keep to #define lines whose values NASM can evaluate. */
#ifndef RINGLAB_ARCH_X86_PROCESSOR_FLAGS_H
#define RINGLAB_ARCH_X86_PROCESSOR_FLAGS_H

#ifndef X86_BIT
#define X86_BIT(n)	(1ull << (n))	/* NASM: (1 << (n)) */
#endif

#define X86_CR0_PE	X86_BIT(0)	/* protection enable */
#define X86_CR0_MP	X86_BIT(1)	/* monitor coprocessor (SIMD state: SDM vol. 3A §2.5, §13.1) */
#define X86_CR0_EM	X86_BIT(2)	/* emulation: SSE #UDs while set */
#define X86_CR0_TS	X86_BIT(3)	/* task switched: SSE #NMs while set */
#define X86_CR0_WP	X86_BIT(16)	/* write protect in ring 0 */
#define X86_CR0_PG	X86_BIT(31)	/* paging */
#define X86_CR4_PAE	X86_BIT(5)
#define X86_CR4_PGE	X86_BIT(7)
#define X86_CR4_OSFXSR	X86_BIT(9)
#define X86_CR4_OSXMMEXCPT X86_BIT(10)
#define X86_CR4_PCIDE	X86_BIT(17)
#define X86_CR4_OSXSAVE	X86_BIT(18)
#define MSR_EFER	0xc0000080	/* SDM vol. 4 Table 2-2 */
#define EFER_SCE	X86_BIT(0)
#define EFER_LME	X86_BIT(8)
#define EFER_LMA	X86_BIT(10)
#define EFER_NXE	X86_BIT(11)

#endif
