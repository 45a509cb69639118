# SPDX-License-Identifier: GPL-2.0-only
"""The plain-text report (ringlab-report text), for a terminal."""

import sys

from .num import fmt_ms, fmt_num
from .convert import close_out, open_out
from . import conclude
from .layout import (HIST_MARKS, METRIC_HEADER, banner_rows, bucket_of, case_views, environment,
                     failed_run, failures, headline_value, hist_view, metric_row, metric_tail,
                     place_name, problem_text, shown_note, status_word, verdict_line)


def text_table(rows, right=(), indent="    ", cut=None):
    """Rows as aligned columns; the last column left free (facts), cut to
    `cut` characters."""
    if not rows:
        return []
    n = len(rows[0])
    widths = [max(len(r[i]) for r in rows) for i in range(n - 1)]
    out = []
    for r in rows:
        last = r[-1] if cut is None or len(r[-1]) <= cut else r[-1][:cut - 3] + "..."
        cells = [r[i].rjust(widths[i]) if i in right else r[i].ljust(widths[i])
                 for i in range(n - 1)]
        out.append((indent + "  ".join(cells + [last])).rstrip())
    return out


def text_hist(view, indent):
    buckets, over, marks, unit = view
    levels = " .:-=+*#%@"
    top = max([c for _, _, c in buckets] + [over]) or 1
    bar = "".join(levels[0] if c == 0 else levels[max(1, round(c * 9 / top))]
                  for _, _, c in buckets)
    under = [" "] * len(buckets)
    for k, ch in HIST_MARKS:
        if k in marks:
            under[bucket_of(buckets, marks[k])] = ch
    lo, hi = buckets[0][0], buckets[-1][1]
    left = "%s %s |" % (fmt_num(lo), unit)
    return ["%s%s%s| %s %s%s" % (indent, left, bar, fmt_num(hi), unit,
                                 ", %d above" % over if over else ""),
            "%s%s%s  %s" % (indent, " " * len(left), "".join(under),
                            " ".join("%s=%s" % (k, fmt_num(v)) for k, v in marks.items()))]


def text_matrix(g, metrics_unit, indent):
    any_cell = next(iter(g["cells"].values()))
    stat, _ = headline_value(any_cell["fields"])
    rows = [[""] + g["cols"]]
    for r in g["rows"]:
        row = [r]
        for c in g["cols"]:
            m = g["cells"].get((r, c))
            row.append("-" if m is None else fmt_num(headline_value(m["fields"])[1]))
        rows.append(row)
    widths = [max(len(x[i]) for x in rows) for i in range(len(rows[0]))]
    out = ["%smatrix %s: %s in %s ('-': not in the log)"
           % (indent, g["pattern"], stat or "value", metrics_unit)]
    for x in rows:
        out.append(indent + "  " + "  ".join(v.ljust(widths[0]) if i == 0 else v.rjust(widths[i])
                                             for i, v in enumerate(x)).rstrip())
    return out


def text_failures(run):
    """The Failures section: failed cases, problems no case carries, and
    every `# error:` line with where it was printed (the reasons often
    say "see the error lines above")."""
    bad, problems, errors = failures(run)
    o = ["", "== Failures"]
    for x in bad:
        o.append("  %-8s %s.%s: %s" % (x["result"].upper(), x["suite"], x["name"], x["reason"]))
    for name, msg, details in problems:
        o.append("  %-8s %s: %s" % ("ERROR", name, msg))
        o += ["           " + d for d in details[1:10]]
    if errors:
        o.append("  error lines of the run (%d):" % len(errors))
        o += ["    %s: %s" % (place_name(e["place"]), problem_text("error", e)) for e in errors]
    if len(o) == 2:
        o.append("  (no failed case and no error line: see the log check above)")
    return o


def text_problems(run, place, indent="  "):
    return ["%s%s" % (indent, problem_text(k, p)) for k, p in run.problems_of(place)]


