"""Reduced (canonical) forms of guaranteed scoring games, and invertibility.

The reductions of Larsson, Neto, Nowakowski & Santos (summary at L323-L336), stated for Left
and applied to Right through the conjugate:

* R1 domination (Thm 30): drop a Left option A <= another Left option.
* R2 non-atomic reversibility (Thm 32): A has a Right option B <= G with Left options: replace
  A by B's Left options. Tried before the atomic cases (digest 004 Section 8.4).
* R3 atomic reversibility (Thm 34(1)): every reversing option of A is left-atomic with atom
  l, and another Left option C has ``Rs_(C) = Ls_(G)``: drop A.
* R4 substitution (Thm 35): otherwise, if A is the only Left option and ``<^l | G^R>`` is
  guaranteed, G becomes ``<^l | G^R>`` (35(2)); else A becomes ``l - (n+1)^`` with the least
  n >= 0 such that ``G >= l - n^`` (35(1)).

A game is reduced when no rule changes it or any follower; equivalent reduced games are
identical (Thm 45), so the reduced form is the canonical form (Cor. 46). An inverse, when it
exists, is the conjugate (Thm 48); zugzwang games (``Ls < Rs``) have none (Thm 49).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import attrs

from cgframework_guaranteed.games import (
    ZERO,
    Score,
    ScoringGame,
    add,
    conjugate,
    game,
    require_guaranteed,
    waiting,
)
from cgframework_guaranteed.order import ge, le, left_protected, right_protected

_canon_memo: dict[int, ScoringGame] = {}

Step = Callable[[ScoringGame], ScoringGame | None]


def canonical(g: ScoringGame) -> ScoringGame:
    """The canonical form of a guaranteed game (raises ``NotGuaranteedError`` otherwise)."""
    require_guaranteed(g)
    return _canon(g)


def _canon(g: ScoringGame) -> ScoringGame:
    found = _canon_memo.get(g.id)
    if found is not None:
        return found
    if g.is_purely_atomic:
        result = g
    else:
        result = game(_canon_side(g.left, g.left_atom), _canon_side(g.right, g.right_atom))
        result = reduce_fully(result)
    _canon_memo[g.id] = result
    _canon_memo[result.id] = result
    return result


def _canon_side(options: tuple[ScoringGame, ...], atom):
    return atom if atom is not None else [_canon(o) for o in options]


def reduce_fully(g: ScoringGame, steps: Iterable[Step] | None = None) -> ScoringGame:
    """Apply the reductions at the top of ``g`` (whose options are canonical) until none
    applies. ``steps`` (default: every rule for Left, then for Right) sets the order, so a
    test can check that any order gives the same form."""
    rules = list(steps) if steps is not None else DEFAULT_STEPS
    while True:
        changed = False
        for step in rules:
            nxt = step(g)
            if nxt is not None:
                g, changed = nxt, True
        if not changed:
            return g


# ---- the four rules, for Left ------------------------------------------------------------


def drop_dominated(g: ScoringGame) -> ScoringGame | None:
    """R1 (Thm 30): remove every Left option that another Left option dominates."""
    keep = _maximal(g.left, ge)
    return None if keep is None else game(keep, _right_side(g))


def drop_dominated_right(g: ScoringGame) -> ScoringGame | None:
    """R1 for Right: remove every Right option that is >= another Right option."""
    keep = _maximal(g.right, le)
    return None if keep is None else game(_left_side(g), keep)


def _maximal(options: tuple[ScoringGame, ...], better) -> list[ScoringGame] | None:
    """The options no other option is ``better`` than, or ``None`` if that is all of them.
    Options are canonical and distinct, so none are equivalent and one pass keeps exactly
    the maximal ones."""
    if len(options) < 2:
        return None
    keep: list[ScoringGame] = []
    for a in options:
        if any(better(b, a) for b in keep):
            continue
        keep = [b for b in keep if not better(a, b)]
        keep.append(a)
    return None if len(keep) == len(options) else keep


@attrs.frozen
class _Side:
    """One player's view of the rules, so each rule is written once: the Left rules read
    as in the paper, the Right ones are their mirror images (conjugating instead would
    build every conjugate and compare each pair twice)."""

    options: Callable[[ScoringGame], tuple[ScoringGame, ...]]
    replies: Callable[[ScoringGame], tuple[ScoringGame, ...]]  # the opponent's options
    atom: Callable[[ScoringGame], Score | None]
    at_least: Callable[[ScoringGame, ScoringGame], bool]  # as good for this player
    rebuild: Callable[[ScoringGame, list], ScoringGame]  # g with this side replaced
    stop: Callable[[ScoringGame], Score]  # Ls_ for Left, Rs^ for Right
    reply_stop: Callable[[ScoringGame], Score]  # Rs_ for Left, Ls^ for Right
    waiting: Callable[[int, Score], ScoringGame]  # l - n^ for Left, r + n^ for Right


_LEFT = _Side(
    options=lambda g: g.left,
    replies=lambda g: g.right,
    atom=lambda g: g.left_atom,
    at_least=ge,
    rebuild=lambda g, side: game(side, _right_side(g)),
    stop=lambda g: g.stops.Ls_under,
    reply_stop=lambda g: g.stops.Rs_under,
    waiting=lambda n, atom: waiting(-n, atom),
)
_RIGHT = _Side(
    options=lambda g: g.right,
    replies=lambda g: g.left,
    atom=lambda g: g.right_atom,
    at_least=le,
    rebuild=lambda g, side: game(_left_side(g), side),
    stop=lambda g: g.stops.Rs_over,
    reply_stop=lambda g: g.stops.Ls_over,
    waiting=waiting,
)


def _bypass(g: ScoringGame, me: _Side) -> ScoringGame | None:
    for a in me.options(g):
        for b in me.replies(a):
            if me.options(b) and me.at_least(g, b):
                rest = [o for o in me.options(g) if o is not a]
                return me.rebuild(g, [*rest, *me.options(b)])
    return None


def _atomic(g: ScoringGame, me: _Side) -> ScoringGame | None:
    for a in me.options(g):
        reversing = [b for b in me.replies(a) if me.at_least(g, b)]
        if not reversing or any(me.options(b) for b in reversing):
            continue
        atom = me.atom(reversing[0])
        rest = [o for o in me.options(g) if o is not a]
        target = me.stop(g)
        if any(me.reply_stop(c) == target for c in rest):
            return me.rebuild(g, rest)  # 34(1)
        if not rest:
            collapsed = me.rebuild(g, atom)
            if collapsed.guaranteed:
                return collapsed  # 35(2)
        n = 0
        while not me.at_least(g, me.waiting(n, atom)):
            n += 1
            if n > g.birthday:
                raise AssertionError(f"Thm 35(1): no n <= b(G) for atom {atom} in {g}")
        substitute = me.waiting(n + 1, atom)
        if substitute is not a:
            return me.rebuild(g, [*rest, substitute])  # 35(1)
    return None


def bypass_reversible(g: ScoringGame) -> ScoringGame | None:
    """R2 (Thm 32): a Left option A with a Right option B <= G that has Left options is
    replaced by B's Left options."""
    return _bypass(g, _LEFT)


