"""Kayles and Dawson's Kayles: known Grundy sequences and their proven periods."""

from __future__ import annotations

from cgframework import TranspositionTable, solve
from cgframework_classic.heaps import OctalCode
from cgframework_classic.periodicity import Period, find_period, grundy_sequence, proven_period

# Kayles (octal 0.77), heaps 0..83: Winning Ways vol. 1 ch. 4 table; OEIS A002186.
# Purely periodic with period 12 from heap 71 (last exceptional value at heap 70).
KAYLES = [
    0,
    1,
    2,
    3,
    1,
    4,
    3,
    2,
    1,
    4,
    2,
    6,
    4,
    1,
    2,
    7,
    1,
    4,
    3,
    2,
    1,
    4,
    6,
    7,
    4,
    1,
    2,
    8,
    5,
    4,
    7,
    2,
    1,
    8,
    6,
    7,
    4,
    1,
    2,
    3,
    1,
    4,
    7,
    2,
    1,
    8,
    2,
    7,
    4,
    1,
    2,
    8,
    1,
    4,
    7,
    2,
    1,
    4,
    2,
    7,
    4,
    1,
    2,
    8,
    1,
    4,
    7,
    2,
    1,
    8,
    6,
    7,
    4,
    1,
    2,
    8,
    1,
    4,
    7,
    2,
    1,
    8,
    2,
    7,
]
# Dawson's Kayles (octal 0.07, a heap = a row of n pins), heaps 0..89: OEIS A002187
# (Dawson's chess) shifted by one. Period 34 from heap 53 (last exception at heap 52).
DAWSON = [
    0,
    0,
    1,
    1,
    2,
    0,
    3,
    1,
    1,
    0,
    3,
    3,
    2,
    2,
    4,
    0,
    5,
    2,
    2,
    3,
    3,
    0,
    1,
    1,
    3,
    0,
    2,
    1,
    1,
    0,
    4,
    5,
    2,
    7,
    4,
    0,
    1,
    1,
    2,
    0,
    3,
    1,
    1,
    0,
    3,
    3,
    2,
    2,
    4,
    4,
    5,
    5,
    2,
    3,
    3,
    0,
    1,
    1,
    3,
    0,
    2,
    1,
    1,
    0,
    4,
    5,
    3,
    7,
    4,
    8,
    1,
    1,
    2,
    0,
    3,
    1,
    1,
    0,
    3,
    3,
    2,
    2,
    4,
    4,
    5,
    5,
    9,
    3,
    3,
    0,
]


def known(prefix: list[int], preperiod: int, period: int, n: int) -> int:
    if n < len(prefix):
        return prefix[n]
    return prefix[preperiod + (n - preperiod) % period]


def generic_grundy(ruleset: str, heaps: range) -> list[int]:
    table = TranspositionTable()  # shared: the whole range costs one O(n^2) recursion
    return [solve(ruleset, str(n), method="generic", table=table).grundy for n in heaps]


def test_kayles_heaps_0_to_500_match_the_known_sequence():
    assert generic_grundy("kayles", range(501)) == [known(KAYLES, 71, 12, n) for n in range(501)]


def test_dawsons_kayles_heaps_0_to_500_match_the_known_sequence():
    expected = [known(DAWSON, 53, 34, n) for n in range(501)]
    assert generic_grundy("dawsons-kayles", range(501)) == expected


def test_periodicity_check_reports_the_known_periods():
    """Guy & Smith (1956): Kayles has period 12 after heap 70; 0.07 period 34 after 52."""
    kayles = find_period(grundy_sequence(OctalCode.parse("0.77"), 501), 2)
    assert kayles == Period(71, 12) and kayles.last_exception == 70
    dawson = find_period(grundy_sequence(OctalCode.parse("0.07"), 501), 2)
    assert dawson == Period(53, 34) and dawson.last_exception == 52


def test_period_is_not_claimed_without_enough_values():
    # 2i + 2p + t values are needed for Kayles: 2*71 + 24 + 2 = 168
    assert find_period(grundy_sequence(OctalCode.parse("0.77"), 160), 2) is None
    assert find_period(grundy_sequence(OctalCode.parse("0.77"), 168), 2) == Period(71, 12)


def test_subtraction_game_period():
    """Subtraction {1,2,3}: G(n) = n mod 4 (Winning Ways ch. 4), purely periodic."""
    seq, period = proven_period(OctalCode.subtraction([1, 2, 3]))
    assert period == Period(0, 4)
    assert seq[:12] == [n % 4 for n in range(12)]


def test_huge_heaps_use_the_proven_period():
    big = 10**12 + 5
    solution = solve("kayles", str(big))
    assert solution.method == "periodic-octal"
    assert solution.grundy == known(KAYLES, 71, 12, big)
    assert solution.best_moves  # a non-zero value always has a winning move
