"""Players, conventions, moves, the Ruleset protocol and disjunctive sums.

The core knows no particular game: a ruleset lists options, and everything else
(solvers, sums, caches, the CLI) works through this protocol alone.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Protocol

import attrs

Position = Hashable
"""Any immutable, hashable object (ideally an ``attrs.frozen`` class) a ruleset understands."""

Score = int | Fraction


class Player(enum.Enum):
    """The two players. Left is Black/vertical/positive, Right is White/horizontal/negative."""

    LEFT = "L"
    RIGHT = "R"

    @property
    def opponent(self) -> Player:
        return Player.RIGHT if self is Player.LEFT else Player.LEFT

    @property
    def sign(self) -> int:
        """+1 for Left, -1 for Right: turns a mover's score into Left's score."""
        return 1 if self is Player.LEFT else -1

    @classmethod
    def parse(cls, text: str) -> Player:
        key = text.strip().upper()
        if key in ("L", "LEFT"):
            return cls.LEFT
        if key in ("R", "RIGHT"):
            return cls.RIGHT
        raise ValueError(f"unknown player {text!r}: expected L or R")


class Convention(enum.Enum):
    """How a game ends and what is won."""

    NORMAL = "normal"
    """The player who cannot move loses."""
    MISERE = "misere"
    """The player who cannot move wins."""
    SCORING = "scoring"
    """Moves earn points; the value is the final score difference."""
    CHEATING_ROBOT = "cheating-robot"
    """Simultaneous rounds: Left moves, Right answers knowing Left's move (Huggan & Nowakowski)."""


class Outcome(enum.Enum):
    """Outcome classes: who wins with perfect play (L: Left whoever starts, N: the first player,
    P: the second player, R: Right). ``D`` is a draw, used by conventions that have draws."""

    L = "L"
    R = "R"
    N = "N"
    P = "P"
    D = "D"

    @classmethod
    def from_wins(cls, left_first_wins: bool, right_first_wins: bool) -> Outcome:
        """Combine 'does the first player win' when Left starts and when Right starts."""
        if left_first_wins and right_first_wins:
            return cls.N
        if left_first_wins:
            return cls.L
        if right_first_wins:
            return cls.R
        return cls.P


@attrs.frozen(init=False)
class Move:
    """One option: the position it leads to, how it is written, and for scoring play the
    points the mover earns with it (exact)."""

    result: Position
    text: str
    points: Score = 0

    def __init__(self, result: Position, text: str, points: Score = 0) -> None:
        # the slots' own setters: a third cheaper than attrs' frozen __init__ (every ruleset
        # builds one Move per option, so a search builds millions)
        _set_result(self, result)
        _set_text(self, text)
        _set_points(self, points)


_set_result, _set_text, _set_points = (Move.__dict__[f].__set__ for f in attrs.fields_dict(Move))


class Ruleset(Protocol):
    """What a game family provides. Subclass :class:`BaseRuleset` to get the defaults."""

    name: str
    convention: Convention
    impartial: bool
    family: str
    syntax: str
    version: str

    def parse(self, text: str) -> Position: ...

    def format(self, position: Position) -> str: ...

    def options(self, position: Position, player: Player) -> Iterable[Move]: ...

    def components(self, position: Position) -> Sequence[Position]: ...

    def canonical_key(self, position: Position) -> Hashable: ...

    def end_score(self, position: Position, player: Player) -> Score | None: ...

    def examples(self) -> Sequence[str]: ...


