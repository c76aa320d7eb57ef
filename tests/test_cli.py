"""The ``cgf`` contract of DESIGN.md: calc, solve errors, one-line messages with exit 2."""

from __future__ import annotations

import io
import json

import pytest

from cgframework.testing import run_cli


@pytest.mark.parametrize(
    ("expression", "printed"),
    [
        ("* + *", "0"),  # Winning Ways ch. 2: * + * = 0
        ("^ + ^ + *", "^^*"),  # Siegel CGT II.4
        ("{1|0} + {1|0}", "1"),  # Winning Ways ch. 2 (two switches cancel to a number)
        ("{0|1}", "1/2"),  # Winning Ways ch. 1
        ("1/2 - (^*)", "1/2v*"),
    ],
)
def test_calc_prints_canonical_forms(capsys, expression, printed):
    code, out, err = run_cli(capsys, "calc", expression)
    assert code == 0, err
    assert out.strip() == printed


def test_calc_expression_starting_with_minus_after_double_dash(capsys):
    code, out, _ = run_cli(capsys, "calc", "--", "-(^*) + 1/2")
    assert (code, out.strip()) == (0, "1/2v*")


@pytest.mark.parametrize(
    ("expression", "answer"),
    [("^ > 0", "true"), ("^ || *", "true"), ("^ >= *", "false"), ("{3||2|1} == {3||2|1}", "true")],
)
def test_calc_comparisons(capsys, expression, answer):
    """Winning Ways ch. 3: ^ is positive and confused with *."""
    code, out, _ = run_cli(capsys, "calc", expression)
    assert (code, out.strip()) == (0, answer)


def test_calc_json_gives_stops_mean_and_temperature(capsys):
    code, out, _ = run_cli(capsys, "calc", "{3|1}", "--json")
    assert code == 0
    facts = json.loads(out)
    # Lessons in Play ch. 6: {3|1} has mean 2 and temperature 1
    assert facts["mean"] == 2 and facts["temperature"] == 1 and facts["outcome"] == "L"


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("calc", "{1|"), "{1|"),
        (("calc", "1", "--universe", "nope"), "unknown universe"),
        (("solve", "no-such-ruleset", "1"), "unknown ruleset"),
        (("solve", "nim", "@/no/such/file"), "cannot read position file"),
        (("solve", "nim", "3", "--method", "warp"), "unknown method"),
        (("solve", "nim", "3", "--method", "minimax"), "does not apply"),
        (("solve", "nim", "3", "--first", "X"), "unknown player"),
        (("solve", "nim"), "give a POSITION or --board FILE"),
        (("solve", "nim", "3", "--board", "x.json"), "give a POSITION or --board FILE"),
        (("frobnicate",), "no such command"),
    ],
)
def test_bad_input_is_one_line_on_stderr_with_exit_2(capsys, args, fragment):
    code, out, err = run_cli(capsys, *args)
    assert code == 2
    assert fragment in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert out == ""


def test_position_from_file_and_stdin(capsys, tmp_path, monkeypatch):
    path = tmp_path / "pos.txt"
    path.write_text("3,4,5\n")
    code, out, _ = run_cli(capsys, "solve", "nim", f"@{path}", "--json")
    assert code == 0 and json.loads(out)["grundy"] == 2
    code, out, _ = run_cli(capsys, "solve", "nim", "--board", str(path), "--json")
    assert code == 0 and json.loads(out)["grundy"] == 2
    monkeypatch.setattr("sys.stdin", io.StringIO("1,2\n"))
    code, out, _ = run_cli(capsys, "solve", "nim", "-", "--json")
    assert code == 0 and json.loads(out)["grundy"] == 3
