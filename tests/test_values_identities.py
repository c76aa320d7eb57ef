"""Value-algebra identities from the literature, each citing its source."""

from __future__ import annotations

from fractions import Fraction

import pytest

from cgframework.game import Outcome
from cgframework.values import (
    DOWN,
    ONE,
    STAR,
    UP,
    ZERO,
    ValueSyntaxError,
    game,
    nimber,
    number,
    parse_value,
    simplest_between,
    up,
)


def v(text: str):
    return parse_value(text)


def test_star_plus_star_is_zero():
    """Winning Ways vol. 1 ch. 2: * + * = 0 (every nimber is its own negative)."""
    assert STAR + STAR is ZERO
    assert str(v("* + *")) == "0"


def test_up_is_zero_bar_star():
    """Siegel CGT II.4 (Lessons in Play §5.1): ^ = {0|*}."""
    assert game([ZERO], [STAR]) is UP
    assert str(v("{0|*}")) == "^"


def test_up_star_is_zero_star_bar_zero():
    """Lessons in Play §5.1: ^* = {0,*|0}."""
    assert v("{0,*|0}") is UP + STAR
    assert str(v("{0,*|0}")) == "^*"


def test_up_up_star_prints_as_double_up_star():
    """Winning Ways ch. 3 notation ⇑* ; CGSuite prints ^^*."""
    assert str(v("^ + ^ + *")) == "^^*"


def test_two_switches_make_one():
    """Winning Ways ch. 2: {1|0} + {1|0} = 1."""
    assert v("{1|0} + {1|0}") is ONE


def test_one_bar_one_is_one_star():
    """Lessons in Play §5: {1|1} = 1* (a number plus star)."""
    assert v("{1|1}") is ONE + STAR
    assert str(v("{1|1}")) == "1*"


@pytest.mark.parametrize("text", ["3/4", "-5/8", "7", "-2", "1/2*", "^^*3", "v3", "+-1"])
def test_printed_forms_round_trip(text):
    """CGSuite notation prints back as written."""
    assert str(v(text)) == text


def test_zero_bar_one_is_one_half():
    """Winning Ways ch. 1 (simplicity rule): {0|1} = 1/2; {0|2} = 1."""
    assert v("{0|1}") is number(Fraction(1, 2))
    assert v("{0|2}") is ONE
    assert v("{1/2|1}") is number("3/4")


def test_up_is_confused_with_star_and_positive():
    """Winning Ways ch. 3: ^ > 0, ^ || *, ^* || 0."""
    assert UP > ZERO and UP.compare(STAR) == "||" and UP.fuzzy(STAR)
    assert (UP + STAR).compare(ZERO) == "||"
    assert (UP.outcome(), STAR.outcome(), DOWN.outcome()) == (Outcome.L, Outcome.N, Outcome.R)


def test_nimber_addition_is_nim_sum():
    """Winning Ways ch. 3: *2 + *3 = *, *a + *b = *(a xor b)."""
    assert nimber(2) + nimber(3) is STAR
    assert all(nimber(a) + nimber(b) is nimber(a ^ b) for a in range(8) for b in range(8))


def test_up_plus_down_is_zero_and_triple_up():
    """Siegel CGT II.4: ^ + v = 0; 3.^ prints ^3 (CGSuite)."""
    assert UP + DOWN is ZERO
    assert str(up(3)) == "^3" and str(up(-3)) == "v3"


def test_switch_prints_plus_minus():
    """Siegel CGT II.5: {x|-x} is written ±x."""
    assert str(v("{1|-1}")) == "+-1"
    assert v("+-1") is v("{1|-1}")


def test_multibar_nesting():
    """Winning Ways ch. 4 notation {3||2|1}: left option 3, right option {2|1}."""
    g = v("{3||2|1}")
    assert g.left == (number(3),) and g.right == (v("{2|1}"),)
    assert str(g) == "{3||2|1}"


def test_stops_mean_and_temperature():
    """Lessons in Play ch. 6 / Siegel CGT II.5: stops, mean and temperature."""
    g = v("{3||2|1}")
    assert (g.left_stop(), g.right_stop()) == (3, 2)
    assert g.mean() == Fraction(9, 4) and g.temperature() == Fraction(3, 4)
    assert (v("{3|1}").mean(), v("{3|1}").temperature()) == (2, 1)
    assert (v("+-1").mean(), v("+-1").temperature()) == (0, 1)
    assert STAR.temperature() == 0 and UP.temperature() == 0
    assert ONE.temperature() == -1 and v("3/4").temperature() == Fraction(-1, 4)


def test_simplest_number_rule():
    """Siegel CGT II.3: the simplest number strictly between two numbers."""
    f = Fraction
    assert simplest_between(f(0), f(1)) == f(1, 2)
    assert simplest_between(f(1), None) == 2
    assert simplest_between(None, f(-3, 2)) == -2
    assert simplest_between(f(-1), f(5)) == 0
    assert simplest_between(f(5, 8), f(3, 4)) == f(11, 16)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("{1|", "missing '}'"),
        ("1/3", "not a dyadic"),
        ("{1|2|3}", "ambiguous"),
        ("x", "'x'"),
        ("1 +", "end"),
        ("{1,|0}", "unexpected"),
    ],
)
def test_syntax_errors_name_the_token(text, fragment):
    with pytest.raises(ValueSyntaxError) as err:
        parse_value(text)
    assert fragment in str(err.value)
