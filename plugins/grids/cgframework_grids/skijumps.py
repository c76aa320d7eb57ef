"""Ski-Jumps (Winning Ways, vol. 1, ch. 1, "Ski-Jumps for Beginners"; cgt-tools'
``ski_jumps``): Left's skiers go east, Right's west, on a slope of rows. A move either slides
one of your skiers any number of empty squares in your direction, possibly off the slope
(no skier may be passed), or jumps: one of your jumpers directly above an opponent's skier
(in the next row down) jumps over it onto the square immediately below it, which must be on
the slope and empty, and the skier jumped over becomes a slipper, which may never jump
again.

The jump's landing square. Winning Ways lets a skier leave the slope only by sliding off its
east or west end; a jump is over the skier below "to the square immediately below", which
must be vacant, so it needs that square to exist: a jumper directly above an opponent on the
bottom row cannot jump (it can still slide). That is the reading of Winning Ways' rules as
they are quoted (e.g. J. P. Neto's game pages: "landing on the immediate adjacent cell, only
valid if that cell is empty") and cgt-tools' (a jump "when ... the destination is empty"),
and Winning Ways' Ski-Jumps values (``tests/test_boards_rulesets.py``) hold under it. An
earlier version let such a jumper jump off the bottom of the slope; that move is not a move
of Winning Ways' game.

Positions: rows top first joined by ``|`` (cgt-tools' letters): ``L`` / ``R`` a jumper of
Left / Right, ``l`` / ``r`` a slipper, ``.`` empty, e.g. ``.L...|.R...|.....``.

Components (proved in :func:`split`): each top row where no jumper has an opponent anywhere
below it is a game of its own, and so is the rest of the slope. Mirroring every row and
swapping the players' skiers negates the value (``negative``).

Closed form (proved in :func:`no_jump_value`): when no jumper has an opposing skier anywhere
in the row below it, and no row has a Left skier west of a Right skier, nobody can ever jump
or block the other side, and the slope is the integer (squares Left's skiers still have to
go) - (squares Right's have to go).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from cgframework import BaseRuleset, Convention, Move, Player
from cgframework_grids.grid import MAX_CELLS, PositionError

_SWAP = str.maketrans("LRlr", "RLrl")


@attrs.frozen
class Slope:
    """Rows top first, all of one width, of ``L``, ``R``, ``l``, ``r`` and ``.``."""

    rows: tuple[str, ...]


def parse_slope(text: str) -> Slope:
    rows = tuple(r.strip() for r in text.strip().split("|"))
    if not rows[0]:
        raise PositionError("empty slope (rows of L, R, l, r, . joined by |)")
    width = len(rows[0])
    if len(rows) * width > MAX_CELLS:
        raise PositionError(f"a slope of {len(rows) * width} squares (at most {MAX_CELLS})")
    for y, row in enumerate(rows):
        if len(row) != width:
            raise PositionError(f"row {y + 1} has {len(row)} squares, row 1 has {width}")
        for x, ch in enumerate(row):
            if ch not in "LRlr.":
                raise PositionError(
                    f"unexpected {ch!r} at row {y + 1}, column {x + 1} (use L, R, l, r or .)"
                )
    return Slope(rows)


def moves(rows: tuple[str, ...], player: Player) -> Iterator[tuple[str, tuple[str, ...]]]:
    """(move text, rows after) for each move of ``player``: ``r,c>c2`` a slide (``c2`` 0 or
    width + 1 off the slope), ``r,cv`` a jump (rows and columns 1-based)."""
    mine, theirs, step = ("Ll", "Rr", 1) if player is Player.LEFT else ("Rr", "Ll", -1)
    height, width = len(rows), len(rows[0])
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch not in mine:
                continue
            to = x + step
            while 0 <= to < width and row[to] == ".":
                after = list(row)
                after[x], after[to] = ".", ch
                yield f"{y + 1},{x + 1}>{to + 1}", (*rows[:y], "".join(after), *rows[y + 1 :])
                to += step
            if not 0 <= to < width:  # nothing in the way: off the slope
                after = row[:x] + "." + row[x + 1 :]
                yield f"{y + 1},{x + 1}>{to + 1}", (*rows[:y], after, *rows[y + 1 :])
            if ch.isupper() and y + 2 < height and rows[y + 1][x] in theirs:
                if rows[y + 2][x] != ".":  # the landing square, on the slope, must be empty
                    continue
                new = list(rows)
                new[y] = row[:x] + "." + row[x + 1 :]
                below = rows[y + 1]
                new[y + 1] = below[:x] + below[x].lower() + below[x + 1 :]
                new[y + 2] = rows[y + 2][:x] + ch + rows[y + 2][x + 1 :]
                yield f"{y + 1},{x + 1}v", tuple(new)


def split(rows: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The independent parts of a slope: each of its top rows where no jumper has an
    opponent anywhere below it, alone, then the rest of the slope; parts without a skier
    dropped.

    Proof. Skiers move down only by jumping, over an opponent right below. Opponents below a
    jumper only ever move down too (a jump lands lower, a slide keeps the row), so a jumper
    with no opponent anywhere below it never has one right below it: it never jumps. So no
    skier in those top rows ever leaves its row, none from lower rows ever comes up, and no
    jump goes over them: each of those rows is a game of its own, and so is the rest."""
    top = 0
    while top < len(rows):
        below = "".join(rows[top + 1 :])
        row = rows[top]
        if ("L" in row and ("R" in below or "r" in below)) or (
            "R" in row and ("L" in below or "l" in below)
        ):
            break
        top += 1
    parts = [(row,) for row in rows[:top] if row.strip(".")]
    if top < len(rows):
        parts.append(rows[top:])
    return parts


