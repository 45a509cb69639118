#!/usr/bin/python3
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


if __name__ == "__main__":
    main()
