# SPDX-License-Identifier: GPL-2.0-only
"""What the text and HTML reports share: the environment banner, metric
rows, the matrices found in metric names (find_grids), histogram views.

What `text` and `html` show, in this order: the verdict; on a run that
did not pass, the failures with every `# error:` line; the environment
banner (where the run executed, the machine's identity lines), the
answers block with the conclusion tokens, the boot's error and warning
lines, a table of contents, then one section per suite: its error and
warning lines, its conclusion lines, its cases (result, time), and per
case one compact metrics table, the metrics whose names form a 2-D grid
as matrices, and the histograms with their percentiles."""

import re

from . import num
from .num import fmt_num, numf


DIST_KEYS = ["n", "min", "p50", "p90", "p99", "max", "mean", "stddev"]
# fields shown in their own columns; the others are the metric's facts
TABLE_KEYS = set(DIST_KEYS) | {"value", "unit"}
HIST_MARKS = (("p50", "5"), ("p90", "9"), ("p99", "!"))


def environment(run):
    """(kind, token, note) from `# id.env:` (docs/log-format.md, id.env):
    kind is one of 'bare metal', 'hypervisor', 'emulator', 'unknown'."""
    token = run.identity.get("env") or run.answers_env or ""
    if token == "bare-metal":
        return "bare metal", token, "timings are hardware results"
    if token.startswith("hypervisor:"):
        return ("hypervisor", token, "under the hypervisor %s: timings include its exits "
                "and emulation, not a bare-metal result" % token.split(":", 1)[1])
    if token.startswith("emulator:"):
        return ("emulator", token, "under the emulator %s: timings and orderings are the "
                "emulator's, not a hardware result" % token.split(":", 1)[1])
    return "unknown", token or "-", "the log has no `# id.env:` line (an older ringlab)"


# identity lines of the banner, in this order (the rest go to the full
# identity table at the end)
BANNER_KEYS = ["system", "board", "bios", "cpu.brand", "cpu.vendor", "cpu.signature",
               "cpu.microcode", "hypervisor", "cpus", "ram", "tsc", "apic", "boot", "firmware",
               "version", "cmdline", "seed"]


def banner_rows(run):
    ident = run.identity
    keys = BANNER_KEYS + sorted(k for k in ident if k.startswith("cpu.") and k not in BANNER_KEYS)
    return [(k, ident[k]) for k in keys if k in ident]


def metric_tail(m):
    """The name without its suite.case prefix (what varies inside a case)."""
    pre = "%s.%s." % (m["suite"], m["case"]) if m.get("case") else "%s." % m["suite"]
    return m["name"][len(pre):] if m["name"].startswith(pre) else m["name"]


def headline_value(fields):
    """(stat, number) a table or matrix cell shows: p50, else value."""
    for k in ("p50", "value"):
        v = numf(fields.get(k))
        if v is not None:
            return k, v
    return None, None


_SIZE = re.compile(r"^d?(\d+)(KiB|MiB|GiB|B|p|cpu|ns|us|ms)?$")
_SCALE = {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}


def axis_key(v, seen=None):
    """Sort key of a grid axis value: numbers with their unit (4KiB <
    2MiB, 8p < 64p, 1cpu < 4cpu, d10000ns < d100000ns), `all...` after
    them, words last in the order the log printed them (seen: value ->
    first position)."""
    m = _SIZE.match(v)
    if m:
        return (0, int(m.group(1)) * _SCALE.get(m.group(2) or "", 1), v)
    if v.startswith("all"):
        return (1, 0, v)
    return (2, (seen or {}).get(v, 0), v)


def numeric_axis(values):
    return all(axis_key(v)[0] < 2 for v in values)


def find_grids(metrics):
    """The metrics of one case whose names form a 2-D grid: names of equal
    length that differ in two segments (tlb.shootdown.<method>.<pages>.<cpus>:
    pages x CPUs per method; clear.bandwidth.<method>.<size>.<cpus>: sizes
    x methods per CPU count).  Of all pairs of varying segments the one
    that puts the most metrics into matrices wins, then the one whose
    matrices are full, then fewer matrices, then the pair with more
    numeric axes (sizes, pages, CPUs), then the earlier segments.  A
    matrix needs 2 rows, 2 columns and more cells filled than it has rows
    or columns.  Returns [{pattern, rows, cols, cells{(r, c): metric},
    rows_numeric}], in the order of their first metric."""
    groups = {}
    for m in metrics:
        t = metric_tail(m).split(".")
        if len(t) >= 2:
            groups.setdefault(len(t), []).append((t, m))
    out = []
    for length, items in sorted(groups.items()):
        if len(items) < 4 or length > 12:    # no suite names this deep: bounded work
            continue
        varying = [p for p in range(length) if len({t[p] for t, _ in items}) > 1]
        best = None
        for i, r in enumerate(varying):
            for c in varying[i + 1:]:
                tables = {}
                for t, m in items:
                    key = tuple(x for p, x in enumerate(t) if p not in (r, c))
                    tables.setdefault(key, {})[(t[r], t[c])] = (t, m)
                kept, covered, cells = [], 0, 0
                for key, tab in tables.items():
                    rows = {a for a, _ in tab}
                    cols = {b for _, b in tab}
                    if len(rows) >= 2 and len(cols) >= 2 and len(tab) > max(len(rows), len(cols)):
                        kept.append((key, tab))
                        covered += len(tab)
                        cells += len(rows) * len(cols)
                if not covered:
                    continue
                fill = covered / cells
                nnum = sum(numeric_axis({t[p] for t, _ in items}) for p in (r, c))
                score = (covered, fill >= 0.75, -len(kept), fill, nnum, -(r + c))
                if best is None or score > best[0]:
                    best = (score, r, c, kept)
        if best is None:
            continue
        _, r, c, kept = best
        seen = {}
        for t, _ in items:
            for x in t:
                seen.setdefault(x, len(seen))
        for key, tab in kept:
            a_vals = sorted({a for a, _ in tab}, key=lambda v: axis_key(v, seen))
            b_vals = sorted({b for _, b in tab}, key=lambda v: axis_key(v, seen))
            # rows: the numeric axis (sizes, pages, CPUs), else the longer
            flip = (numeric_axis(b_vals) and not numeric_axis(a_vals)) or \
                (numeric_axis(b_vals) == numeric_axis(a_vals) and len(b_vals) > len(a_vals))
            t0, _ = next(iter(tab.values()))
            pat = list(t0)
            pat[r], pat[c] = ("<column>", "<row>") if flip else ("<row>", "<column>")
            cells = {((b, a) if flip else (a, b)): m for (a, b), (_, m) in tab.items()}
            rows, cols = (b_vals, a_vals) if flip else (a_vals, b_vals)
            first = min(m["line"] for _, m in tab.values())
            out.append({"pattern": ".".join(pat), "rows": rows, "cols": cols, "cells": cells,
                        "rows_numeric": numeric_axis(rows), "first": first})
    out.sort(key=lambda g: g["first"])
    return out


