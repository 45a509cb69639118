#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/ringlab-capture against a pseudo-terminal pair standing in for a
USB serial adapter, and against --exec.  One "PASS/FAIL/SKIP name: detail"
line per check.  Usage: tests/host/check-capture.py [BUILD]"""

import glob
import os
import subprocess
import sys
import threading
import time
import tty

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(ROOT, sys.argv[1] if len(sys.argv) > 1 else "build")
CAPTURE = os.path.join(ROOT, "tools", "ringlab-capture")
DATA = os.path.join(ROOT, "tests", "host", "data", "logs")
OUT = os.path.join(BUILD, "test-logs", "capture")


def say(status, name, detail=""):
    print("%s %s%s" % (status, name, ": " + detail if detail else ""), flush=True)


def fixture(name):
    with open(os.path.join(DATA, name), "rb") as f:
        return f.read()


def feed(master, data, proc, close_after=False, chunk=512, delay=0.002):
    """Write like a UART would: in pieces, with pauses; give up once the
    reader has stopped (nobody drains the pty then)."""
    os.set_blocking(master, False)
    i = 0
    while i < len(data) and proc.poll() is None:
        try:
            i += os.write(master, data[i:i + chunk])
        except BlockingIOError:
            pass
        time.sleep(delay)
    if close_after:
        time.sleep(0.3)
        os.close(master)


def capture_pty(name, data, args=(), close_after=False, env_extra=None, hold=2.0):
    """Run ringlab-capture on the slave of a fresh pty; feed data to the
    master.  Returns (exit status, stderr, saved log path or None)."""
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    for f in glob.glob(os.path.join(d, "*")):
        os.remove(f)
    master, slave = os.openpty()
    tty.setraw(slave)       # no line discipline games before the tool opens it
    path = os.ttyname(slave)
    env = dict(os.environ, RINGLAB_LOGCHECK=os.path.join(BUILD, "logcheck"))
    env.update(env_extra or {})
    p = subprocess.Popen([CAPTURE, "--dir", d, "--timeout", "60", *args, path],
                         stderr=subprocess.PIPE, env=env)
    # Feed only once it has opened the port (it says so): pyserial flushes
    # the input queue on open, as a UART driver may.
    first = p.stderr.readline()
    if close_after:
        os.close(slave)     # only the master keeps the pty alive now
    t = threading.Thread(target=feed, args=(master, data, p, close_after))
    t.start()
    try:
        _, err = p.communicate(timeout=90)
    except subprocess.TimeoutExpired:
        p.kill()
        _, err = p.communicate()
    err = first + err
    t.join()
    if not close_after:
        os.close(master)
        os.close(slave)
    logs = glob.glob(os.path.join(d, "ringlab-*.log"))
    return p.returncode, err.decode("latin-1"), logs[0] if logs else None


def check(name, cond, detail_ok, detail_bad):
    say("PASS" if cond else "FAIL", name, detail_ok if cond else detail_bad)


def main():
    if not os.access(os.path.join(BUILD, "logcheck"), os.X_OK):
        say("FAIL", "capture", "build/logcheck missing")
        return
    passlog = fixture("pass-kernel-smp4.log")
    noise = b"\x1b[H\x1b[JGNU GRUB  version 2.06\r\r   *quick run\r"

    # 1. a complete run with GRUB noise: exit 0, every byte kept, times file
    for mode, env in (("pyserial", {}), ("termios", {"RINGLAB_CAPTURE_TERMIOS": "1"})):
        if mode == "pyserial":
            try:
                import serial  # noqa: F401
            except ImportError:
                say("SKIP", "capture-pty-pass-pyserial", "python3-serial not installed")
                continue
        rc, err, log = capture_pty("pass-" + mode, noise + passlog + b"junk after\r\n",
                                   env_extra=env)
        saved = open(log, "rb").read() if log else b""
        ntimes = len(open(log + ".times").read().splitlines()) if log else -1
        ok = rc == 0 and saved == noise + passlog and \
            "QEMU-TCG-CPU" in os.path.basename(log) and \
            ntimes == passlog.count(b"\n") and "stopped: integrity line" in err
        check("capture-pty-pass-" + mode, ok,
              "exit 0, %d bytes kept, %s" % (len(passlog), os.path.basename(log or "")),
              "exit %s, log %s; %s" % (rc, log, err.strip().splitlines()[-3:]))

    # 2. the run's status is the exit status: a panic gives 3
    rc, err, log = capture_pty("panic", fixture("panic.log"))
    check("capture-pty-panic", rc == 3, "exit 3", "exit %s: %s" % (rc, err[-300:]))

    # 3. the device disappears half-way: clear message, partial log, 125
    half = passlog[:len(passlog) // 2]
    rc, err, log = capture_pty("vanish", half, close_after=True)
    ok = rc == 125 and "disappeared" in err and log and open(log, "rb").read() == half
    check("capture-pty-vanish", bool(ok), "exit 125, partial log of %d bytes kept" % len(half),
          "exit %s, log %s: %s" % (rc, log, err[-300:]))

    # 4. a reboot (second KTAP header) before the first run ended: the cut
    # run stays in the file, the capture goes on to the next run's end, and
    # the verdict is logcheck's rule for several runs (the last complete
    # run; a warning names the cut one; --all-runs fails on it)
    rc, err, log = capture_pty("reboot", half + passlog)
    ok = rc == 0 and "run 2 starts" in err and "earlier run 1 of 2" in err and \
        "incomplete" in err and log and open(log, "rb").read() == half + passlog
    check("capture-pty-reboot", bool(ok), "went on to the second run, exit 0, the cut run named",
          "exit %s: %s" % (rc, err[-400:]))
    rc, err, log = capture_pty("reboot-all-runs", half + passlog, args=("--all-runs",))
    check("capture-pty-reboot-all-runs", rc == 1 and "--all-runs" in err, "exit 1",
          "exit %s: %s" % (rc, err[-300:]))

    # 5. nothing arrives: the timeout, 124
    d = os.path.join(OUT, "timeout")
    os.makedirs(d, exist_ok=True)
    master, slave = os.openpty()
    t0 = time.monotonic()
    p = subprocess.run([CAPTURE, "--dir", d, "--timeout", "2", os.ttyname(slave)],
                       capture_output=True, env=dict(os.environ, RINGLAB_LOGCHECK=os.path.join(BUILD, "logcheck")))
    os.close(master)
    os.close(slave)
    check("capture-timeout", p.returncode == 124 and time.monotonic() - t0 < 20,
          "exit 124 after %.1fs" % (time.monotonic() - t0), "exit %s" % p.returncode)

    # 6. --exec (serial-over-LAN): a failing run gives 1
    d = os.path.join(OUT, "exec")
    os.makedirs(d, exist_ok=True)
    for f in glob.glob(os.path.join(d, "*")):
        os.remove(f)
    p = subprocess.run([CAPTURE, "--dir", d, "--name", "lab box #7", "--exec",
                        "cat %s" % os.path.join(DATA, "fail-fault-recovery.log")],
                       capture_output=True, env=dict(os.environ, RINGLAB_LOGCHECK=os.path.join(BUILD, "logcheck")))
    logs = glob.glob(os.path.join(d, "ringlab-lab-box-7-*.log"))
    check("capture-exec-fail", p.returncode == 1 and len(logs) == 1, "exit 1, %s" % (logs and os.path.basename(logs[0])),
          "exit %s, logs %s: %s" % (p.returncode, logs, p.stderr.decode()[-300:]))

    # 7. a device that does not exist
    p = subprocess.run([CAPTURE, "--dir", d, "/dev/nonexistent-ringlab"], capture_output=True)
    check("capture-no-device", p.returncode == 126 and b"cannot open" in p.stderr and b"Traceback" not in p.stderr,
          "exit 126 with a clear message", "exit %s: %s" % (p.returncode, p.stderr[-300:]))

    env = dict(os.environ, RINGLAB_LOGCHECK=os.path.join(BUILD, "logcheck"))

    # 8. the file is named after the machine's SMBIOS identity (# id.system:
    # vendor, product, serial), and secrets in the echoed --exec command
    # are masked (the part after '#' is a shell comment: echoed, not run)
    d = os.path.join(OUT, "smbios-name")
    os.makedirs(d, exist_ok=True)
    for f in glob.glob(os.path.join(d, "*")):
        os.remove(f)
    cmd = ("IPMI_PASSWORD=hunter2 cat %s # ipmitool -I lanplus -H bmc -U admin -P s3cr3t "
           "--password=pw0rd token=tk1 https://root:urlpw@bmc/" % os.path.join(DATA, "pass-smbios.log"))
    p = subprocess.run([CAPTURE, "--dir", d, "--exec", cmd], capture_output=True, env=env)
    logs = glob.glob(os.path.join(d, "ringlab-Lab-X-S123-*.log"))
    check("capture-name-smbios", p.returncode == 0 and len(logs) == 1,
          "exit 0, %s" % (logs and os.path.basename(logs[0])),
          "exit %s, files %s: %s" % (p.returncode, os.listdir(d), p.stderr.decode()[-300:]))
    e = p.stderr.decode("latin-1")
    leaked = [w for w in ("hunter2", "s3cr3t", "pw0rd", "tk1", "urlpw") if w in e]
    masked = all(w in e for w in ("IPMI_PASSWORD=***", "-P ***", "--password=***", "token=***",
                                  "root:***@bmc", "-U admin"))
    check("capture-exec-masked", not leaked and masked, "no secret echoed, -U kept",
          "leaked %s, masked %s: %s" % (leaked, masked, e[:400]))

    # 9. never overwrite: every name of this and the next few seconds is
    # taken already; the capture adds -2 and leaves the others as they were
    d = os.path.join(OUT, "no-overwrite")
    os.makedirs(d, exist_ok=True)
    for f in glob.glob(os.path.join(d, "*")):
        os.remove(f)
    import datetime
    now = datetime.datetime.now()
    taken = []
    for k in range(-1, 30):
        stamp = (now + datetime.timedelta(seconds=k)).strftime("%Y%m%d-%H%M%S")
        path = os.path.join(d, "ringlab-box-%s.log" % stamp)
        with open(path, "w") as f:
            f.write("earlier capture %d\n" % k)
        taken.append(path)
    p = subprocess.run([CAPTURE, "--dir", d, "--name", "box", "--exec",
                        "cat %s" % os.path.join(DATA, "pass-smbios.log")], capture_output=True, env=env)
    new = sorted(set(glob.glob(os.path.join(d, "ringlab-box-*.log"))) - set(taken))
    intact = all(open(t).read() == "earlier capture %d\n" % k for k, t in zip(range(-1, 30), taken))
    ok = (p.returncode == 0 and len(new) == 1 and new[0].endswith("-2.log") and intact and
          os.path.exists(new[0] + ".times") and open(new[0], "rb").read() == fixture("pass-smbios.log"))
    check("capture-no-overwrite", ok, "saved as %s, earlier logs intact" % (new and os.path.basename(new[0])),
          "exit %s, new %s, intact %s: %s" % (p.returncode, new, intact, p.stderr.decode()[-300:]))


def capture_exec(name, data, args=()):
    """ringlab-capture --exec 'cat FILE' on data; (exit, stderr, saved bytes)."""
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    for f in glob.glob(os.path.join(d, "*")):
        os.remove(f)
    src = os.path.join(d, "source.bin")
    with open(src, "wb") as f:
        f.write(data)
    p = subprocess.run([CAPTURE, "--dir", d, "--name", "box", *args, "--exec", "cat %s" % src],
                       capture_output=True, env=dict(os.environ, RINGLAB_LOGCHECK=os.path.join(BUILD, "logcheck")))
    logs = glob.glob(os.path.join(d, "ringlab-box-*.log"))
    saved = open(logs[0], "rb").read() if len(logs) == 1 else None
    return p.returncode, p.stderr, saved


def report_check(path, args=()):
    p = subprocess.run([os.path.join(ROOT, "tools", "ringlab-report"), "check", *args, path],
                       capture_output=True, env=dict(os.environ, RINGLAB_LOGCHECK=os.path.join(BUILD, "logcheck")))
    return p.returncode


def more_checks():
    passlog = fixture("pass-kernel-smp4.log")
    faillog = fixture("fail-fault-recovery.log")

    # 10. protocol text inside a line: SMBIOS strings reading
    # '# integrity: lines=1', 'x # result: smp.online pass x' and
    # 'KTAP version 1' neither stop the capture nor change the verdict
    planted = fixture("fail-smbios-planted.log")
    rc, err, saved = capture_exec("planted", planted)
    ok = rc == 1 and saved == planted and b"stopped: integrity line (run 1;" in err and \
        b"11 cases (10 passed, 1 failed" in err
    check("capture-planted", ok, "read to the real integrity line, exit 1 (smp.online failed)",
          "exit %s, %s bytes of %d: %s" % (rc, saved and len(saved), len(planted), err[-300:]))

    # 11. several runs in one stream, judged by one rule: --until-end reads
    # it all and agrees with `ringlab-report check` (logcheck) on the same
    # bytes, with and without --all-runs; by default the capture ends at
    # the first complete run, and agrees with the checker on what it saved
    garbage = b"\x1b[2JSeaBIOS (version 1.16.2)\r\nnot ok 1 firmware\r\nBooting from ROM..."
    streams = {"fail-then-pass": faillog + passlog, "pass-then-fail": passlog + faillog,
               "two-passes": passlog + passlog, "pass-then-garbage": passlog + garbage}
    bad = []
    for name, data in streams.items():
        src = os.path.join(OUT, "runs-%s.log" % name)
        with open(src, "wb") as f:
            f.write(data)
        for extra in ((), ("--all-runs",)):
            want = report_check(src, extra)
            rc, err, saved = capture_exec("runs-" + name, data, ("--until-end",) + extra)
            if rc != want or saved != data:
                bad.append("%s%s: capture %s, check %s" % (name, " ".join(extra), rc, want))
        rc, err, saved = capture_exec("runs-first-" + name, data)
        first = os.path.join(OUT, "runs-first-%s.saved" % name)
        with open(first, "wb") as f:
            f.write(saved or b"")
        if rc != report_check(first):
            bad.append("%s: the capture's verdict %s differs from the checker's on its file" % (name, rc))
    rc, err, _ = capture_exec("runs-warn", faillog + passlog, ("--until-end",))
    if b"warning: earlier run 1 of 2" not in err:
        bad.append("fail-then-pass: no warning about run 1: %r" % err[-300:])
    check("capture-runs-agree", not bad, "4 streams: --until-end gives the checker's verdict "
          "(with and without --all-runs); the default stop agrees on its file", "; ".join(bad))

    # 12. what it echoes holds no control character from the log: ESC,
    # OSC and BEL in `# id.cpu.vendor:` and a SKIP reason come out as \x1b
    rc, err, _ = capture_exec("echo-escapes", fixture("pass-escapes.log"), ("--echo",))
    ctl = [c for c in err if c < 0x20 and c not in (0x0a, 0x09) or c == 0x7f]
    ok = rc == 0 and not ctl and b"\\x1b[31mAuthentic\\x1b]0;pwned\\x07AMD" in err
    check("capture-echo-escaped", ok, "no control byte echoed, ESC shown as \\x1b",
          "exit %s, control bytes %s" % (rc, sorted(set(ctl))[:8]))


def exec_checks():
    """--exec whose program does not exist: one error line, exit 126,
    and no file at all (a missing ipmitool must not leave an empty log to
    be judged broken); a command that fails before any run began: 126,
    its messages kept; a run whose every case skipped: exit 4; a
    complete log followed by a reboot's firmware output: that log."""
    d = os.path.join(OUT, "exec-missing")
    os.makedirs(d, exist_ok=True)
    for f in glob.glob(os.path.join(d, "*")) + glob.glob(os.path.join(d, ".*")):
        os.remove(f)
    env = dict(os.environ, RINGLAB_LOGCHECK=os.path.join(BUILD, "logcheck"))
    p = subprocess.run([CAPTURE, "--dir", d, "--exec",
                        "nosuch-ipmitool-ringlab -I lanplus -H bmc -P s3cr3t sol activate"],
                       capture_output=True, env=env)
    left = os.listdir(d)
    err = p.stderr.decode()
    check("capture-exec-missing", p.returncode == 126 and not left and len(err.splitlines()) == 1
          and "command not found" in err and "s3cr3t" not in err and "Traceback" not in err,
          "exit 126, one line, no file", "exit %s, files %s: %s" % (p.returncode, left, err[-300:]))
    d = os.path.join(OUT, "exec-fails")
    os.makedirs(d, exist_ok=True)
    for f in glob.glob(os.path.join(d, "*")):
        os.remove(f)
    p = subprocess.run([CAPTURE, "--dir", d, "--name", "bmc", "--timeout", "20", "--exec",
                        "echo 'Error: Unable to establish IPMI v2 / RMCP+ session'; exit 1"],
                       capture_output=True, env=env)
    logs = glob.glob(os.path.join(d, "ringlab-bmc-*.log"))
    ok = p.returncode == 126 and len(logs) == 1 and b"Unable to establish" in open(logs[0], "rb").read() \
        and b"before any run began" in p.stderr
    check("capture-exec-fails-early", ok, "exit 126, the command's message kept in the log",
          "exit %s, logs %s: %s" % (p.returncode, logs, p.stderr.decode()[-300:]))
    rc, err, saved = capture_exec("skip-all", fixture("skip-all.log"))
    check("capture-skip-all", rc == 4 and b"every case skipped" in err, "exit 4 (skip)",
          "exit %s: %s" % (rc, err[-300:]))
    banner = b"\r\nSeaBIOS (version 1.16.3)\r\nBooting from ROM...\r\n"
    rc, err, saved = capture_exec("then-reboot", fixture("pass-smbios.log") + banner, ("--until-end",))
    check("capture-complete-then-reboot", rc == 0 and b"after the integrity line" in err,
          "exit 0: the complete log, the reboot's output noted", "exit %s: %s" % (rc, err[-300:]))
    p = subprocess.run([CAPTURE, "--version"], capture_output=True, text=True)
    check("capture-version", p.returncode == 0 and p.stdout.startswith("ringlab-capture (ringlab) "),
          "ringlab-capture (ringlab) VERSION", "exit %s: %r" % (p.returncode, p.stdout))


if __name__ == "__main__":
    main()
    more_checks()
    exec_checks()
