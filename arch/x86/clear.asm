; SPDX-License-Identifier: GPL-2.0-only
; Memory-clearing primitives for the clear suite, one per method, and the
; read-back loop.  Written in assembly so that the exact instructions are
; measured (no compiler turns a loop into REP STOSB or vectorizes it), and
; so that the SIMD ones live outside the kernel's -mgeneral-regs-only C.
; Linked into the kernel and into ringlab-hosted alike.
;
; All take (rdi = destination, rsi = byte count) per the SysV ABI.
; The destination is 64-byte aligned and the count a multiple of 64 (the
; suite only clears whole pages), except mem_clear_rep_stosb which takes
; any count.
;
; The non-temporal methods (MOVNTI, MOVNTDQ, VMOVNTDQ, CLZERO) are weakly
; ordered: each function ends with SFENCE so that, as in a kernel's
; clear_page, the zeroes are globally visible before the caller publishes
; the page (SDM vol. 1 §10.4.6.2 "Caching of Temporal vs. Non-Temporal
; Data", vol. 3 §9.2.2 and §11.3.1; APM vol. 3 CLZERO: "weakly ordered").
;
; The SIMD methods need the state enabled first: CR0.EM=0, CR4.OSFXSR for
; SSE; CR4.OSXSAVE and XCR0 bits 1-2 for AVX; XCR0 bits 5-7 for AVX-512
; (SDM vol. 3 §13.1, §13.3).  In ring 0 plat_simd_call() does that.
;
; Each NT method also has a *_nofence entry point: the same stores with no
; SFENCE at the end, for a caller that clears many pages and fences once
; per batch (the kernel series that clears a 2 MiB huge page with MOVNTI
; one 4 KiB page at a time and fences once at the end).  Such a caller
; must call mem_sfence (or execute SFENCE) before it publishes the pages.
; CLZERO needs CPUID 8000_0008h:EBX[0] (APM vol. 3); the caller checks.

global mem_clear_rep_stosb, mem_clear_rep_stosq, mem_clear_mov
global mem_clear_movnti, mem_clear_movntdq, mem_clear_vmovntdq_ymm
global mem_clear_vmovntdq_zmm, mem_clear_clzero, mem_or_reduce
global mem_clear_movnti_nofence, mem_clear_movntdq_nofence
global mem_clear_vmovntdq_ymm_nofence, mem_clear_vmovntdq_zmm_nofence
global mem_clear_clzero_nofence, mem_sfence

section .text
bits 64

; REP STOSB: the kernel's clear_page_erms.
mem_clear_rep_stosb:
	mov	rcx, rsi
	xor	eax, eax
	rep stosb
	ret

; REP STOSQ: the kernel's clear_page_rep.
mem_clear_rep_stosq:
	mov	rcx, rsi
	shr	rcx, 3
	xor	eax, eax
	rep stosq
	ret

; Eight 8-byte MOVs per 64-byte line: the kernel's clear_page_orig.
mem_clear_mov:
	xor	eax, eax
	lea	rcx, [rdi + rsi]
	cmp	rdi, rcx
	jae	.done
.loop:
	mov	[rdi], rax
	mov	[rdi + 8], rax
	mov	[rdi + 16], rax
	mov	[rdi + 24], rax
	mov	[rdi + 32], rax
	mov	[rdi + 40], rax
	mov	[rdi + 48], rax
	mov	[rdi + 56], rax
	add	rdi, 64
	cmp	rdi, rcx
	jb	.loop
.done:
	ret

; The NT methods: each store loop is written once, as a macro, and
; assembled twice: ending with SFENCE, and as the *_nofence entry point
; (see the top).  Their .loop/.done labels are local to the function each
; copy is assembled in, so the symbols (and the encoding check) stay per function.

; MOVNTI: 8-byte non-temporal stores from a GPR (SSE2).
%macro movnti_loop 0
	xor	eax, eax
	lea	rcx, [rdi + rsi]
	cmp	rdi, rcx
	jae	.done
.loop:
	movnti	[rdi], rax
	movnti	[rdi + 8], rax
	movnti	[rdi + 16], rax
	movnti	[rdi + 24], rax
	movnti	[rdi + 32], rax
	movnti	[rdi + 40], rax
	movnti	[rdi + 48], rax
	movnti	[rdi + 56], rax
	add	rdi, 64
	cmp	rdi, rcx
	jb	.loop
.done:
%endmacro

; MOVNTDQ: 16-byte non-temporal stores from XMM0 (SSE2).
%macro movntdq_loop 0
	pxor	xmm0, xmm0
	lea	rcx, [rdi + rsi]
	cmp	rdi, rcx
	jae	.done
.loop:
	movntdq	[rdi], xmm0
	movntdq	[rdi + 16], xmm0
	movntdq	[rdi + 32], xmm0
	movntdq	[rdi + 48], xmm0
	add	rdi, 64
	cmp	rdi, rcx
	jb	.loop
.done:
%endmacro

; VMOVNTDQ: 32-byte non-temporal stores from YMM0 (AVX).
%macro ymm_loop 0
	vpxor	xmm0, xmm0, xmm0	; VEX zeroes the upper half too
	lea	rcx, [rdi + rsi]
	cmp	rdi, rcx
	jae	.done
.loop:
	vmovntdq [rdi], ymm0
	vmovntdq [rdi + 32], ymm0
	add	rdi, 64
	cmp	rdi, rcx
	jb	.loop
.done:
%endmacro

; VMOVNTDQ: 64-byte non-temporal stores from ZMM0 (AVX-512F).
%macro zmm_loop 0
	vpxord	zmm0, zmm0, zmm0
	lea	rcx, [rdi + rsi]
	cmp	rdi, rcx
	jae	.done
.loop:
	vmovntdq [rdi], zmm0
	add	rdi, 64
	cmp	rdi, rcx
	jb	.loop
.done:
%endmacro

; CLZERO: zero the cache line addressed by RAX (AMD).
%macro clzero_loop 0
	mov	rax, rdi
	lea	rcx, [rdi + rsi]
	cmp	rax, rcx
	jae	.done
.loop:
	clzero
	add	rax, 64
	cmp	rax, rcx
	jb	.loop
.done:
%endmacro

mem_clear_movnti:
	movnti_loop
	sfence
	ret

mem_clear_movnti_nofence:
	movnti_loop
	ret

mem_clear_movntdq:
	movntdq_loop
	sfence
	ret

mem_clear_movntdq_nofence:
	movntdq_loop
	ret

mem_clear_vmovntdq_ymm:
	ymm_loop
	sfence
	vzeroupper
	ret

mem_clear_vmovntdq_ymm_nofence:
	ymm_loop
	vzeroupper
	ret

mem_clear_vmovntdq_zmm:
	zmm_loop
	sfence
	vzeroupper
	ret

mem_clear_vmovntdq_zmm_nofence:
	zmm_loop
	vzeroupper
	ret

mem_clear_clzero:
	clzero_loop
	sfence
	ret

mem_clear_clzero_nofence:
	clzero_loop
	ret

; void mem_sfence(void): one SFENCE, the end of a batch of *_nofence clears.
mem_sfence:
	sfence
	ret

; uint64_t mem_or_reduce(const void *p, size_t n): OR of every 8-byte word
; (n a multiple of 64).  The read-back pass: it proves the range is zero
; and its duration is the cost of touching the cleared memory again, with
; ordinary loads in both builds.
mem_or_reduce:
	xor	eax, eax
	xor	edx, edx
	xor	r8d, r8d
	xor	r9d, r9d
	lea	rcx, [rdi + rsi]
	cmp	rdi, rcx
	jae	.done
.loop:
	or	rax, [rdi]
	or	rdx, [rdi + 8]
	or	r8, [rdi + 16]
	or	r9, [rdi + 24]
	or	rax, [rdi + 32]
	or	rdx, [rdi + 40]
	or	r8, [rdi + 48]
	or	r9, [rdi + 56]
	add	rdi, 64
	cmp	rdi, rcx
	jb	.loop
.done:
	or	rax, rdx
	or	r8, r9
	or	rax, r8
	ret

section .note.GNU-stack noalloc noexec nowrite progbits