def render_text(run):
    o = []
    o.append("ringlab run: %s   [%s]" % (status_word(run).upper() if run.status else status_word(run),
                                         run.label))
    o.append(verdict_line(run))
    o += run.notes_lines()
    if failed_run(run):
        o += text_failures(run)
    kind, token, note = environment(run)
    o.append("")
    o.append("== Environment: %s (%s): %s" % (kind.upper(), token, note))
    for k, v in banner_rows(run):
        o.append("  %-14s %s" % (k, v))
    o.append("")
    o.append("== Answers" + (" (env=%s)" % run.answers_env if run.answers_env else ""))
    if run.answers is None:
        o.append("  (no answers block: an older ringlab, or the run stopped before its summary)")
    else:
        concl = conclude.conclusions(run)
        for k in run.answer_keys():
            a = run.answers.get(k)
            if a is None:
                o.append("  %-14s (missing from the block)" % k)
                continue
            o.append("  %-14s %s" % (k, a["text"]))
            o.append("  %-14s [conclusion: %s]" % ("", conclude.text(concl.get(k))))
            o.append("  %-14s [control=%s; from=%s]" % ("", a["control"], ",".join(a["from"]) or "none"))
    boot = text_problems(run, "boot")
    if boot:
        o.append("")
        o.append("== Boot: error and warning lines before the first suite")
        o += boot
    o.append("")
    o.append("== Contents")
    for i, s in enumerate(run.suites, 1):
        o.append("  %2d. %-14s %-8s %3d cases  %4d metrics  %s ms" % (
            i, s["name"], s["result"], len(s["cases"]), sum(len(c["metrics"]) for c in s["cases"]),
            fmt_ms(run.suite_ms(s))))
    if run.hists:
        o.append("")
        o.append("Histograms: one character per bucket (' .:-=+*#%@' from empty to fullest), "
                 "then the bucket of p50 (5), p90 (9) and p99 (!); the last bucket ends at p99's.")
    for i, s in enumerate(run.suites, 1):
        o.append("")
        o.append("== %d. %s: %s (%d cases, %s ms)%s" % (
            i, s["name"], s["result"], len(s["cases"]), fmt_ms(run.suite_ms(s)),
            " # " + s["reason"] if s["reason"] else ""))
        views, suite_concl = case_views(run, s)
        mine = text_problems(run, s["name"], "    ")
        if mine:
            o.append("  error and warning lines:")
            o += mine
        concl = [x for v in views for x in v[3]] + suite_concl
        if concl:
            o.append("  conclusions:")
            o += ["    %s" % x["text"] for x in concl]
        rows = [["case", "result", "ms", "reason"]]
        for c in s["cases"]:
            rows.append([c["name"], c["result"], fmt_ms(c["duration_ms"]), c["reason"]])
        o += text_table(rows, right={2}, indent="  ")
        for c, metrics, grids, _ in views:
            if not metrics:
                continue
            o.append("")
            o.append("  -- %s.%s: %d metrics" % (s["name"], c["name"], len(metrics)))
            for g in grids:
                unit = next(iter(g["cells"].values()))["fields"].get("unit", "")
                o += text_matrix(g, unit, "    ")
            o += text_table([METRIC_HEADER] + [metric_row(m) for m in metrics],
                            right=set(range(1, 7)), cut=100)
            if shown_note(c, metrics):
                o.append("    (%s)" % shown_note(c, metrics))
            hv = [(m, hist_view(run, m)) for m in metrics]
            hv = [(m, v) for m, v in hv if v is not None]
            if hv:
                o.append("    histograms:")
                for m, v in hv:
                    o.append("      %s" % metric_tail(m))
                    o += text_hist(v, "        ")
    if run.conclusions:
        o.append("")
        o.append("== Conclusions outside the suites")
        o += ["  %s" % x["text"] for x in run.conclusions]
    end = text_problems(run, "end")
    if end:
        o.append("")
        o.append("== Error and warning lines after the last suite")
        o += end
    o.append("")
    o.append("== Identity (every `# id.*` line)")
    for k, v in run.identity.items():
        o.append("  %-16s %s" % (k, v))
    return "\n".join(o) + "\n"


def cmd_text(run, args):
    out = open_out(args.output, escaped=True)
    out.write(render_text(run))
    close_out(out)
    if not run.ok:
        print("ringlab-report: warning: %s fails the log check (%s)" % (
            run.label, run.check_errors[0] if run.check_errors else "?"), file=sys.stderr)
    return 0
