"""Text form of scoring games: the grammar of the authors' calculator (digest 004 Section 6.4).

::

    expr   := term (('+' | '-') term)*          # '-' H means + ~H (the conjugate)
    term   := '~' term | game
    game   := number | '<' side '|' side '>'    # '{' '}' accepted for '<' '>'
    side   := atom | expr (',' expr)*
    atom   := '^' number | '∅^' number
    number := -?digits | -?digits.digits | -?digits/digits

A number ``s`` is the game ``<^s|^s>``. The printer is deterministic: options are sorted by
(length, text) and a number is printed as itself, so ``str`` is a stable serialisation.
"""

from __future__ import annotations

import re
from fractions import Fraction

from cgframework.runtime.budget import LimitExceeded
from cgframework.runtime.deep import NestingError, call_deep, check_nesting
from cgframework_guaranteed.games import (
    Score,
    ScoringGame,
    add,
    conjugate,
    exact,
    game,
    install_text_form,
    number,
)

_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+|/[0-9]+)?")
_OPEN = "<{"
_CLOSE = ">}"
MAX_NESTING = 5000
"""Deepest game text read (brackets plus '~'/'-' prefixes). Measured: a form 5,000 levels
deep parses, conjugates, compares, reduces and prints in about a second; printing caches the
text of every follower, which is quadratic in the depth (15,000 levels: ~300 MB)."""
MAX_DIGITS = 1000
"""Longest number read, in digits (sums must stay printable: Python refuses to print an int
of more than 4300 digits, ``sys.get_int_max_str_digits``)."""


class GameSyntaxError(ValueError):
    """Malformed scoring-game text; the message says what and at which character."""


def format_score(s: Score) -> str:
    s = Fraction(s)
    return str(s.numerator) if s.denominator == 1 else f"{s.numerator}/{s.denominator}"


MAX_TEXT = 50_000_000
"""Characters ``format_game`` builds at most for one game: the texts of all followers not
printed before (each is cached). A game is a DAG whose text is a tree: ``*16`` embedded in
GS prints 86 MB, ``*100`` would never end."""


def format_game(g: ScoringGame) -> str:
    """``<L|R>`` with atoms ``^s``; numbers print as themselves. Cached on each follower;
    iterative, so deep games (long waiting moves) print too. Raises
    :class:`~cgframework.runtime.budget.LimitExceeded` when more than ``MAX_TEXT`` characters would
    be built (checked first, without building them)."""
    if g._text is not None:
        return g._text
    built = _text_to_build(g)
    if built > MAX_TEXT:
        raise LimitExceeded(
            f"printing this game would build {built:.3g} characters (limit {MAX_TEXT:.0e})"
        )
    stack = [g]
    while stack:
        x = stack[-1]
        pending = [o for o in x.left + x.right if o._text is None]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        if x._text is None:
            object.__setattr__(x, "_text", _format_one(x))
    return g._text


def _text_to_build(g: ScoringGame) -> int:
    """The total length of the texts of ``g``'s unprinted followers, computed bottom-up on
    the DAG (lengths, not strings; iterative)."""
    length: dict[int, int] = {}
    stack = [g]
    while stack:
        x = stack[-1]
        if x.id in length:
            stack.pop()
            continue
        pending = [o for o in x.left + x.right if o.id not in length and o._text is None]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        length[x.id] = _length_one(x, length)
    return sum(length.values())


def _length_one(x: ScoringGame, length: dict[int, int]) -> int:
    if x._text is not None:
        return 0
    if x.is_number:
        return len(format_score(x.left_atom))
    total = 3
    for options, atom in ((x.left, x.left_atom), (x.right, x.right_atom)):
        if atom is not None:
            total += 1 + len(format_score(atom))
        else:
            total += sum(length.get(o.id) or len(o._text) for o in options) + len(options) - 1
    return total


def _format_one(g: ScoringGame) -> str:
    if g.is_number:
        return format_score(g.left_atom)
    return f"<{_format_side(g.left, g.left_atom)}|{_format_side(g.right, g.right_atom)}>"


def _format_side(options: tuple[ScoringGame, ...], atom: Score | None) -> str:
    if atom is not None:
        return "^" + format_score(atom)
    return ",".join(sorted((o._text for o in options), key=lambda t: (len(t), t)))


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def error(self, what: str) -> GameSyntaxError:
        near = self.text[self.pos : self.pos + 12] or "end of text"
        return GameSyntaxError(f"{what} at character {self.pos + 1} (near {near!r})")

    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def expect(self, chars: str, what: str) -> str:
        ch = self.peek()
        if not ch or ch not in chars:
            raise self.error(f"expected {what}")
        self.pos += 1
        return ch

    def number(self) -> Score:
        self.skip()
        m = _NUMBER.match(self.text, self.pos)
        if not m:
            raise self.error("expected a number")
        if m.end() - self.pos > MAX_DIGITS:
            raise self.error(f"number longer than {MAX_DIGITS} digits (the limit)")
        self.pos = m.end()
        try:
            return exact(Fraction(m.group()))
        except ZeroDivisionError:
            raise self.error("division by zero") from None

    def expr(self) -> ScoringGame:
        total = self.term()
        while True:
            ch = self.peek()
            if ch == "+":
                self.pos += 1
                total = add(total, self.term())
            elif ch == "-":
                self.pos += 1
                total = add(total, conjugate(self.term()))
            else:
                return total

    def term(self) -> ScoringGame:
        ch = self.peek()
        if ch == "~":
            self.pos += 1
            return conjugate(self.term())
        if ch and ch in _OPEN:
            self.pos += 1
            left = self.side()
            self.expect("|", "'|' between the Left and Right sides")
            right = self.side()
            closing = _CLOSE[_OPEN.index(ch)]
            self.expect(closing, f"{closing!r} closing the game")
            return game(left, right)
        if ch == "-" or ch in "0123456789":
            return number(self.number())
        raise self.error("expected a game ('<', a number or '~')")

    def side(self) -> list[ScoringGame] | Score:
        ch = self.peek()
        if ch == "^" or self.text.startswith("∅", self.pos):
            self.pos += 1
            if self.text[self.pos - 1] == "∅":
                self.expect("^", "'^' after '∅'")
            return self.number()
        options = [self.expr()]
        while self.peek() == ",":
            self.pos += 1
            options.append(self.expr())
        return options


def parse_game(text: str) -> ScoringGame:
    """Parse a scoring game, or a sum/difference of games, from text (see module docstring).

    Raises :class:`GameSyntaxError` with the position of the first error. Runs on a large
    stack (:func:`cgframework.runtime.deep.call_deep`); text nested more than ``MAX_NESTING`` deep
    is refused before parsing."""
    return call_deep(_parse_game, text)


def _parse_game(text: str) -> ScoringGame:
    parser = _Parser(text)
    if not parser.peek():
        raise GameSyntaxError("empty game text")
    try:
        check_nesting(text, MAX_NESTING, opening=_OPEN, prefixes="~-")
    except NestingError as exc:
        raise GameSyntaxError(str(exc)) from None
    g = parser.expr()
    if parser.peek():
        raise parser.error("unexpected text after the game")
    return g


install_text_form(format_game, parse_game)
