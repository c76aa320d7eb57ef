"""R3-R7 (Brown & Brown §2.2, 3.27): each rewrite fires on boards built to meet its hypotheses
and is an equivalence: the generic minimax gives equal values beside random partners."""

from __future__ import annotations

import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cgframework import get_registry, solve
from cgframework_pizza.board import format_board, parse_board
from cgframework_pizza.reductions import (
    canonical_ev_stacks,
    condense_maximum,
    condense_stacks,
    detach_ev_tails,
    is_ev_sequence,
    reduce_e_game,
)

RULES = get_registry().ruleset("pizza")
SETTINGS = settings(max_examples=60, deadline=None)
partners = st.sampled_from(["<>", "<1>", "<-2,3>", "tes(2,0,1)", "st(0,2)", "cyc(1,0,2)"])


def generic(text: str):
    return solve("pizza", text, method="generic").value


def graph_text(weights, edges, available) -> str:
    """``graph(...)`` notation, vertices 1-based."""
    return (
        f"graph({','.join(map(str, weights))}; "
        + ",".join(f"{u + 1}-{v + 1}" for u, v in sorted(edges))
        + "; "
        + ",".join(str(v + 1) for v in sorted(available))
        + ")"
    )


@st.composite
def base(draw, low=-2, high=3, max_vertices=4):
    """A random connected-or-not graph with vertex 0 available: (weights, edges, available)."""
    n = draw(st.integers(1, max_vertices))
    weights = draw(st.lists(st.integers(low, high), min_size=n, max_size=n))
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    edges = set(draw(st.lists(st.sampled_from(pairs), unique=True, max_size=n))) if pairs else set()
    edges |= {(v - 1, v) for v in range(1, n) if draw(st.booleans())}
    available = {0} | set(draw(st.lists(st.integers(0, n - 1), max_size=2)))
    return weights, edges, available


@st.composite
def condensable(draw):
    """Thm 2.6's hypotheses: v (weight above all others) not available, joined to u and w
    only; u and w each available (degree 1) or joined to one base vertex."""
    weights, edges, available = draw(base())
    n = len(weights)
    u, v, w = n, n + 1, n + 2
    weights = weights + [draw(st.integers(-2, 4)), 5, draw(st.integers(-2, 4))]
    edges = edges | {(u, v), (v, w)}
    for x, anchor in ((u, 0), (w, draw(st.integers(0, n - 1)))):
        if draw(st.booleans()):
            available.add(x)
        else:  # u joins vertex 0 (available) or is available: the component is broached
            edges.add((anchor, x))
    return graph_text(weights, edges, available)


def ev_sequence(draw, pairs: int) -> list[int]:
    """a_2i >= a_2i-1 + (prefix alternating sum so far), so every even prefix has alt <= 0."""
    a: list[int] = []
    prefix = 0
    for _ in range(pairs):
        odd = draw(st.integers(-2, 3))
        even = odd + prefix + draw(st.integers(0, 2))
        a += [odd, even]
        prefix += odd - even
    return a


@st.composite
def with_ev_tail(draw):
    """A broached base with a pendant non-available path whose weights form an ev-sequence."""
    weights, edges, available = draw(base())
    tail = ev_sequence(draw, draw(st.integers(1, 2)))
    n = len(weights)
    edges = (
        edges
        | {(0, n)}  # vertex 0 is available: the tail hangs off a broached component
        | {(n + i, n + i + 1) for i in range(len(tail) - 1)}
    )
    return graph_text(weights + tail, edges, available)


@st.composite
def stacks(draw):
    kind = draw(st.sampled_from(["st", "tes"]))
    ws = draw(st.lists(st.integers(-2, 4), min_size=2, max_size=7))
    return f"{kind}({','.join(map(str, ws))})"


@st.composite
def ev_stacks(draw):
    return f"st({','.join(map(str, ev_sequence(draw, draw(st.integers(1, 3)))))})"


@st.composite
def e_games(draw):
    """0-1 weights on a path-like graph (long 1-clusters) with a few chords; vertex 0 and up
    to two others available."""
    n = draw(st.integers(2, 7))
    weights = draw(st.lists(st.sampled_from([0, 1, 1]), min_size=n, max_size=n))
    pairs = [(u, v) for u in range(n) for v in range(u + 2, n)]
    edges = {(v - 1, v) for v in range(1, n) if draw(st.integers(0, 3))}
    edges |= (
        set(draw(st.lists(st.sampled_from(pairs), unique=True, max_size=2))) if pairs else set()
    )
    available = {0} | set(draw(st.lists(st.integers(0, n - 1), max_size=2)))
    return graph_text(weights, edges, available)


