# SPDX-License-Identifier: GPL-2.0-only
"""ringlab-report compare: cases that changed verdict, the answers, suite
durations, then every metric with ratios and significance."""

import csv
import io
import math
import re

from . import conclude
from .num import fmt_ms, fmt_num, fmt_sig, numf
from .parse import EXIT_USAGE, ReportError
from .convert import CSV_KEYS, close_out, open_out


def headline(fields):
    """The value a comparison shows: the median of a distribution, else the
    scalar value."""
    for k in ("p50", "value"):
        if k in fields and numf(fields[k]) is not None:
            return k, numf(fields[k])
    return None, None


NOT_FACTS = set(CSV_KEYS) | {"method", "u", "lo", "width", "counts", "over"}

# The significance rule of compare (docs/host-tools.md, "compare"): a
# distribution's spread is [min..p99], the range that holds all its
# samples but the top 1 %; two runs differ significantly when their
# spreads do not overlap, i.e. the slower run's fastest sample is slower
# than 99 % of the faster run's samples.  p99 rather than max so that one
# interrupt or SMI in either run does not hide a real shift.  A scalar, and
# a distribution of fewer than SIG_MIN_N samples (where min and p99 are
# one or two samples, e.g. the quick runs' 1-sample all-CPU clears), have
# no spread to judge by and are never called significant.
SIG_MIN_N = 5
SIG_RULE = ("a difference is significant ('*') when the two runs' spreads [min..p99] do not "
            "overlap (one run's minimum above the other's p99); '' when they overlap; '?' when "
            "either run has no spread (a scalar, or fewer than %d samples); '-' when a run "
            "lacks the metric" % SIG_MIN_N)


def spread(fields):
    """The run's own spread of a metric, (min, p99); None for a scalar or
    too few samples."""
    a, b = numf(fields.get("min")), numf(fields.get("p99"))
    n = numf(fields.get("n"))
    if a is None or b is None or (n is not None and n < SIG_MIN_N):
        return None
    return a, b


def significance(fa, fb, stat):
    """'*', '', '?' or '-' by SIG_RULE."""
    if fa is None or fb is None or not stat:
        return "-"
    sa, sb = spread(fa), spread(fb)
    if sa is None or sb is None:
        return "?"
    return "*" if sa[1] < sb[0] or sb[1] < sa[0] else ""


def ratio(v, ref):
    """v / ref, or None when either is missing or ref is 0."""
    if v is None or ref is None or ref == 0:
        return None
    return v / ref


def factor(r):
    """How far a ratio is from 1, as a factor >= 1 (0.5 and 2 are both 2)."""
    if r is None or r <= 0:
        return None
    return r if r >= 1 else 1 / r


# verdict order for "worse"/"better": a failing result is worse than a
# skip, which is worse than a pass
RESULT_RANK = {"pass": 0, "skip": 1, "missing": 2, "fail": 3, "timeout": 3, "panic": 3}


def compare_verdicts(runs, letters, out):
    """The cases whose result differs between the runs, worse ones first;
    returns how many."""
    names = []
    per = []
    for r in runs:
        d = {}
        for c in r.cases():
            key = "%s.%s" % (c["suite"], c["name"])
            d.setdefault(key, c)
            if key not in names:
                names.append(key)
        for name, msg, _ in r.problems():
            d.setdefault(name, {"result": "fail", "reason": msg})
            if name not in names:
                names.append(name)
        per.append(d)
    changed = []
    for n in names:
        got = [d.get(n) for d in per]
        res = [g["result"] if g else "(absent)" for g in got]
        if len(set(res)) == 1:
            continue
        ranks = [RESULT_RANK.get(x, 2) for x in res]
        how = "worse" if max(ranks[1:]) > ranks[0] and min(ranks[1:]) >= ranks[0] else \
            "better" if max(ranks[1:]) <= ranks[0] else "changed"
        changed.append(({"worse": 0, "changed": 1, "better": 2}[how], n, how, res, got))
    changed.sort(key=lambda x: x[0])
    st = [r.verdict or "incomplete" for r in runs]
    out.write("Verdicts: run status %s; %d case(s) changed result%s\n" % (
        " -> ".join("%s %s" % (l, s) for l, s in zip(letters, st)), len(changed),
        ":" if changed else "."))
    for _, n, how, res, got in changed:
        out.write("  %-7s %-36s %s\n" % (how.upper() if how == "worse" else how, n,
                                         " -> ".join(res)))
        for l, g in zip(letters, got):
            if g and g.get("reason") and g["result"] != "pass":
                out.write("          %s: %s\n" % (l, g["reason"]))
    out.write("\n")
    return len(changed)


