#!/usr/bin/env python3
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


# ----------------------------------------------------------------- cases ---

# --- robustness helpers ---

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


def hpet_table(base):
    """An HPET table with the given base (QEMU fixes the
    checksum when it installs it with -acpitable)."""
    t = bytearray.fromhex("4850455438000000017e524c46555a5a52494e474c41422001000000524c41420100000001a2868000400000000000000000008000800000")
    t[44:52] = base.to_bytes(8, "little")
    d = os.path.join(BUILD, "fault-data")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "hpet-%x.bin" % base)
    with open(path, "wb") as f:
        f.write(bytes(t))
    return path


def madt_table():
    """A second MADT (one CPU, then an entry of length 1) for -acpitable:
    two CPU lists are a firmware error that smp.online must report."""
    body = bytes.fromhex("0000e0fe01000000" "0008000001000000" "0001000000000000")
    hdr = b"APIC" + (36 + len(body)).to_bytes(4, "little") + bytes([3, 0]) + b"RLFUZZRINGLAB " + \
        (1).to_bytes(4, "little") + b"RLAB" + (1).to_bytes(4, "little")
    d = os.path.join(BUILD, "fault-data")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "madt-dup.bin")
    with open(path, "wb") as f:
        f.write(hdr + body)
    return path


def fb_bad_case(name, mode, addr, length, why, **kw):
    """A forged framebuffer tag (tests/qemu/mbforge) that fw_addresses_check()
    must refuse: one '# error: mbi: framebuffer ... left out' line, the
    console never started on it, the boot suite no longer sees it, and the
    run passes.  A dropped optional device is an error line, not a failed
    case (kernel/main.c: the verdict counts failed cases and configuration
    errors; fw_addresses_check()'s count does not enter it), as for the
    HPET cases."""
    w, h = (1024, 1048576) if mode == "huge" else (1024, 768)
    return Case(name, media="mbforge", append="fb=%s -- tests=boot quick" % mode,
                checks=[has(r"^mbforge: kernel from module .*; fb=%s: framebuffer tag %s %dx%dx32 pitch 4096$"
                            % (mode, addr, w, h), "mbforge forged the fb=%s tag" % mode),
                        has(r"^# error: mbi: framebuffer %s\+%s \(%dx%d pitch 4096\) %s; left out$"
                            % (addr, length, w, h, re.escape(why))),
                        lacks(r"^# error: (?!mbi: framebuffer )", "no other error line"),
                        lacks(r"^# warning:", "no warning line (nothing tried to map or draw it)"),
                        lacks(r"^# console: framebuffer", "no framebuffer console"),
                        lacks(r"# framebuffer at 0x", "boot.mbi no longer sees a framebuffer"),
                        idval("boot", r"^multiboot2 \(mbforge\)$"), idval("loader", "^mbforge$"),
                        idval("cmdline", "^tests=boot quick$"), result_is("boot", "ok"),
                        result_is("mbi", "ok")], **kw)


def mbi_bad_case(name, forge, errors, results, checks=(), **kw):
    """Bad multiboot2 information forged by tests/qemu/mbforge (`forge`:
    its mmap=/meminfo=/tags= options).  The log must hold exactly the
    `errors` (regexes, the text after '# error: ', in order), the boot
    suite's cases must end as `results` says, and the run ends with its
    summary.  Every case here fails (boot.mbi counts the parser's error
    lines, boot.mmap_sane the map's faults): bad boot information is a
    finding about the machine, not a configuration error."""
    rx_errors = re.compile(r"^# error: (.*)$", re.M)
    want = [re.compile(e) for e in errors]

    def errors_are(log):
        got = rx_errors.findall(log)
        return len(got) == len(want) and all(w.match(g) for w, g in zip(want, got))
    return Case(name, media="mbforge", append="%s -- tests=boot quick" % forge, expect="fail",
                checks=[has(r"^mbforge: multiboot2 faults: .*" + ".*".join(re.escape(f) + r"\b" for f in forge.split()),
                            "mbforge forged %s" % forge),
                        ("the error lines are exactly: " + " | ".join(errors), errors_are),
                        lacks(r"^# warning:", "no warning line"),
                        idval("boot", r"^multiboot2 \(mbforge\)$"), idval("loader", "^mbforge$"),
                        idval("cmdline", "^tests=boot quick$"),
                        has(r"^ringlab: \d+ passed, \d+ failed, 0 skipped$", "the run reached its summary")] +
                       [result_is(c, r) for c, r in results] + list(checks), **kw)


