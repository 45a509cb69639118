# SPDX-License-Identifier: GPL-2.0-only
"""The HTML report (ringlab-report html): one self-contained page with SVG
histograms."""

import html

from . import conclude
from .num import fmt_ms, fmt_num
from .parse import QUESTIONS
from .convert import close_out, open_out
from .layout import (DIST_KEYS, METRIC_HEADER, banner_rows, case_views, environment, failed_run,
                     failures, headline_value, hist_view, metric_row, metric_tail, place_name,
                     shown_note, status_word, verdict_line)


def hist_svg(view, width=460, height=110):
    """A histogram as inline SVG: the buckets (min..p99's bucket), the
    samples above it in red, dashed lines at p50/p90/p99, the axis in the
    metric's unit."""
    buckets, over, marks, unit = view
    bars = [c for _, _, c in buckets] + ([over] if over else [])
    top = max(bars) or 1
    x0, plot = 40, width - 60
    bw = plot / len(bars)
    lo, hi = buckets[0][0], buckets[-1][1]
    span = (hi - lo) or 1
    e = html.escape
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img">'
             % (width, height + 34)]
    for i, c in enumerate(bars):
        bh = (height - 14) * c / top
        is_over = over and i == len(bars) - 1
        label = ("above p99's bucket: %d" % c) if is_over else \
            "[%s, %s) %s: %d" % (fmt_num(buckets[i][0]), fmt_num(buckets[i][1]), unit, c)
        parts.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s">'
                     '<title>%s</title></rect>' % (x0 + i * bw, height - bh, max(bw - 1, 1), bh,
                                                    "#c33" if is_over else "#369", e(label)))
    colors = {"p50": "#080", "p90": "#c80", "p99": "#c00"}
    for k, v in marks.items():
        x = x0 + plot * (len(buckets) / len(bars)) * min(max((v - lo) / span, 0), 1)
        parts.append('<line x1="%.1f" y1="10" x2="%.1f" y2="%d" stroke="%s" stroke-dasharray="3,2">'
                     '<title>%s = %s %s</title></line>' % (x, x, height, colors[k], k, fmt_num(v),
                                                           e(unit)))
        parts.append('<text x="%.1f" y="%d" font-size="10" fill="%s" text-anchor="middle">%s'
                     '</text>' % (x, 9 if k != "p90" else height + 26, colors[k], k))
    parts.append('<text x="%d" y="%d" font-size="11">%s %s</text>' % (x0, height + 14, fmt_num(lo),
                                                                     e(unit)))
    parts.append('<text x="%d" y="%d" font-size="11" text-anchor="end">%s %s</text>'
                 % (x0 + plot * len(buckets) / len(bars), height + 14, fmt_num(hi), e(unit)))
    parts.append('<text x="2" y="20" font-size="11">%d</text>' % top)
    parts.append("</svg>")
    return "".join(parts)


def answers_html(run):
    """The answers block as a table: question, answer, evidence (links to
    the metrics), control, env."""
    e = html.escape
    o = ['<h2 id="answers">Answers</h2>']
    if run.answers is None:
        o.append("<p>This log has no answers block (an older ringlab, or the run "
                 "stopped before its summary).</p>")
        return o
    o.append("<p>Environment: <b>%s</b>. <i>control</i>: did the evidence's negative "
             "control fire (<code>fired</code>: the test can see what it looks for).</p>"
             % e(str(run.answers_env)))
    o.append("<table><tr><th>question</th><th>answer</th><th>conclusion</th><th>evidence metrics</th>"
             "<th>control</th><th>env</th></tr>")
    qtext = dict(QUESTIONS)
    concl = conclude.conclusions(run)
    metric_names = {m["name"] for m in run.metrics}
    for k in run.answer_keys():
        a = run.answers.get(k)
        q = '<td><b>%s</b><br><small>%s</small></td>' % (e(k), e(qtext.get(k, "")))
        if a is None:
            o.append('<tr>%s<td colspan="5"><i>missing from the block</i></td></tr>' % q)
            continue
        ev = ", ".join('<a href="#%s">%s</a>' % (e(m), e(m)) if m in metric_names else e(m)
                       for m in a["from"]) or "none"
        o.append('<tr>%s<td>%s</td><td class="tok">%s</td><td>%s</td><td>%s</td><td>%s</td></tr>' %
                 (q, e(a["text"]), "<br>".join(e(t) for t in concl.get(k, [])), ev,
                  e(a["control"]), e(a["env"])))
    o.append("</table>")
    return o