class BaseRuleset:
    """Defaults for the optional parts of the :class:`Ruleset` protocol.

    A subclass sets ``name``, ``convention`` and ``syntax`` and implements ``parse``,
    ``format`` and ``options``.
    """

    name: str = ""
    convention: Convention = Convention.NORMAL
    impartial: bool = False
    family: str = ""
    syntax: str = ""
    version: str = "1"
    aliases: tuple[str, ...] = ()
    loopy: bool = False
    """True when positions may repeat: the generic solvers are then the retrograde ones (draws)."""
    negative: Any = None
    """Optional: a function from a position to a position of the negated value (the players'
    pieces swapped, say), e.g. ``SwapLetters("TF", reverse=True)``. The canonical search then
    searches only one of a component and its negative (the smaller ``canonical_key``)."""
    sum_separator: str | None = "+"
    """Top-level separator that :func:`parse_position` splits a sum on; ``None`` when the
    ruleset's own syntax parses whole texts (including its sums)."""

    def parse(self, text: str) -> Position:
        raise NotImplementedError

    def format(self, position: Position) -> str:
        return str(position)

    def options(self, position: Position, player: Player) -> Iterable[Move]:
        raise NotImplementedError

    def components(self, position: Position) -> Sequence[Position]:
        """Independent parts whose disjunctive sum is ``position`` (default: itself)."""
        return (position,)

    def canonical_key(self, position: Position) -> Hashable:
        """A cache key (default: the position itself). Positions with equal keys must be
        interchangeable in every solve: equal values, and, for the key searches and the
        ruleset's variants (``impartial:NAME``...), isomorphic game trees, as the images of a
        board under its symmetries are. A key shared by positions that merely have equal
        values serves the plain solvers only (the variants take ``trust_keys=False`` then)."""
        return position

    def is_empty(self, position: Position) -> bool:
        """True for a position known to have no options for either player (an empty component
        is dropped from sums). Default: never assume."""
        return False

    def end_score(self, position: Position, player: Player) -> Score | None:
        """Scoring play, ``player`` to move has no option: the final score difference from
        ``player``'s point of view, or ``None`` if ``player`` passes and the other continues.
        Default: the game ends and nobody scores more."""
        return 0

    def examples(self) -> Sequence[str]:
        """Position texts for ``cgf demo`` and the docs."""
        return ()

    def describe(self) -> str:
        return self.syntax

    def families(self) -> Sequence[Any]:
        """Families (:class:`~cgframework.extensions.Family`) the ruleset brings itself,
        registered with it (a heap game's ``heaps``); one its plugin registers under the same
        name replaces it. Default: none."""
        return ()

    def draw(self, position: Position, marks: Mapping[Hashable, Any] | None = None) -> str:
        """A standalone SVG picture of ``position``; ``marks`` maps what was taken (a cell,
        vertex or edge, as the ruleset documents) to the Player who took it. Default: the
        text form in a box (see :mod:`cgframework.display.pictures` for grids and graphs)."""
        from cgframework.display.pictures import text_svg  # (the picture code on first use)

        return text_svg(self.format(position))

    def move_marks(self, position: Position, move: Move) -> Iterable[Hashable]:
        """The ``draw`` keys (cells, vertices, edges) that ``move`` takes from ``position``:
        ``cgf play --picture`` colours them by who moved. Default: none (the picture is then
        the final position). The explorer's option cards draw ``position`` with them."""
        return ()

    marks_persist: bool = True
    """Whether the keys of :meth:`move_marks` stay keys of every later position's picture (a
    cell taken stays on the board), so that ``cgf play --picture`` can draw the start with
    every move's marks. ``False`` for games whose pictures lose what was taken (a heap
    emptied leaves the row of heaps): the picture is then the position reached."""

    move_at: Any = None
    """Optional: ``move_at(position, picks, player) -> Move | PICK_MORE | None``, the move that
    clicks on the picture make (``cgf explore``, the notebook widgets). ``picks`` are the
    ``draw`` keys clicked so far, in order: a cell ``(row, column)`` from 0 at the top left,
    a vertex number, an edge ``("edge", i)`` (i: the edge's index in the picture); return the
    ``player``'s move they make, :data:`PICK_MORE` when they begin a move and another click
    is needed, or ``None``. ``None`` here (the default): the picture takes no clicks.
    :func:`pick_move` does the matching from each move's picks."""
    symmetries: int = 1
    """How many symmetries :meth:`image` numbers (0 is the identity; 1, the default: no other)."""

    def image(self, text: str, symmetry: int) -> tuple[str, Callable[[str], str]]:
        """A component's text under symmetry number ``symmetry`` (``range(symmetries)``), and
        the map from the texts of its moves to those of the image's moves. An image must be an
        isomorphic game whose moves are the images of the moves (a board's mirror, in a game
        whose rules are the same in every direction). Used to write a lemma's certificate from
        that of a mirror image (:mod:`cgframework.proofs.images`); the checker checks the file
        written as any other, so a wrong image costs a refused file, never a false proof."""
        if symmetry:
            raise ValueError(f"ruleset {self.name!r} has no symmetry {symmetry}")
        return text, _same_move

    cell_states: str = ""
    """Optional: for a ruleset whose text is rows of one-character cells joined by ``|``, the
    characters a cell cycles through in the position editor of ``cgf explore`` (Domineering:
    ``".#"``). Empty (the default): no editor."""

    def __repr__(self) -> str:
        return f"<ruleset {self.name}>"


