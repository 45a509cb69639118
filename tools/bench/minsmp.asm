; SPDX-License-Identifier: GPL-2.0-only
; minsmp: the smallest SMP boot tools/bench-boot.sh compares ringlab's
; boot with (the "quick tests=smp / minimal" ratio).  A multiboot1 kernel
; (flat binary, a.out-kludge address fields: QEMU -kernel refuses ELF64 and
; needs no ELF32 here) that does only what any SMP kernel must:
;   1. find the MADT through the ACPI RSDP (EBDA, then 0xE0000-0xFFFFF,
;      ACPI spec 5.2.5.1) and RSDT, the same tables QEMU's firmware gives
;      ringlab, and list the enabled local APIC entries (type 0);
;   2. start every other enabled CPU with INIT-SIPI-SIPI (SDM vol. 3A
;      9.4.4.1), xAPIC MMIO, one destination at a time, with the delays
;      ringlab (arch/x86/smpboot.c) and Linux use for family 6 and later:
;      10 us after INIT instead of 10 ms; 200 us between the two SIPIs;
;   3. each AP walks real -> protected mode and increments a counter;
;   4. the boot CPU waits (bounded, about 1.1 s by the PIT) for the counter
;      to reach the number started, prints one line and exits through
;      isa-debug-exit (port 0xf4): QEMU exit status 1 when every AP
;      arrived, 3 when not; 5 when there is no MADT.
; 32-bit protected mode throughout on the boot CPU, paging off, interrupts
; off (multiboot1 machine state).  Every wait is bounded.
;
; Serial line (ttyS0): "minsmp: aps=<arrived> expected=<started> bsp=<id>"
; Assemble: nasm -f bin tools/bench/minsmp.asm -o minsmp.bin

bits 32
org 0x100000

MB1_MAGIC	equ 0x1BADB002
MB1_FLAGS	equ (1 << 16)			; address fields (a.out kludge)
COM1		equ 0x3f8
DEBUG_EXIT	equ 0xf4
TRAMP_BASE	equ 0x8000			; SIPI vector 0x08: below 1 MiB, 4 KiB aligned
APIC_ID		equ 0x20
APIC_SVR	equ 0xf0
APIC_ICR_LO	equ 0x300
APIC_ICR_HI	equ 0x310
ICR_INIT_ASSERT	equ 0x4500			; INIT, level, assert
ICR_INIT_DEASSERT equ 0x8500			; INIT, level-triggered, de-assert
ICR_STARTUP	equ 0x0600
ICR_BUSY	equ (1 << 12)			; delivery status
PIT_HZ		equ 1193182

%define TADDR(x) ((x) - tramp_start + TRAMP_BASE)

mb1_header:
	dd MB1_MAGIC
	dd MB1_FLAGS
	dd -(MB1_MAGIC + MB1_FLAGS)
	dd mb1_header			; header_addr
	dd mb1_header			; load_addr
	dd image_end			; load_end_addr
	dd bss_end			; bss_end_addr
	dd start			; entry_addr

start:
	cli
	mov	esp, stack_top
	lgdt	[gdtr]
	jmp	0x08:.cs
.cs:	mov	ax, 0x10
	mov	ds, ax
	mov	es, ax
	mov	ss, ax

	call	find_madt
	test	esi, esi
	jz	no_madt
	mov	eax, [esi + 36]			; local APIC address
	mov	[lapic], eax
	or	dword [eax + APIC_SVR], 0x1ff	; software-enable, spurious vector 0xff
	mov	ebx, [eax + APIC_ID]
	shr	ebx, 24
	mov	[bsp_id], ebx

	; the trampoline below 1 MiB
	mov	esi, tramp_start
	mov	edi, TRAMP_BASE
	mov	ecx, tramp_end - tramp_start
	rep movsb

	; INIT to every enabled AP, 10 us, de-assert, 10 us
	mov	dword [icr_cmd], ICR_INIT_ASSERT
	call	for_each_ap
	mov	ecx, 12				; 10 us
	call	pit_delay
	mov	dword [icr_cmd], ICR_INIT_DEASSERT
	call	for_each_ap
	mov	ecx, 12
	call	pit_delay
	; SIPI, 200 us, SIPI (a SIPI to a CPU that is running is ignored)
