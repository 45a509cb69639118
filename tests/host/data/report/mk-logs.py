#!/usr/bin/python3
"""Regenerate the two small synthetic logs that tests/host/check-report.sh
reads for the reading report (text/html: banner, conclusions, sections,
matrices, histograms) and for compare's decisions (verdict changes first,
significance by the [min..p99] rule, small numbers, --threshold).  Each is
a complete, valid ringlab log with its `# integrity:` line computed here
(docs/log-format.md, "Integrity line"): edit this file, never the .log
files, and run it:

    tests/host/data/report/mk-logs.py      # writes a.log and b.log beside it

The real logs beside them (tcg-seed1.log, tcg-seed7.log) are two quick
TCG runs of one build with different seeds; README.md here says how they
were made.
"""
import os
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def dist(name, lo, p50, p90, p99, hi, extra="", n=100):
    return "    # metric %s n=%d min=%d p50=%d p90=%d p99=%d max=%d mean=%d stddev=1 unit=cycles%s" % (
        name, n, lo, p50, p90, p99, hi, p50, extra)


def log(version, env, cases, grid_scale, shifted, tiny, big, problems=False):
    """cases: [(case, word)] of suite demo (word pass/fail/skip, or None:
    the case is absent); grid_scale multiplies the grid's cycles; shifted:
    (min, p50, p90, p99, max) of demo.shifted.lat; tiny/big: values;
    problems: `# error:`/`# warning:` lines at boot and in the suite (the
    reports show each beside its suite, or the boot)."""
    lines = ["KTAP version 1",
             "# id.version: %s" % version,
             "# id.boot: synthetic (tests/host/data/report/mk-logs.py)",
             "# id.bios: vendor=\"Synthetic BIOS Inc.\" version=\"1.2.3\" date=\"01/02/2025\"",
             "# id.system: vendor=\"Synthetic Systems\" product=\"Lab Box 9000\" serial=\"SN-42\"",
             "# id.board: vendor=\"Synthetic Boards\" product=\"MB-1\"",
             "# id.cpu.vendor: GenuineIntel",
             "# id.cpu.brand: Synthetic CPU @ 3.00GHz",
             "# id.cpu.signature: family=0x6 model=0x55 stepping=0x4 (cpuid 0x00050654)",
             "# id.env: %s" % env]
    if problems:
        lines += ["# warning: cpu: CPUID.7.0:EBX[11] (RTM) is set but XBEGIN;XEND raised #UD "
                  "(vector 6): treated as absent",
                  "# error: smp: APIC ID 3 did not start within 1000 ms (synthetic)"]
    cases = [(c, w) for c, w in cases if w is not None]
    lines += ["1..1", "    KTAP version 1", "    # Subtest: demo", "    1..%d" % len(cases)]
    if problems:
        lines.append("    # warning: demo: a synthetic warning printed inside the suite")
    npass = nfail = nskip = 0
    for i, (case, word) in enumerate(cases, 1):
        if case == "shifted":
            lines.append(dist("demo.shifted.lat", *shifted))
            lo, w = shifted[0], max(1, (shifted[3] - shifted[0]) // 16 + 1)
            lines.append("    # hist demo.shifted.lat unit=cycles lo=%d width=%d "
                         "counts=1,4,9,20,30,15,8,5,3,1,1,0,0,0,0,1 over=2" % (lo, w))
            lines.append("    # summary: the shifted latency is %d cycles (p50) (env=%s)"
                         % (shifted[1], env))
        elif case == "stable":
            lines.append(dist("demo.stable.lat", 100, 110, 120, 130, 150))
        elif case == "grid":
            for method in ("ipi", "full"):
                for pages in (1, 8, 64):
                    for cpus in (1, 2):
                        v = int(grid_scale * pages * cpus * (3 if method == "full" else 1)) + 100
                        lines.append(dist("demo.grid.%s.%dp.%dcpu" % (method, pages, cpus),
                                          v - 5, v, v + 5, v + 10, v + 20))
        elif case == "tiny":
            lines.append("    # metric demo.tiny.fraction value=%s unit=ratio" % tiny)
            lines.append("    # metric demo.tiny.rate value=%s unit=count" % big)
        if word == "pass":
            lines.append("    ok %d %s" % (i, case))
            npass += 1
        elif word == "skip":
            lines.append("    ok %d %s # SKIP synthetic" % (i, case))
            nskip += 1
        else:
            lines.append("    not ok %d %s # synthetic failure of %s" % (i, case, case))
            nfail += 1
        lines.append("    # result: demo.%s %s" % (case, word))
        lines.append("    # time: demo.%s duration_ms=%d.250" % (case, i))
    lines.append("not ok 1 demo # %d of %d cases failed" % (nfail, len(cases)) if nfail
                 else "ok 1 demo")
    lines += ["# time: demo duration_ms=%d.500" % (len(cases) + 1),
              "ringlab: %d passed, %d failed, %d skipped" % (npass, nfail, nskip),
              "# exit: status=%s code=%d" % (("fail", 1) if nfail else ("pass", 0))]
    body = "".join(l + "\n" for l in lines)
    return body + "# integrity: lines=%d crc32=%08x\n" % (len(lines), zlib.crc32(body.encode()))


LOGS = {
    # the reference: everything passes but `fixed`
    "a.log": log("v1-synthetic-a", "bare-metal",
                 [("stable", "pass"), ("shifted", "pass"), ("grid", "pass"), ("tiny", "pass"),
                  ("breaks", "pass"), ("fixed", "fail"), ("newcase", None)],
                 grid_scale=10, shifted=(100, 110, 120, 130, 150), tiny="0.0038", big="1000"),
    # `breaks` fails (worse), `fixed` passes (better), `newcase` appears;
    # demo.shifted.lat doubles with no overlap (significant), demo.stable.lat
    # overlaps (not), the grid grows by a factor 1.2 and the tiny values move
    "b.log": log("v1-synthetic-b", "hypervisor:KVMKVMKVM",
                 [("stable", "pass"), ("shifted", "pass"), ("grid", "pass"), ("tiny", "pass"),
                  ("breaks", "fail"), ("fixed", "pass"), ("newcase", "pass")],
                 grid_scale=12, shifted=(200, 220, 240, 260, 300), tiny="0.0076", big="1",
                 problems=True),
}

if __name__ == "__main__":
    for name, text in LOGS.items():
        with open(os.path.join(HERE, name), "w") as f:
            f.write(text)
        print("wrote", os.path.join(HERE, name))
