"""The pizza ruleset's ``draw``: a board with the slices each player took.

When the whole graph is one cycle it is drawn as a pizza (one wedge per slice, in order),
any other board as its vertices in a row. ``marks`` map a vertex (0-based; ``#1`` is 0) to the
Player who took it: Left (Player One) blue, Right (Player Two) red; a slice already gone and
unmarked is dark grey, a slice still on the board light (outlined in black when available).
"""

from __future__ import annotations

import math

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
from cgframework_pizza.board import Board, cycle_order, fmt

GONE_COLOUR = "#8a8a8a"


def pizza_svg(board: Board, marks: Marks | None = None, title: str = "") -> str:
    everything = frozenset(range(len(board.graph.weights)))
    check_size(len(everything), "slices")
    whole = Board(board.graph, everything, frozenset())
    parts = whole.components()
    order = cycle_order(whole, parts[0]) if len(parts) == 1 else None
    if order:
        body, legend = _wedges(board, order, marks), 430
    else:  # a row is short: no blank square around it
        body, legend = _row(board, sorted(everything), marks), 104
    return document(
        420,
        legend + 30,
        f'<text x="210" y="24" text-anchor="middle" font-size="16">{escape(title)}</text>'
        f"{body}"
        f'<rect x="20" y="{legend}" width="14" height="14" fill="{LEFT_COLOUR}"/>'
        f'<text x="40" y="{legend + 12}" font-size="13">Left (Player One)</text>'
        f'<rect x="180" y="{legend}" width="14" height="14" fill="{RIGHT_COLOUR}"/>'
        f'<text x="200" y="{legend + 12}" font-size="13">Right (Player Two)</text>',
    )


def _fill(board: Board, v: int, marks: Marks | None) -> tuple[str, str]:
    """The slice's fill and outline."""
    colour = mark_colour(marks, v, FREE_COLOUR if v in board.present else GONE_COLOUR)
    return colour, (INK if v in board.available else "#bbbbbb")


def _wedges(board: Board, order: list[int], marks: Marks | None) -> str:
    cx, cy, r = 210, 225, 180
    n = len(order)
    out = []
    for i, v in enumerate(order):
        a0, a1 = 2 * math.pi * i / n - math.pi / 2, 2 * math.pi * (i + 1) / n - math.pi / 2
        x0, y0 = cx + r * math.cos(a0), cy + r * math.sin(a0)
        x1, y1 = cx + r * math.cos(a1), cy + r * math.sin(a1)
        large = 1 if a1 - a0 > math.pi else 0
        colour, outline = _fill(board, v, marks)
        out.append(
            f'<path class="slice" data-vertex="{v}" d="M{cx},{cy} L{x0:.1f},{y0:.1f} '
            f"A{r},{r} 0 {large} 1 "
            f'{x1:.1f},{y1:.1f} Z" fill="{colour}" stroke="{outline}" stroke-width="2"/>'
        )
        am = (a0 + a1) / 2
        tx, ty = cx + 0.7 * r * math.cos(am), cy + 0.7 * r * math.sin(am)
        label = f"#{v + 1}: {fmt(board.weight(v))}"
        ink = INK if colour == FREE_COLOUR else "white"
        out.append(
            f'<text data-vertex="{v}" x="{tx:.1f}" y="{ty:.1f}" text-anchor="middle" '
            f'font-size="12" fill="{ink}">{escape(label)}</text>'
        )
    return "".join(out)


def _row(board: Board, vertices: list[int], marks: Marks | None) -> str:
    width = max(380 / max(1, len(vertices)), 0.5)
    out = []
    for i, v in enumerate(vertices):
        x = 20 + i * width
        colour, outline = _fill(board, v, marks)
        out.append(
            f'<rect class="slice" data-vertex="{v}" x="{x:.1f}" y="44" '
            f'width="{max(width - 4, 0.5):.1f}" '
            f'height="40" fill="{colour}" stroke="{outline}"/>'
        )
        if width >= 16:
            out.append(
                f'<text data-vertex="{v}" x="{x + width / 2 - 2:.1f}" y="69" text-anchor="middle" '
                f'font-size="11">{escape(fmt(board.weight(v)))}</text>'
            )
    return "".join(out)
