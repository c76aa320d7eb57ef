"""``cgf solve`` on the loopy rulesets: the JSON fields, and one-line errors (exit 2)."""

from __future__ import annotations

import json

import pytest

from cgframework.testing import run_cli
from cgframework_loopy.digraph import DigraphRuleset


def solve_json(capsys, *args):
    code, out, err = run_cli(capsys, "solve", *args, "--json")
    assert code == 0, err
    return json.loads(out)


def test_digraph_json_has_grundy_and_first_player_results(capsys):
    data = solve_json(capsys, "digraph", "0>1,1>0,1>2;0,2")
    assert data["method"] == "loopy-grundy"
    assert (data["grundy"], data["outcome"]) == (0, "P")
    assert (data["left_first"], data["right_first"]) == ("R", "L")
    data = solve_json(capsys, "digraph", "0>1,1>0;0")
    assert (data["grundy"], data["outcome"], data["left_first"]) == ("inf{}", "D", "D")
    data = solve_json(capsys, "digraph", "0>1,1>0,1>2;0", "--method", "retrograde")
    assert (data["outcome"], data["left_first"], data["right_first"]) == ("P", "R", "L")
    assert solve_json(capsys, "digraph", "0>1;0", "--method", "generic")["method"] == "retrograde"


def test_partizan_digraph_json(capsys):
    # Left can walk 0 -> 1 -> 0 ... for ever; Right has no arc: a Left win either way.
    data = solve_json(capsys, "partizan-digraph", "0>1:L,1>0:L;0")
    assert (data["left_first"], data["right_first"], data["outcome"]) == ("L", "L", "L")
    # Each player owns one arc of a 2-cycle: Left first, the token shuffles for ever (a
    # draw); Right first, Right has no arc out of 0 and loses.
    data = solve_json(capsys, "partizan-digraph", "0>1:L,1>0:R;0")
    assert (data["left_first"], data["right_first"], data["outcome"]) == ("D", "L", "D")
    assert data["best_moves"] == ["0>1"] and data["best_moves_result"] == "draw"


@pytest.mark.parametrize(
    ("ruleset", "text", "fragment"),
    [
        ("digraph", "0>1,1-0;0", "expected u>v"),
        ("digraph", "0>1,1>-2;0", "negative"),
        ("digraph", "0>1;-1", "negative"),
        ("digraph", "0>1.5;0", "not a non-negative integer"),
        ("digraph", "0>x;0", "not a non-negative integer"),
        ("digraph", "0>1", "expected ARCS;TOKENS"),
        ("digraph", "0>1;0;1", "more than one"),
        ("digraph", "0>1:L;0", "no label"),
        ("partizan-digraph", "0>1:X;0", "must be L or R"),
        ("partizan-digraph", "0>1;0", "must be L or R"),
        ("backsliding-toads", "T.X", "unexpected"),
    ],
)
def test_bad_input_is_one_line_exit_2(capsys, ruleset, text, fragment):
    code, out, err = run_cli(capsys, "solve", ruleset, text)
    assert code == 2 and not out
    assert err.count("\n") == 1 and fragment in err


def test_repeated_position_without_loopy_is_one_line_exit_2(capsys, monkeypatch):
    monkeypatch.setattr(DigraphRuleset, "loopy", False)
    code, out, err = run_cli(capsys, "solve", "digraph", "0>1,1>0;0")
    assert code == 2 and not out
    assert err.count("\n") == 1 and "position repeats" in err and "loopy" in err


def test_a_too_large_position_graph_is_refused(capsys, monkeypatch):
    from cgframework.solvers import retrograde

    monkeypatch.setattr(retrograde, "MAX_POSITIONS", 10)
    code, out, err = run_cli(capsys, "solve", "partizan-digraph", "0>1:L,1>2:L,2>0:R;0,1,2,2")
    assert code == 3 and not out and err.count("\n") == 1 and "reachable positions" in err


@pytest.mark.parametrize(
    ("position", "left_first", "right_first"),
    [
        ("0>1,1>2;0", "L", "R"),  # two moves to the dead end: the mover makes the last one
        ("0>1;0", "R", "L"),  # one move: whoever makes it leaves the other unable, who wins
        ("0>1,1>0;0", "D", "D"),  # nobody can ever be stuck
    ],
)
def test_misere_play_of_a_loopy_ruleset_is_retrograde(capsys, position, left_first, right_first):
    code, out, err = run_cli(capsys, "solve", "digraph", position, "--misere", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["convention"] == "misere" and data["method"] == "retrograde"
    assert (data["left_first"], data["right_first"]) == (left_first, right_first)


def test_a_recursive_method_on_a_loopy_ruleset_names_the_loopy_methods(capsys):
    code, _, err = run_cli(capsys, "solve", "digraph", "0>1,1>0;0", "--method", "guaranteed")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "loopy-grundy or retrograde" in err


def test_misere_retrograde_keeps_the_deadline(capsys):
    """hqa QA: ``cgf solve backsliding-toads-and-frogs TTTTTTTTTT.....FFFFFFFFFF --misere
    --timeout 3`` ran 96 s (the misère retrograde search was not on the deadline's thread)."""
    import time

    start = time.monotonic()
    code, out, err = run_cli(
        capsys,
        "solve",
        "backsliding-toads-and-frogs",
        "TTTTTTTTTT.....FFFFFFFFFF",
        "--misere",
        "--timeout",
        "0.3",
    )
    assert code == 3 and not out and "--timeout" in err and err.count("\n") == 1
    assert time.monotonic() - start < 10


def test_fox_and_geese_8x8_stops_at_the_node_budget(capsys):
    """8x8 from the start has millions of positions (the graph filled 2.5 GB before the budget
    was looked at): the budget now stops the graph while it is built."""
    code, out, err = run_cli(capsys, "solve", "fox-and-geese", "start:8", "--max-nodes", "500")
    assert code == 3 and out == "", (code, err)
    assert err.strip().endswith("(--max-nodes)") and len(err.strip().splitlines()) == 1
