"""The order of guaranteed scoring games: ``G >= H`` iff for every guaranteed X the stops of
G + X are at least those of H + X (Def. 9).

Decided by the finite test of Larsson, Neto, Nowakowski & Santos Thm 44 (constructive
comparison), never by building ``G + ~H`` (invalid in GS, Section 1.6 of digest 004, and
quadratic in size); against a number by Thm 27 (left/right-r-protected). Both are sound only
on guaranteed games, which callers check with ``require_guaranteed``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from fractions import Fraction

from cgframework_guaranteed.games import (
    Score,
    ScoringGame,
    add,
    atomic,
    conjugate,
    game,
    number,
    require_guaranteed,
    size,
    waiting,
)

_ge_memo: dict[int, bool] = {}
_lrp_memo: dict[tuple[int, Score], bool] = {}
_rrp_memo: dict[tuple[int, Score], bool] = {}
stats = {"ge_calls": 0, "ge_misses": 0}


def ge(g: ScoringGame, h: ScoringGame) -> bool:
    """``G >= H`` (Thm 44): (1) ``Ls_(G) >= Ls_(H)`` and ``Rs^(G) >= Rs^(H)``; (2) every
    H^L has a G^L >= H^L or an H^LR <= G; (3) every G^R has an H^R <= G^R or a G^RL >= H.
    Numbers on either side go through Thm 27. Memoised on the pair of ids."""
    stats["ge_calls"] += 1
    if g is h:
        return True
    key = g.id << 32 | h.id
    found = _ge_memo.get(key)
    if found is not None:
        return found
    stats["ge_misses"] += 1
    a, b = g.stops, h.stops
    # Every stop of G + X is at least H + X's for X = 0 and X = +-n^ (n the larger birthday,
    # Lemma 23): all six stops of G must be at least H's. A cheap necessary condition.
    if (
        a.Ls < b.Ls
        or a.Rs < b.Rs
        or a.Ls_under < b.Ls_under
        or a.Rs_over < b.Rs_over
        or (a.Ls_over < b.Ls_over or a.Rs_under < b.Rs_under)
    ):
        result = False
    elif h.number_value is not None:
        result = left_protected(g, h.number_value)
    elif g.number_value is not None:
        result = right_protected(h, g.number_value)
    else:
        result = _ge_thm44(g, h)
    _ge_memo[key] = result
    return result


def _ge_thm44(g: ScoringGame, h: ScoringGame) -> bool:
    """Conditions (2) and (3) of Thm 44 (condition (1) is checked by the caller)."""
    g_left = g.left
    for hl in h.left:
        for gl in g_left:
            if ge(gl, hl):
                break
        else:
            for hlr in hl.right:
                if ge(g, hlr):
                    break
            else:
                return False
    h_right = h.right
    for gr in g.right:
        for hr in h_right:
            if ge(gr, hr):
                break
        else:
            for grl in gr.left:
                if ge(grl, h):
                    break
            else:
                return False
    return True


def left_protected(g: ScoringGame, r: Score) -> bool:
    """``G >= r`` for the number r (Thm 27): G is left-r-protected, i.e. ``Ls_(G) >= r`` and
    every G^R has a left-r-protected G^RL (vacuous when G is right-atomic)."""
    key = (g.id, r)
    found = _lrp_memo.get(key)
    if found is None:
        found = g.stops.Ls_under >= r and all(
            any(left_protected(grl, r) for grl in gr.left) for gr in g.right
        )
        _lrp_memo[key] = found
    return found


def right_protected(g: ScoringGame, r: Score) -> bool:
    """``G <= r`` (Thm 27, mirrored): ``Rs^(G) <= r`` and every G^L has a right-r-protected
    G^LR (the paper's right-r-protected, with <=, not the calculator's ``rrp``)."""
    key = (g.id, r)
    found = _rrp_memo.get(key)
    if found is None:
        found = g.stops.Rs_over <= r and all(
            any(right_protected(glr, r) for glr in gl.right) for gl in g.left
        )
        _rrp_memo[key] = found
    return found


def le(g: ScoringGame, h: ScoringGame) -> bool:
    return ge(h, g)


def equivalent(g: ScoringGame, h: ScoringGame) -> bool:
    return g is h or (ge(g, h) and ge(h, g))


class Relation(enum.Enum):
    """How two guaranteed games compare."""

    EQUAL = "equal"
    GREATER = "greater"
    LESS = "less"
    INCOMPARABLE = "incomparable"

    @property
    def symbol(self) -> str:
        return {"equal": "=", "greater": ">", "less": "<", "incomparable": "||"}[self.value]


def compare(g: ScoringGame, h: ScoringGame) -> Relation:
    """The relation of G to H; both must be guaranteed."""
    require_guaranteed(g, h)
    up, down = ge(g, h), ge(h, g)
    if up and down:
        return Relation.EQUAL
    if up:
        return Relation.GREATER
    if down:
        return Relation.LESS
    return Relation.INCOMPARABLE


def witnesses_not_ge(g: ScoringGame, h: ScoringGame, x: ScoringGame) -> str | None:
    """Which stop shows ``G >= H`` fails with X: ``"Ls"`` if ``Ls(G+X) < Ls(H+X)``, ``"Rs"``
    if ``Rs(G+X) < Rs(H+X)``, else ``None``."""
    a, b = add(g, x).stops, add(h, x).stops
    if a.Ls < b.Ls:
        return "Ls"
    if a.Rs < b.Rs:
        return "Rs"
    return None


def distinguishing_game(
    g: ScoringGame, h: ScoringGame, *, max_nodes: int = 200_000, budget: int = 2_000_000
) -> ScoringGame | None:
    """A guaranteed X with ``Ls(G+X) < Ls(H+X)`` or ``Rs(G+X) < Rs(H+X)``, a witness that
    ``G >= H`` fails; ``None`` if ``G >= H`` or none is found.

    When a pass-allowed stop decides (Thm 44 (1)) the witness is a waiting move ``-n^`` or
    ``n^`` with n the larger birthday (Lemma 23); otherwise small candidates are tried:
    numbers, short waiting moves, conjugates of G, H and their options, and day-1 games on
    their scores, smallest first. A candidate whose sums could exceed ``max_nodes`` followers
    is skipped, and the search stops after ``budget`` nodes in all."""
    if ge(g, h):
        return None
    base = max(size(g), size(h))
    spent = 0
    sized = sorted({x: size(x) for x in _candidates(g, h)}.items(), key=lambda c: c[1])
    for x, x_size in sized:  # cheapest first
        cost = x_size * base
        if not x.guaranteed or cost > max_nodes:
            continue
        spent += cost
        if witnesses_not_ge(g, h, x):
            return x
        if spent > budget:
            break
    return None


def _candidates(g: ScoringGame, h: ScoringGame) -> Iterator[ScoringGame]:
    n = max(g.birthday, h.birthday)
    yield waiting(-n)
    yield waiting(n)
    own = (g.min_score, g.max_score, h.min_score, h.max_score)
    # the games' own scores, their negatives, and small ones (all-zero games need +-1)
    scores = sorted({0, 1, -1, Fraction(1, 2), Fraction(-1, 2), *own, *(-s for s in own)})
    for s in scores:
        yield number(s)
    for k in range(min(n, 6) + 1):
        for s in scores:
            yield waiting(k, s)
            yield waiting(-k, s)
    for base in (g, h):
        yield conjugate(base)
        for o in base.left + base.right:
            yield conjugate(o)
            for k in (1, -1):
                yield add(conjugate(o), waiting(k))
    day0 = [atomic(a, b) for a in scores for b in scores if a <= b]
    sides: list[list[ScoringGame] | Score] = [*scores, *([d] for d in day0)]
    for left in sides:
        for right in sides:
            yield game(left, right)
