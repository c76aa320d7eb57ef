"""An SVG picture of a board with the vertices each player took (``cgf pizza play --svg``).

A single cycle is drawn as a pizza (one wedge per slice, in order); any other board as its
vertices in a row. Player One's vertices are red, Player Two's blue, the others grey.
"""

from __future__ import annotations

import math
from html import escape

from cgframework_pizza.board import Board, cycle_order, fmt

COLOURS = {1: "#d9534f", 2: "#337ab7", 0: "#dddddd"}


def pizza_svg(board: Board, taken_by: dict[int, int], title: str = "") -> str:
    """``taken_by`` maps a vertex to 1 or 2 (the player who took it)."""
    parts = board.components()
    order = cycle_order(board, parts[0]) if len(parts) == 1 else None
    body = _wedges(board, order, taken_by) if order else _row(board, taken_by)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="420" height="460" '
        'font-family="sans-serif">'
        f'<text x="210" y="24" text-anchor="middle" font-size="16">{escape(title)}</text>'
        f"{body}"
        '<rect x="20" y="430" width="14" height="14" fill="#d9534f"/>'
        '<text x="40" y="442" font-size="13">Player One</text>'
        '<rect x="140" y="430" width="14" height="14" fill="#337ab7"/>'
        '<text x="160" y="442" font-size="13">Player Two</text></svg>\n'
    )


def _wedges(board: Board, order: list[int], taken_by: dict[int, int]) -> str:
    cx, cy, r = 210, 225, 180
    n = len(order)
    out = []
    for i, v in enumerate(order):
        a0, a1 = 2 * math.pi * i / n - math.pi / 2, 2 * math.pi * (i + 1) / n - math.pi / 2
        x0, y0 = cx + r * math.cos(a0), cy + r * math.sin(a0)
        x1, y1 = cx + r * math.cos(a1), cy + r * math.sin(a1)
        large = 1 if a1 - a0 > math.pi else 0
        colour = COLOURS[taken_by.get(v, 0)]
        out.append(
            f'<path d="M{cx},{cy} L{x0:.1f},{y0:.1f} A{r},{r} 0 {large} 1 {x1:.1f},{y1:.1f} Z" '
            f'fill="{colour}" stroke="white" stroke-width="2"/>'
        )
        am = (a0 + a1) / 2
        tx, ty = cx + 0.7 * r * math.cos(am), cy + 0.7 * r * math.sin(am)
        label = f"#{v + 1}: {fmt(board.weight(v))}"
        out.append(
            f'<text x="{tx:.1f}" y="{ty:.1f}" text-anchor="middle" '
            f'font-size="12">{escape(label)}</text>'
        )
    return "".join(out)


def _row(board: Board, taken_by: dict[int, int]) -> str:
    vertices = sorted(board.present)
    width = min(60, 380 // max(1, len(vertices)))
    out = []
    for i, v in enumerate(vertices):
        x = 20 + i * width
        out.append(
            f'<rect x="{x}" y="200" width="{width - 4}" height="40" '
            f'fill="{COLOURS[taken_by.get(v, 0)]}"/>'
        )
        out.append(
            f'<text x="{x + width / 2 - 2:.1f}" y="225" text-anchor="middle" '
            f'font-size="11">{escape(fmt(board.weight(v)))}</text>'
        )
    return "".join(out)
