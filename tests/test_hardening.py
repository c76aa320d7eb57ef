"""Inputs that crashed or hung ``cgf`` are answered or refused in one line.

Each test is named after the failure it pins down (deep input, huge numbers, output size,
lenient parsing, Thm 5 without Right options)."""

from __future__ import annotations

import json
import sys
import threading

import pytest

from cgframework.runtime.deep import (
    DEEP_RECURSION_LIMIT,
    NestingError,
    call_deep,
    check_nesting,
    on_deep_thread,
    recursion_limit_at_least,
    start_deep,
)
from cgframework.testing import run_cli
from cgframework.values import parser


def one_line_refusal(capsys, code_wanted, *args):
    code, out, err = run_cli(capsys, *args)
    assert code == code_wanted, (code, err[:300])
    lines = err.strip().splitlines()
    assert len(lines) == 1 and len(lines[0]) < 400 and "Traceback" not in err
    return lines[0]


def nested_guaranteed(depth: int) -> str:
    return "<" * depth + "0" + "|^0>" * depth


@pytest.mark.parametrize("command", ["conj", "invertible", "canon", "stops"])
def test_deep_guaranteed_refused_with_the_limit(capsys, tmp_path, command):
    path = tmp_path / "deep.txt"
    path.write_text(nested_guaranteed(15_000))
    line = one_line_refusal(capsys, 2, "guaranteed", command, f"@{path}")
    assert "5000 levels" in line


def test_deep_guaranteed_compare_refused(capsys, tmp_path):
    path = tmp_path / "deep.txt"
    path.write_text(nested_guaranteed(15_000))
    assert "5000 levels" in one_line_refusal(capsys, 2, "guaranteed", "compare", f"@{path}", "0")


def test_deep_guaranteed_within_the_limit_answers(capsys, tmp_path):
    path = tmp_path / "deep.txt"
    path.write_text(nested_guaranteed(1500))
    code, out, err = run_cli(capsys, "guaranteed", "conj", f"@{path}", "--json")
    assert code == 0, err
    assert json.loads(out)["conjugate"].startswith("<^0|<^0|")


def test_deep_solve_guaranteed_refused(capsys, tmp_path):
    path = tmp_path / "deep.txt"
    path.write_text(nested_guaranteed(6000))
    one_line_refusal(capsys, 2, "solve", "guaranteed", f"@{path}")


