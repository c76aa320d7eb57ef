"""The ``slices`` solver: any concatenation of lists, stacks, two-ended stacks, and unopened
paths and cycles (pizzas), exactly, without searching the opened parts.

Opened parts are replaced by their slice weights (Thm 2.11: tes(a) ~ <s>, st(a) ~ <s> + ev(x));
a list is played greedily (L109); an unopened path or cycle is opened only at its plateau
points (Thm 4.3, L773), after which it is a tes (cycle) or two stacks (path) (L20). So the
cost is O(n log n) for opened boards, O(n^2) for one pizza, and exponential only in the
number of unopened components (the digest's §2.7 sum solver, checked against minimax).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

import attrs

from cgframework import Solution, SolveContext, finish, options
from cgframework_pizza.board import Board, cycle_order, path_order
from cgframework_pizza.concat import every_move_outcome, opened_parts
from cgframework_pizza.slices import (
    cancel_pairs,
    list_value,
    plateau_points,
    st_decomposition,
    tes_slice_weights,
)

EVALUATE_EVERY_MOVE_UP_TO = 400
"""Up to this many legal moves ``best_moves`` lists every optimal move (each move valued);
beyond it, the moves the theory names: the maximum list entries, the ends whose end slice
is maximal, and the optimal plateau openings of unopened parts."""


@attrs.frozen
class Unopened:
    """An unbroached path or cycle, by its weights in order."""

    weights: tuple[Fraction, ...]
    cyclic: bool


@attrs.frozen
class Reduced:
    """A board as <weights> + ev(x) + unopened parts."""

    weights: tuple[Fraction, ...]
    x: Fraction
    unopened: tuple[Unopened, ...]


def opened_weights(weights: Sequence[Fraction], left: bool, right: bool) -> tuple[list, Fraction]:
    """Slice weights and ev-weight of a path whose available ends are ``left``/``right``."""
    if left and right:
        return tes_slice_weights(weights), Fraction(0)
    seq = list(weights) if left else list(reversed(weights))
    decomposition = st_decomposition(seq)
    return [s.weight for s in decomposition.slices], decomposition.x


@lru_cache(maxsize=64)
def reduce_board(board: Board) -> Reduced | None:
    """The reduced form, or None when a component is not a list element, stack, two-ended
    stack, unopened path or unopened cycle."""
    weights: list[Fraction] = []
    x = Fraction(0)
    unopened: list[Unopened] = []
    for part in board.components():
        avail = board.available & part
        order = path_order(board, part)
        if order is not None:
            ws = [board.weight(v) for v in order]
            if not avail:
                unopened.append(Unopened(tuple(ws), False))
                continue
            left, right = order[0] in avail, order[-1] in avail
            if len(order) > 1 and len(avail) != left + right:
                return None  # an available interior vertex: a general board
            slice_weights, ev = opened_weights(ws, left, right)
            weights.extend(slice_weights)
            x += ev
            continue
        order = cycle_order(board, part)
        if order is None or avail:
            return None
        unopened.append(Unopened(tuple(board.weight(v) for v in order), True))
    return Reduced(cancel_pairs(weights), x, tuple(sorted(unopened, key=repr)))


def after_opening(part: Unopened, i: int) -> tuple[list[Fraction], Fraction]:
    """Slice weights and ev-weight of an unopened part after its vertex i is taken."""
    a = part.weights
    if part.cyclic:
        rest = a[i + 1 :] + a[:i]
        return tes_slice_weights(rest), Fraction(0)
    weights: list[Fraction] = []
    x = Fraction(0)
    for side in (list(reversed(a[:i])), list(a[i + 1 :])):
        if side:
            d = st_decomposition(side)
            weights.extend(s.weight for s in d.slices)
            x += d.x
    return weights, x


class SliceValuer:
    """val(<N> + unopened U), memoised on (N with pairs cancelled, U)."""

    def __init__(self) -> None:
        self.memo: dict[tuple, Fraction] = {}
        self.nodes = 0
        self.hits = 0

    def value(self, reduced: Reduced) -> Fraction:
        """(1.3): the ev part is x less for an even rest, x more for an odd one."""
        core = self.core(reduced.weights, reduced.unopened)
        size = len(reduced.weights) + sum(len(u.weights) for u in reduced.unopened)
        return core + reduced.x if size % 2 else core - reduced.x

    def core(self, weights: tuple[Fraction, ...], unopened: tuple[Unopened, ...]) -> Fraction:
        if not unopened:
            return list_value(weights)
        key = (weights, unopened)
        found = self.memo.get(key)
        if found is not None:
            self.hits += 1
            return found
        self.nodes += 1
        best = None
        if weights:  # a list move: only the maximum matters (L109)
            best = weights[0] - self.value(Reduced(weights[1:], Fraction(0), unopened))
        for k, part in enumerate(unopened):
            rest = unopened[:k] + unopened[k + 1 :]
            for i in plateau_points(part.weights, part.cyclic):
                outcome = self.opening(weights, rest, part, i)
                best = outcome if best is None else max(best, outcome)
        self.memo[key] = best
        return best

    def opening(
        self, weights: tuple[Fraction, ...], rest: tuple[Unopened, ...], part: Unopened, i: int
    ) -> Fraction:
        new, x = after_opening(part, i)
        reduced = Reduced(cancel_pairs(list(weights) + new), x, rest)
        return part.weights[i] - self.value(reduced)


def applies(ruleset, position) -> bool:
    return isinstance(position, Board) and reduce_board(position) is not None


def solve_slices(ruleset, position: Board, ctx: SolveContext) -> Solution:
    """Value and optimal moves of a concatenation of lists, stacks, two-ended stacks,
    unopened paths and pizzas. With no unopened part, every move is valued exactly in
    O(n log n) in all (concat.py); otherwise each move's result is reduced again."""
    parts = opened_parts(position)
    if parts is not None:
        outcomes = dict(every_move_outcome(position, parts))
        value = outcomes.pop(-1)
        best = [f"#{v + 1}" for v in sorted(outcomes) if outcomes[v] == value]
        ctx.table.nodes += len(outcomes)
        return finish(
            ruleset, position, ctx, value=value, outcome=None, best_moves=best, method="slices"
        )
    valuer = SliceValuer()
    value = valuer.value(reduce_board(position))
    moves = list(options(ruleset, position, ctx.first))
    if len(moves) > EVALUATE_EVERY_MOVE_UP_TO:
        moves = [m for m in moves if _named_by_theory(position, m)]
    best = [m.text for m in moves if m.points - valuer.value(reduce_board(m.result)) == value]
    ctx.table.nodes += valuer.nodes
    ctx.table.hits += valuer.hits
    return finish(
        ruleset, position, ctx, value=value, outcome=None, best_moves=best, method="slices"
    )


def _named_by_theory(position: Board, move) -> bool:
    """Candidate moves for large boards: ends of opened parts, maximal list entries, and
    plateau points of unopened parts (Cor 2.16, L109, Thm 4.3)."""
    v = int(move.text[1:]) - 1
    part = next(p for p in position.components() if v in p)
    avail = position.available & part
    if not avail:
        order = path_order(position, part) or cycle_order(position, part)
        weights = [position.weight(u) for u in order]
        return order.index(v) in plateau_points(weights, path_order(position, part) is None)
    return True  # available vertices are ends of stacks or list entries
