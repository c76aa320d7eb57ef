"""Inputs that once crashed or stalled: each now runs at once (values kept
as symbols, nim in O(heaps), sparse subtraction sets, no recursion on sizes) or is refused in
one line. Timings are in benchmarks/RESULTS.md, not here."""

from __future__ import annotations

import json
import sys

import pytest

from cgframework import solve
from cgframework.testing import run_cli


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("calc", "*20000"), "*20000"),
        (("calc", "^100000"), "^100000"),
        (("calc", "1/2v*255"), "1/2v*255"),
        (("calc", "^100000 + *20000"), "^100000*20000"),
        (("calc", "2.25 + 9223372036854775808 < 22"), "false"),
        (("calc", "^9"), "^9"),  # was {0|^8*}
        (("calc", "*16 + ^"), "^*16"),  # was {0|*17}
        (("cr", "neg", "{1|100000|-1}"), "{1|-100000|-1}"),
        (("cr", "outcome", "{100000|0|-1}"), "D"),
    ],
)
def test_issue_inputs_print_their_value(capsys, args, expected):
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    assert out.strip() == expected


def test_calc_json_of_a_large_integer(capsys):
    code, out, err = run_cli(capsys, "calc", "--json", "30000")
    assert code == 0, err
    data = json.loads(out)
    assert (data["value"], data["birthday"], data["outcome"]) == ("30000", 30000, "L")


@pytest.mark.parametrize(
    ("ruleset", "position", "method", "grundy"),
    [
        ("nim", "5000", "auto", 5000),
        ("nim", "20000", "auto", 20000),
        ("nim", "4294967296,7,12345678901", "auto", 4294967296 ^ 7 ^ 12345678901),
        ("nim", "4294967296", "nim-sum", 4294967296),
        ("subtraction", "{1,1000000000}:5", "auto", 1),
        ("subtraction", "{1,1000000000}:5", "generic", 1),
    ],
)
def test_heap_games_of_any_size(capsys, ruleset, position, method, grundy):
    code, out, err = run_cli(capsys, "solve", ruleset, position, "--method", method, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["grundy"] == grundy and data["value"] == (f"*{grundy}" if grundy > 1 else "*")


def test_nim_best_moves_without_listing_options(capsys):
    code, out, _ = run_cli(capsys, "solve", "nim", "4294967296,7,12345678901", "--json")
    s = 4294967296 ^ 7 ^ 12345678901
    assert code == 0 and json.loads(out)["best_moves"] == [f"12345678901->{12345678901 ^ s}"]


def test_cheating_robot_large_integer(capsys):
    code, out, err = run_cli(capsys, "solve", "cheating-robot", "20000", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert (data["value"], data["outcome"]) == (20000, "L")


def test_sweep_nim_heap_30000(capsys):
    code, out, err = run_cli(capsys, "sweep", "nim", "heaps", "--from", "30000", "--to", "30000")
    assert code == 0, err
    assert json.loads(out.splitlines()[0])["value"] == "*30000"


def test_generic_grundy_search_does_not_recurse_on_heap_size():
    """The generic Grundy solver walks a heap of 5000 (5000 levels deep) with an explicit
    stack: it works under a recursion limit of 400."""
    limit = sys.getrecursionlimit()
    solve("subtraction", "{1,2}:10")  # imports and registers before the limit drops
    sys.setrecursionlimit(400)
    try:
        solution = solve("subtraction", "{1,2}:5000", method="grundy")
    finally:
        sys.setrecursionlimit(limit)
    assert solution.grundy == 5000 % 3


@pytest.mark.parametrize(
    "text",
    [
        "{0|" * 5000 + "0" + "}" * 5000,  # 15 KB of nesting: quadratic and then a stack overflow
        "-" * 5000 + "1",
        "(" * 5000 + "1" + ")" * 5000,
    ],
)
def test_deep_calc_input_is_refused_in_one_line(capsys, text):
    code, _, err = run_cli(capsys, "calc", "--", text)
    assert code == 2 and err.count("\n") == 1 and "nesting deeper than" in err
    assert len(err) < 600


def test_wide_calc_input_parses(capsys):
    """Long but shallow input is read in linear time."""
    text = "{" + ",".join(["0"] * 5000) + "|" + ",".join(["1"] * 5000) + "}"
    code, out, _ = run_cli(capsys, "calc", text + " + " + " + ".join(["*"] * 5001))
    assert (code, out.strip()) == (0, "1/2*")


def test_long_values_elided_unless_full(capsys):
    text = "+".join(f"{{{k}|-{k}}}" for k in range(1, 12))
    code, short, _ = run_cli(capsys, "calc", text)
    assert code == 0 and "elided" in short and len(short) < 1200
    code, full, _ = run_cli(capsys, "calc", text, "--full")
    assert code == 0 and "elided" not in full and len(full) > 5000
    code, out, _ = run_cli(capsys, "calc", full.strip() + " == " + text)
    assert out.strip() == "true"
