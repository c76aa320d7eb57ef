"""Cooling, heating, overheating and freezing of canonical forms.

- Cooling (Berlekamp, Conway & Guy, *Winning Ways* ch. 6; Siegel CGT II.5): an integer is
  never cooled; otherwise ``G_t = {G^L_t - t | G^R_t + t}`` for t up to the temperature of G,
  and the mean of G above it (at its temperature the tax leaves a number plus an
  infinitesimal, so the game freezes there). A number ``m/2^j`` has temperature ``-1/2^j``
  (Siegel), so ``1/2`` cooled by ``-1/2`` is ``1/2*`` and by ``-1`` is ``{1|0}``; for
  ``t >= 0`` numbers are fixed. This is the thermograph's rule: the stops of ``G_t`` are its
  walls at t. cgt-py cools the same way.
- Heating is Berlekamp's integral (WW ch. 6): ``int^t G = G`` for a number G, otherwise
  ``{int^t G^L + t | int^t G^R - t}``. t may be any game (``int^* G`` heats by star). It
  undoes cooling only while nothing freezes: ``int^t (G_t) = G`` when every non-number
  subposition of G is hotter than t (WW ch. 6); ``{1|0}`` cooled by 1 is ``1/2`` and stays.
- Overheating (WW ch. 6; Siegel CGT II.5): ``int_s^t G = G.s`` (Norton product, i.e. G copies
  of s) for an integer G, otherwise ``{int_s^t G^L + t | int_s^t G^R - t}``.
- Freezing (WW ch. 6): G cooled by its own temperature, a number plus an infinitesimal.

These act on the canonical form (heating and overheating are not defined on values in
general). Results are cached per interned game and temperature.
"""

from __future__ import annotations

from fractions import Fraction

from cgframework.values.canonical import CanonicalGame, game, number
from cgframework.values.ordinal import copies

_cool_memo: dict[tuple[int, Fraction], CanonicalGame] = {}
_heat_memo: dict[tuple[int, int], CanonicalGame] = {}
_overheat_memo: dict[tuple[int, int, int], CanonicalGame] = {}


def _number(t: CanonicalGame | Fraction | int | str) -> Fraction:
    if isinstance(t, CanonicalGame):
        if t.number_value is None:
            raise ValueError(f"the temperature must be a number, not {t}")
        return t.number_value
    x = Fraction(t)
    if x.denominator & (x.denominator - 1):
        raise ValueError(f"the temperature must be a dyadic rational, not {x}")
    return x


def cool(g: CanonicalGame, t: CanonicalGame | Fraction | int | str) -> CanonicalGame:
    """G cooled by the number t (WW ch. 6; Siegel CGT II.5)."""
    return _cool(g, _number(t))


def _cool(g: CanonicalGame, t: Fraction) -> CanonicalGame:
    if g.is_integer or t == 0:  # G cooled by 0 is G
        return g
    key = (g.id, t)
    found = _cool_memo.get(key)
    if found is not None:
        return found
    if g.temperature() < t:
        found = number(g.mean())
    else:
        tax = number(t)
        found = game([_cool(x, t) - tax for x in g.left], [_cool(x, t) + tax for x in g.right])
    _cool_memo[key] = found
    return found


def heat(g: CanonicalGame, t: CanonicalGame | Fraction | int | str) -> CanonicalGame:
    """Berlekamp's integral ``int^t G`` (WW ch. 6); t is any game or a number."""
    return _heat(g, t if isinstance(t, CanonicalGame) else number(_number(t)))


def _heat(g: CanonicalGame, t: CanonicalGame) -> CanonicalGame:
    if g.is_number:
        return g
    key = (g.id, t.id)
    found = _heat_memo.get(key)
    if found is None:
        found = game([_heat(x, t) + t for x in g.left], [_heat(x, t) - t for x in g.right])
        _heat_memo[key] = found
    return found


def overheat(
    g: CanonicalGame,
    s: CanonicalGame | Fraction | int | str,
    t: CanonicalGame | Fraction | int | str,
) -> CanonicalGame:
    """Berlekamp's overheating ``int_s^t G`` (WW ch. 6): integers become Norton multiples of s
    (n copies of s), other forms are heated by t."""
    s = s if isinstance(s, CanonicalGame) else number(_number(s))
    t = t if isinstance(t, CanonicalGame) else number(_number(t))
    return _overheat(g, s, t)


def _overheat(g: CanonicalGame, s: CanonicalGame, t: CanonicalGame) -> CanonicalGame:
    key = (g.id, s.id, t.id)
    found = _overheat_memo.get(key)
    if found is not None:
        return found
    if g.is_integer:
        found = copies(s, int(g.number_value))
    else:
        found = game(
            [_overheat(x, s, t) + t for x in g.left], [_overheat(x, s, t) - t for x in g.right]
        )
    _overheat_memo[key] = found
    return found


def freeze(g: CanonicalGame) -> CanonicalGame:
    """G cooled by its own temperature (WW ch. 6): a number plus an infinitesimal."""
    if g.is_number:
        return g
    return _cool(g, g.temperature())


__all__ = ["cool", "freeze", "heat", "overheat"]
