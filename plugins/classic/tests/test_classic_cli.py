"""The classic plugin through ``cgf``: the acceptance checks of the core issue."""

from __future__ import annotations

import json

import pytest

from cgframework.testing import run_cli as run


def test_rulesets_json_lists_classic_rulesets_with_syntax(capsys):
    code, out, _ = run(capsys, "rulesets", "--json")
    assert code == 0
    records = {r["name"]: r for r in json.loads(out)}
    for name in ("nim", "subtraction", "octal", "kayles", "dawsons-kayles", "domineering"):
        assert records[name]["syntax"] and records[name]["plugin"] == "classic"
    assert records["nim"]["impartial"] and not records["domineering"]["impartial"]
    assert records["kayles"]["families"] == ["heaps"]
    assert records["domineering"]["families"] == ["2xn", "rows"]


def test_solve_nim_json(capsys):
    code, out, _ = run(capsys, "solve", "nim", "3,4,5", "--json")
    record = json.loads(out)
    assert code == 0
    assert record["outcome"] == "N" and record["grundy"] == 2 and record["value"] == "*2"
    assert record["best_moves"] == ["3->1"]


def test_solve_domineering_json(capsys):
    code, out, _ = run(capsys, "solve", "domineering", "..|..|..", "--json")
    record = json.loads(out)
    assert code == 0 and record["method"] == "canonical"
    # computed here, and checked by the transposition/reflection and outcome tests
    assert record["value"] == "{1/2|-2}" and record["outcome"] == "N"


def test_sequence_command_reports_the_period(capsys):
    code, out, _ = run(capsys, "classic", "sequence", "kayles", "--to", "500", "--json")
    record = json.loads(out)
    assert code == 0 and (record["period"], record["last_exception"]) == (12, 70)
    code, out, _ = run(capsys, "classic", "sequence", "octal", "0.07", "--to", "500")
    assert code == 0 and "period 34" in out and "heap 52" in out


ONE_WORD_AND_ALIAS = [
    ("0.07", ("octal", "0.07")),
    ("4.07", ("octal", "4.07")),
    ("0.137", ("octal", "0.137")),
    ("hex:0.F", ("hex", "0.F")),
    ("hex:0.8", ("hex", "0.8")),
    ("{1,2,5}", ("subtraction", "{1,2,5}")),
    ("kayles", ("octal", "0.77")),
    ("dawsons-kayles", ("octal", "0.07")),
]


@pytest.mark.parametrize(("code", "alias"), ONE_WORD_AND_ALIAS)
def test_sequence_reads_codes_as_quotient_does_and_keeps_the_old_spelling(capsys, code, alias):
    """``cgf classic sequence CODE`` takes each code as ``cgf classic quotient CODE`` does;
    the older ``sequence FAMILY CODE`` gives the same record."""
    status, new, err = run(capsys, "classic", "sequence", code, "--to", "60", "--json")
    assert status == 0, err
    status, old, err = run(capsys, "classic", "sequence", *alias, "--to", "60", "--json")
    assert status == 0, err
    assert json.loads(new) == json.loads(old)
    status, out, err = run(capsys, "classic", "quotient", code, "--max-heap", "3", "--json")
    assert status == 0, err
    assert json.loads(out)["code"] == json.loads(new)["code"]


def test_sequence_of_grundys_game_in_one_word(capsys):
    status, out, _ = run(capsys, "classic", "sequence", "grundys-game", "--to", "12", "--json")
    assert status == 0 and json.loads(out)["grundy"][:8] == [0, 0, 0, 1, 0, 2, 1, 0]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("sequence", "nim"), "expected an octal code"),
        (("sequence", "0.77", "0.5"), "follows only octal, hex or subtraction"),
        (("sequence", "octal"), "needs a CODE"),
        (("sequence", "hex:0.0"), "allows no move"),
        (("quotient", "grundys-game"), "not a take-and-break code"),
        (("quotient", "octal"), "a family, not a code"),
    ],
)
def test_code_refusals_are_one_line(capsys, args, fragment):
    status, out, err = run(capsys, "classic", *args)
    assert status == 2 and out == "" and err.count("\n") == 1 and fragment in err, err


@pytest.mark.parametrize(
    "args",
    [
        ("solve", "nim", "3,x"),
        ("solve", "nim", ""),
        ("solve", "octal", "0.9:3"),
        ("solve", "octal", "3"),
        ("solve", "domineering", "..|."),
        ("solve", "domineering", "..|.x"),
        ("solve", "subtraction", "{0}:3"),
        ("solve", "subtraction", "1,2:3"),
        ("solve", "kayles", "3 + "),
        ("classic", "sequence", "octal", "0.8"),
        ("classic", "sequence", "subtraction", "{0,1}"),
        ("classic", "sequence", "nim"),
        ("classic", "sequence", "kayles", "--to", "-1"),
    ],
)
def test_malformed_input_exits_2_with_one_line(capsys, args):
    code, out, err = run(capsys, *args)
    assert code == 2, (out, err)
    assert err.count("\n") == 1 and "Traceback" not in err
