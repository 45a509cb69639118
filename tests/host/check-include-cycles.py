#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""No include circles between the modules of one floor.

A module is a .c/.h pair (arch/x86/apic.c + apic.h).  Module a depends on
b when a's .c or .h includes b's header.  Within arch/x86/ the
dependencies must form no circle: a circle (apic -> traps -> apic) means
neither module can be read, tested or replaced without the other; the
interrupt entry and the catch unwind reach the APIC's EOI through the hook
it registers (arch/x86/irq_eoi.h) for that reason.

Prints "PASS include-cycles-<floor>" or "FAIL include-cycles-<floor>:
<one circle>", then a planted control showing a circle is found.

  tests/host/check-include-cycles.py [DIR...]   (default: arch/x86)
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
INC = re.compile(r'^\s*#\s*include\s+"([a-z0-9_/]+)/([a-z0-9_-]+)\.h"', re.M)


def graph_of(files):
    """{module: {module it includes}} within one directory, from {path: text}."""
    g = {}
    for path, text in files.items():
        p = Path(path)
        mod = p.stem
        g.setdefault(mod, set())
        for d, h in INC.findall(text):
            if d == str(p.parent) and h != mod:
                g[mod].add(h)
    return g


def find_cycle(g):
    """One circle as a list of modules, or None."""
    state, stack = {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(g.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                c = visit(m)
                if c:
                    return c
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(g):
        if n not in state:
            c = visit(n)
            if c:
                return c
    return None


def check(floor):
    d = ROOT / floor
    files = {f"{floor}/{p.name}": p.read_text(errors="replace")
             for p in sorted(d.iterdir()) if p.suffix in (".c", ".h")}
    name = "include-cycles-" + floor.replace("/", "-")
    if not files:
        print(f"FAIL {name}: no sources in {floor}")
        return
    c = find_cycle(graph_of(files))
    print(f"FAIL {name}: " + " -> ".join(c) if c else f"PASS {name}")


def main(argv):
    for floor in argv[1:] or ["arch/x86"]:
        check(floor)
    planted = {"x/a.c": '#include "x/a.h"\n#include "x/b.h"\n', "x/b.c": '#include "x/c.h"\n',
               "x/c.c": '#include "x/a.h"\n', "x/d.c": '#include "x/a.h"\n'}
    c = find_cycle(graph_of(planted))
    ok = c and set(c) == {"a", "b", "c"}
    print("PASS include-cycles-control: a planted a -> b -> c -> a is found" if ok else
          f"FAIL include-cycles-control: the planted circle was not found ({c})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
