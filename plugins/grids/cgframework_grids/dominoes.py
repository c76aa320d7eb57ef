"""Toppling Dominoes (Fink, Nowakowski, Siegel and Wolfe, "Toppling Dominoes", Games of No
Chance 4, MSRI Publications 63, 2015; CGSuite's ``game.strip.TopplingDominoes``): a row of
upright dominoes, each Left's (``L``, blue), Right's (``R``, red) or either player's (``G``,
green). A player topples one of his dominoes (or a green one) to the left or to the right:
it falls, and so does every domino on that side of it.

Positions: the row left to right, ``LRLG`` (CGSuite's letters ``l``, ``r``, ``e`` are read
too); ``empty`` for no dominoes; rows joined by `` + `` (a sum). A row is one component (a
move can reach every domino in it). Reading the row backwards keeps its value (toppling left
and right swap), so a row and its mirror image share one key; swapping ``L`` and ``R``
negates the value (``negative``).

Closed form (proved in :func:`closed_form`): a row without any ``R`` and ``G`` is the integer
``n`` of its dominoes (Left topples an end domino outward, one a move), and a green row of
``n`` is a Nim heap ``*n``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from typing import Any

import attrs

from cgframework import BaseRuleset, Convention, Move, Player
from cgframework_grids.grid import MAX_CELLS, PositionError

_CGSUITE = str.maketrans("lre", "LRG")
_SWAP = str.maketrans("LR", "RL")


@attrs.frozen
class Row:
    """Dominoes left to right, each ``L``, ``R`` or ``G``; ``""`` is no dominoes."""

    cells: str


def parse_row(text: str) -> Row:
    """``L``, ``R``, ``G`` (or CGSuite's ``l``, ``r``, ``e``), or ``empty``."""
    text = text.strip()
    if text == "empty":
        return Row("")
    if not text:
        raise PositionError("empty row (write 'empty' for no dominoes)")
    if len(text) > MAX_CELLS:
        raise PositionError(f"a row of {len(text)} dominoes (at most {MAX_CELLS})")
    for i, ch in enumerate(text):
        if ch not in "LRGlre":
            raise PositionError(f"unexpected {ch!r} at column {i + 1} (use L, R or G)")
    return Row(text.translate(_CGSUITE))


def topples(cells: str, player: Player) -> Iterator[tuple[str, str]]:
    """(move text, row after) for each move of ``player``: domino ``i`` (1-based) toppled to
    the left (``i<``, leaving the dominoes right of it) or to the right (``i>``)."""
    mine = "LG" if player is Player.LEFT else "RG"
    seen = set()
    for i, ch in enumerate(cells):
        if ch in mine:
            for text, after in ((f"{i + 1}<", cells[i + 1 :]), (f"{i + 1}>", cells[:i])):
                if after not in seen:  # a domino at an end falls alone either way: one move
                    seen.add(after)
                    yield text, after


def closed_form(cells: str) -> tuple[str, int] | None:
    """``("integer", n)`` for a row of Left's dominoes only (minus for Right's), ``("nim", n)``
    for a green row; else ``None``.

    Proof. A row of n ``L``: Right has no move, and Left's options are the rows of k < n
    ``L`` (topple the domino k + 1 from one end toward that end), so by induction it is
    ``{0, ..., n-1 |} = n``. A row of n ``G``: both players have the options of k < n ``G``
    for every k, so by induction it is ``*mex{0..n-1} = *n``."""
    if not cells:
        return ("integer", 0)
    if cells == "L" * len(cells):
        return ("integer", len(cells))
    if cells == "R" * len(cells):
        return ("integer", -len(cells))
    if cells == "G" * len(cells):
        return ("nim", len(cells))
    return None


class TopplingDominoes(BaseRuleset):
    name = "toppling-dominoes"
    aliases = ("topplingdominoes",)
    convention = Convention.NORMAL
    family = "grids"
    syntax = (
        "a row of dominoes left to right: L (Left's, blue), R (Right's, red), G (green, "
        "either's), e.g. LRLG; 'empty'; rows joined by ' + '"
    )

    def parse(self, text: str) -> Row:
        return parse_row(text)

    def format(self, position: Row) -> str:
        return position.cells or "empty"

    def options(self, position: Row, player: Player) -> Iterator[Move]:
        for text, after in topples(position.cells, player):
            yield Move(Row(after), text)

    def negative(self, position: Row) -> Row:
        """Left's and Right's dominoes swapped: minus the value."""
        return Row(position.cells.translate(_SWAP))

    def is_empty(self, position: Row) -> bool:
        return not position.cells

    def canonical_key(self, position: Row) -> str:
        """The row or its mirror image, whichever is smaller (the same value)."""
        cells = position.cells
        return min(cells, cells[::-1])

    def draw(self, position: Row, marks: Mapping[Hashable, Any] | None = None) -> str:
        from cgframework_grids.drawing import draw_dominoes

        return draw_dominoes(position.cells)

    def examples(self) -> list[str]:
        return ["LRLG", "LLRRG", "LRL + RLR"]
