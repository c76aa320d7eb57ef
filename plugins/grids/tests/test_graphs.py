"""Snort and Col: the canonical labelling, input forms, and values from the books."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import solve
from cgframework.values import ZERO, parse_value
from cgframework_grids.graphs import TintedGraph, canonical_form, graph, parse_graph


@st.composite
def tinted_graphs(draw, max_order=7):
    n = draw(st.integers(1, max_order))
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    edges = draw(st.lists(st.sampled_from(pairs), max_size=n + 3, unique=True)) if pairs else []
    tints = draw(st.text(alphabet="..LR", min_size=n, max_size=n))
    return graph(n, edges, tints)


def relabelled(g: TintedGraph, seed: int) -> TintedGraph:
    order = list(range(g.order))
    random.Random(seed).shuffle(order)
    tints = [""] * g.order
    for v, t in enumerate(g.tints):
        tints[order[v]] = t
    return graph(g.order, [(order[u], order[v]) for u, v in g.edges], "".join(tints))


def text_of(g: TintedGraph) -> str:
    return ",".join(f"{u}-{v}" for u, v in g.edges) + f";tints={g.tints}"


@settings(max_examples=60, deadline=None)
@given(tinted_graphs(8), st.integers(0, 1000))
def test_canonical_form_is_invariant_under_relabelling(g, seed):
    assert canonical_form(g) == canonical_form(relabelled(g, seed))


@settings(max_examples=40, deadline=None)
@given(tinted_graphs(), st.sampled_from(["snort", "col"]))
def test_key_search_agrees_with_the_generic_recursion(g, ruleset):
    text = text_of(g)
    assert solve(ruleset, text).value is solve(ruleset, text, method="generic").value


def test_values_from_the_books():
    # Winning Ways ch. 2: Snort on paths is hot, *, +-1, +-2, +-{2|1}; Col is cold
    for n, expected in [(1, "*"), (2, "+-1"), (3, "+-2"), (4, "{2|1||-1|-2}")]:
        assert solve("snort", f"path:{n}").value is parse_value(expected)
    assert solve("col", "path:2").value is ZERO
    assert solve("col", ";tints=R").value is parse_value("1")  # Right's neighbour: Left's


def test_input_forms_agree():
    import networkx

    as_edges = solve("snort", "0-1,1-2,2-3,0-3").value
    assert solve("snort", "cycle:4").value is as_edges
    assert (
        solve("snort", json.dumps({"n": 4, "edges": [[0, 1], [1, 2], [2, 3], [3, 0]]})).value
        is as_edges
    )
    data = networkx.node_link_data(networkx.cycle_graph(4), edges="links")
    assert solve("snort", json.dumps(data)).value is as_edges
    grid = parse_graph("grid:2x3")
    assert grid.order == 6 and len(grid.edges) == 7
