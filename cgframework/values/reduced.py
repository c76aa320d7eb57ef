"""Reduced canonical form: short games modulo infinitesimals.

Grossman & Siegel, "Reductions of partizan games" (2009), and Siegel, *Combinatorial Game
Theory* (2013), II.6: ``G >= H (mod Inf)`` when ``G + e >= H`` for some infinitesimal ``e``;
for short games this holds exactly when the right stop of ``G - H`` is ``>= 0``. Among the
forms equal to G modulo infinitesimals there is a unique simplest one, the *reduced canonical
form* ``rcf(G)``: no subposition has an Inf-dominated option (``G^L1 <= G^L2 mod Inf``) or an
Inf-reversible one (``G^L`` with some ``G^LR <= G mod Inf``), and a subposition infinitely
close to a number x is x itself. Every such form is also canonical in the ordinary sense
(dominated and reversible options are Inf-dominated and Inf-reversible), so ``rcf(G)`` is a
:class:`CanonicalGame`. Example: ``rcf({2|^*}) = {2|0}``.

Built on the public API of :mod:`cgframework.values.canonical` only; results are cached per
interned value, as ``+`` is.
"""

from __future__ import annotations

from collections.abc import Callable

from cgframework.values.canonical import CanonicalGame, game, number

_reduced_memo: dict[int, CanonicalGame] = {}


def inf_le(g: CanonicalGame, h: CanonicalGame) -> bool:
    """``G <= H (mod Inf)``: ``G <= H + e`` for some infinitesimal e, i.e. ``L(G - H) <= 0``
    (Siegel CGT II.6). The stops of G and H decide most pairs without the difference:
    ``L(G) - L(H) <= L(G - H) <= L(G) - R(H)`` and ``R(G) - R(H) <= L(G - H)``."""
    if g is h:
        return True
    if g.left_stop() - h.right_stop() <= 0:
        return True
    if g.left_stop() - h.left_stop() > 0 or g.right_stop() - h.right_stop() > 0:
        return False
    return (g - h).left_stop() <= 0


def inf_ge(g: CanonicalGame, h: CanonicalGame) -> bool:
    """``G >= H (mod Inf)``."""
    return inf_le(h, g)


def inf_equal(g: CanonicalGame, h: CanonicalGame) -> bool:
    """``G - H`` is infinitesimal (both its stops are 0)."""
    return inf_le(g, h) and inf_le(h, g)


def reduced(g: CanonicalGame) -> CanonicalGame:
    """The reduced canonical form of G (Grossman & Siegel; Siegel CGT II.6), cached."""
    found = _reduced_memo.get(g.id)
    if found is not None:
        return found
    if g.is_number:
        result = g
    elif g.left_stop() == g.right_stop():  # infinitely close to a number
        result = number(g.left_stop())
    else:
        result = _reduce_options([reduced(x) for x in g.left], [reduced(x) for x in g.right])
    _reduced_memo[g.id] = result
    _reduced_memo[result.id] = result
    return result


def _reduce_options(lefts: list[CanonicalGame], rights: list[CanonicalGame]) -> CanonicalGame:
    """``{lefts | rights}`` (options already reduced) with Inf-dominated options deleted and
    Inf-reversible ones bypassed until neither applies. ``game()`` first removes the ordinary
    dominated and reversible options; the value only changes by an infinitesimal throughout,
    so the mod-Inf tests may use the current form of G."""
    while True:
        g = game(lefts, rights)
        if g.is_number:
            return g
        lefts = _undominated(list(g.left), inf_le)
        rights = _undominated(list(g.right), inf_ge)
        changed = len(lefts) < len(g.left) or len(rights) < len(g.right)
        new_lefts: list[CanonicalGame] = []
        for gl in lefts:
            through = next((x for x in gl.right if inf_le(x, g)), None)
            if through is None:
                new_lefts.append(gl)
            else:  # Inf-reversible through G^LR: replace by G^LRL's
                new_lefts.extend(through.left)
                changed = True
        new_rights: list[CanonicalGame] = []
        for gr in rights:
            through = next((x for x in gr.left if inf_ge(x, g)), None)
            if through is None:
                new_rights.append(gr)
            else:
                new_rights.extend(through.right)
                changed = True
        if not changed:
            return g
        lefts, rights = new_lefts, new_rights


def _undominated(
    options: list[CanonicalGame], worse_or_equal: Callable[[CanonicalGame, CanonicalGame], bool]
) -> list[CanonicalGame]:
    """Options not dominated mod Inf by another one (of two Inf-equal options the one with
    the smaller id stays, so exactly one of them survives)."""
    kept = []
    for i, x in enumerate(options):
        dominated = False
        for j, y in enumerate(options):
            if i != j and worse_or_equal(x, y):
                if not worse_or_equal(y, x) or j < i:
                    dominated = True
                    break
        if not dominated:
            kept.append(x)
    return kept


def is_reduced(g: CanonicalGame) -> bool:
    """G is its own reduced canonical form."""
    return reduced(g) is g


__all__ = ["inf_equal", "inf_ge", "inf_le", "is_reduced", "reduced"]
