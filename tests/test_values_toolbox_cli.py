"""``cgf calc`` functions of the value toolbox and the extra ``--json`` fields."""

from __future__ import annotations

import json

import pytest

from cgframework.testing import run_cli


@pytest.mark.parametrize(
    ("expression", "printed"),
    [
        ("rcf({2|^*}) == {2|0}", "true"),  # Grossman & Siegel: ^* is infinitesimal
        ("rcf({2|^*})", "{2|0}"),
        ("cool({3|-1}, 1)", "{2|0}"),  # WW ch. 6: cooling by t taxes each move by t
        ("heat(1*, 1)", "{2|0}"),  # Berlekamp's integral
        ("overheat(+-1, 1, 1)", "+-2"),
        ("freeze({2|{1|0}})", "5/4*"),
        ("aw(^^*)", "2"),  # WW ch. 8
        ("AW(*7) + aw(v)", "-1"),  # names are case-insensitive; sums of calls
        ("norton(3, ^) == ^3", "true"),
        ("norton(1/2, ^) + norton(1/2, ^)", "^"),
        ("* : 1", "^*"),  # ordinal sum {0,*|0}
        ("1 + 1 : -1", "3/2"),  # ':' binds tighter than '+'
        ("upnth(2)", "{0|v*}"),
        ("incentives({2|-1})", "[{3|0}]"),
        ("{aw(^), 0 | cool({2|0}, 1)}", "1^"),  # calls inside braces
    ],
)
def test_calc_functions(capsys, expression, printed):
    code, out, err = run_cli(capsys, "calc", expression)
    assert code == 0, err
    assert out.strip() == printed


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("foo(1)", "unknown function 'foo'"),
        ("cool(^)", "cool takes 2 arguments, not 1"),
        ("rcf(1, 2)", "rcf takes 1 argument, not 2"),
        ("aw({1|0})", "not all-small"),
        ("cool({1|0}, ^)", "temperature must be a number"),
        ("norton(1, *)", "positive unit"),
        ("incentives(^) + 1", "must stand alone"),
        ("incentives(^) == 0", "cannot be compared"),
        ("upnth(1000)", "expected an integer from 0 to"),
        ("norton(100000, ^)", "above the limit"),
        ("overheat(-1000, 1, 1)", "above the limit"),
        ("rcf(^", "expected ')'"),
    ],
)
def test_calc_bad_function_calls_are_one_line_exit_2(capsys, expression, message):
    code, out, err = run_cli(capsys, "calc", expression)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert out == ""


def test_calc_json_adds_reduced_atomic_weight_and_incentives(capsys):
    code, out, _ = run_cli(capsys, "calc", "^*", "--json")
    data = json.loads(out)
    assert code == 0
    assert (data["reduced"], data["atomic_weight"], data["incentives"]) == ("0", "1", ["^*"])
    code, out, _ = run_cli(capsys, "calc", "{2|^*}", "--json")
    data = json.loads(out)
    assert data["reduced"] == "{2|0}" and "atomic_weight" not in data
    code, out, _ = run_cli(capsys, "calc", "incentives({2|-1})", "--json")
    assert json.loads(out)["values"] == ["{3|0}"]


def test_solve_json_adds_reduced_and_atomic_weight(capsys):
    code, out, _ = run_cli(capsys, "solve", "domineering", "..|..|..", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["reduced"] == data["value"] == "{1/2|-2}" and "atomic_weight" not in data
    code, out, _ = run_cli(capsys, "solve", "nim", "3", "--json")
    data = json.loads(out)
    assert (data["value"], data["reduced"], data["atomic_weight"]) == ("*3", "0", "0")


def test_calc_timeout_stops_a_long_evaluation(capsys):
    """norton() of {x | 0} with x = 1/2^3000 takes minutes (the product recurses through x's
    3000 generations of options): --timeout stops it with one line, exit 3."""
    hot = "{1/" + str(2**3000) + "|0}"
    code, out, err = run_cli(capsys, "calc", f"norton({hot}, ^)", "--timeout", "0.5")
    assert (
        code == 3
        and out == ""
        and err.strip() == "cgf: error: search stopped after 0.5 s (--timeout)"
    )
    code, out, _ = run_cli(capsys, "calc", "norton(2, ^) == ^ + ^", "--timeout", "5")
    assert code == 0 and out.strip() == "true"
