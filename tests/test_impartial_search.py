"""The Lemoine-Viennot search (``cgframework.solvers.impartial_search``): nimbers and P/N
against the mex route and plain brute force, on octal heap sums, Cram boards and Arc-Kayles
graphs, with the table small enough that its replacement rule runs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import SolveContext, solve
from cgframework.game import Player, Sum, canonical_key, components, options, parse_position
from cgframework.plugins import get_registry
from cgframework.solvers.impartial_search import (
    KeyedGame,
    LemoineViennot,
    PositionGame,
    first_player_wins,
    lv_grundy,
)


def brute_wins(ruleset, position) -> bool:
    """Does the player to move win? The definition, over whole positions, no sums split."""
    memo: dict = {}

    def wins(pos) -> bool:
        key = canonical_key(ruleset, pos)  # the sorted multiset of its heaps
        if key not in memo:
            memo[key] = any(not wins(m.result) for m in options(ruleset, pos, Player.LEFT))
        return memo[key]

    return wins(position)


def lv_nimber(ruleset, position, game_type, **kwargs) -> tuple[int, LemoineViennot]:
    ctx = SolveContext()
    search = LemoineViennot(game_type(ruleset, ctx), ctx, **kwargs)
    total = 0
    for key in search.game.parts(position):
        total ^= search.nimber(key)
    return total, search


codes = st.sampled_from(["0.77", "0.07", "0.137", "0.6", "4.7", "0.51"])


@st.composite
def table_and_heaps(draw):
    """A table size and heaps: with a table of 2 or 8 entries, heaps of at most 10 (past that
    a search whose table forgets everything takes minutes: 4.7 on 14,14,14 with 2 entries,
    70 s; 10,10,10,10, 0.2 s)."""
    table_limit = draw(st.sampled_from([2, 8, 1 << 20]))
    most = 14 if table_limit > 8 else 10
    return table_limit, draw(st.lists(st.integers(0, most), min_size=1, max_size=4))


@settings(max_examples=60, deadline=None)
@given(codes, table_and_heaps(), st.integers(0, 6))
def test_octal_heap_sums_match_the_mex_route(code, table_and_heaps, small):
    """Every small/large split and table size (2: the oldest half goes at every insertion)
    gives the mex route's nimber; the heap sum is searched as a sum of components."""
    table_limit, heaps = table_and_heaps
    text = f"{code}:{','.join(map(str, heaps))}"
    ruleset = get_registry().ruleset("octal")
    position = parse_position(ruleset, text)
    expected = solve("octal", text, method="grundy").grundy
    found, _ = lv_nimber(ruleset, position, PositionGame, small=small, table_limit=table_limit)
    assert found == expected


@settings(max_examples=40, deadline=None)
@given(codes, st.lists(st.integers(0, 9), min_size=1, max_size=3), st.integers(0, 4))
def test_p_or_n_matches_brute_force(code, heaps, small):
    """The outcome search alone (no nimber) says N exactly when brute force does."""
    text = f"{code}:{','.join(map(str, heaps))}"
    ruleset = get_registry().ruleset("octal")
    position = parse_position(ruleset, text)
    ctx = SolveContext()
    search = LemoineViennot(PositionGame(ruleset, ctx), ctx, small=small)
    assert search.wins(search.game.parts(position), 0) == brute_wins(ruleset, position)


@st.composite
def cram_boards(draw, rows=4, cols=4):
    h = draw(st.integers(1, rows))
    w = draw(st.integers(1, cols))
    cells = draw(st.text(alphabet="...#", min_size=h * w, max_size=h * w))
    return "|".join(cells[r * w : (r + 1) * w] for r in range(h))


@settings(max_examples=50, deadline=None)
@given(cram_boards(), st.integers(0, 8))
def test_cram_on_keys_matches_the_mex_route(board, small):
    """Cram's own key protocol (``option_keys``) under the search."""
    ruleset = get_registry().ruleset("cram")
    position = parse_position(ruleset, board)
    expected = solve("cram", board, method="generic").grundy
    assert lv_nimber(ruleset, position, KeyedGame, small=small)[0] == expected