def bypass_reversible_right(g: ScoringGame) -> ScoringGame | None:
    """R2 for Right: a Right option A with a Left option B >= G that has Right options is
    replaced by B's Right options."""
    return _bypass(g, _RIGHT)


def atomic_reversible(g: ScoringGame) -> ScoringGame | None:
    """R3/R4 (Thm 34(1), 35(2), 35(1)) for a Left option all of whose reversing options are
    left-atomic with atom l (R2 has priority): drop it if another Left option C has
    ``Rs_(C) = Ls_(G)``; else collapse G to ``<^l | G^R>`` when A is alone and that is
    guaranteed; else replace A by ``l - (n+1)^``, n least with ``G >= l - n^``."""
    return _atomic(g, _LEFT)


def atomic_reversible_right(g: ScoringGame) -> ScoringGame | None:
    """R3/R4 for Right, the mirror image: reversing options right-atomic with atom r, the
    test ``Ls^(C) = Rs^(G)``, the collapse ``<G^L | ^r>``, the substitute ``r + (n+1)^``."""
    return _atomic(g, _RIGHT)


def _right_side(g: ScoringGame):
    return g.right_atom if g.right_atom is not None else g.right


def _left_side(g: ScoringGame):
    return g.left_atom if g.left_atom is not None else g.left


