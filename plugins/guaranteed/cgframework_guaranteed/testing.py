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
from fractions import Fraction

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


def day1_forms(scores: tuple[int, ...]) -> list[ScoringGame]:
    """Every guaranteed game born by day 1 (day-0 games included) with atoms in ``scores``."""
    day0 = [atomic(a, b) for a in scores for b in scores if a <= b]
    n = len(day0)
    subsets = [[g for i, g in enumerate(day0) if mask >> i & 1] for mask in range(1, 2**n)]
    sides: list[list[ScoringGame] | int] = [*scores, *subsets]
    forms = [game(left, right) for left in sides for right in sides]
    return [g for g in forms if g.guaranteed]


def universe() -> list[ScoringGame]:
    """A finite stand-in for GS in Def. 9, built once from fixed seeds and sorted small first
    (so a search for a witness tries small X first):

    * a sample of 600 of the 4117 guaranteed games born by day 1 with atoms in {-1, 0, 1},
      plus one form of each of their 77 classes (the first enumerated, not the canonical);
    * samples of 200 day-1 games with atoms {-3, 0, 3} and with atoms {-10, 0, 10} (some
      failures of >= need a large score swing, e.g. 2 vs <-2|^0> needs <^-s|s> with s > 4);
    * the waiting moves ``s +- n^`` for n <= 5 and s in {-1, 0, 1};
    * 300 random guaranteed games of birthday <= 3 with atoms in {-2, ..., 2}, and 150 with
      atoms in {-10, ..., 10}."""
    if not _universe:
        from cgframework_guaranteed.canonical import canonical
        from cgframework_guaranteed.games import waiting

        rng = random.Random(20261123)
        day1 = day1_forms((-1, 0, 1))
        assert len(day1) == 4117
        found: set[ScoringGame] = set(rng.sample(day1, 600))
        first: dict[ScoringGame, ScoringGame] = {}
        for g in day1:
            first.setdefault(canonical(g), g)
        found.update(first.values())
        for scale in (3, 10):
            found.update(rng.sample(day1_forms((-scale, 0, scale)), 200))
        for n in range(-5, 6):
            for s in (-1, 0, 1):
                found.add(waiting(n, s))
        found.update(random_guaranteed(rng) for _ in range(300))
        found.update(random_guaranteed(rng, lo=-10, hi=10) for _ in range(150))
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


# ---- witnesses built as in the proof of Thm 44 (Lemmas 41 and 43: linked games) ------------


def _stop(g: ScoringGame, kind: str) -> Fraction | int:
    return g.stops.Ls if kind == "Ls" else g.stops.Rs


def witness(g: ScoringGame, h: ScoringGame, kind: str, depth: int = 4) -> ScoringGame | None:
    """A guaranteed X with ``Ls(G+X) < Ls(H+X)`` (``kind="Ls"``) or ``Rs(G+X) < Rs(H+X)``
    (``kind="Rs"``), or ``None``. Tries waiting moves (Thm 44 (1), Lemma 23), then builds X
    from the failing condition of Thm 44 as in the proof (Lemma 41: a G^R to which H is
    linked gives an Rs witness, an H^L linked to G an Ls witness; Lemma 43 builds the linking
    game from witnesses for smaller pairs), then searches :func:`universe`."""
    from cgframework_guaranteed.games import add, waiting
    from cgframework_guaranteed.order import ge

    def works(x: ScoringGame | None) -> bool:
        return x is not None and x.guaranteed and _stop(add(g, x), kind) < _stop(add(h, x), kind)

    n = max(g.birthday, h.birthday)
    for x in (waiting(-n), waiting(n)):
        if works(x):
            return x
    if depth > 0:
        if kind == "Rs":
            for gr in g.right:
                if not any(ge(gr, hr) for hr in h.right) and not any(ge(x, h) for x in gr.left):
                    t = _link(h, gr, depth - 1)  # Rs(G+T) <= Ls(G^R+T) < 0 < Rs(H+T)
                    if works(t):
                        return t
        else:
            for hl in h.left:
                if not any(ge(x, hl) for x in g.left) and not any(ge(g, x) for x in hl.right):
                    t = _link(hl, g, depth - 1)  # Ls(G+T) < 0 < Rs(H^L+T) <= Ls(H+T)
                    if works(t):
                        return t
    for x in universe():
        if works(x):
            return x
    return None


def _link(p: ScoringGame, q: ScoringGame, depth: int) -> ScoringGame | None:
    """A guaranteed T with ``Ls(Q+T) < 0 < Rs(P+T)`` ("P is linked to Q"), built as
    ``<Y..., -N | Z..., M>``: for each Q^L a Z with ``Ls(Q^L+Z) < 0 < Ls(P+Z)``, for each P^R
    a Y with ``Rs(Q+Y) < 0 < Rs(P^R+Y)`` (witnesses for smaller pairs, shifted by a number
    so that 0 falls between), and numbers -N, M so far out that they are bad moves."""
    from cgframework_guaranteed.games import add

    lefts: list[ScoringGame] = [number(-q.max_score - 1)]
    rights: list[ScoringGame] = [number(-p.min_score + 1)]
    for ql in q.left:
        z = witness(ql, p, "Ls", depth)
        if z is None:
            return None
        mid = Fraction(add(ql, z).stops.Ls + add(p, z).stops.Ls) / 2
        rights.append(add(z, number(-mid)))
    for pr in p.right:
        y = witness(q, pr, "Rs", depth)
        if y is None:
            return None
        mid = Fraction(add(q, y).stops.Rs + add(pr, y).stops.Rs) / 2
        lefts.append(add(y, number(-mid)))
    t = game(lefts, rights)
    if add(q, t).stops.Ls < 0 < add(p, t).stops.Rs:
        return t
    return None