CASES = [
    (condense_maximum, condensable()),
    (detach_ev_tails, with_ev_tail()),
    (condense_stacks, stacks()),
    (canonical_ev_stacks, ev_stacks()),
    (reduce_e_game, e_games()),
]


@pytest.mark.parametrize(("rewrite", "boards"), CASES, ids=lambda c: getattr(c, "__name__", ""))
@settings(max_examples=200, deadline=None)
@given(data=st.data(), h=partners)
def test_each_reduction_is_an_equivalence(rewrite, boards, data, h):
    g = data.draw(boards)
    board = parse_board(g)
    rewritten = format_board(rewrite(RULES, board))
    partner = "" if h == "<>" else f" + {h}"
    assert generic(rewritten + partner) == generic(g + partner), (g, rewritten)


@SETTINGS
@given(st.data())
def test_reductions_fire_on_their_hypotheses(data):
    """The built boards meet the hypotheses, so the rewrite must change them."""
    rewrite, boards = data.draw(
        st.sampled_from(
            [
                (condense_maximum, condensable()),
                (detach_ev_tails, with_ev_tail()),
                (canonical_ev_stacks, ev_stacks()),
            ]
        )
    )
    g = data.draw(boards)
    assume(not re.fullmatch(r"st\(0,[1-9]\d*\)", g))  # already the canonical st(0, x)
    board = parse_board(g)
    assert rewrite(RULES, board) is not board, g


@SETTINGS
@given(e_games())
def test_search_with_every_reduction_matches_plain_search_on_e_games(g):
    auto = solve("pizza", g)
    assert auto.value == generic(g)
    assert set(auto.best_moves) == set(solve("pizza", g, method="generic").best_moves)


def rewrite_text(rewrite, text: str) -> str:
    return format_board(rewrite(RULES, parse_board(text)))


def test_condensation_example_of_corollary_2_7():
    """Cor 2.7 (L232): in tes(1,5,2) the interior maximum condenses: 1 - 5 + 2 = -2."""
    assert rewrite_text(condense_maximum, "tes(1,5,2)") == "<-2>"
    assert rewrite_text(condense_maximum, "st(1,5,2,0)") == "st(-2,0)"
    assert rewrite_text(condense_maximum, "path(1,5,2)") == "path(1,5,2)"  # unbroached


def test_ev_tail_of_corollary_2_4():
    """Cor 2.4 (L180): st(b.., a..) ~ st(b..) + st(a..) when a is an ev-sequence."""
    assert is_ev_sequence([0, 2]) and not is_ev_sequence([2, 0])
    assert rewrite_text(detach_ev_tails, "st(3,0,2)") == "st(0,2) + <3>"
    assert rewrite_text(canonical_ev_stacks, "st(1,3)") == "st(0,2)"
    assert rewrite_text(canonical_ev_stacks, "st(1,1)") == "<>"  # ev(0) = [<>] (1.6)


def test_stacks_become_slice_lists():
    """Thm 2.11 (L286): tes(a) ~ <s>, st(a) ~ <s> + ev(x) with st(0,x) for ev(x)."""
    assert rewrite_text(condense_stacks, "tes(1,5,2,0,4)") == "<-2,0,4>"
    assert rewrite_text(condense_stacks, "st(4,1,3)") == "st(0,2) + <4>"
    assert rewrite_text(condense_stacks, "st(0,2)") == "st(0,2)"


def test_e_game_reduction_of_3_27():
    """3.27 (L689): an odd 1-cluster is one 1-vertex; an even one is deleted and its available
    1-vertex makes its 0-neighbours available. tes(0,1,0) ~ <-1> (digest 2.9) is reduced
    already."""
    assert rewrite_text(reduce_e_game, "tes(1,1,1,0)") == "tes(0,1)"
    assert rewrite_text(reduce_e_game, "tes(1,1,0)") == "<0>"
    assert rewrite_text(reduce_e_game, "st(0,1,1,0)") == "st(0,0)"
    assert rewrite_text(reduce_e_game, "tes(0,1,0)") == "tes(0,1,0)"
    assert rewrite_text(reduce_e_game, "graph(1,1,0,1; 1-2,2-3,3-4; 1)") == "st(0,1)"
    assert generic("tes(0,1,0) + <1>") == generic("<-1> + <1>")
    assert rewrite_text(reduce_e_game, "path(1,1,0)") == "path(1,1,0)"  # unbroached