def fb_good_tag_used():
    rx_forged = re.compile(r"^mbforge: .*; fb=good: framebuffer tag (0x[0-9a-f]+) 1024x768x32 pitch 4096 "
                           r"\(bochs VGA BAR0", re.M)
    rx_con = re.compile(r"^# console: framebuffer 1024x768 32bpp at (0x[0-9a-f]+) \(VBE, multiboot2 tag\), "
                        r"128x48 text cells$", re.M)

    def check(log):
        a, b = rx_forged.search(log), rx_con.search(log)
        return bool(a and b) and a.group(1) == b.group(1)
    return ("the framebuffer console started on the forged tag's address (the bochs VGA BAR)", check)


# --- screen console helpers ---

class ScreenCase(Case):
    """An ISO boot under OVMF through tests/qemu/screen.py, which picks a
    GRUB entry with the keyboard, takes a screendump (build/test-logs/
    <case>.ppm) once the log is complete and quits QEMU."""

    def __init__(self, name, keys, media="iso-uefi", **kw):
        kw.setdefault("timeout", 300)
        Case.__init__(self, name, media=media, append=None,
                      machine="q35" if media == "iso-uefi" else None, **kw)
        self.keys = keys

    def command(self, log):
        return [sys.executable, os.path.join(ROOT, "tests", "qemu", "screen.py"), "--log", log,
                "--ppm", self.ppm(), "--keys", self.keys, "--timeout", str(self.timeout - 20),
                "--"] + Case.command(self, log)

    def ppm(self):
        return os.path.join(LOGDIR, self.name + ".ppm")