%ifndef MINSMP_NO_SIPI	; the bench's negative control leaves the APs in wait-for-SIPI
	mov	dword [icr_cmd], ICR_STARTUP | (TRAMP_BASE >> 12)
	call	for_each_ap
	mov	ecx, 239			; 200 us
	call	pit_delay
	call	for_each_ap
%endif

	; wait for the counter: up to 20 PIT periods of 0xffff ticks (~1.1 s)
	mov	edi, 20
.period:
	call	pit_start_ffff
.poll:
	mov	eax, [ap_count]
	cmp	eax, [started]
	jae	.done
	in	al, 0x61
	test	al, 0x20			; OUT2: the period is over
	jz	.poll
	dec	edi
	jnz	.period
.done:
	mov	esi, msg_aps
	call	puts
	mov	eax, [ap_count]
	call	putdec
	mov	esi, msg_exp
	call	puts
	mov	eax, [started]
	call	putdec
	mov	esi, msg_bsp
	call	puts
	mov	eax, [bsp_id]
	call	putdec
	mov	al, 10
	call	putc
	mov	eax, [ap_count]
	cmp	eax, [started]
	setne	al
	movzx	eax, al				; 0 -> QEMU status 1, 1 -> 3
	jmp	exit

no_madt:
	mov	esi, msg_nomadt
	call	puts
	mov	eax, 2				; QEMU status 5
exit:
	out	DEBUG_EXIT, al
.halt:	hlt					; not under QEMU: stop here
	jmp	.halt

