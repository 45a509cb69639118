#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The exit statuses of every host tool against their table in
docs/usage.md ("Exit status by tool"): the table is read from the doc,
and every cell that is not `-` is run and its status compared, so that the
doc and the tools cannot drift apart.  Each tool is run with --help,
--version and an unknown option, on logs (or, for the boot scripts, with a
stand-in QEMU or Bochs that prints them) whose status is pass, fail,
config-error, panic, every case skipped, and broken, against its hard
timeout, and with something it needs missing.  Also: --help goes to
standard output, --version prints "<tool> (ringlab) <version>", and an
error is one line, never a traceback.

    tests/host/check-exit-status.py [BUILD]      one PASS/FAIL/SKIP line per row

`make run` is run for real (make's own status is what matters), with a
stand-in QEMU (QEMU=), so it needs an up-to-date build (`make`); its logs
are removed again and build/logs/last.log put back."""

import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.abspath(os.path.join(ROOT, sys.argv[1] if len(sys.argv) > 1 else "build"))
DATA = os.path.join(ROOT, "tests", "host", "data", "logs")
COLS = ["help", "version", "bad-option", "pass", "fail", "config-error", "panic", "skip", "broken",
        "timeout", "cannot-run"]
LOGS = {"pass": "pass-smbios.log", "fail": "fail-fault-recovery.log",
        "config-error": "config-error.log", "panic": "panic.log", "skip": "skip-all.log"}
# the isa-debug-exit status QEMU exits with for each: code*2+1
QEMU_EXIT = {"pass": 1, "fail": 3, "config-error": 5, "panic": 7, "skip": 1, "broken": 1}


def table():
    """[(tool label, {column: int or None})] from docs/usage.md."""
    text = open(os.path.join(ROOT, "docs", "usage.md")).read()
    sec = text[text.index("### Exit status by tool"):]
    rows = []
    for line in sec.splitlines()[1:]:
        if rows and not line.startswith("|"):
            break
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        label = re.match(r"`([^`]+)`", cells[0]).group(1)
        vals = cells[1:]
        if len(vals) != len(COLS):
            raise SystemExit("FAIL exit-status-table: row %s has %d cells, want %d" % (label, len(vals), len(COLS)))
        rows.append((label, {c: (None if v == "-" else int(v)) for c, v in zip(COLS, vals)}))
    return rows


class Env:
    """Fixtures: the logs, a broken one, LAVA records of each, stand-in
    QEMU and Bochs."""

    def __init__(self, tmp):
        self.tmp = tmp
        self.logs = {k: os.path.join(DATA, v) for k, v in LOGS.items()}
        with open(self.logs["pass"], "rb") as f:
            lines = f.read().split(b"\n")
        self.logs["broken"] = os.path.join(tmp, "broken.log")
        with open(self.logs["broken"], "wb") as f:
            f.write(b"\n".join(lines[:-6]) + b"\n")      # cut before the integrity line
        self.lava = {}
        for k, p in self.logs.items():
            out = os.path.join(tmp, "lava-%s.log" % k)
            with open(out, "wb") as f:
                subprocess.run([os.path.join(ROOT, "tools", "lava", "monitor-sim"),
                                os.path.join(ROOT, "tools", "lava", "qemu-job.yaml"), p], stdout=f)
            self.lava[k] = out
        self.fakebin = os.path.join(tmp, "bin")
        os.makedirs(self.fakebin)
        # QEMU: prints the log the scenario names ($FAKE_LOG), exits as
        # isa-debug-exit would ($FAKE_RC); "timeout": never ends
        self.qemu = self.script("fake-qemu", """#!/bin/sh
[ "$FAKE_LOG" = sleep ] && exec sleep 60
cat "$FAKE_LOG"
exit "$FAKE_RC"
""")
        # Bochs (bochs-bin on PATH): reads its -f bochsrc for the COM1 file
        # and its log, says it listens, writes the log to COM1, and halts
        # (stays until run-bochs.sh stops it); the broken log's Bochs exits
        self.script("bochs-bin", """#!/bin/sh
while [ $# -gt 0 ]; do [ "$1" = -f ] && rc=$2; shift; done
com1=$(sed -n 's/^com1: .*dev=\\(.*\\)$/\\1/p' "$rc")
blog=$(sed -n 's/^log: \\(.*\\)$/\\1/p' "$rc")
echo "00000000000i[RFB   ] listening for connections on port 5900" >"$blog"
[ "$FAKE_LOG" = sleep ] && exec sleep 60
cat "$FAKE_LOG" >"$com1"
# a log cut short: this Bochs stopped (a triple fault) before the end
[ "$FAKE_LOG" = "${FAKE_LOG%broken.log}" ] || exit 1
exec sleep 60
""")

    def script(self, name, text):
        p = os.path.join(self.fakebin, name)
        with open(p, "w") as f:
            f.write(text)
        os.chmod(p, os.stat(p).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        return p


def run(argv, env=None, timeout=120, cwd=ROOT):
    e = dict(os.environ, RINGLAB_LOGCHECK=os.path.join(BUILD, "logcheck"), BUILD=BUILD)
    e.update(env or {})
    p = subprocess.run(argv, capture_output=True, env=e, timeout=timeout, cwd=cwd)
    return p.returncode, p.stdout.decode("latin-1"), p.stderr.decode("latin-1")


def common(col, argv):
    """--help, --version and a bad option: the status, and a few words
    about what is wrong with the output (None when it is right)."""
    if col == "help":
        rc, out, err = run(argv + ["--help"])
        return rc, None if out.strip() and rc == 0 else "no help on standard output"
    if col == "version":
        rc, out, err = run(argv + ["--version"])
        name = os.path.basename(argv[0] if not argv[0].endswith("python3") else argv[1])
        ok = re.match(r"^%s \(ringlab\) \S+$" % re.escape(name), out.strip())
        return rc, None if ok else "--version printed %r" % out.strip()[:80]
    rc, out, err = run(argv + ["--no-such-option-ringlab"])
    ok = len(err.strip().splitlines()) == 1 and "Traceback" not in err
    return rc, None if ok else "not one error line: %r" % err[-200:]


def tool_row(label, e):
    """The function that runs one cell of the row `label`: col ->
    (status, problem or None)."""
    T = lambda *p: os.path.join(ROOT, "tools", *p)     # noqa: E731
    lc = os.path.join(BUILD, "logcheck")
    missing = os.path.join(e.tmp, "no-such-file.log")

    def logs_tool(argv, tail=(), lava=False):
        def cell(col):
            if col in ("help", "version", "bad-option"):
                return common(col, argv)
            path = missing if col == "cannot-run" else (e.lava if lava else e.logs)[col]
            rc, out, err = run(argv + list(tail) + [path])
            if col == "cannot-run" and (len(err.strip().splitlines()) != 1 or "Traceback" in err):
                return rc, "not one error line: %r" % err[-200:]
            return rc, None
        return cell

    def boot(argv, env_for):
        def cell(col):
            if col in ("help", "version", "bad-option"):
                return common(col, argv)
            env, extra = env_for(col)
            rc, out, err = run(argv + extra, env=env, timeout=180)
            return rc, None
        return cell

    def qemu_env(col):
        if col == "cannot-run":
            return {"QEMU": os.path.join(e.tmp, "no-such-qemu")}, []
        if col == "timeout":
            return {"QEMU": e.qemu, "FAKE_LOG": "sleep"}, ["--timeout", "2"]
        return {"QEMU": e.qemu, "FAKE_LOG": e.logs[col], "FAKE_RC": str(QEMU_EXIT[col])}, []

    def bochs_env(col):
        path = os.environ.get("PATH", "")
        if col == "cannot-run":
            return {"BUILD": os.path.join(e.tmp, "empty-build")}, []
        if col == "timeout":
            return {"PATH": e.fakebin + ":" + path, "FAKE_LOG": "sleep"}, ["--quiet", "--timeout", "3"]
        return {"PATH": e.fakebin + ":" + path, "FAKE_LOG": e.logs[col]}, ["--quiet"]

    def make_run(col):
        env, extra = qemu_env(col)
        # BUILD as the Makefile names it (relative in the tree), so that
        # make finds the build up to date and only boots
        rel = os.path.relpath(BUILD, ROOT)
        args = ["make", "-s", "run", "ACCEL=tcg", "BUILD=" + (BUILD if rel.startswith("..") else rel)]
        if col == "timeout":
            args.append("RUN_TIMEOUT=2")
        rc, out, err = run(args, env=env, timeout=300)
        return rc, None

    def capture(col):
        if col in ("help", "version", "bad-option"):
            return common(col, [T("ringlab-capture")])
        d = os.path.join(e.tmp, "capture-" + col)
        if col == "cannot-run":
            cmd = "no-such-command-ringlab sol activate"
        elif col == "timeout":
            cmd = "sleep 30"
        else:
            cmd = "cat " + e.logs[col]
        rc, out, err = run([T("ringlab-capture"), "--dir", d, "--timeout", "2", "--exec", cmd])
        if col == "cannot-run" and os.path.exists(d) and os.listdir(d):
            return rc, "left files: %s" % os.listdir(d)
        return rc, None

    def uefi_machine(col):
        if col in ("help", "version", "bad-option"):
            return common(col, [T("lava", "qemu-uefi-machine")])
        rc, out, err = run([T("lava", "qemu-uefi-machine"), os.path.join(e.tmp, "no-such-dir")])
        return rc, None

    def two_logs(argv):
        def cell(col):
            if col in ("help", "version", "bad-option"):
                return common(col, argv)
            path = missing if col == "cannot-run" else e.logs[col]
            return run(argv + [e.logs["pass"], path])[0], None
        return cell

    rows = {
        "make run": make_run,
        "tools/run-qemu.sh": boot([T("run-qemu.sh")], qemu_env),
        "tools/run-bochs.sh": boot([T("run-bochs.sh")], bochs_env),
        "build/logcheck LOG": logs_tool([lc]),
        "build/logcheck --exit-status LOG": logs_tool([lc], ["--exit-status"]),
        "tools/ringlab-report check LOG": logs_tool([T("ringlab-report"), "check"]),
        "tools/ringlab-report check --lava LAVA.log": logs_tool([T("ringlab-report"), "check"], ["--lava"], lava=True),
        "tools/ringlab-report text LOG": logs_tool([T("ringlab-report"), "text"]),
        "tools/ringlab-report compare A B": two_logs([T("ringlab-report"), "compare"]),
        "tools/ringlab-report answers LOG...": two_logs([T("ringlab-report"), "answers"]),
        "tools/ringlab-capture": capture,
        "tools/lava/run-qemu --from-log LAVA.log": logs_tool([T("lava", "run-qemu")], ["--from-log"], lava=True),
        "tools/lava/monitor-sim JOB LOG": logs_tool([T("lava", "monitor-sim")], [T("lava", "qemu-job.yaml")]),
        "tools/lava/flash-iso": logs_tool([T("lava", "flash-iso")]),
        "tools/lava/serial-pace": logs_tool([T("lava", "serial-pace")]),
        "tools/lava/qemu-uefi-machine DIR": uefi_machine,
    }
    return rows.get(label)


def main():
    rows = table()
    if not os.access(os.path.join(BUILD, "logcheck"), os.X_OK):
        print("FAIL exit-status: no %s/logcheck (make)" % BUILD)
        return 0
    with tempfile.TemporaryDirectory(prefix="ringlab-exit-") as tmp:
        e = Env(tmp)
        logs = os.path.join(BUILD, "logs")
        before = set(os.listdir(logs)) if os.path.isdir(logs) else set()
        last = os.readlink(os.path.join(logs, "last.log")) if os.path.islink(os.path.join(logs, "last.log")) else None
        try:
            for label, want in rows:
                cell = tool_row(label, e)
                if cell is None:
                    print("FAIL exit-status-%s: the table names a tool this check does not know" % label)
                    continue
                if label == "tools/run-bochs.sh" and not os.path.exists("/usr/share/bochs/BIOS-bochs-latest"):
                    print("SKIP exit-status-run-bochs: no Bochs BIOS (tools/install-deps.sh test)")
                    continue
                bad = []
                n = 0
                for col in COLS:
                    if want[col] is None:
                        continue
                    n += 1
                    try:
                        rc, problem = cell(col)
                    except subprocess.TimeoutExpired:
                        rc, problem = "timeout", None
                    if rc != want[col] or problem:
                        bad.append("%s: exit %s, table %s%s" % (col, rc, want[col],
                                                                  "; " + problem if problem else ""))
                name = "exit-status-" + re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")
                if bad:
                    print("FAIL %s: %s" % (name, " | ".join(bad)))
                else:
                    print("PASS %s: %d cells as docs/usage.md says" % (name, n))
            # the control: a table that says otherwise must be caught (a
            # planted 9 where logcheck --exit-status gives fail's 1)
            rc, _ = tool_row("build/logcheck --exit-status LOG", e)("fail")
            print("%s exit-status-control: a planted cell (fail: 9) %s" % (
                ("PASS", "is caught (exit %d)" % rc) if rc != 9 else ("FAIL", "was not caught")))
        finally:
            # the runs' logs go; build/logs/last.log is put back as it was
            if os.path.isdir(logs):
                for f in set(os.listdir(logs)) - before:
                    p = os.path.join(logs, f)
                    if os.path.isfile(p) or os.path.islink(p):
                        os.remove(p)
                if last is not None:
                    tmp_link = os.path.join(logs, ".last.exit-status")
                    if os.path.lexists(tmp_link):
                        os.remove(tmp_link)
                    os.symlink(last, tmp_link)
                    os.replace(tmp_link, os.path.join(logs, "last.log"))
        shutil.rmtree(os.path.join(BUILD, "bochs", "exit-status"), ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