def compare_conclusions(runs, out):
    """The answers' conclusions (conclude.py), A the reference: those
    that changed first, then those that differ in strength only (a token
    inconclusive or too few in a run, or not measured), then the answers
    whose text differs with the same conclusion (counts, samples).
    Returns (changed, strength, counts_only, keys)."""
    letters = [chr(ord("A") + i) for i in range(len(runs))]
    if all(r.answers is None for r in runs):
        out.write("Conclusions: none of the logs has an answers block.\n\n")
        return 0, 0, 0, 0
    keys = []
    for r in runs:
        for k in r.answer_keys():
            if k not in keys:
                keys.append(k)
    toks = [conclude.conclusions(r) for r in runs]
    rows = []
    for k in keys:
        ans = [(r.answers or {}).get(k) for r in runs]
        got = [t.get(k) if a is not None else None for t, a in zip(toks, ans)]
        how, details = "same", []
        for letter, g in zip(letters[1:], got[1:]):
            if got[0] is None or g is None:
                h, d = ("same", []) if got[0] is None and g is None else \
                    ("changed", [("(answer)", "present" if got[0] is not None else None,
                                  "present" if g is not None else None)])
            else:
                h, d = conclude.diff(got[0], g)
            details += [(letter,) + x for x in d]
            how = max(how, h, key=("same", "strength", "changed").index)
        texts = {a["text"] if a else None for a in ans}
        rows.append((k, how, details, got, len(texts) > 1))
    changed = [r for r in rows if r[1] == "changed"]
    strength = [r for r in rows if r[1] == "strength"]
    counts = [r for r in rows if r[1] == "same" and r[4]]
    out.write("Conclusions (%s; A the reference; tokens: docs/log-format.md, \"Conclusion tokens\"):\n"
              % ", ".join("%s env=%s" % (l, r.answers_env or "-") for l, r in zip(letters, runs)))

    def show(rows, word):
        for k, how, details, got, _ in rows:
            out.write("  %-14s %s\n" % (k, word))
            for letter, name, va, vb in details:
                out.write("      %s%s: A %s, %s %s\n" % (name, "" if name else "(answer)",
                                                       va or "-", letter, vb or "-"))
    show(changed, "CHANGED")
    show(strength, "differs in strength only (inconclusive, too few samples or not measured in a run)")
    for k, how, details, got, _ in rows:
        if how == "same":
            out.write("  %-14s same: %s\n" % (k, conclude.text(got[0]) if got[0] is not None
                                               else "(missing in all)"))
    out.write("  %d of %d conclusions changed; %d differ in strength only; %d answers differ in "
              "counts only (same conclusion, other numbers in the text)%s\n\n"
              % (len(changed), len(keys), len(strength), len(counts),
                 ": " + ", ".join(r[0] for r in counts) if counts else ""))
    return len(changed), len(strength), len(counts), len(keys)


def compare_durations(runs, letters, out):
    """Suite wall times (ms) side by side, X/A the ratio; nothing when no
    log has `# time:` lines."""
    names = []
    per = []
    for r in runs:
        d = {}
        for s in r.suites:
            d.setdefault(s["name"], r.suite_ms(s))
            if s["name"] not in names:
                names.append(s["name"])
        per.append(d)
    if not any(v is not None for d in per for v in d.values()):
        return
    header = ["suite"] + ["%s ms" % l for l in letters] + ["%s/A" % l for l in letters[1:]]
    rows = []
    for n in names:
        vals = [d.get(n) for d in per]
        rows.append([n] + [fmt_ms(v) for v in vals] +
                    [fmt_sig(ratio(v, vals[0])) for v in vals[1:]])
    tot = [sum(v for v in d.values() if v is not None) for d in per]
    rows.append(["(all suites)"] + ["%.3f" % t for t in tot] +
                [fmt_sig(ratio(t, tot[0])) for t in tot[1:]])
    out.write("Suite durations (wall time from the `# time:` lines; X/A the ratio):\n")
    widths = [max(len(x[i]) for x in [header] + rows) for i in range(len(header))]
    for row in [header] + rows:
        out.write("  ".join(v.ljust(widths[i]) if i == 0 else v.rjust(widths[i])
                            for i, v in enumerate(row)) + "\n")
    out.write("\n")


