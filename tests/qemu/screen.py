#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Screen checks for the framebuffer console.

As a QEMU wrapper (what run.py's screen cases run):

  screen.py --log LOG --ppm OUT.ppm --keys end[,up] -- qemu-system-x86_64 ARGS...

starts QEMU with an HMP monitor socket and a VGA device, waits for GRUB's
menu on the serial log and picks an entry with the given keys (sendkey),
waits for the log's integrity line (the entries end with exit=halt, so the
machine stays up with its screen), takes a screendump, quits QEMU and exits
as isa-debug-exit would (2 * code + 1, from the log's `# exit:` line), so
run.py judges it like any other case.

As a library: decode(ppm) reads a screendump back as text, cell by cell,
with the kernel's own font (lib/font5x7.c) and cell geometry
(kernel/fbcon.h) at the console's text scale (found from the status line,
or given): a cell counts as a character only when its pixels match that
glyph exactly, magnified by the scale, in one colour on another, so
firmware or GRUB text never decodes.
"""
import argparse
import os
import re
import socket
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CELL_W, CELL_H, GX0, GY0 = 8, 16, 1, 1  # kernel/fbcon.h, kernel/fbcon.c
SCALES = (1, 2, 3)  # kernel/fbcon.h: 1..FBCON_SCALE_MAX


def read_ppm(path):
    """(width, height, bytes) of a binary P6 PPM with maxval 255."""
    data = open(path, "rb").read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    if fields[0] != b"P6" or int(fields[3]) != 255:
        raise ValueError("%s: not a P6 PPM with maxval 255" % path)
    w, h = int(fields[1]), int(fields[2])
    pix = data[pos + 1:pos + 1 + w * h * 3]
    if len(pix) != w * h * 3:
        raise ValueError("%s: truncated PPM" % path)
    return w, h, pix


def load_font():
    text = open(os.path.join(ROOT, "lib", "font5x7.c")).read()
    rows = re.findall(r"\{ ((?:0x[0-9a-f]{2}, ){6}0x[0-9a-f]{2}) \},\s*/\* 0x([0-9a-f]{2})", text)
    font = {}
    for hexes, code in rows:
        bits = tuple(int(x, 16) for x in hexes.split(", "))
        font[bits] = chr(int(code, 16))
    if len(font) != 95:
        raise ValueError("lib/font5x7.c: %d distinct glyphs, expected 95" % len(font))
    return font


def cell_pattern(w, pix, col, row, scale=1):
    """The cell's 5x7 font bits, background and foreground colour if it is
    exactly one colour on another in the glyph layout (each font pixel 1
    wide, 2 tall; border background), magnified `scale` times (every
    pixel an s x s block), else None."""
    cw = CELL_W * scale
    x0, y0 = col * cw, row * CELL_H * scale
    vals = []
    for by in range(CELL_H):
        lines = [pix[((y0 + by * scale + k) * w + x0) * 3:((y0 + by * scale + k) * w + x0 + cw) * 3]
                 for k in range(scale)]
        if any(ln != lines[0] for ln in lines[1:]):
            return None
        for bx in range(CELL_W):
            block = lines[0][bx * scale * 3:(bx + 1) * scale * 3]
            if block != block[:3] * scale:
                return None
            vals.append(bytes(block[:3]))
    bg = vals[0]  # cell corner: always background
    fgs = set(v for v in vals if v != bg)
    if len(fgs) > 1:
        return None
    fg = fgs.pop() if fgs else None
    bits = []
    for fr in range(7):
        top = vals[(GY0 + 2 * fr) * CELL_W:(GY0 + 2 * fr + 1) * CELL_W]
        bot = vals[(GY0 + 2 * fr + 1) * CELL_W:(GY0 + 2 * fr + 2) * CELL_W]
        if top != bot or top[0] != bg or any(v != bg for v in top[GX0 + 5:]):
            return None
        v = 0
        for x in range(5):
            v = v << 1 | (top[GX0 + x] == fg)
        bits.append(v)
    for y in (0, CELL_H - 1):  # rows outside the glyph are background
        if any(v != bg for v in vals[y * CELL_W:(y + 1) * CELL_W]):
            return None
    return tuple(bits), bg, fg


def decode_at(w, h, pix, font, scale):
    out = []
    for row in range(h // (CELL_H * scale)):
        s = []
        for col in range(w // (CELL_W * scale)):
            p = cell_pattern(w, pix, col, row, scale)
            s.append(font.get(p[0], "\0") if p else "\0")
        out.append("".join(s).rstrip(" \0"))
    return out


def decode(path, scale=None):
    """Screen text, one string per text row (cells that are no glyph of the
    font read as '\\0'), trailing blanks removed.  scale None: the first
    scale whose row 0 reads as ringlab's status line (else 1)."""
    w, h, pix = read_ppm(path)
    font = load_font()
    if scale:
        return decode_at(w, h, pix, font, scale)
    for s in SCALES:
        rows = decode_at(w, h, pix, font, s)
        if rows and rows[0].startswith("ringlab "):
            return rows
    return decode_at(w, h, pix, font, 1)


