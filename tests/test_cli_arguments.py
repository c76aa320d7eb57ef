"""The argument rule: a positional argument may start with ``-`` in every command
(plugins' too), options may come before or after it, and ``--`` marks the next word a value."""

from __future__ import annotations

import json

import pytest

from cgframework.testing import run_cli


@pytest.mark.parametrize(
    ("args", "printed"),
    [
        (("calc", "-1 + *"), "-1*"),
        (("calc", "-3/4"), "-3/4"),
        (("calc", "-v"), "^"),  # minus down is up: a word with a letter is a value too
        (("calc", "-5", "+", "5"), None),  # an extra argument is still refused (exit 2)
    ],
)
def test_negative_argument_calc(capsys, args, printed):
    code, out, err = run_cli(capsys, *args)
    if printed is None:
        assert code == 2 and len(err.strip().splitlines()) == 1
    else:
        assert (code, out.strip()) == (0, printed), err


def test_negative_argument_options_before_or_after(capsys):
    for args in (("calc", "-3/4", "--json"), ("calc", "--json", "-3/4")):
        code, out, err = run_cli(capsys, *args)
        assert code == 0, err
        assert json.loads(out)["value"] == "-3/4"


def test_negative_argument_double_dash_then_option(capsys):
    code, out, err = run_cli(capsys, "calc", "--", "-1", "--json")
    assert code == 0, err
    assert json.loads(out)["value"] == "-1"


def test_negative_argument_guaranteed_compare(capsys):
    code, out, err = run_cli(capsys, "guaranteed", "compare", "<^-3|-2>", "-5", "--json")
    assert code == 0, err
    assert json.loads(out)["relation"] == "incomparable"


def test_negative_argument_cr_sh_solve(capsys):
    # Thm 11 example of the README plus the integers 2 and -1: -30 + 2 - 1
    code, out, err = run_cli(capsys, "cr", "sh-solve", "{6|0|-55}", "{10|0|-36}", "2", "-1")
    assert code == 0, err
    assert out.split()[:2] == ["value", "-29"]


def test_negative_argument_solve_cheating_robot(capsys):
    code, out, err = run_cli(capsys, "solve", "cheating-robot", "-1 + {1|0|-1}", "--json")
    assert code == 0, err
    assert json.loads(out)["value"] == -1


def test_negative_argument_unknown_long_option_still_refused(capsys):
    code, _, err = run_cli(capsys, "calc", "1", "--jsn")
    assert code == 2 and "--jsn" in err and len(err.strip().splitlines()) == 1


def test_negative_argument_short_option_still_an_option(capsys, tmp_path):
    store, out_file = tmp_path / "s.sqlite", tmp_path / "x.jsonl"
    assert run_cli(capsys, "sweep", "nim", "heaps", "--to", "2", "--store", str(store))[0] == 0
    code, _, err = run_cli(capsys, "store", "export", str(store), "-o", str(out_file))
    assert code == 0, err
    assert len(out_file.read_text().splitlines()) == 3