def for_right(step: Step) -> Step:
    """The Right version of a Left rule: apply it to the conjugate and conjugate back."""

    def right_step(g: ScoringGame) -> ScoringGame | None:
        out = step(conjugate(g))
        return None if out is None else conjugate(out)

    right_step.__name__ = f"{step.__name__}_right"
    return right_step


LEFT_STEPS: list[Step] = [drop_dominated, bypass_reversible, atomic_reversible]
DEFAULT_STEPS: list[Step] = [
    drop_dominated,
    drop_dominated_right,
    bypass_reversible,
    bypass_reversible_right,
    atomic_reversible,
    atomic_reversible_right,
]


def is_canonical(g: ScoringGame) -> bool:
    return canonical(g) is g


# ---- sums and inverses ------------------------------------------------------------------


def canonical_sum(games: Iterable[ScoringGame]) -> ScoringGame:
    """The canonical form of a sum, built incrementally: ``acc = canon(acc + canon(c))``, so
    no intermediate sum is larger than the product of two canonical forms (digest 004 S5)."""
    acc = ZERO
    for g in games:
        acc = canonical(add(acc, canonical(g)))
    return acc


_invertible_memo: dict[int, bool] = {}


def is_invertible(g: ScoringGame) -> bool:
    """Whether some H has ``G + H == 0``; then H is ``~G`` (Thm 48). Zugzwang games
    (``Ls < Rs``) are not (Thm 49); games with a single atom score are (normal-play images
    plus a number); otherwise test ``G + ~G == 0`` on the canonical form with Thm 27 (both
    ``>= 0`` and ``<= 0``), which builds a form of about size(G)^2 nodes."""
    c = canonical(g)
    found = _invertible_memo.get(c.id)
    if found is None:
        if c.is_purely_atomic:
            found = c.is_number  # Thm 48, case 1
        elif c.min_score == c.max_score:
            # every atom is m: G - m is the embedding of a normal-play game (Def. 16), whose
            # inverse is its conjugate (Thm 17 with (g - g)^ = g^ + ~g^); numbers invert
            found = True
        elif c.stops.Ls < c.stops.Rs:
            found = False
        else:
            s = add(c, conjugate(c))
            found = left_protected(s, 0) and right_protected(s, 0)
        _invertible_memo[c.id] = found
    return found


def inverse(g: ScoringGame) -> ScoringGame | None:
    """The additive inverse ``~canon(G)`` when G is invertible, else ``None``."""
    return conjugate(canonical(g)) if is_invertible(g) else None


def equivalent_by_canon(g: ScoringGame, h: ScoringGame) -> bool:
    """``G == H`` by identity of canonical forms (Thm 45)."""
    return canonical(g) is canonical(h)


def clear_caches() -> None:
    """Empty the plugin's operation memos (canonical forms, invertibility, comparisons, sums,
    conjugates, translations) so the next computation starts cold, e.g. in a benchmark.
    Interned games stay: memos rebuilt later map to the same objects."""
    from cgframework_guaranteed import games, order

    for memo in (
        _canon_memo,
        _invertible_memo,
        order._ge_memo,
        order._lrp_memo,
        order._rrp_memo,
        games._add_memo,
        games._conj_memo,
        games._translate_memo,
    ):
        memo.clear()
