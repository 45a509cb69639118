#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write the seed corpora of the fuzz harnesses into OUT/<harness>/.

Seeds come from the host-test data (tests/host/data), the log-format
example (docs/log-format.md) and a few well-formed structures built here,
so that each fuzzer starts from inputs that get past the first checks."""
import os
import re
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = sys.argv[1]


def put(harness, name, data):
    d = os.path.join(OUT, harness)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def csum(b, at):
    b = bytearray(b)
    b[at] = 0
    b[at] = (-sum(b)) & 0xff
    return bytes(b)


def sdt(sig, body, rev=1):
    h = sig + struct.pack("<IBB6s8sI4sI", 36 + len(body), rev, 0, b"BOCHS ", b"BXPC    ", 1, b"BXPC", 1)
    return csum(h + body, 9)


# -- ACPI: real tables (mode 0 MADT, 1 FADT), a whole tree (mode 3), MP (4)
data = os.path.join(ROOT, "tests/host/data/acpi")
for fn in sorted(os.listdir(data)):
    if fn.endswith(".bin"):
        mode = {"APIC": 0, "FACP": 1}.get(fn.split("-")[-1][:4], 2)
        put("acpi", fn, bytes([mode]) + open(os.path.join(data, fn), "rb").read())
base = 0x7ffe0000
madt = sdt(b"APIC", struct.pack("<II", 0xfee00000, 1) +
           b"".join(struct.pack("<BBBBI", 0, 8, i, i, 1) for i in range(4)) +
           struct.pack("<BBBBII", 1, 12, 0, 0, 0xfec00000, 0) +
           struct.pack("<BBBBIH", 2, 10, 0, 0, 2, 0) +      # ISA IRQ 0 -> GSI 2
           struct.pack("<BBHIII", 9, 16, 0, 4, 1, 4), rev=5)
hpet = sdt(b"HPET", struct.pack("<IBBBBQBHB", 0x8086a201, 0, 64, 0, 0, 0xfed00000, 0, 0x80, 0))
put("acpi", "hpet-table", bytes([2]) + hpet)
put("acpi", "madt-override", bytes([0]) + madt)
# SPCR rev 2: a 16550 at I/O 0x2f8 (GAS system I/O), IRQ 3, 115200 baud
spcr = sdt(b"SPCR", struct.pack("<B3xBBBBQBBIBBBBBBHHBBBIBI", 0, 1, 8, 0, 1, 0x2f8, 1, 3, 0,
                                 7, 0, 1, 0, 0, 0, 0xffff, 0xffff, 0, 0, 0, 0, 0, 0), rev=2)
assert len(spcr) == 80
put("acpi", "spcr-table", bytes([5]) + spcr)
xsdt_at, madt_at, hpet_at = base, base + 0x100, base + 0x400
xsdt = sdt(b"XSDT", struct.pack("<QQ", madt_at, hpet_at))
mem = bytearray(0x500)
mem[0:len(xsdt)] = xsdt
mem[0x100:0x100 + len(madt)] = madt
mem[0x400:0x400 + len(hpet)] = hpet
rsdp = bytearray(b"RSD PTR " + bytes(1) + b"BOCHS " + bytes([2]) + struct.pack("<IIQ", 0, 36, xsdt_at) + bytes(4))
rsdp = csum(rsdp[:20], 8) + bytes(rsdp[20:])
rsdp = csum(rsdp, 32)
put("acpi", "tree", bytes([3]) + rsdp + bytes(mem))
pcmp = bytearray(b"PCMP" + struct.pack("<HBB8s12sIHHIHBB", 0, 4, 0, b"BOCHSCPU", b"0.1         ", 0, 0, 0, 0xfee00000, 0, 0, 0))
for i in range(2):
    pcmp += struct.pack("<BBBBIIQ", 0, i, 0x14, 1 | (2 if i == 0 else 0), 0x600, 0x200, 0)
pcmp += struct.pack("<BBBBI", 2, 2, 0x11, 1, 0xfec00000)
struct.pack_into("<HH", pcmp, 4, len(pcmp), 0)
struct.pack_into("<H", pcmp, 34, 3)
pcmp = csum(pcmp, 7)
fps = csum(b"_MP_" + struct.pack("<IBBBB", 0xF0010, 1, 4, 0, 0) + bytes(4), 10)
put("acpi", "mptable", bytes([4]) + fps + pcmp)

# -- multiboot: mb1 with cmdline + mmap, mb2 with tags (info at 0x10000)
mb1 = bytearray(0x200)
struct.pack_into("<I", mb1, 0, (1 << 2) | (1 << 6))
struct.pack_into("<I", mb1, 16, 0x10100)
mb1[0x100:0x106] = b"quick\0"
mm = struct.pack("<IQQI", 20, 0, 0x9fc00, 1) + struct.pack("<IQQI", 20, 0x100000, 0x3ff00000, 1)
struct.pack_into("<II", mb1, 44, len(mm), 0x10180)
mb1[0x180:0x180 + len(mm)] = mm
put("mbi", "mb1", b"\0" + bytes(mb1))
tags = b""
def tag(t, body):
    b = struct.pack("<II", t, 8 + len(body)) + body
    return b + bytes((-len(b)) % 8)
tags += tag(1, b"quick tests=boot\0") + tag(2, b"GRUB 2.06\0")
tags += tag(6, struct.pack("<II", 24, 0) + struct.pack("<QQII", 0, 0x9fc00, 1, 0) + struct.pack("<QQII", 0x100000, 0x3ff00000, 1, 0))
tags += tag(8, struct.pack("<QIIIBBH", 0xfd000000, 4096, 1024, 768, 32, 1, 0))
tags += tag(14, rsdp[:20]) + tag(0, b"")
put("mbi", "mb2", b"\x01" + struct.pack("<II", 8 + len(tags), 0) + tags)

# -- command lines
for i, line in enumerate(["quick", "tests=boot,smp.online skip=ipi.mesh console=ttyS1,57600 verbose",
                          "/boot/ringlab.elf iters=100 seed=42 cpus=2 timeout=30 ap_timeout=500 exit=halt apic=xapic",
                          "simulate=x2apic-nostick,ap-nostart nosmp novga console=io:0x3f8"]):
    put("cmdline", "line%d" % i, line.encode())

# -- logs: the documented example
doc = open(os.path.join(ROOT, "docs/log-format.md")).read()
m = re.search(r"```\n(KTAP version 1\n.*?)```", doc, re.S)
if m:
    put("logcheck", "example.log", m.group(1).encode())
put("logcheck", "metric", b"# metric a.b.c n=3 min=1 median=2 p99=3 max=3 unit=ns method=x")

# -- physrange: a real firmware's HPET base of 2^63 and a good one
put("physrange", "hpet-2p63", struct.pack("<QQQQ", 1 << 63, 0x400, 7, 0x100000) + struct.pack("<QQ", 0x100000, 1 << 30))
put("physrange", "hpet-ok", struct.pack("<QQQQ", 0xfed00000, 0x400, 7, 0x100000) + struct.pack("<QQ", 0x100000, 1 << 30))

# -- SMBIOS: a table with types 0, 1, 2 and the end marker (modes 0/1), the
# same behind a 3.0 entry point in the loader's tag (2), a 2.8 entry point
# in the BIOS area (3) and an EFI system table with an SMBIOS3 entry (4)
def smb(t, handle, fields, strings):
    body = struct.pack("<BBH", t, 4 + len(fields), handle) + fields
    s = b"".join(x + b"\0" for x in strings) or b"\0"
    return body + s + b"\0"


smtab = (smb(0, 0, bytes([1, 2, 0, 0, 3, 0]), [b"SeaBIOS", b"1.16", b"04/01/2014"]) +
         smb(1, 0x100, bytes([1, 2, 0, 3]) + bytes(17), [b"QEMU", b"Standard PC", b"S123"]) +
         smb(2, 0x200, bytes([1, 2, 0, 0]), [b"Lab", b"Board X"]) + smb(127, 0x7f00, b"", []))
put("smbios", "table", b"\0" + smtab)
put("smbios", "table-max", b"\x01" + smtab + bytes(16))


def ep3(addr, tlen):
    return csum(b"_SM3_" + struct.pack("<BBBBBBBIQ", 0, 0x18, 3, 0, 0, 1, 0, tlen, addr), 5)


def ep2(addr, tlen, n):
    inter = csum(b"_DMI_" + struct.pack("<BHIHB", 0, tlen, addr, n, 0x28), 5)
    return csum(b"_SM_" + struct.pack("<BBBBHB5s", 0, 0x1f, 2, 8, 0x100, 0, bytes(5)) + inter, 4)


put("smbios", "tag-v3", b"\x02" + ep3(0x7f000000, len(smtab)).ljust(32, b"\0") + smtab)
fseg = bytearray(0x200)
fseg[0x100:0x100 + len(smtab)] = smtab
e2 = ep2(0xF0100, len(smtab), 4)
fseg[0x10:0x10 + len(e2)] = e2
put("smbios", "scan-v2", b"\x03" + bytes(fseg))
st = bytearray(0x300)
struct.pack_into("<Q", st, 0, 0x5453595320494249)
struct.pack_into("<QQ", st, 104, 1, 0x7e000000 + 0x80)
guid3 = bytes([0x44, 0x15, 0xfd, 0xf2, 0x94, 0x97, 0x2c, 0x4a, 0x99, 0x2e, 0xe5, 0xbb, 0xcf, 0x20, 0xe3, 0x94])
st[0x80:0x98] = guid3 + struct.pack("<Q", 0x7e000000 + 0xa0)
e3 = ep3(0x7e000000 + 0xc0, len(smtab))
st[0xa0:0xa0 + len(e3)] = e3
st[0xc0:0xc0 + len(smtab)] = smtab
put("smbios", "efi64", b"\x04" + bytes(st))
