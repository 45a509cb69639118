# SPDX-License-Identifier: GPL-2.0-only
"""Truth on machines we have not seen: a CPU-model matrix under TCG and
the boot probes of claimed features (kernel/cpu_probe.c) with CPUID made
to lie by simulate=cpuid:+NAME.

Each model case boots the whole quick profile and checks that features
are read from CPUID, not assumed: the vendor, the feature line, the APIC
mode and a skip reason that names the CPUID bit the model lacks."""


def feature_line(ctx, **want):
    """The cpu.features line has name=yes/no for each given feature."""
    import re
    rx = re.compile(r"^\s*# feature x2apic=.*$", re.M)

    def check(log):
        m = rx.search(log)
        if not m:
            return False
        return all(re.search(r"\b%s=%s\b" % (k, "yes" if v else "no"), m.group(0)) for k, v in want.items())
    return ("cpu.features has " + " ".join("%s=%s" % (k, "yes" if v else "no") for k, v in want.items()), check)


def conclusions_name(env):
    """Every conclusion line (t_conclude: summary, crossover, verdict)
    names the environment, and under an emulator says it is not a
    hardware result; at least three such lines exist."""
    import re
    rx = re.compile(r"^\s*# (summary:|crossover |verdict:).*$", re.M)

    def check(log):
        lines = [m.group(0) for m in rx.finditer(log)]
        return len(lines) >= 3 and all("(env=%s;" % env in l and "not a hardware result" in l for l in lines)
    return ("every conclusion line names env=%s and says it is not a hardware result" % env, check)


def model_case(ctx, name, cpu, vendor, apic, feats, checks=(), smp="2"):
    return ctx.Case("model-" + name, smp=smp, cpu=cpu, append="quick", timeout=180,
                    checks=[ctx.online(int(smp)), ctx.idval("cpu.vendor", "^%s$" % vendor),
                            ctx.idval("env", "^emulator:qemu-tcg$"), ctx.idval("apic", "^%s$" % apic),
                            feature_line(ctx, **feats),
                            conclusions_name("emulator:qemu-tcg"),
                            ctx.has(r"^ringlab: \d+ passed, 0 failed, \d+ skipped$")] + list(checks))


def rtm_lie_caught_or_true():
    """Where the host really has RTM, simulate=cpuid:+rtm is no lie: then
    the probe passes and tsx_abort runs.  Otherwise the probe's warning
    and the skip naming it must both be there."""
    import re
    warn = re.compile(r"^# warning: cpu: CPUID\.7\.0:EBX\[11\] \(RTM\) is set but XBEGIN;XEND raised #UD \(vector 6\)", re.M)
    skip = re.compile(r"ok \d+ tsx_abort # SKIP RTM: CPUID\.7\.0:EBX\[11\] is set but XBEGIN;XEND raised vector 6 in the boot probe")
    ran = re.compile(r"^\s*ok \d+ tsx_abort\s*$", re.M)
    probe_ok = re.compile(r"# probe rtm: .* ran without a fault")

    def check(log):
        if warn.search(log):
            return skip.search(log) is not None
        return ran.search(log) is not None and probe_ok.search(log) is not None
    return ("RTM's lie caught (warning and a skip naming the probe), or RTM real (probe ok, tsx_abort ran)", check)


