"""CGSuite-style notation read: values and ``cgf calc`` expressions.

A value is written as :mod:`cgframework.values.notation` prints it (``0``, ``3/4``, ``*2``,
``^``, ``1/2v*3``, ``+-1``, ``{3||2|1}``); an expression joins values with ``+`` and ``-``,
ordinal sums ``G : H`` and calls of the named operations of :mod:`cgframework.values.functions`
(``rcf(G)``, ``cool(G, 1)``). The parser stands above the algebra and its operations, which it
calls; nothing below it imports it.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from cgframework.runtime.deep import recursion_limit_at_least
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
from cgframework.values.functions import FUNCTIONS, FunctionError, call_function
from cgframework.values.hooks import provide
from cgframework.values.ordinal import ordinal_sum


class ValueSyntaxError(ValueError):
    """Malformed value text; the message names the offending token and its position."""


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
    # recursion limit is raised while parsing, and restored after (with the deep calls'
    # raises, which other threads may make meanwhile)
    needed = min(parser.levels, MAX_NESTING) * _FRAMES_PER_LEVEL + 1000
    with recursion_limit_at_least(needed):
        value = parser.expression()
        if parser.peek() is not None:
            parser.error("unexpected")
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


_CALL_HEAD = re.compile(r"\s*([A-Za-z_]\w*)\s*\(")


def evaluate(text: str) -> Any:
    """A calc expression: a value, or a list for a lone list-valued call."""
    match = _CALL_HEAD.match(text) if isinstance(text, str) else None
    if match:
        f = FUNCTIONS.get(match.group(1).lower())
        end = _closing_paren(text, match.end() - 1)
        if f is not None and f.returns_list and end is not None and not text[end + 1 :].strip():
            return call_function(f.name, [parse_value(text[match.end() : end])], alone=True)
    return parse_value(text)


def _closing_paren(text: str, start: int) -> int | None:
    """Index of the ')' that closes the '(' at ``start``."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    return None


provide("canonical.parse", parse_value)
