; SPDX-License-Identifier: GPL-2.0-only
; Multiboot headers.  One ELF64 boots three ways (docs/platform-notes.md "Multiboot
; entry", "QEMU -kernel loader"):
;  - QEMU -kernel and other multiboot1 loaders (iPXE): QEMU refuses an ELF64
;    unless the multiboot1 header carries the a.out-kludge address fields
;    (flags bit 16), so we give them; the linker script keeps the image one
;    PT_LOAD segment so file offsets match these addresses.
;  - GRUB `multiboot2` (ISO, BIOS and UEFI): the multiboot2 header below.
; Both must sit early in the file: mb1 in the first 8 KiB (4-byte aligned),
; mb2 in the first 32 KiB (8-byte aligned).  The .multiboot section is placed
; first in the image by kernel.ld.

MB1_MAGIC	equ 0x1BADB002
MB1_FLAGS	equ (1 << 0) | (1 << 1) | (1 << 16)	; align mods, mem info, address fields
MB2_MAGIC	equ 0xE85250D6
MB2_ARCH_I386	equ 0

extern __kernel_start, __load_end, __kernel_end
extern _start32

section .multiboot
align 8
mb1_header:
	dd MB1_MAGIC
	dd MB1_FLAGS
	dd -(MB1_MAGIC + MB1_FLAGS)
	dd mb1_header		; header_addr
	dd __kernel_start	; load_addr
	dd __load_end		; load_end_addr
	dd __kernel_end		; bss_end_addr
	dd _start32		; entry_addr

align 8
mb2_header:
	dd MB2_MAGIC
	dd MB2_ARCH_I386
	dd mb2_header_end - mb2_header
	dd -(MB2_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))
	; Console-flags tag (type 4, optional): "EGA text supported", so GRUB
	; under BIOS leaves the screen in text mode for the VGA mirror.
	align 8
	dw 4, 1
	dd 12
	dd (1 << 1)
	; Framebuffer tag (type 5), optional (flags bit 0), no preferred size
	; or depth: under UEFI, where there is no EGA text, GRUB passes the
	; GOP framebuffer only when this tag is present (multiboot2 spec
	; §3.1.10); the screen console draws there.  Under BIOS
	; iso/grub.cfg sets gfxpayload=text after it, keeping the text screen.
	align 8
	dw 5, 1
	dd 20
	dd 0, 0, 0
	align 8
	dw 0, 0			; end tag
	dd 8
mb2_header_end:
