#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Mutation fuzzing of the host tools' input handling:
tools/ringlab-report (every subcommand, text and compare --threshold
included) and tools/ringlab-capture's live
progress parser, fed corrupted ringlab logs.

The log grammar itself is fuzzed with libFuzzer in tests/fuzz/fuzz_logcheck.c
(build/logcheck is the one parser; ringlab-report reads its --json).  What
this adds: the Python side must survive whatever that parser lets through
(odd metric fields, huge or negative numbers, control characters, missing
suites, repeated runs) and produce well-formed output:

  - no exception other than ReportError (which main() turns into one
    "ringlab-report: error: ..." line and exit 2);
  - json loads, junit parses as XML, csv parses, tap starts with its
    version line and plan, html is one closed document, ktap starts with
    the start line, text and tap hold no control character but newline
    and tab (an ESC from the log is written \\x1b);
  - compare of two mutants works the same way;
  - Progress.line() of ringlab-capture never raises.

Mutants are derived from tests/host/data/logs/*.log,
tests/host/data/report/*.log and, when present,
build/test-logs/*.log (real runs with metrics and histograms), with a fixed
seed so a failure is reproducible; a failing input is kept in
BUILD/fuzz-report/ with its traceback.  Hypothesis or atheris would do the
mutation for us but neither is needed for this and atheris is not packaged
in Debian 12.

Usage: tests/host/fuzz-report.py [BUILD] [--runs N] [--seed S]
Prints "PASS|FAIL fuzz-report: ..." and "PASS|FAIL fuzz-capture-progress: ...".
Long run: tests/host/fuzz-report.py build --runs 20000
"""

import argparse
import csv
import glob
import importlib.machinery
import importlib.util
import io
import json
import os
import random
import re
import sys
import tempfile
import traceback
import types
import xml.etree.ElementTree as ET
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_tool(name):
    path = os.path.join(ROOT, "tools", name)
    loader = importlib.machinery.SourceFileLoader(name.replace("-", "_"), path)
    spec = importlib.util.spec_from_loader(loader.name, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


# Values that stress number handling: empty, signs, overflow, floats, hex.
NASTY = [b"", b"0", b"-1", b"-0", b"18446744073709551616", b"99999999999999999999999999",
         b"nan", b"inf", b"1e309", b"0x10", b"1.5", b"\xff", b"=", b",,,", b"1,-5,x,"]
NASTY_LINES = [b"KTAP version 1", b"# id.cpu.vendor: \x1b[31mX\x1b]0;t\x07\x9b2J",
               b"    ok 1 a # SKIP \x1b[2J", b"not ok 1 x\x1b # \x07", b"1..0", b"1..99999999", b"    KTAP version 1",
               b"    # Subtest: x", b"    1..1", b"    ok 1 a", b"ok 1 x", b"not ok 1 x # PANIC",
               b"# integrity: lines=1 crc32=00000000", b"# exit: status=pass code=0",
               b"ringlab: 1 passed, 0 failed, 0 skipped", b"ringlab: PANIC: x",
               b"    # metric a.b.c value=1 unit=ns", b"    # metric a.b.c value=2 unit=ns",
               b"    # hist a.b.h unit=cycles lo=0 width=0 counts=1,2,3 over=-4",
               b"    # hist a.b.g unit=cycles lo=-5 width=99999999999 counts= over=",
               b"# error: x: \x1b[31m\x00\x01<&>\"'", b"# id.cpu.brand: \x7f\xfe]]>",
               b"    # result: a.b pass", b"\r", b"\r\r", b""]


def mutate(rng, data, seeds):
    lines = data.split(b"\n")
    for _ in range(rng.randint(1, 6)):
        op = rng.randrange(9)
        if not lines:
            lines = [b""]
        i = rng.randrange(len(lines))
        if op == 0:                                  # flip bytes in a line
            l = bytearray(lines[i])
            for _ in range(rng.randint(1, 3)):
                if l:
                    l[rng.randrange(len(l))] = rng.randrange(256)
            lines[i] = bytes(l)
        elif op == 1:
            del lines[i]
        elif op == 2:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif op == 3:                                # swap two lines
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 4:                                # a field value replaced
            parts = lines[i].split(b"=")
            if len(parts) > 1:
                k = rng.randrange(1, len(parts))
                rest = parts[k].split(b" ", 1)
                rest[0] = rng.choice(NASTY)
                parts[k] = b" ".join(rest)
                lines[i] = b"=".join(parts)
        elif op == 5:
            lines.insert(i, rng.choice(NASTY_LINES))
        elif op == 6:                                # splice from another log
            other = rng.choice(seeds).split(b"\n")
            j = rng.randrange(len(other))
            lines[i:i] = other[j:j + rng.randint(1, 40)]
        elif op == 7:                                # truncate
            lines = lines[:i]
        else:                                        # a number made huge
            l = lines[i]
            digits = [k for k, c in enumerate(l) if 48 <= c <= 57]
            if digits:
                k = rng.choice(digits)
                lines[i] = l[:k] + b"9" * rng.randint(10, 40) + l[k:]
    out = b"\n".join(lines)
    if rng.random() < 0.1:
        out = out.replace(b"\n", b"\r\r\n")
    return out


def reseal(data):
    """Recompute the integrity line (docs/log-format.md, "Integrity line")
    so that the mutant reaches the paths of a log the checker accepts."""
    lines = [l.rstrip(b"\r") for l in data.split(b"\n")]
    starts = [i for i, l in enumerate(lines) if l == b"KTAP version 1"]
    if not starts:
        return data
    s = starts[-1]
    ends = [i for i, l in enumerate(lines) if l.startswith(b"# integrity: ") and i > s]
    e = ends[-1] if ends else len(lines)
    body = b"".join(l + b"\n" for l in lines[s:e])
    seal = b"# integrity: lines=%d crc32=%08x" % (e - s, zlib.crc32(body))
    return b"\n".join(lines[:e] + [seal]) + b"\n"


# what text and tap must never write (docs/host-tools.md, terminal safety)
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def check_outputs(report, run, tmp):
    """Every single-log subcommand; raises on a malformed output."""
    ns = types.SimpleNamespace
    for cmd in ("check", "tap", "ktap", "junit", "json", "csv", "html", "text"):
        path = os.path.join(tmp, "out." + cmd)
        if os.path.exists(path):
            os.unlink(path)
        try:
            getattr(report, "cmd_" + cmd)(run, ns(output=path, log=run.label))
        except report.ReportError:
            continue
        if cmd in ("check",) or not os.path.exists(path):
            continue
        if cmd == "ktap":
            # the log's own bytes (Latin-1), from its start line
            with open(path, "rb") as f:
                if not f.read().startswith(b"KTAP version 1\n"):
                    raise AssertionError("ktap output does not start with the start line")
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if cmd in ("text", "tap") and CONTROL.search(text):
            raise AssertionError("%s output holds a control character: %r"
                                 % (cmd, CONTROL.search(text).group()))
        if cmd == "json":
            json.loads(text)
        elif cmd == "junit":
            ET.fromstring(text.encode("utf-8"))
        elif cmd == "csv":
            list(csv.reader(io.StringIO(text)))
        elif cmd == "tap":
            if not text.startswith("TAP version 13\n1.."):
                raise AssertionError("tap output does not start with its version and plan")
        elif cmd == "html":
            if text.count("</html>") != 1:
                raise AssertionError("html output is not one closed document")
        elif cmd == "text":
            if not text.startswith("ringlab run: ") or "== Contents" not in text:
                raise AssertionError("text output lacks its verdict line or contents")


def fuzz(report, capture, seeds, runs, seed, crashdir):
    """Mutants through every subcommand; returns (failures by tool, first
    failure by tool, mutants logcheck judged broken or
    could not read)."""
    rng = random.Random(seed)
    fails = {"report": 0, "capture": 0}
    rejected = 0
    sink = io.StringIO()
    first = {}
    with tempfile.TemporaryDirectory() as tmp:
        prev = None
        for n in range(runs):
            raw = mutate(rng, rng.choice(seeds), seeds)
            if rng.random() < 0.5:
                raw = reseal(raw)
            where = "report"
            try:
                real_stdout, real_stderr = sys.stdout, sys.stderr
                sys.stdout = sys.stderr = sink
                try:
                    try:
                        run = report.parse(raw, "mutant-%d.log" % n)
                    except report.ReportError:
                        rejected += 1
                        run = None
                    if run is not None:
                        if not run.ok:
                            rejected += 1
                        check_outputs(report, run, tmp)
                        if prev is not None:
                            cpath = os.path.join(tmp, "out.compare")
                            for as_csv in (False, True):
                                report.cmd_compare([prev, run], types.SimpleNamespace(
                                    output=cpath, csv=as_csv, match=None, common=as_csv,
                                    threshold=None if as_csv else 1.5))
                        prev = run
                    where = "capture"
                    for live in (False, True):
                        prog = capture.Progress(io.StringIO(), live)
                        for l in raw.split(b"\n"):
                            prog.line(l.rstrip(b"\r"))
                finally:
                    sys.stdout, sys.stderr = real_stdout, real_stderr
                    sink.seek(0)
                    sink.truncate()
            except Exception:
                fails[where] += 1
                if crashdir is None:
                    continue
                os.makedirs(crashdir, exist_ok=True)
                path = os.path.join(crashdir, "crash-%s-%d.log" % (where, n))
                with open(path, "wb") as f:
                    f.write(raw)
                with open(path + ".txt", "w") as f:
                    f.write(traceback.format_exc())
                first.setdefault(where, "%s (%s)" % (path, traceback.format_exc().strip().splitlines()[-1]))
    return fails, first, rejected


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("build", nargs="?", default="build")
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=12)
    args = ap.parse_args(argv)
    build = os.path.join(ROOT, args.build)
    os.environ.setdefault("RINGLAB_LOGCHECK", os.path.join(build, "logcheck"))
    if not os.access(os.environ["RINGLAB_LOGCHECK"], os.X_OK):
        print("FAIL fuzz-report: no %s (make build/logcheck)" % os.environ["RINGLAB_LOGCHECK"])
        return 1
    report = load_tool("ringlab-report")
    capture = load_tool("ringlab-capture")
    try:
        import junit_xml  # noqa: F401
    except ImportError:
        print("SKIP fuzz-report: python3-junit.xml not installed")
        return 0

    files = sorted(glob.glob(os.path.join(ROOT, "tests", "host", "data", "logs", "*.log")))
    # real quick runs with histograms, grids and conclusion lines, and the
    # synthetic compare pair (tests/host/data/report/)
    files += sorted(glob.glob(os.path.join(ROOT, "tests", "host", "data", "report", "*.log")))
    files += sorted(glob.glob(os.path.join(build, "test-logs", "*.log")))[:40]
    seeds = []
    for p in files:
        with open(p, "rb") as f:
            d = f.read()
        if b"KTAP version 1" in d and len(d) < 2 << 20:
            seeds.append(d)
    fails, first, rejected = fuzz(report, capture, seeds, args.runs, args.seed,
                                  os.path.join(build, "fuzz-report"))
    rc = 0
    for where, name in (("report", "fuzz-report"), ("capture", "fuzz-capture-progress")):
        if fails[where]:
            rc = 1
            print("FAIL %s: %d of %d mutants raised; first: %s" % (name, fails[where], args.runs, first[where]))
        else:
            print("PASS %s: %d mutants of %d logs (seed %d), %d of them judged broken by logcheck, "
                  "no exception, every output well-formed" % (name, args.runs, len(seeds), args.seed,
                                                               rejected) if where == "report" else
                  "PASS %s: %d mutants, no exception" % (name, args.runs))
    # Negative control: the same fuzzing must catch a planted bug, a
    # number() that no longer tolerates a non-numeric field (as an
    # int(field) written without thinking would).
    good = report.num.number
    report.num.number = int
    try:
        cfails, _, _ = fuzz(report, capture, seeds, min(args.runs, 200), args.seed, None)
    finally:
        report.num.number = good
    if cfails["report"]:
        print("PASS fuzz-report-control: a planted int(field) in ringlab-report raised in %d of %d mutants"
              % (cfails["report"], min(args.runs, 200)))
    else:
        rc = 1
        print("FAIL fuzz-report-control: a planted int(field) in ringlab-report went unnoticed in %d mutants"
              % min(args.runs, 200))
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
