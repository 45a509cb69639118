# SPDX-License-Identifier: GPL-2.0-only
"""The parser's view of a log: ringlab-report never parses log lines itself;
it runs build/logcheck --json (tools/liblogcheck/*.c, the project's one
parser) and arranges its events as a run (Run): identity, suites with
their cases, metrics and histograms, the answers, the verdict."""

import json
import os
import shutil
import subprocess
import sys


# tools/, where the ringlab-report script lies (build/logcheck is ../build)
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXIT_BY_STATUS = {"pass": 0, "fail": 1, "config-error": 2, "panic": 3}
EXIT_BROKEN = 125


class ReportError(Exception):
    pass


# The questions of the answers block, in the runner's order (kernel/test.h
# ANSWER_*, docs/log-format.md "Answers"), each with the question it answers.
QUESTIONS = [
    ("wrmsr_fence", "Does an x2APIC ICR WRMSR need MFENCE;LFENCE before it?"),
    ("rdtsc_order", "Can plain RDTSC go backwards across CPUs, and which fenced reads are safe?"),
    ("nt_clear", "When do non-temporal page clears beat REP STOSB?"),
    ("tlb_flush", "What does a one-page INVLPG cost against a full flush?"),
    ("tlb_shootdown", "What does a TLB shootdown cost (IPI vs INVLPGB)?"),
    ("ipi_cost", "What does an IPI cost, with and without the fence?"),
    ("tscdeadline", "How late does a TSC-deadline interrupt fire?"),
    ("spec_cost", "What do the speculation controls cost?"),
    ("litmus", "Which memory-ordering outcomes does this machine show?"),
    ("fence_cost", "What does each fence cost?"),
]


def logcheck_binary():
    env = os.environ.get("RINGLAB_LOGCHECK")
    if env:
        return env
    local = os.path.join(HERE, "..", "build", "logcheck")
    if os.access(local, os.X_OK):
        return os.path.normpath(local)
    found = shutil.which("logcheck")
    if found:
        return found
    raise ReportError("cannot find build/logcheck (run `make build/logcheck`, or set RINGLAB_LOGCHECK)")


def read_input(path):
    try:
        if path == "-":
            return sys.stdin.buffer.read()
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise ReportError("cannot read %s: %s" % (path, e.strerror or e))


