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

    # 4. a reboot (second KTAP header) before the first run ended
    rc, err, log = capture_pty("reboot", half + passlog)
    # (the reboot's leading \r\n ends the cut line, as on a real port)
    ok = rc == 125 and "rebooted" in err and log and open(log, "rb").read() == half + b"\r\n"
    check("capture-pty-reboot", bool(ok), "stopped at the second header, exit 125",
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


if __name__ == "__main__":
    main()
