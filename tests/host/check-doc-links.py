#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Every relative link in README.md and docs/*.md names a file that exists and,
with a #fragment into a Markdown file, a heading (or <a id=...>) that is there.

  tests/host/check-doc-links.py            PASS/FAIL doc-links, doc-pages-linked (every
                                           docs/*.md linked from the README), then the control
  tests/host/check-doc-links.py FILE...    check only these files (no control)

Anchors follow GitHub's rule: the heading text lowercased, everything but
letters, digits, spaces, '-' and '_' dropped, spaces turned into '-', a repeat
suffixed -1, -2, ...  Links and headings inside fenced code blocks and inline
code spans are not links.  Prints lines "PASS|FAIL <name>: <detail>".
"""
import os
import re
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LINK_RE = re.compile(r'(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+"[^"]*")?\)|!\[[^\]]*\]\(([^)\s]+)\)')
ANCHOR_TAG_RE = re.compile(r'<a\s+(?:id|name)="([^"]+)"')


def prose_lines(text):
    """(line number, line) outside fenced code, with inline code spans blanked."""
    fence = None
    for n, line in enumerate(text.split("\n"), 1):
        m = re.match(r'^\s*(```+|~~~+)', line)
        if m:
            if fence is None:
                fence = m.group(1)[0] * 3
            elif m.group(1).startswith(fence):
                fence = None
            continue
        if fence is None:
            yield n, re.sub(r'(`+)(?:(?!\1).)+?\1', lambda c: " " * len(c.group(0)), line)


def slug(heading):
    s = re.sub(r'<[^>]+>', '', heading).strip().lower()
    s = s.replace('`', '')
    s = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', s)
    s = ''.join(ch for ch in s if ch.isalnum() or ch in ' -_')
    return s.replace(' ', '-')


def anchors(path, cache={}):
    if path not in cache:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        tags = {a for _, line in prose_lines(text) for a in ANCHOR_TAG_RE.findall(line)}
        cache[path] = raw_heading_anchors(text) | tags
    return cache[path]


def raw_heading_anchors(text):
    """The anchors of the headings outside fenced code (code spans kept: their text counts)."""
    seen, out, fence = {}, set(), None
    for line in text.split("\n"):
        m = re.match(r'^\s*(```+|~~~+)', line)
        if m:
            fence = None if fence else m.group(1)[0]
            continue
        if fence:
            continue
        m = re.match(r'^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$', line)
        if m:
            base = slug(m.group(2))
            k = seen.get(base, 0)
            out.add(base if k == 0 else f"{base}-{k}")
            seen[base] = k + 1
    return out


def check_file(path, root):
    bad, n = [], 0
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for lineno, line in prose_lines(text):
        for m in LINK_RE.finditer(line):
            target = m.group(1) or m.group(2)
            if re.match(r'^[a-z][a-z0-9+.-]*:', target, re.I):
                continue          # http:, https:, mailto: ...: not checked offline
            n += 1
            file_part, _, frag = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            where = f"{os.path.relpath(path, root)}:{lineno}: ({target})"
            if not os.path.exists(dest):
                bad.append(f"{where} no file {os.path.relpath(dest, root)}")
            elif frag and dest.endswith(".md") and frag not in anchors(dest):
                bad.append(f"{where} no heading #{frag} in {os.path.relpath(dest, root)}")
    return n, bad


def check(files, root):
    total, bad = 0, []
    for p in files:
        n, b = check_file(p, root)
        total += n
        bad += b
    return total, bad


def main():
    args = sys.argv[1:]
    if args and args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    files = args or [os.path.join(ROOT, "README.md")] + sorted(
        os.path.join(ROOT, "docs", f) for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md"))
    missing = [f for f in files if not os.path.isfile(f)]
    if missing:
        print(f"FAIL doc-links: no such file {missing[0]}")
        return 1
    try:
        total, bad = check(files, ROOT)
    except (OSError, UnicodeDecodeError) as e:
        print(f"FAIL doc-links: cannot read a page: {e}")
        return 1
    if bad:
        print(f"FAIL doc-links: {len(bad)} broken of {total} relative links; {bad[0]}"
              + (f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""))
        for b in bad[1:]:
            print(f"  {b}")
    else:
        print(f"PASS doc-links: {total} relative links in {len(files)} files resolve")
    if args:
        return 1 if bad else 0
    # Every page under docs/ is reachable from the README's links.
    readme = os.path.join(ROOT, "README.md")
    with open(readme, encoding="utf-8") as f:
        linked = {os.path.normpath(os.path.join(ROOT, (m.group(1) or m.group(2)).partition("#")[0]))
                  for _, line in prose_lines(f.read()) for m in LINK_RE.finditer(line)}
    orphans = [os.path.relpath(p, ROOT) for p in files[1:] if os.path.normpath(p) not in linked]
    print(f"FAIL doc-pages-linked: not linked from README.md: {', '.join(orphans)}" if orphans
          else f"PASS doc-pages-linked: all {len(files) - 1} docs pages are linked from README.md")
    # Control: a planted page with a missing file, a missing heading and a link
    # inside code (not a link) must give exactly the first two.
    with tempfile.TemporaryDirectory() as d:
        page = os.path.join(d, "planted.md")
        with open(page, "w") as f:
            f.write("# Planted\n\n## A `code` heading\n\n[ok](#a-code-heading) [gone](nosuch.md)\n"
                    "[bad anchor](planted.md#no-such-heading) `[in code](nosuch2.md)`\n\n"
                    "```\n[in a fence](nosuch3.md)\n```\n")
        n, cbad = check([page], d)
        ok = n == 3 and len(cbad) == 2 and "no file nosuch.md" in cbad[0] and "#no-such-heading" in cbad[1]
        print(f"{'PASS' if ok else 'FAIL'} doc-links-control: planted broken links "
              f"{'found' if ok else 'not found as expected: ' + '; '.join(cbad)} ({n} links)")
    return 1 if bad or orphans or not ok else 0


if __name__ == "__main__":
    sys.exit(main())
