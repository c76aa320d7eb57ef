"""Sums with unopened parts by the DP over list suffixes (sums.py), the root's move outcomes
(fast.py) and the sequence boards (chains.py), each against its slow twin: sorting again,
the generic minimax, and the general board parser."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cgframework import get_registry, solve
from cgframework_pizza import fast, sums
from cgframework_pizza.board import format_board, parse_board
from cgframework_pizza.chains import Chains, chains_board, parse_chains
from cgframework_pizza.slices import (
    cancel_pairs,
    list_value,
    plateau_points,
    plateau_runs,
    tes_slice_weights,
    tes_weights_and_ends,
)

small = st.integers(-4, 6)
desc = st.lists(small, max_size=8).map(lambda ws: sorted(ws, reverse=True))
an_opening = st.builds(sums.Opening, small, desc.map(tuple), st.integers(0, 4))


@settings(max_examples=200, deadline=None)
@given(desc, an_opening)
def test_every_suffix_outcome_matches_sorting_again(n, opening):
    """out[k] = weight - val(<N[k:] + T> + ev(x)): the O(m + |T|) sign count of each entry
    against sorting N[k:] + T and taking the alternating sum (1.4), +-x by parity (1.3)."""
    expected = []
    for k in range(len(n) + 1):
        rest = n[k:] + list(opening.slices)
        ev = opening.x if len(rest) % 2 else -opening.x
        expected.append(opening.weight - list_value(rest) - ev)
    assert sums.opening_outcomes(n, opening) == expected
    if sums.numpy_or_none() is not None:
        assert [int(v) for v in sums._numpy_best(n, [opening], None)] == expected


@settings(max_examples=60, deadline=None)
@given(desc, st.lists(an_opening, min_size=1, max_size=5))
def test_last_part_values_numpy_and_python_agree(n, openings):
    with_numpy = sums.last_part_values(n, openings, use_numpy=True)
    assert with_numpy == sums.last_part_values(n, openings, use_numpy=False)


def part_text(kind: str, ws) -> str:
    body = ",".join(str(w) for w in ws)
    return f"<{body}>" if kind == "<" else f"{kind}({body})"


weights = st.one_of(st.integers(-3, 5), st.sampled_from([Fraction(1, 2), Fraction(-3, 2)]))


def parts(kinds, max_size: int):
    return st.tuples(st.sampled_from(kinds), st.lists(weights, min_size=1, max_size=max_size))


boards = st.tuples(
    st.lists(parts(["cyc", "path"], 5), min_size=1, max_size=2),
    st.lists(parts(["<", "st", "tes"], 3), max_size=2),
).map(lambda pair: " + ".join(part_text(k, ws) for k, ws in pair[0] + pair[1]))


FIXTURE_KEPT = [HealthCheck.function_scoped_fixture]  # the patch holds for every example


@settings(max_examples=40, deadline=None, suppress_health_check=FIXTURE_KEPT)
@given(boards)
def test_sums_with_unopened_parts_match_generic_minimax(kernel, board):
    """One or two unopened paths or pizzas beside lists, stacks and two-ended stacks
    (rational weights too): the value and every optimal move."""
    fast_ = solve("pizza", board, method="slices")
    slow = solve("pizza", board, method="generic")
    assert fast_.value == slow.value
    assert set(fast_.best_moves) == set(slow.best_moves)


@settings(max_examples=40, deadline=None, suppress_health_check=FIXTURE_KEPT)
@given(boards)
def test_moves_named_on_large_boards_are_optimal(monkeypatch, board):
    """Beyond EVALUATE_EVERY_MOVE_UP_TO moves only the moves the theory names are valued
    (maximal list entries, stack ends, every point of the best plateaus): each is optimal,
    and there is one."""
    monkeypatch.setattr(fast, "EVALUATE_EVERY_MOVE_UP_TO", 0)
    named = solve("pizza", board, method="slices")
    slow = solve("pizza", board, method="generic")
    assert named.value == slow.value
    assert named.best_moves and set(named.best_moves) <= set(slow.best_moves)


def test_two_unopened_pizzas_beyond_the_generic_reach(monkeypatch):
    """Two 40-slice pizzas: NumPy and pure-Python kernels agree, and opening the pizzas one
    after the other by hand (the recursion of sums.py written out) gives the same value."""
    a = tuple((i * 7919 + 3) % 13 for i in range(40))
    b = tuple((i * 104729 + 5) % 11 for i in range(40))
    pizzas = (sums.Unopened(a, True), sums.Unopened(b, True))
    monkeypatch.setattr(sums, "NUMPY_FROM", 0)
    value = sums.SumValuer(use_numpy=True).value((), 0, pizzas)
    assert value == sums.SumValuer(use_numpy=False).value((), 0, pizzas)
    text = f"cyc({','.join(map(str, a))}) + cyc({','.join(map(str, b))})"
    assert solve("pizza", text).value == value
    by_hand = max(
        o.weight - sums.SumValuer(use_numpy=False).value(o.slices, o.x, (other,))
        for first, other in (pizzas, pizzas[::-1])
        for o in sums.openings(first, range(40))
    )
    assert by_hand == value


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=9), st.booleans())
def test_plateau_runs_are_maximal_runs_of_plateau_points(ws, cyclic):
    """Def 4.2 (L759) read directly: a point is a plateau point when the first different
    weight on each side is smaller or absent; the runs hold exactly those points."""
    n = len(ws)

    def first_different(i, step):
        for d in range(1, n):
            j = i + step * d
            if cyclic:
                j %= n
            elif not 0 <= j < n:
                return None
            if ws[j] != ws[i]:
                return ws[j]
        return None

    direct = [
        i
        for i in range(n)
        if all((w := first_different(i, s)) is None or w < ws[i] for s in (-1, 1))
    ]
    assert plateau_points(ws, cyclic) == direct
    for b, e in plateau_runs(ws, cyclic):
        assert len({ws[i % n] for i in range(b, e)}) == 1


def test_cancel_pairs_is_symmetric_difference():
    assert cancel_pairs([3, 1, 3, 2, 2, 2]) == (2, 1)


family_boards = st.lists(
    st.tuples(st.sampled_from(["<", "st", "tes", "path", "cyc"]), st.lists(weights, max_size=4)),
    min_size=1,
    max_size=3,
).map(lambda ps: " + ".join(part_text(k, ws) for k, ws in ps if ws or k == "<") or "<>")


@settings(max_examples=150, deadline=None)
@given(family_boards)
def test_chains_print_and_key_as_their_general_boards(text):
    """A board of families parses to weight sequences; it prints as the general board
    prints, reads back to itself, and has the general board's canonical key and moves."""
    chains = parse_chains(text)
    board = parse_board(text)
    assert isinstance(chains, Chains)
    assert chains_board(chains) == board
    pizza = get_registry().ruleset("pizza")
    assert pizza.format(chains) == format_board(board)
    assert parse_chains(pizza.format(chains)) == parse_chains(format_board(board))
    assert pizza.canonical_key(chains) == pizza.canonical_key(board)


@pytest.mark.parametrize(
    "text",
    ["tes()", "tes(1,,2)", "cyc(1_000)", "<1,x>", "st(1,2", "foo(1,2)", "", "tes(1) + ", "1/0"],
)
def test_sequence_parser_refuses_what_the_board_parser_refuses(text):
    with pytest.raises(ValueError) as general:
        parse_board(text)
    with pytest.raises(ValueError) as sequence:
        parse_chains(text)
    assert str(sequence.value) == str(general.value)


def test_graph_and_json_boards_stay_general():
    assert not isinstance(parse_chains("graph(1,2; 1-2; 1) + tes(1,2)"), Chains)
    assert not isinstance(parse_chains('{"weights": [1, 2], "edges": [[0, 1]]}'), Chains)


@settings(max_examples=200, deadline=None)
@given(st.lists(weights, min_size=2, max_size=12))
def test_tes_weights_without_either_end_in_two_passes(a):
    """The online condensation and the reversal give what condensing each sequence from
    scratch gives."""
    assert tes_weights_and_ends(a) == (
        tes_slice_weights(a),
        tes_slice_weights(a[1:]),
        tes_slice_weights(a[:-1]),
    )
