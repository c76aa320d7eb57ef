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

from cgframework_guaranteed.games import (
    ZERO,
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


def bypass_reversible(g: ScoringGame) -> ScoringGame | None:
    """R2 (Thm 32): a Left option A with a Right option B <= G that has Left options is
    replaced by B's Left options."""
    for a in g.left:
        for b in a.right:
            if b.left and ge(g, b):
                rest = [o for o in g.left if o is not a]
                return game([*rest, *b.left], _right_side(g))
    return None


def atomic_reversible(g: ScoringGame) -> ScoringGame | None:
    """R3/R4 (Thm 34(1), 35(2), 35(1)) for a Left option all of whose reversing options are
    left-atomic (R2 has already been tried)."""
    for a in g.left:
        reversing = [b for b in a.right if ge(g, b)]
        if not reversing or any(b.left for b in reversing):
            continue
        atom = reversing[0].left_atom
        rest = [o for o in g.left if o is not a]
        target = g.stops.Ls_under
        if any(c.stops.Rs_under == target for c in rest):
            return game(rest, _right_side(g))  # 34(1)
        if not rest:
            collapsed = game(atom, _right_side(g))
            if collapsed.guaranteed:
                return collapsed  # 35(2)
        n = 0
        while not ge(g, waiting(-n, atom)):
            n += 1
            if n > g.birthday:
                raise AssertionError(f"Thm 35(1): no n <= b(G) with G >= {atom} - n^ for {g}")
        substitute = waiting(-(n + 1), atom)
        if substitute is not a:
            return game([*rest, substitute], _right_side(g))  # 35(1)
    return None


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
    for_right(bypass_reversible),
    atomic_reversible,
    for_right(atomic_reversible),
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
