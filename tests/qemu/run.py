#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""QEMU boot tests for ringlab.

Each case boots the kernel (-kernel, multiboot1) or the ISO (SeaBIOS or
OVMF) under a hard timeout, then checks the serial log: build/logcheck
validates the KTAP structure, the integrity line, the summary and the exit
status against QEMU's exit code; each case adds its own checks (CPUs online,
APIC mode, expected error lines...).

Output: one line per case, "PASS name", "FAIL name: why" or "SKIP name: why",
then "qemu: N passed, N failed, N skipped".  Logs are kept in
build/test-logs/<case>.log.

QEMU timings mean nothing here: cases check behaviour, never speed.
"""

import argparse
import concurrent.futures
import glob
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.abspath(os.path.join(ROOT, os.environ.get("BUILD", "build")))
ELF = os.path.join(BUILD, "ringlab.elf")
ISO = os.path.join(BUILD, "ringlab.iso")
# Test tooling (tests/qemu/mbforge/mbforge.c): a multiboot1 kernel that
# loads ringlab.elf from its -initrd module and enters it with a forged
# multiboot2 information structure, so that a case can hand ringlab what
# no real loader under QEMU would, e.g. a bad framebuffer tag.
MBFORGE = os.path.join(BUILD, "mbforge.elf")
LOGCHECK = os.path.join(BUILD, "logcheck")
LOGDIR = os.path.join(BUILD, "test-logs")
QBOOT = "/usr/share/qemu/qboot.rom"
OVMF = "/usr/share/OVMF/OVMF_CODE.fd"

QEMU = os.environ.get("QEMU", "qemu-system-x86_64")
QEMU72 = os.environ.get("QEMU72", "")  # optional QEMU 7.2 binary for the real fallback case

EXIT_CODES = {"pass": 0, "fail": 1, "config-error": 2, "panic": 3}

# iPXE network boot: Debian's ipxe-qemu ROM for an e1000 NIC;
# QEMU's user network serves a TFTP directory with an iPXE script that
# loads the ELF as multiboot1, as a lab's TFTP server would.
IPXE_ROM = "/usr/lib/ipxe/qemu/pxe-e1000.rom"
# The diagnostic of a loader memory map with RAM entries only (iPXE):
# firmware tables are then also read from holes below 4 GiB.
RAM_ONLY_DIAG = r"^# paging: the memory map lists only RAM \(no reserved, ACPI or NVS entries\), so firmware tables are read from holes below 4 GiB"


def spcr_table(port=0x2f8):
    """An ACPI SPCR table (rev 2, 80 bytes) naming a 16550 at io `port`,
    115200 baud, for -acpitable."""
    import struct
    t = bytearray(80)
    t[0:4] = b"SPCR"
    struct.pack_into("<IB", t, 4, len(t), 2)
    t[10:16], t[16:24], t[28:32] = b"RINGLB", b"SPCRTEST", b"RLAB"
    struct.pack_into("<BBBBQ", t, 40, 1, 8, 0, 1, port)     # GAS: system I/O
    t[52], t[53], t[58] = 1, 3, 7                            # IRQ 3, 115200
    struct.pack_into("<HH", t, 64, 0xffff, 0xffff)           # not a PCI UART
    t[9] = -sum(t) & 0xff
    path = os.path.join(BUILD, "spcr-com2.bin")
    os.makedirs(BUILD, exist_ok=True)
    with open(path, "wb") as f:
        f.write(t)
    return path


def ipxe_tftp_dir():
    d = os.path.join(BUILD, "ipxe-tftp")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "boot.ipxe"), "w") as f:
        f.write("#!ipxe\necho ringlab: network boot through iPXE\n"
                "kernel ringlab.elf tests=boot,cpu,smp quick\nboot\n")
    link = os.path.join(d, "ringlab.elf")
    if not os.path.islink(link):
        os.symlink("../ringlab.elf", link)
    return d


def qemu_version(binary):
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r"version (\d+)\.(\d+)", out)
    return (int(m.group(1)), int(m.group(2))) if m else None


def kvm_usable():
    return os.path.exists("/dev/kvm") and os.access("/dev/kvm", os.R_OK | os.W_OK)


class Case:
    def __init__(self, name, append="quick", smp="2", media="kernel", expect="pass",
                 timeout=60, machine=None, extra=None, checks=(), accel="tcg", mem="1G",
                 needs=None, qemu=None, cpu=None):
        self.name = name
        self.append = append
        self.smp = smp
        self.media = media
        self.expect = expect
        self.timeout = timeout
        self.machine = machine
        self.extra = list(extra or [])
        self.checks = list(checks)
        self.accel = accel
        self.mem = mem
        self.needs = needs
        self.qemu = qemu or QEMU
        # -arch-capabilities: on some hosts QEMU aborts setting the guest's
        # IA32_ARCH_CAPABILITIES for -cpu host ("failed to set MSR 0x10a");
        # ringlab does not use it.
        self.cpu = cpu or ("host,-arch-capabilities" if accel == "kvm" else "max")

    def command(self, log):
        cmd = [self.qemu, "-nodefaults", "-display", "none", "-no-reboot",
               "-m", self.mem, "-smp", self.smp, "-accel", self.accel, "-cpu", self.cpu,
               "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
               "-serial", "file:" + log]
        if self.machine:
            cmd += ["-M", self.machine]
        if self.media == "kernel":
            if not self.machine or not self.machine.startswith("q35"):
                cmd += ["-bios", QBOOT]
            cmd += ["-kernel", ELF]
            if self.append is not None:
                cmd += ["-append", self.append]
        elif self.media == "mbforge":
            # qboot, then mbforge with ringlab.elf as its module; append is
            # mbforge's line: "fb=MODE -- <ringlab's command line>"
            if not self.machine or not self.machine.startswith("q35"):
                cmd += ["-bios", QBOOT]
            cmd += ["-kernel", MBFORGE, "-initrd", ELF]
            if self.append is not None:
                cmd += ["-append", self.append]
        elif self.media == "iso-bios":
            cmd += ["-drive", "file=%s,format=raw,media=cdrom,readonly=on" % ISO, "-boot", "d"]
        elif self.media == "iso-uefi":
            cmd += ["-bios", OVMF,
                    "-drive", "file=%s,format=raw,media=cdrom,readonly=on" % ISO]
        elif self.media == "usb-bios":
            # the hybrid image written to a USB stick, as `dd` would
            cmd += ["-drive", "if=none,id=stick,format=raw,file=%s,snapshot=on" % ISO,
                    "-device", "qemu-xhci", "-device", "usb-storage,drive=stick,bootindex=0"]
        cmd += self.extra
        return cmd


class Com2OnlyCase(Case):
    """A machine whose only UART is COM2 (io 0x2f8): the serial log file
    is attached there instead of COM1."""

    def command(self, log):
        cmd = super().command(log)
        i = cmd.index("-serial")
        del cmd[i:i + 2]
        return cmd + ["-chardev", "file,id=com2,path=" + log,
                      "-device", "isa-serial,chardev=com2,iobase=0x2f8,irq=3"]


# ---------------------------------------------------------------- checks ---

def has(pattern, desc=None):
    rx = re.compile(pattern, re.M)
    return (desc or "log matches /%s/" % pattern, lambda log: rx.search(log) is not None)


def lacks(pattern, desc=None):
    rx = re.compile(pattern, re.M)
    return (desc or "log lacks /%s/" % pattern, lambda log: rx.search(log) is None)


def idval(key, pattern):
    rx = re.compile(r"^# id\.%s: (.*)$" % re.escape(key), re.M)

    def check(log):
        m = rx.search(log)
        return m is not None and re.search(pattern, m.group(1)) is not None
    return ("id.%s matches /%s/" % (key, pattern), check)


BOOT_PHASES = ("console", "memory", "firmware", "tsc_calibration", "cpu_probes", "apic",
               "ap_start", "identity", "lost", "watchdog")


def boot_phases():
    """The `# boot: phases ms:` line (docs/log-format.md "Durations"): every
    phase, in order, and the phases add up to the total (each printed to the
    microsecond, so within a microsecond per phase)."""
    rx = re.compile(r"^# boot: phases ms: total=(\d+\.\d{3})((?: [a-z_]+=\d+\.\d{3})+)$", re.M)

    def check(log):
        m = rx.search(log)
        if not m:
            return False
        parts = [kv.split("=") for kv in m.group(2).split()]
        names = tuple(k for k, _ in parts)
        total = float(m.group(1))
        spent = sum(float(v) for _, v in parts)
        return names == BOOT_PHASES and total > 0 and abs(spent - total) <= 0.001 * (len(parts) + 1)
    return ("boot phases line lists %s adding up to its total" % ",".join(BOOT_PHASES), check)


def online(n):
    return idval("cpus", r"\bonline=%d\b" % n)


def case_result(log, name):
    m = re.search(r"^\s*(ok|not ok) \d+ %s\b(.*)$" % re.escape(name), log, re.M)
    return (m.group(1), m.group(2)) if m else (None, None)


def result_is(name, want):
    def check(log):
        r, _ = case_result(log, name)
        return r == want
    return ("case %s is '%s'" % (name, want), check)


def metric(name, pattern=""):
    rx = re.compile(r"^\s*# metric %s\b(.*)$" % re.escape(name), re.M)
    return ("metric %s present%s" % (name, " with /%s/" % pattern if pattern else ""),
            lambda log: any(re.search(pattern, m.group(1)) for m in rx.finditer(log)))


def up_hang(*extra):
    """Checks of a one-CPU fault.hang_irqoff run: the periodic I/O APIC NMI
    (kernel/nmi_watch.c) stopped the case, silently for the other ticks."""
    return [has(r"not ok \d+ hang_irqoff # TIMEOUT budget of 500 ms exceeded with interrupts off; stopped by the periodic I/O APIC NMI"),
            lacks(r"unexpected NMI")] + list(extra)


# ------------------------------------------------------------ case kinds ---

class TweakedCase(Case):
    """A Case whose QEMU command line is edited: serial ports replaced
    (serial=None: no serial port at all, judged by the exit status alone),
    another firmware than qboot (bios=), or the whole command prefixed
    (taskset)."""

    def __init__(self, name, serial=(), prefix=(), bios=None, **kw):
        Case.__init__(self, name, **kw)
        self.bios = bios
        self.serial = serial
        self.prefix = list(prefix)
        self.no_log = serial is None

    def command(self, log):
        cmd = Case.command(self, log)
        if self.serial != ():
            i = cmd.index("file:" + log)
            repl = [] if self.serial is None else [a.replace("LOG", log) for a in self.serial]
            cmd = cmd[:i - 1] + repl + cmd[i + 1:]
        if self.bios and QBOOT in cmd:
            cmd[cmd.index(QBOOT)] = self.bios
        return self.prefix + cmd


def cases(args):
    v = qemu_version(QEMU) or (0, 0)
    tcg_x2apic = v >= (8, 0)  # QEMU 7.2's TCG has no x2APIC (docs/platform-notes.md)
    apic = "x2apic" if tcg_x2apic else "xapic"
    c = [
        # --- foundation ---
        Case("elf-tcg-smp1", smp="1", checks=[online(1), idval("boot", "^QEMU -kernel$"),
                                              idval("cmdline", r"\bquick\b"),
                                              # control for ipxe-net: this map has reserved entries
                                              lacks(RAM_ONLY_DIAG),
                                              # -nodefaults: no display adapter, so no VGA
                                              # mirror (QEMU has plain RAM at 0xB8000 then)
                                              idval("console", r"^ttyS0\(0x3f8\)@115200$")]),
        # ... and with one, the mirror is on (the -kernel path under SeaBIOS,
        # whose VGA BIOS sets text mode; the control for the line above)
        Case("vga-std-kernel", smp="1", machine="q35", extra=["-vga", "std"],
             append="tests=boot quick",
             checks=[idval("console", r"^ttyS0\(0x3f8\)@115200 vga$")]),
        Case("elf-tcg-smp4", smp="4", mem="5G",
             checks=[online(4), idval("ram", r"highest=0x1[0-9a-f]{8}\b"),
                     metric("boot.identity_map.checked"), boot_phases()]),
        Case("iso-seabios", media="iso-bios", append=None, timeout=420,
             checks=[idval("boot", "^GRUB BIOS$"), idval("firmware", "^BIOS$"), online(2),
                     lacks(RAM_ONLY_DIAG),
                     # SMBIOS from the 0xF0000 scan (tests/qemu/cases_smbios.py)
                     idval("smbios", r"^version=\d+\.\d+ source=bios-scan "),
                     idval("bios", r'^vendor="SeaBIOS" ')]),
        Case("iso-ovmf", media="iso-uefi", append=None, machine="q35", timeout=480,
             checks=[idval("boot", "^GRUB UEFI$"), idval("firmware", "^UEFI systab=0x[0-9a-f]+"),
                     online(2), boot_phases(),
                     # SMBIOS from the EFI configuration table (tests/qemu/cases_smbios.py)
                     idval("smbios", r"^version=\d+\.\d+ source=efi-smbios3? "),
                     idval("bios", r'^vendor="EFI Development Kit II / OVMF" '),
                     idval("system", r'^vendor="QEMU" product="Standard PC \(Q35 \+ ICH9, 2009\)"')]),
        Case("usb-seabios", media="usb-bios", append=None, timeout=420,
             checks=[idval("boot", "^GRUB BIOS$")]),
        Case("bad-cmdline", append="bogus=1 tests=boot,nosuch,fault.nocase iters=abc console=ttyS9 quick",
             expect="config-error",
             checks=[has(r"^# error: cmdline: unknown option 'bogus=1' \(valid: "),
                     has(r"^# error: cmdline: tests=: unknown suite 'nosuch' \(valid: .*\bboot\b"),
                     has(r"^# error: cmdline: tests=: unknown case 'fault\.nocase' \(valid in fault: "),
                     has(r"^# error: cmdline: iters='abc' is not valid"),
                     has(r"^# error: cmdline: console=ttyS9: valid devices are"),
                     result_is("boot", "ok")]),
        Case("absent-uart", append="console=ttyS1 tests=boot quick",
             checks=[has(r"^# error: console: no UART detected at io 0x2f8; falling back to ttyS0")]),
        Case("fault-recovery", smp="2",
             append="tests=fault.unexpected,fault.unexpected_ap,fault.unexpected_irq,fault.timeout,fault.hang_ap,fault.ud,boot,apic quick",
             expect="fail",
             checks=[result_is("unexpected", "not ok"), result_is("unexpected_ap", "not ok"),
                     result_is("hang_ap", "not ok"), result_is("ud", "ok"), result_is("boot", "ok"),
                     has(r"not ok \d+ timeout # TIMEOUT budget of 500 ms exceeded"),
                     has(r"# EXCEPTION #PF \(vector 14, page fault\) error=0x2 .* on cpu 0 .*during fault\.unexpected"),
                     has(r"# EXCEPTION #PF .* on cpu 1 .*during fault\.unexpected_ap"),
                     has(r"hang_ap # cpu 1 hung on purpose .* aborted by NMI"),
                     result_is("unexpected_irq", "not ok"),
                     has(r"# EXCEPTION #PF .* on cpu 0 .*during fault\.unexpected_irq"),
                     result_is("self_ipi", "ok"), result_is("apic", "ok"),
                     # the runner-owned cleanup ran after a fault and after an overrun
                     has(r"# deferred: t_defer action ran after fault\.unexpected ended"),
                     has(r"# deferred: t_defer action ran after fault\.timeout ended"),
                     has(r"^ringlab: \d+ passed, 5 failed, 0 skipped$")]),
        # --- SMP and APIC ---
        Case("smp2", smp="2", append="tests=smp,apic,ipi,wrmsr_order quick",
             checks=[online(2), idval("apic", "^" + apic + "$"),
                     # ipi_cost: the one-way latency, the ICR write and the mesh, both fences
                     has(r"^# answer ipi_cost: One-way IPI, ICR write to handler: p50 \d+ cycles \(\d+ ns\) .*; "
                         r"ICR write alone \(.*\), p50 cycles: nofence \d+, mfence_lfence \d+: n=\d+; "
                         r"Mesh of 1 pair, IPI/s: \w+ nofence \d+, \w+ mfence_lfence \d+")]),
        Case("smp8", smp="8", append="tests=smp,apic,ipi,wrmsr_order,tsc quick", timeout=120,
             checks=[online(8), metric("apic.fixed_all.delivered", r"value=140 unit=count rounds=20 targets=7"),
                     metric("wrmsr_order.stale_reads.late_control", r"value=(\d+) unit=count n=\1 lost=0 ")]),
        Case("smp288-x2apic", smp="288", machine="q35",
             extra=["-device", "intel-iommu,intremap=on,eim=on"], media="kernel",
             append="tests=smp,apic quick", timeout=180, mem="2G",
             checks=[online(288), idval("apic", "^x2apic$"),
                     has(r"# apic: firmware handed over in x2APIC mode"),
                     metric("smp.start_latency.latency", r"n=287\b")],
             needs="x2apic-tcg"),
        Case("xapic-forced", smp="4", append="apic=xapic tests=smp,apic,ipi,fault quick",
             checks=[online(4), idval("apic", "^xapic$"),
                     # the xAPIC mesh, with and without the fence, in the answer
                     has(r"^# answer ipi_cost: .*ICR write alone \(xapic MMIO \+ wait for idle\), p50 cycles: nofence \d+, mfence_lfence \d+: n=\d+; "
                         r"Mesh of 1 pair, IPI/s: xapic nofence \d+, xapic mfence_lfence \d+ \(x2apic not measured\)")]),
        Case("cpus-limit", smp="4", append="cpus=2 tests=smp quick",
             checks=[online(2), idval("cpus", r"skipped=2\b")]),
        Case("nosmp", smp="4", append="nosmp tests=smp,boot quick",
             checks=[online(1), has(r"^# smp: nosmp: not starting application processors")]),
        Case("ap-nostart-sim", smp="4", append="simulate=ap-nostart ap_timeout=200 tests=smp,apic quick",
             expect="fail",
             checks=[online(3), idval("cpus", r"started=2 failed=1"),
                     has(r"^# error: smp: APIC ID 1 \(ACPI UID \d+\) did not start within 200 ms: got as far as never identified itself .* after 0 SIPI\(s\); continuing without it"),
                     result_is("online", "not ok"), result_is("fixed_all", "ok"),
                     result_is("apic_ids", "ok")]),
        # A late AP: its SIPI is held back until the BSP has
        # given it up; it must park when it arrives, be named in a
        # warning, and the run goes on without it (smp.online fails).
        Case("ap-late-sim", smp="4", append="simulate=ap-late ap_timeout=200 tests=smp,apic quick",
             expect="fail",
             checks=[online(3), idval("cpus", r"started=2 failed=1"),
                     has(r"^# error: smp: APIC ID 1 \(ACPI UID \d+\) did not start within 200 ms: got as far as never identified itself .* after 0 SIPI\(s\); continuing without it"),
                     has(r"^# smp: simulate=ap-late: APIC ID 1 given up with its SIPI held back; sending it now"),
                     has(r"^# warning: smp: APIC ID 1 arrived after it was given up; parked it \(it stays out\)"),
                     has(r"^    # 1 CPU\(s\) arrived after they were given up and were parked"),
                     lacks(r"did not arrive within", "the late AP arrived"),
                     result_is("online", "not ok"), result_is("fixed_all", "ok"),
                     result_is("apic_ids", "ok")]),
        Case("ap-late-sim-serial", smp="4",
             append="simulate=ap-late smpboot=serial ap_timeout=200 tests=smp,apic quick",
             expect="fail",
             checks=[online(3),
                     has(r"^# warning: smp: APIC ID 1 arrived after it was given up; parked it \(it stays out\)"),
                     lacks(r"did not arrive within", "the late AP arrived"),
                     result_is("online", "not ok"), result_is("fixed_all", "ok")]),
        Case("maxcpus", smp="4,maxcpus=8", append="tests=smp,apic quick",
             checks=[online(4), idval("cpus", r"madt_listed=8 madt_enabled=4 started=3 failed=0")]),
        Case("x2apic-fallback-sim", smp="4", append="simulate=x2apic-nostick tests=smp,apic,ipi,fault quick",
             checks=[online(4), idval("apic", "^xapic$"),
                     has(r"^# warning: apic: x2APIC enable did not take effect .*simulate=x2apic-nostick.*falling back to xAPIC")],
             needs="x2apic-tcg"),
        # --- timers and TSC ---
        Case("tscdeadline-fallback-tcg", smp="2", append="tests=tscdeadline,tsc,rdtsc,tsc_order quick",
             timeout=120,
             checks=[has(r"ok \d+ \w+ # SKIP CPU lacks TSC-deadline"),
                     metric("tscdeadline.oneshot_latency.hlt"),
                     # the answer names the missing mode and labels what it gives instead
                     has(r"^# answer tscdeadline: TSC-deadline not measured: no TSC-deadline mode \(CPU lacks TSC-deadline .*\)\. "
                         r"Measured instead, the LAPIC one-shot timer \(not TSC-deadline\): one-shot interrupts arrive late by p50 \d+ ns"),
                     # the planted step is scaled to the floor and caught; each read's cost
                     metric("tsc_order.control.planted", r"detected=yes floor_x=\d+ checks=\d+"),
                     has(r"^# answer rdtsc_order: Read cost p50 in cycles \(TSC [\d.]+ GHz\): rdtsc \d+, lfence_rdtsc \d+, .*"
                         r"Planted \d+-cycle step \(\d+ ns; floor \d+ cycles\): seen \d+ of \d+;")]),
        # --- AP bring-up under cold-xAPIC firmware, identity and aliasing ---
        # qboot on q35 leaves every AP in xAPIC mode, where a start for APIC
        # ID k also reaches k+256 (and one for an ID ending in 0xff reaches
        # all): the parallel start must bring all 288 up, and serial mode
        # must report every aliased pair.
        Case("qboot-q35-smp288", smp="288", machine="q35", mem="2G", timeout=180,
             extra=["-bios", QBOOT, "-device", "intel-iommu,intremap=on,eim=on"],
             append="tests=smp,apic quick",
             checks=[online(288), idval("apic", "^x2apic$"),
                     has(r"^# warning: smp: firmware handed over in xAPIC mode, but the MADT has 33 CPU\(s\) with APIC IDs above 254"),
                     lacks(r"^# error:"), result_is("online", "ok"), result_is("apic_ids", "ok"),
                     metric("smp.start_latency.latency", r"n=287\b.*start=parallel")],
             needs="x2apic-tcg"),
        Case("qboot-q35-smp288-serial", smp="288", machine="q35", mem="2G", timeout=180,
             extra=["-bios", QBOOT, "-device", "intel-iommu,intremap=on,eim=on"],
             append="smpboot=serial tests=smp,apic quick", expect="fail",
             checks=[online(288),
                     has(r"^# error: smp: APIC IDs 1 and 257 answered one start \(INIT/SIPI for APIC ID 1\): firmware left IDs above 255 in xAPIC mode"),
                     has(r"^# error: smp: APIC IDs 31 and 287 answered one start"),
                     # 255's start reaching 256 through the xAPIC broadcast
                     # address was missing in 1 of ~10 loaded TCG runs (a
                     # timing race in the emulator), so it is not required;
                     # the 31 k/k+256 pairs always are.
                     has(r"not ok \d+ online # 3[12] CPU\(s\) answered a start not meant for them"),
                     result_is("apic_ids", "ok"), metric("smp.start_latency.latency", r"n=287\b.*start=serial")],
             needs="x2apic-tcg"),
        Case("qboot-q35-smp64", smp="64", machine="q35", mem="1G", timeout=120,
             extra=["-bios", QBOOT], append="tests=smp,apic quick",
             checks=[online(64), lacks(r"^# error:"), lacks(r"^# warning: smp:"),
                     result_is("online", "ok"), metric("smp.start_latency.latency", r"n=63\b")]),
        Case("ap-alias-sim", smp="4", append="simulate=ap-alias ap_timeout=200 tests=smp,apic quick",
             expect="fail",
             checks=[online(3), idval("cpus", r"started=2 failed=1"),
                     has(r"^# error: smp: APIC ID 1 answered twice: a second CPU \(CPUID says APIC ID 2\) identified itself as 1 and found the slot claimed; parked it \[simulate=ap-alias\]"),
                     has(r"^# error: smp: APIC ID 2 \(ACPI UID \d+\) did not start within 200 ms: got as far as never identified itself"),
                     has(r"not ok \d+ online # 1 CPU\(s\) answered a start not meant for them or claimed a taken slot"),
                     result_is("apic_ids", "ok"), result_is("fixed_all", "ok")]),
        Case("ap-alias-sim-serial", smp="4",
             append="simulate=ap-alias smpboot=serial ap_timeout=200 tests=smp,apic quick",
             expect="fail",
             checks=[online(3),
                     has(r"^# error: smp: APIC IDs 1 and 3 answered one start \(INIT/SIPI for APIC ID 1\): \[simulate=ap-alias\]; parked APIC ID 3 until its own start"),
                     has(r"^# error: smp: APIC ID 1 answered twice: a second CPU \(CPUID says APIC ID 2\)"),
                     has(r"not ok \d+ online # \d+ CPU\(s\) answered a start not meant for them"),
                     result_is("apic_ids", "ok"), metric("smp.start_latency.latency", r"start=serial")]),
        # --- log format and network boot ---
        Case("panic-in-case", append="tests=boot,fault.panic quick", expect="panic",
             checks=[has(r"^    not ok 1 panic # PANIC requested by tests=fault\.panic\n"
                         r"    # result: fault\.panic panic\n"
                         r"not ok 2 fault # PANIC requested by tests=fault\.panic\n"
                         r"ringlab: PANIC: requested by tests=fault\.panic\n# exit: status=panic",
                         "case and suite closed with # PANIC before the PANIC line"),
                     result_is("boot", "ok")]),
        Case("config-error-only", append="tests=nosuch quick", expect="config-error",
             checks=[has(r"^1\.\.1$", "plan counts the config suite (not 1..0)"),
                     has(r"^    not ok 1 cmdline # 1 command-line error\(s\)"),
                     has(r"^not ok 1 config # configuration error$"),
                     has(r"^ringlab: 0 passed, 1 failed, 0 skipped$")]),
        # a bad tests= list is a config error that runs no suite: never
        # "run everything", never a pass on zero cases
        Case("tests-empty-list", smp="1", append="tests=, quick", expect="config-error",
             checks=[has(r"^# error: cmdline: tests=,: an empty name"),
                     has(r"^1\.\.1$", "only the config suite"),
                     has(r"^ringlab: 0 passed, 1 failed, 0 skipped$")]),
        Case("tests-bad-name", smp="1", append="tests=TLB quick", expect="config-error",
             checks=[has(r"^# error: cmdline: tests=TLB: names may contain only"),
                     has(r"^1\.\.1$", "only the config suite"),
                     has(r"^ringlab: 0 passed, 1 failed, 0 skipped$")]),
        Case("tests-bad-separator", smp="1", append="tests=boot;tlb quick", expect="config-error",
             checks=[has(r"^1\.\.1$", "only the config suite"),
                     has(r"^ringlab: 0 passed, 1 failed, 0 skipped$")]),
        Case("tests-nothing-runs", smp="1", append="tests=boot skip=boot quick", expect="config-error",
             checks=[has(r"^# error: cmdline: no case selected: tests=boot with skip=boot names no case that runs"),
                     has(r"^ringlab: 0 passed, 1 failed, 0 skipped$")]),
        # a CPU without long mode: the 32-bit entry prints a complete log
        # (start, panic, exit, integrity) and leaves through isa-debug-exit
        Case("no-long-mode", smp="1", append="quick", expect="panic", timeout=30,
             extra=["-cpu", "qemu32"],
             checks=[has(r"^ringlab: PANIC: this CPU does not support 64-bit long mode$"),
                     has(r"^# exit: status=panic code=3$")]),
        # a port named twice is one console: every line once, a pass
        Case("console-doubled", smp="1", append="console=ttyS0 console=ttyS0 tests=boot quick",
             checks=[idval("console", r"^ttyS0\(0x3f8\)@115200$"), lacks(r"^KTAP version 1\nKTAP version 1")]),
        Case("ipxe-net", media="net", append=None, timeout=120, needs="ipxe",
             extra=["-netdev", "user,id=n0,tftp=%s,bootfile=boot.ipxe" % ipxe_tftp_dir(),
                    "-device", "e1000,netdev=n0,romfile=" + IPXE_ROM, "-boot", "n"],
             smp="2",
             # iPXE's multiboot1 memory map lists RAM only, so the ACPI
             # tables lie in what looks like a hole; phys_view_fw() reads
             # them there (docs/booting.md, "Network boot (iPXE)") and the CPUs come from
             # the MADT.  SeaBIOS's MP table lists one CPU here, so a
             # fallback to it would show as online=1.
             checks=[idval("boot", r"^multiboot1 \(iPXE "), result_is("cmdline_roundtrip", "ok"),
                     idval("cmdline", r"tests=boot,cpu,smp quick"),
                     has(RAM_ONLY_DIAG), lacks(r"header not readable"),
                     lacks(r"^# smp: no usable MADT"), has(r"^# acpi: rsdp .*, madt\b"),
                     online(2), idval("cpus", r"\bmadt_listed=2 madt_enabled=2 started=1\b"),
                     result_is("online", "ok"), lacks(r"^# error:")]),
        # SPCR names COM2 on a machine that has only COM2: the log must
        # appear there, whole; without the table nothing does (control).
        # Only COM2: the console's own fallback already picked it,
        # and the SPCR table must agree rather than add a second copy.
        Com2OnlyCase("spcr-com2-only", append="tests=boot quick", extra=["-acpitable", "file=" + spcr_table()],
                     checks=[has(r"^# console: ttyS1 \(io 0x2f8\) already in use \(the first legacy UART that answered\); the ACPI SPCR table names the same port"),
                             idval("console", r"^ttyS1\(0x2f8\)@115200")]),
        # COM1 and COM2, SPCR naming COM2 (a BMC's serial-over-LAN port):
        # COM2 is added and gets the whole log, replayed from its start.
        Case("spcr-com1-com2", append="tests=boot quick",
             extra=["-acpitable", "file=" + spcr_table(),
                    "-chardev", "file,id=com2,path=" + os.path.join(LOGDIR, "spcr-com1-com2.com2"),
                    "-device", "isa-serial,chardev=com2,iobase=0x2f8,irq=3"],
             checks=[has(r"^# console: added ttyS1 \(io 0x2f8, 115200 baud\) named by the ACPI SPCR table .*besides the default ttyS0"),
                     idval("console", r"ttyS1\(0x2f8\)@115200,spcr"),
                     ("COM2 got the whole log (logcheck passes on it)",
                      lambda log: subprocess.run([LOGCHECK, "--expect-status", "pass",
                                                  os.path.join(LOGDIR, "spcr-com1-com2.com2")],
                                                 capture_output=True).returncode == 0)]),
        Case("spcr-absent-control", append="tests=boot quick",
             extra=["-chardev", "file,id=com2,path=" + os.path.join(LOGDIR, "spcr-absent-control.com2"),
                    "-device", "isa-serial,chardev=com2,iobase=0x2f8,irq=3"],
             checks=[has(r"^# console: ttyS0 \(io 0x3f8\) by default; no ACPI SPCR table$"),
                     ("nothing on COM2 without an SPCR table naming it",
                      lambda log: os.path.getsize(os.path.join(LOGDIR, "spcr-absent-control.com2")) == 0)]),
        # --- the complete default run, as `make run` does it ---
        Case("full-quick-smp4", smp="4", append="quick", timeout=180, checks=[online(4)]),
    ]
    # QEMU 7.2's TCG has no x2APIC: -cpu max does not even advertise it
    # (and refuses +x2apic), so ringlab must take the xAPIC path and pass.
    c.append(Case("qemu72-xapic", smp="4", append="tests=smp,apic,ipi,fault quick",
                  qemu=QEMU72 or None, needs="qemu72",
                  checks=[online(4), idval("apic", "^xapic$"),
                          has(r"# mode xapic \(boot mode xapic\); CPUID x2APIC no")]))
    # More cases, one module per theme: tests/qemu/cases_<theme>.py, each
    # with cases(ctx) -> [Case...]; ctx carries run.py's helpers (the fault
    # matrix is in cases_robustness.py and cases_mbforge.py, the screendump
    # cases in cases_screen.py, TCG measurement suites in cases_measure.py,
    # KVM in cases_kvm.py).
    ctx = sys.modules[__name__]
    for mod in sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases_*.py"))):
        spec = importlib.util.spec_from_file_location(os.path.basename(mod)[:-3], mod)
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        c += m.cases(ctx)
    if args.only:
        want = set(args.only.split(","))
        unknown = want - {x.name for x in c}
        if unknown:
            sys.exit("run.py: unknown case %s (--list lists them)" % ", ".join(sorted(unknown)))
        c = [x for x in c if x.name in want]
    return c, {"x2apic-tcg": tcg_x2apic, "kvm": kvm_usable(), "qemu72": bool(QEMU72),
               "ipxe": os.path.exists(IPXE_ROM)}


def run_case(case):
    os.makedirs(LOGDIR, exist_ok=True)
    log = os.path.join(LOGDIR, case.name + ".log")
    if os.path.exists(log):
        os.unlink(log)
    cmd = case.command(log)
    t0 = time.time()
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=case.timeout)
        rc, out = p.returncode, p.stdout.decode("latin-1")
    except subprocess.TimeoutExpired as e:
        rc, out = None, (e.output or b"").decode("latin-1")
    dt = time.time() - t0
    try:
        text = open(log, "rb").read().decode("latin-1").replace("\r", "")
    except OSError:
        text = ""
    with open(log + ".cmd", "w") as f:
        f.write(" ".join(cmd) + "\n" + out)
    if rc is None:
        return ("FAIL", case.name, "hard timeout after %ds (QEMU killed); log %s" % (case.timeout, log), dt)
    if case.accel == "kvm" and ("failed to initialize kvm" in out.lower() or "Could not access KVM" in out):
        return ("SKIP", case.name, "KVM unusable: " + out.strip().splitlines()[-1], dt)
    if rc < 0:
        return ("FAIL", case.name, "QEMU died on signal %d: %s; log %s" % (-rc, out.strip()[-300:], log), dt)
    if getattr(case, "no_log", False):  # no serial port: the exit status must still be right
        want = EXIT_CODES[case.expect] * 2 + 1
        if rc != want:
            return ("FAIL", case.name, "QEMU exit status %d without a serial port, expected %d" % (rc, want), dt)
        return ("PASS", case.name, "exit status %d without a serial port" % rc, dt)
    want = EXIT_CODES[case.expect]
    # Every run that reaches its summary ends with the answers block
    # (docs/log-format.md "Answers"); a panic does not get there.
    req = ["--require-answers"] if case.expect != "panic" else []
    lc = subprocess.run([LOGCHECK, "--expect-status", case.expect, "--qemu-exit", str(rc)] + req + [log],
                        capture_output=True, text=True)
    problems = []
    if rc != want * 2 + 1:
        problems.append("QEMU exit status %d, expected %d (status %s)" % (rc, want * 2 + 1, case.expect))
    if lc.returncode != 0:
        problems.append("logcheck: " + " | ".join(lc.stderr.strip().splitlines()[:4]))
    for desc, fn in case.checks:
        if not fn(text):
            problems.append("check failed: " + desc)
    # Metric names are unique within a run (docs/log-format.md).
    seen = {}
    for n in re.findall(r"^\s*# metric (\S+)", text, re.M):
        seen[n] = seen.get(n, 0) + 1
    dups = sorted(n for n, k in seen.items() if k > 1)
    if dups:
        problems.append("metric names not unique: " + ", ".join(dups[:4]))
    if problems:
        return ("FAIL", case.name, "; ".join(problems) + "; log " + log, dt)
    return ("PASS", case.name, lc.stdout.strip(), dt)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", help="comma-separated case names")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    if not shutil.which(QEMU):
        print("SKIP qemu: %s not installed" % QEMU)
        print("qemu: 0 passed, 0 failed, 1 skipped")
        return 0
    todo, have = cases(args)
    if args.list:
        for c in todo:
            print(c.name)
        return 0
    results = []
    runnable = []
    for c in todo:
        if c.needs and not have.get(c.needs):
            results.append(("SKIP", c.name, {"kvm": "/dev/kvm not usable",
                                             "x2apic-tcg": "this QEMU's TCG has no x2APIC",
                                             "qemu72": "no QEMU 7.2 (set QEMU72=/path/to/qemu-system-x86_64)",
                                             "ipxe": "no %s (Debian: ipxe-qemu)" % IPXE_ROM}[c.needs], 0))
        else:
            runnable.append(c)
    # Longest first, so the slow boots overlap the short ones.
    runnable.sort(key=lambda c: -c.timeout)
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for r in ex.map(run_case, runnable):
            results.append(r)
            status, name, detail, dt = r
            print("%s %s (%.1fs): %s" % (status, name, dt, detail) if status != "PASS"
                  else "PASS %s (%.1fs)" % (name, dt), flush=True)
    for status, name, detail, dt in results:
        if status == "SKIP":
            print("SKIP %s: %s" % (name, detail))
    n = {s: sum(1 for r in results if r[0] == s) for s in ("PASS", "FAIL", "SKIP")}
    print("qemu: %d passed, %d failed, %d skipped" % (n["PASS"], n["FAIL"], n["SKIP"]))
    return 1 if n["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