def screen_rows(name):
    """The screendump of case `name`, decoded (or None)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import screen
    try:
        return screen.decode(os.path.join(LOGDIR, name + ".ppm"))
    except (OSError, ValueError, IndexError):
        return None


def screen_status(name):
    def check(log):
        rows = screen_rows(name)
        ver = re.search(r"^# id\.version: (.*)$", log, re.M)
        summ = re.search(r"^ringlab: (\d+ passed, \d+ failed, \d+ skipped)$", log, re.M)
        return bool(rows and ver and summ) and rows[0].startswith(
            "ringlab %s | " % ver.group(1)) and rows[0].endswith("| done: " + summ.group(1))
    return ("screen row 0 is the status line: version, then 'done:' and the log's summary", check)


def screen_log_tail(name):
    def check(log):
        rows = screen_rows(name)
        if not rows:
            return False
        text = [r for r in rows[1:]]
        while text and not text[-1]:
            text.pop()
        if not text:
            return False
        lines = log[log.rfind("KTAP version 1\n"):].rstrip("\n").split("\n")
        width = len(rows[0]) if rows[0] else 0
        # the last screen rows are the last log lines, clipped at the edge
        n = min(len(text), 8)
        cols = max(width, max(len(t) for t in text))
        want = [ln.replace("\t", " ")[:cols] for ln in lines[-n:]]
        return n >= 4 and text[-n:] == [w.rstrip(" ") for w in want]
    return ("the screen's last rows are the log's last lines (answers, summary, exit, integrity)", check)


def screen_answers(name):
    """The screen ends showing the answers block (clipped rows) and the
    summary, not the last metric lines."""
    def check(log):
        rows = screen_rows(name)
        if not rows:
            return False
        text = [r for r in rows if r.strip()]
        return any(r.startswith("# answer fence_cost: ") for r in text[-8:]) and \
            any(r.startswith("ringlab: ") for r in text[-4:])
    return ("the screen ends with the answers block and the summary", check)


def screen_blank(name):
    def check(log):
        rows = screen_rows(name)
        return rows is not None and not any(re.search(r"[A-Za-z0-9]{3}", r) for r in rows)
    return ("nothing in the kernel's font on screen", check)


def up_hang(*extra):
    """Checks of a one-CPU fault.hang_irqoff run: the periodic I/O APIC NMI
    (kernel/nmi_watch.c) stopped the case, silently for the other ticks."""
    return [has(r"not ok \d+ hang_irqoff # TIMEOUT budget of 500 ms exceeded with interrupts off; stopped by the periodic I/O APIC NMI"),
            lacks(r"unexpected NMI")] + list(extra)


def cases(args):
    v = qemu_version(QEMU) or (0, 0)
    tcg_x2apic = v >= (8, 0)  # QEMU 7.2's TCG has no x2APIC (docs/platform-notes.md)
    apic = "x2apic" if tcg_x2apic else "xapic"
    c = [
        # --- foundation ---
        Case("elf-tcg-smp1", smp="1", checks=[online(1), idval("boot", "^QEMU -kernel$"),
                                              idval("cmdline", r"\bquick\b"),
                                              # control for ipxe-net: this map has reserved entries
                                              lacks(RAM_ONLY_DIAG)]),
        Case("elf-tcg-smp4", smp="4", mem="5G",
             checks=[online(4), idval("ram", r"highest=0x1[0-9a-f]{8}\b"),
                     metric("boot.identity_map.checked")]),
        Case("iso-seabios", media="iso-bios", append=None, timeout=420,
             checks=[idval("boot", "^GRUB BIOS$"), idval("firmware", "^BIOS$"), online(2),
                     lacks(RAM_ONLY_DIAG),
                     # SMBIOS from the 0xF0000 scan (tests/qemu/cases_smbios.py)
                     idval("smbios", r"^version=\d+\.\d+ source=bios-scan "),
                     idval("bios", r'^vendor="SeaBIOS" ')]),
        Case("iso-ovmf", media="iso-uefi", append=None, machine="q35", timeout=480,
             checks=[idval("boot", "^GRUB UEFI$"), idval("firmware", "^UEFI systab=0x[0-9a-f]+"),
                     online(2),
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
             checks=[online(2), idval("apic", "^" + apic + "$")]),
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
             checks=[online(4), idval("apic", "^xapic$")]),
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
                     metric("tscdeadline.oneshot_latency.hlt")]),
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
        # --- robustness: fault matrix ---
        Case("hpet-noncanonical", machine="pc,hpet=off", append="tests=boot,tsc.calibration quick",
             extra=["-acpitable", "file=" + hpet_table(0x8000000000000000)],
             checks=[has(r"^# error: acpi: HPET base 0x8000000000000000 is not a canonical lower-half address .*HPET left out"),
                     has(r"^# tsc: hpet +unavailable"), result_is("calibration", "ok")]),
        Case("hpet-in-kernel", machine="pc,hpet=off", append="tests=boot quick",
             extra=["-acpitable", "file=" + hpet_table(0x100000)],
             checks=[has(r"^# error: acpi: HPET base 0x100000 overlaps the kernel image; HPET left out")]),
        Case("hpet-above-maxphyaddr", machine="pc,hpet=off", append="tests=boot quick",
             extra=["-acpitable", "file=" + hpet_table(0x7ff000000000)],
             checks=[has(r"^# error: acpi: HPET base 0x7ff000000000 lies above 2\^MAXPHYADDR")]),
        # A bad multiboot2 framebuffer tag, forged by tests/qemu/mbforge (no
        # real loader under QEMU hands one over): each is refused with one
        # error line before anything maps or draws it; fb-good-control, a
        # valid tag on the bochs VGA's linear framebuffer, is used.
        fb_bad_case("fb-bad-in-kernel", "kernel", "0x100000", "0x300000", "overlaps the kernel image"),
        fb_bad_case("fb-bad-noncanonical", "noncanonical", "0x8000000000000000", "0x300000",
                    "is not a canonical lower-half address (the identity map ends at 2^47)"),
        fb_bad_case("fb-bad-maxphys", "maxphys", "0x7ff000000000", "0x300000", "lies above 2^MAXPHYADDR"),
        # 4 GiB from 0xfd000000 reaches the RAM QEMU puts above 4 GiB (5G: 3 GiB below, 2 above)
        fb_bad_case("fb-bad-huge", "huge", "0xfd000000", "0x100000000",
                    "overlaps RAM (memory-map type 1/3/4)", mem="5G"),
        fb_bad_case("fb-bad-wrap", "wrap", "0xfffffffffffff000", "0x300000", "wraps past 2^64"),
        Case("fb-good-control", media="mbforge", append="fb=good -- tests=boot quick",
             extra=["-vga", "std"],
             checks=[fb_good_tag_used(), lacks(r"^# error:"), lacks(r"^# warning:"),
                     has(r"^    # framebuffer at 0x[0-9a-f]+ 1024x768 bpp 32 pitch 4096 type 1$",
                         "boot.mbi sees the framebuffer"),
                     has(r"^    # framebuffer console at 0x[0-9a-f]+\+0x300000: identity-mapped uncached$",
                         "boot.identity_map checked the framebuffer's map (uncached)"),
                     result_is("identity_map", "ok"),
                     idval("boot", r"^multiboot2 \(mbforge\)$"), idval("cmdline", "^tests=boot quick$"),
                     has(r"^# acpi: rsdp rev \d+ from multiboot2-tag1[45],", "the RSDP came from mbforge's tag"),
                     result_is("boot", "ok"), result_is("mbi", "ok")]),
        # Bad multiboot2 information, forged by tests/qemu/mbforge (QEMU's
        # loader and GRUB only hand over good ones): each fault is named in
        # an error line and the boot suite runs to the end.  Verdict fail
        # for all: boot.mbi fails on the parser's error lines (or a missing
        # map), boot.mmap_sane on a map that contradicts itself.
        # A RAM entry whose end wraps past 2^64: dropped with an error; the
        # rest of the map, the allocator and the identity map are intact.
        mbi_bad_case("mbi-mmap-wrap", "mmap=wrap",
                     [r"mbi: memory map entry base=0xfffffffffffff000 len=0x2000 wraps; dropped$"],
                     [("mbi", "not ok"), ("mmap_sane", "ok"), ("identity_map", "ok"),
                      ("cmdline_roundtrip", "ok")],
                     [lacks(r"^# mmap: 0xfffffffffffff000", "the wrapping entry is not in the map")]),
        # A reserved (type 2) entry over ringlab's whole image, appended
        # after the RAM entry that holds it: reported at boot (kernel/main.c,
        # mm_kernel_claim) as well as by boot.mmap_sane; the allocator keeps
        # out of it (memmap_usable: the non-RAM claim wins) and the kernel,
        # already running there, stays mapped write-back.
        mbi_bad_case("mbi-mmap-overlap-kernel", "mmap=overlap-kernel",
                     [r"mm: the kernel image 0x100000-0x[0-9a-f]+ overlaps the type-2 memory-map entry "
                      r"0x100000-0x[0-9a-f]+: the loader put it on memory the firmware does not give as RAM"],
                     [("mbi", "ok"), ("mmap_sane", "not ok"), ("identity_map", "ok"),
                      ("cmdline_roundtrip", "ok")],
                     [has(r"not ok \d+ mmap_sane # RAM entry overlaps a type-2 entry: 0x100000-0x[0-9a-f]+ and 0x100000-")]),
        # An mmap tag with entry_size 4096 (a multiple of 8, larger than the
        # tag): named as a bad tag, then the basic-meminfo fallback (two RAM
        # ranges, no reserved ones: firmware tables read from holes).
        mbi_bad_case("mbi-mmap-esize-big", "mmap=esize-big",
                     [r"mbi: memory map tag has (\d+) bytes of entries, not a multiple of entry_size 4096; the last \1 ignored$",
                      r"mbi: no memory map; using mem_lower/mem_upper \(639 KiB, \d+ KiB\)$"],
                     [("mbi", "not ok"), ("mmap_sane", "ok"), ("identity_map", "ok")],
                     [has(RAM_ONLY_DIAG), idval("ram", r"regions=2\b")]),
        # total_size ends 16 bytes into the memory-map tag: that tag runs
        # past it, the rest (RSDP tags, end tag) is ignored; basic meminfo
        # came before it, so the fallback map is used; the RSDP comes from
        # the BIOS-area scan instead of the tag.
        mbi_bad_case("mbi-tags-truncated", "tags=truncated",
                     [r"mbi: multiboot2 tag type 6 at offset \d+ has bad size \d+; rest ignored$",
                      r"mbi: multiboot2 info has no end tag within its \d+ bytes$",
                      r"mbi: no memory map; using mem_lower/mem_upper \(639 KiB, \d+ KiB\)$"],
                     [("mbi", "not ok"), ("mmap_sane", "ok"), ("identity_map", "ok")],
                     [lacks(r"^# acpi: rsdp .* from multiboot2-tag", "no RSDP from the cut-off tags")]),
        # No memory map and no basic meminfo: no RAM at all.  The page
        # tables cannot be built (the boot map is kept), no AP trampoline,
        # and the boot suite still runs to the end on the boot CPU.
        mbi_bad_case("mbi-no-memory", "mmap=none meminfo=none",
                     [r"mbi: no memory map and no basic memory information$",
                      r"paging: no memory below 4 GiB for page tables; keeping the boot map$",
                      r"smp: no free RAM page between 0x10000 and 0x9f000 for the AP trampoline$"],
                     [("mbi", "not ok"), ("mmap_sane", "not ok"), ("cmdline_roundtrip", "ok")],
                     [idval("ram", r"^bytes=0 regions=0 "), online(1),
                      has(r"^    not ok \d+ identity_map # page tables were not built at boot",
                          "identity_map names the kept boot map")]),
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
             extra=["-acpitable", "file=" + madt_table()],
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
        # --- TLB ---
        Case("tlb-tcg-smp4", smp="4", append="tests=tlb quick", timeout=180,
             checks=[online(4), result_is("flush_4k", "ok"), result_is("shootdown", "ok"),
                     result_is("cleanup_on_fault", "ok"),
                     metric("tlb.flush_4k.invlpg.1p.1cpu", r"verdict=flushed"),
                     metric("tlb.global.pge_toggle.1p.1cpu", r"verdict=flushed"),
                     metric("tlb.shootdown.ipi_invlpg.1p.4cpu"),
                     metric("tlb.shootdown.ipi_full.64p.4cpu"),
                     metric("tlb.shootdown.ipi_invlpg.64p.4cpu"),
                     metric("tlb.shootdown.remote_stale_control.8p.allcpu"),
                     has(r"ok \d+ invlpgb # SKIP CPU lacks INVLPGB/TLBSYNC \(CPUID\.80000008H:EBX\[3\]\)"),
                     has(r"# summary: IPI shootdown of 1 page")]),
        Case("tlb-timeout-cleanup", smp="2", append="tests=tlb.flush_4k,tlb.timeout_cleanup quick",
             expect="fail", timeout=120,
             checks=[has(r"not ok \d+ timeout_cleanup # TIMEOUT .*test mapping removed, CR3/CR4 restored"),
                     result_is("flush_4k", "ok")]),
        # --- memory suites: clear, litmus, fence ---
        # TCG quick on 4 CPUs: every clear method the CPU model has, both
        # shapes, 1 and 4 CPUs, the checks' negative controls; the litmus
        # forbidden outcomes must stay at 0 (the case fails otherwise);
        # ring-0-only fences measured.  Timing means nothing here.
        Case("mem-tcg-smp4", smp="4", append="tests=clear,litmus,fence quick", timeout=120,
             checks=[online(4),
                     metric("clear.bandwidth.rep_stosb.4KiB.1cpu", r"unit=MB/s .*readback="),
                     metric("clear.bandwidth.movnti.2MiB.4cpu", r"unit=MB/s"),
                     metric("clear.page_bandwidth.movntdq.2MiB.1cpu", r"unit=MB/s"),
                     metric("clear.page_bandwidth.vmovntdq_ymm.2MiB.4cpu", r"unit=MB/s"),
                     has(r"# method clzero not measured: CPU lacks CLZERO \(CPUID\.80000008H:EBX\[0\]\)"),
                     has(r"# negative controls: short clear -> zero check fired; 1-byte overrun -> guard check fired"),
                     has(r"# crossover whole-range 1 CPU: "),
                     result_is("controls", "ok"),
                     metric("litmus.sb.nofence", r"verdict=allowed-control"),
                     metric("litmus.sb.mfence", r"^ value=0 .*verdict=forbidden"),
                     metric("litmus.mp.wb", r"^ value=0 "),
                     metric("litmus.mp_nt.sfence", r"^ value=0 "),
                     metric("litmus.iriw.plain", r"cpus=0,1,2,3"),
                     metric("fence.alone.mov_cr2", r"unit=cycles"),
                     metric("fence.after_stores.iret_self", r"stores=32")]),
        # --- speculation control and PMU ---
        # TCG: no SPEC_CTRL, RTM, MD_CLEAR, IBPB, L1D flush, TSC-deadline or
        # PMU, so those cases skip naming the bit; the BHB loops run (plain
        # code) and the restore controls run on the stand-in MSR.
        Case("spec-pmu-tcg", smp="1", append="tests=spec,pmu quick", timeout=120,
             checks=[lacks(r"^\s*not ok", "no case failed"),
                     has(r"ok \d+ spec_ctrl # SKIP CPU lacks IA32_SPEC_CTRL: CPUID\.7\.0:EDX\[26\]"),
                     has(r"ok \d+ immed_arm # SKIP CPU lacks TSC-deadline \(CPUID\.1:ECX\[24\]\)"),
                     has(r"ok \d+ enumerate # SKIP no usable PMU: "),
                     has(r"# restore: IA32_\w+ \(0x[0-9a-f]+\) <- 0x[0-9a-f]+ after a fault; reads back"),
                     has(r"# restore: IA32_\w+ \(0x[0-9a-f]+\) <- 0x[0-9a-f]+ after a timeout; reads back"),
                     result_is("restore_after_fault", "ok"), result_is("restore_after_timeout", "ok"),
                     metric("spec.bhb_clear.long_12x7", r"inner_iterations=84 env=emulator:qemu-tcg ")]),
        # -cpu host,-arch-capabilities: measures what the nested KVM exposes
        # (here TSC-deadline; SPEC_CTRL/VERW where the host passes them).
        Case("kvm-spec-pmu", smp="1", accel="kvm", append="tests=spec,pmu quick", timeout=240,
             needs="kvm",
             checks=[lacks(r"^\s*not ok", "no case failed"),
                     metric("spec.immed_arm.alone", r"lost=0 env=hypervisor:"),
                     metric("spec.immed_arm.delta_bhb_long", r"env=hypervisor:"),
                     result_is("restore_after_fault", "ok"), result_is("restore_after_timeout", "ok"),
                     # where the hypervisor's IA32_SPEC_CTRL holds values the
                     # restore is shown; where it does not (the software KVM
                     # on this project's AMD build machine reads back 0), the
                     # boot probe took the feature away and the case says so
                     has(r"# restore: IA32_\w+ \(0x[0-9a-f]+\) <- 0x[0-9a-f]+ after a timeout; reads back"
                         r"|ok \d+ spec_ctrl # SKIP IA32_SPEC_CTRL: CPUID\S+ is set but in the boot probe IA32_SPEC_CTRL written 0x[0-9a-f]+ read back")]),
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
        Case("ipxe-net", media="net", append=None, timeout=120, needs="ipxe",
             extra=["-netdev", "user,id=n0,tftp=%s,bootfile=boot.ipxe" % ipxe_tftp_dir(),
                    "-device", "e1000,netdev=n0,romfile=" + IPXE_ROM, "-boot", "n"],
             smp="2",
             # iPXE's multiboot1 memory map lists RAM only, so the ACPI
             # tables lie in what looks like a hole; phys_view_fw() reads
             # them there (README, "Network boot") and the CPUs come from
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
        # --- screen console on the UEFI framebuffer ---
        # OVMF + GRUB, the menu's "screen check" entry (tests=boot quick
        # exit=halt): the screendump, read back cell by cell with the
        # kernel's font, must show the status line and the end of the log;
        # the nofb entry (control) must leave nothing of that font on screen.
        ScreenCase("fbcon-ovmf", keys="end,up,ret",
                   checks=[has(r"^# console: framebuffer \d+x\d+ (?:24|32)bpp at 0x[0-9a-f]+ \(GOP, multiboot2 tag\), \d+x\d+ text cells$"),
                           idval("cmdline", r"^tests=boot quick exit=halt$"),
                           screen_status("fbcon-ovmf"), screen_log_tail("fbcon-ovmf"),
                           screen_answers("fbcon-ovmf")]),
        ScreenCase("fbcon-nofb-control", keys="end,ret",
                   checks=[has(r"^# console: framebuffer \d+x\d+ (?:24|32)bpp at 0x[0-9a-f]+ not used \(nofb\)$"),
                           idval("cmdline", r"^tests=boot quick exit=halt nofb$"),
                           screen_blank("fbcon-nofb-control"),
                           ("fbcon-ovmf's screen checks fail on this screen",
                            lambda log: not screen_status("fbcon-nofb-control")[1](log) and
                            not screen_log_tail("fbcon-nofb-control")[1](log))]),
        # BIOS: GRUB keeps the text screen (iso/grub.cfg), no framebuffer
        # console; the screen shows the VGA text mirror, not the kernel's font.
        ScreenCase("fbcon-seabios-text", keys="end,up,ret", media="iso-bios",
                   checks=[idval("boot", "^GRUB BIOS$"), lacks(r"^# console: framebuffer"),
                           lacks(r"^# warning: console: framebuffer"),
                           idval("cmdline", r"^tests=boot quick exit=halt$"),
                           screen_blank("fbcon-seabios-text")]),
        # --- the complete default run, as `make run` does it ---
        Case("full-quick-smp4", smp="4", append="quick", timeout=180, checks=[online(4)]),
    ]
    # QEMU 7.2's TCG has no x2APIC: -cpu max does not even advertise it
    # (and refuses +x2apic), so ringlab must take the xAPIC path and pass.
    c.append(Case("qemu72-xapic", smp="4", append="tests=smp,apic,ipi,fault quick",
                  qemu=QEMU72 or None, needs="qemu72",
                  checks=[online(4), idval("apic", "^xapic$"),
                          has(r"# mode xapic \(boot mode xapic\); CPUID x2APIC no")]))
    # KVM cases: on the project's machines /dev/kvm is a nested software KVM
    # that runs guest code ~100-400x slower than TCG (docs/platform-notes.md), so
    # keep the profile short and wait with HLT.
    c += [
        # KVM's in-kernel PIT re-injects a tick only after the previous one
        # was acknowledged (EOI), which an NMI never is: with the default
        # policy one NMI arrives, the probe refuses the source and the case
        # skips.  With lost ticks discarded it ticks on.
        Case("kvm-hang-irqoff-up", smp="1", accel="kvm", append="tests=boot,fault.hang_irqoff quick",
             expect="fail", timeout=240, needs="kvm", extra=["-global", "kvm-pit.lost_tick_policy=discard"],
             checks=up_hang(has(r"^# watchdog: no watcher CPU .* I/O APIC 0 pin 2 \(GSI 2\) fed by PIT channel 0"),
                     result_is("boot", "ok"))),
        Case("kvm-hang-irqoff-up-reinject", smp="1", accel="kvm", append="tests=boot,fault.hang_irqoff quick",
             timeout=240, needs="kvm",
             checks=[has(r"^# watchdog: no CPU watches the boot CPU \(no other CPU online\) and no I/O APIC NMI source \(I/O APIC 0 pin 2 \(GSI 2\) programmed for NMI, but 1 NMI\(s\) arrived"),
                     has(r"ok \d+ hang_irqoff # SKIP no NMI watchdog"), lacks(r"unexpected NMI")]),
        Case("kvm-smp2", smp="2", accel="kvm", append="tests=boot,cpu,fault,smp,apic quick", timeout=240,
             needs="kvm", checks=[online(2)]),
        # --- TLB: tiny profile, the nested KVM is slow ---
        Case("kvm-tlb", smp="2", accel="kvm", append="tests=tlb quick iters=4", timeout=300,
             needs="kvm", checks=[online(2), result_is("flush_4k", "ok"), result_is("shootdown", "ok"),
                                  result_is("cleanup_on_fault", "ok"),
                                  metric("tlb.shootdown.ipi_invlpg.1p.2cpu")]),
        # memory suites under the nested KVM: few iterations,
        # it is slow; SIMD state switching (XSETBV) and CPUID exits there
        Case("kvm-mem", smp="2", accel="kvm", append="tests=clear.bandwidth,clear.controls,litmus,fence quick iters=20",
             timeout=240, needs="kvm",
             checks=[online(2), metric("clear.bandwidth.rep_stosb.4KiB.2cpu"),
                     metric("litmus.sb.mfence", r"^ value=0 "), metric("fence.alone.cpuid"),
                     result_is("controls", "ok")]),
        Case("kvm-tscdeadline", smp="2", accel="kvm", append="tests=tscdeadline quick", timeout=240,
             needs="kvm", checks=[metric("tscdeadline.latency.hlt"),
                                  result_is("immediate", "ok"),
                                  lacks(r"SKIP CPU lacks TSC-deadline")]),
    ]
    # More cases, one module per theme: tests/qemu/cases_<theme>.py, each
    # with cases(ctx) -> [Case...]; ctx carries run.py's helpers.
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
