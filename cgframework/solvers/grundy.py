"""Impartial normal play: Grundy values by the mex rule, components nim-summed.

Sprague–Grundy: a position is equivalent to the nimber *g, g = mex of its options' values,
and a sum's value is the nim-sum of its components' values (Winning Ways ch. 4).
"""

from __future__ import annotations

from cgframework.extensions import SolveContext
from cgframework.game import Player, Position, Ruleset, components, options
from cgframework.solvers.common import finish_impartial, simplified
from cgframework.values import mex


def grundy_value(ruleset: Ruleset, position: Position, ctx: SolveContext) -> int:
    """Nim-sum of the Grundy values of the position's components."""
    total = 0
    for comp in components(ruleset, position):
        total ^= _component_grundy(ruleset, simplified(ruleset, comp, ctx), ctx)
    return total


def _component_grundy(ruleset: Ruleset, component: Position, ctx: SolveContext) -> int:
    return ctx.table.memo(
        ("g", ruleset.canonical_key(component)),
        lambda: mex(
            grundy_value(ruleset, m.result, ctx) for m in ruleset.options(component, Player.LEFT)
        ),
    )


def solve_grundy(ruleset: Ruleset, position: Position, ctx: SolveContext):
    """Grundy value (as ``grundy`` and as the nimber ``value``) and the moves to zero."""
    g = grundy_value(ruleset, position, ctx)
    best = [
        m.text
        for m in options(ruleset, position, ctx.first)
        if grundy_value(ruleset, m.result, ctx) == 0
    ]
    return finish_impartial(ruleset, position, ctx, g, best, "grundy")
