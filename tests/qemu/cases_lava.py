# SPDX-License-Identifier: GPL-2.0-only
"""The GRUB/UEFI route of tools/lava/grub-job.yaml (docs/lava.md),
rehearsed under QEMU + OVMF with two CPUs: GRUB runs the job's boot
commands, read from the job file, so the rehearsal breaks when the job's
commands do.  GRUB takes them from a grub.cfg on a small ISO instead of
from LAVA typing them after a network boot: `net_bootp` is left out and
`(tftp,{SERVER_IP})/{KERNEL}` becomes `/boot/ringlab.elf` (no TFTP server
here), and the short run's options are appended (the job runs all suites,
minutes under TCG).  The ISO jobs (health-check.yaml, iso-job.yaml) run
whole under lava-run in tests/host/check-lava.sh.

Each run must report `id.firmware: UEFI`, boot through `multiboot2 (GRUB)`
and bring both CPUs online.  The negative control is the command the
jobs used before, `multiboot` (multiboot1): it must show the failure the
UEFI checks exist to catch (firmware BIOS, one CPU, smp.online failing)."""
import os
import shutil
import subprocess

try:
    import yaml
except ImportError:  # python3-yaml; without it the cases are not offered
    yaml = None

OVMF_CODE = "/usr/share/OVMF/OVMF_CODE_4M.fd"
OVMF_VARS = "/usr/share/OVMF/OVMF_VARS_4M.fd"
SHORT_RUN = "quick tests=boot,cpu,smp"
# GRUB talks on COM1, which is the serial log file.
PROLOGUE = ("serial --unit=0 --speed=115200\nterminal_input serial\n"
            "terminal_output serial\n")


def job_commands(root, job):
    """The `commands:` of the job's grub boot action."""
    with open(os.path.join(root, "tools", "lava", job)) as f:
        doc = yaml.safe_load(f)
    for a in doc["actions"]:
        if "boot" in a and a["boot"].get("method") == "grub":
            return [str(c) for c in a["boot"]["commands"]]
    raise ValueError("%s has no grub boot action" % job)


def rehearsal_cfg(root, job):
    """grub.cfg text for a local boot of the job's GRUB commands."""
    out = []
    for c in job_commands(root, job):
        if c.strip() == "net_bootp":
            continue
        if "(tftp,{SERVER_IP})/{KERNEL}" in c:
            c = c.replace("(tftp,{SERVER_IP})/{KERNEL}", "/boot/ringlab.elf") + " " + SHORT_RUN
        if "{" in c:
            raise ValueError("%s: command %r has a LAVA substitution the rehearsal does not know" % (job, c))
        out.append(c)
    return PROLOGUE + "\n".join(out) + "\n"


class LavaGrubCase:
    """Mixed into run.py's Case: the ISO is built when the case runs (not
    for --list), OVMF gets a private copy of its variable store."""

    def setup(self, ctx, job, control=False):
        self.ctx, self.job, self.control = ctx, job, control

    def command(self, log):
        d = os.path.join(self.ctx.BUILD, "lava-rehearsal", self.name)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(os.path.join(d, "iso", "boot", "grub"))
        try:
            cfg = rehearsal_cfg(self.ctx.ROOT, self.job)
        except (OSError, ValueError, KeyError, yaml.YAMLError) as e:
            return ["sh", "-c", "echo 'cases_lava: %s' >&2; exit 99" % str(e).replace("'", "")]
        if self.control:
            cfg = cfg.replace("multiboot2 ", "multiboot ")
        with open(os.path.join(d, "iso", "boot", "grub", "grub.cfg"), "w") as f:
            f.write(cfg)
        shutil.copy(self.ctx.ELF, os.path.join(d, "iso", "boot", "ringlab.elf"))
        iso = os.path.join(d, "rehearsal.iso")
        p = subprocess.run(["grub-mkrescue", "-o", iso, os.path.join(d, "iso"), "--", "-volid", "RLLAVA"],
                           capture_output=True, timeout=120)
        if p.returncode != 0:
            return ["sh", "-c", "echo 'cases_lava: grub-mkrescue failed' >&2; exit 99"]
        vars_copy = os.path.join(d, "vars.fd")
        shutil.copy(OVMF_VARS, vars_copy)
        cmd = self.ctx.Case.command(self, log)
        return cmd + ["-drive", "if=pflash,format=raw,unit=0,readonly=on,file=" + OVMF_CODE,
                      "-drive", "if=pflash,format=raw,unit=1,file=" + vars_copy,
                      "-drive", "file=%s,format=raw,media=cdrom,readonly=on" % iso]


def cases(ctx):
    if yaml is None or not (os.path.exists(OVMF_CODE) and os.path.exists(OVMF_VARS)
                            and shutil.which("grub-mkrescue")):
        return []

    class Case(LavaGrubCase, ctx.Case):
        def __init__(self, name, job, control=False, **kw):
            ctx.Case.__init__(self, name, smp="2", media="lava-grub", machine="q35", mem="512M",
                              timeout=90, **kw)
            self.setup(ctx, job, control)

    uefi = [ctx.idval("firmware", r"^UEFI systab=0x[0-9a-f]+$"),
            ctx.idval("boot", r"^GRUB UEFI$"), ctx.online(2), ctx.result_is("online", "ok")]
    return [
        Case("lava-grub-uefi", "grub-job.yaml",
             checks=uefi + [ctx.idval("cmdline", r"^%s$" % SHORT_RUN)]),
        # Negative control: the same GRUB lines with multiboot1, the jobs'
        # old command, under the same OVMF: GRUB's multiboot1 memory map
        # hands over no ACPI tables, so ringlab sees no EFI system table and
        # one CPU, and smp.online fails; each check above would catch it.
        Case("lava-grub-uefi-mb1-control", "grub-job.yaml", control=True, expect="fail",
             checks=[ctx.idval("firmware", r"^unknown$"), ctx.has(r"^# warning: boot: no RSDP and no MP table"),
                     ctx.idval("boot", r"^multiboot1 \(GRUB "),
                     ctx.online(1), ctx.result_is("online", "not ok")]),
    ]
