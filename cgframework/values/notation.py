"""CGSuite-style notation: print canonical forms, parse values and sum expressions.

Printed forms: ``0``, ``-2``, ``3/4``, ``*``, ``*2``, ``1*``, ``^``, ``v``, ``^^``, ``^3``,
``^*``, ``1/2v*3``, ``+-1``, and general ``{L|R}`` with CGSuite's multi-bar nesting
(``{3||2|1}`` is the game whose right option is {2|1}). Every printed form parses back to
the same game.
"""

from __future__ import annotations

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
MAX_UPS = 8
MAX_STAR = 15
_ups_table: dict[CanonicalGame, tuple[int, int]] | None = None


def _infinitesimals() -> dict[CanonicalGame, tuple[int, int]]:
    """n.up + *m for |n| <= MAX_UPS, m <= MAX_STAR (built once, on first need)."""
    global _ups_table
    if _ups_table is None:
        table: dict[CanonicalGame, tuple[int, int]] = {}
        for n in range(-MAX_UPS, MAX_UPS + 1):
            base = up(n)
            for m in range(MAX_STAR + 1):
                table.setdefault(add(base, nimber(m)), (n, m))
        _ups_table = table
    return _ups_table


def format_number(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _ups_text(n: int) -> str:
    if n == 0:
        return ""
    arrow = "^" if n > 0 else "v"
    k = abs(n)
    return arrow * k if k <= 2 else f"{arrow}{k}"


def _star_text(m: int) -> str:
    return "" if m == 0 else "*" if m == 1 else f"*{m}"


def _special(g: CanonicalGame) -> str | None:
    """Number, nimber, number + ups + star, or +-x; None for a general game."""
    if g.number_value is not None:
        return format_number(g.number_value)
    if g.nim_value is not None:
        return _star_text(g.nim_value)
    stop = g.left_stop()
    if stop == g.right_stop():
        rest = add(g, number(-stop))
        found = _infinitesimals().get(rest)
        if found is not None:
            n, m = found
            head = "" if stop == 0 else format_number(stop)
            return head + _ups_text(n) + _star_text(m)
    if len(g.left) == 1 and len(g.right) == 1:
        a, b = g.left[0], g.right[0]
        if a.number_value is not None and b is negate(a) and a.number_value > 0:
            return "+-" + format_number(a.number_value)
    return None


def _bare(g: CanonicalGame) -> tuple[str, int]:
    """A general game as ``L|R`` without braces, and its number of bars."""
    sides = []
    inner = 0
    for options in (g.left, g.right):
        if len(options) == 1 and _special(options[0]) is None:
            text, bars = _bare(options[0])
            inner = max(inner, bars)
            sides.append(text)
        else:
            sides.append(",".join(sorted(format_value(o) for o in options)))
    bars = inner + 1
    return sides[0] + "|" * bars + sides[1], bars


def format_value(g: CanonicalGame) -> str:
    special = _special(g)
    if special is not None:
        return special
    return "{" + _bare(g)[0] + "}"


# ---- parsing -----------------------------------------------------------------------------
def parse_value(text: str) -> CanonicalGame:
    """Parse a value or an expression of values joined by ``+`` and ``-``."""
    if not isinstance(text, str):
        raise ValueSyntaxError(f"expected text, got {type(text).__name__}")
    parser = _Parser(text)
    value = parser.expression()
    if parser.peek() is not None:
        parser.error("unexpected")
    return value


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.chars = [(i, c) for i, c in enumerate(text) if not c.isspace()]
        self.pos = 0

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
            raise ValueSyntaxError(f"{what} {c!r} at position {i + 1} in {self.text!r}")
        raise ValueSyntaxError(f"{what} end of {self.text!r}")

    def expect(self, c: str) -> None:
        if self.peek() != c:
            self.error(f"expected {c!r}, found")
        self.pos += 1

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
        if k == self.pos or self.peek(k - self.pos) != "(" or self.peek().isdigit():
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
        c = self.peek()
        if c == "+" and self.peek(1) == "-" or c == "±":
            self.pos += 2 if c == "+" else 1
            x = self.term()
            return game([x], [negate(x)])
        if c == "-":
            self.pos += 1
            if self.peek() is not None and self.peek().isdigit():  # type: ignore[union-attr]
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
        if self.peek() is not None and self.peek().isdigit():  # type: ignore[union-attr]
            x = self.number()
            value = number(-x if negative else x)
        ups = 0
        while self.peek() in ("^", "v", "↑", "↓"):
            sign = 1 if self.take() in ("^", "↑") else -1
            if self.peek() is not None and self.peek().isdigit():  # type: ignore[union-attr]
                ups += sign * self.integer()
                break
            ups += sign
        if ups:
            value = add(value, up(ups))
        if self.peek() == "*":
            self.pos += 1
            m = self.integer() if (self.peek() or "").isdigit() else 1
            value = add(value, nimber(m))
        if self.pos == start:
            self.error("unexpected")
        return value

    def integer(self) -> int:
        digits = ""
        while (self.peek() or "").isdigit():
            digits += self.take()
        return int(digits)

    def number(self) -> Fraction:
        whole = self.integer()
        if self.peek() == "/" and (self.peek(1) or "").isdigit():
            self.pos += 1
            denominator = self.integer()
            if denominator == 0:
                self.pos -= 1
                self.error("zero denominator")
            x = Fraction(whole, denominator)
        elif self.peek() == "." and (self.peek(1) or "").isdigit():
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
        end = self._matching_end()
        if not self._bar_runs(self.pos, end):
            self.error("expected '|' in braces, found")
        value = self._sub_braces(self.pos, end)
        self.pos = end
        return value

    def side(self, start: int, end: int) -> list[CanonicalGame]:
        self.pos = start
        if start == end:
            return []
        if self._bar_runs(start, end):  # a bare game a|b as the single option
            value = self._sub_braces(start, end)
            return [value]
        options = []
        while True:
            options.append(self.expression())
            if self.pos == end:
                return options
            if self.peek() != ",":
                self.error("expected ',' or '|', found")
            self.pos += 1

    def _sub_braces(self, start: int, end: int) -> CanonicalGame:
        runs = self._bar_runs(start, end)
        longest = max(n for _, n in runs)
        splits = [k for k, n in runs if n == longest]
        if len(splits) > 1:
            self.pos = splits[1]
            self.error("ambiguous bars")
        lefts = self.side(start, splits[0])
        rights = self.side(splits[0] + longest, end)
        return game(lefts, rights)

    def _matching_end(self) -> int:
        depth = 0
        for k in range(self.pos, len(self.chars)):
            c = self.chars[k][1]
            if c in "{(":
                depth += 1
            elif c in "})":
                if depth == 0:
                    return k
                depth -= 1
        self.pos = len(self.chars)
        self.error("missing '}' at")
        return -1

    def _bar_runs(self, start: int, end: int) -> list[tuple[int, int]]:
        """(index, length) of each run of '|' at nesting depth 0 in [start, end)."""
        runs: list[tuple[int, int]] = []
        depth = 0
        k = start
        while k < end:
            c = self.chars[k][1]
            if c in "{(":
                depth += 1
            elif c in "})":
                depth -= 1
            elif c == "|" and depth == 0:
                n = 1
                while k + n < end and self.chars[k + n][1] == "|":
                    n += 1
                runs.append((k, n))
                k += n
                continue
            k += 1
        return runs
