#!/usr/bin/python3
"""Regenerate the small synthetic logs with an answers block that
tests/host/check-report.sh reads (the fleet view, compare, html/json/junit
answers).  Each is a complete, valid ringlab log: its `# integrity:` line
is computed here (docs/log-format.md, "Integrity line"), so edit this file,
never the .log files, and run it:

    tests/host/data/answers/mk-logs.py      # writes the .log files beside it
"""
import os
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
KEYS = ["wrmsr_fence", "rdtsc_order", "nt_clear", "tlb_flush", "tlb_shootdown",
        "ipi_cost", "tscdeadline", "spec_cost", "litmus", "fence_cost"]


def dist(name, p50, lo, hi, facts=""):
    return "    # metric %s n=100 min=%d p50=%d p90=%d p99=%d max=%d mean=%d stddev=1 unit=cycles%s" % (
        name, lo, p50, hi, hi, hi, p50, facts and " " + facts)


def log(vendor, brand, env, version, metrics, answers):
    """metrics: (case, [lines]); answers: key -> (text, from, control)."""
    lines = ["KTAP version 1",
             "# id.version: %s" % version,
             "# id.boot: synthetic (tests/host/data/answers/mk-logs.py)",
             "# id.cpu.vendor: %s" % vendor,
             "# id.cpu.brand: %s" % brand,
             "# id.env: %s" % env,
             "1..1",
             "    KTAP version 1",
             "    # Subtest: fence",
             "    1..%d" % len(metrics)]
    for i, (case, mlines) in enumerate(metrics, 1):
        lines += mlines
        lines += ["    ok %d %s" % (i, case), "    # result: fence.%s pass" % case]
    lines += ["ok 1 fence", "# answers: env=%s" % env]
    for k in KEYS:
        if k in answers:
            text, frm, control = answers[k]
            lines.append("# answer %s: %s (from=%s; control=%s; env=%s)" % (k, text, frm, control, env))
        else:
            lines.append("# answer %s: not measured: the synthetic log has no such suite "
                         "(from=none; control=none; env=%s)" % (k, env))
    lines += ["ringlab: %d passed, 0 failed, 0 skipped" % len(metrics), "# exit: status=pass code=0"]
    body = "".join(l + "\n" for l in lines)
    return body + "# integrity: lines=%d crc32=%08x\n" % (len(lines), zlib.crc32(body.encode()))


LOGS = {
    "intel-bare-metal.log": log(
        "GenuineIntel", "Intel(R) Xeon(R) Synthetic 1 @ 2.0GHz", "bare-metal", "v1-synthetic-a",
        # lfence above the noise here, within it on amd-kvm: compare's one
        # changed conclusion (docs/log-format.md, "Conclusion tokens")
        [("alone", [dist("fence.alone.mfence", 40, 35, 50, "delta_verdict=above-noise"),
                    dist("fence.alone.lfence", 6, 5, 8, "delta_verdict=above-noise"),
                    dist("fence.alone.cpuid", 100, 95, 110)]),
         ("stores", ["    # metric fence.stores.count value=32 unit=count"])],
        {"fence_cost": ("mfence 40, lfence 6 cycles (p50).",
                        "fence.alone.mfence,fence.alone.lfence", "none"),
         "wrmsr_fence": ("stale reads without the fence (needed).", "fence.alone.mfence", "fired")}),
    "amd-kvm.log": log(
        "AuthenticAMD", "AMD EPYC Synthetic 2", "hypervisor:KVMKVMKVM", "v1-synthetic-b",
        [("alone", [dist("fence.alone.mfence", 17, 15, 20, "delta_verdict=above-noise"),
                    dist("fence.alone.lfence", 7, 5, 9, "delta_verdict=indistinguishable"),
                    dist("fence.alone.sfence", 4, 3, 6)]),
         ("stores", ["    # metric fence.stores.count value=32 unit=count"])],
        {"fence_cost": ("mfence 17, lfence 7 cycles (p50).",
                        "fence.alone.mfence,fence.alone.lfence", "none"),
         "wrmsr_fence": ("stale reads without the fence (needed).", "fence.alone.mfence", "fired")}),
    "qemu-tcg.log": log(
        "AuthenticAMD", "QEMU TCG CPU version 2.5+", "emulator:qemu-tcg", "v1-synthetic-c",
        [("alone", [dist("fence.alone.mfence", 20, 18, 22)])],
        {"fence_cost": ("mfence 20 cycles (p50); under QEMU TCG: not a hardware result.",
                        "fence.alone.mfence", "none")}),
}

if __name__ == "__main__":
    for name, text in LOGS.items():
        with open(os.path.join(HERE, name), "w") as f:
            f.write(text)
        print("wrote", os.path.join(HERE, name))
