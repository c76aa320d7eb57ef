"""The public API refuses arguments of the wrong type or range at the door, with a
TypeError or ValueError naming the argument (not an AttributeError deep in a solver, nor a
silent default); and a search deeper than the deep thread allows is a limit (exit 3)."""

from __future__ import annotations

import pytest

from cgframework import Game, Player, solve
from cgframework.runtime.budget import LimitExceeded
from cgframework.solvers.dispatch import SearchTooDeep
from cgframework.testing import run_cli

NIM = ("nim", "3+5")
FIRST_MESSAGE = "first must be 'L', 'R', Player.LEFT or Player.RIGHT, not"

REFUSED = [
    # (positional arguments, keyword arguments, exception, words of the message)
    ((None, None), {}, TypeError, "ruleset must be a ruleset name (str) or a Ruleset"),
    ((42, "3"), {}, TypeError, "ruleset must be"),
    (("", "3"), {}, ValueError, "ruleset must name a ruleset"),
    (("nim", None), {}, TypeError, "position must be a position or its text"),
    (("nim", b"3"), {}, TypeError, "position must be"),
    (("nim", 3), {}, TypeError, "position must be a nim position or its text"),
    (("nim", [3, 4]), {}, TypeError, "position must be a nim position or its text"),
    (("domineering", (1, 2)), {}, TypeError, "position must be a domineering position"),
    (("nim", 3), {"misere": True}, TypeError, "position must be a nim position"),
    (NIM, {"misere": "yes"}, TypeError, "misere must be True or False"),
    (NIM, {"first": "X"}, ValueError, f"{FIRST_MESSAGE} 'X'"),
    (NIM, {"first": "left"}, ValueError, FIRST_MESSAGE),
    (NIM, {"first": None}, TypeError, f"{FIRST_MESSAGE} None"),
    (NIM, {"first": 1}, TypeError, FIRST_MESSAGE),
    (NIM, {"method": None}, TypeError, "method must be a method name (str)"),
    (NIM, {"method": "fastest"}, ValueError, "unknown method 'fastest'"),
    (NIM, {"max_nodes": -1}, ValueError, "max_nodes must be >= 0"),
    (NIM, {"max_nodes": "10"}, TypeError, "max_nodes must be a number"),
    (NIM, {"max_nodes": True}, TypeError, "max_nodes must be a number"),
    (NIM, {"timeout": -0.5}, ValueError, "timeout must be >= 0"),
    (NIM, {"timeout": float("nan")}, ValueError, "timeout must be >= 0"),
    (NIM, {"timeout": "1s"}, TypeError, "timeout must be a number"),
    (NIM, {"table": {}}, TypeError, "table must be a TranspositionTable"),
    (NIM, {"registry": "all"}, TypeError, "registry must be a Registry"),
    (NIM, {"store": "values.db"}, TypeError, "store must be a ValueStore"),
]


@pytest.mark.parametrize(("args", "kwargs", "error", "message"), REFUSED)
def test_solve_refuses_bad_arguments_naming_them(args, kwargs, error, message):
    with pytest.raises(error) as caught:
        solve(*args, **kwargs)
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: Game(None, "3"), TypeError, "ruleset must be"),
        (lambda: Game("nim", None), TypeError, "position must be"),
        (lambda: Game("nim", "3").solve(first="X"), ValueError, f"{FIRST_MESSAGE} 'X'"),
        (lambda: Game("nim", "3").solve(method=0), TypeError, "method must be"),
        (lambda: Game("nim", "3").options("X"), ValueError, "player must be 'L', 'R'"),
        (lambda: list(Game("nim", "3").moves(None)), TypeError, "player must be 'L', 'R'"),
    ],
)
def test_game_refuses_bad_arguments_naming_them(call, error, message):
    with pytest.raises(error) as caught:
        call()
    assert message in str(caught.value)


def test_first_as_a_letter_is_the_player():
    assert solve(*NIM, first="R").first is Player.RIGHT
    assert solve("domineering", "..|..", first="R").best_moves == ("h1,1", "h2,1")
    assert Game("domineering", "..|..").solve(first="R").first is Player.RIGHT


# ---- a search deeper than the deep thread: a limit, quickly ---------------------------------


@pytest.mark.parametrize(
    ("ruleset", "position", "method"),
    [
        ("nim", "3,4,59999", "guaranteed"),  # the guaranteed embedding recursed per heap size
        ("subtraction", "{1}:200000", "outcome"),  # a chain of 200000 positions
        ("subtraction", "{1}:200000", "canonical"),
    ],
)
def test_too_deep_a_search_is_exit_3_naming_the_method(capsys, ruleset, position, method):
    code, out, err = run_cli(capsys, "solve", ruleset, position, "--method", method)
    assert code == 3, err
    (line,) = err.splitlines()
    assert line.startswith("cgf: error: ") and f"method {method!r} recursed deeper" in line
    assert "internal error" not in line and out == ""


def test_too_deep_a_search_in_python_is_a_limit():
    with pytest.raises(SearchTooDeep) as caught:
        solve("nim", "59999", method="guaranteed")
    assert isinstance(caught.value, LimitExceeded) and "nim-sum" in str(caught.value)
