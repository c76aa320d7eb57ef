"""Every specialised solver against the generic Grundy brute force on random positions of its
shape, and the winning moves they report."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import Sum, get_registry, options, solve
from cgframework_wak.formulas import (
    depth2_outcome_is_p,
    depth2_parameters,
    depth2_root,
)
from cgframework_wak.graph import WakGraph, make_graph
from cgframework_wak.oracle import plain_grundy
from cgframework_wak.strategies import graphs, trees

ROOT_CASES = settings(max_examples=40, deadline=None)


def generic(position, ruleset: str = "wak") -> int:
    return solve(ruleset, position, method="generic").grundy


def check(position, method: str, ruleset: str = "wak") -> None:
    """The solver's value equals the brute force's; its best moves are exactly the moves to
    a P-position."""
    solution = solve(ruleset, position, method=method)
    assert solution.grundy == generic(position, ruleset)
    rs = get_registry().ruleset(ruleset)
    zero = [m.text for m in options(rs, position, solution.first) if generic(m.result) == 0]
    assert list(solution.best_moves) == (zero if solution.grundy else [])


@st.composite
def stars(draw) -> WakGraph:
    k = draw(st.integers(1, 4))
    weights = draw(st.lists(st.integers(1, 5), min_size=k + 1, max_size=k + 1))
    return make_graph(k + 1, [(0, i) for i in range(1, k + 1)], (), weights)


@st.composite
def looped_edges(draw) -> WakGraph:
    a, b = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    return make_graph(2, [(0, 1)], (0, 1), [a, b])


@st.composite
def sums_of(draw, strategy, most: int = 3) -> Sum:
    return Sum(tuple(draw(st.lists(strategy, min_size=1, max_size=most))))


@ROOT_CASES
@given(sums_of(stars()))
def test_star_solver(position):
    check(position, "star")


@ROOT_CASES
@given(sums_of(looped_edges()))
def test_looped_edge_solver(position):
    """Lemma 2 (L174)."""
    check(position, "looped-edge")


@ROOT_CASES
@given(sums_of(st.integers(1, 9).map(lambda a: make_graph(1, [], [0], [a]))))
def test_isolated_loop_solver(position):
    """Lemma 1 (L170)."""
    check(position, "isolated-loop")


@ROOT_CASES
@given(graphs(max_n=5, max_w=2).map(lambda g: g.with_weights([2 * w for w in g.weights])))
def test_all_even_solver(graph):
    """Digest P15: every counter even gives 0 (loops included)."""
    if get_registry().ruleset("wak").is_empty(graph):
        return
    assert solve("wak", graph, method="all-even").grundy == 0 == plain_grundy(graph)


@ROOT_CASES
@given(sums_of(st.integers(2, 14).map(lambda n: f"path:{n}"), 2))
def test_arc_kayles_path_solver(texts):
    from cgframework import parse_position

    rs = get_registry().ruleset("arc-kayles")
    position = parse_position(rs, " + ".join(texts.parts))
    check(position, "arc-kayles-path", "arc-kayles")


@settings(max_examples=60, deadline=None)
@given(trees(max_n=10, max_w=6, depth2=True))
def test_theorem1_outcome_on_random_depth2_trees(tree):
    """Theorem 1 (L257-L258): the outcome of a loopless tree of depth <= 2 from a, c, X, Y
    (digest 2.4 reconstruction), for every root of eccentricity <= 2."""
    value = plain_grundy(tree)
    root = depth2_root(tree)
    assert root is not None
    assert depth2_outcome_is_p(*depth2_parameters(tree, root)) == (value == 0)
    for other in range(tree.n):  # any root of eccentricity <= 2 gives the same outcome
        if _eccentricity(tree, other) <= 2:
            assert depth2_outcome_is_p(*depth2_parameters(tree, other)) == (value == 0)


def _eccentricity(tree: WakGraph, root: int) -> int:
    adj = tree.adjacency()
    dist = {root: 0}
    queue = [root]
    for v in queue:
        for u in adj[v]:
            if u not in dist:
                dist[u] = dist[v] + 1
                queue.append(u)
    return max(dist.values())


@settings(max_examples=40, deadline=None)
@given(sums_of(trees(max_n=8, max_w=5, depth2=True), 2))
def test_depth2_tree_solver_grundy_empirical(position):
    """The digest's Grundy extension of Theorem 1 (empirical), on forests by nim-sum."""
    check(position, "depth2-tree")


