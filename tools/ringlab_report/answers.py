# SPDX-License-Identifier: GPL-2.0-only
"""ringlab-report answers: the fleet view, one row per log, one column per
question of the answers block."""

import csv
import html
import os
import re
import sys
import time

from . import conclude
from . import ident as ident_mod
from .parse import QUESTIONS
from .convert import close_out, open_out


_STAMP = re.compile(r"(?<![0-9])(20[0-9]{2})([01][0-9])([0-3][0-9])-([0-2][0-9])([0-5][0-9])([0-5][0-9])(?![0-9])")


def run_date(run, path):
    """(date, where it comes from) of a log: the log's own `# id.date:`
    (or `# id.time:`) line; else the arrival time of its first line that
    ringlab-capture wrote beside it (<log>.times); else the time in its
    file name (run-qemu.sh, run-bochs.sh and ringlab-capture name logs
    ringlab-...-YYYYmmdd-HHMMSS...); else the file's modification time,
    labelled as such: none of the last three is when the machine ran."""
    for k in ("date", "time"):
        if run.identity.get(k):
            return run.identity[k], "log"
    if path == "-":
        return "-", "none"
    try:
        with open(path + ".times") as f:
            first = f.readline().split("\t", 1)[0]
        if re.match(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+$", first):
            return first.replace("T", " ")[:16], "captured"
    except OSError:
        pass
    m = _STAMP.search(os.path.basename(os.path.realpath(path)))
    if m:
        return "%s-%s-%s %s:%s" % m.groups()[:5], "file name"
    try:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(os.path.getmtime(path))), "file time"
    except OSError:
        return "-", "none"


def fleet_row(run, path):
    ident = run.identity
    machine, source = ident_mod.machine(ident)
    date, dsource = run_date(run, path)
    concl = conclude.conclusions(run)
    row = {"log": run.label, "status": run.verdict or "incomplete",
           "machine": machine or "?", "machine_from": source or "-",
           "cpu": ident.get("cpu.brand", "?"), "vendor": ident.get("cpu.vendor", "?"),
           "env": run.answers_env or ident.get("env", "?"),
           "version": ident.get("version", "?"),
           "date": date if dsource in ("log", "none") else "%s (%s)" % (date, dsource),
           "check": "ok" if run.ok else "FAILED"}
    for k, _ in QUESTIONS:
        if run.answers is None:
            row[k] = row[k + ".conclusion"] = "(no answers block)"
        elif k not in run.answers:
            row[k] = row[k + ".conclusion"] = "(missing)"
        else:
            a = run.answers[k]
            row[k] = a["text"] + ("" if a["control"] == "none" else " [control %s]" % a["control"])
            row[k + ".conclusion"] = conclude.text(concl.get(k))
    return row


# the status first (a fleet is read for what did not pass), then which
# machine (SMBIOS, else the CPU brand: machine_from says which), where
# and when it ran
FLEET_FIXED = ["log", "status", "machine", "machine_from", "cpu", "vendor", "env", "version",
               "date", "check"]
CELL = 40


def cmd_answers(runs, paths, args):
    rows = [fleet_row(r, p) for r, p in zip(runs, paths)]
    # csv: every answer's text and its conclusion; html: both in one cell;
    # text: the conclusions (the sentences do not fit a terminal's row)
    if args.csv:
        cols = FLEET_FIXED + [c for k, _ in QUESTIONS for c in (k, k + ".conclusion")]
    else:
        cols = FLEET_FIXED + [k for k, _ in QUESTIONS]
    out = open_out(args.output, escaped=not (args.csv or args.html))
    if args.csv:
        w = csv.writer(out, lineterminator="\n")
        w.writerow(cols)
        for r in rows:
            w.writerow([r[c] for c in cols])
    elif args.html:
        e = html.escape
        qtext = dict(QUESTIONS)
        o = ['<!DOCTYPE html><html><head><meta charset="utf-8"><title>ringlab answers: %d logs'
             '</title>' % len(rows),
             "<style>body{font-family:sans-serif;margin:1em}table{border-collapse:collapse}"
             "td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px;text-align:left;"
             "vertical-align:top}</style></head><body>",
             "<h1>ringlab answers: %d logs</h1>" % len(rows),
             "<table><thead><tr>%s%s</tr></thead><tbody>" % (
                 "".join("<th>%s</th>" % e(c) for c in FLEET_FIXED),
                 "".join('<th title="%s">%s</th>' % (e(qtext[k]), e(k)) for k, _ in QUESTIONS))]
        for r in rows:
            o.append("<tr>%s%s</tr>" % (
                "".join('<td%s>%s</td>' % (' style="color:#c22;font-weight:bold"'
                                           if c == "status" and r[c] not in ("pass", "skip") else "",
                                           e(r[c])) for c in FLEET_FIXED),
                "".join('<td>%s<br><small><code>%s</code></small></td>'
                        % (e(r[k]), e(r[k + ".conclusion"])) for k, _ in QUESTIONS)))
        o.append("</tbody></table>")
        o.append("<p>Questions: %s</p>" % "; ".join(
            "<b>%s</b>: %s" % (e(k), e(q)) for k, q in QUESTIONS))
        o.append("</body></html>\n")
        out.write("\n".join(o))
    else:
        def clip(v):
            v = str(v)
            return v if len(v) <= CELL else v[:CELL - 3] + "..."
        table = [cols] + [[clip(r[c] if c in FLEET_FIXED else r[c + ".conclusion"]) for c in cols]
                          for r in rows]
        widths = [max(len(x[i]) for x in table) for i in range(len(cols))]
        for line in table:
            out.write(" | ".join(v.ljust(widths[i]) for i, v in enumerate(line)).rstrip() + "\n")
        out.write("(%d logs; each answer as its conclusion tokens, docs/log-format.md, cut to %d "
                  "characters: --csv or --html for the whole text)\n" % (len(rows), CELL))
    close_out(out)
    for r, run in zip(rows, runs):
        if not run.ok:
            print("ringlab-report: warning: %s fails the log check (%s)" % (
                run.label, run.check_errors[0] if run.check_errors else "?"), file=sys.stderr)
    return 0
