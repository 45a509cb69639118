# SPDX-License-Identifier: GPL-2.0-only
"""Cases under KVM (needs="kvm": skipped where /dev/kvm is not usable)."""


def cases(ctx):
    # run.py's case kind and checks (ctx is run.py)
    Case = ctx.Case
    has = ctx.has
    lacks = ctx.lacks
    online = ctx.online
    result_is = ctx.result_is
    metric = ctx.metric
    up_hang = ctx.up_hang
    return [
        # -cpu host,-arch-capabilities: measures what the nested KVM exposes
        # (here TSC-deadline; SPEC_CTRL/VERW where the host passes them).
        Case("kvm-spec-pmu", smp="1", accel="kvm", append="tests=spec,pmu quick", timeout=240,
             needs="kvm",
             checks=[lacks(r"^\s*not ok", "no case failed"),
                     metric("spec.immed_arm.alone", r"lost=0 env=hypervisor:"),
                     metric("spec.immed_arm.delta_bhb_long", r"env=hypervisor:"),
                     result_is("restore_after_fault", "ok"), result_is("restore_after_timeout", "ok"),
                     # where the hypervisor's IA32_SPEC_CTRL holds values the
                     # restore is shown; where it does not (the software KVM
                     # on this project's AMD build machine reads back 0), the
                     # boot probe took the feature away and the case says so
                     has(r"# restore: IA32_\w+ \(0x[0-9a-f]+\) <- 0x[0-9a-f]+ after a timeout; reads back"
                         r"|ok \d+ spec_ctrl # SKIP IA32_SPEC_CTRL: CPUID\S+ is set but in the boot probe IA32_SPEC_CTRL written 0x[0-9a-f]+ read back")]),
        # KVM cases: on the project's machines /dev/kvm is a nested software KVM
        # that runs guest code ~100-400x slower than TCG (docs/platform-notes.md), so
        # keep the profile short and wait with HLT.
        # KVM's in-kernel PIT re-injects a tick only after the previous one
        # was acknowledged (EOI), which an NMI never is: with the default
        # policy one NMI arrives, the probe refuses the source and the case
        # skips.  With lost ticks discarded it ticks on.
        Case("kvm-hang-irqoff-up", smp="1", accel="kvm", append="tests=boot,fault.hang_irqoff quick",
             expect="fail", timeout=240, needs="kvm", extra=["-global", "kvm-pit.lost_tick_policy=discard"],
             checks=up_hang(has(r"^# watchdog: no watcher CPU .* I/O APIC 0 pin 2 \(GSI 2\) fed by PIT channel 0"),
                     result_is("boot", "ok"))),
        Case("kvm-hang-irqoff-up-reinject", smp="1", accel="kvm", append="tests=boot,fault.hang_irqoff quick",
             timeout=240, needs="kvm",
             checks=[has(r"^# watchdog: no CPU watches the boot CPU \(no other CPU online\) and no I/O APIC NMI source \(I/O APIC 0 pin 2 \(GSI 2\) programmed for NMI, but 1 NMI\(s\) arrived"),
                     has(r"ok \d+ hang_irqoff # SKIP no NMI watchdog"), lacks(r"unexpected NMI")]),
        Case("kvm-smp2", smp="2", accel="kvm", append="tests=boot,cpu,fault,smp,apic quick", timeout=240,
             needs="kvm", checks=[online(2)]),
        # --- TLB: tiny profile, the nested KVM is slow ---
        Case("kvm-tlb", smp="2", accel="kvm", append="tests=tlb quick iters=4", timeout=300,
             needs="kvm", checks=[online(2), result_is("flush_4k", "ok"), result_is("shootdown", "ok"),
                                  result_is("cleanup_on_fault", "ok"),
                                  metric("tlb.shootdown.ipi_invlpg.1p.2cpu"),
                                  # iters=: the victim loop runs (2 CPUs, 4 window pairs)
                                  metric("tlb.shootdown.victim.ipi_invlpg.1p.2cpu", r"windows=4 "),
                                  metric("tlb.summary.rewalk_crossover.ws4096.1cpu", r"n=4$"),
                                  # where MOV CR3 is cheaper than one INVLPG the answer says
                                  # "never", not "up to 0"; iters=4 is too few for "not observed"
                                  lacks(r"^# answer tlb_flush: .*\bup to 0\b", "0 is worded never"),
                                  has(r"^# answer tlb_flush: .*Stale read after INVLPG, MOV CR3 or PGE toggle: "
                                      r"(too few samples \(n=12,|no power \(control local-stale-entry)")]),
        # memory suites under the nested KVM: few iterations,
        # it is slow; SIMD state switching (XSETBV) and CPUID exits there
        Case("kvm-mem", smp="2", accel="kvm", append="tests=clear.bandwidth,clear.controls,litmus,fence quick iters=20",
             timeout=240, needs="kvm",
             checks=[online(2), metric("clear.bandwidth.rep_stosb.4KiB.2cpu"),
                     metric("litmus.sb.mfence", r"^ value=0 "), metric("fence.alone.cpuid"),
                     result_is("controls", "ok")]),
        Case("kvm-tscdeadline", smp="2", accel="kvm", append="tests=tscdeadline quick", timeout=240,
             needs="kvm", checks=[metric("tscdeadline.latency.hlt"),
                                  result_is("immediate", "ok"),
                                  lacks(r"SKIP CPU lacks TSC-deadline"),
                                  # the answer is TSC-deadline's own, not the one-shot fallback's
                                  has(r"^# answer tscdeadline: TSC-deadline interrupts arrive late by p50 \d+ ns, p99 \d+ ns .*"
                                      r"An immediate deadline takes p50 \d+ cycles from WRMSR to the handler"),
                                  lacks(r"^# answer tscdeadline: TSC-deadline not measured")]),
    ]