def no_jump_value(rows: tuple[str, ...]) -> int | None:
    """The integer value when no jump and no blocking between the sides can ever happen,
    else ``None``.

    Proof. Skiers change rows only by jumping, and a jumper can jump only over an opponent
    in the row right below; if no jumper has an opponent anywhere in that row, no slide
    brings one there, so nobody ever jumps. In a row where every Right skier is west of
    every Left skier the two sides move apart and never meet. So Left's skiers form a game
    Right cannot touch: the front skier of a row can always move one square (into an empty
    square or off the slope), so Left always has a move taking exactly one of the D squares
    his skiers still have to go and none taking fewer, and by induction it is the integer D;
    likewise Right's is -D', and the sum is D - D'."""
    width = len(rows[0])
    total = 0
    for y, row in enumerate(rows):
        below = rows[y + 1] if y + 1 < len(rows) else ""
        if ("L" in row and ("R" in below or "r" in below)) or (
            "R" in row and ("L" in below or "l" in below)
        ):
            return None
        lefts = [x for x, ch in enumerate(row) if ch in "Ll"]
        rights = [x for x, ch in enumerate(row) if ch in "Rr"]
        if lefts and rights and min(lefts) < max(rights):
            return None
        total += sum(width - x for x in lefts) - sum(x + 1 for x in rights)
    return total


class SkiJumps(BaseRuleset):
    name = "ski-jumps"
    aliases = ("skijumps",)
    version = "2"
    """2: no jump from above the bottom row (version 1 let it jump off the slope), so values
    stored under version 1 are not read back."""
    convention = Convention.NORMAL
    family = "grids"
    syntax = (
        "rows top first joined by |: L/R Left's/Right's jumper, l/r a slipper, . empty; "
        "Left goes east, Right west, e.g. .L...|.R...|.....; a jump lands on the empty square "
        "below the skier jumped over, so never from above the bottom row (Winning Ways)"
    )

    def parse(self, text: str) -> Slope:
        return parse_slope(text)

    def format(self, position: Slope) -> str:
        return "|".join(position.rows)

    def options(self, position: Slope, player: Player) -> Iterator[Move]:
        for text, rows in moves(position.rows, player):
            yield Move(Slope(rows), text)

    def components(self, position: Slope) -> Sequence[Slope]:
        return tuple(Slope(rows) for rows in split(position.rows))

    def is_empty(self, position: Slope) -> bool:
        return all(set(row) <= {"."} for row in position.rows)

    def negative(self, position: Slope) -> Slope:
        """Each row mirrored with the players' skiers swapped: minus the value."""
        return Slope(tuple(row[::-1].translate(_SWAP) for row in position.rows))

    def draw(self, position: Slope, marks: Mapping[Hashable, Any] | None = None) -> str:
        from cgframework_grids.drawing import draw_slope

        return draw_slope(position.rows)

    def examples(self) -> list[str]:
        return [".L...|.R...|.....", "L....|....R|.....", "L...|.R..|..L.|...R"]
