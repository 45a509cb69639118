; SPDX-License-Identifier: GPL-2.0-only
; Speculation-control instruction sequences that C cannot express: the two
; branch-history-buffer (BHB) clearing loops and an RTM abort.  See
; arch/x86/spec_seq.h for the contracts.
;
; BHB clearing (Intel, "Branch History Injection and Intra-mode Branch
; Target Injection" guidance, "BHB clearing sequence"): a fixed number of
; taken branches overwrites the branch history that indirect-branch
; prediction hashes, so history planted by a less privileged mode no longer
; steers a kernel indirect branch.  Linux runs such a loop on entry for
; CPUs without BHI_DIS_S (arch/x86/entry/entry_64.S clear_bhb_loop): an
; outer count of nested calls, each followed by an inner count of taken
; jumps; the short form is 5 x 5, the long one 12 x 7 for parts with a
; longer history (Alder Lake and later; Linux picks it when BHI_CTRL is
; enumerated, and runs it on VM exit against VMSCAPE).  The calls and
; returns keep the loop stream detector from replaying the loop without
; recording branches.  The layout here is ours: the call block and the
; jump loop each sit in their own 64-byte line, with every RET in the
; line's upper half as Linux places them (on parts affected by Indirect
; Target Selection a RET in the lower half is predicted differently); the
; returns unwind the nested calls one by one.  EDX counts the inner
; iterations so the caller can check the loop ran as designed.  The
; routine ends with LFENCE, as Linux's callers follow the call with one.
;
; RTM abort: XBEGIN followed at once by XABORT (SDM vol. 1 ch. 16
; "Programming with Intel Transactional Synchronization Extensions").

section .text align=64
bits 64

; %1 = symbol, %2 = outer count, %3 = inner count
%macro BHB_CLEAR 3
global %1
%1:
	push	rbp
	mov	rbp, rsp
	xor	edx, edx
	mov	ecx, %2
	call	%%outer		; comes back here once every level unwound
	jmp	%%done
	align	64, int3
	times	32 - 5 db 0xcc	; the RET below starts the line's upper half
%%outer:
	call	%%inner		; 5 bytes
	ret			; unwind one outer level
	align	64, int3
	times	32 db 0xcc	; this block's RET in the upper half too
%%inner:
	mov	eax, %3
%%jump:
	jmp	%%target
	int3
%%target:
	inc	edx
	dec	eax
	jnz	%%jump
	dec	ecx
	jnz	%%outer		; one more nested call
	ret
%%done:
	lfence			; no speculation past the loop (as Linux does)
	mov	eax, edx
	pop	rbp
	ret
%endmacro

	align	64, int3
BHB_CLEAR bhb_clear_short, 5, 5
	align	64, int3
BHB_CLEAR bhb_clear_long, 12, 7

; uint32_t rtm_abort_seq(void): XBEGIN; XABORT 0xff.  Returns the abort
; status from EAX: 0xff000001 (XABORT bit, code 0xff) when the transaction
; began and was aborted as written; 0 or other bits when it never began.
	align	64, int3
global rtm_abort_seq
rtm_abort_seq:
	xor	eax, eax
	xbegin	.aborted
	xabort	0xff
	xend			; not reached: XABORT always aborts
	mov	eax, 0xfffffffe
.aborted:
	ret

; uint32_t rtm_commit_probe(void): an empty transaction.  Returns
; RTM_COMMITTED (0xffffffff) if it committed, else the abort status.
global rtm_commit_probe
rtm_commit_probe:
	xor	eax, eax
	xbegin	.aborted
	xend
	mov	eax, 0xffffffff
.aborted:
	ret

; void rtm_xabort_probe(void): XABORT outside a transaction, a no-op
; where RTM exists (SDM vol. 2 XABORT), #UD where it does not; for the
; boot probe of claimed features (kernel/cpu_probe.c).
global rtm_xabort_probe
rtm_xabort_probe:
	xabort	0xff
	ret
