# SPDX-License-Identifier: GPL-2.0-only
"""Forged boot information: tests/qemu/mbforge (a multiboot1 kernel that
loads ringlab.elf from its -initrd module) hands ringlab multiboot2
information no real loader under QEMU would: bad framebuffer tags,
which fw_addresses_check() must refuse with one error line each (and
a good one, the control, that the console uses), and broken memory
maps and tag lists, each named in an error line while the boot suite
runs to the end."""
import re


def fb_bad_case(ctx, name, mode, addr, length, why, **kw):
    """A forged framebuffer tag (tests/qemu/mbforge) that fw_addresses_check()
    must refuse: one '# error: mbi: framebuffer ... left out' line, the
    console never started on it, the boot suite no longer sees it, and the
    run passes.  A dropped optional device is an error line, not a failed
    case (kernel/main.c: the verdict counts failed cases and configuration
    errors; fw_addresses_check()'s count does not enter it), as for the
    HPET cases."""
    w, h = (1024, 1048576) if mode == "huge" else (1024, 768)
    return ctx.Case(name, media="mbforge", append="fb=%s -- tests=boot quick" % mode,
                checks=[ctx.has(r"^mbforge: kernel from module .*; fb=%s: framebuffer tag %s %dx%dx32 pitch 4096$"
                            % (mode, addr, w, h), "mbforge forged the fb=%s tag" % mode),
                        ctx.has(r"^# error: mbi: framebuffer %s\+%s \(%dx%d pitch 4096\) %s; left out$"
                            % (addr, length, w, h, re.escape(why))),
                        ctx.lacks(r"^# error: (?!mbi: framebuffer )", "no other error line"),
                        ctx.lacks(r"^# warning:", "no warning line (nothing tried to map or draw it)"),
                        ctx.lacks(r"^# console: framebuffer", "no framebuffer console"),
                        ctx.lacks(r"# framebuffer at 0x", "boot.mbi no longer sees a framebuffer"),
                        ctx.idval("boot", r"^multiboot2 \(mbforge\)$"), ctx.idval("loader", "^mbforge$"),
                        ctx.idval("cmdline", "^tests=boot quick$"), ctx.result_is("boot", "ok"),
                        ctx.result_is("mbi", "ok")], **kw)


def mbi_bad_case(ctx, name, forge, errors, results, checks=(), **kw):
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
    return ctx.Case(name, media="mbforge", append="%s -- tests=boot quick" % forge, expect="fail",
                checks=[ctx.has(r"^mbforge: multiboot2 faults: .*" + ".*".join(re.escape(f) + r"\b" for f in forge.split()),
                            "mbforge forged %s" % forge),
                        ("the error lines are exactly: " + " | ".join(errors), errors_are),
                        ctx.lacks(r"^# warning:", "no warning line"),
                        ctx.idval("boot", r"^multiboot2 \(mbforge\)$"), ctx.idval("loader", "^mbforge$"),
                        ctx.idval("cmdline", "^tests=boot quick$"),
                        ctx.has(r"^ringlab: \d+ passed, \d+ failed, 0 skipped$", "the run reached its summary")] +
                       [ctx.result_is(c, r) for c, r in results] + list(checks), **kw)


def fb_good_tag_used():
    rx_forged = re.compile(r"^mbforge: .*; fb=good: framebuffer tag (0x[0-9a-f]+) 1024x768x32 pitch 4096 "
                           r"\(bochs VGA BAR0", re.M)
    rx_con = re.compile(r"^# console: framebuffer 1024x768 32bpp at (0x[0-9a-f]+) \(VBE, multiboot2 tag\), "
                        r"128x48 text cells$", re.M)

    def check(log):
        a, b = rx_forged.search(log), rx_con.search(log)
        return bool(a and b) and a.group(1) == b.group(1)
    return ("the framebuffer console started on the forged tag's address (the bochs VGA BAR)", check)



