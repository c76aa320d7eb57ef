"""Pictures of the grids rulesets, for the core's ``draw(position, marks)`` hook.

Built on :mod:`cgframework.display.pictures`: boards as grids of cells (Left's stones and amazons
blue, Right's red, removed or burned cells dark), Toads and Frogs as a strip, Snort and Col
as graphs (a vertex tinted by a player's earlier move drawn in that player's pale colour),
Hackenbush as a graph whose edges have their colour and whose ground vertex is a square.
Each picture takes the position's plain data (its rows, cells or edges), not the position:
this module stands below the rulesets, which call it from their ``draw``, and imports none.
"""

from __future__ import annotations

from collections.abc import Sequence

from cgframework.display.pictures import (
    BLOCKED_COLOUR,
    FREE_COLOUR,
    LEFT_COLOUR,
    RIGHT_COLOUR,
    Marks,
    graph_svg,
    grid_svg,
    mark_colour,
)

CELL_COLOURS = {"x": LEFT_COLOUR, "o": RIGHT_COLOUR, ".": FREE_COLOUR, "#": BLOCKED_COLOUR}
TINT_COLOURS = {"L": "#a9c4e6", "R": "#eeb0ad", ".": FREE_COLOUR}
EDGE_COLOURS = {"B": LEFT_COLOUR, "R": RIGHT_COLOUR, "G": "#3a9a4a"}


def draw_grid(rows: Sequence[str], marks: Marks | None = None) -> str:
    """A board by its ``rows`` of letters: one ``cell`` per square; ``marks``: an empty cell
    ``(row, column)`` (0-based) -> the player whose move emptied or filled it."""

    def fill(r: int, c: int) -> str:
        letter = rows[r][c]
        if letter == ".":
            return mark_colour(marks, (r, c))
        return CELL_COLOURS[letter]

    return grid_svg(
        len(rows),
        len(rows[0]),
        fill,
        label=lambda r, c: rows[r][c] if rows[r][c] in "xo" else "",
    )


def draw_strip(cells: str) -> str:
    """Toads and Frogs by its ``cells``: one ``cell`` per square, toads blue (Left's), frogs
    red (Right's)."""
    colours = {"T": LEFT_COLOUR, "F": RIGHT_COLOUR, ".": FREE_COLOUR}
    return grid_svg(
        1, len(cells), lambda r, c: colours[cells[c]], label=lambda r, c: cells[c].strip(".")
    )


def draw_tinted_graph(
    order: int, edges: Sequence[tuple[int, int]], tints: str, marks: Marks | None = None
) -> str:
    """A graph of ``order`` vertices with one tint each: one ``vertex`` per uncoloured
    vertex, one ``edge`` per edge; ``marks``: vertex -> the player who coloured it."""
    return graph_svg(
        list(range(order)),
        edges,
        fill=lambda v: mark_colour(marks, v, TINT_COLOURS[tints[v]]),
    )


def draw_hackenbush(edges: Sequence[tuple[int, int, str]], marks: Marks | None = None) -> str:
    """A Hackenbush picture by its ``edges``: one ``edge`` per edge in its colour (blue
    Left's, red Right's, green both players'), the ground vertex 0 as a square."""
    vertices = sorted({0} | {u for u, _, _ in edges} | {v for _, v, _ in edges})
    return graph_svg(
        vertices,
        [(u, v) for u, v, _ in edges],
        fill=lambda v: INK_GROUND if v == 0 else FREE_COLOUR,
        label=lambda v: "",
        edge_colours=[EDGE_COLOURS[c] for _, _, c in edges],
        square=lambda v: v == 0,
    )


INK_GROUND = "#8a6d3b"


DOMINO_COLOURS = {"L": LEFT_COLOUR, "R": RIGHT_COLOUR, "G": EDGE_COLOURS["G"]}


def draw_dominoes(cells: str) -> str:
    """A row of dominoes by its ``cells``: one upright ``cell`` per domino standing on a
    ground line, Left's blue, Right's red, green either player's (Toppling Dominoes)."""
    from cgframework.display.pictures import INK, check_size, document

    check_size(len(cells), "dominoes")
    width, height, gap = 18, 54, 12
    body = []
    for i, ch in enumerate(cells):
        x = 8 + i * (width + gap)
        body.append(
            f'<rect class="cell" x="{x}" y="8" width="{width}" height="{height}" rx="3" '
            f'fill="{DOMINO_COLOURS[ch]}" stroke="{INK}"/>'
        )
    total = 16 + max(len(cells), 1) * (width + gap) - gap
    body.append(
        f'<line class="ground" x1="0" y1="{8 + height}" x2="{total}" y2="{8 + height}" '
        f'stroke="{INK_GROUND}" stroke-width="3"/>'
    )
    return document(total, height + 16, "".join(body))


def draw_arcs(edges: Sequence[tuple[int, int, str]], marks: Marks | None = None) -> str:
    """Partizan Arc-Kayles by its ``edges``: one ``vertex`` per vertex, one ``edge`` per
    edge in its colour (blue Left's, red Right's, green either's); ``marks``: vertex -> the
    player who took it."""
    vertices = sorted({u for u, _, _ in edges} | {v for _, v, _ in edges})
    return graph_svg(
        vertices,
        [(u, v) for u, v, _ in edges],
        fill=lambda v: mark_colour(marks, v),
        edge_colours=[EDGE_COLOURS["B" if c == "L" else c] for _, _, c in edges],
    )


def draw_slope(rows: Sequence[str]) -> str:
    """Ski-Jumps by its ``rows``: one ``cell`` per square, Left's skiers blue, Right's red,
    a jumper's letter in upper case and a slipper's in lower case."""
    colours = {"L": LEFT_COLOUR, "l": LEFT_COLOUR, "R": RIGHT_COLOUR, "r": RIGHT_COLOUR}
    return grid_svg(
        len(rows),
        len(rows[0]),
        lambda r, c: colours.get(rows[r][c], FREE_COLOUR),
        label=lambda r, c: rows[r][c].strip("."),
    )
