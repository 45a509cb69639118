# SPDX-License-Identifier: GPL-2.0-only
"""The parser's view of a log: ringlab-report never parses log lines itself;
it runs build/logcheck --json (tools/liblogcheck/*.c, the project's one
parser) and arranges its events as a run (Run): identity, suites with
their cases, metrics and histograms, the answers, the verdict, the runs
of the file.  logcheck reads the log file itself and its JSON goes to a
temporary file read one event at a time; metrics and histograms stay in
that file (Store) and are read back when asked for, so memory follows the
number of cases, not of lines."""

import array
import json
import os
import shutil
import subprocess
import sys
import tempfile

from . import ident


# tools/, where the ringlab-report script lies (build/logcheck is ../build)
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The exit statuses every host tool shares (docs/usage.md, "Exit status"):
# a run's verdict, a usage error, a tool that could not do its work.
EXIT_BY_STATUS = {"pass": 0, "fail": 1, "config-error": 2, "panic": 3, "skip": 4}
EXIT_USAGE = 2
EXIT_BROKEN = 125
EXIT_TOOL = 126


class ReportError(Exception):
    """One line for the user; code: the exit status (126: the tool could
    not do its work, 2: a usage error, 125: the log is not one)."""

    def __init__(self, msg, code=EXIT_TOOL):
        super().__init__(msg)
        self.code = code


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


# At most this many diagnostic lines are kept per case (its JUnit output,
# its "diag" in json): a real case prints a few dozen; a log with a
# million lines in one case must not need a million strings in memory.
DIAG_MAX = 2000


def parse_path(path, label=None, lava=False):
    """The parser's view of the log in file `path` ('-': standard input,
    spooled to a temporary file): logcheck reads the file itself and its
    JSON goes to a temporary file, read line by line, so a log of any
    size costs memory for its suites and cases, not its lines.  lava:
    the file is LAVA's own log of a job, whose serial stream is the log
    (lava.py)."""
    label = path if label is None else label
    if lava:
        from . import lava as lava_log
        try:
            with (sys.stdin if path == "-" else open(path, encoding="utf-8", errors="replace")) as f:
                text = f.read()
        except OSError as e:
            raise ReportError("cannot read %s: %s" % (path, e.strerror or e))
        raw, _ = lava_log.serial_log(text)
        if not raw:
            raise ReportError("%s has no serial stream (no \"target\" records): not LAVA's log of a job"
                              % label, EXIT_BROKEN)
        return parse(raw, label)
    if path == "-":
        tmp = tempfile.TemporaryFile(prefix="ringlab-report-")
        try:
            shutil.copyfileobj(sys.stdin.buffer, tmp, 1 << 20)
            tmp.flush()
        except OSError as e:
            raise ReportError("cannot read standard input: %s" % (e.strerror or e))
        tmp.seek(0)
        return _run_logcheck(tmp, label, tmp)
    try:
        f = open(path, "rb")
    except OSError as e:
        raise ReportError("cannot read %s: %s" % (path, e.strerror or e))
    return _run_logcheck(f, label, f)


def parse(raw, label):
    """The same for a log held in memory (bytes)."""
    tmp = tempfile.TemporaryFile(prefix="ringlab-report-")
    tmp.write(raw)
    tmp.flush()
    tmp.seek(0)
    return _run_logcheck(tmp, label, tmp)


