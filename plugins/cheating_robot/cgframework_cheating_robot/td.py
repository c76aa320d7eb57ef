"""Cheating-robot toppling dominoes (Section 3.1, L634-L658): a row such as ``BBWW``.

Left topples a B, Right a W, each to the left or right. Alone, a toppled domino knocks
over everything in its direction to the end of the row. In the same round and the same
row, A topples up to (not including) B if B lies in its direction, and symmetrically
(digest 4.5.6); A and B fall. Gaps split a row.
"""

from __future__ import annotations

from functools import cache

from cgframework_cheating_robot.games import CRGame, game


def _fall(n: int, a: int, d: int, stop: int | None) -> set[int]:
    out = {a}
    k = a + d
    while 0 <= k < n and k != stop:
        out.add(k)
        k += d
    return out


def _rest(row: str, gone: set[int]) -> tuple[str, ...]:
    parts, cur = [], ""
    for k, ch in enumerate(row):
        if k in gone:
            if cur:
                parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        parts.append(cur)
    return tuple(parts)


def _moves(row: str, colour: str) -> list[tuple[int, int]]:
    return [(k, d) for k, ch in enumerate(row) if ch == colour for d in (-1, 1)]


def _sum(rows: tuple[str, ...]) -> CRGame:
    from cgframework_cheating_robot.games import ZERO, add

    out = ZERO
    for r in rows:
        out = add(out, row_game(r))
    return out


@cache
def row_game(row: str) -> CRGame:
    """The explicit cheating-robot game of one row (options are sums of the pieces)."""
    n = len(row)
    lm, rm = _moves(row, "B"), _moves(row, "W")
    left = [_sum(_rest(row, _fall(n, a, d, None))) for a, d in lm]
    right = [_sum(_rest(row, _fall(n, b, e, None))) for b, e in rm]
    table = [
        [_sum(_rest(row, _fall(n, a, d, b) | _fall(n, b, e, a))) for b, e in rm] for a, d in lm
    ]
    return game(left, table, right)