def problems_html(run, place):
    """The `# error:`/`# warning:` lines printed at `place`, as a table
    (nothing when there are none)."""
    e = html.escape
    rows = run.problems_of(place)
    if not rows:
        return []
    o = ['<table class="problems"><tr><th>line</th><th>kind</th><th>where</th><th>text</th></tr>']
    for kind, p in rows:
        o.append('<tr class="%s"><td class="t">%d</td><td class="r">%s</td><td>%s</td><td>%s</td></tr>'
                 % (kind, p["line"], kind, e(p["where"]), e(p["text"])))
    o.append("</table>")
    return o


def failures_html(run):
    """The Failures section, right under the verdict: failed cases, log
    problems, and every `# error:` line with where it was printed."""
    e = html.escape
    bad, problems, errors = failures(run)
    o = ['<h2 id="failures">Failures</h2>']
    if bad or problems:
        o.append('<table><tr><th>case</th><th>result</th><th>reason</th></tr>')
        for x in bad:
            o.append('<tr><td><a href="#case-%s.%s">%s.%s</a></td><td class="r" style="color:%s">'
                     '%s</td><td>%s</td></tr>' % (e(x["suite"]), e(x["name"]), e(x["suite"]),
                                                 e(x["name"]), COLORS[x["result"]], x["result"],
                                                 e(x["reason"])))
        for name, msg, details in problems:
            o.append('<tr><td>%s</td><td class="r" style="color:#a0a">error</td><td>%s%s</td></tr>' %
                     (e(name), e(msg), "".join("<br>" + e(d) for d in details[1:10])))
        o.append("</table>")
    if errors:
        o.append('<p>Error lines of the run (%d): the reasons above may point at them.</p>'
                 '<table class="problems"><tr><th>line</th><th>printed</th><th>where</th><th>text</th></tr>'
                 % len(errors))
        for x in errors:
            o.append('<tr class="error"><td class="t">%d</td><td>%s</td><td>%s</td><td>%s</td></tr>'
                     % (x["line"], e(place_name(x["place"])), e(x["where"]), e(x["text"])))
        o.append("</table>")
    if not (bad or problems or errors):
        o.append("<p>No failed case and no error line: see the log check above.</p>")
    return o


COLORS = {"pass": "#2a2", "skip": "#888", "fail": "#c22", "timeout": "#c22", "panic": "#a0a",
          "missing": "#a0a"}
ENV_COLORS = {"bare metal": "#dfd", "hypervisor": "#ffd", "emulator": "#fdd", "unknown": "#eee"}


def matrix_html(g):
    e = html.escape
    any_cell = next(iter(g["cells"].values()))
    stat, _ = headline_value(any_cell["fields"])
    unit = any_cell["fields"].get("unit", "")
    o = ['<table class="m"><caption>%s: %s %s</caption><tr><th></th>%s</tr>' % (
        e(g["pattern"]), e(stat or "value"), e(unit), "".join("<th>%s</th>" % e(c) for c in g["cols"]))]
    for r in g["rows"]:
        cells = []
        for c in g["cols"]:
            m = g["cells"].get((r, c))
            if m is None:
                cells.append('<td class="t">-</td>')
                continue
            f = m["fields"]
            tip = " ".join("%s=%s" % (k, f[k]) for k in DIST_KEYS + ["value", "unit"] if k in f)
            cells.append('<td class="t" title="%s"><a href="#%s">%s</a></td>' % (
                e(m["name"] + ": " + tip), e(m["name"]), fmt_num(headline_value(f)[1])))
        o.append("<tr><th>%s</th>%s</tr>" % (e(r), "".join(cells)))
    o.append("</table>")
    return "".join(o)


