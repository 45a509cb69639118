#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""I/O allow-list check: ring 0 never writes to disks or
firmware.  Every port write (OUT/OUTS) in the built kernel and every MMIO
write path in the sources must be on the documented allow-list below (the
README's "What ringlab changes on a machine" says the same in prose), so
that a future suite cannot start poking a disk controller by accident.

  tests/host/check-io.py build/ringlab.elf

Prints PASS/FAIL lines: io-ports, io-mmio, and io-allowlist-control (the
negative control: a planted write to the IDE command port 0x1f7 and a
planted MMIO store in a new file must both be rejected)."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Fixed ports written with an immediate operand.
PORTS = {
    0x20: "8259A PIC master command", 0x21: "8259A PIC master data",
    0xa0: "8259A PIC slave command", 0xa1: "8259A PIC slave data",
    0x40: "PIT channel 0", 0x41: "PIT channel 1", 0x42: "PIT channel 2", 0x43: "PIT mode/command",
    0x61: "PIT channel 2 gate (port B)",
    0x64: "8042 pulse-reset command (exit=reboot)",
    0xf4: "QEMU isa-debug-exit (exit=qemu, only under QEMU)",
}
# Functions allowed to write a port held in DX, and what it is.
PORT_FUNCS = {
    "uart_init": "16550 UART registers (COM1-4, or console=io:0xNNN)",
    "uart_write": "16550 UART transmit holding register",
    "crtc_answers": "VGA CRT controller index 0x3D4 (the text-mirror probe; restored)",
    "_start32.send": "COM1 transmit register (early 32-bit error message)",
    "machine_exit": "reset control register 0xcf9 (exit=reboot)",
}
# Source files allowed to store through a volatile pointer to MMIO, and the
# only callers of paging_map_mmio().
MMIO_FILES = {
    "arch/x86/apic.c": "local APIC (xAPIC MMIO page; x2APIC is MSRs)",
    "arch/x86/hpet.c": "HPET general configuration (counter enable, restored)",
    "arch/x86/ioapic.c": "I/O APIC IOREGSEL/IOWIN: one redirection entry (uniprocessor NMI watchdog), saved and restored",
    "arch/x86/vga.c": "VGA text framebuffer 0xB8000",
    "kernel/fbcon.c": "the GOP/VBE framebuffer of the multiboot2 tag (screen console): pixels only",
    "suites/fault.c": "deliberate #PF on an unmapped address (no device)",
    "arch/x86/smpboot.c": "AP trampoline page in low RAM (not a device): the parked CPUs' IDT pointer",
}
MAP_FILES = {"arch/x86/apic.c", "arch/x86/hpet.c", "arch/x86/ioapic.c", "kernel/fbcon_boot.c"}

OUT_RX = re.compile(r"^\s*[0-9a-f]+:\s+(rep\s+)?(out[bwl]?|outs[bwld]?)\s+(\S+)")
FN_RX = re.compile(r"^[0-9a-f]+ <(.+)>:$")
STORE_RX = re.compile(r"\*\s*\(\s*volatile\s+u?int(8|16|32|64)_t\s*\*\s*\)[^;=]*=[^=]")
DEFINE_RX = re.compile(r"\(\s*\(\s*volatile\s+u?int(8|16|32|64)_t\s*\*\s*\)\s*0x[0-9a-fA-F]+")


def check_ports(listing):
    bad, n = [], 0
    fn = "?"
    for line in listing.splitlines():
        m = FN_RX.match(line)
        if m:
            fn = m.group(1)
            continue
        m = OUT_RX.match(line)
        if not m:
            continue
        n += 1
        insn, operands = m.group(2), m.group(3)
        if insn.startswith("outs"):
            bad.append("%s: string output %s (never allowed)" % (fn, line.strip()))
            continue
        pm = re.search(r"\$0x([0-9a-f]+)$", operands)
        if pm:
            if int(pm.group(1), 16) not in PORTS:
                bad.append("%s: port 0x%s not on the allow-list: %s" % (fn, pm.group(1), line.strip()))
        elif fn not in PORT_FUNCS:
            bad.append("%s: variable-port write outside the allowed functions: %s" % (fn, line.strip()))
    return n, bad


def check_mmio(files):
    bad, n = [], 0
    for path, text in files:
        for i, line in enumerate(text.splitlines(), 1):
            code = line.split("//")[0]
            if STORE_RX.search(code) or DEFINE_RX.search(code):
                n += 1
                if path not in MMIO_FILES:
                    bad.append("%s:%d: MMIO store path not on the allow-list: %s" % (path, i, line.strip()))
            if "paging_map_mmio(" in code and path not in MAP_FILES and not path.startswith("arch/x86/paging"):
                bad.append("%s:%d: maps MMIO but is not on the allow-list: %s" % (path, i, line.strip()))
    return n, bad


def sources():
    out = []
    for d in ("kernel", "arch", "lib", "tests", "boot"):
        for dirpath, _, names in os.walk(os.path.join(ROOT, d)):
            if "/tests/host" in dirpath or "/tests/fuzz" in dirpath:
                continue
            for nm in sorted(names):
                if nm.endswith((".c", ".h")):
                    p = os.path.join(dirpath, nm)
                    out.append((os.path.relpath(p, ROOT), open(p, errors="replace").read()))
    return out


def main():
    elf = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build/ringlab.elf")
    try:
        listing = subprocess.run(["objdump", "-d", "--no-show-raw-insn", elf], capture_output=True,
                                 text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        print("FAIL io-ports: objdump failed on %s: %s" % (elf, e))
        return 1
    rc = 0
    n, bad = check_ports(listing)
    if bad or n == 0:
        rc = 1
        print("FAIL io-ports: %s" % ("; ".join(bad[:5]) if bad else "no OUT instruction found: wrong file?"))
    else:
        print("PASS io-ports: %d OUT sites, all on the allow-list" % n)
    n, bad = check_mmio(sources())
    if bad:
        rc = 1
        print("FAIL io-mmio: %s" % "; ".join(bad[:5]))
    else:
        print("PASS io-mmio: %d volatile MMIO store sites, all in %s" % (n, ", ".join(sorted(MMIO_FILES))))
    # Negative control: both checks must reject planted violations.
    planted = "0000000000100000 <evil_disk_poke>:\n  100000:\tout    %al,$0x1f7\n  100002:\tout    %al,(%dx)\n"
    _, pbad = check_ports(listing + planted)
    _, mbad = check_mmio([("tests/evil.c", "\t*(volatile uint8_t *)(uintptr_t)0xfebf0000 = 1;\n")])
    if len(pbad) >= 2 and mbad:
        print("PASS io-allowlist-control: a planted OUT to 0x1f7, a variable-port OUT and an MMIO store in a new file were rejected")
    else:
        rc = 1
        print("FAIL io-allowlist-control: planted violations not detected (ports %d of 2, mmio %d)" % (len(pbad), len(mbad)))
    return rc


if __name__ == "__main__":
    sys.exit(main())
