"""Atomic weight of all-small games, and the predicates that go with it.

A game is *all-small* when in every subposition either both players can move or neither can
(Siegel CGT II.7; WW ch. 8): its canonical form is 0 or has only all-small options, and it is
infinitesimal. Clobber and Cutthroat positions are all-small.

The atomic weight calculus (WW ch. 8 "the atomic weight calculus"; Siegel CGT II.7):
``G' = {aw(G^L) - 2 | aw(G^R) + 2}``; ``aw(G) = G'`` unless G' is an integer. When it is, the
"remote star" ``*N`` (N beyond every nimber in G) decides: if G is confused with ``*N`` then
``aw(G) = G'``; if ``G > *N`` it is the greatest integer n with ``n <| G'^R`` for every
``G'^R``; if ``G < *N`` the least integer n with ``n |> G'^L`` for every ``G'^L``. These last two
are the cases WW handles with the remote star; :func:`atomic_weight_info` says when one was
used anywhere in the calculation, and the result is then checked against the Two-Ahead Rule
(Siegel CGT II.7: ``aw(G) >= 2`` implies ``G > 0``, ``aw(G) >= 1`` implies ``G |> 0``, and the
mirror images): a failure raises :class:`EccentricError` instead of returning a wrong number.

Examples: ``aw(^) = 1``, ``aw(^^*) = 2``, ``aw(*n) = 0``; ``aw`` is additive, and
``aw(G.^) = G`` for Norton's product.
"""

from __future__ import annotations

from itertools import chain
from math import ceil, floor

import attrs

from cgframework.values.canonical import ZERO, CanonicalGame, game, nimber, number


class NotAllSmallError(ValueError):
    """Atomic weight asked of a game that is not all-small."""


class EccentricError(ArithmeticError):
    """The atomic weight calculus gave a value that fails the Two-Ahead Rule."""


@attrs.frozen
class AtomicWeight:
    """The atomic weight, and whether the remote star decided an integer case somewhere."""

    value: CanonicalGame
    by_remote_star: bool


_all_small_memo: dict[int, bool] = {}
_far_star_memo: dict[int, int] = {}
_aw_memo: dict[int, AtomicWeight] = {}


def is_all_small(g: CanonicalGame) -> bool:
    """Every subposition of G has options for both players or for neither (cached)."""
    found = _all_small_memo.get(g.id)
    if found is None:
        if g.uptimal is not None:  # x + n.^ + *m: all-small exactly when x = 0
            found = g.uptimal[0] == 0
        else:
            found = all(is_all_small(x) for x in chain(g.left, g.right))
        _all_small_memo[g.id] = found
    return found


def is_switch(g: CanonicalGame) -> bool:
    """G equals its own negative and is not 0: ``{x | -x}`` such as ``+-1`` or ``*``."""
    return g is not ZERO and -g is g


def far_star(g: CanonicalGame) -> int:
    """N such that ``*N`` is remote for G: beyond every nimber among its subpositions."""
    found = _far_star_memo.get(g.id)
    if found is None:
        if g.nim_value is not None:
            found = g.nim_value + 1
        elif g.uptimal is not None:  # the nimbers below n.^ + *m are at most m xor 1 <= m + 1
            found = g.uptimal[2] + 2
        else:
            found = max([1] + [far_star(x) for x in chain(g.left, g.right)])
        _far_star_memo[g.id] = found
    return found


def atomic_weight(g: CanonicalGame) -> CanonicalGame:
    """The atomic weight of an all-small G (WW ch. 8; Siegel CGT II.7)."""
    return atomic_weight_info(g).value


def atomic_weight_info(g: CanonicalGame) -> AtomicWeight:
    """:func:`atomic_weight` with the remote-star flag; checked by the Two-Ahead Rule."""
    if not is_all_small(g):
        raise NotAllSmallError(f"atomic weight needs an all-small game; {g} is not all-small")
    result = _aw(g)
    _check_two_ahead(g, result.value)
    return result


def _aw(g: CanonicalGame) -> AtomicWeight:
    found = _aw_memo.get(g.id)
    if found is not None:
        return found
    if g.uptimal is not None:  # all-small, so x = 0: aw(n.^ + *m) = n (WW ch. 8)
        found = AtomicWeight(number(g.uptimal[1]), False)
    else:
        two = number(2)
        parts = [_aw(x) for x in chain(g.left, g.right)]
        remote = any(p.by_remote_star for p in parts)
        lefts = [_aw(x).value - two for x in g.left]
        rights = [_aw(x).value + two for x in g.right]
        g0 = game(lefts, rights)
        if g0.is_integer:
            star = nimber(far_star(g))
            if g > star:
                g0 = number(min(_greatest_integer_below(x) for x in rights))
                remote = True
            elif g < star:
                g0 = number(max(_least_integer_above(x) for x in lefts))
                remote = True
        found = AtomicWeight(g0, remote)
    _aw_memo[g.id] = found
    return found


def _greatest_integer_below(x: CanonicalGame) -> int:
    """The greatest integer n with ``n <| x`` (not ``n >= x``)."""
    n = floor(x.left_stop())
    return n - 1 if number(n) >= x else n


def _least_integer_above(x: CanonicalGame) -> int:
    """The least integer n with ``n |> x`` (not ``n <= x``)."""
    n = ceil(x.right_stop())
    return n + 1 if number(n) <= x else n


def _check_two_ahead(g: CanonicalGame, weight: CanonicalGame) -> None:
    """Siegel CGT II.7, the Two-Ahead Rule, on the computed weight."""
    one, two = number(1), number(2)
    broken = (
        (weight >= two and not g > ZERO)
        or (weight >= one and g <= ZERO)
        or (weight <= -two and not g < ZERO)
        or (weight <= -one and g >= ZERO)
    )
    if broken:
        raise EccentricError(f"atomic weight of {g} is eccentric (the calculus gave {weight})")


__all__ = [
    "AtomicWeight",
    "EccentricError",
    "NotAllSmallError",
    "atomic_weight",
    "atomic_weight_info",
    "far_star",
    "is_all_small",
    "is_switch",
]
