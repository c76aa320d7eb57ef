"""Proposition 1 (L118-L119): every reduction preserves the Grundy value,
checked against the generic brute force and the plain oracle on random graphs with loops."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import solve
from cgframework_wak import fastgraph as fg
from cgframework_wak.graph import WakGraph, disjoint_union, make_graph
from cgframework_wak.oracle import plain_grundy
from cgframework_wak.reductions import is_canonical, reduce_graph, reduce_once
from cgframework_wak.search import Search
from cgframework_wak.strategies import graphs


def generic(graph: WakGraph) -> int:
    return solve("wak", graph, method="generic").grundy


@pytest.mark.parametrize("rule", ["u", "h", "t"])
@settings(max_examples=50, deadline=None)
@given(graph=graphs(max_n=6, max_w=3))
def test_one_reduction_step_preserves_the_value(rule, graph):
    """Useless (L98), heavy with the SUM condition (L101) and false twins (L104), one step."""
    reduced = reduce_once(graph, rule)
    if reduced is not None:
        assert plain_grundy(reduced) == plain_grundy(graph)


@settings(max_examples=60, deadline=None)
@given(graphs(max_n=6, max_w=3))
def test_full_reduction_preserves_the_value_and_is_canonical(graph):
    reduced = reduce_graph(graph)
    assert plain_grundy(reduced) == generic(graph)
    assert is_canonical(reduced)
    assert reduce_graph(reduced) == reduced  # idempotent


@settings(max_examples=60, deadline=None)
@given(graphs(max_n=7, max_w=3))
def test_packed_reduction_preserves_the_value(graph):
    """The integer-packed reductions of the search (fastgraph.py)."""
    total = 0
    for part in fg.reduce_fg(fg.from_graph(graph)):
        total ^= plain_grundy(fg.to_graph(part))
        assert fg.reduce_fg(part) == [part]  # a fixpoint: the search relies on it
    assert total == plain_grundy(graph)


def test_max_instead_of_sum_is_wrong():
    """The lost heavy condition is the SUM of the neighbours (digest 1.4): with the max,
    the centre of the star 3;3,3 would be 'heavy' and the value would change."""
    g = make_graph(3, [(0, 1), (0, 2)], (), [3, 3, 3])
    wrong = make_graph(3, [], (1, 2), [0, 3, 3])  # centre deleted, loops on the leaves
    assert plain_grundy(g) != plain_grundy(wrong)


def test_twins_with_different_loops_must_not_merge():
    """Digest 1.4: merging non-adjacent vertices whose loop flags differ fails."""
    g = make_graph(3, [(0, 1), (0, 2)], (1,), [1, 1, 1])
    assert reduce_once(g, "t") is None
    for loops in ((1,), ()):  # merged with either loop flag
        assert plain_grundy(g) != plain_grundy(make_graph(2, [(0, 1)], loops, [1, 2]))


@settings(max_examples=40, deadline=None)
@given(graphs(max_n=4, max_w=3), graphs(max_n=4, max_w=3))
def test_disjoint_union_is_the_nim_sum(a, b):
    """Observation 3 (L62-L64): the value of a disjoint union is the nim-sum."""
    union = disjoint_union([a, b])
    assert plain_grundy(union) == plain_grundy(a) ^ plain_grundy(b)
    assert solve("wak", union).grundy == solve("wak", a).grundy ^ solve("wak", b).grundy


@settings(max_examples=60, deadline=None)
@given(graphs(max_n=7, max_w=3), st.booleans(), st.booleans())
def test_search_ablations_agree(graph, reductions, certificates):
    """The search with or without reductions and certificates: the same values."""
    search = Search(reductions=reductions, certificates=certificates)
    assert search.grundy(graph) == plain_grundy(graph)


@settings(max_examples=60, deadline=None)
@given(graphs(max_n=9, max_w=2))
def test_packed_split_matches_graph_split(graph):
    """The packed components (bit-mask relabelling) are WakGraph.split's."""
    packed = [fg.to_graph(part) for part in fg.split(*fg.from_graph(graph))]
    assert packed == graph.split()
