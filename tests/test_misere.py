"""``--misere``: misère outcomes, winning moves, misère Grundy values and genera, against brute
forces written here on heap tuples and game trees (independent of the solver's code)."""

from __future__ import annotations

import json
from functools import cache, reduce
from operator import xor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import (
    Outcome,
    Player,
    SearchStopped,
    get_registry,
    options,
    parse_position,
    solve,
)
from cgframework.solvers import misere
from cgframework.solvers.dispatch import solve_misere_play
from cgframework.testing import run_cli
from tests.toy_rulesets import ImpartialTreeRuleset, Tree, TreeRuleset


def mex(values) -> int:
    seen = set(values)
    n = 0
    while n in seen:
        n += 1
    return n


def octal_moves(code: tuple[int, ...], heaps: tuple[int, ...]):
    """Octal game 0.d1d2...: bit 1 of d_k takes k leaving nothing, bit 2 leaving one heap,
    bit 4 leaving two non-empty heaps (Winning Ways ch. 4)."""
    for i, h in enumerate(heaps):
        rest = heaps[:i] + heaps[i + 1 :]
        for k, digit in enumerate(code, start=1):
            left = h - k
            if left == 0 and digit & 1:
                yield tuple(sorted(rest))
            if left >= 1 and digit & 2:
                yield tuple(sorted(rest + (left,)))
            if left >= 2 and digit & 4:
                for a in range(1, left // 2 + 1):
                    yield tuple(sorted(rest + (a, left - a)))


def nim_moves(heaps: tuple[int, ...]):
    for i, h in enumerate(heaps):
        for left in range(h):
            yield tuple(sorted(heaps[:i] + (left,) + heaps[i + 1 :]))


@cache
def brute_misere_grundy(code: tuple[int, ...] | None, heaps: tuple[int, ...]) -> int:
    moves = set(nim_moves(heaps) if code is None else octal_moves(code, heaps))
    return mex(brute_misere_grundy(code, m) for m in moves) if moves else 1


def check(ruleset: str, text: str, code, heaps) -> None:
    heaps = tuple(heaps)
    solution = solve_misere_play(ruleset, text, genus=False)
    expected = brute_misere_grundy(code, tuple(sorted(heaps)))
    assert solution.extra["misere_grundy"] == expected
    assert solution.outcome is (Outcome.N if expected else Outcome.P)
    has_moves = any(True for _ in (nim_moves(heaps) if code is None else octal_moves(code, heaps)))
    assert bool(solution.best_moves) == (expected != 0 and has_moves)


heap_lists = st.lists(st.integers(1, 5), min_size=1, max_size=3)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=1, max_size=4))
def test_misere_nim_against_brute_force_and_the_known_rule(heaps):
    """Misère nim (Bouton 1902; Winning Ways ch. 13): P iff all heaps <= 1 and an odd number
    of 1-heaps, or some heap >= 2 and nim-sum 0."""
    solution = solve_misere_play("nim", ",".join(map(str, heaps)), genus=False)
    small = all(h <= 1 for h in heaps)
    rule_p = (small and sum(heaps) % 2 == 1) or (not small and reduce(xor, heaps) == 0)
    assert (solution.outcome is Outcome.P) == rule_p
    check("nim", ",".join(map(str, heaps)), None, heaps)


@settings(max_examples=30, deadline=None)
@given(heap_lists)
def test_misere_kayles_against_brute_force(heaps):
    check("kayles", ",".join(map(str, heaps)), (7, 7), heaps)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 7), max_size=2), st.integers(1, 7), heap_lists)
def test_misere_octal_games_against_brute_force(digits, last_digit, heaps):
    digits = [*digits, last_digit]
    code = "0." + "".join(map(str, digits))
    check("octal", f"{code}:{','.join(map(str, heaps))}", tuple(digits), heaps)


def test_nim_heap_genera():
    """Winning Ways ch. 13 / ONAG ch. 12: 0 = 0^120, *1 = 1^031, *n = n^{n, n+2} (n >= 2)."""
    genera = [solve_misere_play("nim", str(n)).extra["genus"] for n in range(6)]
    assert genera == ["0^120", "1^031", "2^20", "3^31", "4^46", "5^57"]


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(["kayles", "dawsons-kayles"]), st.lists(st.integers(1, 4), max_size=3))
def test_genus_does_not_change_with_more_terms(ruleset, heaps):
    """The genus stops at a period-2 window (GENUS_WINDOW); computing every term to
    height + 10 gives the same."""
    text = ",".join(map(str, heaps)) or "0"
    short = solve_misere_play(ruleset, text).extra["genus"]
    saved = misere.GENUS_WINDOW, misere.GENUS_EXTRA_TERMS
    misere.GENUS_WINDOW, misere.GENUS_EXTRA_TERMS = 1_000, 10
    try:
        assert solve_misere_play(ruleset, text).extra["genus"] == short
    finally:
        misere.GENUS_WINDOW, misere.GENUS_EXTRA_TERMS = saved


