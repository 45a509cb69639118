# SPDX-License-Identifier: GPL-2.0-only
"""The screen console on the UEFI framebuffer, read back from QEMU's
screendump: an ISO boot through tests/qemu/screen.py, which picks a GRUB
entry with the keyboard, takes a screendump (build/test-logs/<case>.ppm)
once the log is complete and quits QEMU; the cases decode it cell by
cell with the kernel's font (screen.decode)."""
import os
import re
import sys


def screen_rows(ctx, name):
    """The screendump of case `name`, decoded (or None)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import screen
    try:
        return screen.decode(os.path.join(ctx.LOGDIR, name + ".ppm"))
    except (OSError, ValueError, IndexError):
        return None


def screen_status(ctx, name):
    def check(log):
        rows = screen_rows(ctx, name)
        ver = re.search(r"^# id\.version: (.*)$", log, re.M)
        summ = re.search(r"^ringlab: (\d+ passed, \d+ failed, \d+ skipped)$", log, re.M)
        return bool(rows and ver and summ) and rows[0].startswith(
            "ringlab %s | " % ver.group(1)) and rows[0].endswith("| done: " + summ.group(1))
    return ("screen row 0 is the status line: version, then 'done:' and the log's summary", check)


def screen_log_tail(ctx, name):
    def check(log):
        rows = screen_rows(ctx, name)
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


def screen_answers(ctx, name):
    """The screen ends showing the answers block (clipped rows) and the
    summary, not the last metric lines."""
    def check(log):
        rows = screen_rows(ctx, name)
        if not rows:
            return False
        text = [r for r in rows if r.strip()]
        return any(r.startswith("# answer fence_cost: ") for r in text[-8:]) and \
            any(r.startswith("ringlab: ") for r in text[-4:])
    return ("the screen ends with the answers block and the summary", check)


def screen_blank(ctx, name):
    def check(log):
        rows = screen_rows(ctx, name)
        return rows is not None and not any(re.search(r"[A-Za-z0-9]{3}", r) for r in rows)
    return ("nothing in the kernel's font on screen", check)


def cases(ctx):
    has, lacks, idval = ctx.has, ctx.lacks, ctx.idval

    class ScreenCase(ctx.Case):
        """An ISO boot under OVMF through tests/qemu/screen.py, which picks a
        GRUB entry with the keyboard, takes a screendump (build/test-logs/
        <case>.ppm) once the log is complete and quits QEMU."""

        def __init__(self, name, keys, media="iso-uefi", **kw):
            kw.setdefault("timeout", 300)
            ctx.Case.__init__(self, name, media=media, append=None,
                              machine="q35" if media == "iso-uefi" else None, **kw)
            self.keys = keys

        def command(self, log):
            return [sys.executable, os.path.join(ctx.ROOT, "tests", "qemu", "screen.py"), "--log", log,
                    "--ppm", self.ppm(), "--keys", self.keys, "--timeout", str(self.timeout - 20),
                    "--"] + ctx.Case.command(self, log)

        def ppm(self):
            return os.path.join(ctx.LOGDIR, self.name + ".ppm")

    return [
        # --- screen console on the UEFI framebuffer ---
        # OVMF + GRUB, the menu's "screen check" entry (tests=boot quick
        # exit=halt): the screendump, read back cell by cell with the
        # kernel's font, must show the status line and the end of the log;
        # the nofb entry (control) must leave nothing of that font on screen.
        ScreenCase("fbcon-ovmf", keys="end,up,ret",
                   checks=[has(r"^# console: framebuffer \d+x\d+ (?:24|32)bpp at 0x[0-9a-f]+ \(GOP, multiboot2 tag\), \d+x\d+ text cells$"),
                           idval("cmdline", r"^tests=boot quick exit=halt$"),
                           screen_status(ctx, "fbcon-ovmf"), screen_log_tail(ctx, "fbcon-ovmf"),
                           screen_answers(ctx, "fbcon-ovmf")]),
        ScreenCase("fbcon-nofb-control", keys="end,ret",
                   checks=[has(r"^# console: framebuffer \d+x\d+ (?:24|32)bpp at 0x[0-9a-f]+ not used \(nofb\)$"),
                           idval("cmdline", r"^tests=boot quick exit=halt nofb$"),
                           screen_blank(ctx, "fbcon-nofb-control"),
                           ("fbcon-ovmf's screen checks fail on this screen",
                            lambda log: not screen_status(ctx, "fbcon-nofb-control")[1](log) and
                            not screen_log_tail(ctx, "fbcon-nofb-control")[1](log))]),
        # BIOS: GRUB keeps the text screen (iso/grub.cfg), no framebuffer
        # console; the screen shows the VGA text mirror, not the kernel's font.
        ScreenCase("fbcon-seabios-text", keys="end,up,ret", media="iso-bios",
                   checks=[idval("boot", "^GRUB BIOS$"), lacks(r"^# console: framebuffer"),
                           lacks(r"^# warning: console: framebuffer"),
                           idval("cmdline", r"^tests=boot quick exit=halt$"),
                           # text mode under SeaBIOS: the VGA mirror is on
                           idval("console", r"\bvga$"),
                           screen_blank(ctx, "fbcon-seabios-text")]),
    ]
