"""The cheating-robot ruleset's ``draw``: each summand as its matrix S+(G) (paper 002, Def 2
and Figure 3), the summands side by side.

A summand G = {G^L | S(G) | G^R} is drawn as the paper draws it: a row per Left move
(``L1``, ``L2``...), a column per Right move (``R1``...), and one more row and column, the
empty move. Cell (i, j) is the same-round option G^{i,j}; the empty column holds the Left
options G^{i,.}, the empty row the Right options G^{.,j}, and their corner G itself. The
same-round block is framed; the Left options are tinted blue, the Right options red.

The whole picture is one grid of cells numbered across the summands (row 0: the Right moves'
heads; column ``offset``: the Left moves' heads of the summand starting there): a move's head
and its option's cell carry ``data-cell="r,c"``, the keys ``move_at`` reads, so a click on
``L2`` (or on G^{2,.}) of the first summand plays Left's ``1.2``. ``marks`` map such cells to
a Player, filled in that player's colour. Long option texts are cut (the whole text is the
cell's tooltip).
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from cgframework.display.pictures import (
    FREE_COLOUR,
    INK,
    LEFT_COLOUR,
    RIGHT_COLOUR,
    Marks,
    check_size,
    document,
    escape,
    mark_colour,
)
from cgframework_cheating_robot.games import CRGame, format_game

LEFT_TINT = "#dbe6f4"
RIGHT_TINT = "#f6dcda"
SAME_ROUND = "#ffffff"
HEAD = 34
"""Width of a row of heads (``L1``), and height of a row of cells."""
CHAR = 7.4
"""Width of a character of the cells' 12 px monospaced text."""
MAX_TEXT = 18
"""Characters of an option's text shown in its cell (longer texts are cut with ``...``)."""
GAP = 26
"""Room between two summands, for the ``+`` sign."""
TOP = 24
"""Room above the matrices, for each summand's text."""