def _run_logcheck(stdin, label, source):
    lc = logcheck_binary()
    spool = tempfile.TemporaryFile(prefix="ringlab-logcheck-json-")
    try:
        p = subprocess.run([lc, "--json", "-"], stdin=stdin, stdout=spool,
                           stderr=subprocess.PIPE, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise ReportError("cannot run %s: %s" % (lc, e))
    if p.returncode not in (0, 1):
        raise ReportError("%s failed on %s: %s" % (lc, label, p.stderr.decode("latin-1").strip()))
    spool.seek(0)
    return Run(spool, source, label)


# logcheck --json writes one event per line (tools/logcheck_json.c):
# '  {...},' and the last '  {...}],'; the rest of the document follows.
METRIC_PREFIX = b'  {"k": "metric"'
HIST_PREFIX = b'  {"k": "hist"'


def _event_json(line):
    s = line.rstrip(b"\r\n")
    if s.endswith(b"],"):
        return s[:-2], True
    return (s[:-1] if s.endswith(b",") else s), False


def _load(data, what):
    try:
        return json.loads(data.decode("ascii"))
    except (UnicodeDecodeError, ValueError) as e:
        raise ReportError("logcheck --json gave no valid JSON for %s: %s" % (what, e))


def _record(ev, case):
    return {"name": ev["name"], "line": ev["line"], "suite": ev["suite"], "case": case,
            "ok": ev["ok"], "fields": ev["fields"]}


class Store:
    """The metric (or histogram) events of a run, left in logcheck's JSON
    file: their offsets, and per record the index of its case (-1: none)
    in `cases`.  Records are read back as dicts when asked for, one at a
    time, in log order."""

    def __init__(self, spool, prefix, label):
        self.spool = spool
        self.prefix = prefix
        self.label = label
        self.offsets = array.array("q")
        self.case_of = array.array("l")
        self.cases = []

    def __len__(self):
        return len(self.offsets)

    def add(self, offset):
        self.offsets.append(offset)
        self.case_of.append(-1)

    def set_case(self, lo, name):
        """Records lo.. (those not yet given a case) belong to case `name`."""
        if lo >= len(self.offsets):
            return
        self.cases.append(name)
        k = len(self.cases) - 1
        for i in range(lo, len(self.offsets)):
            self.case_of[i] = k

    def _read(self, lo, hi):
        if lo >= hi:
            return
        f = self.spool
        pos = self.offsets[lo]
        i = lo
        while i < hi:
            # another reader of the same file (a histogram looked up while
            # the metrics are read) may have moved it
            if f.tell() != pos:
                f.seek(pos)
            line = f.readline()
            pos += len(line)
            if not line:
                raise ReportError("logcheck's JSON for %s ended early" % self.label)
            if not line.startswith(self.prefix):
                continue
            data, _ = _event_json(line)
            k = self.case_of[i]
            yield _record(_load(data, self.label), self.cases[k] if k >= 0 else None)
            i += 1

    def __iter__(self):
        return self._read(0, len(self.offsets))

    def range(self, lo, hi):
        return Range(self, lo, hi)


class Range:
    """The records lo..hi-1 of a Store (one case's metrics): len() and
    iteration, each iteration reading them again; head(n) as a list."""

    def __init__(self, store, lo, hi):
        self.store, self.lo, self.hi = store, lo, hi

    def __len__(self):
        return self.hi - self.lo

    def __bool__(self):
        return self.hi > self.lo

    def __iter__(self):
        return self.store._read(self.lo, self.hi)

    def head(self, n):
        return list(self.store._read(self.lo, min(self.hi, self.lo + n)))


class Hists:
    """name -> the first `# hist` record of that name, from a Store; the
    index is built the first time a name is asked for."""

    def __init__(self, store):
        self.store = store
        self.index = None

    def __len__(self):
        return len(self.store)

    def __bool__(self):
        return len(self.store) > 0

    def get(self, name, default=None):
        if self.index is None:
            self.index = {}
            for i, h in enumerate(self.store):
                self.index.setdefault(h["name"], i)
        i = self.index.get(name)
        return default if i is None else next(self.store._read(i, i + 1))

    def values(self):
        seen = set()
        for h in self.store:
            if h["name"] not in seen:
                seen.add(h["name"])
                yield h


class Run:
    def __init__(self, spool, source, label):
        self.spool = spool
        self.source = source        # the log itself (a file), for run_lines()
        self.label = label
        self.identity = {}
        self.preamble = []          # lines before the first suite
        self.tail = []              # lines after the last suite
        self.suites = []
        self.metrics = Store(spool, METRIC_PREFIX, label)   # in log order
        self.hists = Hists(Store(spool, HIST_PREFIX, label))
        # `# error:` and `# warning:` lines: where, text, line, and place:
        # the suite they were printed in, "boot" before the first suite,
        # "end" after the last one
        self.errors = []
        self.warnings = []
        self.panic_text = None
        # diagnostics that state a conclusion (logcheck gives them "env":
        # docs/host-tools.md) outside any suite
        self.conclusions = []
        doc = self._arrange()
        self.doc = doc
        self.ok = doc["ok"]
        self.check_errors = doc["errors"]
        self.nerrors = doc["nerrors"]
        self.status = doc["status"]
        self.code = doc["code"]
        self.panicked = doc["panic"]
        # the verdict every tool's exit status follows: logcheck's (an
        # all-skipped run is "skip"); an older logcheck has none
        self.verdict = doc.get("verdict") or (
            "incomplete" if not doc["integrity"]["present"] else
            "broken" if not doc["ok"] else self.status)
        self.counts = doc["counts"]
        self.integrity = doc["integrity"]
        # key -> {text, from[], control, env, line}; None: no answers block
        self.answers = doc.get("answers")
        self.answers_env = doc.get("answers_env")
        # several runs in one file (docs/log-format.md): the judged one,
        # every run's verdict, and the checker's notes and warnings
        self.runs = doc.get("runs", 1)
        self.judged = doc.get("run", 1)
        self.run_verdicts = doc.get("run_verdicts", [])
        self.notes = doc.get("notes", [])
        self.others_not_passed = doc.get("others_not_passed", 0)
        # --all-runs: a run other than the judged one that did not pass
        # fails the log too (cli.py sets it)
        self.all_runs = False

    def _arrange(self):
        f = self.spool
        head = f.readline()
        if not head.startswith(b'{"format": "ringlab-logcheck-json 1"'):
            raise ReportError("logcheck --json gave no valid JSON for %s: %r" % (self.label, head[:80]))
        line = f.readline()
        more = line.strip() == b'"events": ['
        if not more and line.strip() != b'"events": [],':
            raise ReportError("logcheck --json gave no valid JSON for %s: %r" % (self.label, line[:80]))
        suite = None
        pending = []                # diagnostic texts of the case to come
        npending = 0
        pending_m = pending_h = 0   # first metric / hist of the case to come
        store, hstore = self.metrics, self.hists.store
        while more:
            offset = f.tell()
            line = f.readline()
            if not line.startswith(b"  {"):
                raise ReportError("logcheck --json gave no valid JSON for %s: %r"
                                  % (self.label, line[:80]))
            data, last = _event_json(line)
            more = not last
            record = line.startswith(METRIC_PREFIX) or line.startswith(HIST_PREFIX)
            if record:
                (store if line.startswith(METRIC_PREFIX) else hstore).add(offset)
                if suite is not None and npending >= DIAG_MAX:
                    npending += 1
                    continue
                if suite is None and len(self.tail) >= DIAG_MAX:
                    continue
            ev = _load(data, self.label)
            k = ev["k"]
            if k == "id":
                self.identity.setdefault(ev["key"], ev["value"])
            elif k == "suite":
                suite = self._suite(ev["name"], ev["line"])
                pending, npending = [], 0
                pending_m, pending_h = len(store), len(hstore)
            elif k == "time":
                pass                # carried by the result it follows (duration_ms)
            elif k == "result" and ev["level"] == 1 and suite is not None:
                case = {"suite": suite["name"], "name": ev["name"], "num": ev["num"],
                        "result": ev["result"], "reason": ev["reason"], "line": ev["line"],
                        "duration_ms": ev.get("duration_ms"),
                        "diag": self._capped(pending, npending),
                        "metrics": store.range(pending_m, len(store))}
                store.set_case(pending_m, ev["name"])
                hstore.set_case(pending_h, ev["name"])
                for x in suite["conclusions"]:
                    if x["case"] is None and x["line"] < ev["line"]:
                        x["case"] = ev["name"]
                suite["cases"].append(case)
                pending, npending = [], 0
                pending_m, pending_h = len(store), len(hstore)
            elif k == "result" and ev["level"] == 0:
                if suite is None or suite["result"] != "missing":
                    suite = self._suite(ev["name"], ev["line"])
                suite.update(num=ev["num"], result=ev["result"], reason=ev["reason"],
                             duration_ms=ev.get("duration_ms"))
                suite["diag"] += self._capped(pending, npending)
                pending, npending = [], 0
                pending_m, pending_h = len(store), len(hstore)
                suite = None
            else:
                if k in ("error", "warning"):
                    place = suite["name"] if suite is not None else \
                        "boot" if not self.suites else "end"
                    (self.errors if k == "error" else self.warnings).append(
                        {"where": ev["key"], "text": ev["value"], "line": ev["line"],
                         "place": place})
                elif k == "panic":
                    self.panic_text = ev["value"]
                elif k == "diag" and ev.get("env"):
                    c = {"text": ev["value"], "env": ev["env"], "line": ev["line"], "case": None}
                    (suite["conclusions"] if suite is not None else self.conclusions).append(c)
                if suite is not None:
                    if npending < DIAG_MAX:
                        pending.append(ev["text"])
                    npending += 1
                elif not self.suites:
                    self.preamble.append(ev["text"])
                elif len(self.tail) < DIAG_MAX:
                    self.tail.append(ev["text"])
        return _load(b"{" + f.read().lstrip(b"\n"), self.label)

    def _suite(self, name, line):
        s = {"name": name, "num": None, "result": "missing", "reason": "", "line": line,
             "cases": [], "diag": [], "duration_ms": None, "conclusions": []}
        self.suites.append(s)
        return s

    @staticmethod
    def _capped(texts, n):
        if n > len(texts):
            return texts + ["... %d more lines (the log has them)" % (n - len(texts))]
        return texts

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
        if self.all_runs and self.others_not_passed:
            warn = [n["text"] for n in self.notes if n["level"] == "warning"]
            out.append(("ringlab.runs", "%d of the %d runs in the log did not pass (--all-runs): %s"
                        % (self.others_not_passed, self.runs, "; ".join(warn[:3])), warn))
        return out

    def notes_lines(self):
        """The checker's notes and warnings about the file (several runs,
        output after the integrity line), as 'note: ...'/'warning: ...'."""
        return ["%s: %s" % (n["level"], n["text"]) for n in self.notes]

    def exit_status(self):
        """The run's exit status (docs/usage.md, "Exit status"): its
        verdict's; --all-runs: 1 when it passed or skipped and another
        run in the log did not."""
        if not self.ok or self.verdict not in EXIT_BY_STATUS:
            return EXIT_BROKEN
        code = EXIT_BY_STATUS[self.verdict]
        if code in (0, 4) and self.all_runs and self.others_not_passed:
            return 1
        return code

    def machine(self):
        """The machine's name: SMBIOS system vendor, product and serial,
        else the CPU brand, else the log's file name."""
        name, _ = ident.machine(self.identity)
        return name or os.path.basename(self.label)

    def problems_of(self, place):
        """The `# error:` and `# warning:` lines printed at `place` (a
        suite's name, "boot" or "end"), in log order, as (kind, line)."""
        out = [("error", e) for e in self.errors if e["place"] == place] + \
            [("warning", w) for w in self.warnings if w["place"] == place]
        return sorted(out, key=lambda x: x[1]["line"])

    def answer_keys(self):
        """The ten questions, then any key the log has that this tool does
        not know (a newer kernel)."""
        known = [k for k, _ in QUESTIONS]
        return known + [k for k in (self.answers or {}) if k not in known]

    def answer_tail(self, a):
        return "from=%s; control=%s; env=%s" % (",".join(a["from"]) or "none", a["control"],
                                                a["env"])

    def run_lines(self):
        """The judged run's lines, without line ends, one at a time: the
        parser says where it starts and ends (its integrity line, when
        there is one).  Nothing when the log has no start line."""
        s, e = self.doc["start_line"], self.doc["end_line"]
        if not s:
            return
        f = self.source
        f.seek(0)
        for n, line in enumerate(f, 1):
            if n > e:
                break
            if n >= s:
                yield line.decode("latin-1").rstrip("\n").rstrip("\r")