@settings(max_examples=40, deadline=None)
@given(cram_boards(3, 4), cram_boards(2, 3))
def test_solve_by_lemoine_viennot_on_sums(first, second):
    """``method="lemoine-viennot"``: the nimber, outcome and moves to zero of the mex route,
    on a sum (the position's own search for one board, the key protocol for a sum)."""
    for text in (first, f"{first} + {second}"):
        plain = solve("cram", text, method="generic")
        fast = solve("cram", text, method="lemoine-viennot")
        assert (fast.grundy, fast.outcome) == (plain.grundy, plain.outcome)
        assert sorted(fast.best_moves) == sorted(plain.best_moves)
        assert fast.method == "lemoine-viennot"


@st.composite
def small_graphs(draw, max_order=7):
    n = draw(st.integers(2, max_order))
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    edges = draw(st.lists(st.sampled_from(pairs), min_size=1, max_size=n + 4, unique=True))
    return n, sorted(edges)


@settings(max_examples=40, deadline=None)
@given(small_graphs(), st.integers(0, 6))
def test_arc_kayles_graphs_match_the_mex_route(g, small):
    """A ruleset with only the plain protocol (positions, certificates as keys)."""
    n, edges = g
    text = ",".join(f"{u}-{v}" for u, v in edges) + f";n={n}"
    ruleset = get_registry().ruleset("arc-kayles")
    position = parse_position(ruleset, text)
    expected = solve("arc-kayles", text, method="generic").grundy
    assert lv_nimber(ruleset, position, PositionGame, small=small)[0] == expected


@settings(max_examples=40, deadline=None)
@given(small_graphs(8))
def test_arc_kayles_on_vertex_masks_matches_the_mex_route(g):
    """``method="lemoine-viennot"`` on one Arc-Kayles graph: the ruleset's own view (vertex
    masks, ``impartial_game``), its nimber and moves to zero those of the mex route."""
    n, edges = g
    text = ",".join(f"{u}-{v}" for u, v in edges) + f";n={n}"
    plain = solve("arc-kayles", text, method="generic")
    fast = solve("arc-kayles", text, method="lemoine-viennot")
    assert fast.grundy == plain.grundy
    assert sorted(fast.best_moves) == sorted(plain.best_moves)


@pytest.mark.parametrize("rows, cols", [(2, 4), (3, 3), (3, 5), (4, 4)])
def test_arc_kayles_grids_are_cram_boards(rows, cols):
    """Cram is Arc-Kayles on the grid of its cells (a domino takes two adjacent cells)."""
    plain = solve("arc-kayles", f"grid:{rows}x{cols}", method="generic").grundy
    assert solve("arc-kayles", f"grid:{rows}x{cols}", method="lemoine-viennot").grundy == plain
    assert solve("cram", f"rect:{rows}x{cols}", method="lemoine-viennot").grundy == plain


def test_first_player_wins_without_the_nimber():
    """A P-test asks one question: a P-position is shown by its options' winning replies,
    no component of the root gets a nimber."""
    ruleset = get_registry().ruleset("kayles")
    position = parse_position(ruleset, "9 + 9")  # G + G: P at once, without search
    ctx = SolveContext()
    assert first_player_wins(ruleset, position, ctx) is False
    assert ctx.table.nodes == 0
    ctx = SolveContext()
    assert first_player_wins(ruleset, parse_position(ruleset, "5 + 9 + 13"), ctx) is True
    found = lv_grundy(ruleset, parse_position(ruleset, "5 + 9 + 13"), SolveContext())
    assert found == solve("kayles", "5 + 9 + 13", method="grundy").grundy == 4 ^ 4 ^ 1


def test_equal_components_cancel_and_known_ones_join_the_heap():
    ruleset = get_registry().ruleset("kayles")
    ctx = SolveContext()
    search = LemoineViennot(PositionGame(ruleset, ctx), ctx, small=0)
    (a,) = search.game.parts(parse_position(ruleset, "7"))
    (b,) = search.game.parts(parse_position(ruleset, "5"))
    assert search.reduce([a, b, a], 3) == ((b,), 3)
    search.nimber(b)  # Kayles 5 = *4
    assert search.reduce([a, b, a], 3) == ((), 3 ^ 4)


