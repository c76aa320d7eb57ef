"""Helpers shared by the generic solvers: building the Solution and simplifying components."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from cgframework.extensions import SolveContext
from cgframework.game import (
    Move,
    Outcome,
    Player,
    Position,
    Ruleset,
    Score,
    as_score,
    format_position,
    options,
)
from cgframework.plugins import RulesetError
from cgframework.solution import Solution, Stats


class SolverError(ValueError):
    """The requested method cannot solve this ruleset or position."""


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


def finish_by_option_values(
    ruleset: Ruleset,
    position: Position,
    ctx: SolveContext,
    value: Any,
    method: str,
    value_of: Callable[[Position], Any],
) -> Solution:
    """:func:`finish` for a closed form: ``value`` is the position's value and ``value_of``
    gives each option's (an option of a position in the closed form's class is in the class);
    the winning moves of ``ctx.first`` are those to an option worth >= 0 for Left, <= 0 for
    Right."""
    from cgframework.values import ZERO

    left = ctx.first is Player.LEFT
    best = []
    for move in options(ruleset, position, ctx.first):
        after = value_of(move.result)
        if (after >= ZERO) if left else (after <= ZERO):
            best.append(move.text)
    return finish(
        ruleset,
        position,
        ctx,
        value=value,
        outcome=Outcome(value.outcome()),
        best_moves=best,
        method=method,
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


def exact_points(ruleset: Ruleset, position: Position, move: Move) -> Score:
    """The points of ``move`` (from ``position``), refused with a :class:`RulesetError`
    naming the ruleset and the move unless they are exact (``int`` or ``Fraction``): a float
    would make every score after it inexact. Called where points enter a search."""
    points = move.points
    if type(points) is int or type(points) is Fraction:
        return points
    raise RulesetError(
        f"ruleset {ruleset.name!r}: move {move.text!r} from "
        f"{format_position(ruleset, position)!r} earns {points!r} points "
        f"({type(points).__name__}); points must be exact: an int or a fractions.Fraction"
    )


IMPARTIAL_CHECKS = 256
"""How many distinct positions per search :func:`check_impartial` compares both players'
options on (a bounded cost: a ruleset wrongly marked impartial differs almost everywhere)."""


def check_impartial(ruleset: Ruleset, position: Position, key: Any, ctx: SolveContext) -> None:
    """For a ruleset marked ``impartial = True``: on the first :data:`IMPARTIAL_CHECKS`
    distinct positions a search expands, Left's and Right's options must lead to the same
    positions, else a :class:`RulesetError` names the ruleset, the position and a move only
    one player has (the generic solvers would silently give nimber values)."""
    if not ruleset.impartial:
        return
    checked = ctx.table.side("impartial-check")
    if len(checked) >= IMPARTIAL_CHECKS or key in checked:
        return
    checked[key] = True
    left = options(ruleset, position, Player.LEFT)
    right = options(ruleset, position, Player.RIGHT)
    left_results = {m.result for m in left}
    right_results = {m.result for m in right}
    if left_results == right_results:
        return
    only_left = [m.text for m in left if m.result not in right_results]
    only_right = [m.text for m in right if m.result not in left_results]
    who, moves = ("Left", only_left) if only_left else ("Right", only_right)
    raise RulesetError(
        f"ruleset {ruleset.name!r} is marked impartial = True, but in "
        f"{format_position(ruleset, position)!r} only {who} has the move {moves[0]!r}: "
        "set impartial = False, or give both players the same options"
    )
