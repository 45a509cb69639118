# SPDX-License-Identifier: GPL-2.0-only
"""Robustness: the fault matrix.  Firmware tables that lie (an HPET
base ringlab must refuse, a second MADT, no ACPI at all), machines
without the usual serial port, interrupts-off hangs stopped by the NMI
watchdog, an over-long command line, small and large RAM, a bare
CPU model and twelve CPUs on one host core.  The forged multiboot2
cases are in cases_mbforge.py."""
import os


def hpet_table(ctx, base):
    """An HPET table with the given base (QEMU fixes the
    checksum when it installs it with -acpitable)."""
    t = bytearray.fromhex("4850455438000000017e524c46555a5a52494e474c41422001000000524c41420100000001a2868000400000000000000000008000800000")
    t[44:52] = base.to_bytes(8, "little")
    d = os.path.join(ctx.BUILD, "fault-data")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "hpet-%x.bin" % base)
    with open(path, "wb") as f:
        f.write(bytes(t))
    return path


def madt_table(ctx):
    """A second MADT (one CPU, then an entry of length 1) for -acpitable:
    two CPU lists are a firmware error that smp.online must report."""
    body = bytes.fromhex("0000e0fe01000000" "0008000001000000" "0001000000000000")
    hdr = b"APIC" + (36 + len(body)).to_bytes(4, "little") + bytes([3, 0]) + b"RLFUZZRINGLAB " + \
        (1).to_bytes(4, "little") + b"RLAB" + (1).to_bytes(4, "little")
    d = os.path.join(ctx.BUILD, "fault-data")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "madt-dup.bin")
    with open(path, "wb") as f:
        f.write(hdr + body)
    return path



