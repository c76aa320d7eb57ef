"""Every registered rewrite preserves what it claims (equivalence: any partner h)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import get_registry, solve
from cgframework_pizza.board import format_board, parse_board
from cgframework_pizza.simplify import (
    cancel_equal_pairs,
    delete_even_plateau,
    detach_available_maximum,
)


@st.composite
def graphs(draw, max_vertices=6):
    n = draw(st.integers(1, max_vertices))
    weights = draw(st.lists(st.integers(-2, 4), min_size=n, max_size=n))
    pairs = [(u, v) for u in range(1, n + 1) for v in range(u + 1, n + 1)]
    edges = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=n + 1)) if pairs else []
    avail = draw(st.lists(st.integers(1, n), unique=True, max_size=n))
    return (
        "graph("
        + ",".join(map(str, weights))
        + "; "
        + ",".join(f"{u}-{v}" for u, v in edges)
        + "; "
        + ",".join(map(str, avail))
        + ")"
    )


partners = st.sampled_from(["<>", "<1>", "<-2,3>", "tes(2,0,1)", "st(0,2)", "cyc(1,0,2)"])
SETTINGS = settings(max_examples=80, deadline=None)
RULES = get_registry().ruleset("pizza")


def generic(text: str):
    return solve("pizza", text, method="generic").value


@SETTINGS
@given(graphs(), partners, st.sampled_from([cancel_equal_pairs, detach_available_maximum]))
def test_rewrites_are_equivalences(g, h, rewrite):
    board = parse_board(f"{g} + <1,1,2>")
    rewritten = format_board(rewrite(RULES, board))
    partner = "" if h == "<>" else f" + {h}"
    assert generic(rewritten + partner) == generic(format_board(board) + partner)


@SETTINGS
@given(graphs())
def test_search_with_rewrites_matches_plain_search(g):
    auto = solve("pizza", g)
    assert auto.value == generic(g)
    assert set(auto.best_moves) == set(solve("pizza", g, method="generic").best_moves)


@SETTINGS
@given(st.lists(st.integers(0, 3), min_size=3, max_size=10), st.booleans())
def test_deleting_an_even_plateau_keeps_the_value(ws, cyclic):
    """R8, Remark 4.6 (L819): value-preserving for a lone unbroached path or cycle."""
    text = ("cyc(" if cyclic else "path(") + ",".join(map(str, ws)) + ")"
    rewritten = format_board(delete_even_plateau(RULES, parse_board(text)))
    assert generic(rewritten) == generic(text)


def test_deleting_an_even_plateau_is_not_an_equivalence():
    """Ex 3.18 (L609) via Remark 4.6: cyc(0,1,0,1,1,0) and its R8 image cyc(0,1,0,0) have
    equal values but differ beside some partner, so R8 must never be used inside sums."""
    g = "cyc(0,1,0,1,1,0)"
    g2 = format_board(delete_even_plateau(RULES, parse_board(g)))
    assert g2 != g and generic(g2) == generic(g)
    partners = ["<0,1>", "<-1,0>", "<1>", "<0>", "<2,0>", "<0,1> + <-1,0>"]
    assert any(generic(f"{g} + {h}") != generic(f"{g2} + {h}") for h in partners)


def test_value_only_rewrites_are_not_applied_inside_a_sum():
    """The core applies R8 to whole positions only: a sum keeps its plain minimax value."""
    board = "cyc(0,1,0,1,1,0) + <0,1>"
    assert solve("pizza", board).value == generic(board) == 2