def test_deep_wak_json_refused(capsys, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text('{"n":' + "[" * 100_000 + "]" * 100_000 + "}")
    assert "10 levels" in one_line_refusal(capsys, 2, "solve", "wak", f"@{path}")


def test_deep_cheating_robot_parser_refused(capsys, tmp_path):
    path = tmp_path / "deep.txt"
    path.write_text("{" * 3000 + "{1|0|-1}" + "|0|-1}" * 3000)
    assert "300 levels" in one_line_refusal(capsys, 2, "solve", "cheating-robot", f"@{path}")


def test_deep_recursion_limit_raised_only_on_the_deep_thread():
    before = sys.getrecursionlimit()
    assert before < DEEP_RECURSION_LIMIT  # importing the plugins did not raise it
    assert start_deep(sys.getrecursionlimit).wait() == DEEP_RECURSION_LIMIT
    assert sys.getrecursionlimit() == before


def test_deep_calls_started_at_once_leave_the_thread_stack_size_as_it_was():
    """Each deep call set the process's thread stack size, started its thread and put back
    the size it found, with no lock: a call starting while another's thread started found
    and put back 512 MiB, the stack of every later thread of the process."""
    before = threading.stack_size()
    together = threading.Barrier(4)

    def start_deep_calls() -> None:
        for _ in range(10):
            together.wait(10)
            start_deep(int).wait()

    threads = [threading.Thread(target=start_deep_calls) for _ in range(4)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert threading.stack_size() == before
    finally:
        threading.stack_size(before)


def test_a_parse_during_a_deep_call_leaves_the_recursion_limit_as_it_was(monkeypatch):
    """parse_value raised the (process-wide) limit and put back the one it found, by itself:
    a deep call that started while a parse ran lost its raised limit when the parse ended,
    and put back the parser's limit when it ended itself (left raised for the process)."""
    before = sys.getrecursionlimit()
    parsing, go_on = threading.Event(), threading.Event()
    expression = parser._Parser.expression

    def paused(self):
        parsing.set()
        go_on.wait(10)
        return expression(self)

    monkeypatch.setattr(parser._Parser, "expression", paused)
    text = "{|}"
    for _ in range(100):
        text = "{" + text + "|}"
    parse = threading.Thread(target=parser.parse_value, args=(text,))
    parse.start()
    assert parsing.wait(10)
    finish = threading.Event()
    deep_call = start_deep(lambda: finish.wait(10) and sys.getrecursionlimit())
    go_on.set()
    parse.join(10)
    during = sys.getrecursionlimit()  # the parse is over, the deep call still runs
    finish.set()
    assert deep_call.wait() == DEEP_RECURSION_LIMIT
    assert during == DEEP_RECURSION_LIMIT
    assert sys.getrecursionlimit() == before


def test_recursion_limits_asked_at_once_give_the_largest_and_then_the_first():
    before = sys.getrecursionlimit()
    with recursion_limit_at_least(5000):
        with recursion_limit_at_least(3000):
            assert sys.getrecursionlimit() == 5000
        with recursion_limit_at_least(before - 1):
            assert sys.getrecursionlimit() == 5000
        assert sys.getrecursionlimit() == 5000
    assert sys.getrecursionlimit() == before


def _descend(levels: int, wrap: bool = False) -> bool:
    """Recurse ``levels`` deep; say whether the bottom ran on the deep thread. ``wrap``: a
    RecursionError is reported as a ValueError, as parsers do."""
    if levels == 0:
        return on_deep_thread()
    try:
        return _descend(levels - 1, wrap)
    except RecursionError:
        if wrap:
            raise ValueError("nested too deeply") from None
        raise


def test_call_deep_runs_small_work_here_and_deep_work_on_the_deep_thread():
    assert call_deep(_descend, 10) is False  # no thread for tiny work
    assert call_deep(_descend, 5000) is True  # beyond the ordinary limit: re-run deep
    assert call_deep(_descend, 5000, True) is True  # also when the error is re-worded
    assert sys.getrecursionlimit() < DEEP_RECURSION_LIMIT


def test_deep_check_nesting_counts_prefix_runs():
    check_nesting("<" * 10 + ">" * 10, 10)
    with pytest.raises(NestingError, match="more than 10 levels"):
        check_nesting("~" * 11 + "0", 10, prefixes="~")
    check_nesting("~<0|0> + ~<0|0>", 2, prefixes="~")


def test_huge_number_guaranteed_add_refused_without_echo(capsys):
    score = "7" * 4300
    line = one_line_refusal(capsys, 2, "guaranteed", "add", score, score)
    assert "1000 digits" in line and score not in line


def test_huge_number_nim_heap_message_is_short(capsys):
    one_line_refusal(capsys, 2, "solve", "nim", "9" * 5000 + ",x")


def test_output_size_embed_star_100_refused(capsys):
    line = one_line_refusal(capsys, 3, "guaranteed", "embed", "--normal", "*100")
    assert "limit" in line


def test_lenient_parsing_mismatched_brackets_refused(capsys):
    one_line_refusal(capsys, 2, "guaranteed", "canon", "<0|0}")
    code, out, _ = run_cli(capsys, "guaranteed", "canon", "{0|0}")
    assert code == 0 and out.strip() == "<0|0>"


@pytest.mark.parametrize(
    "args",
    [
        ("guaranteed", "canon", "٣"),
        ("guaranteed", "canon", "<１|^0>"),
        ("solve", "cheating-robot", "٣"),
        ("solve", "nim", "３,4"),
        ("solve", "octal", "0.77:１0"),
        ("calc", "١"),
        ("calc", "*٣ + ^"),
        ("calc", "{0|1/٣}"),
        ("calc", "on + ١"),
    ],
)
def test_lenient_parsing_unicode_digits_refused(capsys, args):
    one_line_refusal(capsys, 2, *args)


def test_thm5_without_right_options(capsys):
    """Two Left options and no Right option: the table is empty, Thm 5 (L286) still applies."""
    code, out, err = run_cli(capsys, "solve", "cheating-robot", "{1,-1 | [[],[]] | }", "--json")
    assert code == 0, err
    generic = run_cli(
        capsys, "solve", "cheating-robot", "{1,-1||}", "--json", "--method", "generic"
    )
    assert json.loads(out)["outcome"] == json.loads(generic[1])["outcome"]


def test_cr_sh_solve_backend_bogus_refused(capsys):
    assert "unknown backend" in one_line_refusal(
        capsys, 2, "cr", "sh-solve", "{6|0|-55}", "--backend", "bogus"
    )


def test_pizza_share_no_four_ninths_claim_with_negative_weights(capsys):
    code, out, _ = run_cli(capsys, "pizza", "share", "3,-1,4,-1,5")
    assert code == 0 and "no 4/9 guarantee: negative weights" in out
    code, out, _ = run_cli(capsys, "pizza", "share", "0,1,0,1,0,0,1,0,2,0,0,2,0,2,0")
    assert code == 0 and "guarantees at least 4/9 on this pizza" in out  # L827


@pytest.mark.parametrize("first", ["L", "R"])
def test_influence_value_first_r_is_minus_rs(capsys, first):
    """The value is the mover's score difference: Ls for Left first, -Rs for Right first
    (paper L94-L127 counts both from Left's side); the generic minimax agrees."""
    args = ("solve", "influence", "LRRL:0>1,0>2,3>2", "--first", first, "--json")
    code, out, _ = run_cli(capsys, *args)
    data = json.loads(out)
    expected = data["scores"]["Ls"] if first == "L" else -data["scores"]["Rs"]
    assert code == 0 and data["value"] == expected
    generic = json.loads(run_cli(capsys, *args, "--method", "generic")[1])
    assert generic["value"] == expected


@pytest.mark.parametrize(
    "board",
    [".", "..", "...", "....", ".......", "..|..|.#", "....#.|##.###|......", ".|.|.|.|."],
)
def test_domineering_long_row_strip_shortcut_matches_generic(board):
    """Strips are solved by one dominating option each (Winning Ways ch. 1: 1 x 2k = -k);
    the brute force over every option agrees, alone and inside larger boards."""
    from cgframework.solvers.dispatch import solve

    fast = solve("domineering", board)
    generic = solve("domineering", board, method="generic")
    assert fast.value == generic.value and fast.best_moves == generic.best_moves


def test_domineering_long_row_fast_and_limited(capsys, tmp_path):
    path = tmp_path / "row.txt"
    path.write_text("." * 5001)
    code, out, err = run_cli(capsys, "solve", "domineering", f"@{path}", "--json")
    assert code == 0, err
    assert json.loads(out)["value"] == "-2500"
    path.write_text("." * 10_001)
    assert "10000 cells" in one_line_refusal(capsys, 2, "solve", "domineering", f"@{path}")


@pytest.mark.parametrize(
    ("ruleset", "text"),
    [("influence", "segment:١٠"), ("wak", "path:3,١"), ("pizza", "3,１,4"), ("kayles", "²")],
)
def test_lenient_parsing_unicode_digits_refused_by_every_ruleset(capsys, ruleset, text):
    one_line_refusal(capsys, 2, "solve", ruleset, text)


def test_embed_of_a_huge_integer_is_refused_before_building(capsys):
    """The GS image of the integer n is n forms deep: a 9-digit n ran for minutes."""
    code, out, err = run_cli(capsys, "guaranteed", "embed", "--normal", "999999999")
    assert code == 3 and out == "" and "limit: day 20000" in err


def test_out_of_memory_is_a_limit_in_one_line(capsys, monkeypatch):
    """A search too big for the machine's memory (MemoryError, e.g. from a compiled kernel's
    allocation or Python's) ends in exit 3 with one line, like the other limits, not in an
    "internal error" (a real run: Konane ``..xox.|.xoxox|xoxoxo|oxoxox|......|......`` under a
    700 MB address-space limit)."""
    import cgframework.cli.common as cli

    def too_big(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(cli, "solve", too_big)
    code, out, err = run_cli(capsys, "solve", "nim", "3")
    assert code == 3 and out == ""
    assert err.count("\n") == 1 and "out of memory" in err and "internal error" not in err


def test_out_of_memory_leaves_one_line_not_finalisers_noise(capsys, monkeypatch):
    """Out of memory, generators finalised on the way out raise MemoryError where Python can
    only report it to ``sys.unraisablehook`` ("Exception ignored in ...": three such lines came
    before the one that ends ``cgf --max-memory 500M solve kayles 10^12 --misere``). The CLI
    drops those; any other exception reaches the hook as before."""
    from types import SimpleNamespace

    reported: list = []
    monkeypatch.setattr(sys, "unraisablehook", reported.append)
    assert run_cli(capsys, "solve", "nim", "3")[0] == 0  # (the CLI's entry installs the hook)
    sys.unraisablehook(SimpleNamespace(exc_value=MemoryError()))
    sys.unraisablehook(SimpleNamespace(exc_value=ValueError("a real fault")))
    assert [type(r.exc_value) for r in reported] == [ValueError]
