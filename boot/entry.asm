; SPDX-License-Identifier: GPL-2.0-only
; 32-bit entry from a multiboot loader, switch to long mode, call kmain.
;
; Machine state on entry (Multiboot 0.6.96 §3.2, Multiboot2 §3.3;
; docs/platform-notes.md "Multiboot entry"):
; protected mode, paging off, flat segments, EAX = magic, EBX = info address,
; ESP/GDT/IDT undefined, interrupts off.  We build a temporary identity map of
; the first 4 GiB with 2 MiB pages (enough for the kernel, the boot info, the
; UART ports and the local APIC); kernel/main.c replaces it with the full map
; of all RAM once the memory map has been read.

%define COM1 0x3f8
%define QEMU_DEBUG_EXIT_PORT	0xf4	; kernel/exit.h
%define EXIT_PANIC		3	; kernel/exit.h enum exit_status

extern kmain
extern __bss_start, __kernel_end
global _start32
global early_pml4, boot_stack_top

BOOT_STACK_SIZE equ 32768

%include "processor-flags.inc"	; CR/EFER bits: arch/x86/processor-flags.h

section .text
bits 32
_start32:
	cli
	cld
	mov	ebp, eax		; multiboot magic
	mov	esi, ebx		; multiboot info (physical)

	; Zero .bss ourselves: loaders are supposed to, but it holds the
	; page tables and the stack, so we do not rely on it.
	mov	edi, __bss_start
	mov	ecx, __kernel_end
	sub	ecx, edi
	shr	ecx, 2
	xor	eax, eax
	rep stosd

	mov	esp, boot_stack_top

	; CPUID must exist (EFLAGS.ID toggles) and report long mode.
	pushfd
	pop	eax
	mov	ecx, eax
	xor	eax, 1 << 21
	push	eax
	popfd
	pushfd
	pop	eax
	push	ecx
	popfd
	xor	eax, ecx
	jz	.no_long_mode
	mov	eax, 0x80000000
	cpuid
	cmp	eax, 0x80000001
	jb	.no_long_mode
	mov	eax, 0x80000001
	cpuid
	test	edx, 1 << 29
	jz	.no_long_mode

	; PML4[0] -> PDPT; PDPT[0..3] -> 4 PDs; PD entries: 2 MiB, P|RW|PS.
	mov	eax, early_pdpt
	or	eax, 0x3
	mov	[early_pml4], eax
	mov	edi, early_pdpt
	mov	eax, early_pd
	or	eax, 0x3
	mov	ecx, 4
.pdpt:	mov	[edi], eax
	add	edi, 8
	add	eax, 4096
	loop	.pdpt
	mov	edi, early_pd
	xor	ebx, ebx		; physical address bits 31:0
	xor	edx, edx		; entry index
.pd:	mov	eax, ebx
	or	eax, 0x83
	mov	[edi + edx * 8], eax
	mov	dword [edi + edx * 8 + 4], 0
	add	ebx, 0x200000
	inc	edx
	cmp	edx, 2048
	jb	.pd

	mov	eax, early_pml4
	mov	cr3, eax
	mov	eax, cr4
	or	eax, X86_CR4_PAE
	mov	cr4, eax
	mov	ecx, MSR_EFER
	rdmsr
	or	eax, EFER_LME
	wrmsr
	mov	eax, cr0
	or	eax, X86_CR0_PG | X86_CR0_WP | X86_CR0_PE
	mov	cr0, eax

	lgdt	[early_gdtr]
	jmp	0x08:long_entry

.no_long_mode:
	; A complete log (docs/log-format.md): the start line, the panic, the
	; exit and the integrity line, so that a tool reading the console stops
	; at once with status=panic instead of waiting out its timeout.  The
	; integrity line's CRC covers the three lines before it; make test
	; checks it (QEMU case no-long-mode) with the one log parser.
	mov	ebx, msg_no_lm
.puts:	mov	al, [ebx]
	test	al, al
	jz	.exit
	mov	ecx, 100000		; bounded wait for THRE: the UART may be absent
	mov	dx, COM1 + 5
.wait:	in	al, dx
	test	al, 0x20
	jnz	.send
	loop	.wait
.send:	mov	al, [ebx]
	mov	dx, COM1
	out	dx, al
	inc	ebx
	jmp	.puts
.exit:	; Under QEMU (TCG or KVM: CPUID.1:ECX[31] and the hypervisor leaf's
	; signature, as kernel/main.c decides), leave through isa-debug-exit
	; with the panic status; port 0xF4 is written nowhere else.
	mov	eax, 1
	cpuid
	test	ecx, 1 << 31
	jz	.halt
	mov	eax, 0x40000000
	cpuid
	cmp	ebx, 'TCGT'
	je	.qemu
	cmp	ebx, 'KVMK'
	jne	.halt
	cmp	ecx, 'VMKV'
	jne	.halt
	jmp	.debug_exit
.qemu:	cmp	ecx, 'CGTC'
	jne	.halt
.debug_exit:
	mov	eax, EXIT_PANIC
	out	QEMU_DEBUG_EXIT_PORT, eax
.halt:	cli
	hlt
	jmp	.halt

bits 64
long_entry:
	mov	ax, 0x10
	mov	ds, ax
	mov	es, ax
	mov	ss, ax
	xor	eax, eax
	mov	fs, ax
	mov	gs, ax
	mov	rsp, boot_stack_top
	mov	edi, ebp		; arg 0: magic
	mov	esi, esi		; arg 1: info address (zero-extended)
	call	kmain
.hang:	cli
	hlt
	jmp	.hang

section .rodata
msg_no_lm:
	db 13, 10, "KTAP version 1", 13, 10
	db "ringlab: PANIC: this CPU does not support 64-bit long mode", 13, 10
	db "# exit: status=panic code=3", 13, 10
	db "# integrity: lines=3 crc32=edf61588", 13, 10, 0

align 8
early_gdt:
	dq 0
	dq 0x00af9a000000ffff		; 0x08: 64-bit code, DPL 0
	dq 0x00cf92000000ffff		; 0x10: data
early_gdt_end:
early_gdtr:
	dw early_gdt_end - early_gdt - 1
	dd early_gdt

section .bss
alignb 4096
early_pml4:	resb 4096
early_pdpt:	resb 4096
early_pd:	resb 4 * 4096
alignb 16
boot_stack:	resb BOOT_STACK_SIZE
boot_stack_top:
