"""Heap games of any rule (``cgframework.heaps``): a plugin writes ``heap_options`` and gets
``cgf solve`` of big heaps, sums, ``cgf sequence``, plots, ``cgf quotient``, sweeps and clicks.

The fast paths are checked against the generic brute-force solver (``--method generic``) on
random heap rules; periods are claimed *proved* only for take-and-break codes, and every
proved claim is checked on a longer sequence."""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from functools import cache
from math import isqrt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import Player, RulesetError, format_position, options, parse_position, solve
from cgframework.authoring import HeapRuleset
from cgframework.heaps.periods import observed_period
from cgframework.heaps.table import HeapTable, known_rule, sequence_of
from cgframework.testing import run_cli

SQUARE_OR_HALVE = """\
from cgframework.authoring import HeapRuleset, hookimpl


class SquareOrHalve(HeapRuleset):
    name = "square-or-halve"  # from n: remove a positive square, or halve an even heap
    aliases = ("sqh",)

    def heap_options(self, n):
        k = 1
        while k * k <= n:
            yield (n - k * k,)
            k += 1
        if n % 2 == 0:
            yield (n // 2,)


@hookimpl
def register_rulesets(register):
    register(SquareOrHalve())
"""
"""The plugin of the guide's "Heap games" section, whole (19 lines)."""

KAYLES_IN_PYTHON = '''\
from cgframework.authoring import HeapRuleset, hookimpl


class PyKayles(HeapRuleset):
    """Kayles written out: knock down one pin or two adjacent ones, anywhere in the row."""

    name = "py-kayles"

    def heap_options(self, n):
        for take in (1, 2):
            for left in range(n - take + 1):
                yield (left, n - take - left)


class DeclaredKayles(PyKayles):
    name = "py-kayles-declared"
    take_and_break = "0.77"


class MisdeclaredKayles(PyKayles):
    name = "py-kayles-misdeclared"
    take_and_break = "0.07"


@hookimpl
def register_rulesets(register):
    register(PyKayles())
    register(DeclaredKayles())
    register(MisdeclaredKayles())
'''


@pytest.fixture
def sqh(load_tmp_plugin):
    assert len(SQUARE_OR_HALVE.splitlines()) <= 20
    load_tmp_plugin("sqh_plugin", SQUARE_OR_HALVE)


@pytest.fixture
def kayles_plugin(load_tmp_plugin):
    load_tmp_plugin("py_kayles_plugin", KAYLES_IN_PYTHON)


