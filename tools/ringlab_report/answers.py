# SPDX-License-Identifier: GPL-2.0-only
"""ringlab-report answers: the fleet view, one row per log, one column per
question of the answers block."""

import csv
import html
import os
import sys

from .parse import QUESTIONS
from .convert import close_out, open_out


def fleet_row(run, path):
    ident = run.identity
    if path == "-":
        date = "-"
    else:
        try:
            import time
            date = time.strftime("%Y-%m-%d %H:%M", time.gmtime(os.path.getmtime(path)))
        except OSError:
            date = "-"
    row = {"log": run.label, "machine": ident.get("cpu.brand", "?"),
           "vendor": ident.get("cpu.vendor", "?"),
           "env": run.answers_env or ident.get("env", "?"),
           "version": ident.get("version", "?"), "date": date,
           "check": "ok" if run.ok else "FAILED"}
    for k, _ in QUESTIONS:
        if run.answers is None:
            row[k] = "(no answers block)"
        elif k not in run.answers:
            row[k] = "(missing)"
        else:
            a = run.answers[k]
            row[k] = a["text"] + ("" if a["control"] == "none" else " [control %s]" % a["control"])
    return row


FLEET_FIXED = ["log", "machine", "vendor", "env", "version", "date", "check"]
CELL = 40


def cmd_answers(runs, paths, args):
    rows = [fleet_row(r, p) for r, p in zip(runs, paths)]
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
            o.append("<tr>%s</tr>" % "".join("<td>%s</td>" % e(r[c]) for c in cols))
        o.append("</tbody></table>")
        o.append("<p>Questions: %s</p>" % "; ".join(
            "<b>%s</b>: %s" % (e(k), e(q)) for k, q in QUESTIONS))
        o.append("</body></html>\n")
        out.write("\n".join(o))
    else:
        def clip(v):
            v = str(v)
            return v if len(v) <= CELL else v[:CELL - 3] + "..."
        table = [cols] + [[clip(r[c]) for c in cols] for r in rows]
        widths = [max(len(x[i]) for x in table) for i in range(len(cols))]
        for line in table:
            out.write(" | ".join(v.ljust(widths[i]) for i, v in enumerate(line)).rstrip() + "\n")
        out.write("(%d logs; answers cut to %d characters: --csv or --html for the whole text)\n"
                  % (len(rows), CELL))
    close_out(out)
    for r, run in zip(rows, runs):
        if not run.ok:
            print("ringlab-report: warning: %s fails the log check (%s)" % (
                run.label, run.check_errors[0] if run.check_errors else "?"), file=sys.stderr)
    return 0