def hist_view(run, m):
    """A metric's histogram as (buckets [(lo, hi, count)], over, marks
    {stat: value}, unit), or None when it has none or it is malformed."""
    h = run.hists.get(m["name"])
    if h is None:
        return None
    f = h["fields"]
    counts = [num.number(x) for x in f.get("counts", "").split(",") if x != ""]
    lo, w, over = num.number(f.get("lo")), num.number(f.get("width")), num.number(f.get("over")) or 0
    if not counts or None in counts or lo is None or w is None or w <= 0 or len(counts) > 4096:
        return None
    buckets = [(lo + i * w, lo + (i + 1) * w, c) for i, c in enumerate(counts)]
    marks = {k: numf(m["fields"].get(k)) for k, _ in HIST_MARKS}
    unit = f.get("unit") or m["fields"].get("unit", "")
    return buckets, over, {k: v for k, v in marks.items() if v is not None}, unit


def bucket_of(buckets, v):
    for i, (lo, hi, _) in enumerate(buckets):
        if lo <= v < hi:
            return i
    return len(buckets) - 1 if buckets and v >= buckets[-1][1] else 0


# A case shows at most this many metrics (a real one has at most a few
# hundred); csv and json list them all.
SHOW_MAX = 2000


def shown_note(c, metrics):
    """The line that says how many metrics of case c were left out."""
    left = len(c["metrics"]) - len(metrics)
    return ("%d more metrics of this case not shown (csv and json list every one)" % left
            if left > 0 else None)


def case_views(run, s):
    """Per case of suite s: (case, metrics (at most SHOW_MAX), grids), the
    case's conclusion lines, then the suite's own (after its last case)."""
    views = []
    for c in s["cases"]:
        metrics = c["metrics"].head(SHOW_MAX)
        views.append((c, metrics, find_grids(metrics),
                      [x for x in s["conclusions"] if x["case"] == c["name"]]))
    return views, [x for x in s["conclusions"] if x["case"] is None]


def metric_row(m):
    f = m["fields"]
    stat, _ = headline_value(f)
    dist = "p50" in f
    cells = [metric_tail(m)]
    if dist:
        cells += [fmt_num(numf(f.get(k))) if k in f else "" for k in ("n", "min", "p50", "p90",
                                                                       "p99", "max")]
    else:
        cells += ["", "", fmt_num(numf(f.get("value"))) if "value" in f else "-", "", "", ""]
    cells.append(f.get("unit", ""))
    cells.append(" ".join("%s=%s" % (k, v) for k, v in f.items() if k not in TABLE_KEYS))
    return cells


METRIC_HEADER = ["metric", "n", "min", "p50|value", "p90", "p99", "max", "unit", "facts"]


def verdict_line(run):
    c = run.counts
    return ("%d cases: %d passed, %d failed, %d skipped, in %d suites; %d metrics; %d error and "
            "%d warning lines; log check %s"
            % (c["cases"], c["passed"], c["failed"], c["skipped"], c["suites"], c["metrics"],
               len(run.errors), len(run.warnings), "ok" if run.ok else "FAILED"))


def status_word(run):
    if run.status and run.verdict == "skip":
        return "skip (every case skipped; the exit line says pass)"
    return run.status or "incomplete (no '# exit:' line: the run did not finish, or the log was cut)"


def failed_run(run):
    """Whether the report opens with its failures: the run did not pass
    (or skip), or the log fails the check."""
    return not run.ok or run.verdict not in ("pass", "skip")


def failures(run):
    """(bad cases, problems no case carries, every `# error:` line): what
    the Failures section lists."""
    bad = [x for x in run.cases() if x["result"] not in ("pass", "skip")]
    return bad, run.problems(), sorted(run.errors, key=lambda e: e["line"])


def place_name(place):
    """Where an error or warning line was printed, for a reader."""
    return {"boot": "boot (before the first suite)", "end": "after the last suite"}.get(
        place, "suite " + place)


def problem_text(kind, p):
    """One `# error:`/`# warning:` line as the reports show it."""
    return "%s: %s: %s (line %d)" % (kind, p["where"], p["text"], p["line"])
