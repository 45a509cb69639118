# SPDX-License-Identifier: GPL-2.0-only
"""The converters for lab and CI tools: check (the verdict as exit
status), tap, ktap, junit, json, csv and times."""

import csv
import json
import re
import sys

from . import conclude, num
from .num import fmt_ms
from .parse import EXIT_BROKEN, ReportError


# Control characters but newline and tab: C0, DEL, and C1 (U+0080-U+009F,
# which some terminals obey as CSI and OSC too).  A log may hold any byte
# (logcheck hands them on as Latin-1), and an ESC or OSC sequence from a
# firmware string must not reach the reader's terminal.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text):
    """text with its control characters written as \\xNN."""
    return _CONTROL.sub(lambda m: "\\x%02x" % ord(m.group()), text)


class Printable:
    """A text output for people and line-oriented tools (text, tap, times,
    compare and answers as text): control characters escaped."""

    def __init__(self, f):
        self.f = f

    def write(self, text):
        return self.f.write(printable(text))

    def close(self):
        self.f.close()


def open_out(path, escaped=False):
    """The output file (standard output for none or '-'); escaped: wrapped
    in Printable."""
    if not path or path == "-":
        f = sys.stdout
    else:
        try:
            f = open(path, "w", encoding="utf-8", newline="")
        except OSError as e:
            raise ReportError("cannot write %s: %s" % (path, e.strerror or e))
    return Printable(f) if escaped else f


def close_out(out):
    if out is not sys.stdout and getattr(out, "f", None) is not sys.stdout:
        out.close()


def cmd_check(run, args):
    for n in run.notes_lines():
        print("%s: %s" % (run.label, n), file=sys.stderr)
    if run.ok:
        c = run.counts
        print("%s: ok: %d cases (%d passed, %d failed, %d skipped) in %d suites, %d metrics, "
              "status=%s%s" % (run.label, c["cases"], c["passed"], c["failed"], c["skipped"],
                               c["suites"], c["metrics"], run.status +
                               (" (every case skipped: %s)" % run.verdict
                                if run.verdict != run.status else ""),
                               " (run %d of %d in the log)" % (run.judged, run.runs)
                               if run.runs > 1 else ""))
        if run.exit_status() == 1 and run.status == "pass":
            print("%s: error: --all-runs: %d other run(s) did not pass"
                  % (run.label, run.others_not_passed), file=sys.stderr)
    else:
        for e in run.check_errors:
            print("%s: error: %s" % (run.label, e), file=sys.stderr)
        if run.nerrors > len(run.check_errors):
            print("%s: error: ... and %d more" % (run.label, run.nerrors - len(run.check_errors)),
                  file=sys.stderr)
    return run.exit_status()


def yaml_str(s):
    return json.dumps(s)          # a JSON string is a valid YAML scalar


def cmd_tap(run, args):
    results = []
    for c in run.cases():
        name = "%s.%s" % (c["suite"], c["name"])
        if c["result"] == "pass":
            results.append((True, name, None, None))
        elif c["result"] == "skip":
            results.append((True, name, "SKIP " + c["reason"], None))
        else:
            results.append((False, name, None, {"message": c["reason"], "severity": c["result"],
                                                 "line": c["line"]}))
    for name, msg, details in run.problems():
        results.append((False, name, None, {"message": msg, "severity": "error",
                                             "details": details[:20]}))
    out = open_out(args.output, escaped=True)
    out.write("TAP version 13\n1..%d\n" % len(results))
    for n in run.notes_lines():
        out.write("# %s\n" % n)
    for i, (ok, name, directive, diag) in enumerate(results, 1):
        out.write("%s %d - %s%s\n" % ("ok" if ok else "not ok", i, name,
                                       " # " + directive if directive else ""))
        if diag:
            out.write("  ---\n")
            for k, v in diag.items():
                if isinstance(v, list):
                    if v:
                        out.write("  %s:\n" % k)
                        for item in v:
                            out.write("    - %s\n" % yaml_str(item))
                else:
                    out.write("  %s: %s\n" % (k, yaml_str(v) if isinstance(v, str) else v))
            out.write("  ...\n")
    close_out(out)
    return 0


