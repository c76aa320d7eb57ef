"""Partizan normal play: the canonical value of a position, components summed.

Each component's value is {values of Left's options | values of Right's options} reduced to
canonical form (Siegel, CGT II.2); a sum's value is the sum of its components' values.
"""

from __future__ import annotations

from cgframework.extensions import SolveContext
from cgframework.game import Outcome, Player, Position, Ruleset, components, options
from cgframework.solvers.common import finish, simplified
from cgframework.values import ZERO, CanonicalGame, game


def canonical_value(ruleset: Ruleset, position: Position, ctx: SolveContext) -> CanonicalGame:
    """Sum of the canonical values of the position's components."""
    total = ZERO
    for comp in components(ruleset, position):
        total = total + _component_value(ruleset, simplified(ruleset, comp, ctx), ctx)
    return total


def _component_value(ruleset: Ruleset, component: Position, ctx: SolveContext) -> CanonicalGame:
    def values_of(player: Player) -> list[CanonicalGame]:
        return [canonical_value(ruleset, m.result, ctx) for m in ruleset.options(component, player)]

    def form() -> CanonicalGame:
        lefts = values_of(Player.LEFT)
        return game(lefts, lefts if ruleset.impartial else values_of(Player.RIGHT))

    return ctx.table.memo(("c", ruleset.canonical_key(component)), form)


def winning_moves(
    ruleset: Ruleset, position: Position, player: Player, ctx: SolveContext
) -> list[str]:
    """Moves after which ``player`` wins going second: to G^L >= 0 for Left, G^R <= 0 for Right."""
    best = []
    for m in options(ruleset, position, player):
        v = canonical_value(ruleset, m.result, ctx)
        if (v >= ZERO) if player is Player.LEFT else (v <= ZERO):
            best.append(m.text)
    return best


def solve_canonical(ruleset: Ruleset, position: Position, ctx: SolveContext):
    """Canonical value, its outcome class and ``ctx.first``'s winning moves."""
    value = canonical_value(ruleset, position, ctx)
    best = winning_moves(ruleset, position, ctx.first, ctx)
    nim = value.nim_value
    return finish(
        ruleset,
        position,
        ctx,
        value=value,
        outcome=Outcome(value.outcome()),
        best_moves=best,
        method="canonical",
        grundy=nim if ruleset.impartial else None,
    )
