# SPDX-License-Identifier: GPL-2.0-only
"""The conclusion tokens of the answers block (docs/log-format.md,
"Conclusion tokens"): for each answer, a short set of `name=value`
tokens that says what was concluded, not with which counts, so that two
runs can be compared by their conclusions (compare), machines side by
side (the fleet view) and LAVA's answer results checked (tools/lava/
run-qemu).  This is the one place they are derived; every tool calls
conclusions().

They come from structured parts of the log only, never from an answer's
sentence (its words are the runner's to choose): whether the answer says
"not measured:", and the `key=value` facts of the metrics of the suites
that answer the question (FAMILIES below), e.g. wrmsr_order's
`fence_needed=`, tsc_order's `backward=` and `checks=`, clear's crossover
`from=`, a litmus test's count and `verdict=`.  The whole family, not the
answer's `from=` list: the runner names the evidence a sentence rests on
(the weakest read, say), which differs from run to run, while the suite
prints the same metrics every time.  A sample count, a p50 or a ratio is
never a token; a cost is compared with its baseline or its fenced twin by
compare's spread rule ([min..p99] apart), not by its number.

A token is `<name>=<value>`, both of [a-z0-9_.+-]; an answer's set is
sorted.  `not-measured` alone: the answer says "not measured:".
`measured` alone: answered, and its suites' metrics carry no fact to
conclude from (a cost measured, nothing more)."""

import re

from .num import numf

NOT_MEASURED = "not-measured"
MEASURED = "measured"

# compare's significance rule (docs/host-tools.md): two spreads
# [min..p99] that do not overlap; fewer samples have no spread
SIG_MIN_N = 5
# The first rows of the claims' rule (lib/claims.c, docs/log-format.md
# "Claims"): an effect seen is seen, whatever the count of samples; not
# seen in fewer than 30 samples says nothing.
CLAIM_MIN_N = 30
# at most this many metrics of one family are read (a real run has a few
# dozen; a damaged or generated log may have any number)
FAMILY_MAX = 5000


def _word(v):
    """A field value as a token value (lower case, no blanks)."""
    return re.sub(r"[^a-z0-9_.+-]+", "-", str(v).lower()).strip("-") or "-"


def _samples(f):
    """How many samples a fact rests on: checks= (the comparisons that
    could see it), else n=, samples=, iters=."""
    for k in ("checks", "n", "samples", "iters"):
        v = numf(f.get(k))
        if v is not None:
            return v
    return None


def _seen(seen, f, yes="yes", no="no"):
    """yes when seen; too-few when not seen in fewer than CLAIM_MIN_N
    samples; else no."""
    if seen:
        return yes
    n = _samples(f)
    return "too-few" if n is not None and n < CLAIM_MIN_N else no


def _spread(f):
    a, b, n = numf(f.get("min")), numf(f.get("p99")), numf(f.get("n"))
    if a is None or b is None or (n is not None and n < SIG_MIN_N):
        return None
    return a, b


def _against(fa, fb):
    """b against a by the spread rule: faster, slower, indistinguishable,
    or None when either has no spread."""
    sa, sb = _spread(fa), _spread(fb)
    if sa is None or sb is None:
        return None
    if sb[1] < sa[0]:
        return "faster"
    if sb[0] > sa[1]:
        return "slower"
    return "indistinguishable"


def _bucket(n):
    """The power-of-two range a page count falls in: 13 -> (8, 15)."""
    n = int(n)
    if n <= 0:
        return 0, 0
    lo = 1 << (n.bit_length() - 1)
    return lo, 2 * lo - 1


def _pages(lo, hi):
    return "%dp" % lo if lo == hi else "%d-%dp" % (lo, hi)


# --- the rules: (metric-name regex, rule(match, fields, all fields) ->
# [(token name, value)]) per question -----------------------------------

def _wrmsr_stale(m, f, _):
    if m.group(1) == "late_control":
        return []                   # the control: the answer's control= says it
    out = []
    if "fence_needed" in f:
        out.append(("fence", _seen(f["fence_needed"] == "yes", f, "needed",
                                   _word(f["fence_needed"]))))
    v = numf(f.get("value"))
    if v is not None:
        out.append(("stale." + m.group(1), _seen(v > 0, f)))
    return out


def _litmus_wrmsr(m, f, _):
    v = f.get("verdict")
    if v is None:
        return []
    n = _samples(f)
    if n is not None and n < CLAIM_MIN_N:
        v = "inconclusive"
    return [("serializing." + m.group(1),
             {"serializing-not-observed-to-fail": "serializing"}.get(v, _word(v)))]


def _tsc_order(m, f, _):
    if m.group(1) == "control":
        return []
    b = numf(f.get("backward"))
    # every phase (now, load, store, ...) of one reader is one token
    return [] if b is None else [("backward." + m.group(2), _seen(b > 0, f))]