def trees():
    leaf = st.just(Tree())
    return st.recursive(
        leaf,
        lambda sub: st.builds(
            Tree,
            st.lists(sub, max_size=2).map(tuple),
            st.lists(sub, max_size=2).map(tuple),
        ),
        max_leaves=8,
    )


@cache
def brute_mover_wins(tree: Tree, left_to_move: bool) -> bool:
    options = tree.lefts if left_to_move else tree.rights
    return not options or any(not brute_mover_wins(o, not left_to_move) for o in options)


@settings(max_examples=60, deadline=None)
@given(trees(), st.sampled_from(list(Player)))
def test_partizan_misere_against_brute_force(tree, first):
    solution = solve_misere_play(TreeRuleset(), tree, first=first)
    expected = Outcome.from_wins(brute_mover_wins(tree, True), brute_mover_wins(tree, False))
    assert solution.outcome is expected
    options = tree.lefts if first is Player.LEFT else tree.rights
    winning = [
        f"{first.value}{i}"
        for i, o in enumerate(options)
        if not brute_mover_wins(o, first is Player.RIGHT)
    ]
    assert list(solution.best_moves) == winning


def test_cli_misere(capsys):
    code, out, err = run_cli(capsys, "solve", "nim", "1,1,1", "--misere", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["convention"] == "misere" and data["outcome"] == "P"
    assert data["misere_grundy"] == 0 and data["genus"] == "1^031"
    code, _, err = run_cli(capsys, "solve", "pizza", "1,2", "--misere")
    assert code == 2 and "normal-play" in err and err.count("\n") == 1


@cache
def brute_mixed(code: tuple[int, ...], heaps: tuple[int, ...], nim: tuple[int, ...]) -> int:
    """Misère Grundy value of octal heaps plus nim heaps (a move in exactly one heap)."""
    moves = {(m, nim) for m in octal_moves(code, heaps)}
    moves |= {(heaps, m) for m in nim_moves(nim)}
    return mex(brute_mixed(code, h, n) for h, n in moves) if moves else 1


def parse_genus(text: str) -> tuple[int, list[int]]:
    base, terms = text.split("^")
    return int(base), [int(t) for t in terms]  # single digits in these small cases


@settings(max_examples=12, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=2))
def test_kayles_genus_against_brute_force(heaps):
    """γn = misère Grundy value of G + n nim-heaps of 2 (Winning Ways ch. 13), by a brute
    force on (kayles heaps, nim heaps); the brute-force sequence keeps the period-2 tail for
    four more terms than the solver printed."""
    heaps = tuple(sorted(heaps))
    g, terms = parse_genus(solve_misere_play("kayles", ",".join(map(str, heaps))).extra["genus"])
    assert g == solve("kayles", ",".join(map(str, heaps))).grundy  # normal play: g
    gammas = [brute_mixed((7, 7), heaps, (2,) * n) for n in range(len(terms) + 4)]
    assert gammas[: len(terms)] == terms
    assert all(gammas[k] == gammas[k - 2] for k in range(len(terms), len(gammas)))


def test_misere_search_respects_the_node_budget(capsys):
    code, out, err = run_cli(capsys, "solve", "kayles", "40,33,35", "--misere", "--max-nodes", "50")
    assert code == 3 and out == "" and "search stopped after" in err
    assert len(err.strip().splitlines()) == 1


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=1, max_size=3))
def test_solve_takes_misere_from_python(heaps):
    """``solve(..., misere=True)`` is ``cgf solve --misere`` from Python: misère nim is a
    second-player win exactly when the heaps' misère Grundy value is 0 (brute force here)."""
    text = ",".join(map(str, heaps))
    solution = solve("nim", text, misere=True)
    expected = brute_misere_grundy(None, tuple(sorted(heaps)))
    assert solution.convention.value == "misere"
    assert solution.extra["misere_grundy"] == expected
    assert (solution.outcome is Outcome.P) == (expected == 0)


