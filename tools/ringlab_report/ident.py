# SPDX-License-Identifier: GPL-2.0-only
"""Which machine and which version a log or a tool is about: the
machine's name from the log's SMBIOS identity (`# id.system:` vendor,
product, serial; the CPU brand when the table names nothing), shared by
the fleet view, compare and ringlab-capture's file names; and the
version every host tool's --version prints."""

import os
import re
import subprocess

# SMBIOS strings that name nothing (vendors leave them in the table).
PLACEHOLDER = re.compile(r"^(|to be filled by o\.?e\.?m\.?|default string|not specified|not applicable|"
                         r"system (product name|serial number|manufacturer)|none|n/a|0+|0123456789|"
                         r"123456789)$", re.I)


def smbios_fields(value):
    """key="..." pairs of an `# id.system:` value as a dict
    (docs/log-format.md: backslash-quote and backslash-backslash escaped
    inside the quotes)."""
    out = {}
    for m in re.finditer(r'(\w+)="((?:[^"\\]|\\.)*)"', value or ""):
        out[m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))
    return out


def machine(identity):
    """(name, source): the SMBIOS system vendor, product and serial
    joined by blanks (placeholders left out) with source 'id.system', else
    the CPU brand with source 'id.cpu.brand', else (None, None)."""
    f = smbios_fields(identity.get("system", ""))
    parts = [f.get(k, "").strip() for k in ("vendor", "product", "serial")]
    parts = [p for p in parts if not PLACEHOLDER.match(p)]
    if parts:
        return " ".join(parts), "id.system"
    brand = (identity.get("cpu.brand") or "").strip()
    if brand:
        return brand, "id.cpu.brand"
    return None, None


# tools/, the directory above this package
TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def version(root=None):
    """The version of the tree the tools run from: the build's
    version.txt ($BUILD, default build/), a release's VERSION
    (tools/make-dist.sh), `git describe`, else 'unknown'."""
    root = root or os.path.dirname(TOOLS)
    build = os.environ.get("BUILD") or "build"
    for p in (os.path.join(root, build, "version.txt"), os.path.join(root, "VERSION")):
        try:
            with open(p) as f:
                v = f.readline().strip()
            if v:
                return v
        except OSError:
            pass
    try:
        p = subprocess.run(["git", "-C", root, "describe", "--always", "--dirty", "--tags"],
                           capture_output=True, text=True, timeout=10)
        if p.returncode == 0 and p.stdout.strip():
            return p.stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        pass
    return "unknown"


def version_line(prog):
    """What --version prints: 'PROG (ringlab) VERSION' (help2man reads
    the program name and version from it)."""
    return "%s (ringlab) %s" % (prog, version())
