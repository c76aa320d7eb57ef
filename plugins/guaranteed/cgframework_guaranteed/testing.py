"""Random guaranteed games for tests: a Hypothesis strategy and a seeded plain-random twin,
built the way digest 004 Section 3 describes (depth <= 3, 1-3 options per side, an atom with
probability about 0.3 per side, small integer atoms), and constructed so that every game is
guaranteed (Def. 3) without rejection: a left atom is clipped to the least score on the Right
side, a right atom to the greatest score on the Left side.

Also independent reference implementations of the definitions (sum, conjugate, Thm 44) that
the tests compare the plugin's optimised code with.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import strategies as st

from cgframework_guaranteed.games import ScoringGame, atomic, game, number

ChooseInt = Callable[[int, int], int]


def _build(choose: ChooseInt, depth: int, lo: int, hi: int, max_options: int) -> ScoringGame:
    """A guaranteed game of birthday <= ``depth`` with atoms in ``[lo, hi]``; ``choose(a, b)``
    picks an integer in ``[a, b]``."""
    if depth == 0:
        a, b = choose(lo, hi), choose(lo, hi)
        return atomic(min(a, b), max(a, b))
    sides: list[list[ScoringGame] | None] = []
    for _ in range(2):
        if choose(0, 9) < 3:  # an atom, probability 0.3
            sides.append(None)
        else:
            k = choose(1, max_options)
            sides.append(
                [_build(choose, choose(0, depth - 1), lo, hi, max_options) for _ in range(k)]
            )
    left, right = sides
    if left is None and right is None:
        a, b = choose(lo, hi), choose(lo, hi)
        return atomic(min(a, b), max(a, b))
    if left is None:
        assert right is not None
        return game(min(choose(lo, hi), min(o.min_score for o in right)), right)
    if right is None:
        return game(left, max(choose(lo, hi), max(o.max_score for o in left)))
    return game(left, right)


@st.composite
def guaranteed_games(
    draw: st.DrawFn, max_depth: int = 3, lo: int = -2, hi: int = 2, max_options: int = 3
) -> ScoringGame:
    """Hypothesis strategy: a random guaranteed game (see module doc)."""

    def choose(a: int, b: int) -> int:
        return draw(st.integers(a, b))

    return _build(choose, choose(0, max_depth), lo, hi, max_options)


def random_guaranteed(
    rng: random.Random, max_depth: int = 3, lo: int = -2, hi: int = 2, max_options: int = 3
) -> ScoringGame:
    """The same distribution as :func:`guaranteed_games`, from a seeded ``random.Random``."""
    return _build(rng.randint, rng.randint(0, max_depth), lo, hi, max_options)


# ---- reference implementations of the definitions (slow, no shortcuts) --------------------


def ref_add(g: ScoringGame, h: ScoringGame, memo: dict | None = None) -> ScoringGame:
    """Def. 5 literally: a side of G + H is atomic iff it is atomic in both, with the sum of
    the atoms; otherwise its options are G^X + H and G + H^X. Ordered pairs, no translation
    shortcut, so commutativity is a real statement about this function."""
    memo = {} if memo is None else memo
    key = (g.id, h.id)
    if key in memo:
        return memo[key]
    if g.left_atom is not None and h.left_atom is not None:
        left: list[ScoringGame] | int = g.left_atom + h.left_atom
    else:
        left = [ref_add(x, h, memo) for x in g.left] + [ref_add(g, y, memo) for y in h.left]
    if g.right_atom is not None and h.right_atom is not None:
        right: list[ScoringGame] | int = g.right_atom + h.right_atom
    else:
        right = [ref_add(x, h, memo) for x in g.right] + [ref_add(g, y, memo) for y in h.right]
    memo[key] = result = game(left, right)
    return result


def ref_conjugate(g: ScoringGame) -> ScoringGame:
    """``~G = <~G^R | ~G^L>`` with ``~(^r) = ^-r`` (L127), recomputed without any memo."""
    left = -g.right_atom if g.right_atom is not None else [ref_conjugate(o) for o in g.right]
    right = -g.left_atom if g.left_atom is not None else [ref_conjugate(o) for o in g.left]
    return game(left, right)


_ref_ge_memo: dict[tuple[int, int], bool] = {}


def ref_ge(g: ScoringGame, h: ScoringGame) -> bool:
    """Thm 44 exactly as stated in digest 004 Section 2.5: condition (1) on the two
    pass-allowed stops only, then (2) and (3); no number shortcut (Thm 27), no six-stop
    pre-test, no identity shortcut."""
    key = (g.id, h.id)
    found = _ref_ge_memo.get(key)
    if found is not None:
        return found
    a, b = g.stops, h.stops
    result = (
        a.Ls_under >= b.Ls_under
        and a.Rs_over >= b.Rs_over
        and all(
            any(ref_ge(gl, hl) for gl in g.left) or any(ref_ge(g, hlr) for hlr in hl.right)
            for hl in h.left
        )
        and all(
            any(ref_ge(gr, hr) for hr in h.right) or any(ref_ge(grl, h) for grl in gr.left)
            for gr in g.right
        )
    )
    _ref_ge_memo[key] = result
    return result


def zeroed(g: ScoringGame) -> ScoringGame:
    """``G~`` of Def. 18: G with every atom replaced by ``^0``."""
    if g.is_purely_atomic:
        return number(0)
    left = 0 if g.left_atom is not None else [zeroed(o) for o in g.left]
    right = 0 if g.right_atom is not None else [zeroed(o) for o in g.right]
    return game(left, right)


def leaves(g: ScoringGame) -> int:
    """The number of leaves of the game tree (purely atomic followers, with repetition)."""
    if g.is_purely_atomic:
        return 1
    return sum(leaves(o) for o in g.left + g.right)


# ---- a finite universe of test games X for the definition of >= (Def. 9) -----------------

_universe: list[ScoringGame] = []


def universe() -> list[ScoringGame]:
    """A finite stand-in for GS in Def. 9: a seeded sample of 600 of the 4117 guaranteed
    games born by day 1 with atoms in {-1, 0, 1}, plus one form of each of their 77 classes
    (the first enumerated, not the canonical form), the waiting moves ``s +- n^`` for n <= 5
    and s in {-1, 0, 1}, and 300 seeded random guaranteed games of birthday <= 3 with atoms in
    {-2, ..., 2}. Built once, sorted small first (so searches for a witness try small X
    first)."""
    if not _universe:
        from cgframework_guaranteed.canonical import canonical

        scores = (-1, 0, 1)
        day0 = [atomic(a, b) for a in scores for b in scores if a <= b]
        subsets = [[g for i, g in enumerate(day0) if mask >> i & 1] for mask in range(1, 64)]
        sides: list[list[ScoringGame] | int] = [*scores, *subsets]
        day1 = [game(left, right) for left in sides for right in sides]
        day1 = [g for g in day1 if g.guaranteed]
        assert len(day1) == 4117
        rng = random.Random(20261123)
        found: set[ScoringGame] = set(day0) | set(rng.sample(day1, 600))
        first: dict[ScoringGame, ScoringGame] = {}
        for g in day1:
            first.setdefault(canonical(g), g)
        found.update(first.values())
        from cgframework_guaranteed.games import waiting

        for n in range(-5, 6):
            for s in scores:
                found.add(waiting(n, s))
        for _ in range(300):
            found.add(random_guaranteed(rng))
        _universe.extend(sorted(found, key=lambda g: (g.birthday, len(str(g)), str(g))))
    return _universe


def refutes(g: ScoringGame, h: ScoringGame, x: ScoringGame) -> bool:
    """Whether X shows ``G >= H`` fails (Def. 9): ``Ls(G+X) < Ls(H+X)`` or
    ``Rs(G+X) < Rs(H+X)``."""
    from cgframework_guaranteed.games import add

    a, b = add(g, x).stops, add(h, x).stops
    return a.Ls < b.Ls or a.Rs < b.Rs


def find_refutation(g: ScoringGame, h: ScoringGame) -> ScoringGame | None:
    """The first X of :func:`universe` that refutes ``G >= H``, or ``None``."""
    for x in universe():
        if refutes(g, h, x):
            return x
    return None
