"""Values too large to print: the text streamed from the DAG of subgames (the same characters
as ``str``), summaries in bounded memory, and the CLI, JSON and store that use them."""

from __future__ import annotations

import json
import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework.game import Player
from cgframework.io import structure_solution
from cgframework.plugins import get_registry
from cgframework.solvers.dispatch import solve
from cgframework.store.database import ValueStore, encode_memo, position_key
from cgframework.testing import run_cli
from cgframework.values import ZERO, game, nimber, notation, number, parse_value, thermograph
from cgframework.values.notation import MAX_LENGTH, elide, elided_text, iter_text, text_length
from cgframework.values.summary import (
    SUMMARY_KEYS,
    SUMMARY_LENGTH,
    ValueSummary,
    is_large,
    subgames,
    summarise,
)

leaves = st.one_of(
    st.integers(-2, 2).map(number),
    st.sampled_from([number("1/2"), number("-1/4"), nimber(1), nimber(2), parse_value("^")]),
)
games = st.recursive(
    leaves,
    lambda kids: st.builds(game, st.lists(kids, max_size=3), st.lists(kids, max_size=3)),
    max_leaves=12,
)


def clobber(n: int):
    """(XO)^n: the row ``xo`` n times, whose value's text grows about tenfold every two."""
    rs = get_registry().rulesets["clobber"]
    return solve(rs, rs.parse("xo" * n)).value


def switches(n: int):
    """{2|-1} + {4|-2} + ... + {2n|-n}: 8,105 subgames but 5.2e9 characters at n = 30."""
    total = ZERO
    for k in range(1, n + 1):
        total = total + game([number(2 * k)], [number(-k)])
    return total


def switches_text(n: int) -> str:
    return " + ".join(f"{{{2 * k}|{-k}}}" for k in range(1, n + 1))


def refuse_long_texts(monkeypatch, limit=SUMMARY_LENGTH):
    """The printer that builds a value's whole text fails the test if given a text longer
    than ``limit`` (shorter ones are fine: the memo of the store keeps those)."""
    printer = notation._Printer.text

    def refuse(self, g):
        if text_length(g) > limit:
            raise AssertionError(f"the whole text of a value was built ({text_length(g)})")
        return printer(self, g)

    monkeypatch.setattr(notation._Printer, "text", refuse)


@pytest.fixture
def no_whole_text(monkeypatch):
    refuse_long_texts(monkeypatch)


@settings(max_examples=200, deadline=None)
@given(games, st.integers(1, 50), st.integers(8, 120))
def test_the_streamed_text_is_str(g, chunk, max_length):
    text = str(g)
    assert "".join(iter_text(g, chunk)) == text
    assert "".join(iter_text(g, chunk, reverse=True)) == text[::-1]
    assert text_length(g) == len(text)
    assert elided_text(g, max_length) == elide(text, max_length)


@pytest.mark.parametrize("n", range(1, 12))
def test_the_streamed_text_of_clobber_values_is_str(n):
    g = clobber(n)
    text = str(g)
    assert "".join(iter_text(g, 4096)) == text
    assert elided_text(g, MAX_LENGTH) == elide(text, MAX_LENGTH)


@settings(max_examples=200, deadline=None)
@given(games)
def test_the_summary_agrees_with_the_value(g):
    s = summarise(g)
    assert (s.characters, s.birthday) == (len(str(g)), g.birthday())
    assert (s.left_stop, s.right_stop, s.outcome) == (
        g.left_stop(),
        g.right_stop(),
        g.outcome().value,
    )
    assert (s.temperature, s.mean) == (thermograph(g).temperature, thermograph(g).mast)
    assert ValueSummary.from_json(json.loads(json.dumps(s.to_json()))) == s


def test_a_huge_sum_is_summarised_in_bounded_memory(no_whole_text):
    g = switches(30)
    s = summarise(g, temperature_seconds=0)
    assert s.characters == 5_221_762_045 and s.subgames == len(subgames(g)) == 8105
    assert (s.birthday, s.left_stop, s.right_stop, s.outcome) == (960, 255, 210, "L")
    assert s.temperature is None and s.mean is None  # over the cap: not computed
    assert len(s.elided) < MAX_LENGTH and s.elided.endswith("(5221762045 characters, elided)")
    assert len(repr(g)) < 20_000 and encode_memo(g) is None


def test_a_deep_dag_needs_no_recursion():
    g = ZERO
    for k in range(1, 4001):  # {0|-1||-2|||-3 ...: 4000 levels
        g = game([g], [number(-k)])
    s = summarise(g)
    assert (s.birthday, s.subgames, s.outcome) == (4001, 8001, "R")
    assert sum(len(c) for c in iter_text(g)) == s.characters == text_length(g)


