"""Helpers shared by the generic solvers: building the Solution and simplifying components."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cgframework.extensions import SolveContext
from cgframework.game import Outcome, Position, Ruleset, as_score, format_position
from cgframework.solution import Solution, Stats


def finish(
    ruleset: Ruleset,
    position: Position,
    ctx: SolveContext,
    *,
    value: Any,
    outcome: Outcome | None,
    best_moves: Sequence[str],
    method: str,
    grundy: int | None = None,
    **extra: Any,
) -> Solution:
    """Package a result with the context's statistics (``seconds`` is set by the dispatcher)."""
    table = ctx.table
    return Solution(
        ruleset=ruleset.name,
        position=format_position(ruleset, position),
        convention=ruleset.convention,
        value=as_score(value),
        outcome=outcome,
        best_moves=tuple(best_moves),
        method=method,
        stats=Stats(nodes=table.nodes, cache_hits=table.hits, cache_misses=table.misses),
        first=ctx.first,
        grundy=grundy,
        extra=dict(extra),
    )


def finish_impartial(
    ruleset: Ruleset,
    position: Position,
    ctx: SolveContext,
    grundy: int,
    best_moves: Sequence[str],
    method: str,
) -> Solution:
    """A Solution for an impartial position of Grundy value ``grundy`` (value ``*grundy``)."""
    from cgframework.values import nimber

    return finish(
        ruleset,
        position,
        ctx,
        value=nimber(grundy),
        outcome=Outcome.N if grundy else Outcome.P,
        best_moves=best_moves,
        method=method,
        grundy=grundy,
    )


def simplified(ruleset: Ruleset, component: Position, ctx: SolveContext) -> Position:
    """The component after the registered equivalence-preserving rewrites (if enabled)."""
    return component if ctx.simplify is None else ctx.simplify(ruleset, component)