def hmp(sock_path, command, timeout=10):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.connect(sock_path)
    try:
        s.recv(4096)  # banner and prompt
        s.sendall((command + "\n").encode())
        time.sleep(0.3)
        try:
            return s.recv(4096).decode("latin-1")
        except socket.timeout:
            return ""
    finally:
        s.close()


def read_log(path):
    try:
        return open(path, "rb").read().decode("latin-1").replace("\r", "")
    except OSError:
        return ""


def wrapper(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--log", required=True)
    ap.add_argument("--ppm", required=True)
    ap.add_argument("--keys", required=True, help="sendkey names, comma-separated")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("qemu", nargs=argparse.REMAINDER)
    a = ap.parse_args(argv)
    cmd = [x for x in a.qemu if x != "--"]
    sock = a.ppm + ".mon"
    for p in (sock, a.ppm):
        if os.path.exists(p):
            os.unlink(p)
    cmd += ["-device", "VGA", "-monitor", "unix:%s,server=on,wait=off" % sock]
    q = subprocess.Popen(cmd)
    t0 = time.time()

    def alive():
        return q.poll() is None and time.time() - t0 < a.timeout

    def finish(code, why=None):
        if why:
            print("screen.py: " + why, file=sys.stderr)
        if q.poll() is None:
            try:
                hmp(sock, "quit")
            except OSError:
                pass
            try:
                q.wait(10)
            except subprocess.TimeoutExpired:
                q.kill()
                q.wait()
        return code

    while alive() and "ringlab: full run" not in read_log(a.log):
        time.sleep(0.2)
    if not alive():
        return finish(q.returncode if q.returncode is not None else 124, "GRUB menu not seen")
    for k in a.keys.split(","):
        hmp(sock, "sendkey " + k)
        time.sleep(0.2)
    while alive() and not re.search(r"^# integrity: ", read_log(a.log), re.M):
        time.sleep(0.5)
    if not alive():
        return finish(q.returncode if q.returncode is not None else 124,
                      "no integrity line (or QEMU exited, status %s)" % q.returncode)
    time.sleep(1)
    hmp(sock, "screendump " + a.ppm)
    for _ in range(50):
        if os.path.exists(a.ppm) and os.path.getsize(a.ppm) > 0:
            break
        time.sleep(0.2)
    time.sleep(0.5)
    m = re.search(r"^# exit: status=\S+ code=(\d+)", read_log(a.log), re.M)
    return finish(2 * int(m.group(1)) + 1 if m else 124, None if m else "no exit line")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "decode":
        for i, line in enumerate(decode(sys.argv[2])):
            if line:
                print("%3d %s" % (i, line.replace("\0", "~")))
        sys.exit(0)
    sys.exit(wrapper(sys.argv[1:]))
