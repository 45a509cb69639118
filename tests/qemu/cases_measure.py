# SPDX-License-Identifier: GPL-2.0-only
"""The measurement suites under TCG: TLB flush and shootdown, clear
bandwidth, litmus and fence costs, speculation controls and the PMU.
Timing means nothing under TCG: the cases check the metrics' shape,
the verdicts, the negative controls and the named skips."""
import re


def _tlb_answer_quotes(log):
    """One rounding rule (suites/tlb/summary.c tlb_crossover()): the
    numbers of the tlb_flush answer are the summary metrics' values."""
    ans = re.search(r"^# answer tlb_flush: (.*)$", log, re.M)
    if not ans:
        return False
    text = ans.group(1)
    v = re.search(r"metric tlb\.summary\.invlpg_vs_mov_cr3_crossover\.1cpu value=(\d+) ", log)
    said = re.search(r"\((INVLPG cheaper up to (\d+) pages|MOV CR3 cheaper than one INVLPG)\)", text)
    if not v or not said or int(v.group(1)) != int(said.group(2) or 0):
        return False
    sets = {"ws64": "64 4K", "ws512": "512 4K", "ws4096": "4096 4K", "ws64x2m": "64 2M"}
    for tag, name in sets.items():
        m = re.search(r"metric tlb\.summary\.rewalk_crossover\.%s\.1cpu value=(\d+) .*set_pages=(\d+)" % tag, log)
        q = re.search(r"(up to (\d+)|never|at all its pages) with %s pages" % name, text)
        if not m or not q:
            return False
        want, pages = int(m.group(1)), int(m.group(2))
        got = 0 if q.group(1) == "never" else pages if q.group(1) == "at all its pages" else int(q.group(2))
        if got != want:
            return False
    return True


