"""Specialised solvers of the wak plugin, each labelled proven or empirical.

A solver answers a whole position (a graph or a sum of graphs) when every component has the
shape it knows; the winning moves (to a P-position) are found by valuing every option the same
way. ``wak-search`` is the exact catch-all behind ``--method auto``.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from cgframework import (
    Outcome,
    Solution,
    SolveContext,
    SolverError,
    SolverSpec,
    Sum,
    components,
    finish,
    finish_impartial,
    options,
)
from cgframework_wak import formulas
from cgframework_wak.depth2 import grundy_value, outcome_value, solve_forest
from cgframework_wak.graph import WakGraph
from cgframework_wak.periodic import shift_component, shiftable
from cgframework_wak.search import Search

Form = Callable[[WakGraph], "int | None"]


def _parts(ruleset, position) -> tuple[WakGraph, ...]:
    return components(ruleset, position)


def _value(form: Form, ruleset, position) -> int | None:
    total = 0
    for comp in _parts(ruleset, position):
        value = form(comp)
        if value is None:
            return None
        total ^= value
    return total


def _applies(form: Form) -> Callable:
    def applies(ruleset, position) -> bool:
        return _value(form, ruleset, position) is not None  # vacuous on an empty position

    return applies


def _answer(ruleset, position, ctx: SolveContext, value: Callable, name: str) -> Solution:
    """The Solution of ``position``: its value, and the moves whose result has value 0."""
    g = value(position)
    best = [m.text for m in options(ruleset, position, ctx.first) if g and value(m.result) == 0]
    return finish_impartial(ruleset, position, ctx, g, best, name)


def _by_form(form: Form, name: str) -> Callable:
    """A solver valuing every component with ``form`` (options of these shapes keep their
    shape; any other option would be valued by the exact search)."""

    def solve(ruleset, position, ctx: SolveContext) -> Solution:
        search = Search(ctx.table)

        def value(pos) -> int:
            v = _value(form, ruleset, pos)
            if v is None:
                v = 0
                for comp in _parts(ruleset, pos):
                    v ^= search.component(comp)
            return v

        return _answer(ruleset, position, ctx, value, name)

    return solve


def solve_ak_path(ruleset, position, ctx: SolveContext) -> Solution:
    """Arc-Kayles paths and cycles without building any option: removing the i-th edge of
    a path of n vertices leaves paths of i and n - 2 - i vertices, any edge of a cycle of n
    the path of n - 2, so every move is valued in O(1) by the 0.07 sequence."""
    if not isinstance(position, WakGraph):
        return _by_form(formulas.ak_path_or_cycle, "arc-kayles-path")(ruleset, position, ctx)
    index, length, cyclic = _path_walk(position)
    g = formulas.octal_007

    def value(start: int) -> int:
        n = length[start]
        return (0 if g(n - 2) else 1) if start in cyclic else g(n)

    total = 0
    for start in length:
        total ^= value(start)
    best = []
    if total:
        w = position.weights
        for u, v in position.edges:
            if w[u] > 0 and w[v] > 0:
                start, i = index[u][0], min(index[u][1], index[v][1])
                n = length[start]
                after = g(n - 2) if start in cyclic else g(i) ^ g(n - 2 - i)
                if total ^ value(start) ^ after == 0:
                    best.append(f"{u}-{v}")
    return finish_impartial(ruleset, position, ctx, total, best, "arc-kayles-path")


def _path_walk(graph: WakGraph) -> tuple[dict[int, tuple[int, int]], dict[int, int], set[int]]:
    """For a graph whose live components are paths or cycles: vertex -> (its component's
    first vertex, its place along the walk), first vertex -> number of vertices, and the
    first vertices of the cycles."""
    live = set(graph.live_vertices())
    adj: dict[int, list[int]] = {v: [] for v in live}
    for u, v in graph.edges:
        if u in live and v in live:
            adj[u].append(v)
            adj[v].append(u)
    index: dict[int, tuple[int, int]] = {}
    length: dict[int, int] = {}
    cyclic: set[int] = set()
    ends = [v for v in sorted(live) if len(adj[v]) <= 1]
    for start in ends + sorted(live):  # paths from an end first; what is left are cycles
        if start in index:
            continue
        if len(adj[start]) > 1:
            cyclic.add(start)
        previous, v, i = None, start, 0
        while v not in index:
            index[v] = (start, i)
            i += 1
            step = [u for u in adj[v] if u != previous and u not in index]
            if not step:
                break
            previous, v = v, step[0]
        length[start] = i
    return index, length, cyclic


def solve_search(ruleset, position, ctx: SolveContext) -> Solution:
    """Exact search: components, Proposition 1 reductions, proven closed forms, and the
    certificate-keyed cache (search.py)."""
    search = Search(ctx.table)

    def value(pos) -> int:
        total = 0
        for comp in _parts(ruleset, pos):
            total ^= search.component(comp)
        return total

    solution = _answer(ruleset, position, ctx, value, "wak-search")
    return attrs.evolve(solution, extra={"certificates": search.certificates})


def solve_periodic(ruleset, position, ctx: SolveContext) -> Solution:
    """Shift every looped vertex whose counter x > 1000 and x >= 2*Omega + 2 down to
    2*Omega + (x mod 2) (Section 6, L264-L298, digest section 2.5), then search exactly. The
    outcome shift is the reconstructed theorem; for Grundy values it is EMPIRICAL."""
    search = Search(ctx.table)

    def value(pos) -> int:
        total = 0
        for comp in _parts(ruleset, pos):
            total ^= search.component(shift_component(comp))
        return total

    return _answer(ruleset, position, ctx, value, "periodic-vertex (empirical)")


def _graph_parts(position) -> list[WakGraph]:
    return list(position.parts) if isinstance(position, Sum) else [position]


def solve_depth2(ruleset, position, ctx: SolveContext) -> Solution:
    """Forests of loopless trees of depth <= 2 in O(n), winning moves included (depth2.py):
    the outcome of one tree is Theorem 1 (proven); the Grundy formula is EMPIRICAL."""
    found = solve_forest(_graph_parts(position), grundy_value)
    if found is None:
        raise SolverError("depth2-tree: some component is not a loopless tree of depth <= 2")
    g, best = found
    return finish_impartial(ruleset, position, ctx, g, best, "depth2-tree (empirical)")


def solve_depth2_outcome(ruleset, position, ctx: SolveContext) -> Solution:
    """Theorem 1 (L257, proven): the outcome of one loopless tree of depth <= 2 in O(n), and
    its winning moves (options are such a tree or a forest of stars, L159). The Grundy value
    is given only when it is proven: 0 for a P-position."""
    found = solve_forest(_graph_parts(position), outcome_value)
    if found is None:
        raise SolverError("depth2-outcome: not one loopless tree of depth <= 2")
    p, best = found
    if p:
        return finish(
            ruleset,
            position,
            ctx,
            value=None,
            outcome=Outcome.N,
            best_moves=best,
            method="depth2-outcome",
        )
    return finish_impartial(ruleset, position, ctx, 0, [], "depth2-outcome")


def _depth2_outcome_applies(ruleset, position) -> bool:
    parts = _parts(ruleset, position)
    return len(parts) == 1 and parts[0].n >= 2 and formulas.depth2_root(parts[0]) is not None


def _periodic_applies(ruleset, position) -> bool:
    return any(shiftable(comp) for comp in _parts(ruleset, position))


def _spec(**kwargs) -> SolverSpec:
    """A SolverSpec; ``auto`` is dropped on a core without that field."""
    if "auto" not in attrs.fields_dict(SolverSpec):
        kwargs.pop("auto", None)
    return SolverSpec(**kwargs)


RULESETS = ("wak", "arc-kayles")

SOLVERS = (
    _spec(
        name="all-even",
        solve=_by_form(formulas.all_even, "all-even"),
        rulesets=RULESETS,
        applies=_applies(formulas.all_even),
        proven=True,
        description="every counter even: value 0, the second player copies (digest P15)",
    ),
    _spec(
        name="isolated-loop",
        solve=_by_form(formulas.isolated_loop, "isolated-loop"),
        rulesets=RULESETS,
        applies=_applies(formulas.isolated_loop),
        proven=True,
        description="looped isolated vertices: a mod 2 each (Lemma 1, L170)",
    ),
    _spec(
        name="star",
        solve=_by_form(formulas.star, "star"),
        rulesets=RULESETS,
        applies=_applies(formulas.star),
        proven=True,
        description="loopless stars and K_2: min(c, sum of leaves) mod 2 (Prop. 1, L159)",
    ),
    _spec(
        name="looped-edge",
        solve=_by_form(formulas.looped_edge, "looped-edge"),
        rulesets=RULESETS,
        applies=_applies(formulas.looped_edge),
        proven=True,
        description="two adjacent looped vertices: (a+b)%2 + 2(min(a,b)%2) (Lemma 2, L174)",
    ),
    _spec(
        name="arc-kayles-path",
        solve=solve_ak_path,
        rulesets=RULESETS,
        applies=_applies(formulas.ak_path_or_cycle),
        proven=True,
        description="Arc-Kayles paths (octal 0.07 via the octal ruleset, L12, Guy-Smith 1956) "
        "and cycles (C_n: mex of P_(n-2)), every move valued in O(1)",
    ),
    _spec(
        name="depth2-outcome",
        solve=solve_depth2_outcome,
        rulesets=RULESETS,
        applies=_depth2_outcome_applies,
        proven=True,
        auto=False,
        description="one loopless tree of depth <= 2: outcome and winning moves in O(n) "
        "(Theorem 1, L257); by name only, the Grundy value is given for P-positions",
    ),
    _spec(
        name="depth2-tree",
        solve=solve_depth2,
        rulesets=RULESETS,
        applies=_applies(formulas.depth2_tree),
        proven=False,
        description="loopless trees of depth <= 2 in O(n): outcome proven (Theorem 1, L257), "
        "Grundy value by the digest's formula (empirical)",
    ),
    _spec(
        name="periodic-vertex",
        solve=solve_periodic,
        rulesets=RULESETS,
        applies=_periodic_applies,
        proven=False,
        description="a looped vertex x > 1000, x >= 2*Omega+2 becomes 2*Omega + x%2 (Section 6, "
        "L264): period 2 of outcomes (reconstructed), of Grundy values empirical",
    ),
    _spec(
        name="wak-search",
        solve=solve_search,
        rulesets=RULESETS,
        proven=True,
        description="exact: components, Prop. 1 reductions, proven closed forms, "
        "isomorphism-certificate cache (BLISS or pure Python)",
    ),
)
