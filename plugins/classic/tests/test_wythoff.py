"""Wythoff's game: exact Beatty P-positions, the Grundy table against a naive mex and the
generic solver, and the OEIS values."""

from __future__ import annotations

import sys
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import LimitExceeded, SearchStopped, get_registry, parse_position, solve
from cgframework.runtime.budget import SearchBudget
from cgframework.values import mex
from cgframework_classic import closed_forms, wythoff
from cgframework_classic.wythoff import (
    GrundyTable,
    grundy_rectangle,
    is_p_position,
    p_position,
    pair_results,
)


def naive_grundy(size: int) -> dict[tuple[int, int], int]:
    """G(a, b) for a, b < size by the definition: the mex of the options' values (a plain
    dictionary walk over ``pair_results``, independent of the bit-mask table)."""
    g: dict[tuple[int, int], int] = {}
    for a in range(size):
        for b in range(size):
            g[a, b] = mex(g[x, y] for x, y in pair_results(a, b))
    return g


def test_p_positions_are_oeis_a000201_and_a001950():
    """Wythoff pairs (floor(k phi), floor(k phi^2)): OEIS A000201 (lower Wythoff sequence)
    and A001950 (upper), k = 1..20."""
    a000201 = [1, 3, 4, 6, 8, 9, 11, 12, 14, 16, 17, 19, 21, 22, 24, 25, 27, 29, 30, 32]
    a001950 = [2, 5, 7, 10, 13, 15, 18, 20, 23, 26, 28, 31, 34, 36, 39, 41, 44, 47, 49, 52]
    assert [p_position(k) for k in range(1, 21)] == list(zip(a000201, a001950, strict=True))


def test_beatty_pairs_are_the_mex_construction_to_5000():
    """Independently of any irrational: a_k is the least number not among the earlier a's
    and b's, b_k = a_k + k (Wythoff 1907). Exact to k = 5000 (and beyond any float)."""
    used: set[int] = set()
    a = 0
    for k in range(5000):
        while a in used:
            a += 1
        assert p_position(k) == (a, a + k)
        used.update((a, a + k))
    big = 10**40
    lower, upper = p_position(big)
    assert is_p_position(lower, upper) and is_p_position(upper, lower)
    assert not is_p_position(lower + 1, upper) and not is_p_position(lower, upper + 1)


def test_grundy_table_matches_the_definition():
    naive = naive_grundy(30)
    fast = grundy_rectangle(29, 29)
    assert all(fast[a][b] == naive[a, b] for a, b in naive)
    p_squares = {(a, b) for (a, b), g in naive.items() if g == 0}
    assert p_squares == {(a, b) for a, b in naive if is_p_position(a, b)}
    table = GrundyTable()  # grown on demand, any orientation
    assert table(3, 20) == naive[3, 20] and table(25, 7) == naive[25, 7]
    assert table(29, 29) == naive[29, 29]


def test_grundy_values_are_oeis():
    """OEIS A317205 (Wythoff's Grundy values, triangle T(n, m) = G(n - 1, m - 1), m <= n;
    Winning Ways p. 76 of the 1st ed.; Blass & Fraenkel 1990, Table 2), its first 8 rows, and
    OEIS A047708 (the diagonal G(n, n)), its first 20 terms."""
    a317205 = [
        [0],
        [1, 2],
        [2, 0, 1],
        [3, 4, 5, 6],
        [4, 5, 3, 2, 7],
        [5, 3, 4, 0, 6, 8],
        [6, 7, 8, 1, 9, 10, 3],
        [7, 8, 6, 9, 0, 1, 4, 5],
    ]
    a047708 = [0, 2, 1, 6, 7, 8, 3, 5, 4, 16, 14, 15, 10, 9, 11, 20, 13, 21, 12, 25]
    table = grundy_rectangle(20, 20)
    naive = naive_grundy(20)
    for n, row in enumerate(a317205):
        assert [table[n][m] for m in range(n + 1)] == row
        assert [naive[n, m] for m in range(n + 1)] == row
    assert [table[n][n] for n in range(20)] == a047708
    assert [naive[n, n] for n in range(20)] == a047708
    assert solve("wythoff", "7,4", method="generic").grundy == a317205[7][4] == 0
    assert solve("wythoff", "7,4").grundy == 0


NAIVE_50 = naive_grundy(50)


