"""Normal and misère play by brute force: who wins, and the winning moves.

Under normal play the player who cannot move loses; under misère play he wins. Works for any
ruleset (partizan or impartial); memoised on ``(canonical_key, player)``.
"""

from __future__ import annotations

from cgframework.extensions import SolveContext
from cgframework.game import Convention, Outcome, Player, Position, Ruleset, canonical_key, options
from cgframework.solvers.common import finish


def mover_wins(
    ruleset: Ruleset, position: Position, player: Player, ctx: SolveContext, misere: bool
) -> bool:
    """Does ``player``, to move, win with perfect play?"""
    if ctx.simplify is not None:
        position = ctx.simplify(ruleset, position)
    key = canonical_key(ruleset, position)
    opponent = player.opponent

    def search() -> bool:
        moves = options(ruleset, position, player)
        if not moves:
            return misere
        return any(not mover_wins(ruleset, m.result, opponent, ctx, misere) for m in moves)

    return ctx.table.memo((key, misere) if ruleset.impartial else (key, player, misere), search)


def outcome_of(ruleset: Ruleset, position: Position, ctx: SolveContext, misere: bool) -> Outcome:
    left = mover_wins(ruleset, position, Player.LEFT, ctx, misere)
    right = left if ruleset.impartial else mover_wins(ruleset, position, Player.RIGHT, ctx, misere)
    return Outcome.from_wins(left, right)


def solve_outcome(ruleset: Ruleset, position: Position, ctx: SolveContext):
    """Outcome class and ``ctx.first``'s winning moves; misère when the ruleset says so."""
    misere = ruleset.convention is Convention.MISERE
    outcome = outcome_of(ruleset, position, ctx, misere)
    player = ctx.first
    best = [
        m.text
        for m in options(ruleset, position, player)
        if not mover_wins(ruleset, m.result, player.opponent, ctx, misere)
    ]
    return finish(
        ruleset,
        position,
        ctx,
        value=outcome.value,
        outcome=outcome,
        best_moves=best,
        method="outcome",
    )
