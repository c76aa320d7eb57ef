"""Canonical keys are exact isomorphism certificates of labelled graphs (digest section 6).
A key collision would make the cache unsound, so both directions are tested."""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import get_registry, solve
from cgframework_wak.certificate import (
    bliss_certificate,
    certificate,
    has_igraph,
    py_certificate,
    tree_certificate,
)
from cgframework_wak.graph import WakGraph, make_graph, relabel
from cgframework_wak.parse import to_networkx
from cgframework_wak.ruleset import graph_key
from cgframework_wak.strategies import graphs, trees

needs_igraph = pytest.mark.skipif(not has_igraph(), reason="igraph (optional extra) missing")


def isomorphic(a: WakGraph, b: WakGraph) -> bool:
    same = lambda x, y: x["w"] == y["w"] and x["loop"] == y["loop"]  # noqa: E731
    return nx.is_isomorphic(to_networkx(a), to_networkx(b), node_match=same)


# Digest section 6: equal networkx WL hash, Arc-Kayles values 1 and 3.
CHORDED_C6 = make_graph(6, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0), (0, 3)])
BRIDGED_TRIANGLES = make_graph(6, [(0, 1), (0, 2), (1, 2), (3, 4), (3, 5), (4, 5), (0, 3)])


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_wl_collision_pair_gets_different_keys():
    """The WL hash cannot tell these apart; the certificate (every backend) must."""
    a, b = to_networkx(CHORDED_C6), to_networkx(BRIDGED_TRIANGLES)
    assert nx.weisfeiler_lehman_graph_hash(a) == nx.weisfeiler_lehman_graph_hash(b)
    assert py_certificate(CHORDED_C6) != py_certificate(BRIDGED_TRIANGLES)
    assert graph_key(CHORDED_C6) != graph_key(BRIDGED_TRIANGLES)
    if has_igraph():
        assert bliss_certificate(CHORDED_C6) != bliss_certificate(BRIDGED_TRIANGLES)


def test_wl_collision_pair_values_differ_and_are_solved_apart():
    """Digest section 6: their Arc-Kayles values are 1 and 3; one store must hold both."""
    assert solve("arc-kayles", CHORDED_C6).grundy == 1
    assert solve("arc-kayles", BRIDGED_TRIANGLES).grundy == 3
    assert solve("arc-kayles", CHORDED_C6, method="generic").grundy == 1
    assert solve("arc-kayles", BRIDGED_TRIANGLES, method="generic").grundy == 3


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_relabelled_graphs_get_equal_keys(data):
    g = data.draw(graphs(max_n=8, max_w=3))
    perm = data.draw(st.permutations(list(range(g.n))))
    h = relabel(g, perm)
    assert graph_key(g) == graph_key(h)
    assert py_certificate(g) == py_certificate(h)
    if has_igraph():
        assert bliss_certificate(g) == bliss_certificate(h)


@settings(max_examples=60, deadline=None)
@given(trees(max_n=12, max_w=3), st.data())
def test_relabelled_trees_get_equal_tree_keys(tree, data):
    perm = data.draw(st.permutations(list(range(tree.n))))
    assert tree_certificate(tree) == tree_certificate(relabel(tree, perm))


@settings(max_examples=80, deadline=None)
@given(graphs(min_n=4, max_n=6, max_w=2), graphs(min_n=4, max_n=6, max_w=2))
def test_keys_equal_exactly_for_isomorphic_graphs(a, b):
    """Equal keys iff isomorphic as labelled graphs, checked by networkx's VF2 matcher;
    the pure-Python and the BLISS labellings induce the same equivalence."""
    iso = isomorphic(a, b)
    assert (py_certificate(a) == py_certificate(b)) == iso
    if has_igraph():
        assert (bliss_certificate(a) == bliss_certificate(b)) == iso
    live_a, live_b = a.induced(a.live_vertices()), b.induced(b.live_vertices())
    assert (graph_key(a) == graph_key(b)) == isomorphic(live_a, live_b)
    if len(live_a.split()) == 1 and len(live_b.split()) == 1:
        assert (certificate(live_a) == certificate(live_b)) == isomorphic(live_a, live_b)


@needs_igraph
@settings(max_examples=40, deadline=None)
@given(graphs(min_n=5, max_n=9, max_w=1, loops=False), st.data())
def test_backends_agree_on_random_graphs(g, data):
    """Same-shape graphs: the two backends agree on which pairs are isomorphic."""
    perm = data.draw(st.permutations(list(range(g.n))))
    h = relabel(g, perm)
    other = data.draw(graphs(min_n=g.n, max_n=g.n, max_w=1, loops=False))
    for x, y in ((g, h), (g, other)):
        assert (py_certificate(x) == py_certificate(y)) == (
            bliss_certificate(x) == bliss_certificate(y)
        )


def test_labels_matter():
    """Same shape, different counters or loops: different keys."""
    a = make_graph(3, [(0, 1), (1, 2)], (), [1, 2, 1])
    b = make_graph(3, [(0, 1), (1, 2)], (), [2, 1, 1])
    c = make_graph(3, [(0, 1), (1, 2)], (0,), [1, 2, 1])
    assert len({graph_key(a), graph_key(b), graph_key(c)}) == 3


def test_symmetric_graphs_are_fast_in_pure_python():
    """Twins are interchangeable: K_12 and K_{6,6} need no factorial search."""
    k12 = make_graph(12, [(i, j) for i in range(12) for j in range(i + 1, 12)])
    k66 = make_graph(12, [(i, j) for i in range(6) for j in range(6, 12)])
    assert py_certificate(k12) == py_certificate(relabel(k12, list(range(11, -1, -1))))
    assert py_certificate(k66) != py_certificate(k12)


def test_store_key_text_is_stable():
    """The store hashes the key's text: it must be made of ints, strings and tuples."""
    from cgframework.store.database import position_key

    rs = get_registry().ruleset("wak")
    g = make_graph(4, [(0, 1), (1, 2), (2, 3), (3, 0)], (1,), [1, 2, 3, 4])
    key = rs.canonical_key(g)

    def plain(k):
        return isinstance(k, int | str) or (isinstance(k, tuple) and all(plain(x) for x in k))

    assert plain(key)
    from cgframework import Player

    assert position_key(rs, g, Player.LEFT) == position_key(
        rs, relabel(g, [3, 0, 1, 2]), Player.RIGHT
    )


@settings(max_examples=40, deadline=None)
@given(graphs(min_n=2, max_n=8, max_w=3))
def test_search_and_ruleset_compute_the_same_key(graph):
    """The search (packed graphs) and the generic solver (ruleset.canonical_key) must key the
    shared transposition table and value store identically."""
    from cgframework_wak import fastgraph as fg

    for part in graph.split():
        assert fg.certificate(fg.from_graph(part)) == certificate(part) == graph_key(part)