def test_table_grows_by_what_is_asked():
    """Every pair a, b < 50 in order, in one table: each value right, and the table never
    more than the 50 x 50 triangle (a table that doubled its width on each new row stopped
    at (42, 42), past its limit)."""
    table = GrundyTable()
    for a in range(50):
        for b in range(50):
            assert table(a, b) == NAIVE_50[a, b]
    assert table.squares == 50 * 51 // 2


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 49), st.integers(0, 49)), min_size=1, max_size=8))
def test_table_in_any_order_is_the_union_of_the_rectangles_asked(requests):
    table = GrundyTable()
    asked: set[tuple[int, int]] = set()
    for a, b in requests:
        assert table(a, b) == NAIVE_50[a, b]
        low, high = min(a, b), max(a, b)
        asked.update((i, j) for i in range(low + 1) for j in range(i, high + 1))
        assert table.covers(a, b) and table.covers(b, a)
    assert table.squares == len(asked)
    for i, j in asked:  # what an earlier request computed is still right after a later one
        assert table(i, j) == NAIVE_50[i, j]


def test_a_deadline_between_rows_leaves_a_sound_table():
    table = GrundyTable()
    table(5, 20)
    budget = SearchBudget(timeout=0.0).start()
    budget.deadline = 0.0  # long past
    with pytest.raises(SearchStopped):
        table(30, 40, budget)
    assert table.squares == sum(21 - i for i in range(6))
    assert all(table(a, b) == NAIVE_50[a, b] for a in range(50) for b in range(50))


def test_a_long_thin_table_is_refused_at_once(monkeypatch):
    """A long thin table has few squares but long masks (0,3000000: about a terabyte of
    them): refused before any work, in one line, not grown to the memory ceiling. Shown
    here with the allowance lowered to 1 MB (0,5000 needs about 3 MB)."""
    assert wythoff.mask_bytes(0, 3_000_000) > wythoff.MAX_MASK_BYTES
    assert wythoff.mask_bytes(2000, 2000) < wythoff.MAX_MASK_BYTES // 100
    monkeypatch.setattr(wythoff, "MAX_MASK_BYTES", 1 << 20)
    table = GrundyTable()
    with pytest.raises(LimitExceeded, match="MB of bit masks"):
        table(0, 5000)
    assert table.squares == 0
    assert table(3, 49) == NAIVE_50[3, 49]  # the table is still of use
    masks = (*table.column_masks, *table.diagonal_masks, *table.row_masks)
    assert sum(sys.getsizeof(m) for m in masks) <= wythoff.mask_bytes(3, 49)  # a bound


def test_many_pairs_in_one_sum():
    """The 18 pairs (1, 1) ... (18, 18) in one position, on a fresh table: 171 squares, not
    19 x 262144 (past the limit)."""
    text = ";".join(f"{n},{n}" for n in range(1, 19))
    with mock.patch.object(closed_forms, "TABLE", GrundyTable()):
        result = solve("wythoff", text)
    expected = 0
    for n in range(1, 19):
        expected ^= NAIVE_50[n, n]
    assert result.grundy == expected == 17


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), min_size=1, max_size=3),
    st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=3),
)
def test_wythoff_table_matches_generic_from_any_table(pairs, earlier):
    """The specialised solver against the generic search, on a fresh table first grown by
    other requests (in random order), as the shared one is in a long process."""
    table = GrundyTable()
    for a, b in earlier:
        table(a, b)
    text = ";".join(f"{a},{b}" for a, b in pairs)
    if len(pairs) > 1:
        text = text.replace(";", " + ", 1)
    with mock.patch.object(closed_forms, "TABLE", table):
        fast = solve("wythoff", text)
    slow = solve("wythoff", text, method="generic")
    assert fast.method == "wythoff-table"
    assert (fast.grundy, fast.outcome) == (slow.grundy, slow.outcome)
    assert set(fast.best_moves) == set(slow.best_moves)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), min_size=1, max_size=3))
def test_wythoff_table_matches_generic(pairs):
    text = ";".join(f"{a},{b}" for a, b in pairs)
    if len(pairs) > 1:
        text = text.replace(";", " + ", 1)  # a sum and a multi-pair position at once
    fast = solve("wythoff", text)
    slow = solve("wythoff", text, method="generic")
    assert fast.method == "wythoff-table"
    assert (fast.grundy, fast.outcome) == (slow.grundy, slow.outcome)
    assert set(fast.best_moves) == set(slow.best_moves)


def test_syntax_and_limits():
    ruleset = get_registry().ruleset("wythoff")
    for text in ("3,5", "3,5;1,2", "0"):
        assert ruleset.format(ruleset.parse(text)) == text
    assert ruleset.format(ruleset.parse(" 0,0 ")) == "0"
    assert ruleset.canonical_key(ruleset.parse("5,3")) == ruleset.canonical_key(
        ruleset.parse("3,5")
    )
    assert len(parse_position(ruleset, "3,5 + 2,2").parts) == 2
    for bad in ("3", "3,5,7", "a,b", "-1,2", "3,5;"):
        with pytest.raises(ValueError):
            ruleset.parse(bad)
    svg = ruleset.draw(ruleset.parse("2,3"))
    assert svg.count('class="square p-position"') == 3  # (0,0), (1,2), (2,1)
    with pytest.raises(LimitExceeded):
        solve("wythoff", "5000,5000")