def cases(ctx):
    lacks_tscd = ctx.has(r"ok \d+ latency # SKIP CPU lacks TSC-deadline \(CPUID\.1:ECX\[24\]\)")
    lacks_avx = ctx.has(r"method vmovntdq_ymm not measured: CPU lacks AVX or its state \(CPUID\.1:ECX\[28\]")
    c = [
        # An older Intel part: no x2APIC, no TSC-deadline, no RDTSCP, no AVX.
        model_case(ctx, "westmere", "Westmere", "GenuineIntel", "xapic",
                   dict(x2apic=False, tsc_deadline=False, rdtscp=False, avx=False, pcid=False),
                   checks=[lacks_tscd, lacks_avx,
                           ctx.has(r"ok \d+ stale_reads # SKIP needs x2APIC mode")]),
        # QEMU's generic 64-bit CPU (AMD vendor string, almost nothing).
        model_case(ctx, "qemu64", "qemu64", "AuthenticAMD", "xapic",
                   dict(x2apic=False, rdtscp=False, avx=False, clzero=False, invlpgb=False),
                   checks=[lacks_tscd, lacks_avx]),
        # Intel server parts: x2APIC and AVX2 kept by TCG, AVX-512 and the
        # speculation-control bits dropped by TCG (QEMU warns), so the
        # spec cases skip naming the bits.
        model_case(ctx, "skylake-server", "Skylake-Server-v4", "GenuineIntel", "x2apic",
                   dict(x2apic=True, avx=True, avx2=True, avx512f=False, spec_ctrl=False),
                   checks=[ctx.has(r"ok \d+ spec_ctrl # SKIP CPU lacks IA32_SPEC_CTRL: CPUID\.7\.0:EDX\[26\]"),
                           ctx.metric("wrmsr_order.stale_reads.late_control")]),
        model_case(ctx, "icelake-server", "Icelake-Server", "GenuineIntel", "x2apic",
                   dict(x2apic=True, avx2=True, avx512f=False, rtm=False),
                   checks=[ctx.has(r"ok \d+ tsx_abort # SKIP CPU lacks RTM \(CPUID\.7\.0:EBX\[11\]\)")]),
        # An AMD server part: xAPIC only in this model; CLZERO is in the
        # real part but TCG does not emulate it, so the table says no.
        model_case(ctx, "epyc", "EPYC-Milan", "AuthenticAMD", "xapic",
                   dict(x2apic=False, rdtscp=True, avx2=True, clzero=False, invlpgb=False),
                   checks=[ctx.has(r"method clzero not measured: CPU lacks CLZERO \(CPUID\.80000008H:EBX\[0\]\)")]),
        # CPUID made to lie (the software-KVM-on-Intel case, everywhere):
        # the table claims RTM, CLZERO and INVLPGB, which TCG lacks; the
        # boot probe gets #UD for each, says so once, and every suite that
        # would use them passes or skips naming the probe result.
        ctx.Case("probe-lying-cpuid", smp="2", timeout=180,
                 append="quick tests=cpu,spec,tlb,clear simulate=cpuid:+rtm,cpuid:+clzero,cpuid:+invlpgb",
                 checks=[ctx.has(r"^# warning: cpu: CPUID\.7\.0:EBX\[11\] \(RTM\) is set but XBEGIN;XEND raised #UD \(vector 6\): treated as absent"),
                         ctx.has(r"^# warning: cpu: CPUID\.80000008H:EBX\[0\] \(CLZERO\) is set but CLZERO raised #UD \(vector 6\)"),
                         ctx.has(r"^# warning: cpu: CPUID\.80000008H:EBX\[3\] \(INVLPGB\) is set but INVLPGB;TLBSYNC raised #UD \(vector 6\)"),
                         ctx.result_is("probes", "ok"),
                         ctx.metric("cpu.probes.probed", r"faulted=3 real_mismatch=0 env=emulator:qemu-tcg"),
                         ctx.has(r"ok \d+ tsx_abort # SKIP RTM: CPUID\.7\.0:EBX\[11\] is set but XBEGIN;XEND raised vector 6 in the boot probe"),
                         ctx.has(r"ok \d+ invlpgb # SKIP INVLPGB/TLBSYNC: CPUID\.80000008H:EBX\[3\] is set but INVLPGB;TLBSYNC raised vector 6 in the boot probe"),
                         ctx.has(r"method clzero not measured: CLZERO: CPUID\.80000008H:EBX\[0\] is set but CLZERO raised vector 6"),
                         ctx.has(r"^ringlab: \d+ passed, 0 failed, \d+ skipped$")]),
        # The negative control of the probe: without the simulated claim
        # nothing faults and nothing is taken away.
        ctx.Case("probe-honest-cpuid", smp="1", timeout=120, append="quick tests=cpu",
                 checks=[ctx.lacks(r"^# warning: cpu: .* raised"),
                         ctx.metric("cpu.probes.probed", r"faulted=0 real_mismatch=0"),
                         ctx.has(r"# probe rdtscp: CPUID\.80000001H:EDX\[27\] \(RDTSCP\) claimed; RDTSCP;RDMSR TSC_AUX ran without a fault")]),
        ctx.Case("probe-bad-simulate", smp="1", timeout=60, expect="config-error",
                 append="quick tests=cpu simulate=cpuid:+nosuch,cpuid:rtm",
                 checks=[ctx.has(r"^# error: cmdline: simulate=cpuid:\+nosuch: unknown CPU feature"),
                         ctx.has(r"^# error: cmdline: simulate=cpuid:rtm: valid values are")]),
        # The same lie under /dev/kvm (a software KVM here): the probe
        # decides, whatever the hypervisor passes through.
        ctx.Case("kvm-probe-lying-cpuid", smp="2", accel="kvm", timeout=240, needs="kvm",
                 append="quick tests=cpu,spec.tsx_abort,spec.immed_arm simulate=cpuid:+rtm",
                 checks=[ctx.result_is("probes", "ok"), ctx.idval("env", "^hypervisor:"),
                         rtm_lie_caught_or_true(),
                         ctx.has(r"^ringlab: \d+ passed, 0 failed, \d+ skipped$")]),
    ]
    return c
