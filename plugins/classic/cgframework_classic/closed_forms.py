"""Specialised solvers of the cake games, Wythoff's game and partizan subtraction games, each
checked against the generic search in ``tests/test_cakes.py``, ``test_wythoff.py`` and
``test_partizan_subtraction.py``."""

from __future__ import annotations

from collections.abc import Callable

from cgframework import (
    Player,
    Solution,
    SolveContext,
    finish,
    finish_by_option_values,
    finish_impartial,
)
from cgframework.values import ZERO, CanonicalGame, game, nim_sum, number
from cgframework_classic.cakes import Cakes, counted_move, cutcake_value, maundy_value
from cgframework_classic.partizan_subtraction import PartizanHeaps
from cgframework_classic.wythoff import TABLE, Queens, pair_results


def _parts(position) -> list:
    return list(getattr(position, "parts", (position,)))


def _cake_solution(
    ruleset, position, ctx: SolveContext, value_of: Callable[[int, int], int], method: str
) -> Solution:
    """A sum of cakes worth integers ``value_of(rows, cols)``: the total, and the winning
    moves found from each cut's change of the total (O(1) a cut: a Maundy cut into k equal
    pieces adds k times one piece's value), with the ruleset's move texts."""
    parts: list[Cakes] = _parts(position)
    total = sum(value_of(r, c) for part in parts for r, c in part.pieces)
    left = ctx.first is Player.LEFT
    best = []
    for index, part in enumerate(parts, 1):
        seen = set()
        for r, c in part.pieces:
            if (r, c) in seen:
                continue
            seen.add((r, c))
            rest = total - value_of(r, c)
            for split in ruleset.cut_sizes(c if left else r):
                pieces = {((r, n) if left else (n, c)): k for n, k in split.items()}
                after = rest + sum(value_of(*p) * k for p, k in pieces.items())
                if (after >= 0) if left else (after <= 0):
                    text = counted_move((r, c), pieces)
                    best.append(text if len(parts) == 1 else f"{index}:{text}")
    value = number(total)
    return finish(
        ruleset,
        position,
        ctx,
        value=value,
        outcome=value.outcome(),
        best_moves=best,
        method=method,
    )


def solve_cutcake(ruleset, position, ctx: SolveContext) -> Solution:
    """Cutcake from the Winning Ways table (:func:`~cgframework_classic.cakes.cutcake_value`):
    an integer per cake, summed; O(1) a cake, O(side) a cake for the winning moves."""
    return _cake_solution(ruleset, position, ctx, cutcake_value, "cutcake-table")


def solve_maundy_cake(ruleset, position, ctx: SolveContext) -> Solution:
    """Maundy Cake from the prime factors of each side
    (:func:`~cgframework_classic.cakes.maundy_value`): an integer per cake, summed."""
    return _cake_solution(ruleset, position, ctx, maundy_value, "maundy-factors")


def solve_wythoff(ruleset, position, ctx: SolveContext) -> Solution:
    """Wythoff's game: each pair's Grundy value from the row-by-row mex table
    (:class:`~cgframework_classic.wythoff.GrundyTable`, to 4 * 10^6 squares, kept between
    calls and grown only by the squares a pair lacks), nim-summed; the winning moves take a
    pair to one of Grundy value its own xor the total."""
    pairs = [p for part in _parts(position) for p in part.pairs]
    total = nim_sum(*(TABLE(a, b, ctx.budget) for a, b in pairs))
    best: list[str] = []
    if total:
        parts: list[Queens] = _parts(position)
        for index, part in enumerate(parts, 1):
            seen = set()
            for a, b in part.pairs:
                if (a, b) in seen:
                    continue
                seen.add((a, b))
                target = total ^ TABLE(a, b)
                for x, y in pair_results(a, b):
                    if TABLE(x, y) == target:
                        text = f"{a},{b}->{x},{y}"
                        best.append(text if len(parts) == 1 else f"{index}:{text}")
    return finish_impartial(ruleset, position, ctx, total, best, "wythoff-table")


class ValueSequence:
    """Canonical values of the heaps 0, 1, 2, ... of one partizan subtraction game, extended
    on demand in a loop: G(n) = {G(n - s), s in S_L, s <= n | G(n - s), s in S_R, s <= n}."""

    def __init__(self, left: tuple[int, ...], right: tuple[int, ...]) -> None:
        self.left, self.right = left, right
        self.values: list[CanonicalGame] = []

    def __getitem__(self, n: int) -> CanonicalGame:
        values = self.values
        while len(values) <= n:
            k = len(values)
            values.append(
                game(
                    [values[k - s] for s in self.left if s <= k],
                    [values[k - s] for s in self.right if s <= k],
                )
            )
        return values[n]


MAX_SEQUENCE = 200_000
"""Largest heap the partizan subtraction solver builds the values up to."""

_SEQUENCES: dict[tuple[tuple[int, ...], tuple[int, ...]], ValueSequence] = {}


def value_sequence(left: tuple[int, ...], right: tuple[int, ...]) -> ValueSequence:
    """The (process-wide) value sequence of the game with subtraction sets ``left``, ``right``."""
    key = (left, right)
    if key not in _SEQUENCES:
        _SEQUENCES[key] = ValueSequence(left, right)
    return _SEQUENCES[key]


def _partizan_total(position) -> CanonicalGame:
    total = ZERO
    for part in _parts(position):
        seq = value_sequence(part.left, part.right)
        for n in part.sizes:
            total = total + seq[n]
    return total


def partizan_applies(ruleset, position) -> bool:
    """Heaps up to :data:`MAX_SEQUENCE` (past it the solver would build a very long table)."""
    parts: list[PartizanHeaps] = _parts(position)
    return all(n <= MAX_SEQUENCE for part in parts for n in part.sizes)


def solve_partizan_subtraction(ruleset, position, ctx: SolveContext) -> Solution:
    """Each heap's canonical value from the game's value sequence (a loop over heap sizes,
    no recursion), summed; the winning moves from the options' values."""
    value = _partizan_total(position)
    return finish_by_option_values(ruleset, position, ctx, value, "value-sequence", _partizan_total)
