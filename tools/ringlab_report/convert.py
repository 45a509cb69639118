# SPDX-License-Identifier: GPL-2.0-only
"""The converters for lab and CI tools: check (the verdict as exit
status), tap, ktap, junit, json, csv and times."""

import csv
import json
import sys

from . import num
from .num import fmt_ms
from .parse import ReportError


def open_out(path):
    if not path or path == "-":
        return sys.stdout
    try:
        return open(path, "w", encoding="utf-8", newline="")
    except OSError as e:
        raise ReportError("cannot write %s: %s" % (path, e.strerror or e))


def cmd_check(run, args):
    if run.ok:
        c = run.counts
        print("%s: ok: %d cases (%d passed, %d failed, %d skipped) in %d suites, %d metrics, "
              "status=%s" % (run.label, c["cases"], c["passed"], c["failed"], c["skipped"],
                             c["suites"], c["metrics"], run.status))
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
    out = open_out(args.output)
    out.write("TAP version 13\n1..%d\n" % len(results))
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
    if out is not sys.stdout:
        out.close()
    return 0


def cmd_ktap(run, args):
    lines = run.run_lines()
    if not lines:
        raise ReportError("%s: no 'KTAP version 1' line: nothing to clean" % run.label)
    out = open_out(args.output)
    out.write("".join(l + "\n" for l in lines))
    if out is not sys.stdout:
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
    props.update({"ringlab.status": run.status or "incomplete", "ringlab.log_ok": str(run.ok).lower()})
    for k, a in (run.answers or {}).items():
        props["answer." + k] = "%s (%s)" % (a["text"], run.answer_tail(a))
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
    if out is not sys.stdout:
        out.close()
    return 0


def as_data(run):
    def fields(f):
        return {k: (num.number(v) if num.number(v) is not None else v) for k, v in f.items()}
    return {
        "file": run.label,
        "check": {"ok": run.ok, "errors": run.check_errors, "nerrors": run.nerrors,
                  "integrity": run.integrity},
        "status": run.status, "code": run.code, "panic": run.panic_text if run.panicked else None,
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
        "metrics": [{"name": m["name"], "suite": m["suite"], "case": m["case"],
                     "line": m["line"], **fields(m["fields"])} for m in run.metrics],
        "hists": [{"name": h["name"], "line": h["line"], **fields(h["fields"])}
                  for h in run.hists.values()],
    }


def cmd_json(run, args):
    out = open_out(args.output)
    json.dump(as_data(run), out, indent=1)
    out.write("\n")
    if out is not sys.stdout:
        out.close()
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
    if out is not sys.stdout:
        out.close()
    return 0


def cmd_times(run, args):
    """Wall time per suite, then per case, from the `# time:` lines."""
    out = open_out(args.output)
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
    if out is not sys.stdout:
        out.close()
    return 0
