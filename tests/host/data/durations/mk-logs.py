#!/usr/bin/python3
"""Regenerate the small synthetic logs with `# time:` lines (per-case and
per-suite wall time, docs/log-format.md) that tests/host/check-report.sh
reads for junit time=, html, json, `times` and compare.  Each is a complete,
valid ringlab log with its `# integrity:` line computed here, so edit this
file, never the .log files, and run it:

    tests/host/data/durations/mk-logs.py    # writes the .log files beside it
"""
import os
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def log(version, suites):
    """suites: [(name, suite_ms or None, [(case, word, ms or None)])];
    word: pass, skip or fail."""
    lines = ["KTAP version 1",
             "# id.version: %s" % version,
             "# id.boot: synthetic (tests/host/data/durations/mk-logs.py)",
             "# id.env: emulator:qemu-tcg",
             "1..%d" % len(suites)]
    npass = nfail = nskip = 0
    for si, (suite, suite_ms, cases) in enumerate(suites, 1):
        lines += ["    KTAP version 1", "    # Subtest: %s" % suite, "    1..%d" % len(cases)]
        failed = skipped = 0
        for ci, (case, word, ms) in enumerate(cases, 1):
            if word == "pass":
                lines.append("    ok %d %s" % (ci, case))
                npass += 1
            elif word == "skip":
                lines.append("    ok %d %s # SKIP synthetic" % (ci, case))
                nskip += 1
                skipped += 1
            else:
                lines.append("    not ok %d %s # synthetic failure" % (ci, case))
                nfail += 1
                failed += 1
            lines.append("    # result: %s.%s %s" % (suite, case, word))
            if ms is not None:
                lines.append("    # time: %s.%s duration_ms=%s" % (suite, case, ms))
        if failed:
            lines.append("not ok %d %s # %d of %d cases failed" % (si, suite, failed, len(cases)))
        elif skipped == len(cases):
            lines.append("ok %d %s # SKIP all cases skipped" % (si, suite))
        else:
            lines.append("ok %d %s" % (si, suite))
        if suite_ms is not None:
            lines.append("# time: %s duration_ms=%s" % (suite, suite_ms))
    lines += ["ringlab: %d passed, %d failed, %d skipped" % (npass, nfail, nskip),
              "# exit: status=%s code=%d" % (("fail", 1) if nfail else ("pass", 0))]
    body = "".join(l + "\n" for l in lines)
    return body + "# integrity: lines=%d crc32=%08x\n" % (len(lines), zlib.crc32(body.encode()))


LOGS = {
    # every case and suite timed; one failure, one skip
    "a.log": log("v1-synthetic-a", [
        ("boot", "2.000", [("mbi", "pass", "1.500"), ("mmap", "skip", "0.250")]),
        ("fence", "12.500", [("alone", "pass", "10.000"), ("stores", "fail", "2.000")])]),
    # twice as slow; fence has no suite line (the report sums its cases) and
    # one case has no time at all (a report shows '-')
    "b.log": log("v1-synthetic-b", [
        ("boot", "4.000", [("mbi", "pass", "3.000"), ("mmap", "skip", "0.500")]),
        ("fence", None, [("alone", "pass", "20.000"), ("stores", "pass", "5.000")]),
        ("extra", "1.000", [("only", "pass", None)])]),
}

if __name__ == "__main__":
    for name, text in LOGS.items():
        with open(os.path.join(HERE, name), "w") as f:
            f.write(text)
        print("wrote", os.path.join(HERE, name))
