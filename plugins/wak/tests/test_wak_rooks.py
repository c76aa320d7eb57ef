"""Non-attacking rooks with holes as WAK (Section 3, L65-L91), and WAK to Arc-Kayles
(Corollary 2, L161-L166)."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework_wak.convert import arc_kayles_size, to_arc_kayles
from cgframework_wak.formulas import depth2_root
from cgframework_wak.oracle import plain_grundy
from cgframework_wak.reductions import reduce_graph
from cgframework_wak.rooks import RookBoard, parse_board, rooks_grundy, to_wak
from cgframework_wak.search import Search
from cgframework_wak.strategies import graphs


def test_no_holes_parity_of_min_dimension():
    """L67: without holes the game is decided by the parity of min(R, C) (digest: its
    Grundy value is min(R, C) mod 2 for R, C <= 5)."""
    for r, c in itertools.product(range(1, 6), repeat=2):
        graph, _ = to_wak(RookBoard(r, c))
        assert Search().grundy(graph) == min(r, c) % 2, (r, c)


@st.composite
def boards(draw) -> RookBoard:
    r, c = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    squares = [(i, j) for i in range(r) for j in range(c)]
    holes = draw(st.lists(st.sampled_from(squares), unique=True, max_size=len(squares) // 2))
    return RookBoard(r, c, frozenset(holes))


@settings(max_examples=40, deadline=None)
@given(boards())
def test_rooks_game_is_wak_on_the_segment_graph(board):
    """Proposition (L71-L89): equal Grundy values; every edge is a legal square."""
    graph, squares = to_wak(board)
    assert rooks_grundy(board) == plain_grundy(graph) == Search().grundy(graph)


def test_hole_on_the_top_edge_gives_a_depth2_tree():
    """Figure 4 (L90): a hole touching one edge of the board: after merging twins the graph
    is a tree of depth 2 (5 areas)."""
    board = parse_board("..##./..##./...../.....")
    graph, _ = to_wak(board)
    reduced = reduce_graph(graph, rules="t")
    assert depth2_root(reduced) is not None
    assert Search().grundy(graph) == rooks_grundy(board)


@settings(max_examples=40, deadline=None)
@given(graphs(max_n=4, max_w=3))
def test_to_arc_kayles_preserves_the_value(graph):
    """Corollary 2 (L161-L165; the pendant's weight w(u) is the digest's reconstruction)."""
    result = to_arc_kayles(graph)
    assert result.n == arc_kayles_size(graph)
    assert result.is_arc_kayles() or result.n == 0
    assert Search().grundy(result) == plain_grundy(graph)