@attrs.frozen
class Block:
    """Where summand ``index`` sits in the grid: its heads' column ``offset``, its Left moves
    in rows 1..m, its Right moves in columns offset + 1..offset + n."""

    index: int
    game: CRGame
    offset: int

    @property
    def m(self) -> int:
        return len(self.game.left)

    @property
    def n(self) -> int:
        return len(self.game.right)

    def left_keys(self, i: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """The cells that play Left's move ``i`` (from 1): its head and its option."""
        return (i, self.offset), (i, self.offset + self.n + 1)

    def right_keys(self, j: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """The cells that play Right's move ``j`` (from 1): its head and its option."""
        return (0, self.offset + j), (self.m + 1, self.offset + j)


def blocks(parts: tuple[CRGame, ...]) -> list[Block]:
    """The summands' places in the grid, left to right."""
    out, offset = [], 0
    for index, game in enumerate(parts):
        out.append(Block(index, game, offset))
        offset += len(game.right) + 2
    return out


def move_cells(parts: tuple[CRGame, ...]) -> Iterator[tuple[str, str, tuple[int, int]]]:
    """(player letter, move text, cell) for every cell a click on plays a one-sided move."""
    for block in blocks(parts):
        for i in range(1, block.m + 1):
            for key in block.left_keys(i):
                yield "L", f"{block.index + 1}.{i}", key
        for j in range(1, block.n + 1):
            for key in block.right_keys(j):
                yield "R", f"{block.index + 1}.{j}", key


def _short(text: str, room: int = MAX_TEXT) -> str:
    return text if len(text) <= room else text[: room - 3] + "..."


def cr_sum_svg(parts: tuple[CRGame, ...], marks: Marks | None = None) -> str:
    """The picture of a sum of cheating-robot games (see the module docstring)."""
    check_size(sum((len(g.left) + 1) * (len(g.right) + 1) for g in parts), "matrix cells")
    body: list[str] = []
    x = 4.0
    height = 0.0
    placed = blocks(parts)
    for block in placed:
        if block.index:
            body.append(
                f'<text class="plus" x="{x - GAP / 2:g}" y="{TOP + HEAD * 1.6:g}" '
                f'text-anchor="middle" font-size="18" fill="{INK}">+</text>'
            )
        width, bottom = _matrix(body, block, x, marks)
        x += width + GAP
        height = max(height, bottom)
    if not parts:  # the empty sum: 0
        body.append(f'<text class="zero" x="12" y="{TOP + 20}" font-size="16">0</text>')
        x, height = 40 + GAP, TOP + HEAD + 8
    y = height + 10
    body.append(
        f'<g class="legend" font-size="11" fill="#555555">'
        f'<rect x="4" y="{y:g}" width="12" height="12" fill="{LEFT_TINT}" stroke="#999999"/>'
        f'<text x="20" y="{y + 10:g}">Left moves (L), her options</text>'
        f'<rect x="174" y="{y:g}" width="12" height="12" fill="{RIGHT_TINT}" stroke="#999999"/>'
        f'<text x="190" y="{y + 10:g}">Right moves (R), his options</text>'
        f'<rect x="344" y="{y:g}" width="12" height="12" fill="none" stroke="{INK}" '
        'stroke-width="2"/>'
        f'<text x="360" y="{y + 10:g}">same round</text></g>'
    )
    return document(max(x - GAP + 4, 430), y + 16, "".join(body), format_game_sum(parts))


def format_game_sum(parts: tuple[CRGame, ...]) -> str:
    return " + ".join(format_game(g) for g in parts) or "0"


def _matrix(body: list[str], block: Block, x0: float, marks: Marks | None) -> tuple[float, float]:
    """Draw one summand's S+(G) at ``x0``; its width and its bottom edge."""
    g, m, n, offset = block.game, block.m, block.n, block.offset
    rows: list[list[CRGame]] = [[*(g.table[i] if g.table else ()), g.left[i]] for i in range(m)]
    rows.append([*g.right, g])
    texts = [[format_game(cell) for cell in row] for row in rows]
    widths = [
        max(40.0, 12 + CHAR * max(len(_short(texts[r][c])) for r in range(m + 1)))
        for c in range(n + 1)
    ]
    lefts = [x0 + HEAD]
    for w in widths[:-1]:
        lefts.append(lefts[-1] + w)
    top = float(TOP)
    whole = format_game(g)
    room = max(MAX_TEXT, int((HEAD + sum(widths)) / CHAR))
    body.append(
        f'<text class="summand" x="{x0:g}" y="{TOP - 8}" font-size="12" '
        f'font-family="monospace">{escape(_short(whole, room))}'
        f"<title>{escape(whole)}</title></text>"
    )
    body.append(  # the corner: the summand's number
        f'<text class="corner" x="{x0 + HEAD / 2:g}" y="{top + HEAD * 0.65:g}" '
        f'text-anchor="middle" font-size="11" fill="#777777">{block.index + 1}</text>'
    )
    for j in range(n + 1):  # Right's heads, then the empty move
        label, key = (f"R{j + 1}", (0, offset + j + 1)) if j < n else ("\u2205", None)
        _head(body, lefts[j], top, widths[j], label, RIGHT_COLOUR, key, marks)
    for i in range(m + 1):  # Left's heads, then the empty move
        label, key = (f"L{i + 1}", (i + 1, offset)) if i < m else ("\u2205", None)
        _head(body, x0, top + HEAD * (i + 1), HEAD, label, LEFT_COLOUR, key, marks)
    for i in range(m + 1):
        for j in range(n + 1):
            if i < m and j < n:
                kind, fill = "same-round", SAME_ROUND
            elif i < m:
                kind, fill = "left-option", LEFT_TINT
            elif j < n:
                kind, fill = "right-option", RIGHT_TINT
            else:
                kind, fill = "game", FREE_COLOUR
            key = (i + 1, offset + j + 1)
            colour = mark_colour(marks, key, fill)
            ink = "white" if colour != fill else INK
            x, y, w = lefts[j], top + HEAD * (i + 1), widths[j]
            text = texts[i][j]
            tip = f"<title>{escape(text)}</title>" if _short(text) != text else ""
            body.append(
                f'<rect class="cell" data-cell="{key[0]},{key[1]}" data-kind="{kind}" '
                f'x="{x:g}" y="{y:g}" width="{w:g}" height="{HEAD}" fill="{colour}" '
                f'stroke="#999999">{tip}</rect>'
                f'<text data-cell="{key[0]},{key[1]}" x="{x + w / 2:g}" y="{y + HEAD * 0.64:g}" '
                f'text-anchor="middle" font-size="12" font-family="monospace" fill="{ink}">'
                f"{escape(_short(text))}</text>"
            )
    if m and n:  # the same-round block S(G), framed as the paper's double brackets frame it
        body.append(
            f'<rect class="same-round-block" x="{lefts[0]:g}" y="{top + HEAD:g}" '
            f'width="{sum(widths[:n]):g}" height="{HEAD * m}" fill="none" stroke="{INK}" '
            'stroke-width="2"/>'
        )
    width = HEAD + sum(widths)
    return width, top + HEAD * (m + 2)


def _head(
    body: list[str],
    x: float,
    y: float,
    w: float,
    label: str,
    colour: str,
    key: tuple[int, int] | None,
    marks: Marks | None,
) -> None:
    """A move's head (a click on it plays the move), or the empty move's (no key)."""
    if key is None:
        body.append(
            f'<text class="empty-move" x="{x + w / 2:g}" y="{y + HEAD * 0.64:g}" '
            f'text-anchor="middle" font-size="13" fill="#777777">{label}</text>'
        )
        return
    fill = mark_colour(marks, key, "white")
    ink = colour if fill == "white" else "white"
    cell = f'data-cell="{key[0]},{key[1]}"'
    body.append(
        f'<rect class="move" {cell} data-player="{"L" if colour == LEFT_COLOUR else "R"}" '
        f'x="{x + 2:g}" y="{y + 2:g}" width="{w - 4:g}" height="{HEAD - 4}" rx="4" '
        f'fill="{fill}" stroke="{colour}"/>'
        f'<text {cell} x="{x + w / 2:g}" y="{y + HEAD * 0.64:g}" text-anchor="middle" '
        f'font-size="13" font-weight="bold" fill="{ink}">{escape(label)}</text>'
    )
