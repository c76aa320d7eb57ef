"""The normal-play embedding ``g -> ĝ``: every empty option set becomes the atom ``^0``, the
tree shape is kept (Def. 16, L140-L145). It is an order-embedding (Thm 17, [10]) and sends
sums to sums and negatives to conjugates, so every image is invertible.
"""

from __future__ import annotations

from collections.abc import Iterable

from cgframework.values import CanonicalGame, game
from cgframework_guaranteed.games import ScoringGame
from cgframework_guaranteed.games import game as scoring_game

_embed_memo: dict[CanonicalGame, ScoringGame] = {}


def embed(g: CanonicalGame) -> ScoringGame:
    """``ĝ`` for a normal-play game of the core (its canonical form); iterative, so the
    image of a deep value (a large integer) is built too."""
    memo = _embed_memo
    stack = [g]
    while stack:
        x = stack[-1]
        if x in memo:
            stack.pop()
            continue
        pending = [o for o in (*x.left, *x.right) if o not in memo]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        left = [memo[o] for o in x.left] or 0
        right = [memo[o] for o in x.right] or 0
        memo[x] = scoring_game(left, right)
    return memo[g]


def normal_games_born_by(day: int) -> list[CanonicalGame]:
    """Every short normal-play value born by ``day`` (1, 4, 22 values for days 0, 1, 2)."""
    values: list[CanonicalGame] = [game((), ())]
    for _ in range(day):
        subsets = _subsets(values)
        values = sorted({game(left, right) for left in subsets for right in subsets}, key=str)
    return values


def _subsets(items: list[CanonicalGame]) -> list[tuple[CanonicalGame, ...]]:
    out: list[tuple[CanonicalGame, ...]] = [()]
    for x in items:
        out += [s + (x,) for s in out]
    return out


def order_violations(
    values: Iterable[CanonicalGame],
) -> list[tuple[CanonicalGame, CanonicalGame]]:
    """Pairs (g, h) where ``g >= h`` in normal play disagrees with ``ĝ >= ĥ`` in GS
    (Thm 17 says there are none)."""
    from cgframework_guaranteed.order import ge

    vs = list(values)
    return [(g, h) for g in vs for h in vs if (g >= h) != ge(embed(g), embed(h))]