@cache
def naive_square_or_halve(top: int) -> list[int]:
    """G(0..top) by the mex rule, written out here without the framework."""
    g = [0] * (top + 1)
    for n in range(1, top + 1):
        seen = {g[n - k * k] for k in range(1, isqrt(n) + 1)}
        if n % 2 == 0:
            seen.add(g[n // 2])
        value = 0
        while value in seen:
            value += 1
        g[n] = value
    return g


def records(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


# ---- the square-or-halve plugin ---------------------------------------------------------


def test_a_short_plugin_solves_positions_and_sums(sqh, capsys):
    code, out, err = run_cli(capsys, "solve", "sqh", "10,7", "--json")
    assert code == 0, err
    record = json.loads(out)
    expected = naive_square_or_halve(100000)
    assert record["grundy"] == expected[10] ^ expected[7] and record["method"] == "heap-table"
    code, out, _ = run_cli(capsys, "solve", "sqh", "10 + 7", "--json")
    assert json.loads(out)["grundy"] == record["grundy"]
    generic = solve("sqh", "10,7", method="generic")
    assert generic.grundy == record["grundy"]
    assert set(generic.best_moves) == set(record["best_moves"])
    from cgframework import get_registry

    ruleset = get_registry().ruleset("square-or-halve")
    position = parse_position(ruleset, "10,7 + 3")
    assert format_position(ruleset, position) == "10,7 + 3"
    assert ruleset.canonical_key(parse_position(ruleset, "7,10")) == ruleset.canonical_key(
        parse_position(ruleset, "10,7")
    )
    assert [m.text for m in options(ruleset, parse_position(ruleset, "8"), Player.LEFT)] == [
        "8->7",
        "8->4",
    ]
    assert get_registry().family("square-or-halve", "heaps").generate(5) == "5"


def test_a_big_heap_is_solved_from_the_table(sqh):
    """``cgf solve RULESET n`` of one big heap: one pass over heaps 1..n (each a node of the
    budget), not a search; the values agree with a naive mex."""
    solution = solve("sqh", "100000")
    assert solution.method == "heap-table"
    assert solution.grundy == naive_square_or_halve(100000)[100000]
    assert solution.stats.nodes <= 100000
    with pytest.raises(Exception, match="max-nodes"):
        solve("sqh", "2000000", max_nodes=1000)


def test_sequence_to_100000_is_the_naive_mex(sqh, capsys, tmp_path):
    plot = tmp_path / "sqh.svg"
    code, out, err = run_cli(
        capsys, "sequence", "sqh", "--to", "100000", "--json", "--plot", str(plot)
    )
    assert code == 0, err
    record = json.loads(out)
    assert record["grundy"] == naive_square_or_halve(100000)
    assert record["period"] is None and record["theorem"] is None and record["code"] is None
    root = ET.fromstring(plot.read_text())
    columns = [p for p in root.iter("{http://www.w3.org/2000/svg}path") if p.get("class")]
    assert sum(p.get("class") == "value-column" for p in columns) == 800


def test_sequence_text_says_observed_not_proved(sqh, capsys):
    code, out, _ = run_cli(capsys, "sequence", "sqh", "--to", "40")
    assert code == 0
    assert "square-or-halve: G(0..40)" in out
    assert "no periodicity theorem" in out and "proven by" not in out


def test_quotient_of_the_plugin_agrees_with_the_misere_search(sqh, capsys):
    code, out, err = run_cli(capsys, "quotient", "sqh", "--max-heap", "10", "--json")
    assert code == 0, err
    record = json.loads(out)
    assert record["order"] % 2 == 0 and record["stabilised"] is False
    assert record["game"] == "square-or-halve" and record["code"] == "square-or-halve"
    from cgframework import get_registry
    from cgframework.heaps.quotient import misere_quotient

    ruleset = get_registry().ruleset("sqh")
    q = misere_quotient(ruleset, 10)
    for heaps in [(1,), (2, 2), (3, 5, 7), (4, 4, 9), (10, 6, 1), (2, 3, 4, 5), ()]:
        brute = solve("sqh", ",".join(map(str, heaps)) or "0", misere=True)
        assert q.outcome(heaps) == brute.outcome.value, heaps


def test_a_sweep_of_2000_heaps_computes_each_heap_once(sqh, capsys):
    """No store: the members share the rule's table, so the sweep's work is one pass over
    the heaps (the nodes of every record add up to 2000), not 2000 solves from scratch."""
    code, out, err = run_cli(capsys, "sweep", "sqh", "heaps", "--to", "2000")
    assert code == 0, err
    found = records(out)
    assert [r["grundy"] for r in found] == naive_square_or_halve(100000)[:2001]
    assert {r["method"] for r in found} == {"heap-table"}
    assert sum(r["stats"]["nodes"] for r in found) <= 2000


def test_clicks_and_option_cards_of_a_plugins_heaps(sqh):
    from cgframework.display import explorer
    from cgframework.display.pictures import LEFT_COLOUR

    assert explorer.move_at("sqh", "10,6", [(0, 6)])["move"] == "10->6"  # takes 4 = 2^2
    assert explorer.move_at("sqh", "10,6", [(1, 3)])["position"] == "10,3"  # halves 6
    assert explorer.move_at("sqh", "10,6", [(0, 7)])["status"] == "none"  # 3 is no square
    node = explorer.node("sqh", "10,6")
    card = next(o for o in node["left"] if o["move"] == "10->1")
    tokens = {
        e.get("data-cell"): e.get("fill")
        for e in ET.fromstring(card["svg"]).iter()
        if e.get("class") == "token" and e.get("fill") != "#c8a35a"
    }
    assert tokens == {f"0,{k}": LEFT_COLOUR for k in range(1, 10)}


# ---- Kayles written in Python -------------------------------------------------------------


def test_kayles_in_python_is_octal_077_with_an_observed_period(kayles_plugin, capsys):
    _, code_out, _ = run_cli(capsys, "sequence", "octal", "0.77", "--to", "400", "--json")
    coded = json.loads(code_out)
    status, out, err = run_cli(capsys, "sequence", "py-kayles", "--to", "400", "--json")
    assert status == 0, err
    python = json.loads(out)
    assert python["grundy"] == coded["grundy"]
    assert coded["period"] == 12 and coded["last_exception"] == 70 and coded["theorem"]
    assert python["period"] is None and python["theorem"] is None  # no theorem: not proved
    assert (python["observed"]["period"], python["observed"]["preperiod"]) == (12, 71)
    status, out, _ = run_cli(capsys, "sequence", "py-kayles", "--to", "400")
    assert "observed over heaps 0..400: period 12, pre-period 71" in out
    assert "proven by" not in out


def test_kayles_declaring_its_code_gets_the_proof_and_the_engine(kayles_plugin, capsys):
    status, out, err = run_cli(capsys, "sequence", "py-kayles-declared", "--to", "400", "--json")
    assert status == 0, err
    record = json.loads(out)
    assert (record["period"], record["last_exception"], record["code"]) == (12, 70, "0.77")
    status, out, _ = run_cli(
        capsys, "sequence", "py-kayles-declared", "--to", "10000000", "--until-period", "--json"
    )
    assert status == 0 and len(json.loads(out)["grundy"]) < 1000
    status, _, err = run_cli(capsys, "sequence", "py-kayles", "--until-period")
    assert status == 2 and "no periodicity theorem" in err and err.count("\n") == 1


def test_a_code_contradicted_by_heap_options_is_refused(kayles_plugin, capsys):
    status, out, err = run_cli(capsys, "sequence", "py-kayles-misdeclared", "--to", "50")
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "declares take_and_break = '0.07'" in err


@pytest.mark.parametrize("max_heap", [6, 9])
def test_kayles_in_python_has_octal_077s_quotient(kayles_plugin, capsys, max_heap):
    args = ("--max-heap", str(max_heap), "--json")
    _, coded, _ = run_cli(capsys, "quotient", "octal", "0.77", *args)
    status, python, err = run_cli(capsys, "quotient", "py-kayles", *args)
    assert status == 0, err
    coded, python = json.loads(coded), json.loads(python)
    for key in ("order", "table", "p_portion", "heap_images", "presentation", "stabilised"):
        assert coded[key] == python[key], key


# ---- the table engine against the brute force ---------------------------------------------


class TableRule(HeapRuleset):
    """A random heap rule: ``moves[n]`` lists the options of a heap of n."""

    name = "random-heaps"

    def __init__(self, moves: dict[int, list[tuple[int, ...]]]) -> None:
        self.moves = moves

    def heap_options(self, n):
        return iter(self.moves.get(n, []))


@st.composite
def heap_rules(draw, top: int = 12) -> TableRule:
    moves = {}
    for n in range(1, top + 1):
        option = st.lists(st.integers(0, n - 1), max_size=3).map(tuple)
        moves[n] = draw(st.lists(option, max_size=4))
    return TableRule(moves)


SETTINGS = settings(max_examples=150, deadline=None)


@SETTINGS
@given(heap_rules(), st.lists(st.integers(0, 12), min_size=1, max_size=3))
def test_the_table_agrees_with_the_generic_solver(rule, heaps):
    text = ",".join(map(str, heaps))
    fast = solve(rule, text, method="heap-table")
    slow = solve(rule, text, method="generic")
    assert fast.grundy == slow.grundy
    assert set(fast.best_moves) == set(slow.best_moves)
    auto = solve(rule, f"{text} + 3")
    assert auto.method == "heap-table"
    assert auto.grundy == solve(rule, f"{text} + 3", method="generic").grundy


@SETTINGS
@given(heap_rules())
def test_the_table_is_the_mex_of_the_options_nim_sums(rule):
    table = HeapTable(rule)
    table.extend(13)
    values = list(table.computed)
    for n in range(1, 13):
        seen = set()
        for option in rule.moves[n]:
            value = 0
            for m in option:
                value ^= values[m]
            seen.add(value)
        assert values[n] == min(set(range(len(seen) + 1)) - seen)


def test_a_rule_whose_options_do_not_shrink_is_refused():
    class Growing(HeapRuleset):
        name = "growing"

        def heap_options(self, n):
            yield (n,)

    with pytest.raises(RulesetError, match="from 0 to 4"):
        solve(Growing(), "5", method="generic")
    with pytest.raises(RulesetError, match="heap_options"):
        solve(Growing(), "5")


def test_ints_and_kept_zeros_are_options_too():
    class Loose(HeapRuleset):
        name = "loose"

        def heap_options(self, n):
            yield n - 1  # a bare int: one heap
            yield (0, n - 1)  # a zero kept

    rule = Loose()
    assert [m.text for m in options(rule, parse_position(rule, "3"), Player.LEFT)] == ["3->2"]
    assert list(sequence_of(rule).computed[:1]) == [0]
    assert solve(rule, "6").grundy == solve(rule, "6", method="generic").grundy == 0


# ---- proved periods: only for codes, and always true ---------------------------------------

octal_codes = st.lists(st.integers(0, 7), min_size=1, max_size=3).filter(lambda d: any(d))


@settings(max_examples=40, deadline=None)
@given(octal_codes)
def test_a_proved_period_holds_and_is_claimed_only_for_codes(digits):
    from cgframework_classic.heaps import OctalCode, code_rule
    from cgframework_classic.periodicity import grundy_sequence

    text = "0." + "".join(map(str, digits))
    code = OctalCode.parse(text)
    rule = code_rule(code)
    status_json = _sequence_record("octal", text, 400)
    if status_json["period"] is not None:
        p, i = status_json["period"], status_json["preperiod"]
        longer = grundy_sequence(code, 1600)
        assert all(longer[n] == longer[n + p] for n in range(i, 1600 - p))

    # the same rule written in Python, no code declared: never a proved period
    class Written(HeapRuleset):
        name = "written"

        def heap_options(self, n):
            return rule.heap_options(n)

    written = Written()
    assert known_rule(written) is None  # no engine knows it: no theorem, no proof
    table = HeapTable(written)
    table.extend(401)
    assert list(table.computed) == status_json["grundy"]
    seen = observed_period(table.computed)
    if status_json["period"] is not None and seen is not None:
        assert status_json["period"] % seen.period == 0  # the same pattern, seen


def _sequence_record(*words) -> dict:
    from cgframework.cli.sequences import compute, heap_game

    game = heap_game(words[0], words[1])
    seq, period = compute(game, int(words[2]), False, None)
    return {
        "grundy": list(seq.computed),
        "period": None if period is None else period.period,
        "preperiod": None if period is None else period.preperiod,
    }


# ---- the commands' rules -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("sequence", "domineering"), "not a heap ruleset"),
        (("sequence", "octal"), "needs an ARGUMENT"),
        (("sequence", "nim", "0.7"), "takes no ARGUMENT"),
        (("sequence", "octal", "0.9"), "not 0-7"),
        (("sequence", "partizan-subtraction", "1|2"), "partizan"),
        (("sequence", "kayles", "--to", "-1"), "--to"),
        (("sequence", "kayles", "--to", "10000001"), "--to"),
        (("sequence", "kayles", "--timeout", "0"), "--timeout"),
        (("sequence", "kayles", "--misere", "--to", "100001"), "--to"),
        (("sequence", "kayles", "--misere", "--until-period"), "--until-period"),
        (("sequence", "no-such-game"), "unknown ruleset"),
        (("quotient", "kayles", "--max-heap", "0"), "--max-heap"),
        (("quotient", "kayles", "--max-order", "0"), "--max-order"),
        (("quotient", "domineering"), "not a heap ruleset"),
    ],
)
def test_bad_input_is_one_line_exit_2(capsys, args, fragment):
    status, out, err = run_cli(capsys, *args)
    assert status == 2 and out == "" and err.count("\n") == 1, (out, err)
    assert fragment in err


def test_one_file_named_twice_is_refused(capsys, tmp_path):
    target = str(tmp_path / "same")
    for command in ("sequence", "quotient"):
        status, _, err = run_cli(capsys, command, "kayles", "-o", target, "--plot", target)
        assert status == 2 and "name the same file" in err
    assert not os.path.exists(target)


@pytest.mark.parametrize(
    "args",
    [
        ("sequence", "octal", "0.007", "--to", "10000000", "--timeout", "0.3"),
        ("sequence", "grundys-game", "--to", "10000000", "--max-nodes", "5000"),
        ("sequence", "kayles", "--misere", "--to", "60", "--max-nodes", "200"),
        ("quotient", "octal", "0.137", "--max-heap", "40", "--max-nodes", "300"),
        ("quotient", "octal", "0.137", "--max-heap", "40", "--max-order", "4"),
    ],
)
def test_limits_are_exit_3(capsys, args):
    status, out, err = run_cli(capsys, *args)
    assert status == 3 and err.count("\n") == 1, err


def test_outputs_follow_links_and_keep_devices(capsys, tmp_path):
    target = tmp_path / "values.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    status, _, err = run_cli(capsys, "sequence", "kayles", "--to", "12", "-o", str(link))
    assert status == 0, err
    assert link.is_symlink() and target.read_text().split()[:4] == ["0", "1", "2", "3"]
    status, out, _ = run_cli(
        capsys, "quotient", "kayles", "--max-heap", "4", "-o", "/dev/null", "--plot", "/dev/null"
    )
    assert status == 0 and out == "" and os.path.exists("/dev/null")
    picture = tmp_path / "images.svg"
    status, _, _ = run_cli(capsys, "quotient", "kayles", "--max-heap", "8", "--plot", str(picture))
    assert status == 0 and ET.fromstring(picture.read_text()).get("width")


def test_the_misere_genus_sequence_is_each_heaps_genus(capsys, tmp_path):
    out_file = tmp_path / "genus.txt"
    status, out, err = run_cli(
        capsys, "sequence", "kayles", "--misere", "--to", "9", "--json", "-o", str(out_file)
    )
    assert status == 0, err
    record = json.loads(out)
    for n in range(10):
        solution = solve("kayles", str(n), misere=True)
        assert record["genus"][n] == solution.extra["genus"], n
        assert record["misere_grundy"][n] == solution.extra["misere_grundy"]
    assert out_file.read_text().split() == record["genus"]


def test_the_classic_aliases_run_the_core_commands(capsys):
    _, new, _ = run_cli(capsys, "sequence", "octal", "0.137", "--to", "200", "--json")
    _, old, _ = run_cli(capsys, "classic", "sequence", "0.137", "--to", "200", "--json")
    _, older, _ = run_cli(capsys, "classic", "sequence", "octal", "0.137", "--to", "200", "--json")
    assert json.loads(new) == json.loads(old) == json.loads(older)
    _, new, _ = run_cli(capsys, "quotient", "octal", "0.75", "--max-heap", "24", "--json")
    _, old, _ = run_cli(capsys, "classic", "quotient", "0.75", "--max-heap", "24", "--json")
    new, old = json.loads(new), json.loads(old)
    assert new.pop("game") == "octal 0.75" and old.pop("game") == "octal 0.75"
    assert new == old and new["stabilised"]


# ---- families a ruleset brings, and sweeps that share -------------------------------------


def test_a_plugins_own_heaps_family_replaces_the_one_the_base_brings(load_tmp_plugin, capsys):
    load_tmp_plugin(
        "own_family",
        SQUARE_OR_HALVE.replace(
            "    register(SquareOrHalve())",
            "    register(SquareOrHalve())\n\n\n@hookimpl\ndef register_families(register):\n"
            "    from cgframework import Family\n\n"
            "    register(Family('heaps', 'square-or-halve', lambda n: str(2 * n), 'even'))",
        ),
    )
    from cgframework import get_registry

    assert get_registry().family("sqh", "heaps").generate(3) == "6"
    status, out, _ = run_cli(capsys, "rulesets", "--json")
    listed = {r["name"]: r for r in json.loads(out)}
    assert listed["square-or-halve"]["families"] == ["heaps"]


def test_a_sweep_without_a_store_shares_what_its_members_compute():
    """Domineering 2 x n boards: member n finds the values of the boards its search meets
    that earlier members already valued; the total work is less than solving each alone."""
    from cgframework.api import sweep

    shared = sum(r.solution.stats.nodes for r in sweep("domineering", "2xn", 1, 6))
    alone = sum(solve("domineering", f"{'.' * n}|{'.' * n}").stats.nodes for n in range(1, 7))
    assert shared < alone
    values = [str(r.solution.value) for r in sweep("domineering", "2xn", 1, 6)]
    assert values == [str(solve("domineering", f"{'.' * n}|{'.' * n}").value) for n in range(1, 7)]


# ---- a partizan heap game -----------------------------------------------------------------


def test_a_partizan_heap_game_writes_both_sides():
    class TakeOneOrTwo(HeapRuleset):
        """Left takes 1 token, Right takes 2 (a partizan subtraction game)."""

        name = "left-1-right-2"
        impartial = False

        def left_heap_options(self, n):
            yield (n - 1,)

        def right_heap_options(self, n):
            if n >= 2:
                yield (n - 2,)

    rule = TakeOneOrTwo()
    position = parse_position(rule, "3")
    assert [m.text for m in options(rule, position, Player.LEFT)] == ["3->2"]
    assert [m.text for m in options(rule, position, Player.RIGHT)] == ["3->1"]
    solution = solve(rule, "3,4")
    assert solution.method.startswith("canonical")
    assert str(solution.value) == str(solve("partizan-subtraction", "{1|2}:3,4").value)
