; SPDX-License-Identifier: GPL-2.0-only
; mbforge entry (test tooling, see mbforge.c): a multiboot1 header, a stack,
; and the jump into the forged kernel.  32-bit protected mode throughout;
; paging stays off.

MB1_MAGIC	equ 0x1BADB002
MB1_FLAGS	equ (1 << 0) | (1 << 1)	; page-align modules, memory info wanted
MB2_LOADER_MAGIC equ 0x36d76289

extern mbforge_main, __bss_start, __mbforge_end
global mbforge_start, mbforge_enter

section .multiboot
align 4
	dd MB1_MAGIC
	dd MB1_FLAGS
	dd -(MB1_MAGIC + MB1_FLAGS)

section .text
bits 32
mbforge_start:
	cli
	cld
	mov	esi, eax		; keep the magic
	; zero our .bss (the stack and the info buffer live there)
	mov	edi, __bss_start
	mov	ecx, __mbforge_end
	sub	ecx, edi
	xor	eax, eax
	rep stosb
	mov	eax, esi
	mov	esp, stack_top
	push	ebx			; arg 1: multiboot1 info address
	push	eax			; arg 0: multiboot1 magic
	call	mbforge_main		; does not return
.halt:	cli
	hlt
	jmp	.halt

; void mbforge_enter(uint32_t entry, uint32_t mb2_info): the machine state
; of the multiboot2 spec §3.3: protected mode, paging off, CS a 32-bit flat
; code segment, DS/ES/FS/GS/SS flat data, interrupts off, EAX the magic,
; EBX the info address.  Our own GDT, so nothing depends on the loader's.
mbforge_enter:
	cli
	mov	edi, [esp + 4]		; entry
	mov	ebx, [esp + 8]		; multiboot2 info
	lgdt	[gdtr]
	jmp	0x08:.reload
.reload:
	mov	ax, 0x10
	mov	ds, ax
	mov	es, ax
	mov	fs, ax
	mov	gs, ax
	mov	ss, ax
	mov	eax, MB2_LOADER_MAGIC
	jmp	edi

section .rodata
align 8
gdt:
	dq 0
	dq 0x00cf9a000000ffff		; 0x08: 32-bit code, base 0, limit 4 GiB
	dq 0x00cf92000000ffff		; 0x10: data, base 0, limit 4 GiB
gdtr:
	dw gdtr - gdt - 1
	dd gdt

section .bss
align 16
	resb 16384
stack_top:
