"""The pizza board: parsing, printing, keys, and the generic minimax against independent
references on random boards."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import get_registry, solve
from cgframework_pizza.board import parse_board

weights = st.lists(st.integers(-3, 5), min_size=1, max_size=8)
small = st.lists(st.integers(-3, 5), min_size=1, max_size=4)
SETTINGS = settings(max_examples=60, deadline=None)


def text(ws) -> str:
    return ",".join(map(str, ws))


@cache
def tes_reference(ws: tuple) -> int:
    """Interval DP for two-ended stacks, written independently of the board code."""
    if not ws:
        return 0
    if len(ws) == 1:
        return ws[0]
    return max(ws[0] - tes_reference(ws[1:]), ws[-1] - tes_reference(ws[:-1]))


@SETTINGS
@given(weights)
def test_two_ended_stack_matches_interval_dp(ws):
    assert solve("pizza", f"tes({text(ws)})").value == tes_reference(tuple(ws))


@SETTINGS
@given(weights)
def test_pizza_is_the_best_opening_of_a_two_ended_stack(ws):
    """L20: after opening slice v a pizza is tes of the rest in cyclic order."""
    n = len(ws)
    expected = max(ws[v] - tes_reference(tuple(ws[v + 1 :] + ws[:v])) for v in range(n))
    assert solve("pizza", f"cyc({text(ws)})").value == expected


@SETTINGS
@given(small, st.integers(-4, 4))
def test_translation_rule(ws, shift):
    """(1.2), L63-L67: adding lambda to every weight adds lambda to odd games' values only."""
    g = f"cyc({text(ws)}) + st({text(ws[::-1])})"
    h = f"cyc({text([w + shift for w in ws])}) + st({text([w + shift for w in ws[::-1]])})"
    size = 2 * len(ws)
    assert solve("pizza", h).value == solve("pizza", g).value + (shift if size % 2 else 0)


@SETTINGS
@given(
    st.lists(
        st.tuples(st.sampled_from(["cyc", "tes", "st", "path", "<"]), small),
        min_size=1,
        max_size=3,
    )
)
def test_printed_positions_parse_back_to_equal_games(parts):
    board = " + ".join(f"<{text(ws)}>" if k == "<" else f"{k}({text(ws)})" for k, ws in parts)
    solution = solve("pizza", board)
    again = solve("pizza", solution.position)
    assert again.value == solution.value


@SETTINGS
@given(small, weights)
def test_concatenation_order_does_not_matter(a, b):
    assert (
        solve("pizza", f"cyc({text(a)}) + tes({text(b)})").value
        == solve("pizza", f"tes({text(b)}) + cyc({text(a)})").value
    )


def test_stack_and_unbroached_components():
    rules = get_registry().ruleset("pizza")
    board = parse_board("st(1,2,3) + path(4,5)")
    assert [v + 1 for v in board.legal_moves()] == [1, 4, 5]  # stack top; any path vertex
    assert rules.format(board) == "st(1,2,3) + path(4,5)"
    after = board.remove(3)  # take the 4 of the path: the 5 becomes available
    assert rules.format(after) == "st(1,2,3) + <5>"


def test_general_graph_board_and_json():
    """G24 (3.27 g2 of the paper): a path with a pendant; value 1."""
    g = "graph(1,0,1,0,1,0,1,1,0; 1-2,2-3,3-4,4-5,5-6,6-7,4-8,8-9; 2,4,6,9)"
    assert solve("pizza", g).value == 1
    board = '{"weights": [3, "1/2", 4], "edges": [[0, 1], [1, 2]], "available": [0]}'
    assert solve("pizza", board).value == solve("pizza", "st(3,1/2,4)").value


def test_exact_decimal_and_fraction_weights():
    assert solve("pizza", "<0.1,0.2>").value == Fraction(1, 10)  # take 0.2, leave 0.1
    assert solve("pizza", "<1/3,1/6>").value == Fraction(1, 6)


@pytest.mark.parametrize(
    "board",
    [
        "tes(1,x)",
        "foo(1,2)",
        "cyc()",
        "tes(1,2",
        "<1,2",
        "graph(1,2; 1-3; 1)",
        "graph(1,2; 1-2)",
        "1/0,2",
        "{bad json",
        '{"weights": [1], "edges": [[0, 5]]}',
        "1,,2",
    ],
)
def test_malformed_boards_are_one_line_errors(capsys, board):
    from cgframework.cli.commands import main

    with pytest.raises(SystemExit) as stop:
        main(["solve", "pizza", board])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.count("\n") == 1, err


def test_board_from_a_networkx_graph():
    """G23 (3.27 g1, L705): path 1,0,1,0,1,0 with its 0-vertices available has value 1,
    v2 the optimal move; the same board from networkx and from text."""
    import networkx as nx

    from cgframework_pizza.board import board_from_networkx

    g = nx.path_graph(6)
    for v in g.nodes:
        g.nodes[v]["weight"] = 1 - v % 2
        g.nodes[v]["available"] = v % 2 == 1
    board = board_from_networkx(g)
    text = solve("pizza", "graph(1,0,1,0,1,0; 1-2,2-3,3-4,4-5,5-6; 2,4,6)")
    solution = solve("pizza", board)
    assert (solution.value, solution.best_moves) == (text.value, text.best_moves) == (1, ("#2",))
    g.nodes[0]["weight"] = 0.5
    with pytest.raises(ValueError, match="exact"):
        board_from_networkx(g)
