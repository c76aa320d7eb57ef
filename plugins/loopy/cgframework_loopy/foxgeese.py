"""Fox and Geese (Winning Ways, 2nd ed., vol. 3, "Fox and Geese"; CGSuite's
``game.grid.FoxAndGeese``): on the dark squares of a checkerboard, Left's geese move one
square diagonally forward (down the board as written), Right's fox one square diagonally in
any direction; nothing is captured or jumped, and a player who cannot move loses. The fox
can go back and forth, so positions repeat: a loopy game, solved by the retrograde analysis
(outcomes with draws). As in CGSuite, the geese are Left and the fox Right.

Positions: rows top first joined by ``|``: ``G`` a goose, ``F`` the fox (exactly one), ``.``
a square; pieces stand on dark squares, those with row + column odd (0-based from the top
left, so the bottom-left square of an even board is dark). ``start:N`` is the N x N board
(N even, 4 to 8) with a goose on each dark square of the top row and the fox on the bottom
row's dark square nearest the middle.

The board here is finite (CGSuite's is unbounded upward): once the fox is behind every
goose, the geese run out of moves and lose, as they do there.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from cgframework import BaseRuleset, Convention, Move, Player

MAX_SQUARES = 100


@attrs.frozen
class FoxBoard:
    """A ``height`` x ``width`` board: the geese as a bit mask of squares (square ``r * width
    + c`` is bit ``r * width + c``, row 0 the top one) and the fox's square. Small ints, so
    the retrograde analysis keeps a million positions in memory."""

    height: int
    width: int
    geese: int
    fox: int

    def rows(self) -> tuple[str, ...]:
        """The board as rows of ``G``, ``F`` and ``.``, top first."""
        out = []
        for r in range(self.height):
            row = []
            for c in range(self.width):
                square = r * self.width + c
                row.append("F" if square == self.fox else "G" if self.geese >> square & 1 else ".")
            out.append("".join(row))
        return tuple(out)


def from_rows(rows: Sequence[str]) -> FoxBoard:
    """A board from checked rows of ``G``, ``F`` and ``.``."""
    width = len(rows[0])
    geese, fox = 0, -1
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == "G":
                geese |= 1 << (r * width + c)
            elif ch == "F":
                fox = r * width + c
    return FoxBoard(len(rows), width, geese, fox)


def start(n: int) -> FoxBoard:
    """The N x N starting position (geese on the top row, the fox at the bottom)."""
    top = "".join("G" if c % 2 == 1 else "." for c in range(n))
    bottom = ["."] * n
    middle = n // 2
    bottom[middle if (n - 1 + middle) % 2 else middle - 1] = "F"
    return from_rows((top, *["." * n] * (n - 2), "".join(bottom)))


def parse_board(text: str) -> FoxBoard:
    text = text.strip()
    if text.startswith("start:"):
        size = text[6:].strip()
        if not size.isdigit() or int(size) % 2 or not 4 <= int(size) <= 8:
            raise ValueError(f"start:{size}: the size must be an even number from 4 to 8")
        return start(int(size))
    rows = tuple(r.strip() for r in text.split("|"))
    width = len(rows[0])
    if not width:
        raise ValueError("empty board (rows of G, F and . joined by |, or start:N)")
    if len(rows) * width > MAX_SQUARES:
        raise ValueError(f"a board of {len(rows) * width} squares (at most {MAX_SQUARES})")
    for r, row in enumerate(rows):
        if len(row) != width:
            raise ValueError(f"row {r + 1} has {len(row)} squares, row 1 has {width}")
        for c, ch in enumerate(row):
            if ch not in "GF.":
                raise ValueError(f"unexpected {ch!r} at row {r + 1}, column {c + 1} (G, F or .)")
            if ch != "." and (r + c) % 2 == 0:
                raise ValueError(f"{ch} at row {r + 1}, column {c + 1} is on a light square")
    foxes = sum(row.count("F") for row in rows)
    if foxes != 1:
        raise ValueError(f"{foxes} foxes (exactly one F)")
    return from_rows(rows)


GOOSE_STEPS = ((1, -1), (1, 1))
FOX_STEPS = ((-1, -1), (-1, 1), (1, -1), (1, 1))


def steps(board: FoxBoard, player: Player) -> Iterator[tuple[str, FoxBoard]]:
    """(move text ``r,c>r2,c2``, 1-based, and the board after) for each move of ``player``."""
    height, width, geese, fox = board.height, board.width, board.geese, board.fox
    taken = geese | 1 << fox
    if player is Player.LEFT:
        pieces, directions = [s for s in range(height * width) if geese >> s & 1], GOOSE_STEPS
    else:
        pieces, directions = [fox], FOX_STEPS
    for square in pieces:
        r, c = divmod(square, width)
        for dr, dc in directions:
            r2, c2 = r + dr, c + dc
            to = r2 * width + c2
            if 0 <= r2 < height and 0 <= c2 < width and not taken >> to & 1:
                text = f"{r + 1},{c + 1}>{r2 + 1},{c2 + 1}"
                if player is Player.LEFT:
                    yield text, FoxBoard(height, width, geese ^ (1 << square | 1 << to), fox)
                else:
                    yield text, FoxBoard(height, width, geese, to)


class FoxAndGeese(BaseRuleset):
    name = "fox-and-geese"
    aliases = ("foxandgeese",)
    family = "loopy"
    convention = Convention.NORMAL
    loopy = True
    version = "2"  # stored solutions hold the loopy value, no longer an outcome letter
    syntax = (
        "rows top first joined by |: G Left's geese (moving diagonally down), F Right's fox "
        "(diagonally any way), . a square; pieces on dark squares (row + column odd); start:N"
    )

    def parse(self, text: str) -> FoxBoard:
        return parse_board(text)

    def format(self, position: FoxBoard) -> str:
        return "|".join(position.rows())

    def options(self, position: FoxBoard, player: Player) -> Iterator[Move]:
        for text, after in steps(position, player):
            yield Move(after, text)

    def draw(self, position: FoxBoard, marks: Mapping[Hashable, Any] | None = None) -> str:
        """The checkerboard: one ``cell`` per square, dark ones grey, geese blue (Left's),
        the fox red (Right's)."""
        from cgframework.display.pictures import LEFT_COLOUR, RIGHT_COLOUR, grid_svg

        rows = position.rows()
        colours = {"G": LEFT_COLOUR, "F": RIGHT_COLOUR}

        def fill(r: int, c: int) -> str:
            return colours.get(rows[r][c], "#b9b0a0" if (r + c) % 2 else "#f4f1ea")

        return grid_svg(len(rows), len(rows[0]), fill, label=lambda r, c: rows[r][c].strip("."))

    def examples(self) -> Sequence[str]:
        return ["start:4", ".G.G|....|....|F...", "...G|..F.|.G..|...."]