def render_html(run):
    e = html.escape
    verdict = "pass" if not failed_run(run) else "fail"
    kind, token, note = environment(run)
    o = ['<!DOCTYPE html><html><head><meta charset="utf-8"><title>ringlab: %s</title>' % e(run.label),
         "<style>body{font-family:sans-serif;margin:1em}table{border-collapse:collapse;margin:4px 0}"
         "td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px;text-align:left}"
         ".r{font-weight:bold}.t{text-align:right}tr.total td{background:#f4f4f4}"
         "table.m caption{text-align:left;font-size:13px;font-weight:bold}"
         ".env{padding:6px 10px;border:1px solid #999;margin:8px 0}"
         ".concl{background:#f6f6ff;border-left:3px solid #669;padding:2px 8px;margin:4px 0;"
         "font-size:13px}h3{margin-bottom:2px}tr.error td{background:#fee}"
         "tr.warning td{background:#ffe}td.tok{font-family:monospace;font-size:12px}</style></head><body>",
         '<h1>ringlab run: <span style="color:%s">%s</span></h1>' %
         ("#2a2" if verdict == "pass" else "#c22", e(status_word(run))),
         "<p>%s.</p>" % e(verdict_line(run))]
    o += ['<p class="note">%s</p>' % e(n) for n in run.notes_lines()]
    if failed_run(run):
        o += failures_html(run)
    o.append('<div class="env" id="environment" style="background:%s"><b>Environment: %s</b> '
             '(<code>%s</code>): %s<table>%s</table></div>' % (
                 ENV_COLORS[kind], e(kind), e(token), e(note),
                 "".join("<tr><th>%s</th><td>%s</td></tr>" % (e(k), e(v)) for k, v in banner_rows(run))))
    o += answers_html(run)
    boot = problems_html(run, "boot")
    if boot:
        o.append('<h2 id="boot">Boot: error and warning lines before the first suite</h2>')
        o += boot
    o.append('<h2 id="contents">Contents</h2><table><tr><th>#</th><th>suite</th><th>result</th>'
             '<th>cases</th><th>metrics</th><th>time ms</th></tr>')
    for i, s in enumerate(run.suites, 1):
        o.append('<tr><td>%d</td><td><a href="#suite-%s">%s</a></td><td class="r" style="color:%s">'
                 '%s</td><td class="t">%d</td><td class="t">%d</td><td class="t">%s</td></tr>' % (
                     i, e(s["name"]), e(s["name"]), COLORS.get(s["result"], "#000"), e(s["result"]),
                     len(s["cases"]), sum(len(c["metrics"]) for c in s["cases"]),
                     fmt_ms(run.suite_ms(s))))
    o.append('</table><p><a href="#identity">every identity line</a></p>')
    for i, s in enumerate(run.suites, 1):
        o.append('<h2 id="suite-%s" class="suite">%d. %s: <span style="color:%s">%s</span> '
                 '<small>(%s ms)</small></h2>' % (e(s["name"]), i, e(s["name"]),
                                                  COLORS.get(s["result"], "#000"), e(s["result"]),
                                                  fmt_ms(run.suite_ms(s))))
        views, suite_concl = case_views(run, s)
        o += problems_html(run, s["name"])
        for x in [x for v in views for x in v[3]] + suite_concl:
            o.append('<p class="concl">%s</p>' % e(x["text"]))
        o.append('<table class="cases"><tr><th>case</th><th>result</th><th>time ms</th>'
                 '<th>reason</th></tr>')
        for c in s["cases"]:
            o.append('<tr><td><a href="#case-%s.%s">%s</a></td><td class="r" style="color:%s">%s</td>'
                     '<td class="t">%s</td><td>%s</td></tr>' % (
                         e(s["name"]), e(c["name"]), e(c["name"]), COLORS.get(c["result"], "#000"),
                         c["result"], fmt_ms(c["duration_ms"]), e(c["reason"])))
        o.append('<tr class="total"><td><i>suite total</i></td><td class="r" style="color:%s">%s</td>'
                 '<td class="t"><b>%s</b></td><td>%s</td></tr></table>' % (
                     COLORS.get(s["result"], "#000"), s["result"], fmt_ms(run.suite_ms(s)),
                     e(s["reason"])))
        for c, metrics, grids, _ in views:
            o.append('<h3 id="case-%s.%s">%s.%s <small style="color:%s">%s</small></h3>' % (
                e(s["name"]), e(c["name"]), e(s["name"]), e(c["name"]),
                COLORS.get(c["result"], "#000"), c["result"]))
            if not metrics:
                continue
            for g in grids:
                o.append(matrix_html(g))
            o.append('<table class="metrics"><tr>%s</tr>' % "".join("<th>%s</th>" % h for h in METRIC_HEADER))
            for m in metrics:
                cells = metric_row(m)
                o.append('<tr id="%s"><td>%s</td>%s<td>%s</td><td><small>%s</small></td></tr>' % (
                    e(m["name"]), e(cells[0]),
                    "".join('<td class="t">%s</td>' % e(x) for x in cells[1:7]),
                    e(cells[7]), e(cells[8])))
            o.append("</table>")
            if shown_note(c, metrics):
                o.append("<p><i>%s</i></p>" % e(shown_note(c, metrics)))
            for m in metrics:
                v = hist_view(run, m)
                if v is not None:
                    o.append('<div class="hist"><small>%s</small><br>%s</div>' % (
                        e(metric_tail(m)), hist_svg(v)))
    end = problems_html(run, "end")
    if end:
        o.append('<h2 id="end">Error and warning lines after the last suite</h2>')
        o += end
    if run.conclusions:
        o.append('<h2>Conclusions outside the suites</h2>')
        o += ['<p class="concl">%s</p>' % e(x["text"]) for x in run.conclusions]
    o.append('<h2 id="identity">Identity</h2><table>')
    for k, v in run.identity.items():
        o.append("<tr><th>%s</th><td>%s</td></tr>" % (e(k), e(v)))
    o.append("</table></body></html>\n")
    return "\n".join(o)


def cmd_html(run, args):
    out = open_out(args.output)
    out.write(render_html(run))
    close_out(out)
    return 0