; Send [icr_cmd] to every enabled MADT local APIC except the boot CPU;
; counts them in [started] (only the first call's count is kept).
for_each_ap:
	pushad
	mov	esi, [madt]
	mov	edx, esi
	add	edx, [esi + 4]			; end of the table
	add	esi, 44				; first entry
	xor	ebp, ebp			; APs this call
.entry:
	lea	eax, [esi + 2]
	cmp	eax, edx
	ja	.out
	movzx	ecx, byte [esi + 1]		; entry length
	cmp	ecx, 2
	jb	.out				; malformed: stop
	cmp	byte [esi], 0			; processor local APIC
	jne	.next
	test	byte [esi + 4], 1		; enabled
	jz	.next
	movzx	eax, byte [esi + 3]		; APIC ID
	cmp	eax, [bsp_id]
	je	.next
	inc	ebp
	mov	ebx, [lapic]
	shl	eax, 24
	mov	[ebx + APIC_ICR_HI], eax
	mov	eax, [icr_cmd]
	mov	[ebx + APIC_ICR_LO], eax
	mov	eax, 1000000			; bounded wait for delivery
.busy:	test	dword [ebx + APIC_ICR_LO], ICR_BUSY
	jz	.next
	pause
	dec	eax
	jnz	.busy
.next:
	add	esi, ecx
	jmp	.entry
.out:
	cmp	dword [started], 0
	jne	.keep
	mov	[started], ebp
.keep:
	popad
	ret

; esi = MADT or 0.  RSDP in the first KiB of the EBDA, then the BIOS area.
find_madt:
	movzx	esi, word [0x40e]
	shl	esi, 4
	mov	ecx, 1024
	call	scan_rsdp
	test	esi, esi
	jnz	.rsdt
	mov	esi, 0xe0000
	mov	ecx, 0x20000
	call	scan_rsdp
	test	esi, esi
	jz	.none
.rsdt:
	mov	ebx, [esi + 16]			; RSDT (every revision has one)
	mov	ecx, [ebx + 4]
	sub	ecx, 36
	shr	ecx, 2				; entries
	lea	edi, [ebx + 36]
.tab:
	test	ecx, ecx
	jz	.none
	mov	esi, [edi]
	cmp	dword [esi], 'APIC'
	je	.found
	add	edi, 4
	dec	ecx
	jmp	.tab
.found:
	mov	[madt], esi
	ret
.none:
	xor	esi, esi
	ret

; esi = start, ecx = length: esi = RSDP with a valid checksum, or 0.
scan_rsdp:
	test	esi, esi
	jz	.none
.try:
	cmp	dword [esi], 'RSD '
	jne	.next
	cmp	dword [esi + 4], 'PTR '
	jne	.next
	xor	eax, eax
	xor	edx, edx
.sum:	add	al, [esi + edx]
	inc	edx
	cmp	edx, 20
	jb	.sum
	test	al, al
	jz	.hit
.next:
	add	esi, 16
	sub	ecx, 16
	ja	.try
.none:
	xor	esi, esi
.hit:
	ret

; PIT channel 2, mode 0, gate on, speaker off; the count in ecx (ticks).
pit_load:
	in	al, 0x61
	and	al, 0xfc
	or	al, 1
	out	0x61, al
	mov	al, 0xb0			; channel 2, lobyte/hibyte, mode 0
	out	0x43, al
	mov	al, cl
	out	0x42, al
	mov	al, ch
	out	0x42, al
	ret

pit_start_ffff:
	mov	ecx, 0xffff
	jmp	pit_load

; Wait ecx PIT ticks (bounded by an iteration count too).
pit_delay:
	call	pit_load
	mov	ecx, 100000000
.w:	in	al, 0x61
	test	al, 0x20
	jnz	.out
	dec	ecx
	jnz	.w
.out:	ret

putc:
	push	edx
	push	ecx
	push	eax
	mov	dx, COM1 + 5
	mov	ecx, 100000
.w:	in	al, dx
	test	al, 0x20
	jnz	.tx
	dec	ecx
	jnz	.w
.tx:	pop	eax
	mov	dx, COM1
	out	dx, al
	pop	ecx
	pop	edx
	ret

puts:
	lodsb
	test	al, al
	jz	.out
	call	putc
	jmp	puts
.out:	ret

putdec:
	mov	ecx, 10
	xor	ebx, ebx
.div:	xor	edx, edx
	div	ecx
	push	edx
	inc	ebx
	test	eax, eax
	jnz	.div
.pr:	pop	eax
	add	al, '0'
	call	putc
	dec	ebx
	jnz	.pr
	ret

; The AP's 32-bit side: count itself, halt.
ap_pm:
	mov	ax, 0x10
	mov	ds, ax
	lock inc dword [ap_count]
.halt:	cli
	hlt
	jmp	.halt

; Copied to TRAMP_BASE; the AP starts at CS = TRAMP_BASE >> 4, IP = 0.
bits 16
tramp_start:
	cli
	xor	ax, ax
	mov	ds, ax
	o32 lgdt [TADDR(tramp_gdtr)]
	mov	eax, cr0
	or	al, 1				; PE
	mov	cr0, eax
	jmp	dword 0x08:ap_pm
align 4
tramp_gdtr:
	dw	gdt_end - gdt - 1
	dd	gdt
tramp_end:

bits 32
align 8
gdt:
	dq	0
	dq	0x00cf9a000000ffff		; 0x08: 32-bit code
	dq	0x00cf92000000ffff		; 0x10: data
gdt_end:
gdtr:
	dw	gdt_end - gdt - 1
	dd	gdt

msg_aps:	db "minsmp: aps=", 0
msg_exp:	db " expected=", 0
msg_bsp:	db " bsp=", 0
msg_nomadt:	db "minsmp: no MADT (no RSDP, or no APIC table in the RSDT)", 10, 0

align 4
lapic:		dd 0
madt:		dd 0
bsp_id:		dd 0
icr_cmd:	dd 0
started:	dd 0
ap_count:	dd 0
image_end:

absolute image_end
alignb 16
		resb 4096
stack_top:
bss_end:
