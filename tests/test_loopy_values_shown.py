"""Loopy values where a user meets them: ``cgf solve`` (text and JSON, every method), the
explorer's node, the notebook's table, a value store; read back by ``cgf calc --universe
loopy``; never an outcome letter where the value belongs; limits kept (exit 3)."""

from __future__ import annotations

import json
import time

import pytest

from cgframework import Game, Outcome, solve
from cgframework.display import explorer
from cgframework.testing import run_cli
from cgframework.values.loopy import compare, parse_loopy

TIS = "0>1:L,1>0:R;0"  # a = {{|a}|}: Winning Ways' tis, 1 & 0


def solve_json(capsys, *args):
    code, out, err = run_cli(capsys, "solve", *args, "--json")
    assert code == 0, err
    return json.loads(out)


def test_a_token_with_one_left_move_is_worth_one(capsys):
    code, out, err = run_cli(capsys, "solve", "partizan-digraph", "0>1:L;0")
    assert code == 0, err
    assert "value\t1\n" in out and "outcome\tL\n" in out
    data = solve_json(capsys, "partizan-digraph", "0>1:L;0")
    assert (data["value"], data["value_kind"], data["outcome"]) == ("1", "loopy", "L")


@pytest.mark.parametrize(
    ("ruleset", "position", "value", "outcome"),
    [
        ("partizan-digraph", TIS, "1 & 0", "D"),
        ("partizan-digraph", "0>0:L;0", "on", "L"),
        ("partizan-digraph", "0>0:L,0>0:R;0", "dud", "D"),
        ("partizan-digraph", "0>1:L,1>0:R;0,0", "2 & 0", "D"),
        ("backsliding-toads-and-frogs", "T..F", "*", "N"),
        ("backsliding-toads-and-frogs", "TT..F", "on", "L"),
        ("fox-and-geese", ".G.G|....|.F..", "over", "L"),
    ],
)
def test_solve_prints_the_value_and_calc_reads_it_back(capsys, ruleset, position, value, outcome):
    """The value (the default method, and retrograde) is CGSuite's text; ``cgf calc
    --universe loopy`` reads it back as the same value; the outcome stays beside it."""
    for method in ("auto", "retrograde"):
        data = solve_json(capsys, ruleset, position, "--method", method)
        assert (data["value"], data["value_kind"], data["outcome"]) == (value, "loopy", outcome)
    code, out, err = run_cli(capsys, "calc", "--universe", "loopy", f"{value} == {value}")
    assert (code, out.strip()) == (0, "true"), err
    assert compare(parse_loopy(value), Game(ruleset, position).value) == "="


def test_tis_is_winning_ways_tis_everywhere(capsys):
    """tis (``a:{{|a}|}`` in ``cgf calc --universe loopy``) as a partizan digraph: its value
    ``1 & 0`` in cgf solve, the explorer's node and the notebook's table."""
    code, out, _ = run_cli(capsys, "calc", "--universe", "loopy", "a:{{|a}|}")
    assert (code, out.strip()) == (0, "1 & 0")
    code, out, _ = run_cli(capsys, "solve", "partizan-digraph", TIS)
    assert code == 0 and "value\t1 & 0\n" in out and "outcome\tD\n" in out
    node = explorer.node("partizan-digraph", TIS, pictures=False)
    assert (node["value"], node["outcome"], node["status"]) == ("1 & 0", "D", "ok")
    assert [(o["move"], o["value"]) for o in node["left"]] == [("0>1", "0 & -1")]
    html = Game("partizan-digraph", TIS)._repr_html_()
    assert '<td style="text-align:left">1 &amp; 0</td>' in html
    assert ">D</td>" in html  # the outcome beside it


def test_no_outcome_letter_where_the_value_belongs(capsys):
    """Retrograde on an impartial loopy ruleset gives the generalized Sprague-Grundy value
    (it gave ``D``); misère play has no value and says so."""
    data = solve_json(capsys, "digraph", "0>1,1>0;0", "--method", "retrograde")
    assert (data["value"], data["grundy"], data["outcome"]) == ("inf{}", "inf{}", "D")
    data = solve_json(capsys, "digraph", "0>1,1>0,1>2;0", "--method", "retrograde")
    assert (data["value"], data["grundy"], data["outcome"]) == ("0", 0, "P")
    data = solve_json(capsys, "partizan-digraph", "0>1:L;0", "--misere")
    assert data["value"] is None and "misère" in data["value_unknown"]
    code, out, _ = run_cli(capsys, "solve", "partizan-digraph", "0>1:L;0", "--misere")
    assert code == 0 and "value\tunknown: no value in misère play" in out


