"""The arc DP for lone pizzas and paths, and the exhaustive pizza tables, against minimax;
then the paper's exhaustive claims at their full reach (Brown & Brown, L24 and L931)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import solve
from cgframework.testing import run_cli
from cgframework_pizza import arcdp, exhaustive
from cgframework_pizza.exhaustive import class_representative, digits, least_pizzas

weights = st.one_of(st.integers(-4, 6), st.fractions(min_value=-3, max_value=3, max_denominator=4))


def board(kind: str, ws) -> str:
    return f"{kind}({','.join(str(w) for w in ws)})"


@settings(max_examples=60, deadline=None)
@given(st.lists(weights, min_size=1, max_size=8), st.sampled_from(["cyc", "path"]))
def test_arc_dp_matches_generic_minimax(ws, kind):
    """Value and the whole set of optimal openings of a lone unopened cycle or path."""
    fast = solve("pizza", board(kind, ws), method="arc-dp")
    slow = solve("pizza", board(kind, ws), method="generic")
    assert fast.value == slow.value
    assert fast.best_moves == slow.best_moves


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(-20, 20), min_size=1, max_size=60), st.booleans())
def test_arc_dp_numpy_and_python_agree_with_the_plateau_algorithm(ws, cyclic):
    """The three O(n^2) routes (NumPy, pure Python, Thm 4.3's plateau openings) agree on
    every opening's outcome (beyond what minimax reaches)."""
    with_numpy = arcdp.opening_outcomes(ws, cyclic, use_numpy=True)
    without = arcdp.opening_outcomes(ws, cyclic, use_numpy=False)
    assert with_numpy == without
    kind = "cyc" if cyclic else "path"
    assert solve("pizza", board(kind, ws), method="slices").value == max(with_numpy)


def test_lone_pizzas_use_the_arc_dp_and_sums_the_slices_solver():
    assert solve("pizza", "3,1,4,1,5").method == "arc-dp"
    assert solve("pizza", "cyc(3,1,4) + <2>").method == "slices"


@pytest.mark.parametrize("alphabet", [(0, 1, 2), (-1, 1), (Fraction(1, 2), 0, 3)])
def test_pizza_tables_match_minimax_on_every_small_pizza(alphabet, kernel):
    """Every weighting of n <= 5 slices: the table value is the generic minimax value."""
    ordered = sorted(map(Fraction, alphabet))
    k = len(ordered)
    for n in range(1, 6):
        values = exhaustive.pizza_values(ordered, n)
        scale = 2 if Fraction(1, 2) in ordered else 1
        for index in range(k**n):
            ws = [ordered[d] for d in digits(index, k, n)]
            expected = solve("pizza", board("cyc", ws), method="generic").value
            assert Fraction(int(values[index]), scale) == expected, ws


def test_table_and_sweep_engines_find_the_same_extremal_pizzas(capsys):
    """Two independent routes (value tables; each necklace through the solver)."""
    found = {}
    for engine in ("table", "sweep"):
        code, out, err = run_cli(
            capsys, "pizza", "search", "--n", "8", "--weights", "3", "--engine", engine
        )
        assert code == 0, err
        found[engine] = out.splitlines()[0].split(": ", 1)[1]
    assert found["table"] == found["sweep"]
    assert found["table"] == "least value 0, reached by 38 up to rotation and reflection"


def test_class_representative_is_the_least_rotation_or_reflection():
    assert class_representative((2, 0, 1)) == (0, 1, 2)
    assert class_representative((1, 2, 0, 0)) == (0, 0, 1, 2)
    assert class_representative((0, 2, 1)) == (0, 1, 2)  # by reflection


@pytest.mark.slow
def test_no_pizza_with_weights_0_1_2_and_fewer_than_15_slices_is_negative():
    """L24 (and L805, left "as an exercise"): the smallest pizza of negative value has 15
    slices. Exhaustive over all 3^n weightings for n = 1..14; then at n = 15 the least value
    is -1, reached by 20 classes, among them the paper's 15-slice pizza (L24, L807)."""
    for n in range(1, 15):
        assert least_pizzas((0, 1, 2), n).least == 0, n
    fifteen = least_pizzas((0, 1, 2), 15)
    assert fifteen.least == -1 and len(fifteen.classes) == 20
    paper = tuple(map(Fraction, (0, 1, 0, 1, 0, 0, 1, 0, 2, 0, 0, 2, 0, 2, 0)))
    assert tuple(map(Fraction, class_representative(paper))) in fifteen.classes


@pytest.mark.slow
def test_least_value_of_odd_plus_minus_one_cycles():
    """L931: an odd cycle of n >= 3 slices with weights +-1 has least value
    -2*floor((n-3)/18) - 1; exhaustive for every odd n <= 21 (the 21-slice case is the
    paper's 0/1 example of 3.27, L687, with 0 -> -1)."""
    results = {n: least_pizzas((-1, 1), n) for n in range(3, 22, 2)}
    for n, result in results.items():
        assert result.least == -2 * ((n - 3) // 18) - 1, n
    twenty_one = results[21]
    paper = (0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0)
    assert twenty_one.classes == (tuple(Fraction(2 * w - 1) for w in class_representative(paper)),)
