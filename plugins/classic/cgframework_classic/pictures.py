"""Pictures for the classic rulesets' ``draw``: Domineering boards and heaps of tokens."""

from __future__ import annotations

from cgframework.display.pictures import (
    BLOCKED_COLOUR,
    FREE_COLOUR,
    INK,
    Marks,
    check_size,
    document,
    escape,
    grid_svg,
    mark_colour,
    text_svg,
)
from cgframework_classic.domineering import Board

TALL_HEAP = 15
"""A heap taller than this is drawn as one bar with its size, not token by token."""


def domineering_svg(board: Board, marks: Marks | None = None) -> str:
    """One ``cell`` per square: empty light, blocked dark, a cell in ``marks`` (``(row,
    column)`` from 0 at the top left -> Player) blue for Left's vertical dominoes, red for
    Right's horizontal ones."""
    if not board.height:
        return text_svg("#")
    w = board.width

    def fill(r: int, c: int) -> str:
        base = FREE_COLOUR if board.empty >> (r * w + c) & 1 else BLOCKED_COLOUR
        return mark_colour(marks, (r, c), base)

    return grid_svg(board.height, w, fill)


def heaps_svg(sizes: tuple[int, ...]) -> str:
    """One ``heap`` group per heap, a stack of ``token`` circles (one per token) with its size
    below; a heap over ``TALL_HEAP`` tokens is one bar (class ``token-bar``)."""
    check_size(len(sizes), "heaps", 200)
    tall = min(max(sizes, default=0), TALL_HEAP + 1)
    step, r = 20, 8
    height = 50 + step * tall
    body = []
    for i, n in enumerate(sizes):
        x = 22 + 34 * i
        body.append('<g class="heap">')
        if n > TALL_HEAP:
            top = height - 30 - step * tall
            body.append(
                f'<rect class="token-bar" x="{x - r}" y="{top}" width="{2 * r}" '
                f'height="{step * tall}" fill="#c8a35a" stroke="{INK}"/>'
            )
        else:
            for k in range(n):
                cy = height - 30 - step * k - r
                body.append(
                    f'<circle class="token" cx="{x}" cy="{cy}" r="{r}" fill="#c8a35a" '
                    f'stroke="{INK}"/>'
                )
        body.append(
            f'<text x="{x}" y="{height - 10}" text-anchor="middle" font-size="12">'
            f"{escape(n)}</text></g>"
        )
    return document(max(44, 34 * len(sizes) + 10), height, "".join(body))