def test_the_replacement_rule_drops_the_oldest_half():
    ruleset = get_registry().ruleset("kayles")
    position = parse_position(ruleset, "9 + 8 + 6")
    found, search = lv_nimber(ruleset, position, PositionGame, small=0, table_limit=16)
    assert found == solve("kayles", "9 + 8 + 6", method="grundy").grundy
    assert len(search.outcomes) <= 16


def test_only_impartial_rulesets():
    from cgframework.solvers.common import SolverError

    with pytest.raises(SolverError, match="does not apply"):
        solve("domineering", "..|..", method="lemoine-viennot")


def test_a_sum_object_is_split_into_its_parts():
    ruleset = get_registry().ruleset("kayles")
    position = Sum((parse_position(ruleset, "4"), parse_position(ruleset, "4")))
    assert len(components(ruleset, position)) == 2
    assert solve(ruleset, position, method="lemoine-viennot").grundy == 0


def test_under_memory_pressure_the_tables_shrink_then_the_search_stops(monkeypatch):
    """Past 70% of the ceiling the oldest sums go (the answer stays exact); past 90% the
    search stops as a memory limit (``cgf`` exit 3), not an out-of-memory kill."""
    from cgframework.runtime import memory
    from cgframework.solvers import impartial_search

    monkeypatch.setattr(impartial_search, "MEMORY_CHECK_NODES", 1)
    monkeypatch.setitem(memory._state, "limit", 1000)
    monkeypatch.setattr(memory, "resident_bytes", lambda: 800)
    found = solve("kayles", "19 + 17 + 15 + 11", method="lemoine-viennot").grundy
    assert found == solve("kayles", "19 + 17 + 15 + 11", method="grundy").grundy
    monkeypatch.setattr(memory, "resident_bytes", lambda: 950)
    with pytest.raises(memory.MemoryLimitExceeded, match="Lemoine-Viennot"):
        solve("kayles", "19 + 17 + 15 + 12", method="lemoine-viennot")


@pytest.mark.parametrize(
    "ruleset, text, outcome",
    [
        ("cram", "rect:4x6", "P"),
        ("cram", "rect:3x7", "N"),
        ("node-kayles", "cycle:5 + cycle:5", "P"),
    ],
)
def test_outcome_only_on_an_impartial_ruleset_is_one_p_test(capsys, ruleset, text, outcome):
    """``--outcome``: P or N by the Lemoine-Viennot search, no nimber, the outcome search's
    keys; the moves to P-positions are the mex route's, in the ruleset's order."""
    import json

    from cgframework.testing import run_cli

    found = solve(ruleset, text, outcome_only=True)
    plain = solve(ruleset, text, method="generic")
    assert found.method.startswith("lemoine-viennot") and found.value is None
    assert found.grundy is None and found.outcome.value == outcome == plain.outcome.value
    assert list(found.best_moves) == list(plain.best_moves)
    code, out, err = run_cli(capsys, "solve", ruleset, text, "--outcome", "--json")
    assert code == 0, err
    answer = json.loads(out)
    assert answer["outcome"] == outcome and answer["value"] is None
    assert answer["left_first"] == ("L" if outcome == "N" else "R")
    assert answer["right_first"] == ("R" if outcome == "N" else "L")


@pytest.mark.parametrize(
    "ruleset, text, outcome, method",
    [
        ("nim", "10**30", "N", "nim-sum"),
        ("nim", "10**30 + 10**30", "P", "nim-sum"),
        ("kayles", "10**12", "N", "periodic-octal"),
        ("octal", "0.07:10**12,10**12", "P", "periodic-octal"),
    ],
)
def test_outcome_only_takes_a_theorem_when_one_applies(ruleset, text, outcome, method):
    """``--outcome`` on a heap no search could expand (the P-test listed its 10^30 options and
    never ended): the solver ``auto`` picks (nim-sum, periodic-octal) answers, no value."""
    text = text.replace("10**30", str(10**30)).replace("10**12", str(10**12))
    found = solve(ruleset, text, outcome_only=True, timeout=20)
    assert found.method == method and found.value is None and found.grundy is None
    assert found.outcome.value == outcome
    assert found.extra["left_first"] == ("L" if outcome == "N" else "R")
    assert found.extra["right_first"] == ("R" if outcome == "N" else "L")