def cases(ctx):
    # run.py's case kind and checks (ctx is run.py)
    Case = ctx.Case
    TweakedCase = ctx.TweakedCase
    has = ctx.has
    lacks = ctx.lacks
    idval = ctx.idval
    online = ctx.online
    result_is = ctx.result_is
    up_hang = ctx.up_hang
    return [
        Case("hpet-noncanonical", machine="pc,hpet=off", append="tests=boot,tsc.calibration quick",
             extra=["-acpitable", "file=" + hpet_table(ctx, 0x8000000000000000)],
             checks=[has(r"^# error: acpi: HPET base 0x8000000000000000 is not a canonical lower-half address .*HPET left out"),
                     has(r"^# tsc: hpet +unavailable"), result_is("calibration", "ok")]),
        Case("hpet-in-kernel", machine="pc,hpet=off", append="tests=boot quick",
             extra=["-acpitable", "file=" + hpet_table(ctx, 0x100000)],
             checks=[has(r"^# error: acpi: HPET base 0x100000 overlaps the kernel image; HPET left out")]),
        Case("hpet-above-maxphyaddr", machine="pc,hpet=off", append="tests=boot quick",
             extra=["-acpitable", "file=" + hpet_table(ctx, 0x7ff000000000)],
             checks=[has(r"^# error: acpi: HPET base 0x7ff000000000 lies above 2\^MAXPHYADDR")]),
        # SeaBIOS lists one MP processor entry per package: one core each
        TweakedCase("acpi-off-mptable", smp="4,sockets=4,cores=1,threads=1", machine="pc,acpi=off",
                    bios="/usr/share/seabios/bios-256k.bin", append="tests=smp,boot quick",
                    checks=[online(4), has(r"^# smp: no usable MADT; 4 enabled CPU\(s\) of 4 from the MP table"),
                            has(r"# CPUs enumerated from the Intel MP table"), result_is("online", "ok")]),
        Case("acpi-off-no-enumeration", smp="2", machine="pc,acpi=off", append="tests=smp,boot quick",
             expect="fail",
             checks=[online(1), has(r"^# error: mptable: no MP floating pointer structure"),
                     has(r"not ok 1 online # no CPU enumeration: no ACPI and no usable MP table")]),
        Case("acpi-off-no-enumeration-boot", smp="2", machine="pc,acpi=off", append="tests=boot quick",
             expect="config-error",
             checks=[has(r"^# error: smp: no CPU enumeration \(no usable MADT or MP table\): only the boot CPU was tested"),
                     result_is("boot", "ok")]),
        Case("madt-duplicate", smp="2", append="tests=smp quick", expect="fail",
             extra=["-acpitable", "file=" + madt_table(ctx)],
             checks=[online(2), has(r"^# error: acpi: another MADT at 0x[0-9a-f]+, ignored"),
                     has(r"not ok 1 online # the MADT is invalid \(see the error lines above\)")]),
        TweakedCase("no-serial", serial=None, append="tests=boot quick"),
        TweakedCase("com2-only", serial=["-serial", "none", "-serial", "file:LOG"], append="tests=boot quick",
                    checks=[has(r"^# error: console: no UART detected at io 0x3f8; falling back to ttyS1 \(io 0x2f8\)"),
                            idval("console", "0x2f8")]),
        Case("hang-irqoff", smp="2", append="tests=fault.hang_irqoff,fault.hang_irqoff_ap,boot quick",
             expect="fail",
             checks=[has(r"not ok 1 hang_irqoff # TIMEOUT budget of 500 ms exceeded with interrupts off; stopped by an NMI from watcher cpu 1"),
                     has(r"not ok 2 hang_irqoff_ap # TIMEOUT budget of 500 ms exceeded"),
                     has(r"^# watchdog: cpu 1 checks"), result_is("boot", "ok"),
                     has(r"# deferred: t_defer action ran after fault\.hang_irqoff ended"),
                     has(r"^ringlab: \d+ passed, 2 failed, 0 skipped$")]),
        # One CPU: no watcher; the boot CPU's own check in a periodic NMI
        # (PIT channel 0 -> ISA IRQ 0 -> I/O APIC pin 2 as NMI) must stop it.
        Case("hang-irqoff-up", smp="1", append="tests=boot,fault.hang_irqoff quick", expect="fail",
             checks=up_hang(has(r"^# watchdog: no watcher CPU \(no other CPU online\); the boot CPU checks its own case budget in an NMI from I/O APIC 0 pin 2 \(GSI 2\) fed by PIT channel 0 every 50 ms"),
                     has(r"^# watchdog: I/O APIC 0 pin 2 entry restored to "),
                     result_is("boot", "ok"),
                     has(r"^ringlab: \d+ passed, 1 failed, 0 skipped$"))),
        # SeaBIOS leaves PIT channel 0 in mode 2 (read-back status 0x34):
        # the restore keeps that mode (qboot and OVMF leave mode 3).
        TweakedCase("hang-irqoff-up-seabios", smp="1", bios="/usr/share/seabios/bios-256k.bin",
                    append="tests=boot,fault.hang_irqoff quick", expect="fail",
                    checks=up_hang(has(r"^# watchdog: I/O APIC 0 at 0xfec00000 pin 2 entry was 0x[0-9a-f]+, PIT channel 0 status 0x34;"),
                            has(r"^# watchdog: I/O APIC 0 pin 2 entry restored to .* PIT channel 0 back to mode 2, count 65536"))),
        Case("hang-irqoff-up-q35", smp="1", machine="q35", append="tests=boot,fault.hang_irqoff quick",
             expect="fail",
             checks=up_hang(has(r"^# watchdog: no watcher CPU .* I/O APIC 0 pin 2 \(GSI 2\) fed by PIT channel 0"),
                     has(r"^# watchdog: I/O APIC 0 pin 2 entry restored to "),
                     result_is("boot", "ok"),
                     has(r"^ringlab: \d+ passed, 1 failed, 0 skipped$"))),
        # Negative control of the source's probe: with no PIT (QEMU
        # pit=off) no NMI ever arrives, and the source must not be trusted;
        # the TSC calibration says the PIT is absent, not "disturbed".
        Case("up-no-pit", smp="1", machine="pc,pit=off", append="tests=boot quick",
             checks=[has(r"^# watchdog: no CPU watches the boot CPU \(no other CPU online\) and no I/O APIC NMI source \(I/O APIC 0 pin 2 \(GSI 2\) programmed for NMI, but 0 NMI\(s\) arrived from PIT channel 0 in 300 ms"),
                     has(r"^# tsc: pit +unavailable: OUT2 already high at the first poll of all \d+ runs: no PIT counting"),
                     result_is("boot", "ok")]),
        # nosmp on two CPUs: the AP is never started, same source
        Case("hang-irqoff-nosmp", smp="2", append="tests=boot,fault.hang_irqoff nosmp quick", expect="fail",
             checks=up_hang(has(r"^# watchdog: no watcher CPU .* I/O APIC 0 pin 2 \(GSI 2\)"),
                     result_is("boot", "ok"))),
        # Negative control: with a second CPU the watcher is used and the
        # I/O APIC source is not armed.
        Case("hang-irqoff-smp2-no-ioapic-nmi", smp="2", append="tests=boot,fault.hang_irqoff quick", expect="fail",
             checks=[has(r"not ok \d+ hang_irqoff # TIMEOUT budget of 500 ms exceeded with interrupts off; stopped by an NMI from watcher cpu 1"),
                     has(r"^# watchdog: cpu 1 checks"), lacks(r"I/O APIC"), lacks(r"PIT channel 0"),
                     lacks(r"unexpected NMI"), result_is("boot", "ok")]),
        Case("cmdline-4k", append="tests=apic " + "seed=1 " * 585 + "quick", expect="config-error",
             checks=[has(r"^# error: cmdline: command line longer than 2047 bytes \(the limit\)"),
                     has(r"^# error: mbi: command line longer than 2047 bytes; truncated"),
                     result_is("apic", "ok")]),
        Case("mem-64m", mem="64M", smp="2", append="tests=boot,smp,apic quick", checks=[online(2)]),
        Case("mem-16g", mem="16G", smp="2", append="tests=boot,smp quick", checks=[online(2)]),
        Case("cpu-qemu64", cpu="qemu64", smp="2", append="tests=boot,cpu,smp,apic,tsc quick", timeout=120,
             checks=[online(2)]),
        TweakedCase("smp12-one-core", smp="12", prefix=["taskset", "-c", "0"], timeout=400,
                    append="tests=smp,ipi,tsc.sync quick",
                    checks=[online(12), has(r"^# lost: threshold T_LOST_US=\d+ us = base 2000000 us x scale \d+")]),
    ]