def cmd_compare(runs, args):
    """Verdict changes first, then the answers, the suite durations, the
    significant metric differences (largest first), and every metric side
    by side; --threshold F keeps the metrics that changed by a factor F
    or more."""
    if args.threshold is not None and not (args.threshold >= 1 and math.isfinite(args.threshold)):
        raise ReportError("--threshold: a factor of 1 or more, e.g. 1.5 (got %s)" % args.threshold,
                          EXIT_USAGE)
    names = []
    per = []
    for r in runs:
        d = {}
        for m in r.metrics:
            if m["name"] not in d:
                d[m["name"]] = m["fields"]
                if m["name"] not in names:
                    names.append(m["name"])
        per.append(d)
    out = open_out(args.output, escaped=not args.csv)
    letters = [chr(ord("A") + i) for i in range(len(runs))]
    if not args.csv:
        for i, r in enumerate(runs):
            out.write("%s: %s  [%s, env %s, status %s%s]\n" % (
                letters[i], r.label, r.machine(), r.identity.get("env", "?"), r.verdict,
                "" if r.ok else ", LOG CHECK FAILED"))
        out.write("\n")
        # the two decisions first, in one line: did a case change its
        # result, did a conclusion change; then the sections they come from
        sections = io.StringIO()
        ncases = compare_verdicts(runs, letters, sections)
        nchanged, nstrength, ncounts, nkeys = compare_conclusions(runs, sections)
        if nkeys:
            out.write("In short: %d of %d conclusions changed (%d differ in strength only, %d "
                      "answers in counts only); %d case(s) changed result.\n\n"
                      % (nchanged, nkeys, nstrength, ncounts, ncases))
        else:
            out.write("In short: no conclusions to compare (no answers block); %d case(s) changed "
                      "result.\n\n" % ncases)
        out.write(sections.getvalue())
        compare_durations(runs, letters, out)
    rows = []
    header = ["metric", "unit", "stat"] + letters + \
        ["%s/A" % l for l in letters[1:]] + ["%s~A" % l for l in letters[1:]] + \
        ["only_in", "facts"]
    if args.match:
        try:
            rx = re.compile(args.match)
        except re.error as e:
            raise ReportError("--match: bad regular expression: %s" % e, EXIT_USAGE)
        names = [n for n in names if rx.search(n)]
    only = {}
    for n in names:
        have = [l for l, d in zip(letters, per) if n in d]
        if len(have) < len(runs):
            only[n] = have
    if args.common:
        names = [n for n in names if n not in only]
    significant = []
    hidden = 0
    for n in names:
        fs = [d.get(n) for d in per]
        ref = next(f for f in fs if f is not None)
        stat, _ = headline(ref)
        unit = ref.get("unit", "")
        vals = [numf(f.get(stat)) if f is not None and stat else None for f in fs]
        ratios = [ratio(v, vals[0]) for v in vals[1:]]
        if args.threshold is not None:
            big = [x for x in map(factor, ratios) if x is not None]
            if not big or max(big) < args.threshold:
                hidden += 1
                continue
        sig = [significance(fs[0], f, stat) for f in fs[1:]]
        facts = []
        keys = []
        for f in fs:
            for k in (f or {}):
                if k not in NOT_FACTS and numf(f[k]) is None and k not in keys:
                    keys.append(k)
        for k in keys:
            facts.append("%s=%s" % (k, "/".join((f or {}).get(k, "-") for f in fs)))
        row = [n, unit, stat or "-"] + [fmt_num(v) if v is not None else "-" for v in vals] + \
            [fmt_sig(x) for x in ratios] + sig + [",".join(only.get(n, [])), " ".join(facts)]
        rows.append(row)
        for l, x, g in zip(letters[1:], ratios, sig):
            if g == "*":
                significant.append((factor(x) or 0, n, l, x, row))
    if args.csv:
        w = csv.writer(out, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
    else:
        out.write("Metrics: X/A is the ratio of the headline (p50, else value), to 3 significant "
                  "digits; X~A: %s.%s\n\n" % (
                      SIG_RULE, "" if args.threshold is None else
                      " Only metrics whose headline changed by a factor of %s or more (either "
                      "way) are shown: %d hidden." % (fmt_sig(args.threshold), hidden)))
        significant.sort(key=lambda x: -x[0])
        out.write("Significant differences (%d), largest factor first:\n" % len(significant))
        for _, n, l, x, row in significant:
            out.write("  %-50s %s/A=%-8s A=%s %s=%s %s\n" % (
                n, l, fmt_sig(x), row[3], l, row[3 + letters.index(l)], row[1]))
        out.write("\n")
        widths = [max(len(str(x[i])) for x in [header] + rows) for i in range(len(header) - 1)]
        for row in [header] + rows:
            out.write("  ".join(str(v).ljust(widths[i]) if i < 3 else str(v).rjust(widths[i])
                                for i, v in enumerate(row[:-1])))
            out.write("  " + row[-1] + "\n")
        out.write("%d metrics compared, %d significant differences.\n" % (len(rows), len(significant)))
        for l in letters:
            lonely = [n for n, have in only.items() if have == [l]]
            out.write("Only in %s (%d): %s\n" % (l, len(lonely), " ".join(lonely) or "-"))
        partial = [n for n, have in only.items() if len(have) > 1]
        if partial:
            out.write("In some logs only (%d): %s\n" % (len(partial), " ".join(
                "%s[%s]" % (n, "".join(only[n])) for n in partial)))
    close_out(out)
    return 0
