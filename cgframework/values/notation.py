"""CGSuite-style notation: print canonical forms, parse values and sum expressions.

Printed forms: ``0``, ``-2``, ``3/4``, ``*``, ``*2``, ``1*``, ``^``, ``v``, ``^^``, ``^3``,
``^*``, ``1/2v*3``, ``+-1``, and general ``{L|R}`` with CGSuite's multi-bar nesting
(``{3||2|1}`` is the game whose right option is {2|1}). Every printed form parses back to
the same game.
"""

from __future__ import annotations

import sys
from fractions import Fraction

from cgframework.values.canonical import (
    ZERO,
    CanonicalGame,
    add,
    game,
    negate,
    nimber,
    number,
    up,
)


class ValueSyntaxError(ValueError):
    """Malformed value text; the message names the offending token and its position."""


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


# ---- parsing -----------------------------------------------------------------------------
def is_ascii_digit(c: str | None) -> bool:
    """``0``-``9`` only: ``str.isdigit`` also takes ``٣`` and ``１``, which are refused."""
    return c is not None and len(c) == 1 and "0" <= c <= "9"


MAX_NESTING = 1000
"""Deepest nesting of braces, parentheses, bars and signs that :func:`parse_value` accepts
(checked before parsing, so deep input is one clear error, never a stack overflow)."""
_FRAMES_PER_LEVEL = 8