def cmd_ktap(run, args):
    if not run.doc["start_line"]:
        raise ReportError("%s: no 'KTAP version 1' line: nothing to clean" % run.label, EXIT_BROKEN)
    to_stdout = not args.output or args.output == "-"
    if to_stdout and sys.stdout.isatty():
        # a terminal gets the lines with their control characters escaped
        out = open_out(None, escaped=True)
        for l in run.run_lines():
            out.write(l + "\n")
    else:
        # elsewhere the KTAP is the log's own bytes, so that its integrity
        # line still matches
        try:
            out = sys.stdout.buffer if to_stdout else open(args.output, "wb")
        except OSError as e:
            raise ReportError("cannot write %s: %s" % (args.output, e.strerror or e))
        for l in run.run_lines():
            out.write(l.encode("latin-1") + b"\n")
        if to_stdout:
            out.flush()
        else:
            out.close()
    if not run.ok:
        print("ringlab-report: warning: %s fails the check (%s); the KTAP is as printed"
              % (run.label, run.check_errors[0] if run.check_errors else "?"), file=sys.stderr)
    return 0


def metric_line(m):
    return "metric %s %s" % (m["name"], " ".join("%s=%s" % kv for kv in m["fields"].items()))


def cmd_junit(run, args):
    try:
        from junit_xml import TestSuite, TestCase, to_xml_report_string
    except ImportError:
        raise ReportError("junit needs the Python module junit_xml (Debian: python3-junit.xml)")
    props = {"id." + k: v for k, v in run.identity.items()}
    props.update({"ringlab.status": run.status or "incomplete", "ringlab.verdict": run.verdict or "incomplete",
                  "ringlab.log_ok": str(run.ok).lower()})
    if run.runs > 1:
        props.update({"ringlab.runs": str(run.runs), "ringlab.judged_run": str(run.judged),
                      "ringlab.run_verdicts": "; ".join(
                          "run %d (lines %d-%d): %s" % (v["run"], v["start_line"], v["end_line"],
                                                        v["verdict"]) for v in run.run_verdicts)})
    for i, n in enumerate(run.notes_lines(), 1):
        props["ringlab.note.%d" % i] = n
    concl = conclude.conclusions(run)
    for k, a in (run.answers or {}).items():
        props["answer." + k] = "%s (%s)" % (a["text"], run.answer_tail(a))
        props["answer.%s.conclusion" % k] = conclude.text(concl.get(k))
    class Suite(TestSuite):
        """time= from the log's `# time:` lines: junit_xml writes a case's
        time only when it is nonzero, and a suite's as its cases' sum."""
        def __init__(self, name, cases, seconds=None, case_seconds=(), **kw):
            super().__init__(name, cases, **kw)
            self.seconds, self.case_seconds = seconds, list(case_seconds)

        def build_xml_doc(self, encoding=None):
            x = super().build_xml_doc(encoding=encoding)
            if self.seconds is not None:
                x.set("time", "%.6f" % self.seconds)
            for el, sec in zip(x.iter("testcase"), self.case_seconds):
                if sec is not None:
                    el.set("time", "%.6f" % sec)
            return x

    def sec(ms):
        return None if ms is None else ms / 1000.0
    suites = []
    for s in run.suites:
        cases = []
        for c in s["cases"]:
            tc = TestCase(c["name"], classname=s["name"],
                          stdout="\n".join(c["diag"]) or None, line=c["line"])
            if c["result"] == "fail":
                tc.add_failure_info(message=c["reason"], failure_type="fail")
            elif c["result"] == "timeout":
                tc.add_failure_info(message=c["reason"], failure_type="timeout")
            elif c["result"] == "panic":
                tc.add_error_info(message="PANIC: " + c["reason"], error_type="panic")
            elif c["result"] == "skip":
                tc.add_skipped_info(message=c["reason"])
            cases.append(tc)
        suites.append(Suite(s["name"], cases, seconds=sec(run.suite_ms(s)),
                            case_seconds=[sec(c["duration_ms"]) for c in s["cases"]],
                            properties=props))
    problems = run.problems()
    if problems:
        cases = []
        for name, msg, details in problems:
            tc = TestCase(name.split(".", 1)[1], classname="ringlab",
                          stdout="\n".join(details) or None)
            tc.add_error_info(message=msg, error_type=name.split(".", 1)[1])
            cases.append(tc)
        suites.append(TestSuite("ringlab", cases, properties=props))
    text = to_xml_report_string(suites, prettyprint=True, encoding="utf-8")
    out = open_out(args.output)
    out.write(text)
    close_out(out)
    return 0


