"""Pictures of the grids rulesets, for the core's ``draw(position, marks)`` hook.

Built on :mod:`cgframework.display.pictures`: boards as grids of cells (Left's stones and amazons
blue, Right's red, removed or burned cells dark), Toads and Frogs as a strip, Snort and Col
as graphs (a vertex tinted by a player's earlier move drawn in that player's pale colour),
Hackenbush as a graph whose edges have their colour and whose ground vertex is a square.
"""

from __future__ import annotations

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
from cgframework_grids.graphs import TintedGraph
from cgframework_grids.grid import Grid
from cgframework_grids.hackenbush import Picture
from cgframework_grids.toads import Strip

CELL_COLOURS = {"x": LEFT_COLOUR, "o": RIGHT_COLOUR, ".": FREE_COLOUR, "#": BLOCKED_COLOUR}
TINT_COLOURS = {"L": "#a9c4e6", "R": "#eeb0ad", ".": FREE_COLOUR}
EDGE_COLOURS = {"B": LEFT_COLOUR, "R": RIGHT_COLOUR, "G": "#3a9a4a"}


def draw_grid(position: Grid, marks: Marks | None = None) -> str:
    """One ``cell`` per square; ``marks``: an empty cell ``(row, column)`` (0-based) -> the
    player whose move emptied or filled it."""
    rows = position.rows()

    def fill(r: int, c: int) -> str:
        letter = rows[r][c]
        if letter == ".":
            return mark_colour(marks, (r, c))
        return CELL_COLOURS[letter]

    return grid_svg(
        position.height,
        position.width,
        fill,
        label=lambda r, c: rows[r][c] if rows[r][c] in "xo" else "",
    )


def draw_strip(position: Strip) -> str:
    """One ``cell`` per square: toads blue (Left's), frogs red (Right's)."""
    cells = position.cells
    colours = {"T": LEFT_COLOUR, "F": RIGHT_COLOUR, ".": FREE_COLOUR}
    return grid_svg(
        1, len(cells), lambda r, c: colours[cells[c]], label=lambda r, c: cells[c].strip(".")
    )


def draw_tinted_graph(position: TintedGraph, marks: Marks | None = None) -> str:
    """One ``vertex`` per uncoloured vertex, one ``edge`` per edge; ``marks``: vertex -> the
    player who coloured it."""
    tints = position.tints
    return graph_svg(
        list(range(position.order)),
        position.edges,
        fill=lambda v: mark_colour(marks, v, TINT_COLOURS[tints[v]]),
    )


def draw_hackenbush(position: Picture, marks: Marks | None = None) -> str:
    """One ``edge`` per edge in its colour (blue Left's, red Right's, green both players'),
    the ground vertex 0 as a square."""
    vertices = sorted({0} | {u for u, _, _ in position.edges} | {v for _, v, _ in position.edges})
    return graph_svg(
        vertices,
        [(u, v) for u, v, _ in position.edges],
        fill=lambda v: INK_GROUND if v == 0 else FREE_COLOUR,
        label=lambda v: "",
        edge_colours=[EDGE_COLOURS[c] for _, _, c in position.edges],
        square=lambda v: v == 0,
    )


INK_GROUND = "#8a6d3b"