def _clear_crossover(m, f, _):
    return [("crossover.%s.%s" % (m.group(1), m.group(2)), _word(f.get("from", "never")))]


def _tlb_crossover(m, f, _):
    """The crossover as the power-of-two ranges its p25..p75 range (or
    its value) falls in: a value measured twice lands there unless it
    sits at a bucket's edge."""
    v = numf(f.get("value"))
    if v is None:
        return []
    r = re.match(r"^([0-9]+)-([0-9]+)$", f.get("range_p25_p75", ""))
    lo, hi = (int(r.group(1)), int(r.group(2))) if r else (v, v)
    return [("crossover." + m.group(1), _pages(_bucket(lo)[0], _bucket(hi)[1]))]


def _tlb_verdict(m, f, _):
    v = f.get("verdict")
    return [] if v is None else [("%s.%s" % (m.group(1), m.group(2)), _word(v))]


def _measured(name):
    return lambda m, f, _: [(name % m.groupdict() if "%" in name else name, "measured")]


def _ipi_fence(m, f, fields):
    twin = fields.get("%s.mfence_lfence%s" % (m.group(1), m.group(4) or ""))
    how = None if twin is None else _against(f, twin)
    return [] if how is None else [("fence.%s.%s" % (m.group(2), m.group(3)), how)]


def _tscdeadline(m, f, _):
    out = []
    for k in ("early", "lost"):
        v = numf(f.get(k))
        if v is not None:
            out.append(("%s.%s" % (k, m.group(1)), _seen(v > 0, f)))
    return out


def _litmus(m, f, _):
    """A classic litmus test (it prints outcome=): its outcome seen or
    not; seen where the architecture forbids it is a violation."""
    v = numf(f.get("value"))
    if v is None or "outcome" not in f:
        return []
    if f.get("verdict") == "inconclusive":
        return [(m.group(1), "too-few")]
    seen = _seen(v > 0, f, "seen", "not-seen")
    if seen == "seen" and f.get("verdict") == "forbidden":
        seen = "seen-forbidden"
    return [(m.group(1), seen)]


def _fence(m, f, fields):
    """Does the instruction cost measurably over its baseline (the
    metric its baseline= names)?  Two criteria must agree: the suite's
    delta_verdict (its p50 delta against the p25..p75 noise) and the
    spread rule against the baseline; `costs` or `within-noise` when they
    do, `unclear` when they do not (timings near the noise flip one or
    the other between runs).  A delta below the noise is no cost: a fence
    does not make stores cheaper."""
    if f.get("what") == "stores-only-baseline" or m.group(2) == "none":
        return []
    base = fields.get(f.get("baseline", ""))
    by_spread = None if base is None else _against(base, f)
    dv = f.get("delta_verdict")
    by_delta = None if dv is None else ("slower" if dv == "above-noise" else "indistinguishable")
    votes = {x for x in (by_spread, by_delta) if x is not None}
    if not votes:
        return []
    if votes == {"slower"}:
        how = "costs"
    elif "slower" not in votes:
        how = "within-noise"
    else:
        how = "unclear"
    return [("%s.%s" % (m.group(2), m.group(1).replace("after_stores.miss", "after_misses")), how)]


# question -> the metrics of the suites that answer it, each with its rule
FAMILIES = {
    "wrmsr_fence": [(r"^wrmsr_order\.stale_reads\.([a-z0-9_]+)$", _wrmsr_stale),
                    (r"^litmus\.sb\.wrmsr_([a-z0-9_]+)$", _litmus_wrmsr)],
    "rdtsc_order": [(r"^tsc_order\.([a-z0-9_]+)\.([a-z0-9_]+)$", _tsc_order)],
    "nt_clear": [(r"^clear\.crossover\.movnti\.([a-z0-9_]+)\.([a-z0-9]+)$", _clear_crossover)],
    "tlb_flush": [(r"^tlb\.summary\.([a-z0-9_]+)_crossover\.1cpu$", _tlb_crossover),
                  (r"^tlb\.summary\.(rewalk)_crossover\.([a-z0-9_]+)\.1cpu$",
                   lambda m, f, a: [(k + "." + m.group(2), v) for k, v in _tlb_crossover(m, f, a)]),
                  (r"^tlb\.(flush_[a-z0-9]+)\.([a-z0-9_]+)\.[A-Za-z0-9_.-]+$", _tlb_verdict)],
    "tlb_shootdown": [(r"^tlb\.shootdown\.ipi_[A-Za-z0-9_.-]+$", _measured("ipi_shootdown")),
                      (r"^tlb\.invlpgb\.[A-Za-z0-9_.-]+$", _measured("invlpgb"))],
    "ipi_cost": [(r"^(ipi\.([a-z_]+)\.[a-z_]+\.([a-z0-9]+))\.nofence((?:\.[A-Za-z0-9_.-]+)?)$",
                  _ipi_fence)],
    "tscdeadline": [(r"^tscdeadline\.([a-z0-9_]+)(?:\.[A-Za-z0-9_.-]+)?$", _tscdeadline)],
    "spec_cost": [(r"^spec\.(?P<case>[a-z0-9_]+)\.[A-Za-z0-9_.-]+$", _measured("%(case)s"))],
    "litmus": [(r"^litmus\.((?:sb|mp|mp_nt|iriw|lb|wrc)\.[a-z0-9_]+)$", _litmus)],
    "fence_cost": [(r"^fence\.(alone|after_stores|after_stores\.miss)\.([a-z0-9_]+)$", _fence)],
}
FAMILIES = {k: [(re.compile(rx), fn) for rx, fn in v] for k, v in FAMILIES.items()}
# the suites these read, to skip every other metric at once
SUITES = {"wrmsr_order", "litmus", "tsc_order", "clear", "tlb", "ipi", "tscdeadline", "spec", "fence"}

