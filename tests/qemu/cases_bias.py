# SPDX-License-Identifier: GPL-2.0-only
"""Bias fixes under TCG: the clear suite's batch_sfence
shape and MOVNTI-vs-REP-STOSB crossover rule, the PMU counts (absent here:
pmu=none with the reason), the fence suite's noise bound, and the answers
block lines these suites fill (nt_clear, fence_cost, tlb_flush,
tlb_shootdown).  Timing means nothing under TCG: only the shape of the
evidence is checked."""


def cases(ctx):
    return [
        ctx.Case("bias-tcg-smp4", smp="4", append="tests=clear,fence,tlb quick", timeout=180,
                 checks=[ctx.online(4),
                         ctx.lacks(r"^\s*not ok", "no case failed"),
                         ctx.metric("clear.page_bandwidth.movnti.2MiB.1cpu",
                                    r"shape=perpage_sfence .*sfence=per-4KiB-page"),
                         ctx.metric("clear.batch_bandwidth.movnti.2MiB.1cpu",
                                    r"shape=batch_sfence .*sfence=per-2MiB-batch"),
                         ctx.metric("clear.batch_bandwidth.rep_stosb.2MiB.4cpu", r"unit=MB/s"),
                         ctx.metric("clear.bandwidth.movnti.2MiB.1cpu", r"pmu=none pmu_why=\S+"),
                         ctx.metric("clear.crossover.movnti.whole.1cpu",
                                    r"rule=p25-above-p75-at-every-measured-size-from-here test=iqr-separated min_n=5 n=\d+ .*readback_movnti=\d+"),
                         ctx.metric("clear.crossover.movnti.batch_sfence.allcpu", r"from=\S+"),
                         ctx.has(r"^\s*# crossover batch_sfence 1 CPU: MOVNTI beats REP STOSB "),
                         ctx.has(r"^\s*# crossover whole-range 1 CPU, other NT methods vs REP STOSB: movntdq "),
                         ctx.metric("fence.alone.none", r"what=empty-loop-baseline"),
                         ctx.metric("fence.after_stores.sfence",
                                    r"delta=-?\d+ noise=\d+ .*delta_verdict=(indistinguishable|above-noise|below-noise)"),
                         ctx.has(r"^\s*# sfence after 32 stores: median \d+ cycles .*noise \d+: "),
                         ctx.has(r"^# answer nt_clear: MOVNTI faster than REP STOSB, whole: .*\[IQR-apart n>=5\]: n=\d+;.*"
                                 r"\(from=clear\.crossover\.movnti\.whole\.1cpu,.*control=fired;"),
                         ctx.has(r"^# answer fence_cost: Alone .*After 32 stores.*\(from=fence\.alone\.lfence,"),
                         ctx.has(r"^# answer tlb_flush: Counting the re-walk of the working set, INVLPG beats a MOV CR3 flush: (up to \d+|never|at all its pages) with 64 4K pages"),
                         ctx.has(r"^# answer tlb_shootdown: IPI shootdown .*INVLPGB not measured: CPU lacks INVLPGB"),
                         ctx.lacks(r"^# answer (nt_clear|fence_cost|tlb_flush|tlb_shootdown): not measured")]),
    ]