def _same_move(text: str) -> str:
    return text


class _PickMore:
    """The type of :data:`PICK_MORE`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "PICK_MORE"


PICK_MORE: Any = _PickMore()
"""What ``move_at`` returns when the clicks so far begin a move and another is needed (the
first cell of a domino, the stone of a Clobber move before its target)."""


def pick_move(
    candidates: Iterable[tuple[Sequence[Hashable], Move]],
    picks: Sequence[Hashable],
    *,
    ordered: bool = True,
) -> Any:
    """The ``move_at`` answer for ``picks`` among ``candidates`` (each move with the keys one
    clicks to make it: a domino's two cells, a stone then its target): the move whose keys
    are exactly the picks (in order, or in any order unless ``ordered``), :data:`PICK_MORE`
    when the picks begin some move's keys, else ``None``. Several moves with the same keys:
    the first."""
    wanted = tuple(picks)
    more = False
    for keys, move in candidates:
        keys = tuple(keys)
        if ordered:
            if keys == wanted:
                return move
            more = more or (len(keys) > len(wanted) and keys[: len(wanted)] == wanted)
        else:
            if len(keys) == len(wanted) and sorted(map(repr, keys)) == sorted(map(repr, wanted)):
                return move
            more = more or (len(keys) > len(wanted) and all(p in keys for p in wanted))
    return PICK_MORE if more and wanted else None


class SwapLetters:
    """For a ruleset whose positions are strings: the negative of a position is the string
    with the two players' letters exchanged (``pair``, e.g. ``"xo"``), and reversed too when
    ``reverse`` (Toads and Frogs: toads move right, frogs left). Declare it with one line,
    ``negative = SwapLetters("TF", reverse=True)``."""

    __slots__ = ("table", "reverse")

    def __init__(self, pair: str, *, reverse: bool = False) -> None:
        if len(pair) != 2 or pair[0] == pair[1]:
            raise ValueError(f"SwapLetters needs two different letters, not {pair!r}")
        self.table = str.maketrans(pair, pair[::-1])
        self.reverse = reverse

    def __call__(self, position: str) -> str:
        swapped = position.translate(self.table)
        return swapped[::-1] if self.reverse else swapped

    def __repr__(self) -> str:
        a, b = (chr(k) for k in self.table)
        return f"SwapLetters({a + b!r}, reverse={self.reverse})"


@attrs.frozen
class Sum:
    """A disjunctive sum of positions of one ruleset: a move is a move in exactly one part."""

    parts: tuple[Position, ...]


_CLOSER = {"(": ")", "[": "]", "{": "}", "<": ">"}
_BRACKETS = r"[(\[{<)\]}>]"


def top_level_split(text: str, separator: str) -> list[str]:
    """Split ``text`` on ``separator`` outside (), [], {} and <> brackets. A closing
    character that does not match the innermost open bracket is an ordinary character (the
    ``>`` of an influence arc ``0>1``); the ruleset's parser judges what is left."""
    if not separator or separator not in text:  # one C-level pass: nothing to split
        return [text]
    # only brackets and separators matter: the loop visits those alone (megabytes of other
    # characters cost one regular-expression scan, not a Python step each)
    marks = re.compile(f"(?={_BRACKETS}|{re.escape(separator)})")  # where one starts
    pieces: list[str] = []
    open_brackets: list[str] = []
    start = 0
    for mark in marks.finditer(text):
        i = mark.start()
        if i < start:  # inside the separator just split on
            continue
        ch = text[i]
        if ch in _CLOSER:
            open_brackets.append(_CLOSER[ch])
        elif open_brackets and ch == open_brackets[-1]:
            open_brackets.pop()
        elif not open_brackets and text.startswith(separator, i):
            pieces.append(text[start:i])
            start = i + len(separator)
    pieces.append(text[start:])
    return pieces


def parse_position(ruleset: Ruleset, text: str) -> Position:
    """Parse a position, or a ``+``-separated disjunctive sum of positions, of ``ruleset``.

    Runs on a large-stack thread (:func:`cgframework.runtime.deep.call_deep`): a recursive parser
    meets a ``RecursionError`` on text nested too deeply, never a stack overflow."""
    from cgframework.runtime.deep import call_deep

    return call_deep(_parse_position, ruleset, text)


def _parse_position(ruleset: Ruleset, text: str) -> Position:
    _refuse_non_ascii_digits(text)
    separator = getattr(ruleset, "sum_separator", None)
    text = text.strip()
    if separator:
        pieces = top_level_split(text, separator)
        if len(pieces) > 1:
            if any(not p.strip() for p in pieces):
                raise ValueError(f"empty summand in {text!r}")
            return Sum(tuple(ruleset.parse(p.strip()) for p in pieces))
    return ruleset.parse(text)


def _refuse_non_ascii_digits(text: str) -> None:
    """Numbers are ASCII: ``int`` and ``\\d`` would read '٣' or '１' as 3 and 1."""
    if text.isascii():  # one C-level pass: a 2 MB position took 0.3-0.6 s in the loop
        return
    for i, ch in enumerate(text):
        if ch.isdigit() and not ch.isascii():
            raise ValueError(f"non-ASCII digit {ch!r} at character {i + 1} (use 0-9)")


def format_position(ruleset: Ruleset, position: Position) -> str:
    """Inverse of :func:`parse_position`."""
    if isinstance(position, Sum):
        return " + ".join(ruleset.format(p) for p in position.parts)
    return ruleset.format(position)


def components(ruleset: Ruleset, position: Position) -> tuple[Position, ...]:
    """Flatten sums and the ruleset's own decomposition; drop empty parts."""
    parts = position.parts if isinstance(position, Sum) else (position,)
    out: list[Position] = []
    for part in parts:
        for comp in ruleset.components(part):
            if not _is_empty(ruleset, comp):
                out.append(comp)
    return tuple(out)


def _is_empty(ruleset: Ruleset, position: Position) -> bool:
    check = getattr(ruleset, "is_empty", None)
    return bool(check and check(position))


def options(ruleset: Ruleset, position: Position, player: Player) -> list[Move]:
    """Options of a position or of a :class:`Sum` (a move in one part; its text is prefixed
    with the part's number when there are several parts)."""
    if not isinstance(position, Sum):
        return list(ruleset.options(position, player))
    parts = position.parts
    moves = []
    for i, part in enumerate(parts):
        for move in ruleset.options(part, player):
            rest = parts[:i] + (move.result,) + parts[i + 1 :]
            text = move.text if len(parts) == 1 else f"{i + 1}:{move.text}"
            moves.append(Move(Sum(rest), text, move.points))
    return moves


def canonical_key(ruleset: Ruleset, position: Position) -> Hashable:
    """Cache key of a position or sum: the sorted multiset of its components' keys, so that
    order of summands and empty parts do not matter."""
    comps = components(ruleset, position)
    if len(comps) == 1:
        return ruleset.canonical_key(comps[0])
    return ("+",) + tuple(sorted((ruleset.canonical_key(c) for c in comps), key=repr))


def as_score(value: Any) -> Score:
    """Normalise an exact number: a Fraction with denominator 1 becomes an int."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return value


def dump_number(x: int | Fraction) -> int | str:
    """Exact number to JSON: int stays a number, any other rational becomes ``"p/q"``."""
    x = as_score(Fraction(x)) if not isinstance(x, int) else x
    return x if isinstance(x, int) else f"{x.numerator}/{x.denominator}"


def load_number(raw: Any) -> int | Fraction:
    """Inverse of :func:`dump_number`; also accepts decimal strings like ``"0.25"``."""
    if isinstance(raw, bool):
        raise ValueError(f"not a number: {raw!r}")
    if isinstance(raw, int):
        return raw
    if isinstance(raw, str):
        return as_score(Fraction(raw.strip()))
    raise ValueError(f'not an exact number: {raw!r} (write fractions as "p/q")')


def draw_position(ruleset: Any, position: Any, marks: Mapping[Hashable, Any] | None = None) -> str:
    """The picture of ``position``: the ruleset's ``draw`` (the text form for a ruleset
    without one); a :class:`~cgframework.game.Sum` is drawn part by part, side by side."""
    from cgframework.display.pictures import check_size, side_by_side, text_svg

    draw = getattr(ruleset, "draw", None)
    if isinstance(position, Sum):
        check_size(len(position.parts), "summands", 64)
        if draw is None:
            return text_svg(format_position(ruleset, position))
        return side_by_side([draw(part) for part in position.parts])
    if draw is None:
        return text_svg(format_position(ruleset, position))
    return draw(position, marks)
