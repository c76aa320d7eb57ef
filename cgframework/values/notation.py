"""CGSuite-style notation: canonical forms printed.

Printed forms: ``0``, ``-2``, ``3/4``, ``*``, ``*2``, ``1*``, ``^``, ``v``, ``^^``, ``^3``,
``^*``, ``1/2v*3``, ``+-1``, and general ``{L|R}`` with CGSuite's multi-bar nesting
(``{3||2|1}`` is the game whose right option is {2|1}). Every printed form parses back to
the same game (:mod:`cgframework.values.parser`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from functools import cmp_to_key

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
    elided to its start and end around ``...`` and its length (that form does not parse);
    then the full text is never built (:func:`elided_text`)."""
    if max_length is not None:
        return elided_text(g, max_length)
    return _Printer().text(g)


def elide(text: str, max_length: int | None) -> str:
    """``text`` if it fits in ``max_length``, else its start and end around ``...``."""
    if max_length is None or len(text) <= max_length:
        return text
    keep = max(max_length - 40, 8)
    head, tail = text[: keep * 3 // 4], text[len(text) - keep // 4 :]
    return f"{head}...{tail} ({len(text)} characters, elided)"


# ---- printing in bounded memory ---------------------------------------------------------
# A canonical form is a DAG: (XO)^17 in clobber has 13,226 distinct subgames but a text of
# gigabytes, since a subgame met on many paths is printed on each. The text is therefore never
# built whole: each general subgame's *shape* (how its two sides print, its bars, its text's
# length and first characters) is computed once, bottom-up, and the text is streamed from the
# shapes depth-first with an explicit stack. Same characters as :class:`_Printer`, by the same
# rules; only its memory differs.

HEAD = 128
"""Characters of each subgame's text kept as its sort key: options print sorted by their text,
and two texts that agree this far are compared by streaming both."""

SMALL_TEXT = 1024
"""Subgames whose whole text is at most this long keep it (streamed as one piece)."""


class _Shape:
    """How one general subgame prints: ``left``/``right`` are a single general option printed
    bare (a CanonicalGame) or the options in printing order (a tuple); ``length`` and
    ``head`` are those of its bare text ``L|R``; ``small`` its whole text when short."""

    __slots__ = ("bars", "head", "left", "length", "right", "small")

    def __init__(self, left: object, right: object, bars: int) -> None:
        self.left, self.right, self.bars = left, right, bars
        self.length = 0
        self.head = ""
        self.small: str | None = None


_shapes: dict[int, _Shape] = {}
_specials: dict[int, str | None] = {}


def _special_text(g: CanonicalGame) -> str | None:
    found = _specials.get(g.id, False)
    if found is False:
        found = _specials[g.id] = _special(g)
    return found


def _side(options: tuple[CanonicalGame, ...]) -> object:
    if len(options) == 1 and _special_text(options[0]) is None:
        return options[0]
    return options


def postorder(g: CanonicalGame, children: Callable[[CanonicalGame], Iterable]) -> list:
    """Distinct subgames of ``g`` (by ``children``), each after all of its own: iterative."""
    order = []
    seen = {g.id}
    stack = [(g, iter(children(g)))]
    while stack:
        node, pending = stack[-1]
        for x in pending:
            if x.id not in seen:
                seen.add(x.id)
                stack.append((x, iter(children(x))))
                break
        else:
            stack.pop()
            order.append(node)
    return order


def _unshaped_options(g: CanonicalGame) -> tuple[CanonicalGame, ...]:
    if g.id in _shapes or _special_text(g) is not None:
        return ()
    return g.left + g.right


def _lay_out(g: CanonicalGame) -> None:
    """Give ``g`` and every general subgame of it a shape (memoised per interned node)."""
    if g.id in _shapes or _special_text(g) is not None:
        return
    for node in postorder(g, _unshaped_options):
        if node.id in _shapes or _special_text(node) is not None:
            continue
        left, right = _side(node.left), _side(node.right)
        inner = max((_shapes[s.id].bars for s in (left, right) if type(s) is not tuple), default=0)
        shape = _Shape(_sorted_by_text(left), _sorted_by_text(right), inner + 1)
        shape.length = _side_length(shape.left) + shape.bars + _side_length(shape.right)
        if shape.length + 2 <= SMALL_TEXT:
            shape.small = "{" + "".join(_pieces_of_bare(shape, False, _whole)) + "}"
            shape.head = shape.small[1 : HEAD + 1]
        else:
            shape.head = _head(_pieces_of_bare(shape, False, _text_head), HEAD)
        _shapes[node.id] = shape


def _whole(x: CanonicalGame) -> str:
    special = _special_text(x)
    return special if special is not None else _shapes[x.id].small  # type: ignore[return-value]


def _text_head(x: CanonicalGame) -> str:
    """The first :data:`HEAD` characters of x's text (all of it if shorter)."""
    special = _special_text(x)
    if special is not None:
        return special[:HEAD]
    shape = _shapes[x.id]
    if shape.small is not None:
        return shape.small[:HEAD]
    return ("{" + shape.head)[:HEAD]  # (a bare text this long is longer than HEAD)


def _text_length(x: CanonicalGame) -> int:
    special = _special_text(x)
    return len(special) if special is not None else _shapes[x.id].length + 2


def _side_length(side: object) -> int:
    if type(side) is not tuple:
        return _shapes[side.id].length  # type: ignore[attr-defined]
    return sum(_text_length(x) for x in side) + max(len(side) - 1, 0)


def _pieces_of_bare(shape: _Shape, bare: bool, text: Callable) -> Iterator[str]:
    """The bare text of a shape, its options' texts given by ``text`` (whole or heads)."""
    for i, side in enumerate((shape.left, shape.right)):
        if i:
            yield "|" * shape.bars
        if type(side) is not tuple:
            inner = _shapes[side.id]  # type: ignore[attr-defined]
            if inner.small is not None:
                yield inner.small[1:-1]
            else:
                yield inner.head
                if text is _text_head:
                    return  # (at least HEAD characters: the rest is not needed)
        else:
            for j, x in enumerate(side):
                if j:
                    yield ","
                yield text(x)


def _head(pieces: Iterable[str], length: int) -> str:
    taken: list[str] = []
    total = 0
    for piece in pieces:
        taken.append(piece)
        total += len(piece)
        if total >= length:
            break
    return "".join(taken)[:length]


def _sorted_by_text(side: object) -> object:
    """Options in the order of their texts, as :class:`_Printer` sorts them: by their heads,
    and texts that agree on a whole head by streaming both (distinct forms print apart)."""
    if type(side) is not tuple:
        return side
    keyed = sorted(side, key=_text_head)
    out: list[CanonicalGame] = []
    i = 0
    while i < len(keyed):
        j = i + 1
        head = _text_head(keyed[i])
        while j < len(keyed) and _text_head(keyed[j]) == head:
            j += 1
        out.extend(sorted(keyed[i:j], key=cmp_to_key(_compare_texts)) if j - i > 1 else keyed[i:j])
        i = j
    return tuple(out)


def _compare_texts(a: CanonicalGame, b: CanonicalGame) -> int:
    """-1, 0 or 1 as a's text is before, equal to or after b's, reading both as streams."""
    one, two = iter_text(a, 4096), iter_text(b, 4096)
    x = y = ""
    while True:
        if not x:
            x = next(one, "")
        if not y:
            y = next(two, "")
        if not x or not y:
            return (len(x) > 0) - (len(y) > 0)
        n = min(len(x), len(y))
        if x[:n] != y[:n]:
            return -1 if x[:n] < y[:n] else 1
        x, y = x[n:], y[n:]


def _pieces(g: CanonicalGame, reverse: bool) -> Iterator[str]:
    """The text of ``g`` as pieces, depth-first from an explicit stack (no recursion);
    ``reverse``: from its end, each piece reversed."""
    stack: list[object] = [g]
    while stack:
        item = stack.pop()
        if type(item) is str:
            yield item
            continue
        if type(item) is tuple:  # (shape,): a bare text
            shape = item[0]  # type: ignore[index]
            sequence: list[object] = []
            for i, side in enumerate((shape.left, shape.right)):
                if i:
                    sequence.append("|" * shape.bars)
                if type(side) is not tuple:
                    inner = _shapes[side.id]  # type: ignore[attr-defined]
                    if inner.small is not None:
                        sequence.append(inner.small[1:-1])
                    else:
                        sequence.append((inner,))
                else:
                    for j, x in enumerate(side):
                        if j:
                            sequence.append(",")
                        sequence.append(x)
        else:
            special = _special_text(item)  # type: ignore[arg-type]
            if special is not None:
                yield special[::-1] if reverse else special
                continue
            shape = _shapes[item.id]  # type: ignore[attr-defined]
            if shape.small is not None:
                yield shape.small[::-1] if reverse else shape.small
                continue
            sequence = ["{", (shape,), "}"]
        if reverse:
            sequence = [x[::-1] if type(x) is str else x for x in sequence]
        else:
            sequence.reverse()  # (the stack pops its last item first)
        stack.extend(sequence)


def iter_text(g: CanonicalGame, chunk_size: int = 1 << 16, reverse: bool = False) -> Iterator[str]:
    """The CGSuite text of ``g`` (exactly ``str(g)``) in chunks of about ``chunk_size``
    characters, in memory bounded by the number of distinct subgames, never the text's
    length; ``reverse``: the text read from its end (each chunk reversed)."""
    _lay_out(g)
    buffer: list[str] = []
    size = 0
    for piece in _pieces(g, reverse):
        buffer.append(piece)
        size += len(piece)
        if size >= chunk_size:
            yield "".join(buffer)
            buffer, size = [], 0
    if buffer:
        yield "".join(buffer)


def text_length(g: CanonicalGame) -> int:
    """``len(str(g))``, without building the text."""
    _lay_out(g)
    return _text_length(g)


def elided_text(g: CanonicalGame, max_length: int) -> str:
    """``elide(str(g), max_length)`` without building the text: its start and end are
    streamed from the front and from the back."""
    length = text_length(g)
    if length <= max_length:
        return "".join(iter_text(g))
    keep = max(max_length - 40, 8)
    head = _head(iter_text(g, 4096), keep * 3 // 4)
    tail = _head(iter_text(g, 4096, reverse=True), keep // 4)[::-1]
    return f"{head}...{tail} ({length} characters, elided)"


provide("canonical.format", format_value)
