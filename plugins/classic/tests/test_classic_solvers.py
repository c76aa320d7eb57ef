"""Every specialised solver of the plugin against the generic Grundy solver (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import solve

heaps = st.lists(st.integers(0, 12), min_size=1, max_size=4).map(lambda hs: ",".join(map(str, hs)))
codes = (
    st.lists(st.integers(0, 7), min_size=1, max_size=3)
    .filter(any)
    .map(lambda ds: "0." + "".join(map(str, ds)))
)
SETTINGS = settings(max_examples=60, deadline=None)


@SETTINGS
@given(heaps)
def test_nim_sum_matches_generic(position):
    fast = solve("nim", position)
    slow = solve("nim", position, method="generic")
    assert fast.method == "nim-sum" and slow.method == "grundy"
    assert (fast.value, fast.grundy, fast.outcome) == (slow.value, slow.grundy, slow.outcome)
    assert set(fast.best_moves) == set(slow.best_moves)


@SETTINGS
@given(codes, heaps)
def test_periodic_octal_matches_generic(code, position):
    text = f"{code}:{position}"
    fast = solve("octal", text)
    slow = solve("octal", text, method="generic")
    assert fast.method == "periodic-octal"
    assert (fast.grundy, fast.outcome) == (slow.grundy, slow.outcome)
    assert set(fast.best_moves) == set(slow.best_moves)


@SETTINGS
@given(st.sets(st.integers(1, 6), min_size=1, max_size=3), heaps)
def test_subtraction_matches_generic(subset, position):
    text = "{" + ",".join(map(str, sorted(subset))) + "}:" + position
    fast = solve("subtraction", text)
    slow = solve("subtraction", text, method="generic")
    assert fast.grundy == slow.grundy and set(fast.best_moves) == set(slow.best_moves)


@SETTINGS
@given(st.lists(st.integers(0, 9), min_size=1, max_size=3))
def test_sums_of_kayles_positions(parts):
    text = " + ".join(str(n) for n in parts)
    fast = solve("kayles", text)
    slow = solve("kayles", text, method="generic")
    assert fast.grundy == slow.grundy
    assert set(fast.best_moves) == set(slow.best_moves)


def test_best_moves_of_a_huge_heap_are_winning():
    """Each reported move from a heap far past the pre-period leaves a zero position."""
    solution = solve("kayles", "1000003")
    assert solution.grundy != 0 and solution.best_moves
    for move in solution.best_moves:
        heaps = move.split("->")[1].replace("+", ",")
        assert solve("kayles", heaps).grundy == 0, move


def test_nim_three_four_five():
    """Bouton: 3 xor 4 xor 5 = 2, the only winning move takes the 3-heap to 1."""
    solution = solve("nim", "3,4,5", method="generic")
    assert solution.grundy == 2 and solution.outcome.value == "N"
    assert solution.best_moves == ("3->1",)
