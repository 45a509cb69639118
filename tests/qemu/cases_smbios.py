# SPDX-License-Identifier: GPL-2.0-only
"""SMBIOS machine identity: the `# id.smbios`,
`# id.bios`, `# id.system` and `# id.board` header lines
(arch/x86/smbios.c), from each source the parser knows: the 0xF0000
scan under qboot and SeaBIOS, the multiboot2 SMBIOS tag (forged by
tests/qemu/mbforge), and the values given on QEMU's command line to prove
they come from the table.  The EFI configuration table path is checked
by the iso-ovmf case in run.py.

Fault matrix: a broken entry point in the loader's tag (bad checksum) and
a broken structure (a string index past its strings, planted with
-smbios file=) each give exactly one `# error: smbios: ...` line, and the
run passes otherwise: identity strings are not part of the verdict, as
for the optional devices that fw_addresses_check() drops
(cases_mbforge.py, fb_bad_case)."""
import os
import re
import struct

SEABIOS = "/usr/share/seabios/bios.bin"


def bad_string_type1(ctx):
    """A type 1 structure whose manufacturer is string 5 of 2."""
    s = struct.pack("<BBHBBBB", 1, 0x1b, 0x100, 5, 2, 0, 1) + bytes(0x1b - 8) + b"Lab\0P\0\0"
    path = os.path.join(ctx.BUILD, "smbios-bad-string.bin")
    os.makedirs(ctx.BUILD, exist_ok=True)
    with open(path, "wb") as f:
        f.write(s)
    return path


def one_error(ctx, pattern):
    rx = re.compile(r"^# error: (.*)$", re.M)
    want = re.compile(pattern)

    def check(log):
        got = rx.findall(log)
        return len(got) == 1 and want.match(got[0]) is not None
    return ("exactly one error line, matching /%s/" % pattern, check)


def cases(ctx):
    has, lacks, idval = ctx.has, ctx.lacks, ctx.idval
    passed = has(r"^ringlab: \d+ passed, 0 failed, \d+ skipped$", "the run passed")
    no_error = lacks(r"^# error:", "no error line")
    return [
        # qboot builds SMBIOS 2.8 tables from QEMU's fw_cfg in 0xF0000.
        ctx.Case("smbios-qboot", smp="1", append="tests=boot quick",
                 checks=[idval("smbios", r"^version=2\.\d+ source=bios-scan structures=\d+$"),
                         idval("bios", r'^vendor="qboot" version="[^"]*" date="[0-9/]+"$'),
                         idval("system", r'^vendor="QEMU" product="Standard PC \(i440FX \+ PIIX, 1996\)" serial=""$'),
                         idval("board", r"^none \(no type 2 structure\)$"), no_error, passed]),
        ctx.TweakedCase("smbios-seabios", smp="1", append="tests=boot quick", bios=SEABIOS,
                        checks=[idval("smbios", r"^version=\d+\.\d+ source=bios-scan structures=\d+$"),
                                idval("bios", r'^vendor="SeaBIOS" version="[^"]+" date="04/01/2014"$'),
                                idval("system", r'^vendor="QEMU" product="Standard PC \(i440FX \+ PIIX, 1996\)"'),
                                no_error, passed]),
        # Values from -smbios: they come from the table, not from a guess;
        # a blank and a quote in the serial are kept and escaped.
        ctx.Case("smbios-values", smp="1", append="tests=boot quick",
                 extra=["-smbios", "type=1,manufacturer=Lab,product=X,serial=S123",
                        "-smbios", 'type=2,manufacturer=Board Co,product=B"1\\2'],
                 checks=[idval("system", r'^vendor="Lab" product="X" serial="S123"$'),
                         idval("board", r'^vendor="Board Co" product="B\\"1\\\\2"$'),
                         no_error, passed]),
        # Hostile identity strings: firmware text that reads like protocol
        # lines, a vendor string with terminal escapes.  Every id value goes
        # through one filter ('#' and control bytes print as '?'), so the
        # run stays a pass with no forged result and no ESC byte in the log.
        ctx.Case("id-hostile-strings", smp="1", append="tests=boot quick",
                 extra=["-smbios", "type=1,manufacturer=# integrity: lines=1,"
                        "product=x # result: cpu.identify fail x",
                        "-cpu", "qemu64,vendor=\x1b[31m<i>ABCD"],
                 checks=[idval("system", r'^vendor="\? integrity: lines=1" product="x \? result: cpu\.identify fail x"'),
                         idval("cpu.vendor", r"^\?\[31m<i>ABCD$"),
                         lacks(r"\x1b", "no ESC byte in the log"),
                         lacks(r"^# result: cpu\.identify", "no forged result line"),
                         passed]),
        # The multiboot2 SMBIOS tag (13): mbforge copies the firmware's
        # entry point into it, and the tag is the source.
        ctx.Case("smbios-tag-good", smp="1", media="mbforge", append="smbios=good -- tests=boot quick",
                 extra=["-smbios", "type=1,manufacturer=Lab,serial=T1"],
                 checks=[has(r"^mbforge: smbios=good: SMBIOS tag with the firmware's entry point$"),
                         idval("smbios", r"^version=2\.\d+ source=multiboot2-tag13 structures=\d+$"),
                         idval("system", r'^vendor="Lab" product="[^"]+" serial="T1"$'),
                         no_error, passed]),
        # Fault matrix: the tag's entry point with a bad checksum is
        # refused with one error line; the BIOS-area scan still finds the
        # firmware's, and the run goes on and passes.
        ctx.Case("smbios-tag-bad-checksum", smp="1", media="mbforge",
                 append="smbios=bad-checksum -- tests=boot quick",
                 extra=["-smbios", "type=1,manufacturer=Lab,serial=T2"],
                 checks=[has(r"^mbforge: smbios=bad-checksum: .*checksum byte off by one$"),
                         one_error(ctx, r"smbios: entry point from multiboot2-tag13: checksum mismatch, ignored$"),
                         idval("smbios", r"^version=2\.\d+ source=bios-scan "),
                         idval("system", r'^vendor="Lab" product="[^"]+" serial="T2"$'),
                         ctx.result_is("mbi", "ok"), passed]),
        # Fault matrix: a broken structure in the firmware's own table (a
        # string index past the structure's strings): one error line, the
        # field left empty, the rest of the table used, the run passes.
        ctx.Case("smbios-bad-string", smp="1", append="tests=boot quick",
                 extra=["-smbios", "file=" + bad_string_type1(ctx)],
                 checks=[one_error(ctx, r"smbios: structure type 1 handle 0x100: system manufacturer is string 5, "
                                        r"past the structure's strings$"),
                         idval("system", r'^vendor="" product="P" serial="Lab"$'),
                         idval("bios", r'^vendor="qboot"'), passed]),
    ]
