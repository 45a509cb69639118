; SPDX-License-Identifier: GPL-2.0-only
; Application-processor trampoline.  arch/x86/smpboot.c copies the bytes
; between trampoline_start and trampoline_end to a free 4 KiB page T below
; 1 MiB, patches the address fields (GDTR base, the two far-jump targets)
; for T, fills the data block and sends INIT-SIPI-SIPI with vector T >> 12.
; The AP starts in real mode at CS = T >> 4, IP = 0 (SDM vol. 3 §9.4.4) and
; walks real -> protected -> long mode on the kernel's own page tables (the
; PML4 is below 4 GiB so a 32-bit CR3 load reaches it), counting each stage
; in a shared counter.
;
; Every AP runs this same page, possibly many at once (parallel start), and
; possibly one the boot CPU did not mean to start (an xAPIC-mode APIC
; matches only the low 8 bits of a 32-bit destination, so a start for APIC
; ID k also reaches k+256).  So an AP never trusts the data block to say who
; it is, and touches no stack until it knows:
;   1. In long mode, before any memory write except the stage counters, it
;      enables x2APIC on its own APIC if the boot CPU runs in x2APIC mode
;      (IA32_APIC_BASE: EN then EXTD, SDM vol. 3 §11.12.5), so from now on
;      it matches only its full 32-bit ID and stops aliasing.
;   2. It reads its own initial APIC ID from CPUID: leaf 1Fh or 0Bh EDX
;      (SDM vol. 2A CPUID, "V2 Extended Topology" / "Extended Topology
;      Enumeration"; subleaf 0 valid when ECX[15:8] != 0), else the 8-bit
;      initial APIC ID in CPUID.01h:EBX[31:24].
;   3. It looks that ID up in the boot CPU's slot table and claims the slot
;      with LOCK CMPXCHG (ARMED -> CLAIMED).  Only the claimant loads the
;      slot's stack and per-CPU pointer and calls the C entry.
;   4. Any other CPU (no slot, slot not armed, already claimed, given up)
;      records itself in the stray table (LOCK XADD for an entry index),
;      switches to the entry's own tiny stack, loads a park IDT whose every
;      gate leads back to the halt loop, and halts with interrupts off.  It
;      touches nothing else; an INIT puts it back into wait-for-SIPI.

global trampoline_start, trampoline_end
global tramp_gdtr_base, tramp_pm_target, tramp_lm_target
global tramp_cr3, tramp_entry, tramp_slots, tramp_nslots, tramp_flags, tramp_target
global tramp_strays, tramp_park_idtr, tramp_sim_from, tramp_sim_to
global tramp_n_real, tramp_n_pm, tramp_n_lm, tramp_n_sorted, tramp_park

%include "processor-flags.inc"	; CR/EFER bits: arch/x86/processor-flags.h

%define OFF(x) ((x) - trampoline_start)

; Keep in sync with struct ap_slot / struct ap_stray in arch/x86/smpboot.c.
%define SLOT_SIZE	32
%define SLOT_ID		0
%define SLOT_STATE	4
%define SLOT_STACK	8
%define SLOT_PERCPU	16
%define SLOT_ARMED	1
%define SLOT_CLAIMED	2
%define STRAY_NO_SLOT	5
%define STRAYS_MAX	64
%define STRAY_SIZE	256
%define STRAY_HDR	16		; struct stray_table: count, pad
%define STRAY_ID	0
%define STRAY_REASON	4
%define STRAY_TARGET	8
%define STRAY_CLAIMED	12
%define STRAY_VALID	16
%define TF_X2APIC	1		; tramp_flags: enable x2APIC first
%define TF_SIM_ALIAS	2		; simulate=ap-alias: sim_from says sim_to

section .text
bits 16
trampoline_start:
	cli
	cld
	mov	ax, cs
	mov	ds, ax
	mov	edi, [OFF(tramp_target)]	; which start woke us, kept in edi/r13d
	lock inc dword [OFF(tramp_n_real)]
	xor	ebx, ebx
	mov	bx, ax
	shl	ebx, 4				; ebx = T, kept until long mode
	o32 lgdt [OFF(tramp_gdtr)]
	mov	eax, cr0
	or	eax, X86_CR0_PE
	mov	cr0, eax
	jmp	dword far [OFF(tramp_pm_far)]

bits 32
tramp_pm:
	mov	ax, 0x18
	mov	ds, ax
	mov	es, ax
	mov	ss, ax
	lock inc dword [ebx + OFF(tramp_n_pm)]
	mov	eax, cr4
	or	eax, X86_CR4_PAE
	mov	cr4, eax
	mov	eax, [ebx + OFF(tramp_cr3)]
	mov	cr3, eax
	mov	ecx, MSR_EFER
	rdmsr
	or	eax, EFER_LME
	wrmsr
	mov	eax, cr0
	or	eax, X86_CR0_PG | X86_CR0_WP
	mov	cr0, eax
	jmp	far [ebx + OFF(tramp_lm_far)]

bits 64
tramp_lm:
	mov	r15d, ebx		; T (upper halves are undefined after the switch)
	mov	r13d, edi		; tramp_target as read in real mode
	lock inc dword [r15 + OFF(tramp_n_lm)]

	; 1. x2APIC first, if the boot CPU uses it and this CPU has it.
	test	dword [r15 + OFF(tramp_flags)], TF_X2APIC
	jz	.identify
	mov	eax, 1
	cpuid
	bt	ecx, 21				; CPUID.01h:ECX.x2APIC
	jnc	.identify
	; MSR_IA32_APICBASE{,_ENABLE,_EXTD} of arch/x86/msr.h, written out:
	; the Makefile generates NASM defines from processor-flags.h only
	mov	ecx, 0x1b			; MSR_IA32_APICBASE
	rdmsr
	or	eax, 1 << 11			; MSR_IA32_APICBASE_ENABLE
	wrmsr
	or	eax, 1 << 10			; MSR_IA32_APICBASE_EXTD
	wrmsr

	; 2. Who am I?  r9d = initial APIC ID.
.identify:
	xor	eax, eax
	cpuid
	mov	r8d, eax			; highest basic leaf
	mov	r10d, 0x1f
	cmp	r8d, r10d
	jae	.leaf
.try_0b:
	mov	r10d, 0x0b
	cmp	r8d, r10d
	jb	.leaf01
.leaf:
	mov	eax, r10d
	xor	ecx, ecx
	cpuid
	test	ecx, 0xff00			; level type 0: leaf not valid
	jnz	.have_x2
	cmp	r10d, 0x1f
	je	.try_0b
	jmp	.leaf01
.have_x2:
	mov	r9d, edx
	jmp	.sim
.leaf01:
	mov	eax, 1
	cpuid
	shr	ebx, 24
	mov	r9d, ebx
.sim:
	mov	r12d, r9d			; the CPUID answer, for the stray record
	xor	r14d, r14d			; 1: simulated second claimant
	test	dword [r15 + OFF(tramp_flags)], TF_SIM_ALIAS
	jz	.lookup
	cmp	r9d, [r15 + OFF(tramp_sim_from)]
	jne	.lookup
	mov	r9d, [r15 + OFF(tramp_sim_to)]
	mov	r14d, 1

	; 3. Find the slot with that APIC ID and claim it.
.lookup:
	mov	rsi, [r15 + OFF(tramp_slots)]
	mov	ecx, [r15 + OFF(tramp_nslots)]
.next:
	test	ecx, ecx
	jz	.no_slot
	cmp	[rsi + SLOT_ID], r9d
	je	.found
	add	rsi, SLOT_SIZE
	dec	ecx
	jmp	.next
.found:
	; The simulated impostor lets the real owner claim first (bounded), so
	; the test always exercises the losing side of the CMPXCHG.
	test	r14d, r14d
	jz	.claim
	mov	ecx, 0x4000000
.let_owner:
	cmp	dword [rsi + SLOT_STATE], SLOT_ARMED
	jne	.claim
	pause
	dec	ecx
	jnz	.let_owner
.claim:
	mov	eax, SLOT_ARMED
	mov	edx, SLOT_CLAIMED
	lock cmpxchg [rsi + SLOT_STATE], edx
	jne	.stray				; eax = the state it was in
	mov	rsp, [rsi + SLOT_STACK]
	mov	rdi, [rsi + SLOT_PERCPU]
	lock inc dword [r15 + OFF(tramp_n_sorted)]
	mov	rax, [r15 + OFF(tramp_entry)]
	xor	ebp, ebp
	call	rax
	jmp	tramp_park

	; 4. Not mine: record, then park on the entry's own stack.
.no_slot:
	mov	eax, STRAY_NO_SLOT
.stray:
	mov	r10d, eax			; reason
	mov	rsi, [r15 + OFF(tramp_strays)]
	mov	eax, 1
	lock xadd [rsi], eax			; entry index
	cmp	eax, STRAYS_MAX
	jb	.entry
	mov	eax, STRAYS_MAX			; overflow: one shared entry, never read back
.entry:
	imul	eax, eax, STRAY_SIZE
	lea	rdi, [rsi + STRAY_HDR + rax]
	mov	[rdi + STRAY_ID], r12d
	mov	[rdi + STRAY_REASON], r10d
	mov	[rdi + STRAY_TARGET], r13d
	mov	[rdi + STRAY_CLAIMED], r9d
	mov	dword [rdi + STRAY_VALID], 1	; last: x86 stores are not reordered
	lock inc dword [r15 + OFF(tramp_n_sorted)]
	lea	rsp, [rdi + STRAY_SIZE]
	lidt	[r15 + OFF(tramp_park_idtr)]
tramp_park:
	cli
	hlt
	jmp	tramp_park

align 8
tramp_gdt:
	dq 0
	dq 0x00af9a000000ffff		; 0x08: 64-bit code
	dq 0x00cf9a000000ffff		; 0x10: 32-bit code
	dq 0x00cf92000000ffff		; 0x18: data
tramp_gdt_end:
tramp_gdtr:
	dw tramp_gdt_end - tramp_gdt - 1
tramp_gdtr_base:
	dd 0				; T + OFF(tramp_gdt), patched
align 4
tramp_pm_far:
tramp_pm_target:
	dd 0				; T + OFF(tramp_pm), patched
	dw 0x10
align 4
tramp_lm_far:
tramp_lm_target:
	dd 0				; T + OFF(tramp_lm), patched
	dw 0x08

align 8
tramp_cr3:	dq 0
tramp_entry:	dq 0
tramp_slots:	dq 0			; struct ap_slot[tramp_nslots]
tramp_strays:	dq 0			; struct stray_table
tramp_nslots:	dd 0
tramp_flags:	dd 0			; TF_*
tramp_target:	dd 0			; serial mode: the APIC ID being started
tramp_sim_from:	dd 0
tramp_sim_to:	dd 0
tramp_n_real:	dd 0			; CPUs that reached each stage
tramp_n_pm:	dd 0
tramp_n_lm:	dd 0
tramp_n_sorted:	dd 0			; claimed a slot or parked
align 8
		dw 0, 0, 0
tramp_park_idtr:			; 10 bytes: limit, base (base 8-aligned)
		dw 0
		dq 0
align 8
trampoline_end:

global tramp_gdt, tramp_pm, tramp_lm
