"""Every optimal move of a concatenation of opened parts in O(n log n) (concat.py)."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import solve
from cgframework_pizza.concat import SortedAlternating
from cgframework_pizza.slices import list_value

values = st.lists(st.integers(-5, 5).map(Fraction), max_size=12)


@settings(max_examples=200, deadline=None)
@given(values, st.data(), values)
def test_alternating_sum_after_changes_matches_sorting_again(s, data, added):
    """Removing a sub-multiset and adding values, then sorting: same alternating sum."""
    removed = [s[i] for i in data.draw(st.sets(st.integers(0, max(len(s) - 1, 0))))] if s else []
    rest = list(s)
    for v in removed:
        rest.remove(v)
    expected = list_value(rest + added)
    assert SortedAlternating(s).alternating_after(removed, added) == expected


def test_every_optimal_move_of_a_long_list():
    """A list of 3,000 entries: each move valued against a from-scratch evaluation of the
    remaining list by (1.4); equal pairs cancel (1.5), so entries below the maximum can be
    optimal too."""
    rng = random.Random(7)
    entries = [rng.randint(-50, 50) for _ in range(3000)]
    text = "<" + ",".join(map(str, entries)) + ">"
    solution = solve("pizza", text)
    assert solution.method == "slices"
    value = list_value([Fraction(w) for w in entries])
    outcome = {}
    for w in set(entries):
        rest = list(entries)
        rest.remove(w)
        outcome[w] = w - list_value([Fraction(r) for r in rest])
    expected = [f"#{i + 1}" for i, w in enumerate(entries) if outcome[w] == value]
    assert solution.value == value and list(solution.best_moves) == expected
    assert len(expected) > entries.count(max(entries))  # not only the maxima
