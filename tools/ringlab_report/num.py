# SPDX-License-Identifier: GPL-2.0-only
"""Numbers in logcheck's field values (always strings: a field may hold
anything a log line held) and how the reports print them."""

import math


def number(v):
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def numf(v):
    """A field as a number: an integer (the metric grammar's), else a
    finite decimal such as a duration; None when it is neither."""
    n = number(v)
    if n is not None:
        return n
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def fmt_sig(x, sig=3):
    """x with `sig` significant digits and no exponent for everyday
    magnitudes: 0.0038 -> 0.00380, 1 -> 1.00, 123.4 -> 123, 12345.6 ->
    12346; '-' for None."""
    if x is None:
        return "-"
    if isinstance(x, int):
        return str(x)
    if not math.isfinite(x):
        return "-"
    if x == 0:
        return "0"
    mag = math.floor(math.log10(abs(x)))
    if mag >= sig - 1:
        return "%.0f" % x
    if mag < -9:
        return "%.*e" % (sig - 1, x)
    return "%.*f" % (sig - 1 - mag, x)


def fmt_num(x):
    """A measured number: integers exact, other numbers to 4 significant
    digits without trailing zeros (0.0038, 12.5)."""
    t = fmt_sig(x, 4)
    if isinstance(x, float) and "." in t and "e" not in t:
        t = t.rstrip("0").rstrip(".")
    return t


def fmt_ms(ms):
    return "-" if ms is None else "%.3f" % ms