def parse(raw, label):
    """The parser's view of a log, arranged as a run: identity, suites with
    their cases, metrics and histograms, the verdict."""
    lc = logcheck_binary()
    try:
        p = subprocess.run([lc, "--json", "-"], input=raw, capture_output=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise ReportError("cannot run %s: %s" % (lc, e))
    if p.returncode not in (0, 1):
        raise ReportError("%s failed on %s: %s" % (lc, label, p.stderr.decode("latin-1").strip()))
    try:
        doc = json.loads(p.stdout.decode("ascii"))
    except (UnicodeDecodeError, ValueError) as e:
        raise ReportError("%s --json gave no valid JSON for %s: %s" % (lc, label, e))
    return Run(doc, raw, label)


class Run:
    def __init__(self, doc, raw, label):
        self.doc = doc
        self.raw = raw
        self.label = label
        self.ok = doc["ok"]
        self.check_errors = doc["errors"]
        self.nerrors = doc["nerrors"]
        self.status = doc["status"]
        self.code = doc["code"]
        self.panicked = doc["panic"]
        self.counts = doc["counts"]
        self.integrity = doc["integrity"]
        self.identity = {}
        self.preamble = []          # lines before the first suite
        self.tail = []              # lines after the last suite
        self.suites = []
        self.metrics = []           # in log order
        self.hists = {}
        self.errors = []            # `# error:` lines
        self.warnings = []
        self.panic_text = None
        # diagnostics that state a conclusion (logcheck gives them "env":
        # docs/host-tools.md) outside any suite
        self.conclusions = []
        # key -> {text, from[], control, env, line}; None: no answers block
        self.answers = doc.get("answers")
        self.answers_env = doc.get("answers_env")
        self._arrange(doc["events"])

    def _arrange(self, events):
        suite = None
        pending = []                # diagnostic events of the case to come
        pending_metrics = []
        for ev in events:
            k = ev["k"]
            if k == "id":
                self.identity.setdefault(ev["key"], ev["value"])
            elif k == "suite":
                suite = {"name": ev["name"], "num": None, "result": "missing",
                         "reason": "", "line": ev["line"], "cases": [], "diag": [],
                         "duration_ms": None, "conclusions": []}
                self.suites.append(suite)
                pending, pending_metrics = [], []
            elif k == "time":
                pass                # carried by the result it follows (duration_ms)
            elif k == "result" and ev["level"] == 1 and suite is not None:
                case = {"suite": suite["name"], "name": ev["name"], "num": ev["num"],
                        "result": ev["result"], "reason": ev["reason"], "line": ev["line"],
                        "duration_ms": ev.get("duration_ms"),
                        "diag": [e["text"] for e in pending], "metrics": pending_metrics}
                for m in pending_metrics:
                    m["case"] = ev["name"]
                for x in suite["conclusions"]:
                    if x["case"] is None and x["line"] < ev["line"]:
                        x["case"] = ev["name"]
                suite["cases"].append(case)
                pending, pending_metrics = [], []
            elif k == "result" and ev["level"] == 0:
                if suite is None or suite["result"] != "missing":
                    suite = {"name": ev["name"], "num": None, "result": "missing",
                             "reason": "", "line": ev["line"], "cases": [], "diag": [],
                             "duration_ms": None, "conclusions": []}
                    self.suites.append(suite)
                suite.update(num=ev["num"], result=ev["result"], reason=ev["reason"],
                             duration_ms=ev.get("duration_ms"))
                suite["diag"] += [e["text"] for e in pending]
                pending, pending_metrics = [], []
                suite = None
            else:
                if k in ("metric", "hist"):
                    rec = {"name": ev["name"], "line": ev["line"], "suite": ev["suite"],
                           "case": None, "ok": ev["ok"], "fields": ev["fields"]}
                    if k == "metric":
                        self.metrics.append(rec)
                        pending_metrics.append(rec)
                    else:
                        self.hists.setdefault(ev["name"], rec)
                elif k == "error":
                    self.errors.append({"where": ev["key"], "text": ev["value"], "line": ev["line"]})
                elif k == "warning":
                    self.warnings.append({"where": ev["key"], "text": ev["value"], "line": ev["line"]})
                elif k == "panic":
                    self.panic_text = ev["value"]
                elif k == "diag" and ev.get("env"):
                    c = {"text": ev["value"], "env": ev["env"], "line": ev["line"], "case": None}
                    (suite["conclusions"] if suite is not None else self.conclusions).append(c)
                if suite is not None:
                    pending.append(ev)
                elif not self.suites:
                    self.preamble.append(ev["text"])
                else:
                    self.tail.append(ev["text"])

    # -- durations (`# time:` lines; None in logs without them) --

    def suite_ms(self, s):
        """The suite's wall time: its own `# time:` line, else the sum of
        its cases' (None when none has one)."""
        if s.get("duration_ms") is not None:
            return s["duration_ms"]
        ds = [c["duration_ms"] for c in s["cases"] if c.get("duration_ms") is not None]
        return sum(ds) if ds else None

    # -- verdict --

    def cases(self):
        for s in self.suites:
            for c in s["cases"]:
                yield c

    def has_config_result(self):
        return any(s["name"] == "config" and s["result"] != "pass" for s in self.suites)

    def has_panic_result(self):
        return any(c["result"] == "panic" for c in self.cases()) or \
            any(s["result"] == "panic" for s in self.suites)

    def problems(self):
        """Failures that no case result carries: (name, message, details).
        A config error or panic in an old-format log, a broken log."""
        out = []
        if self.status == "config-error" and not self.has_config_result():
            msg = "configuration error: " + "; ".join(
                "%s: %s" % (e["where"], e["text"]) for e in self.errors[:3])
            out.append(("ringlab.config", msg, [e["where"] + ": " + e["text"] for e in self.errors]))
        if self.panicked and not self.has_panic_result():
            out.append(("ringlab.panic", "PANIC: %s" % (self.panic_text or "?"), []))
        if not self.ok:
            first = self.check_errors[0] if self.check_errors else "rejected"
            what = "truncated log" if not self.integrity["ok"] else "log check failed"
            out.append(("ringlab.log", "%s: %s" % (what, first), self.check_errors))
        return out

    def exit_status(self):
        if not self.ok or self.status not in EXIT_BY_STATUS:
            return EXIT_BROKEN
        return EXIT_BY_STATUS[self.status]

    def machine(self):
        brand = self.identity.get("cpu.brand")
        return brand or os.path.basename(self.label)

    def answer_keys(self):
        """The ten questions, then any key the log has that this tool does
        not know (a newer kernel)."""
        known = [k for k, _ in QUESTIONS]
        return known + [k for k in (self.answers or {}) if k not in known]

    def answer_tail(self, a):
        return "from=%s; control=%s; env=%s" % (",".join(a["from"]) or "none", a["control"],
                                                a["env"])

    def run_lines(self):
        """The judged run's lines, without line ends: the parser says where
        it starts and ends (its integrity line, when there is one)."""
        text = self.raw.decode("latin-1").split("\n")
        lines = [l.rstrip("\r") for l in text]
        s, e = self.doc["start_line"], self.doc["end_line"]
        if not s:
            return []
        return lines[s - 1:e]