def test_solve_misere_refuses_other_methods_and_the_store(tmp_path):
    from cgframework import SolverError
    from cgframework.store.database import ValueStore

    with pytest.raises(SolverError, match="brute-force"):
        solve("nim", "3", misere=True, method="grundy")
    with ValueStore(tmp_path / "s.sqlite") as store, pytest.raises(SolverError, match="store"):
        solve("nim", "3", misere=True, store=store)
    with pytest.raises(SolverError, match="normal-play"):
        solve("pizza", "1,2,3", misere=True)


def heaps_of(text: str) -> tuple[int, ...]:
    """The heap sizes of a nim or octal position's text (``3,1`` or ``0.137:3,1``)."""
    sizes = text.rsplit(":", 1)[-1]
    return tuple(sorted(int(h) for h in sizes.split(",") if int(h)))


def check_misere_outcome(ruleset: str, text: str, code, first: Player, listed: bool) -> None:
    """``--misere --outcome`` against the brute force here: who wins and the winning moves
    (each option's heaps valued by :func:`brute_misere_grundy`); no misère Grundy value and
    no genus are computed."""
    solution = solve(
        ruleset, text, misere=True, outcome_only=True, first=first, winning_moves=listed
    )
    wins = brute_misere_grundy(code, heaps_of(text)) != 0
    assert solution.convention.value == "misere" and solution.value is None
    assert solution.outcome is (Outcome.N if wins else Outcome.P)
    assert (solution.extra["left_first"], solution.extra["right_first"]) == (
        ("L", "R") if wins else ("R", "L")
    )
    assert "genus" not in solution.extra and "misere_grundy" not in solution.extra
    rules = get_registry().ruleset(ruleset)
    winning = {
        m.text
        for m in options(rules, parse_position(rules, text), first)
        if brute_misere_grundy(code, heaps_of(rules.format(m.result))) == 0
    }
    assert set(solution.best_moves) == (winning if listed else set())
    assert solution.extra.get("winning_moves", True) is listed


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(0, 6), min_size=1, max_size=4),
    st.sampled_from(list(Player)),
    st.booleans(),
)
def test_misere_outcome_of_nim_against_brute_force(heaps, first, listed):
    check_misere_outcome("nim", ",".join(map(str, heaps)), None, first, listed)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(0, 7), max_size=2),
    st.integers(1, 7),
    heap_lists,
    st.sampled_from(list(Player)),
)
def test_misere_outcome_of_octal_games_against_brute_force(digits, last_digit, heaps, first):
    digits = [*digits, last_digit]
    text = f"0.{''.join(map(str, digits))}:{','.join(map(str, heaps))}"
    check_misere_outcome("octal", text, tuple(digits), first, True)


@settings(max_examples=60, deadline=None)
@given(trees(), st.sampled_from(list(Player)))
def test_partizan_misere_outcome_against_brute_force(tree, first):
    solution = solve_misere_play(TreeRuleset(), tree, first=first, outcome_only=True)
    left, right = brute_mover_wins(tree, True), brute_mover_wins(tree, False)
    assert solution.outcome is Outcome.from_wins(left, right)
    assert solution.extra["left_first"] == ("L" if left else "R")
    assert solution.extra["right_first"] == ("R" if right else "L")
    options_ = tree.lefts if first is Player.LEFT else tree.rights
    winning = [
        f"{first.value}{i}"
        for i, o in enumerate(options_)
        if not brute_mover_wins(o, first is Player.RIGHT)
    ]
    assert list(solution.best_moves) == winning


@settings(max_examples=40, deadline=None)
@given(trees())
def test_impartial_misere_outcome_of_trees_against_brute_force(tree):
    """An impartial ruleset's tree (Left's options are everyone's): one search for both
    players, as misère Grundy value 0 says."""
    solution = solve_misere_play(ImpartialTreeRuleset(), tree, outcome_only=True)
    wins = brute_impartial_wins(tree)
    assert solution.outcome is (Outcome.N if wins else Outcome.P)
    full = solve_misere_play(ImpartialTreeRuleset(), tree, genus=False)
    assert (full.extra["misere_grundy"] != 0) == wins


@cache
def brute_impartial_wins(tree: Tree) -> bool:
    return not tree.lefts or any(not brute_impartial_wins(o) for o in tree.lefts)