def test_cli_prints_a_huge_sum_as_a_summary(capsys, no_whole_text):
    code, out, err = run_cli(capsys, "--max-memory", "2G", "calc", "--json", switches_text(30))
    assert code == 0, err
    data = json.loads(out)
    assert data["value_kind"] == "summary" and set(data["value"]) == set(SUMMARY_KEYS)
    assert (data["birthday"], data["left_stop"], data["right_stop"]) == (960, 255, 210)
    code, out, err = run_cli(capsys, "calc", switches_text(30))
    assert code == 0 and out.endswith("(5221762045 characters, elided)\n")


def test_solve_shows_the_summary_of_a_long_value(capsys, no_whole_text):
    code, out, err = run_cli(capsys, "solve", "clobber", "xo" * 12)
    assert code == 0, err
    rows = dict(line.split("\t", 1) for line in out.splitlines())
    assert rows["value"].endswith("(1088475 characters, elided)")
    assert rows["value size"] == "943 distinct subgames, 1088475 characters"
    assert (rows["birthday"], rows["stops"], rows["temperature"]) == ("12", "left 0, right 0", "0")


def test_solve_json_gives_a_summary_object(capsys, no_whole_text):
    code, out, err = run_cli(capsys, "solve", "clobber", "xo" * 12, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["value_kind"] == "summary" and list(data["value"]) == list(SUMMARY_KEYS)
    assert data["value"]["characters"] == 1088475 > SUMMARY_LENGTH
    assert "reduced" not in data  # as long as the value: not computed
    assert structure_solution(data).value == ValueSummary.from_json(data["value"])


@pytest.mark.parametrize("as_json", [False, True])
def test_full_streams_exactly_str(capsys, as_json):
    g = clobber(12)
    text = str(g)
    assert len(text) > SUMMARY_LENGTH
    args = ["solve", "clobber", "xo" * 12, "--full"] + (["--json"] if as_json else [])
    with pytest.MonkeyPatch.context() as patch:
        refuse_long_texts(patch)
        code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    if as_json:
        data = json.loads(out)
        assert data["value"] == text and data["value_kind"] == "canonical"
        assert data["reduced"] == str(g.reduced())
    else:
        assert dict(line.split("\t", 1) for line in out.splitlines())["value"] == text


def test_calc_full_streams_exactly_str(capsys):
    g = switches(12)
    text = str(g)
    with pytest.MonkeyPatch.context() as patch:
        refuse_long_texts(patch, limit=len(text) - 1)
        plain = run_cli(capsys, "calc", "--full", switches_text(12))
        code, out, err = run_cli(capsys, "calc", "--full", "--json", switches_text(12))
    assert plain[1] == text + "\n"
    assert code == 0, err
    data = json.loads(out)
    assert data["value"] == data["reduced"] == text  # (a hot game: its own reduced form)
    assert data["incentives"] == [str(x) for x in g.incentives()]


def test_the_store_keeps_a_summary_of_a_huge_value(capsys, tmp_path, no_whole_text):
    store = str(tmp_path / "v.sqlite")
    code, out, err = run_cli(capsys, "solve", "clobber", "xo" * 12, "--store", store)
    assert code == 0, err
    with sqlite3.connect(store) as db:
        (row,) = db.execute("SELECT solution FROM solutions").fetchall()
        memo = db.execute("SELECT value FROM memo").fetchall()
    assert len(row[0]) < 10_000 and json.loads(row[0])["value_kind"] == "summary"
    assert all(len(text) < SUMMARY_LENGTH for (text,) in memo)
    rs = get_registry().rulesets["clobber"]
    with ValueStore(store) as values:
        assert (
            values.get(rs, position_key(rs, rs.parse("xo" * 12), Player.LEFT)) is None
        )  # solved again
    code, out, err = run_cli(capsys, "store", "verify", store)
    assert code == 0, err + out


def test_is_large_reads_no_text(no_whole_text):
    assert is_large(clobber(12)) and not is_large(clobber(11)) and not is_large(7)


def test_full_on_a_terminal_streams_a_long_value_below_the_table(capsys, monkeypatch):
    g = clobber(12)
    monkeypatch.setattr("cgframework.cli.commands.stdout_is_terminal", lambda: True)
    monkeypatch.setattr("cgframework.cli.common.stdout_is_terminal", lambda: True)
    with pytest.MonkeyPatch.context() as patch:
        refuse_long_texts(patch)
        code, out, err = run_cli(capsys, "solve", "clobber", "xo" * 12, "--full")
    assert code == 0, err
    table, value = out.rstrip("\n").rsplit("\n", 1)
    assert value == str(g) and "(1088475 characters, below)" in table


def test_a_notebook_shows_a_long_value_elided_with_its_summary(no_whole_text):
    rs = get_registry().rulesets["clobber"]
    solution = solve(rs, rs.parse("xo" * 12))
    html = solution._repr_html_()
    assert len(html) < 20_000 and "943 distinct subgames" in html
    assert "(1088475 characters, elided)" in html
    assert solution.value._repr_latex_() is None  # Jupyter shows the (elided) repr instead
    assert repr(solution.value).endswith("(1088475 characters, elided)')")
