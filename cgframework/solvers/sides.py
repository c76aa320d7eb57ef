"""``loopy-sides``: who wins a partizan loopy game under normal play, from its components'
sides, without the product graph of the components (Winning Ways ch. 11; Siegel,
Combinatorial Game Theory (2013), ch. VI).

Each component's reachable position graph becomes a loopy game and its onside and offside
are built as simplified stoppers (:mod:`cgframework.values.loopy.sides`). The sides of the
sum are folded one component at a time, (G + H)^+ = (G^+ + H^+)^+ and likewise offsides
(Siegel VI, sides of sums), so each step builds only the product of two small stoppers.
Then, with S = G^+ and T = G^- (Siegel VI; the sides comparison): Left moving first wins iff
not T <= 0, and draws iff T <= 0 but not S <= 0; Right moving first wins iff not S >= 0,
and draws iff S >= 0 but not T >= 0. A component whose sides are not found as stoppers
stops with one line (``--method retrograde`` always answers, on the product graph).
``auto`` takes this route for a large sum (:func:`solve_auto`), else retrograde.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from cgframework.extensions import SolveContext
from cgframework.game import Convention, Outcome, Player, Position, Ruleset, components, options
from cgframework.runtime.cache import TranspositionTable
from cgframework.solvers.common import SolverError, finish
from cgframework.solvers.retrograde import PositionGraph, solve_retrograde
from cgframework.values.loopy import LoopyGame, LoopyTooLarge, greater_equal, parse_loopy
from cgframework.values.loopy.sides import NotStopperSided, SidesLimit, offside, onside, sided

_ZERO = parse_loopy("0")


def position_game(
    ruleset: Ruleset, position: Position, table: TranspositionTable | None = None
) -> LoopyGame:
    """The reachable position graph of ``position`` as a loopy game (iterative; each state
    built charged to ``table``, when given)."""
    graph = PositionGraph(ruleset, [position], impartial=False, table=table)
    offsets, targets = graph.offsets, graph.targets
    n = graph.size // 2
    left = [[targets[a] // 2 for a in range(offsets[2 * p], offsets[2 * p + 1])] for p in range(n)]
    right = [
        [targets[a] // 2 for a in range(offsets[2 * p + 1], offsets[2 * p + 2])] for p in range(n)
    ]
    return LoopyGame.build(left, right, graph.index[graph.key(position)])


class SidesTable:
    """The sides of positions, summed over their components; components cached by key. The
    graphs built are charged to ``table`` (a solve's node budget and deadline), when given."""

    def __init__(self, ruleset: Ruleset, table: TranspositionTable | None = None) -> None:
        self.ruleset = ruleset
        self.table = table
        self.cache: dict[Hashable, tuple[LoopyGame, LoopyGame]] = {}
        self.games: dict[Hashable, LoopyGame] = {}

    def component_game(self, component: Position) -> LoopyGame:
        """The component's reachable position graph (built once per canonical key)."""
        key = self.ruleset.canonical_key(component)
        if key not in self.games:
            self.games[key] = position_game(self.ruleset, component, self.table)
        return self.games[key]

    def component_sides(self, component: Position) -> tuple[LoopyGame, LoopyGame]:
        key = self.ruleset.canonical_key(component)
        if key not in self.cache:
            game = self.component_game(component)
            try:
                self.cache[key] = onside(game), offside(game)
            except NotStopperSided as exc:
                raise SolverError(f"{exc}; use --method retrograde") from None
        return self.cache[key]

    def sides(self, position: Position) -> tuple[LoopyGame, LoopyGame]:
        """(S, T): the onside and offside of the whole position, as stoppers."""
        plus = minus = _ZERO
        for component in components(self.ruleset, position):
            p, m = self.component_sides(component)
            try:
                plus, minus = onside(plus + p), offside(minus + m)
            except NotStopperSided as exc:
                raise SolverError(f"{exc}; use --method retrograde") from None
        return plus, minus


def first_results(plus: LoopyGame, minus: LoopyGame) -> tuple[str, str]:
    """(with Left first, with Right first): ``L``, ``R`` or ``D``, read off the sides."""
    ge = greater_equal
    left_first = "L" if not ge(_ZERO, minus) else "R" if ge(_ZERO, plus) else "D"
    right_first = "R" if not ge(plus, _ZERO) else "L" if ge(minus, _ZERO) else "D"
    return left_first, right_first


SIDES_FROM_STATES = 50_000
"""``auto`` solves a partizan loopy sum by its sides when the product of its components'
reachable sizes reaches this (benchmarks/loopy.py: the retrograde product graph of 4 tokens
on a 20-vertex digraph, 194,481 by the product, takes about as long as the sides)."""


def solve_auto(ruleset: Ruleset, position: Position, ctx: SolveContext) -> Any:
    """``auto`` for a partizan loopy ruleset under normal play: ``retrograde`` on the product
    graph, unless the sum is large (:data:`SIDES_FROM_STATES`); then ``loopy-sides``, and
    ``retrograde`` after all when a component's sides are not found as stoppers or the sides
    search hits its limit. Both give the same fields (``left_first``, ``right_first``)."""

    table = SidesTable(ruleset, ctx.table)
    parts = components(ruleset, position)
    product = 1
    for part in parts:
        product *= table.component_game(part).size
        if product >= SIDES_FROM_STATES:
            try:
                return solve_sides(ruleset, position, ctx, table)
            except (SolverError, SidesLimit, LoopyTooLarge):
                break
    return solve_retrograde(ruleset, position, ctx)


def solve_sides(
    ruleset: Ruleset, position: Position, ctx: SolveContext, table: SidesTable | None = None
) -> Any:
    """Outcome with draws and the value ``onside & offside``, from the components' sides;
    best moves: to a win for the mover, else to a draw (none when every move loses)."""

    if ruleset.convention is not Convention.NORMAL or ruleset.impartial:
        raise SolverError("loopy-sides serves partizan rulesets under normal play")
    table = table or SidesTable(ruleset, ctx.table)
    plus, minus = table.sides(position)
    left_first, right_first = first_results(plus, minus)
    player = ctx.first
    mine = player.value
    moves = []
    for move in options(ruleset, position, player):
        reply = first_results(*table.sides(move.result))[0 if player is Player.RIGHT else 1]
        moves.append((move.text, "win" if reply == mine else "draw" if reply == "D" else "loss"))
    kind = next((k for k in ("win", "draw") if any(r == k for _, r in moves)), "loss")
    best = [text for text, r in moves if r == kind] if kind != "loss" else []
    if "D" in (left_first, right_first):
        outcome = Outcome.D
    else:
        outcome = Outcome.from_wins(left_first == "L", right_first == "R")
    return finish(
        ruleset,
        position,
        ctx,
        value=str(sided(plus, minus)),
        outcome=outcome,
        best_moves=best,
        method="loopy-sides",
        best_moves_result=kind,
        left_first=left_first,
        right_first=right_first,
    )
