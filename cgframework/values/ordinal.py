"""Constructions on forms: incentives, ordinal sums, Norton multiplication, up-nth.

- Incentives (Siegel CGT II.7; Winning Ways ch. 6): Left's are ``G^L - G``, Right's are
  ``G - G^R``; a player moves where the incentive is largest.
- Ordinal sum (Conway, ONAG ch. 15; Siegel CGT II.3 and II.7): ``G : H = {G^L, G : H^L |
  G^R, G : H^R}``. A move in G annihilates H, so H only breaks ties: the sign of ``G : H``
  is the sign of G unless ``G = 0`` (then it is the sign of H).
- Norton multiplication (Siegel CGT II.7; WW ch. 8): for ``U > 0``, ``n.U`` is n copies of U
  for an integer n, else ``G.U = {G^L.U + U + D | G^R.U - U - D}`` with D over the
  incentives of U. ``G.^`` is the up-multiple used by the atomic weight calculus
  (``aw(G.^) = G``) and ``G.1 = G``.
- Up-nth (Siegel CGT II.7): ``^^1 = ^``, ``^^n = {0 | v^(->n-1) *}`` where
  ``^(->k) = ^^1 + ... + ^^k``; each is infinitesimal with respect to the one before.

Ordinal sums and Norton products depend on the form of G; here that form is always the
canonical one. Results are cached per pair of interned values.
"""

from __future__ import annotations

from cgframework.values.canonical import ZERO, CanonicalGame, game, negate, nimber

_incentive_memo: dict[int, tuple[CanonicalGame, ...]] = {}
_ordinal_memo: dict[tuple[int, int], CanonicalGame] = {}
_norton_memo: dict[tuple[int, int], CanonicalGame] = {}
_up_nth_memo: dict[int, CanonicalGame] = {}


def left_incentives(g: CanonicalGame) -> tuple[CanonicalGame, ...]:
    """``G^L - G`` for each Left option (WW ch. 6)."""
    return tuple(x - g for x in g.left)


def right_incentives(g: CanonicalGame) -> tuple[CanonicalGame, ...]:
    """``G - G^R`` for each Right option."""
    return tuple(g - x for x in g.right)


def incentives(g: CanonicalGame) -> tuple[CanonicalGame, ...]:
    """All incentives of G with the dominated ones (smaller than another) removed, as CGSuite
    lists them; sorted by id, so the result is a deterministic tuple."""
    found = _incentive_memo.get(g.id)
    if found is None:
        every = set(left_incentives(g)) | set(right_incentives(g))
        kept = [x for x in every if not any(y is not x and x <= y for y in every)]
        found = tuple(sorted(kept, key=lambda x: x.id))
        _incentive_memo[g.id] = found
    return found


def ordinal_sum(g: CanonicalGame, h: CanonicalGame) -> CanonicalGame:
    """``G : H`` on the canonical form of G (Conway ONAG ch. 15)."""
    if h is ZERO:
        return g
    if g.nim_value is not None and h.nim_value is not None:
        return nimber(g.nim_value + h.nim_value)  # *a : *b = *(a+b)
    key = (g.id, h.id)
    found = _ordinal_memo.get(key)
    if found is None:
        found = game(
            list(g.left) + [ordinal_sum(g, x) for x in h.left],
            list(g.right) + [ordinal_sum(g, x) for x in h.right],
        )
        _ordinal_memo[key] = found
    return found


def norton(g: CanonicalGame, u: CanonicalGame) -> CanonicalGame:
    """Norton's product ``G.U`` for ``U > 0`` (Siegel CGT II.7)."""
    if not u > ZERO:
        raise ValueError(f"Norton multiplication needs a positive unit, not {u}")
    return _norton(g, u)


def _norton(g: CanonicalGame, u: CanonicalGame) -> CanonicalGame:
    key = (g.id, u.id)
    found = _norton_memo.get(key)
    if found is not None:
        return found
    if g.is_integer:
        found = copies(u, int(g.number_value))
    else:
        steps = [u + d for d in incentives(u)]
        lefts = [_norton(x, u) + s for x in g.left for s in steps]
        rights = [_norton(x, u) - s for x in g.right for s in steps]
        found = game(lefts, rights)
    _norton_memo[key] = found
    return found


def copies(u: CanonicalGame, n: int) -> CanonicalGame:
    """``u + u + ... + u`` (n times; ``-u`` repeated for n < 0) by doubling."""
    if n < 0:
        u, n = negate(u), -n
    total, power = ZERO, u
    while n:
        if n & 1:
            total = total + power
        n >>= 1
        if n:
            power = power + power
    return total


def up_nth(n: int) -> CanonicalGame:
    """``^^n`` ("up-nth", ^ to the n): ``^^1 = ^ = {0|*}``, ``^^n = {0 | v^(->n-1) *}``."""
    if n < 1:
        raise ValueError(f"up-nth needs n >= 1, not {n}")
    found = _up_nth_memo.get(n)
    if found is None:
        found = game([ZERO], [negate(up_arrow_sum(n - 1)) + nimber(1)])
        _up_nth_memo[n] = found
    return found


def up_arrow_sum(n: int) -> CanonicalGame:
    """``^(->n) = ^^1 + ^^2 + ... + ^^n`` (0 for n = 0)."""
    if n < 0:
        raise ValueError(f"need n >= 0, not {n}")
    total = ZERO
    for k in range(1, n + 1):
        total = total + up_nth(k)
    return total


__all__ = [
    "copies",
    "incentives",
    "left_incentives",
    "norton",
    "ordinal_sum",
    "right_incentives",
    "up_arrow_sum",
    "up_nth",
]