@settings(max_examples=40, deadline=None)
@given(graphs(min_n=1, max_n=4, max_w=2), st.integers(0, 9))
def test_period_two_from_two_omega(graph, extra):
    """Section 6 (L264-L298, digest 2.5): with a loop on v, the value at x >= 2*Omega + 2
    equals the value at 2*Omega + (x mod 2): outcomes (reconstructed theorem) and Grundy
    values (empirical)."""
    loops = tuple(set(graph.loops) | {0})
    omega = sum(graph.weights) - graph.weights[0]
    x = 2 * omega + 2 + extra
    big = WakGraph((x,) + graph.weights[1:], graph.edges, loops)
    small = WakGraph((2 * omega + x % 2,) + graph.weights[1:], graph.edges, loops)
    assert plain_grundy(big) == plain_grundy(small)


@pytest.mark.parametrize("x", [1001, 1002, 1003, 4000])
def test_periodic_vertex_solver_empirical(x):
    """The shift used by the periodic-vertex solver past x = 1000, against the exact search
    on a graph the reductions cannot simplify (a looped triangle vertex with a pendant)."""
    g = make_graph(4, [(0, 1), (0, 2), (1, 2), (1, 3)], [0], [x, 2, 3, 1])
    solution = solve("wak", g)
    assert solution.method == "periodic-vertex (empirical)"
    assert solution.grundy == solve("wak", g, method="wak-search").grundy


@settings(max_examples=60, deadline=None)
@given(sums_of(graphs(max_n=6, max_w=3), 2))
def test_search_solver_against_generic(position):
    check(position, "wak-search")


@settings(max_examples=40, deadline=None)
@given(graphs(max_n=7, max_w=1, loops=False))
def test_auto_on_arc_kayles_graphs(graph):
    rs = get_registry().ruleset("arc-kayles")
    if rs.is_empty(graph):
        return
    assert solve("arc-kayles", graph).grundy == generic(graph, "arc-kayles") == plain_grundy(graph)


@pytest.mark.parametrize(
    ("text", "method"),
    [
        ("star:3;1,2,2", "star"),
        ('{"n":1,"edges":[],"loops":[0],"weights":[5]}', "isolated-loop"),
        ('{"n":2,"edges":[[0,1]],"loops":[0,1],"weights":[3,4]}', "looped-edge"),
        ("path:2,2,4", "all-even"),
        ("path:2,3,1,4,1", "depth2-tree (empirical)"),
        ("complete:2,3,4", "wak-search"),
        ('{"n":2,"edges":[[0,1]],"loops":[0],"weights":[50,3]}', "wak-search"),
    ],
)
def test_auto_picks_the_specialised_solver(text, method):
    solution = solve("wak", text)
    assert solution.method == method
    assert solution.grundy == generic(text)


def test_rulesets_label_proven_and_empirical():
    registry = get_registry()
    labels = {s.name: s.proven for s in registry.solvers if s.serves(registry.ruleset("wak"))}
    assert labels["depth2-tree"] is False and labels["periodic-vertex"] is False
    assert labels["star"] and labels["looped-edge"] and labels["wak-search"]


def test_big_depth2_tree_is_linear():
    """Theorem 1 is O(n): a depth-2 tree with 20001 vertices and 60-bit counters."""
    n = 10_000
    big = 2**60
    weights = [big + 7] + [big + i for i in range(n)] + [i + 1 for i in range(n)]
    edges = [(0, i) for i in range(1, n + 1)] + [(i, n + i) for i in range(1, n + 1)]
    g = make_graph(2 * n + 1, edges, (), weights)
    from cgframework_wak.formulas import depth2_tree

    assert depth2_tree(g) in (0, 1, 2, 3)
    solution = solve("wak", g)
    assert solution.method == "depth2-tree (empirical)"
    outcome = solve("wak", g, method="depth2-outcome")
    assert outcome.outcome == solution.outcome
    assert outcome.best_moves == solution.best_moves


@settings(max_examples=60, deadline=None)
@given(trees(min_n=2, max_n=10, max_w=5, depth2=True))
def test_depth2_outcome_solver_is_theorem1_with_winning_moves(tree):
    """Theorem 1 (L257, proven): outcome and every winning move of one depth-2 tree."""
    solution = solve("wak", tree, method="depth2-outcome")
    value = generic(tree)
    assert (solution.outcome.value == "P") == (value == 0)
    assert solution.grundy == (0 if value == 0 else None)
    rs = get_registry().ruleset("wak")
    zero = [m.text for m in options(rs, tree, solution.first) if generic(m.result) == 0]
    assert list(solution.best_moves) == (zero if value else [])
