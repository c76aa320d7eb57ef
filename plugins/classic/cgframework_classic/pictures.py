"""Pictures for the classic rulesets' ``draw``: Domineering boards, cakes, Wythoff's queens.
Heaps of tokens and plots of Grundy sequences are the core's (``heaps_svg`` in
:mod:`cgframework.display.pictures`, ``sequence_svg`` in :mod:`cgframework.display.plots`),
named here too.

Each picture takes the position's plain data (sizes, cells, pairs), not the position: this
module stands below the rulesets, which call it from their ``draw``, and imports none."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cgframework.display.pictures import (
    BLOCKED_COLOUR,
    FREE_COLOUR,
    INK,
    TALL_HEAP,
    Marks,
    check_size,
    document,
    grid_svg,
    heaps_svg,
    mark_colour,
    text_svg,
)
from cgframework.display.plots import DOT_LIMIT, PLOT_HEIGHT, PLOT_WIDTH, sequence_svg

__all__ = [
    "DOT_LIMIT",
    "PLOT_HEIGHT",
    "PLOT_WIDTH",
    "TALL_HEAP",
    "cakes_svg",
    "domineering_svg",
    "heaps_svg",
    "sequence_svg",
    "wythoff_svg",
]


def domineering_svg(height: int, width: int, empty: int, marks: Marks | None = None) -> str:
    """A ``height`` x ``width`` board whose empty squares are the bits ``r * width + c`` of
    ``empty``: one ``cell`` per square, empty light, blocked dark, a cell in ``marks``
    (``(row, column)`` from 0 at the top left -> Player) blue for Left's vertical dominoes,
    red for Right's horizontal ones."""
    if not height:
        return text_svg("#")

    def fill(r: int, c: int) -> str:
        base = FREE_COLOUR if empty >> (r * width + c) & 1 else BLOCKED_COLOUR
        return mark_colour(marks, (r, c), base)

    return grid_svg(height, width, fill)


CAKE_COLOUR = "#e8c39e"


def cakes_svg(pieces: Sequence[tuple[int, int]]) -> str:
    """One ``cake`` group per cake (``(rows, columns)``), side by side on a common baseline:
    a rectangle scored into unit squares by thin ``score`` lines (where cuts may go), with
    its size below. Cells shrink for large cakes so the picture stays readable."""
    check_size(sum(r * c for r, c in pieces), "squares")
    tallest = max((r for r, _ in pieces), default=0)
    cell = 28 if tallest <= 12 else max(6, 336 // tallest)
    top, x, body = 8, 10, []
    base = top + cell * tallest
    for r, c in pieces:
        w, h = c * cell, r * cell
        y = base - h
        body.append(f'<g class="cake"><rect x="{x}" y="{y}" width="{w}" height="{h}" ')
        body.append(f'fill="{CAKE_COLOUR}" stroke="{INK}" stroke-width="2"/>')
        lines = [f"M{x + k * cell},{y}v{h}" for k in range(1, c)]
        lines += [f"M{x},{y + k * cell}h{w}" for k in range(1, r)]
        if lines:
            body.append(
                f'<path class="score" d="{"".join(lines)}" stroke="#8a6a4a" '
                'stroke-width="0.8" stroke-dasharray="3,2" fill="none"/>'
            )
        body.append(
            f'<text x="{x + w / 2:g}" y="{base + 18}" text-anchor="middle" '
            f'font-size="12">{r}x{c}</text></g>'
        )
        x += w + 20
    return document(max(x - 10, 44), base + 28, "".join(body))


def wythoff_svg(
    pairs: Sequence[tuple[int, int]],
    is_p_position: Callable[[int, int], bool],
    limit: int = 24,
) -> str:
    """One ``board`` group per queen ``(a, b)``: an (a+1) x (b+1) corner of the board with
    the target corner (0, 0) at the bottom left, the queen on its square, and the squares of
    the P-positions (those ``is_p_position`` holds for: the Wythoff pairs) shaded: the queen
    moves left, down or diagonally down-left. A board over ``limit`` squares on a side is
    drawn as text."""
    check_size(len(pairs), "queens", 50)
    cell, body, x = 22, [], 6
    tallest = max((a for a, b in pairs if max(a, b) <= limit), default=0) + 1
    for a, b in pairs:
        if max(a, b) > limit:
            body.append(
                f'<g class="board"><text x="{x}" y="{12 + cell * tallest / 2:g}" '
                f'font-size="14">queen at ({a},{b})</text></g>'
            )
            x += 14 + 9 * len(f"queen at ({a},{b})")
            continue
        y0 = 6 + cell * (tallest - a - 1)
        body.append('<g class="board">')
        for i in range(a + 1):  # row i from the bottom
            for j in range(b + 1):
                fill = "#9bb8d9" if is_p_position(i, j) else FREE_COLOUR
                cls = "square p-position" if is_p_position(i, j) else "square"
                body.append(
                    f'<rect class="{cls}" x="{x + j * cell}" y="{y0 + (a - i) * cell}" '
                    f'width="{cell}" height="{cell}" fill="{fill}" stroke="#999999"/>'
                )
        qx, qy = x + b * cell + cell / 2, y0 + cell / 2
        body.append(
            f'<circle class="queen" cx="{qx:g}" cy="{qy:g}" r="{cell * 0.36:g}" fill="{INK}"/></g>'
        )
        x += (b + 1) * cell + 16
    return document(max(x - 10, 44), 12 + cell * tallest, "".join(body))
