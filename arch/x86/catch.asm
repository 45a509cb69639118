; SPDX-License-Identifier: GPL-2.0-only
; Resumable catch points, the mechanism under the expected-fault API, the
; test runner's recovery from unexpected faults and the test timeout.
;
; catch_enter(f) saves the callee-saved registers, the stack pointer, RFLAGS
; and the return address in *f and returns 0 (like setjmp).  When a fault,
; timeout or abort is to be delivered to f, the interrupt handler rewrites
; its saved frame so that IRET lands on catch_resume with RDI = f and RSP =
; f->rsp; catch_resume restores the registers and returns 1 from the
; original catch_enter call.  Going out through IRET (rather than jumping
; away from inside the handler) ends NMI blocking properly.
;
; Layout shared with struct catch_frame in arch/x86/catch.h.

global catch_enter, catch_resume

%define CF_RBX	0
%define CF_RBP	8
%define CF_R12	16
%define CF_R13	24
%define CF_R14	32
%define CF_R15	40
%define CF_RSP	48
%define CF_RIP	56
%define CF_RFLAGS 64
%define CF_ARMED	72

section .text
bits 64
catch_enter:
	mov	[rdi + CF_RBX], rbx
	mov	[rdi + CF_RBP], rbp
	mov	[rdi + CF_R12], r12
	mov	[rdi + CF_R13], r13
	mov	[rdi + CF_R14], r14
	mov	[rdi + CF_R15], r15
	lea	rax, [rsp + 8]
	mov	[rdi + CF_RSP], rax
	mov	rax, [rsp]
	mov	[rdi + CF_RIP], rax
	pushfq
	pop	rax
	mov	[rdi + CF_RFLAGS], rax
	mov	qword [rdi + CF_ARMED], 1	; last: the frame is now resumable
	xor	eax, eax
	ret

catch_resume:
	mov	rbx, [rdi + CF_RBX]
	mov	rbp, [rdi + CF_RBP]
	mov	r12, [rdi + CF_R12]
	mov	r13, [rdi + CF_R13]
	mov	r14, [rdi + CF_R14]
	mov	r15, [rdi + CF_R15]
	mov	rsp, [rdi + CF_RSP]
	mov	eax, 1
	jmp	[rdi + CF_RIP]