def test_loopy_sides_and_auto_give_the_same_value():
    for text in (TIS, "0>1:L,1>0:R;0,0", "0>1:L,1>2:R,2>0:L;0,1"):
        by_sides = solve("partizan-digraph", text, method="loopy-sides")
        by_default = solve("partizan-digraph", text)
        assert str(by_sides.value) == str(by_default.value)
        assert by_sides.outcome is by_default.outcome


def test_a_value_store_keeps_loopy_values(tmp_path, capsys):
    store = str(tmp_path / "values.sqlite")
    first = solve_json(capsys, "partizan-digraph", TIS, "--store", store)
    again = solve_json(capsys, "partizan-digraph", TIS, "--store", store)
    assert again.get("from_store") and (again["value"], again["value_kind"]) == ("1 & 0", "loopy")
    assert first["value"] == again["value"]
    code, out, err = run_cli(capsys, "store", "verify", store, "--all")
    assert code == 0 and "1 recomputed" in err and "0 bad" in err, (out, err)


def test_the_deadline_and_the_node_budget_stop_the_value_search(capsys):
    """The outcome of TT..FF takes milliseconds, its sides seconds: ``--timeout`` stops the
    sides' search (exit 3, one line) and ``--max-nodes`` the graph it is built on."""
    start = time.monotonic()
    code, out, err = run_cli(
        capsys, "solve", "backsliding-toads-and-frogs", "TT..FF", "--timeout", "0.3"
    )
    assert code == 3 and not out and "--timeout" in err and err.count("\n") == 1
    assert time.monotonic() - start < 15
    code, out, err = run_cli(capsys, "solve", "partizan-digraph", TIS, "--max-nodes", "2")
    assert code == 3 and not out and "--max-nodes" in err and err.count("\n") == 1


def test_outcomes_read_off_the_value_agree_with_the_retrograde_outcome():
    """The value's sides say who wins with each player first (Siegel VI): the same as the
    retrograde analysis beside it, on every example of the loopy rulesets."""
    from cgframework.values.loopy import first_results

    for ruleset, text in [
        ("partizan-digraph", "0>1:L,1>0:R,1>2:R;0,2"),
        ("partizan-digraph", "0>0:L;0"),
        ("backsliding-toads-and-frogs", "T.F"),
        ("backsliding-toads-and-frogs", "T..F"),
        ("fox-and-geese", "...G|..F.|.G..|...."),
    ]:
        solution = solve(ruleset, text)
        expected = (solution.extra["left_first"], solution.extra["right_first"])
        assert first_results(solution.value) == expected, (ruleset, text)
        draw = "D" in expected
        assert (solution.outcome is Outcome.D) == draw


def test_the_explorers_first_answer_on_a_loopy_position_is_the_outcome_alone(monkeypatch):
    """The explorer asks who wins before the value: for a loopy ruleset the retrograde
    analysis alone (TT..FF's value takes seconds, its outcome milliseconds)."""
    from cgframework.solvers import sides

    def no_value(*args, **kwargs):
        raise AssertionError("the value was computed for the outcome")

    monkeypatch.setattr(sides, "loopy_value", no_value)
    quick = explorer.outcome("backsliding-toads-and-frogs", "TT..FF")
    assert (quick["status"], quick["outcome"]) == ("ok", "N")
    assert explorer.outcome("digraph", "0>1,1>0;0")["outcome"] == "D"


def test_a_match_shows_the_loopy_value_or_why_it_is_unknown(monkeypatch):
    from cgframework.display.match import Match
    from cgframework.values.loopy import sides

    assert Match("partizan-digraph", TIS).state()["value"] == "1 & 0"
    monkeypatch.setattr(sides, "MAX_SIDES_NODES", 1)
    assert Match("partizan-digraph", TIS).state()["value"].startswith("unknown: ")


def test_a_store_written_before_loopy_values_never_answers_with_an_outcome_letter(tmp_path, capsys):
    """Stores kept the loopy rulesets' outcome letter as the value (rules version 1): the
    rulesets' version 2 keys those rows apart, so the value is solved again, not read back."""
    import sqlite3

    store = str(tmp_path / "values.sqlite")
    solve_json(capsys, "partizan-digraph", TIS, "--store", store)
    with sqlite3.connect(store) as db:  # the row as the old code wrote it
        (solution,) = db.execute("SELECT solution FROM solutions").fetchone()
        old = json.loads(solution)
        old.update(value="D", value_kind="text")
        db.execute("UPDATE solutions SET version='1', solution=?", (json.dumps(old),))
    again = solve_json(capsys, "partizan-digraph", TIS, "--store", store)
    assert not again.get("from_store") and again["value"] == "1 & 0"
