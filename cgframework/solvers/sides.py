"""Partizan loopy games under normal play: their values, ``onside & offside`` (Winning Ways
ch. 11; Siegel, Combinatorial Game Theory (2013), ch. VI), and ``loopy-sides``, who wins
from the components' sides without the product graph of the components.

Each component's reachable position graph becomes a loopy game and its onside and offside
are built as simplified stoppers (:mod:`cgframework.values.loopy.sides`). The sides of the
sum are folded one component at a time, (G + H)^+ = (G^+ + H^+)^+ and likewise offsides
(Siegel VI, sides of sums), so each step builds only the product of two small stoppers.
The value is ``S & T`` with S = G^+ and T = G^- (the stopper S when S = T). Then (Siegel VI;
the sides comparison): Left moving first wins iff not T <= 0, and draws iff T <= 0 but not
S <= 0; Right moving first wins iff not S >= 0, and draws iff S >= 0 but not T >= 0.

:func:`loopy_value` gives every normal-play solve of a partizan loopy ruleset its value
(``retrograde`` after its outcomes, ``loopy-sides``, ``auto``), or says why there is none:
a component past :data:`~cgframework.values.loopy.sides.MAX_SIDES_NODES` positions or the
sides search's work limit, a sum past :data:`~cgframework.values.loopy.MAX_NODES`, a game
whose sides are not found as stoppers (Siegel VI: not every loopy game is stopper-sided).
``loopy-sides`` stops with one line there (``--method retrograde`` always gives who wins, on
the product graph); ``auto`` takes its route for a large sum (:func:`solve_auto`).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from cgframework.extensions import SolveContext
from cgframework.game import Convention, Outcome, Player, Position, Ruleset, components, options
from cgframework.runtime.budget import LimitExceeded
from cgframework.runtime.cache import TranspositionTable
from cgframework.solvers.common import SolverError, finish
from cgframework.solvers.retrograde import PositionGraph, solve_retrograde
from cgframework.values.loopy import LoopyGame, LoopyTooLarge, parse_loopy
from cgframework.values.loopy.sides import (
    MAX_SIDES_WORK,
    LoopyValue,
    NotStopperSided,
    SidesLimit,
    offside,
    onside,
    side_results,
    sided,
)

_ZERO = parse_loopy("0")
MAX_VALUE_POSITIONS = 20_000
"""A component with more reachable positions is given no value without trying (its graph
would have to be merged, simplified and compared: Fox and Geese on 6 x 6, 11,677 positions,
takes 2 s; a non-stopper must merge to at most
:data:`~cgframework.values.loopy.sides.MAX_SIDES_NODES` positions anyway)."""


def position_game(
    ruleset: Ruleset, position: Position, table: TranspositionTable | None = None
) -> LoopyGame:
    """The reachable position graph of ``position`` as a loopy game (iterative; each state
    built charged to ``table``, when given)."""
    graph = PositionGraph(ruleset, [position], impartial=False, table=table)
    return graph_game(graph, position)


def graph_game(graph: PositionGraph, position: Position) -> LoopyGame:
    """A partizan position graph (``impartial=False``) as the loopy game of ``position``, one
    of its positions: what Left and Right can move to from each."""
    if graph.impartial:
        raise ValueError("graph_game needs a partizan position graph (a state per player)")
    offsets, targets = graph.offsets, graph.targets
    n = graph.size // 2
    left = [[targets[a] // 2 for a in range(offsets[2 * p], offsets[2 * p + 1])] for p in range(n)]
    right = [
        [targets[a] // 2 for a in range(offsets[2 * p + 1], offsets[2 * p + 2])] for p in range(n)
    ]
    return LoopyGame.build(left, right, graph.index[graph.key(position)])


class SidesTable:
    """The sides of positions, summed over their components; components cached by key. The
    graphs built are charged to ``table`` (a solve's node budget and deadline), when given;
    each side's search is limited to ``work`` comparison states. Raises
    :class:`~cgframework.values.loopy.sides.NotStopperSided` for a component (or a partial
    sum) whose sides are not found as stoppers, :class:`SidesLimit` or
    :class:`~cgframework.values.loopy.LoopyTooLarge` past a limit."""

    def __init__(
        self,
        ruleset: Ruleset,
        table: TranspositionTable | None = None,
        work: int = MAX_SIDES_WORK,
    ) -> None:
        self.ruleset = ruleset
        self.table = table
        self.work = work
        self.cache: dict[Hashable, tuple[LoopyGame, LoopyGame]] = {}
        self.failed: dict[Hashable, NotStopperSided | SidesLimit | LoopyTooLarge] = {}
        self.games: dict[Hashable, LoopyGame] = {}

    def component_game(self, component: Position) -> LoopyGame:
        """The component's reachable position graph (built once per canonical key)."""
        key = self.ruleset.canonical_key(component)
        if key not in self.games:
            self.games[key] = position_game(self.ruleset, component, self.table)
        return self.games[key]

    def component_sides(self, component: Position) -> tuple[LoopyGame, LoopyGame]:
        key = self.ruleset.canonical_key(component)
        if key in self.failed:  # (a failed search is not tried twice)
            raise self.failed[key]
        if key not in self.cache:
            try:
                game = self.component_game(component)
                _check_size(game.size)
                self.cache[key] = onside(game, self.work), offside(game, self.work)
            except (NotStopperSided, SidesLimit, LoopyTooLarge) as exc:
                self.failed[key] = exc
                raise
        return self.cache[key]

    def sides(self, position: Position) -> tuple[LoopyGame, LoopyGame]:
        """(S, T): the onside and offside of the whole position, as stoppers."""
        sides: tuple[LoopyGame, LoopyGame] | None = None
        for component in components(self.ruleset, position):
            p, m = self.component_sides(component)
            if sides is None:  # (0 + G is G: no product graph)
                sides = p, m
            else:
                sides = onside(sides[0] + p, self.work), offside(sides[1] + m, self.work)
        return sides or (_ZERO, _ZERO)


def _check_size(positions: int) -> None:
    if positions > MAX_VALUE_POSITIONS:
        raise SidesLimit(
            f"a game of {positions} reachable positions is too large for its value "
            f"(at most {MAX_VALUE_POSITIONS}: a limit)"
        )


first_results = side_results
"""(with Left first, with Right first): ``L``, ``R`` or ``D``, read off the sides."""


def loopy_value(
    ruleset: Ruleset,
    position: Position,
    ctx: SolveContext,
    graph: PositionGraph | None = None,
    table: SidesTable | None = None,
) -> tuple[LoopyValue | None, str | None]:
    """``(value, None)``: the position's value ``onside & offside`` (a simplified stopper
    when the sides are equal), as ``cgf calc --universe loopy`` reads and writes it; or
    ``(None, why)`` when it cannot be had (see the module docstring). ``graph``: the
    position's own partizan graph, when a solve has built it (a single component's game is
    then not built again); ``table``: component sides found before. The deadline and node
    budget of ``ctx`` stop it as any search (exit 3)."""
    table = table or SidesTable(ruleset, ctx.table)
    if graph is not None and not graph.impartial:
        parts = components(ruleset, position)
        if len(parts) == 1 and graph.key(parts[0]) in graph.index:
            key = ruleset.canonical_key(parts[0])
            if key not in table.games and key not in table.cache:
                try:
                    _check_size(graph.size // 2)
                except SidesLimit as exc:
                    return None, str(exc)
                table.games[key] = graph_game(graph, parts[0])
    try:
        plus, minus = table.sides(position)
    except (NotStopperSided, SidesLimit, LoopyTooLarge) as exc:
        return None, str(exc)
    return writable(sided(plus, minus))


def writable(value: LoopyValue) -> tuple[LoopyValue | None, str | None]:
    """``(the value read back from its text, None)``, or ``(None, why)`` for a value too
    large to write out. The text is the value's JSON form, so the answer is what a store or
    ``cgf calc --universe loopy`` reads back from it, the same graph (one that cannot be
    read back is no answer)."""
    text = str(value)
    if text.startswith("<"):  # "<loopy game of N positions, too large to write out>"
        return None, f"the value is {text.strip('<>')}"
    try:
        return parse_loopy(text), None
    except (ValueError, LimitExceeded) as exc:  # (a printer's slip: never expected)
        return None, f"the value's text {text[:60]!r} does not read back: {exc}"


SIDES_FROM_STATES = 50_000
"""``auto`` solves a partizan loopy sum by its sides when the product of its components'
reachable sizes reaches this (benchmarks/loopy.py: the retrograde product graph of 4 tokens
on a 20-vertex digraph, 194,481 by the product, takes about as long as the sides)."""


def solve_auto(ruleset: Ruleset, position: Position, ctx: SolveContext) -> Any:
    """``auto`` for a partizan loopy ruleset under normal play: ``retrograde`` on the product
    graph, then the value from the components' sides, unless the sum is large
    (:data:`SIDES_FROM_STATES`); then ``loopy-sides``, and ``retrograde`` after all when a
    component's sides are not found as stoppers or the sides search hits its limit (the
    value then unknown, and why). Both give the same fields (``value``, ``left_first``,
    ``right_first``, and ``value_unknown`` when there is no value)."""

    table = SidesTable(ruleset, ctx.table)
    parts = components(ruleset, position)
    if len(parts) <= 1:  # no sum: its own graph, built once (the value step reuses it)
        return solve_retrograde_valued(ruleset, position, ctx, table)
    product = 1
    for part in parts:
        product *= table.component_game(part).size
        if product >= SIDES_FROM_STATES:
            try:
                return solve_sides(ruleset, position, ctx, table)
            except (SolverError, SidesLimit, LoopyTooLarge):
                break  # (the value step finds the failure in the table, not again)
    return solve_retrograde_valued(ruleset, position, ctx, table)


def solve_retrograde_valued(
    ruleset: Ruleset, position: Position, ctx: SolveContext, table: SidesTable | None = None
) -> Any:
    """``retrograde`` for a partizan ruleset under normal play: who wins on the reachable
    graph, then the value from the components' sides (:func:`loopy_value`; ``table``: the
    sides found before)."""

    def value_of(graph: PositionGraph) -> tuple[LoopyValue | None, str | None]:
        return loopy_value(ruleset, position, ctx, graph=graph, table=table)

    return solve_retrograde(ruleset, position, ctx, partizan_value=value_of)


def solve_sides(
    ruleset: Ruleset, position: Position, ctx: SolveContext, table: SidesTable | None = None
) -> Any:
    """Outcome with draws and the value ``onside & offside``, from the components' sides;
    best moves: to a win for the mover, else to a draw (none when every move loses)."""

    if ruleset.convention is not Convention.NORMAL or ruleset.impartial:
        raise SolverError("loopy-sides serves partizan rulesets under normal play")
    table = table or SidesTable(ruleset, ctx.table)
    try:
        plus, minus = table.sides(position)
    except NotStopperSided as exc:
        raise SolverError(f"{exc}; use --method retrograde") from None
    left_first, right_first = first_results(plus, minus)
    player = ctx.first
    mine = player.value
    moves = []
    for move in options(ruleset, position, player):
        try:
            after = table.sides(move.result)
        except NotStopperSided as exc:
            raise SolverError(f"{exc}; use --method retrograde") from None
        reply = first_results(*after)[0 if player is Player.RIGHT else 1]
        moves.append((move.text, "win" if reply == mine else "draw" if reply == "D" else "loss"))
    kind = next((k for k in ("win", "draw") if any(r == k for _, r in moves)), "loss")
    best = [text for text, r in moves if r == kind] if kind != "loss" else []
    if "D" in (left_first, right_first):
        outcome = Outcome.D
    else:
        outcome = Outcome.from_wins(left_first == "L", right_first == "R")
    value, unknown = writable(sided(plus, minus))
    return finish(
        ruleset,
        position,
        ctx,
        value=value,
        outcome=outcome,
        best_moves=best,
        method="loopy-sides",
        best_moves_result=kind,
        left_first=left_first,
        right_first=right_first,
        **({} if unknown is None else {"value_unknown": unknown}),
    )