# When one token name gets several values (one reader over four phases,
# several delays of one timer): the strongest wins where the values rank,
# else they are all kept, joined by '+'.
RANK = {"seen-forbidden": 5, "yes": 4, "seen": 4, "needed": 4, "costs": 4, "slower": 4,
        "no": 3, "not-seen": 3, "not-observed": 3, "within-noise": 3, "indistinguishable": 3,
        "faster": 3, "measured": 2, "unclear": 1, "too-few": 1, "inconclusive": 1}


def _merge(values):
    if all(v in RANK for v in values):
        return max(values, key=lambda v: RANK[v])
    return "+".join(sorted(values))


def tokens(key, answer, fields):
    """The sorted token list of one answer (a dict with text, as
    parse.Run.answers holds it); fields: metric name -> its fields, for
    the metrics of the run (at least those of the key's family)."""
    if answer is None:
        return []
    if answer["text"].startswith("not measured:"):
        return [NOT_MEASURED]
    got = {}
    for name, f in fields.items():
        for rx, rule in FAMILIES.get(key, ()):
            m = rx.match(name)
            if m:
                for k, v in rule(m, f, fields):
                    got.setdefault(k, set()).add(v)
                break
    out = sorted("%s=%s" % (k, _merge(v)) for k, v in got.items())
    return out or [MEASURED]


def conclusions(run):
    """key -> sorted token list for every answer of the run ({} without
    an answers block).  Reads the run's metrics once (those of SUITES)."""
    if not run.answers:
        return {}
    cached = getattr(run, "_conclusions", None)
    if cached is not None:
        return cached
    fields = {}
    if any(not a["text"].startswith("not measured:") for a in run.answers.values()):
        for m in run.metrics:
            if len(fields) >= FAMILY_MAX * len(FAMILIES):
                break
            if m["name"].split(".", 1)[0] in SUITES:
                fields.setdefault(m["name"], m["fields"])
    out = {k: tokens(k, a, fields) for k, a in run.answers.items()}
    run._conclusions = out
    return out


# Values that conclude nothing either way: a run where a token has one of
# these does not contradict a run where it has another value (compare
# calls that a difference in strength, not a changed conclusion).  An
# allowed litmus outcome not seen is one of them: not seen is not
# "cannot happen" without a control that shows it could be seen.
WEAK = {"inconclusive", "too-few", "not-seen", "unclear", "not-distinguished-from-delay",
        "no-data", "harness-broken", NOT_MEASURED}


def split(toks):
    """A token list as {name: value} (`measured`/`not-measured` as
    {'': value})."""
    out = {}
    for t in toks:
        k, sep, v = t.partition("=")
        out[k if sep else ""] = v if sep else k
    return out


def diff(a, b):
    """How conclusion b differs from a: ('same' | 'strength' | 'changed',
    [(name, value in a, value in b)]), a value None where a run lacks the
    name.  'strength': every difference has a WEAK value on one side (or
    the answer was not measured in one run); 'changed': some token
    contradicts, or a run has a token the other lacks."""
    if a == b:
        return "same", []
    da, db = split(a), split(b)
    if NOT_MEASURED in (da.get(""), db.get("")):
        return "strength", [("", da.get(""), db.get(""))]
    rows = []
    changed = False
    for k in sorted(set(da) | set(db)):
        va, vb = da.get(k), db.get(k)
        if va == vb:
            continue
        rows.append((k, va, vb))
        if va is None or vb is None or not (va in WEAK or vb in WEAK):
            changed = True
    return ("changed" if changed else "strength"), rows


def text(toks):
    """A token list as one line: 'a=b c=d' ('-' for none)."""
    return " ".join(toks) if toks else "-"
