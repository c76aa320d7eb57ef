"""Specialised solvers: ``influence-graph`` (any digraph) and ``influence-segments``.

Both reduce a position to its relevant core (forced vertices given to their owners,
Definition 6, L183-L195; footnote 6, L181) and search multisets of interned components with
the :class:`~cgframework_influence.engine.Engine`. Each reports the paper's six scores
(L94-L127): s1L, s2L, s1R, s2R, Ls, Rs.
"""

from __future__ import annotations

from typing import Any

from cgframework import Player, Solution, SolveContext, Sum, finish, options
from cgframework.runtime.budget import SearchBudget
from cgframework_influence.engine import Engine, GraphComponents, relevant_core
from cgframework_influence.graph import InfluenceGraph, disjoint_union, weak_components
from cgframework_influence.segments import SegmentComponents


def as_graph(position: InfluenceGraph | Sum) -> InfluenceGraph:
    """A sum as one graph (the disjoint union of its parts)."""
    if isinstance(position, Sum):
        parts = [p for p in position.parts if p.n]
        return disjoint_union(parts) if parts else InfluenceGraph("", ())
    return position


def scores(ls: int, rs: int, n: int) -> dict[str, int]:
    """The six scores from Ls, Rs and |V| (Lemma 5 parity, L159; constant sum, L96-L98)."""
    assert (ls - n) % 2 == 0 and (rs - n) % 2 == 0, "Lemma 5 parity"
    s1l, s2l = (ls + n) // 2, (rs + n) // 2
    return {"s1L": s1l, "s2L": s2l, "s1R": n - s2l, "s2R": n - s1l, "Ls": ls, "Rs": rs}


class Analyser:
    """(Ls, Rs) of whole positions; one engine shared over many positions."""

    def __init__(
        self, universe: GraphComponents | SegmentComponents, budget: SearchBudget | None = None
    ) -> None:
        self.universe = universe
        self.budget = budget
        self.engine = Engine(universe, budget)
        self.fallback: Analyser | None = None

    def state(self, g: InfluenceGraph) -> tuple[tuple[int, ...], int] | None:
        core, offset = relevant_core(g)
        ids = []
        for part in weak_components(g.succ_masks(), g.pred_masks(), core):
            cid = self.component(g, part)
            if cid is None:
                return None
            ids.append(cid)
        return self.engine.normal(ids), offset

    def component(self, g: InfluenceGraph, mask: int) -> int | None:
        u = self.universe
        if isinstance(u, SegmentComponents):
            return u.recognise(g, mask)
        return u.add_graph(g.induced(mask))

    def ls_rs(self, position: InfluenceGraph | Sum) -> tuple[int, int]:
        found = self.state(as_graph(position))
        if found is None:  # not segments and cycles: the general solver
            if self.fallback is None:
                self.fallback = Analyser(GraphComponents(), self.budget)
            return self.fallback.ls_rs(position)
        state, offset = found
        ls, rs = self.engine.ls_rs(state)
        return ls + offset, rs + offset

    def value(self, position: InfluenceGraph | Sum, player: Player) -> int:
        """Mover's score minus the other's, ``player`` to move."""
        ls, rs = self.ls_rs(position)
        return ls if player is Player.LEFT else -rs


def solution(ruleset, position, ctx: SolveContext, analyser: Analyser, method: str) -> Solution:
    ls, rs = analyser.ls_rs(position)
    n = as_graph(position).n
    value = ls if ctx.first is Player.LEFT else -rs
    best = [
        m.text
        for m in options(ruleset, position, ctx.first)
        if m.points - analyser.value(m.result, ctx.first.opponent) == value
    ]
    ctx.table.nodes += analyser.engine.nodes
    ctx.table.hits += analyser.engine.hits
    ctx.table.misses += analyser.engine.nodes
    return finish(
        ruleset,
        position,
        ctx,
        value=value,
        outcome=None,
        best_moves=best,
        method=method,
        scores=scores(ls, rs, n),
    )


def solve_graph(ruleset, position, ctx: SolveContext) -> Solution:
    """Any digraph: forced vertices, Rmv moves, Cor. 13 pruning, weak components, memo on
    canonical component multisets, H + (-H) cancellation."""
    analyser = Analyser(GraphComponents(), ctx.table.budget)
    return solution(ruleset, position, ctx, analyser, "influence-graph")


_SEGMENTS = SegmentComponents()


def segments_apply(ruleset, position: Any) -> bool:
    g = as_graph(position)
    return Analyser(_SEGMENTS).state(g) is not None


def solve_segments(ruleset, position, ctx: SolveContext) -> Solution:
    """Sums of segments and alternating cycles, by arithmetic on (size, type) components."""
    analyser = Analyser(SegmentComponents(), ctx.table.budget)
    return solution(ruleset, position, ctx, analyser, "influence-segments")


def solve_reference(ruleset, position, ctx: SolveContext) -> Solution:
    """The generic minimax run for both starters, so that it reports the six scores too."""
    from cgframework import solve

    left = solve(ruleset, position, method="generic", first=Player.LEFT, table=None)
    right = solve(ruleset, position, method="generic", first=Player.RIGHT, table=None)
    ls, rs = left.value, -right.value
    chosen = left if ctx.first is Player.LEFT else right
    return finish(
        ruleset,
        position,
        ctx,
        value=chosen.value,
        outcome=None,
        best_moves=chosen.best_moves,
        method="influence-minimax",
        scores=scores(ls, rs, as_graph(position).n),
    )
