"""One cattrs converter: Solutions round-trip through JSON; exact numbers stay exact."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from cgframework import Convention, Outcome, Player, Solution, Stats, converter, from_json, to_json
from cgframework.io import dump_number, load_number
from cgframework.values import parse_value


@pytest.mark.parametrize(
    "value",
    [0, 7, -3, Fraction(3, 4), Fraction(-5, 2), parse_value("{3||2|1}"), parse_value("^*"), "N"],
)
def test_solution_round_trips_through_json(value):
    solution = Solution(
        ruleset="r",
        position="p",
        convention=Convention.NORMAL,
        value=value,
        outcome=Outcome.N,
        best_moves=("a", "b"),
        method="canonical",
        stats=Stats(nodes=3, cache_hits=1, cache_misses=2, seconds=0.5),
        first=Player.RIGHT,
        grundy=None,
        extra={"scores": {"s1L": 3}},
    )
    text = to_json(solution)
    back = from_json(text, Solution)
    assert back == solution
    assert json.loads(text)["scores"] == {"s1L": 3}


def test_exact_numbers_in_json():
    assert dump_number(5) == 5
    assert dump_number(Fraction(6, 3)) == 2
    assert dump_number(Fraction(1, 3)) == "1/3"
    assert load_number("1/3") == Fraction(1, 3)
    assert load_number("0.25") == Fraction(1, 4)
    assert isinstance(load_number("4/2"), int)
    with pytest.raises(ValueError):
        load_number(0.5)
    assert converter.unstructure(Fraction(-7, 4)) == "-7/4"
