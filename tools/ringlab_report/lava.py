# SPDX-License-Identifier: GPL-2.0-only
"""LAVA's own log of a job (lava-run's output, or the job log a LAVA
server keeps): its result records, and the serial stream of the machine
("target" records) turned back into the ringlab log it was, so that the
log can be checked with no second UART (docs/lava.md, "Checking LAVA's
own record").  tools/lava/run-qemu and `ringlab-report --lava` use this
one reading.

What lava-dispatcher does to the stream (lava_dispatcher/shell.py,
ShellLogger.write): removes every carriage return and ESC, writes `"` as
`\\"` (for its YAML log; nothing else is escaped, so taking one backslash
from before each quote undoes it exactly), turns a doubled newline in
one read into one, and logs the stream line by line as target records.
After the run it adds lines of its own (2023.01: `poweroff` when QEMU
exits).  So the stream is cut after the first run's integrity line, the
end of what LAVA's monitor read; what LAVA removed (ESC bytes, blank
lines) cannot be put back, and a log that had them fails its CRC."""

import json
import re

# an escaped quote as lava-dispatcher writes it
_ESCAPED_QUOTE = re.compile(r'\\"')


def _records(text):
    """Every record of a lava-run log as a dict, in order: LAVA 2023.01
    (Debian 12) writes one JSON object per line, newer LAVA YAML list
    items `- {...}`, whose flow mappings are JSON here."""
    for line in text.splitlines():
        if line.startswith("- {"):
            line = line[2:]
        elif not line.startswith("{"):
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            try:
                import yaml
                rec = yaml.safe_load(line)
            except Exception:
                continue
        if isinstance(rec, dict):
            yield rec


def results(text, definition="ringlab"):
    """The results LAVA recorded for the test suite `definition`:
    [(case, result, measurement, units)]."""
    out = []
    for rec in _records(text):
        m = rec.get("msg")
        if rec.get("lvl") == "results" and isinstance(m, dict) and \
                str(m.get("definition", "")).endswith(definition):
            out.append((str(m.get("case")), str(m.get("result")), m.get("measurement"),
                        m.get("units")))
    return out


def target_lines(text):
    """The machine's serial stream as LAVA logged it, line by line, the
    quotes un-escaped."""
    for rec in _records(text):
        if rec.get("lvl") == "target":
            msg = rec.get("msg")
            msg = msg if isinstance(msg, str) else json.dumps(msg)
            yield _ESCAPED_QUOTE.sub('"', msg)


def serial_log(text):
    """(bytes of the ringlab log in LAVA's record, found): the target
    stream up to and including the first integrity line at column 0 after
    the first start line (LAVA's monitor reads that run and stops there);
    the whole stream when there is none (the checker then says what is
    missing)."""
    out = []
    started = False
    for line in target_lines(text):
        out.append(line)
        if line == "KTAP version 1":
            started = True
        elif started and line.startswith("# integrity: "):
            return ("\n".join(out) + "\n").encode("latin-1", "replace"), True
    return ("\n".join(out) + "\n").encode("latin-1", "replace") if out else b"", False


def is_lava_log(head):
    """Whether the first bytes of a file look like a lava-run log."""
    s = head.lstrip()
    return s.startswith(b'{"dt": ') or s.startswith(b'- {"dt": ')