def cases(ctx):
    # run.py's case kind and checks (ctx is run.py)
    Case = ctx.Case
    has = ctx.has
    lacks = ctx.lacks
    idval = ctx.idval
    online = ctx.online
    result_is = ctx.result_is
    return [
        # A bad multiboot2 framebuffer tag, forged by tests/qemu/mbforge (no
        # real loader under QEMU hands one over): each is refused with one
        # error line before anything maps or draws it; fb-good-control, a
        # valid tag on the bochs VGA's linear framebuffer, is used.
        fb_bad_case(ctx, "fb-bad-in-kernel", "kernel", "0x100000", "0x300000", "overlaps the kernel image"),
        fb_bad_case(ctx, "fb-bad-noncanonical", "noncanonical", "0x8000000000000000", "0x300000",
                    "is not a canonical lower-half address (the identity map ends at 2^47)"),
        fb_bad_case(ctx, "fb-bad-maxphys", "maxphys", "0x7ff000000000", "0x300000", "lies above 2^MAXPHYADDR"),
        # 4 GiB from 0xfd000000 reaches the RAM QEMU puts above 4 GiB (5G: 3 GiB below, 2 above)
        fb_bad_case(ctx, "fb-bad-huge", "huge", "0xfd000000", "0x100000000",
                    "overlaps RAM (memory-map type 1/3/4)", mem="5G"),
        fb_bad_case(ctx, "fb-bad-wrap", "wrap", "0xfffffffffffff000", "0x300000", "wraps past 2^64"),
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
        mbi_bad_case(ctx, "mbi-mmap-wrap", "mmap=wrap",
                     [r"mbi: memory map entry base=0xfffffffffffff000 len=0x2000 wraps; dropped$"],
                     [("mbi", "not ok"), ("mmap_sane", "ok"), ("identity_map", "ok"),
                      ("cmdline_roundtrip", "ok")],
                     [lacks(r"^# mmap: 0xfffffffffffff000", "the wrapping entry is not in the map")]),
        # A reserved (type 2) entry over ringlab's whole image, appended
        # after the RAM entry that holds it: reported at boot (kernel/main.c,
        # mm_kernel_claim) as well as by boot.mmap_sane; the allocator keeps
        # out of it (memmap_usable: the non-RAM claim wins) and the kernel,
        # already running there, stays mapped write-back.
        mbi_bad_case(ctx, "mbi-mmap-overlap-kernel", "mmap=overlap-kernel",
                     [r"mm: the kernel image 0x100000-0x[0-9a-f]+ overlaps the type-2 memory-map entry "
                      r"0x100000-0x[0-9a-f]+: the loader put it on memory the firmware does not give as RAM"],
                     [("mbi", "ok"), ("mmap_sane", "not ok"), ("identity_map", "ok"),
                      ("cmdline_roundtrip", "ok")],
                     [has(r"not ok \d+ mmap_sane # RAM entry overlaps a type-2 entry: 0x100000-0x[0-9a-f]+ and 0x100000-")]),
        # An mmap tag with entry_size 4096 (a multiple of 8, larger than the
        # tag): named as a bad tag, then the basic-meminfo fallback (two RAM
        # ranges, no reserved ones: firmware tables read from holes).
        mbi_bad_case(ctx, "mbi-mmap-esize-big", "mmap=esize-big",
                     [r"mbi: memory map tag has (\d+) bytes of entries, not a multiple of entry_size 4096; the last \1 ignored$",
                      r"mbi: no memory map; using mem_lower/mem_upper \(639 KiB, \d+ KiB\)$"],
                     [("mbi", "not ok"), ("mmap_sane", "ok"), ("identity_map", "ok")],
                     [has(ctx.RAM_ONLY_DIAG), idval("ram", r"regions=2\b")]),
        # total_size ends 16 bytes into the memory-map tag: that tag runs
        # past it, the rest (RSDP tags, end tag) is ignored; basic meminfo
        # came before it, so the fallback map is used; the RSDP comes from
        # the BIOS-area scan instead of the tag.
        mbi_bad_case(ctx, "mbi-tags-truncated", "tags=truncated",
                     [r"mbi: multiboot2 tag type 6 at offset \d+ has bad size \d+; rest ignored$",
                      r"mbi: multiboot2 info has no end tag within its \d+ bytes$",
                      r"mbi: no memory map; using mem_lower/mem_upper \(639 KiB, \d+ KiB\)$"],
                     [("mbi", "not ok"), ("mmap_sane", "ok"), ("identity_map", "ok")],
                     [lacks(r"^# acpi: rsdp .* from multiboot2-tag", "no RSDP from the cut-off tags")]),
        # No memory map and no basic meminfo: no RAM at all.  The page
        # tables cannot be built (the boot map is kept), no AP trampoline,
        # and the boot suite still runs to the end on the boot CPU.
        mbi_bad_case(ctx, "mbi-no-memory", "mmap=none meminfo=none",
                     [r"mbi: no memory map and no basic memory information$",
                      r"paging: no memory below 4 GiB for page tables; keeping the boot map$",
                      r"smp: no free RAM page between 0x10000 and 0x9f000 for the AP trampoline$"],
                     [("mbi", "not ok"), ("mmap_sane", "not ok"), ("cmdline_roundtrip", "ok")],
                     [idval("ram", r"^bytes=0 regions=0 "), online(1),
                      has(r"^    not ok \d+ identity_map # page tables were not built at boot",
                          "identity_map names the kept boot map")]),
    ]
