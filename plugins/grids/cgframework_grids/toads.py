"""Toads and Frogs (Winning Ways, vol. 1, ch. 1; Erickson, "New Toads and Frogs results",
Games of No Chance, 1996): on a strip, Left's toads ``T`` move right and Right's frogs ``F``
move left, one square into an empty square ``.``, or jumping one opposing piece into the
empty square beyond it.

Registered as ``toads-and-frogs`` (alias ``toads-frogs``); the docs' tutorial plugin
(``docs/example-plugin``) is ``toads-tutorial`` (alias ``toads``) and may be installed too.

Decomposition (proved in :func:`split` below): pieces that can never move again are walls.
Reversing the strip and swapping toads with frogs swaps the players, so the canonical
search folds that symmetry with a negated key, as Domineering does with transposes.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import Any

import attrs

from cgframework import BaseRuleset, Convention, Move, Player, pick_move
from cgframework_grids.grid import CACHE_LIMIT, MAX_CELLS, PositionError

_SWAP = str.maketrans("TF", "FT")


@attrs.frozen
class Strip:
    """A strip of ``T``, ``F`` and ``.``, left to right."""

    cells: str


def parse_strip(text: str) -> Strip:
    """``T``/``t`` a toad, ``F``/``f`` a frog (pycgt's letters), ``.`` empty."""
    text = text.strip()
    if not text:
        raise PositionError("empty strip")
    if len(text) > MAX_CELLS:
        raise PositionError(f"a strip of {len(text)} squares (at most {MAX_CELLS})")
    for i, ch in enumerate(text):
        if ch not in "TFtf.":
            raise PositionError(f"unexpected {ch!r} at column {i + 1} (use T, F or .)")
    return Strip(text.upper())


def moves(s: str, player: Player) -> Iterator[tuple[str, str]]:
    """(move text, strip after) for each move of ``player``."""
    n = len(s)
    if player is Player.LEFT:
        i = s.find("T")
        while i >= 0:
            if i + 1 < n and s[i + 1] == ".":
                yield f"{i + 1}>{i + 2}", s[:i] + ".T" + s[i + 2 :]
            elif i + 2 < n and s[i + 1] == "F" and s[i + 2] == ".":
                yield f"{i + 1}>{i + 3}", s[:i] + ".FT" + s[i + 3 :]
            i = s.find("T", i + 1)
    else:
        i = s.find("F")
        while i >= 0:
            if i >= 1 and s[i - 1] == ".":
                yield f"{i + 1}>{i}", s[: i - 1] + "F." + s[i + 1 :]
            elif i >= 2 and s[i - 1] == "T" and s[i - 2] == ".":
                yield f"{i + 1}>{i - 1}", s[: i - 2] + "FT." + s[i + 1 :]
            i = s.find("F", i + 1)


def split(s: str) -> list[str]:
    """The independent parts of a strip, each without dead pieces at its ends.

    A frog on the left end never moves (nothing is left of it to go to) and no piece ever
    gets past it, so it is a wall and the strip loses nothing by dropping it; likewise a
    toad on the right end. A toad with a frog on its right that has a frog or the end on its
    right, and a toad or the end on its left, is frozen with that frog for good (each blocks
    the other, and a toad before it is blocked too), so the strip splits between the two:
    the toad ends the left part and the frog starts the right one. Parts without both a
    piece and an empty square are 0 and dropped.
    """
    parts = []
    start = 0
    i = s.find("TF")
    while i >= 0:
        if (i == 0 or s[i - 1] == "T") and (i + 2 == len(s) or s[i + 2] == "F"):
            parts.append(s[start : i + 1])
            start = i + 1
        i = s.find("TF", i + 1)
    parts.append(s[start:])
    out = []
    for part in parts:
        part = part.lstrip("F").rstrip("T")
        if "." in part and part.strip("."):
            out.append(part)
    return out


def signed_key(s: str) -> str | tuple[str, int]:
    """The smaller of the strip and its mirror image (reversed, toads and frogs swapped: minus
    the value), the latter as ``(mirror, -1)``."""
    mirror = s[::-1].translate(_SWAP)
    return s if s <= mirror else (mirror, -1)


class ToadsAndFrogs(BaseRuleset):
    name = "toads-and-frogs"
    aliases = ("toads-frogs",)
    convention = Convention.NORMAL
    family = "grids"
    syntax = "a strip of T (Left's toads, moving right), F (Right's frogs, moving left), . empty"

    def __init__(self) -> None:
        self._splits: dict[str, tuple[str | tuple[str, int], ...]] = {}

    def parse(self, text: str) -> Strip:
        return parse_strip(text)

    def draw(self, position: Strip, marks: object = None) -> str:
        from cgframework_grids.drawing import draw_strip

        return draw_strip(position.cells)

    def format(self, position: Strip) -> str:
        return position.cells

    def options(self, position: Strip, player: Player) -> Iterator[Move]:
        for text, after in moves(position.cells, player):
            yield Move(Strip(after), text)

    cell_states = ".TF"

    def move_at(self, position: Strip, picks: Sequence[Hashable], player: Player) -> Any:
        """The move of the toad or frog clicked (cell ``(0, column)``): each has at most one."""
        candidates = (
            (((0, int(m.text.split(">")[0]) - 1),), m) for m in self.options(position, player)
        )
        return pick_move(candidates, picks)

    def components(self, position: Strip) -> Sequence[Strip]:
        return tuple(Strip(part) for part in split(position.cells))

    def is_empty(self, position: Strip) -> bool:
        return not split(position.cells)

    def canonical_key(self, position: Strip) -> str:
        return position.cells

    def search_key(self, position: Strip) -> str | tuple[str, int]:
        return signed_key(position.cells)

    def negated_key(self, token: str | tuple[str, int]) -> str | None:
        return token[0] if isinstance(token, tuple) else None

    def option_keys(self, key: str, player: Player) -> list[tuple[str | tuple[str, int], ...]]:
        """For the core's canonical search: the keys of each option's parts."""
        splits = self._splits
        out = []
        for _, after in moves(key, player):
            parts = splits.get(after)
            if parts is None:
                if len(splits) >= CACHE_LIMIT:
                    splits.clear()
                parts = splits[after] = tuple(signed_key(p) for p in split(after))
            out.append(parts)
        return out

    def examples(self) -> list[str]:
        return ["TT..FF", "T.F", "TT.F.F"]
