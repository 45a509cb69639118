# SPDX-License-Identifier: GPL-2.0-only
"""Two quick runs of one machine with different seeds must have the same
metric names, so that `tools/ringlab-report compare` lines every metric
up (docs/host-tools.md, "compare").  seed= changes which CPUs a suite
samples (ipi's partners of CPU 0, kernel/platform.h
plat_cpus_with_relation); a name that carried the sampled CPU's number
(ipi.oneway.cycles.<mode>.<fence>.<relation>.cpu<N>, before suites/ipi.c
named partners by relation and index) shows up as only-in-A/only-in-B.

One case, two boots: the first run's log is kept beside the case's log
(<case>.seed-a.log) and the check compares the two through the report
tool, the way a user would.  Every suite takes part: tsc_order.control's
planted control, which retries with a larger offset until it fires, puts
its attempts in diagnostics and one metric (tsc_order.control.planted,
attempts=N), so its names do not depend on timing either.  The check also
requires that the two seeds sampled different partner CPUs, or it would
prove nothing."""

import csv
import io
import os
import re
import shlex
import subprocess

SEEDS = (1, 7)
APPEND = "quick seed=%d"


def cases(ctx):
    report = os.path.join(ctx.ROOT, "tools", "ringlab-report")

    class SeedPairCase(ctx.Case):
        """Boots twice, seed A then seed B; the case's log is B's."""

        def first_log(self):
            return os.path.join(ctx.LOGDIR, self.name + ".seed-a.log")

        def command(self, log):
            keep = self.append
            self.append = APPEND % SEEDS[0]
            first = ctx.Case.command(self, self.first_log())
            self.append = keep
            second = ctx.Case.command(self, log)
            return ["sh", "-c", "rm -f %s; %s; exec %s" % (
                shlex.quote(self.first_log()), shlex.join(first), shlex.join(second))]

    case = SeedPairCase("compare-seeds-tcg-smp4", smp="4", append=APPEND % SEEDS[1], timeout=150)

    def same_names(text):
        """compare of the two runs: no metric only in one of them, and
        enough metrics (ipi's per-partner ones among them) that the check
        is not vacuous."""
        a = case.first_log()
        b = os.path.join(ctx.LOGDIR, case.name + ".log")
        env = dict(os.environ, RINGLAB_LOGCHECK=ctx.LOGCHECK)
        try:
            p = subprocess.run([report, "compare", "--csv", a, b], capture_output=True, text=True,
                               env=env, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            return False
        if p.returncode != 0:
            return False
        rows = list(csv.DictReader(io.StringIO(p.stdout)))
        lonely = [r["metric"] + "[" + r["only_in"] + "]" for r in rows if r["only_in"]]
        if lonely:
            print("compare-seeds: only in one run: " + " ".join(lonely[:8]), flush=True)
        seeds = [re.findall(r"^# id\.seed: (\d+)", open(f, encoding="latin-1").read(), re.M)
                 for f in (a, b)]
        partner = [r for r in rows if re.match(r"ipi\.(oneway|roundtrip)\.cycles\.", r["metric"])]
        # the seeds must have sampled different partner CPUs under one
        # name, or equal names would prove nothing
        cpus = [dict(re.findall(r"^\s*# metric (ipi\.oneway\.cycles\.\S+) .*?\bcpu=(\d+)",
                                open(f, encoding="latin-1").read(), re.M)) for f in (a, b)]
        moved = [n for n in cpus[0] if n in cpus[1] and cpus[0][n] != cpus[1][n]]
        if not moved:
            print("compare-seeds: both seeds picked the same partner CPUs: the check is blind", flush=True)
        return not lonely and len(rows) >= 100 and len(partner) >= 4 and bool(moved) and \
            seeds == [[str(SEEDS[0])], [str(SEEDS[1])]]

    case.checks = [ctx.online(4),
                   ctx.metric(r"ipi.oneway.cycles.x2apic.nofence.same_package.0", r"cpu=\d+"),
                   ("the two seeds' runs have the same metric names (ringlab-report compare: "
                    "nothing only in one run)", same_names)]
    return [case]
