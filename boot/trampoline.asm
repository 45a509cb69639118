; Application-processor trampoline.  arch/x86/smpboot.c copies the bytes
; between trampoline_start and trampoline_end to a free 4 KiB page T below
; 1 MiB, patches the three address fields (GDTR base, the two far-jump
; targets) for T, fills the data block for one AP and sends INIT-SIPI-SIPI
; with vector T >> 12.  The AP starts in real mode at CS = T >> 4, IP = 0
; (SDM vol. 3 §9.4.4) and walks real -> protected -> long mode on the
; kernel's own page tables (the PML4 is below 4 GiB so a 32-bit CR3 load
; reaches it), reporting each stage in tramp_stage so the BSP can say how
; far a CPU got if it never arrives.  Then it calls the C entry with its
; per-CPU pointer on its own stack.

global trampoline_start, trampoline_end
global tramp_gdtr_base, tramp_pm_target, tramp_lm_target
global tramp_cr3, tramp_entry, tramp_stack, tramp_percpu, tramp_stage

%define OFF(x) ((x) - trampoline_start)

section .text
bits 16
trampoline_start:
	cli
	cld
	mov	ax, cs
	mov	ds, ax
	mov	dword [OFF(tramp_stage)], 1	; AP_REAL_MODE
	xor	ebx, ebx
	mov	bx, ax
	shl	ebx, 4				; ebx = T, kept until long mode
	o32 lgdt [OFF(tramp_gdtr)]
	mov	eax, cr0
	or	eax, 1				; PE
	mov	cr0, eax
	jmp	dword far [OFF(tramp_pm_far)]

bits 32
tramp_pm:
	mov	ax, 0x18
	mov	ds, ax
	mov	es, ax
	mov	ss, ax
	mov	dword [ebx + OFF(tramp_stage)], 2	; AP_PROTECTED_MODE
	mov	eax, cr4
	or	eax, 1 << 5			; PAE
	mov	cr4, eax
	mov	eax, [ebx + OFF(tramp_cr3)]
	mov	cr3, eax
	mov	ecx, 0xc0000080			; EFER
	rdmsr
	or	eax, 1 << 8			; LME
	wrmsr
	mov	eax, cr0
	or	eax, (1 << 31) | (1 << 16)	; PG | WP
	mov	cr0, eax
	jmp	far [ebx + OFF(tramp_lm_far)]

bits 64
tramp_lm:
	mov	ebx, ebx		; upper halves are undefined after the switch
	mov	dword [rbx + OFF(tramp_stage)], 3	; AP_LONG_MODE
	mov	rsp, [rbx + OFF(tramp_stack)]
	mov	rdi, [rbx + OFF(tramp_percpu)]
	mov	rax, [rbx + OFF(tramp_entry)]
	xor	ebp, ebp
	call	rax
.hang:	cli
	hlt
	jmp	.hang

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
tramp_stack:	dq 0
tramp_percpu:	dq 0
tramp_stage:	dd 0
align 8
trampoline_end:

global tramp_gdt, tramp_pm, tramp_lm
