"""CGSuite-style notation: canonical forms printed.

Printed forms: ``0``, ``-2``, ``3/4``, ``*``, ``*2``, ``1*``, ``^``, ``v``, ``^^``, ``^3``,
``^*``, ``1/2v*3``, ``+-1``, and general ``{L|R}`` with CGSuite's multi-bar nesting
(``{3||2|1}`` is the game whose right option is {2|1}). Every printed form parses back to
the same game (:mod:`cgframework.values.parser`).
"""

from __future__ import annotations

from fractions import Fraction

from cgframework.values.canonical import (
    CanonicalGame,
    negate,
)
from cgframework.values.hooks import provide

# ---- printing ----------------------------------------------------------------------------
MAX_LENGTH = 1000
"""Default length limit of :func:`format_value` where a caller asks for elision (the CLI
without ``--full``)."""


def format_number(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _ups_text(n: int) -> str:
    """CGSuite's ``^``, ``^^``, ``^3``, ... and ``v``, ``vv``, ``v3``, ... for any n."""
    if n == 0:
        return ""
    arrow = "^" if n > 0 else "v"
    k = abs(n)
    return arrow * k if k <= 2 else f"{arrow}{k}"


def _star_text(m: int) -> str:
    return "" if m == 0 else "*" if m == 1 else f"*{m}"


def uptimal_text(x: Fraction, n: int, m: int) -> str:
    """``x + n.^ + *m`` as CGSuite prints it: ``0``, ``-2``, ``*5``, ``^3*``, ``1/2v*255``."""
    head = "" if x == 0 and (n or m) else format_number(x)
    return head + _ups_text(n) + _star_text(m)


def _special(g: CanonicalGame) -> str | None:
    """Number, nimber, number + ups + star, or +-x; None for a general game."""
    up = g.uptimal
    if up is not None:
        return uptimal_text(*up)
    if len(g.left) == 1 and len(g.right) == 1:
        a, b = g.left[0], g.right[0]
        if a.number_value is not None and b is negate(a) and a.number_value > 0:
            return "+-" + format_number(a.number_value)
    return None


class _Printer:
    """Texts of one printing, each subgame's made once: a canonical form is a DAG, and a
    subgame met on many paths (3.4 MB of text for Snort on a 20-vertex path) would be
    printed again on each one."""

    def __init__(self) -> None:
        self.texts: dict[int, str] = {}
        self.bares: dict[int, tuple[str, int]] = {}

    def text(self, g: CanonicalGame) -> str:
        found = self.texts.get(g.id)
        if found is None:
            special = _special(g)
            found = special if special is not None else "{" + self.bare(g)[0] + "}"
            self.texts[g.id] = found
        return found

    def bare(self, g: CanonicalGame) -> tuple[str, int]:
        """A general game as ``L|R`` without braces, and its number of bars."""
        found = self.bares.get(g.id)
        if found is not None:
            return found
        sides = []
        inner = 0
        for options in (g.left, g.right):
            if len(options) == 1 and _special(options[0]) is None:
                text, bars = self.bare(options[0])
                inner = max(inner, bars)
                sides.append(text)
            else:
                sides.append(",".join(sorted(self.text(o) for o in options)))
        bars = inner + 1
        found = self.bares[g.id] = (sides[0] + "|" * bars + sides[1], bars)
        return found


def format_value(g: CanonicalGame, max_length: int | None = None) -> str:
    """CGSuite text of ``g`` (parses back to ``g``). With ``max_length``, a longer text is
    elided to its start and end around ``...`` and its length (that form does not parse)."""
    return elide(_Printer().text(g), max_length)


def elide(text: str, max_length: int | None) -> str:
    """``text`` if it fits in ``max_length``, else its start and end around ``...``."""
    if max_length is None or len(text) <= max_length:
        return text
    keep = max(max_length - 40, 8)
    head, tail = text[: keep * 3 // 4], text[len(text) - keep // 4 :]
    return f"{head}...{tail} ({len(text)} characters, elided)"


provide("canonical.format", format_value)