def fields_data(f):
    out = {}
    for k, v in f.items():
        n = num.number(v)
        out[k] = v if n is None else n
    return out


def as_data(run):
    """Everything but the metrics and histograms, which cmd_json writes
    one at a time (a log may hold millions)."""
    return {
        "file": run.label,
        "check": {"ok": run.ok, "errors": run.check_errors, "nerrors": run.nerrors,
                  "integrity": run.integrity},
        "status": run.status, "code": run.code, "panic": run.panic_text if run.panicked else None,
        # the verdict every tool's exit status follows (skip: every case
        # skipped) and that status (docs/usage.md, "Exit status")
        "verdict": run.verdict, "exit_status": run.exit_status(),
        "runs": {"count": run.runs, "judged": run.judged, "verdicts": run.run_verdicts,
                 "notes": run.notes},
        "counts": run.counts,
        "identity": run.identity,
        "errors": run.errors, "warnings": run.warnings,
        "suites": [{"name": s["name"], "result": s["result"], "reason": s["reason"],
                    "duration_ms": run.suite_ms(s),
                    "cases": [{"name": c["name"], "result": c["result"], "reason": c["reason"],
                               "line": c["line"], "duration_ms": c["duration_ms"], "diag": c["diag"],
                               "metrics": [m["name"] for m in c["metrics"]]}
                              for c in s["cases"]]} for s in run.suites],
        "problems": [{"name": n, "message": m} for n, m, _ in run.problems()],
        "answers_env": run.answers_env,
        "answers": run.answers,
        # key -> the answer's conclusion tokens (docs/log-format.md)
        "conclusions": conclude.conclusions(run) if run.answers is not None else None,
    }


def cmd_json(run, args):
    out = open_out(args.output)
    head = json.dumps(as_data(run), indent=1)
    out.write(head[:-2] + ',\n "metrics": [')
    for i, m in enumerate(run.metrics):
        out.write("%s\n  %s" % ("," if i else "", json.dumps(
            {"name": m["name"], "suite": m["suite"], "case": m["case"], "line": m["line"],
             **fields_data(m["fields"])})))
    out.write('\n ],\n "hists": [')
    for i, h in enumerate(run.hists.values()):
        out.write("%s\n  %s" % ("," if i else "", json.dumps(
            {"name": h["name"], "line": h["line"], **fields_data(h["fields"])})))
    out.write("\n ]\n}\n")
    close_out(out)
    return 0


CSV_KEYS = ["n", "min", "p50", "p90", "p99", "max", "mean", "stddev", "value", "unit"]


def cmd_csv(run, args):
    out = open_out(args.output)
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["metric", "suite", "case"] + CSV_KEYS + ["extra"])
    for m in run.metrics:
        f = m["fields"]
        extra = " ".join("%s=%s" % (k, v) for k, v in f.items() if k not in CSV_KEYS)
        w.writerow([m["name"], m["suite"], m["case"] or ""] + [f.get(k, "") for k in CSV_KEYS]
                   + [extra])
    close_out(out)
    return 0


def cmd_times(run, args):
    """Wall time per suite, then per case, from the `# time:` lines."""
    out = open_out(args.output, escaped=not args.csv)
    rows = []
    for s in run.suites:
        rows.append([s["name"], "", s["result"], fmt_ms(run.suite_ms(s)), str(len(s["cases"]))])
        for c in s["cases"]:
            rows.append([s["name"], c["name"], c["result"], fmt_ms(c["duration_ms"]), ""])
    total = [run.suite_ms(s) for s in run.suites]
    total = sum(t for t in total if t is not None) if any(t is not None for t in total) else None
    if args.csv:
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["suite", "case", "result", "duration_ms", "cases"])
        w.writerows(rows)
    else:
        header = ["suite", "case", "result", "ms", "cases"]
        widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
        for r in [header] + rows:
            out.write("  ".join(v.rjust(widths[i]) if i >= 3 else v.ljust(widths[i])
                                for i, v in enumerate(r)).rstrip() + "\n")
        out.write("total of the suites: %s ms\n" % fmt_ms(total))
    close_out(out)
    return 0
