"""Cutcake, Maundy Cake and Eatcake: syntax, the closed forms against a brute force over the
ruleset's own moves, the specialised solvers against the generic search (hypothesis), and
the published values."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import Player, get_registry, parse_position, solve
from cgframework.values import ZERO, CanonicalGame, game, nimber, number, parse_value
from cgframework_classic.cakes import Cakes, cutcake_value, maundy_moves, maundy_value

SETTINGS = settings(max_examples=25, deadline=None)
cake = st.tuples(st.integers(1, 6), st.integers(1, 6))
cakes = st.lists(cake, min_size=1, max_size=3).map(lambda ps: ",".join(f"{r}x{c}" for r, c in ps))


def brute_force(name: str):
    """The value of one cake by the definition: {Left's options | Right's options}, each
    option the sum of the cakes the ruleset's move leaves (no closed form, no solver)."""
    ruleset = get_registry().ruleset(name)

    @cache
    def value(rows: int, cols: int) -> CanonicalGame:
        def of(player: Player) -> list[CanonicalGame]:
            out = []
            for move in ruleset.options(Cakes(((rows, cols),)), player):
                total = ZERO
                for piece in move.result.pieces:
                    total = total + value(*piece)
                out.append(total)
            return out

        return game(of(Player.LEFT), of(Player.RIGHT))

    return value


def test_cutcake_table_matches_brute_force_to_16x16():
    value = brute_force("cutcake")
    for rows in range(1, 17):
        for cols in range(1, 17):
            assert value(rows, cols) == number(cutcake_value(rows, cols)), (rows, cols)


def test_cutcake_published_values():
    """Winning Ways (2nd ed., vol. 1, ch. 2, "Cutcake"): a 1 x n strip is n - 1 moves for
    Left; cakes 2 and 3 high give Left floor(n/2) - 1; 4 to 7 high floor(n/4) - 1; a square
    is 0; and transposing negates."""
    assert [cutcake_value(1, n) for n in range(1, 9)] == [0, 1, 2, 3, 4, 5, 6, 7]
    for rows in (2, 3):
        assert [cutcake_value(rows, n) for n in range(2, 12)] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    assert [cutcake_value(5, n) for n in range(4, 16)] == [0] * 4 + [1] * 4 + [2] * 4
    assert all(cutcake_value(n, n) == 0 for n in range(1, 100))
    assert cutcake_value(2, 1) == -1 and cutcake_value(8, 3) == -3


def test_maundy_strip_is_oeis_a006022():
    """OEIS A006022 (Maundy cake on an n x 1 sheet; Winning Ways 2nd ed. vol. 1 pp. 27, 51),
    its first 30 terms, by the closed form and by the brute force."""
    a006022 = [0, 1, 1, 3, 1, 4, 1, 7, 4, 6, 1, 10, 1, 8, 6, 15, 1, 13, 1, 16, 8, 12, 1, 22, 6]
    a006022 += [14, 13, 22, 1, 21]
    value = brute_force("maundy-cake")
    assert [maundy_moves(n) for n in range(1, 31)] == a006022
    assert [value(1, n) for n in range(1, 31)] == [number(x) for x in a006022]
    assert maundy_moves(24) == 22  # OEIS's example: 24 (1/2 + 1/4 + 1/8 + 1/24) = 22


def test_maundy_closed_form_matches_brute_force_to_30x30():
    value = brute_force("maundy-cake")
    for rows in range(1, 31):
        for cols in range(1, 31):
            assert value(rows, cols) == number(maundy_value(rows, cols)), (rows, cols)


@pytest.mark.parametrize(
    "name, method", [("cutcake", "cutcake-table"), ("maundy-cake", "maundy-factors")]
)
@SETTINGS
@given(parts=st.lists(cakes, min_size=1, max_size=2), first=st.sampled_from(list(Player)))
def test_cake_solvers_match_generic(name, method, parts, first):
    text = " + ".join(parts)
    fast = solve(name, text, first=first)
    slow = solve(name, text, method="generic", first=first)
    assert fast.method == method
    assert (fast.value, fast.outcome) == (slow.value, slow.outcome)
    assert set(fast.best_moves) == set(slow.best_moves)


@pytest.mark.parametrize("name", ["cutcake", "maundy-cake", "eatcake"])
@SETTINGS
@given(position=cakes)
def test_transposed_cakes_are_negated(name, position):
    """Both players use one rule on the other axis: transposing swaps them (``negative``)."""
    ruleset = get_registry().ruleset(name)
    pos = ruleset.parse(position)
    swapped = ruleset.format(ruleset.negative(pos))
    value = solve(name, position, method="generic").value
    assert solve(name, swapped, method="generic").value == -value


def test_eatcake_small_values():
    """By hand: a 1 x 1 cake is {0|0} = * (either player eats it); 1 x 2 is {*|0} = v
    (Left eats a column leaving 1 x 1; Right eats the row). Eating a column of 3 x 3 in its
    middle leaves 3x1 + 3x1."""
    assert solve("eatcake", "1x1").value == nimber(1)
    assert solve("eatcake", "1x2").value == parse_value("v")
    assert solve("eatcake", "2x1").value == parse_value("^")
    moves = {
        m.text for m in get_registry().ruleset("eatcake").options(Cakes(((3, 3),)), Player.LEFT)
    }
    assert moves == {"3x3->3x2", "3x3->3x1+3x1"}


@pytest.mark.parametrize("name", ["cutcake", "maundy-cake", "eatcake"])
def test_syntax_round_trip_and_errors(name):
    ruleset = get_registry().ruleset(name)
    for text in ("3x4", "2x5,1x3", "0"):
        assert ruleset.format(ruleset.parse(text)) == text
    assert ruleset.format(ruleset.parse(" 3X4 ")) == "3x4"
    sum_ = parse_position(ruleset, "3x4 + 2x2")
    assert len(sum_.parts) == 2
    for bad in ("3", "3x", "x4", "0x4", "3x-1", "3x4,", "1x9999999"):
        with pytest.raises(ValueError):
            ruleset.parse(bad)
    assert ruleset.draw(ruleset.parse("3x4,2x2")).count('class="cake"') == 2


def test_maundy_moves_and_huge_cakes():
    """Maundy Cake cuts into equal pieces only (a prime side: one move, into unit strips);
    the closed forms answer a 10^6-sided cake at once."""
    ruleset = get_registry().ruleset("maundy-cake")
    moves = {m.text for m in ruleset.options(Cakes(((1, 6),)), Player.LEFT)}
    assert moves == {"1x6->1x3+1x3", "1x6->3*1x2", "1x6->6*1x1"}
    assert solve("maundy-cake", "1x1000000").value == number(maundy_moves(10**6))
    assert solve("cutcake", "3x100000").value == number(49_999)
