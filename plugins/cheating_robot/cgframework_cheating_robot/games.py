"""Cheating-robot games (Huggan & Nowakowski, paper 002): values, parser, printer, outcomes.

A game is ``{G^L | S(G) | G^R}`` (Def 2, L69-L71): index-aligned lists of Left options,
Right options and the same-round matrix (rows = Left moves, columns = Right moves).

Games are hash-consed, so equality is identity (hash and ``==`` never walk a game). An
integer n (Def 7: n spare moves) is one :class:`CRInteger` object whose single option, the
integer n -/+ 1, is made on first access: integers of any size cost O(1), and every walk that
meets one (conjugate, birthday, outcome, printing) reads its value instead of its chain.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

import attrs

from cgframework.runtime.deep import check_nesting

_INTERN: dict[tuple, CRGame] = {}


@attrs.frozen(eq=False, repr=False)
class CRGame:
    """An immutable, hash-consed game node; build it with :func:`game` (identity equality)."""

    left: tuple[CRGame, ...]
    table: tuple[tuple[CRGame, ...], ...]
    right: tuple[CRGame, ...]

    def __str__(self) -> str:
        return format_game(self)

    def __repr__(self) -> str:
        return f"CRGame('{format_game(self)}')"

    def _repr_html_(self) -> str:
        """In a notebook: the game and its outcome o(G) (Def 4: L, R or D)."""
        from cgframework.display.notebook import value_html

        return value_html(format_game(self), {"outcome": outcome(self)})

    def __reduce__(self) -> tuple:
        return parse_game, (format_game(self),)

    def __neg__(self) -> CRGame:
        return neg(self)

    def __add__(self, other: CRGame) -> CRGame:
        return add(self, other)


def game(left, table, right) -> CRGame:
    """Build (and intern) ``{left | table | right}``; checks ``len(table)==len(left)`` etc."""
    left, right = tuple(left), tuple(right)
    table = tuple(tuple(row) for row in table)
    if not (left and right):
        table = ()
    elif len(table) != len(left) or any(len(row) != len(right) for row in table):
        raise ValueError(f"same-round table must be {len(left)}x{len(right)} (Def 2, L69)")
    if not table:  # an integer built from its option is the integer object
        if not left and not right:
            return ZERO
        if len(left) == 1 and not right and type(left[0]) is CRInteger and left[0].value >= 0:
            return integer(left[0].value + 1)
        if len(right) == 1 and not left and type(right[0]) is CRInteger and right[0].value <= 0:
            return integer(right[0].value - 1)
    key = (left, table, right)
    g = _INTERN.get(key)
    if g is None:
        g = _INTERN[key] = CRGame(left, table, right)
        _ORDER[g] = len(_ORDER)
    return g


_ORDER: dict[CRGame, int] = {}
"""Every game's number in the order games were made, which orders a sum's parts (by ``id``,
an address, the order and so the search's size changed with ``PYTHONHASHSEED``)."""


_CR_SLOTS = {name: CRGame.__dict__[name] for name in ("left", "table", "right")}


class CRInteger(CRGame):
    """The integer ``value`` (Def 7, L324-L328): ``{value-1 | | }`` for Left, ``{ | | value+1}``
    for Right; the option is made when first read."""

    __slots__ = ("value",)

    def _fill(self) -> None:
        n = self.value
        one = (integer(n - 1),) if n > 0 else (integer(n + 1),) if n < 0 else ()
        _CR_SLOTS["left"].__set__(self, one if n > 0 else ())
        _CR_SLOTS["right"].__set__(self, one if n < 0 else ())
        _CR_SLOTS["table"].__set__(self, ())

    def _slot(name: str) -> property:  # type: ignore[misc]
        slot = _CR_SLOTS[name]

        def get(self: CRInteger) -> tuple:
            try:
                return slot.__get__(self)
            except AttributeError:
                self._fill()
                return slot.__get__(self)

        return property(get)

    left = _slot("left")  # type: ignore[assignment]
    table = _slot("table")  # type: ignore[assignment]
    right = _slot("right")  # type: ignore[assignment]
    del _slot


_INTEGERS: dict[int, CRInteger] = {}


def integer(n: int) -> CRGame:
    """The integer n: n spare moves for Left, or -n for Right (Def 7, L324-L328), any size."""
    found = _INTEGERS.get(n)
    if found is None:
        found = object.__new__(CRInteger)
        object.__setattr__(found, "value", int(n))
        _INTEGERS[n] = found
        _ORDER[found] = len(_ORDER)
    return found


ZERO = integer(0)


def hot(a: int, b: int, c: int) -> CRGame:
    """The short form ``{a|b|c}``: one Left move to a, same-round b, one Right move to c."""
    return game((integer(a),), ((integer(b),),), (integer(c),))


STAR = hot(0, 0, 0)


def as_integer(g: CRGame) -> int | None:
    """The integer n if ``g`` is literally the integer game n, else ``None``."""
    return g.value if type(g) is CRInteger else None


def as_hot(g: CRGame) -> tuple[int, int, int] | None:
    """(a, b, c) if ``g`` is ``{a|b|c}`` with integer entries, else ``None``."""
    if len(g.left) == 1 and len(g.right) == 1:
        a, b, c = as_integer(g.left[0]), as_integer(g.table[0][0]), as_integer(g.right[0])
        if a is not None and b is not None and c is not None:
            return a, b, c
    return None


def is_simple_hot(g: CRGame) -> bool:
    """``{a|b|c}`` with a >= b >= c (Section 3, L473)."""
    h = as_hot(g)
    return h is not None and h[0] >= h[1] >= h[2]


@cache
def neg(g: CRGame) -> CRGame:
    """Conjugate (Def 8, L447-L451): -G = {-G^R | -S(G)^T | -G^L}; Right stays the robot."""
    if type(g) is CRInteger:
        return integer(-g.value)
    left = tuple(neg(x) for x in g.right)
    right = tuple(neg(x) for x in g.left)
    table = tuple(
        tuple(neg(g.table[i][j]) for i in range(len(g.left))) for j in range(len(g.right))
    )
    return game(left, table, right)


@cache
def birthday(g: CRGame) -> int:
    """Def 3 (L104): 1 + the largest birthday of any option (same-round ones included)."""
    if type(g) is CRInteger:
        return abs(g.value)
    opts = [*g.left, *g.right, *(x for row in g.table for x in row)]
    return 1 + max(map(birthday, opts)) if opts else 0


def add(g: CRGame, h: CRGame) -> CRGame:
    """The explicit disjunctive sum (Def 5, L132-L145, Figure 5)."""
    return _add(g, h)


@cache
def _add(g: CRGame, h: CRGame) -> CRGame:
    if h is ZERO:
        return g
    if g is ZERO:
        return h
    left = tuple(_add(x, h) for x in g.left) + tuple(_add(g, y) for y in h.left)
    right = tuple(_add(x, h) for x in g.right) + tuple(_add(g, y) for y in h.right)
    rows = []
    for i in range(len(g.left)):
        rows.append(
            tuple(_add(g.table[i][j], h) for j in range(len(g.right)))
            + tuple(_add(g.left[i], h.right[j]) for j in range(len(h.right)))
        )
    for i in range(len(h.left)):
        rows.append(
            tuple(_add(g.right[j], h.left[i]) for j in range(len(g.right)))
            + tuple(_add(g, h.table[i][j]) for j in range(len(h.right)))
        )
    return game(left, rows, right)


# ----------------------------------------------------------------------------- outcomes

ORDER = {"R": 0, "D": 1, "L": 2}


def outcome(g: CRGame) -> str:
    """o(G) for a single game (Def 4, L112; proof of Thm 1, L149): max_i min_j o(G^{i,j})."""
    return outcome_sum((g,))


def outcome_sum(parts) -> str:
    """Outcome of a sum by raw round semantics (Def 5): each player picks one component;
    same component -> table entry, different -> one-sided options. Memoised max-min."""
    return _osum(_key(parts))


def sums_searched() -> int:
    """How many distinct sums the round search has expanded in this process (its memo's
    misses): a solve's count is the difference before and after it."""
    return _osum.cache_info().misses


def _key(parts) -> tuple[CRGame, ...]:
    """The sum's parts without zeros (one key per multiset), newest game first: a game is
    made after its options, so the parts with the most play left are tried first and the
    max-min cuts off sooner (8 switches: 10,599 sums searched, 0.2 s; oldest first 76,380,
    1.8 s; 10 switches 0.9 s against 52 s)."""
    return tuple(sorted((p for p in parts if p is not ZERO), key=_ORDER.__getitem__, reverse=True))


@lru_cache(maxsize=1 << 20)
def _osum(parts: tuple[CRGame, ...]) -> str:
    has_l = any(p.left for p in parts)
    has_r = any(p.right for p in parts)
    if not (has_l and has_r):
        return "L" if has_l else ("R" if has_r else "D")
    best = 0
    for a, pa in enumerate(parts):
        for i in range(len(pa.left)):
            worst = 2
            for b, pb in enumerate(parts):
                for j in range(len(pb.right)):
                    new = list(parts)
                    if a == b:
                        new[a] = pa.table[i][j]
                    else:
                        new[a] = pa.left[i]
                        new[b] = pb.right[j]
                    worst = min(worst, ORDER[_osum(_key(new))])
                    if worst <= best:
                        break
                if worst <= best:
                    break
            best = max(best, worst)
            if best == 2:
                return "L"
    return "RDL"[best]


# ----------------------------------------------------------------------------- text

_TOKEN = re.compile(r"\s*(-?[0-9]+|[{}\[\]|,*+\-])")


MAX_NESTING = 300
"""Deepest game text read (braces plus '-' prefixes), checked before the recursive parser: the
printer, the solver and the pictures recurse too (500 levels were past them, 400 were not)."""
MAX_INTEGER = 10**12
"""Largest integer read. The integer n is a chain of n moves (Def 7), but it is one object
whose option is made on first read, so size costs nothing until a search walks the chain."""


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.toks: list[tuple[str, int]] = []
        pos = 0
        text = text.rstrip()
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m:
                raise ValueError(f"unexpected {text[pos:].strip()[:10]!r} at column {pos + 1}")
            self.toks.append((m.group(1), m.start(1)))
            pos = m.end()
        self.i = 0

    def peek(self) -> str | None:
        return self.toks[self.i][0] if self.i < len(self.toks) else None

    def take(self, want: str | None = None) -> str:
        if self.i >= len(self.toks):
            raise ValueError(f"unexpected end of input{f', expected {want!r}' if want else ''}")
        tok, col = self.toks[self.i]
        if want is not None and tok != want:
            raise ValueError(f"expected {want!r} at column {col + 1}, got {tok!r}")
        self.i += 1
        return tok

    def summands(self) -> list[CRGame]:
        parts = [self.term()]
        while self.peek() in ("+", "-") or (self.peek() or "").startswith("-"):
            op = self.take() if self.peek() in ("+", "-") else "+"
            t = self.term()
            parts.append(neg(t) if op == "-" else t)
        if self.peek() is not None:
            raise ValueError(f"unexpected {self.peek()!r} at column {self.toks[self.i][1] + 1}")
        return parts

    def term(self) -> CRGame:
        tok = self.peek()
        if tok == "-":
            self.take()
            return neg(self.term())
        if tok == "*":
            self.take()
            return STAR
        if tok == "{":
            return self.braces()
        if tok is not None and re.fullmatch(r"-?[0-9]+", tok):
            self.take()
            if len(tok.lstrip("-")) > 13 or abs(int(tok)) > MAX_INTEGER:
                raise ValueError(f"integer {tok[:12]!r} beyond +-{MAX_INTEGER} (the limit)")
            return integer(int(tok))
        if tok is None:
            raise ValueError("unexpected end of input, expected a game")
        raise ValueError(f"unexpected {tok!r} at column {self.toks[self.i][1] + 1}")

    def glist(self, stop: str) -> list[CRGame]:
        out: list[CRGame] = []
        if self.peek() == stop:
            return out
        out.append(self.term())
        while self.peek() == ",":
            self.take()
            out.append(self.term())
        return out

    def braces(self) -> CRGame:
        self.take("{")
        left = self.glist("|")
        self.take("|")
        if self.peek() == "[":
            self.take("[")
            rows: list[list[CRGame]] = []
            while self.peek() == "[":
                self.take("[")
                rows.append(self.glist("]"))
                self.take("]")
                if self.peek() == ",":
                    self.take()
            self.take("]")
        else:
            mid = self.glist("|")
            rows = [[x] for x in mid] if len(mid) == 1 else ([[]] if not mid else [mid])
            if not mid:
                rows = []
        self.take("|")
        right = self.glist("}")
        self.take("}")
        if not (left and right):
            if any(rows):
                raise ValueError("a same-round table needs both Left and Right moves (Def 2)")
            rows = []
        elif len(rows) != len(left) or any(len(r) != len(right) for r in rows):
            raise ValueError(
                f"same-round table must be {len(left)}x{len(right)} "
                f"(one row per Left option, one column per Right option)"
            )
        return game(left, rows, right)


def parse_sum(text: str) -> tuple[CRGame, ...]:
    """Parse ``G + H - K`` (``-K`` is the conjugate, Def 8); raises ValueError on bad text."""
    if not text.strip():
        raise ValueError("empty position")
    check_nesting(text, MAX_NESTING, opening="{[", prefixes="-")
    return tuple(_Parser(text).summands())


def parse_game(text: str) -> CRGame:
    """Parse one game (no top-level sum)."""
    parts = parse_sum(text)
    if len(parts) != 1:
        raise ValueError("expected one game, got a sum")
    return parts[0]


def format_game(g: CRGame) -> str:
    """Print integers as ``3``, {0|0|0} as ``*``, ``{a|b|c}``, else the general form."""
    n = as_integer(g)
    if n is not None:
        return str(n)
    if g is STAR:
        return "*"
    fl = ",".join(map(format_game, g.left))
    fr = ",".join(map(format_game, g.right))
    if len(g.left) == 1 and len(g.right) == 1:
        return f"{{{fl}|{format_game(g.table[0][0])}|{fr}}}"
    if g.table:
        mid = "[" + ",".join("[" + ",".join(map(format_game, r)) + "]" for r in g.table) + "]"
    else:
        mid = ""
    return f"{{{fl}|{mid}|{fr}}}"


def td2(p: int, q: int) -> CRGame:
    """TD2 row B^p W^q as {p-1 | p-q | 1-q}; valid only modulo CR_SH (Lemma 7, L654)."""
    if p < 1 or q < 1:
        raise ValueError("a TD2 row needs p, q >= 1")
    return hot(p - 1, p - q, 1 - q)


def format_sum(parts) -> str:
    """Summands joined by `` + ``."""
    return " + ".join(format_game(p) for p in parts) if parts else "0"