def parse_value(text: str) -> CanonicalGame:
    """Parse a value or an expression of values joined by ``+`` and ``-`` (linear time)."""
    if not isinstance(text, str):
        raise ValueSyntaxError(f"expected text, got {type(text).__name__}")
    parser = _Parser(text)
    # the descent is pure Python calls (no C stack in CPython >= 3.11): for deep input, the
    # recursion limit is raised while parsing, and restored after
    before = sys.getrecursionlimit()
    needed = min(parser.levels, MAX_NESTING) * _FRAMES_PER_LEVEL + 1000
    if before < needed:
        sys.setrecursionlimit(needed)
    try:
        value = parser.expression()
        if parser.peek() is not None:
            parser.error("unexpected")
    finally:
        if before < needed:
            sys.setrecursionlimit(before)
    return value


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.chars = [(i, c) for i, c in enumerate(text) if not c.isspace()]
        self.pos = 0
        self.depth = 0
        self._scan()

    def _scan(self) -> None:
        """One pass: each bracket's match, and each group's runs of bars at its own depth."""
        self.match: dict[int, int] = {}
        self.runs: dict[int, list[tuple[int, int]]] = {-1: []}
        stack: list[int] = []
        self.levels = 0  # bounds the descent: deepest brackets, plus every sign and bar run
        depth = 0
        chars = self.chars
        k, size = 0, len(chars)
        while k < size:
            c = chars[k][1]
            if c in "{(":
                stack.append(k)
                depth = max(depth, len(stack))
                self.runs[k] = []
                if len(stack) > MAX_NESTING:
                    self.pos = k
                    self.error(f"nesting deeper than {MAX_NESTING} levels at")
            elif c in "})":
                if stack:
                    self.match[stack.pop()] = k
            elif c in "-+±":
                self.levels += 1
            elif c == "|":
                self.levels += 1
                n = 1
                while k + n < size and chars[k + n][1] == "|":
                    n += 1
                self.runs[stack[-1] if stack else -1].append((k, n))
                k += n
                continue
            k += 1
        self.levels += depth

    # low level
    def peek(self, ahead: int = 0) -> str | None:
        k = self.pos + ahead
        return self.chars[k][1] if k < len(self.chars) else None

    def take(self) -> str:
        c = self.peek()
        if c is None:
            self.error("unexpected end")
        self.pos += 1
        return c  # type: ignore[return-value]

    def error(self, what: str) -> None:
        if self.pos < len(self.chars):
            i, c = self.chars[self.pos]
            raise ValueSyntaxError(f"{what} {c!r} at position {i + 1} in {_short(self.text)}")
        raise ValueSyntaxError(f"{what} end of {_short(self.text)}")

    def expect(self, c: str) -> None:
        if self.peek() != c:
            self.error(f"expected {c!r}, found")
        self.pos += 1

    def deeper(self) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            self.error(f"nesting deeper than {MAX_NESTING} levels at")

    # grammar
    def expression(self) -> CanonicalGame:
        value = self.ordinal()
        while self.peek() in ("+", "-"):
            op = self.take()
            rhs = self.ordinal()
            value = add(value, rhs if op == "+" else negate(rhs))
        return value

    def ordinal(self) -> CanonicalGame:
        """``G : H`` (ordinal sum) binds tighter than ``+``/``-``, left to right."""
        value = self.term()
        while self.peek() == ":":
            from cgframework.values.ordinal import ordinal_sum

            self.pos += 1
            value = ordinal_sum(value, self.term())
        return value

    def call(self) -> CanonicalGame | None:
        """``name(arg, ...)``: a function of :mod:`cgframework.values.functions` (rcf, cool,
        aw, ...); None (nothing consumed) if no name followed by '(' starts here."""
        k = self.pos
        while (self.peek(k - self.pos) or "?").isalnum() or self.peek(k - self.pos) == "_":
            k += 1
        if k == self.pos or self.peek(k - self.pos) != "(" or is_ascii_digit(self.peek()):
            return None
        from cgframework.values.functions import FunctionError, call_function

        name = "".join(c for _, c in self.chars[self.pos : k])
        start = self.pos
        self.pos = k + 1
        args = [] if self.peek() == ")" else [self.expression()]
        while self.peek() == ",":
            self.pos += 1
            args.append(self.expression())
        self.expect(")")
        try:
            return call_function(name, args)
        except FunctionError as exc:
            raise ValueSyntaxError(f"{exc} (at position {self.chars[start][0] + 1})") from None

    def term(self) -> CanonicalGame:
        if self.peek() not in ("{", "(", "-", "+", "±"):
            return self._term()  # a literal: no deeper
        self.deeper()
        try:
            return self._term()
        finally:
            self.depth -= 1

    def _term(self) -> CanonicalGame:
        c = self.peek()
        if c == "+" and self.peek(1) == "-" or c == "±":
            self.pos += 2 if c == "+" else 1
            x = self.term()
            return game([x], [negate(x)])
        if c == "-":
            self.pos += 1
            if self.peek() is not None and is_ascii_digit(self.peek()):  # type: ignore[union-attr]
                return self.literal(negative=True)
            return negate(self.term())
        if c == "(":
            self.pos += 1
            value = self.expression()
            self.expect(")")
            return value
        if c == "{":
            self.pos += 1
            value = self.braces()
            self.expect("}")
            return value
        called = self.call()
        if called is not None:
            return called
        return self.literal(negative=False)

    def literal(self, negative: bool) -> CanonicalGame:
        start = self.pos
        value = ZERO
        if self.peek() is not None and is_ascii_digit(self.peek()):  # type: ignore[union-attr]
            x = self.number()
            value = number(-x if negative else x)
        ups = 0
        while self.peek() in ("^", "v", "↑", "↓"):
            sign = 1 if self.take() in ("^", "↑") else -1
            if self.peek() is not None and is_ascii_digit(self.peek()):  # type: ignore[union-attr]
                ups += sign * self.integer()
                break
            ups += sign
        if ups:
            value = add(value, up(ups))
        if self.peek() == "*":
            self.pos += 1
            m = self.integer() if is_ascii_digit(self.peek()) else 1
            value = add(value, nimber(m))
        if self.pos == start:
            self.error("unexpected")
        return value

    def integer(self) -> int:
        start = self.pos
        while is_ascii_digit(self.peek()):
            self.pos += 1
        digits = "".join(c for _, c in self.chars[start : self.pos])
        try:
            return int(digits)
        except ValueError as exc:  # more digits than Python converts
            self.pos = start
            self.error(f"number too long ({len(digits)} digits):")
            raise AssertionError from exc

    def number(self) -> Fraction:
        whole = self.integer()
        if self.peek() == "/" and is_ascii_digit(self.peek(1)):
            self.pos += 1
            denominator = self.integer()
            if denominator == 0:
                self.pos -= 1
                self.error("zero denominator")
            x = Fraction(whole, denominator)
        elif self.peek() == "." and is_ascii_digit(self.peek(1)):
            self.pos += 1
            start = self.pos
            frac = self.integer()
            x = whole + Fraction(frac, 10 ** (self.pos - start))
        else:
            x = Fraction(whole)
        if x.denominator & (x.denominator - 1):
            raise ValueSyntaxError(f"{x} is not a dyadic rational (not a short game)")
        return x

    def braces(self) -> CanonicalGame:
        """Inside ``{...}``: sides split at the longest run of bars at this level."""
        group = self.pos - 1
        end = self.match.get(group)
        if end is None:
            self.pos = len(self.chars)
            self.error("missing '}' at")
        runs = self.runs[group]
        if not runs:
            self.error("expected '|' in braces, found")
        value = self._sub_braces(self.pos, end, runs)  # type: ignore[arg-type]
        self.pos = end  # type: ignore[assignment]
        return value

    def side(self, start: int, end: int, runs: list[tuple[int, int]]) -> list[CanonicalGame]:
        self.pos = start
        if start == end:
            return []
        if runs:  # a bare game a|b as the single option
            self.deeper()
            value = self._sub_braces(start, end, runs)
            self.depth -= 1
            return [value]
        options = []
        while True:
            options.append(self.expression())
            if self.pos == end:
                return options
            if self.peek() != ",":
                self.error("expected ',' or '|', found")
            self.pos += 1

    def _sub_braces(self, start: int, end: int, runs: list[tuple[int, int]]) -> CanonicalGame:
        """``runs``: the bar runs at this level inside [start, end), in order."""
        longest = max(n for _, n in runs)
        splits = [i for i, (_, n) in enumerate(runs) if n == longest]
        if len(splits) > 1:
            self.pos = runs[splits[1]][0]
            self.error("ambiguous bars")
        i = splits[0]
        at = runs[i][0]
        lefts = self.side(start, at, runs[:i])
        rights = self.side(at + longest, end, runs[i + 1 :])
        return game(lefts, rights)


def _short(text: str, limit: int = 80) -> str:
    """``repr(text)``, shortened for error messages."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} chars)"
