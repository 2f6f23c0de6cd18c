"""Compares what a page shows with what a command or a Python call prints, under calib's promise about
identical numbers (docs/architecture.md, "Identical numbers"): within one build every number is
bitwise the same for any thread count, but two builds (another ARCH, another CPU) may differ by
rounding. So a number of the shown text matches a printed number when

    |printed - shown| <= REL_TOL * max(|printed|, |shown|) + one unit in the last digit shown,

the unit allowing for a value printed rounded (a table's 6 significant digits) whose last digit a
last-bit difference can move; it is left out for literals of fewer than 5 significant digits. Integers (no point, no exponent) must be equal, and every
text between numbers must be equal; "…" (or "..." where `ellipsis_dots`) stands for any text, and a
number written just before "…" is a prefix of the printed one (an abbreviated value)."""

import re
from decimal import Decimal

# The promise's relative tolerance between builds (docs/architecture.md).
REL_TOL = 1e-8

NUMBER = r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?"
# A number ends before a letter, a digit or a point, unless the point starts "...".
_END = r"(?!\w)(?!\.(?!\.\.))"
_TOKEN = re.compile(r"(…|\.\.\.)|(?<![\w.])(" + NUMBER + ")" + _END)


def _unit(text):
    """One unit in the last digit of a decimal literal."""
    exponent = Decimal(text).as_tuple().exponent
    return float(Decimal(1).scaleb(exponent))


def _pattern(shown, ellipsis_dots):
    """A regex for `shown` and, for each capture group, the shown literal. With `ellipsis_dots`
    (doctest) an ellipsis matches any text; otherwise "…" matches any text within a line, and a line
    that is only "…" any number of whole lines."""
    parts, literals = [], []
    lines = [shown] if ellipsis_dots else shown.split("\n")
    for index, line in enumerate(lines):
        last = index == len(lines) - 1
        if not ellipsis_dots and line.strip() == "…":
            parts.append(r"(?:[^\n]*\n)*?" if not last else r"(?:[^\n]*\n?)*?")
            continue
        pos = 0
        for match in _TOKEN.finditer(line):
            ellipsis, number = match.group(1), match.group(2)
            if ellipsis == "..." and not ellipsis_dots:
                continue
            parts.append(re.escape(line[pos:match.start()]))
            if ellipsis:
                parts.append(r"(?:.|\n)*?" if ellipsis_dots else r"[^\n]*?")
            elif line.startswith(("…", "..."), match.end()) or not re.search(r"[.eE]", number):
                parts.append(re.escape(number))  # an abbreviated value or an integer: exactly
            else:
                parts.append(r"(?<![\w.])(" + NUMBER + ")" + _END)
                literals.append(number)
            pos = match.end()
        parts.append(re.escape(line[pos:]) + ("" if last else "\n"))
    return "".join(parts), literals


def _significant_digits(text):
    return len(Decimal(text).normalize().as_tuple().digits)


def close(shown, printed):
    """Whether the printed literal is within the promise of the shown one (the unit of the last digit
    only for a value of 5 or more significant digits: a short one, such as an option's 0.05 or a
    p-value's 0.013, is not a rounded continuous value)."""
    a, b = float(shown), float(printed)
    unit = _unit(shown) if _significant_digits(shown) >= 5 else 0.0
    return abs(a - b) <= REL_TOL * max(abs(a), abs(b)) + unit


def matches(shown, printed, ellipsis_dots=False):
    """Whether `printed` is `shown` under the rules above (whole texts, newlines included)."""
    pattern, literals = _pattern(shown, ellipsis_dots)
    found = re.fullmatch(pattern, printed, re.DOTALL)
    if found is None:
        return False
    return all(close(s, p) for s, p in zip(literals, found.groups()))
