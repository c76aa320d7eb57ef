"""Snort and Col: the canonical labelling, input forms, values from the books, and the
``col-numbers`` solver (Col in the number-plus-star algebra) against the generic search."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import Player, SolveContext, solve
from cgframework.values import UP, ZERO, number, parse_value
from cgframework_grids.col import ColAlgebraError, ColSearch
from cgframework_grids.graphs import (
    TintedGraph,
    automorphisms,
    canonical_form,
    graph,
    parse_graph,
)


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
@given(tinted_graphs(9))
def test_automorphisms_map_the_graph_onto_itself(g):
    edges = set(g.edges)
    found = automorphisms(g, 48)
    assert found[0] == list(range(g.order))
    for perm in found:
        assert sorted(perm) == list(range(g.order))
        assert {(min(perm[u], perm[v]), max(perm[u], perm[v])) for u, v in g.edges} == edges


def test_automorphisms_of_paths_cycles_and_grids_are_all_found():
    for text, count in [("path:8", 2), ("cycle:10", 20), ("grid:4x4", 8), ("grid:3x4", 4)]:
        assert len(automorphisms(parse_graph(text), 48)) == count


@settings(max_examples=40, deadline=None)
@given(tinted_graphs(), st.sampled_from(["snort", "col"]))
def test_key_search_agrees_with_the_generic_recursion(g, ruleset):
    text = text_of(g)
    fast = solve(ruleset, text, method="canonical").value  # option_keys on graph keys
    assert fast is solve(ruleset, text, method="generic").value


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


# ---- col-numbers and snort-masks (searches on vertex masks) ----------------------------
METHODS = {"col": "col-numbers", "snort": "snort-masks"}


def _agrees(text: str, first: Player, ruleset: str = "col") -> None:
    method = METHODS[ruleset]
    fast = solve(ruleset, text, method=method, first=first)
    slow = solve(ruleset, text, method="generic", first=first)
    assert solve(ruleset, text).method == method  # chosen by auto
    assert fast.value is slow.value
    assert fast.best_moves == slow.best_moves
    assert fast.outcome == slow.outcome


@settings(max_examples=150, deadline=None)
@given(tinted_graphs(10), st.sampled_from([Player.LEFT, Player.RIGHT]))
def test_col_numbers_agrees_with_the_generic_search(g, first):
    _agrees(text_of(g), first)


@settings(max_examples=80, deadline=None)
@given(tinted_graphs(9), st.sampled_from([Player.LEFT, Player.RIGHT]))
def test_snort_masks_agrees_with_the_generic_search(g, first):
    _agrees(text_of(g), first, "snort")


@pytest.mark.parametrize(
    "text",
    [
        "grid:2x5",  # two bytes of vertex mask, eight automorphisms... of a 2 x 5 grid: four
        "grid:3x3;tints=L...R...L",
        "cycle:9;tints=.L..R....",
        "0-1,0-2,0-3,0-4,0-5,0-6,0-7,0-8",  # a star: 8! automorphisms, capped
    ],
)
def test_mask_searches_on_symmetric_graphs(text):
    _agrees(text, Player.LEFT)
    _agrees(text, Player.RIGHT, "snort")


def test_col_numbers_is_chosen_and_reads_the_books():
    # Winning Ways ch. 2: Col on a path of two is 0; a vertex next to Right's colour is 1
    assert solve("col", "path:2").method.startswith("col-numbers")
    assert solve("col", "path:2").value is parse_value("0")
    assert solve("col", ";tints=R").value is number(1)
    assert solve("col", ";tints=.").value is parse_value("*")
    assert solve("col", "path:0", method="col-numbers").value is ZERO  # nothing to colour


def test_the_algebra_refuses_a_value_of_another_kind():
    search = ColSearch(parse_graph("path:3"), SolveContext())
    assert search.from_form(parse_value("-1/4*")) == (-2, 1)  # -1/4 of 2**3, star
    with pytest.raises(ColAlgebraError):
        search.from_form(UP)
    with pytest.raises(ColAlgebraError):
        search.from_form(parse_value("*2"))