def cases(ctx):
    # run.py's case kind and checks (ctx is run.py)
    Case = ctx.Case
    has = ctx.has
    lacks = ctx.lacks
    online = ctx.online
    result_is = ctx.result_is
    metric = ctx.metric
    return [
        # --- TLB ---
        Case("tlb-tcg-smp4", smp="4", append="tests=tlb quick", timeout=180,
             checks=[online(4), result_is("flush_4k", "ok"), result_is("shootdown", "ok"),
                     result_is("cleanup_on_fault", "ok"),
                     metric("tlb.flush_4k.invlpg.1p.1cpu", r"verdict=flushed"),
                     metric("tlb.global.pge_toggle.1p.1cpu", r"verdict=flushed"),
                     metric("tlb.shootdown.ipi_invlpg.1p.4cpu"),
                     metric("tlb.shootdown.ipi_full.64p.4cpu"),
                     metric("tlb.shootdown.ipi_invlpg.64p.4cpu"),
                     metric("tlb.shootdown.remote_stale_control.8p.allcpu"),
                     has(r"ok \d+ invlpgb # SKIP CPU lacks INVLPGB/TLBSYNC \(CPUID\.80000008H:EBX\[3\]\)"),
                     has(r"# summary: IPI shootdown of 1 page"),
                     # the flush and INVLPG with a populated working set
                     metric("tlb.cost.mov_cr3_rewalk.ws4096.1cpu", r"unit=cycles .*set_pages=4096 page=4k"),
                     metric("tlb.cost.invlpg_rewalk.ws64x2m.1p.1cpu", r"set_pages=64 page=2m"),
                     metric("tlb.summary.rewalk_crossover.ws512.1cpu", r"unit=pages rule=floor-full-over-per-page "),
                     has(r"^# answer tlb_flush: Counting the re-walk of the working set, INVLPG beats a MOV CR3 flush: "
                         r"(up to \d+|never|at all its pages) with 64 4K pages .*Linux's 33 is "),
                     lacks(r"^# answer tlb_flush: .*\bup to 0\b", "0 is worded never"),
                     # the claims, each with its stale-entry control (both fire under TCG)
                     has(r"^# answer tlb_flush: .*Stale read after INVLPG, MOV CR3 or PGE toggle: not observed in \d+ "
                         r"\(control local-stale-entry fired, expected [\d.]+; floor .*; control=fired;"),
                     has(r"^# answer tlb_shootdown: IPI shootdown .*Remote stale read after an IPI shootdown: "
                         r"not observed in \d+ \(control remote-stale-entry fired, .*; control=fired;"),
                     ("every crossover the tlb_flush answer quotes is its metric's value", _tlb_answer_quotes)]),
        Case("tlb-timeout-cleanup", smp="2", append="tests=tlb.flush_4k,tlb.timeout_cleanup quick",
             expect="fail", timeout=120,
             checks=[has(r"not ok \d+ timeout_cleanup # TIMEOUT .*test mapping removed, CR3/CR4 restored"),
                     result_is("flush_4k", "ok")]),
        # --- memory suites: clear, litmus, fence ---
        # TCG quick on 4 CPUs: every clear method the CPU model has, both
        # shapes, 1 and 4 CPUs, the checks' negative controls; the litmus
        # forbidden outcomes must stay at 0 (the case fails otherwise);
        # ring-0-only fences measured.  Timing means nothing here.
        Case("mem-tcg-smp4", smp="4", append="tests=clear,litmus,fence quick", timeout=120,
             checks=[online(4),
                     metric("clear.bandwidth.rep_stosb.4KiB.1cpu", r"unit=MB/s .*readback="),
                     metric("clear.bandwidth.movnti.2MiB.4cpu", r"unit=MB/s"),
                     metric("clear.page_bandwidth.movntdq.2MiB.1cpu", r"unit=MB/s"),
                     metric("clear.page_bandwidth.vmovntdq_ymm.2MiB.4cpu", r"unit=MB/s"),
                     has(r"# method clzero not measured: CPU lacks CLZERO \(CPUID\.80000008H:EBX\[0\]\)"),
                     has(r"# negative controls: short clear -> zero check fired; 1-byte overrun -> guard check fired"),
                     has(r"# crossover whole-range 1 CPU: "),
                     result_is("controls", "ok"),
                     metric("litmus.sb.nofence", r"verdict=allowed-control"),
                     metric("litmus.sb.mfence", r"^ value=0 .*verdict=forbidden"),
                     metric("litmus.mp.wb", r"^ value=0 "),
                     metric("litmus.mp_nt.sfence", r"^ value=0 "),
                     metric("litmus.iriw.plain", r"cpus=0,1,2,3"),
                     metric("fence.alone.mov_cr2", r"unit=cycles"),
                     metric("fence.after_stores.iret_self", r"stores=32"),
                     metric("fence.after_stores.miss.mfence",
                            r"stores=32 .*baseline=fence\.after_stores\.miss\.none evict=clflush delta=-?\d+ noise=\d+"),
                     has(r"^# answer fence_cost: Alone \(p50 cycles\): .*L1 hits: .*mfence_lfence .*misses \(lines CLFLUSHed\): .*mfence [-+]\d+")]),
        # --- speculation control and PMU ---
        # TCG: no SPEC_CTRL, RTM, MD_CLEAR, IBPB, L1D flush, TSC-deadline or
        # PMU, so those cases skip naming the bit; the BHB loops run (plain
        # code) and the restore controls run on the stand-in MSR.
        Case("spec-pmu-tcg", smp="1", append="tests=spec,pmu quick", timeout=120,
             checks=[lacks(r"^\s*not ok", "no case failed"),
                     has(r"ok \d+ spec_ctrl # SKIP CPU lacks IA32_SPEC_CTRL: CPUID\.7\.0:EDX\[26\]"),
                     has(r"ok \d+ immed_arm # SKIP CPU lacks TSC-deadline \(CPUID\.1:ECX\[24\]\)"),
                     has(r"ok \d+ enumerate # SKIP no usable PMU: "),
                     has(r"# restore: IA32_\w+ \(0x[0-9a-f]+\) <- 0x[0-9a-f]+ after a fault; reads back"),
                     has(r"# restore: IA32_\w+ \(0x[0-9a-f]+\) <- 0x[0-9a-f]+ after a timeout; reads back"),
                     result_is("restore_after_fault", "ok"), result_is("restore_after_timeout", "ok"),
                     metric("spec.bhb_clear.long_12x7", r"inner_iterations=84 env=emulator:qemu-tcg ")]),
    ]
