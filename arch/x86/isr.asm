; SPDX-License-Identifier: GPL-2.0-only
; Interrupt and exception entry stubs.  Every vector gets a stub that makes
; the frame uniform (a dummy error code where the CPU pushes none), pushes
; its vector number and the general registers, and calls isr_dispatch() with
; a pointer to that `struct regs` (arch/x86/regs.h).  The handler may change
; the saved registers, RIP, RSP and RFLAGS: that is how a caught fault
; resumes at its catch point (arch/x86/catch.asm).
;
; Vectors with a CPU-pushed error code (SDM vol. 3 §6.13): 8, 10-14, 17, 21,
; 29, 30.  In 64-bit mode the CPU aligns RSP to 16 before pushing the frame;
; the 22 quadwords below keep it 16-byte aligned at the call.

extern isr_dispatch
global isr_stub_table

section .text
bits 64

%macro STUB 1
isr_stub_%1:
%if (%1 = 8) || (%1 >= 10 && %1 <= 14) || (%1 = 17) || (%1 = 21) || (%1 = 29) || (%1 = 30)
%else
	push	0
%endif
	push	%1
	jmp	isr_common
%endmacro

%assign v 0
%rep 256
	STUB v
%assign v v + 1
%endrep

isr_common:
	push	rax
	push	rbx
	push	rcx
	push	rdx
	push	rsi
	push	rdi
	push	rbp
	push	r8
	push	r9
	push	r10
	push	r11
	push	r12
	push	r13
	push	r14
	push	r15
	cld
	mov	rdi, rsp
	call	isr_dispatch
	pop	r15
	pop	r14
	pop	r13
	pop	r12
	pop	r11
	pop	r10
	pop	r9
	pop	r8
	pop	rbp
	pop	rdi
	pop	rsi
	pop	rdx
	pop	rcx
	pop	rbx
	pop	rax
	add	rsp, 16			; vector and error code
	iretq

section .rodata
align 8
isr_stub_table:
%assign v 0
%rep 256
	dq isr_stub_ %+ v
%assign v v + 1
%endrep
