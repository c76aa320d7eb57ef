"""Scoring play: the optimal final score difference for the player to move, by negamax.

The value of a position for the mover is the best, over the mover's options, of the points
the move earns minus the value of the result for the opponent. A player with no option either
ends the game (``ruleset.end_score`` gives the last score difference) or passes
(``end_score`` returns ``None``) while the other keeps moving. Memoised on
``(canonical_key, player)``, or on the key alone for impartial rulesets.
"""

from __future__ import annotations

from cgframework.extensions import SolveContext
from cgframework.game import Player, Position, Ruleset, Score, canonical_key, options
from cgframework.solvers.common import check_impartial, exact_points, finish


def score(ruleset: Ruleset, position: Position, player: Player, ctx: SolveContext) -> Score:
    """Optimal (mover's total - opponent's total) from here on, ``player`` to move."""
    if ctx.simplify is not None:
        position = ctx.simplify(ruleset, position)
    key = canonical_key(ruleset, position)

    def compute() -> Score:
        check_impartial(ruleset, position, key, ctx)
        return _best(ruleset, position, player, ctx)

    return ctx.table.memo(key if ruleset.impartial else (key, player), compute)


def _best(ruleset: Ruleset, position: Position, player: Player, ctx: SolveContext) -> Score:
    moves = options(ruleset, position, player)
    if not moves:
        return _stuck(ruleset, position, player, ctx)
    opponent = player.opponent
    return max(
        exact_points(ruleset, position, m) - score(ruleset, m.result, opponent, ctx) for m in moves
    )


def _stuck(ruleset: Ruleset, position: Position, player: Player, ctx: SolveContext) -> Score:
    end = ruleset.end_score(position, player)
    if end is not None:
        return end
    opponent = player.opponent
    if not options(ruleset, position, opponent):
        return 0  # nobody can move: a pass would loop for ever
    return -score(ruleset, position, opponent, ctx)


def solve_minimax(ruleset: Ruleset, position: Position, ctx: SolveContext):
    """Value for ``ctx.first`` to move, and all of that player's optimal moves."""
    player = ctx.first
    moves = options(ruleset, position, player)
    value = score(ruleset, position, player, ctx)
    best = [
        m.text
        for m in moves
        if exact_points(ruleset, position, m) - score(ruleset, m.result, player.opponent, ctx)
        == value
    ]
    return finish(
        ruleset, position, ctx, value=value, outcome=None, best_moves=best, method="minimax"
    )