def test_misere_outcome_stops_at_the_first_winning_move():
    """Who wins needs neither every option's misère Grundy value nor the genus: far fewer
    positions than the full misère answer."""
    quick = solve("kayles", "5,7", misere=True, outcome_only=True, winning_moves=False)
    values = solve_misere_play("kayles", "5,7", genus=False)
    assert quick.outcome is values.outcome
    assert quick.stats.nodes < values.stats.nodes


def test_cli_misere_outcome(capsys):
    code, out, err = run_cli(capsys, "solve", "kayles", "5,7,9", "--misere", "--outcome", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["convention"] == "misere" and data["method"] == "misere-outcome"
    assert data["outcome"] == "N" and data["value"] is None and "genus" not in data
    assert data["best_moves"] == list(solve("kayles", "5,7,9", misere=True).best_moves)
    code, out, err = run_cli(
        capsys,
        "solve",
        "domineering",
        "..|..|..",
        "--misere",
        "--outcome",
        "--no-moves",
        "--first",
        "R",
    )
    assert code == 0, err
    assert "misere-outcome" in out and "winning_moves" in out
    code, _, err = run_cli(capsys, "solve", "kayles", "5", "--misere", "--outcome", "--jobs", "2")
    assert code == 2 and err.count("\n") == 1 and "--misere" in err


def test_genus_work_is_charged_to_the_node_budget(capsys):
    """The genus values the position with heaps of 2 and 1 added: every such position is a
    node of ``--max-nodes``, so a budget the misère Grundy value fits in stops the genus."""
    grundy_only = solve_misere_play("kayles", "4,6", genus=False)
    full = solve_misere_play("kayles", "4,6")
    assert full.stats.nodes > 3 * grundy_only.stats.nodes
    budget = grundy_only.stats.nodes + 10
    assert solve_misere_play("kayles", "4,6", genus=False, max_nodes=budget).outcome is (
        grundy_only.outcome
    )
    with pytest.raises(SearchStopped):
        solve_misere_play("kayles", "4,6", max_nodes=budget)
    code, out, err = run_cli(
        capsys, "solve", "kayles", "4,6", "--misere", "--max-nodes", str(budget)
    )
    assert code == 3 and out == "" and err.count("\n") == 1 and "--max-nodes" in err


@pytest.mark.parametrize(
    "ruleset, position, outcome",
    [("domineering", "...|...", "L"), ("kayles", "5", "N"), ("nim", "1,1,1", "P")],
)
def test_a_misere_solve_never_gives_an_outcome_letter_as_its_value(
    ruleset, position, outcome, capsys
):
    """Misère values are not computed: the value is None with ``value_unknown`` saying so, in
    Python, in JSON and in the text table (it was the outcome letter)."""
    solution = solve(ruleset, position, misere=True)
    assert solution.value is None and solution.outcome.value == outcome
    assert "not computed" in solution.extra["value_unknown"]
    code, out, _ = run_cli(capsys, "solve", ruleset, position, "--misere", "--json")
    data = json.loads(out)
    assert code == 0 and data["value"] is None and data["outcome"] == outcome
    code, out, _ = run_cli(capsys, "solve", ruleset, position, "--misere")
    assert code == 0 and "value\tunknown: " in out and f"value\t{outcome}\n" not in out


def test_a_misere_solve_reads_and_writes_the_stores_misere_rows(tmp_path, capsys):
    """``cgf solve --misere --store``: computed and stored once, read back the second time; the
    row answers neither a normal-play solve nor ``--outcome`` (refused with a store, exit 2);
    ``cgf store verify`` recomputes it in misère play."""
    store = str(tmp_path / "m.sqlite")
    args = ("solve", "kayles", "7", "--misere", "--store", store, "--json")
    code, first, _ = run_cli(capsys, *args)
    code2, second, _ = run_cli(capsys, *args)
    assert code == code2 == 0
    first, second = json.loads(first), json.loads(second)
    assert not first.get("from_store") and second["from_store"] is True
    assert second["genus"] == first["genus"] == "2^20" and second["misere_grundy"] == 2
    code, out, _ = run_cli(capsys, "solve", "kayles", "7", "--store", store, "--json")
    assert code == 0 and json.loads(out)["convention"] == "normal"
    assert not json.loads(out).get("from_store")
    code, _, err = run_cli(capsys, *args[:-1], "--outcome")
    assert code == 2 and "--outcome does not use the value store" in err
    code, _, err = run_cli(capsys, "store", "verify", store, "--all")
    assert code == 0 and "2 recomputed" in err and " 0 bad" in err
