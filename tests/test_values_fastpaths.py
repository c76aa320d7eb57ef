"""The value algebra's fast paths against the slow definitions they replace: the stop-based
shortcuts of ``ge`` against the bare recursion of the definition (Siegel CGT II.1), and the
number shortcuts of ``game`` against the general dominance and reversibility loop."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework.values import UP, CanonicalGame, game, nimber, number
from cgframework.values.canonical import _canonicalise, _sorted, _stops, ge, ge_by_definition

leaves = st.one_of(
    st.integers(-2, 2).map(number),
    st.sampled_from([number("1/2"), number("-3/4"), nimber(1), nimber(2), UP, -UP]),
)
games = st.recursive(
    leaves,
    lambda kids: st.builds(game, st.lists(kids, max_size=3), st.lists(kids, max_size=3)),
    max_leaves=10,
)
SETTINGS = settings(max_examples=300, deadline=None)


def stops_by_definition(g: CanonicalGame) -> tuple[Fraction, Fraction]:
    """Siegel CGT II.3: a number is its own stop; else max/min over the options' stops."""
    if g.number_value is not None:
        return g.number_value, g.number_value
    return (
        max(stops_by_definition(x)[1] for x in g.left),
        min(stops_by_definition(x)[0] for x in g.right),
    )


@SETTINGS
@given(games, games)
def test_ge_with_stop_shortcuts_agrees_with_the_definition(g, h):
    slow = ge_by_definition(g, h)
    assert ge(g, h) == slow
    assert (g._ls, g._rs) == stops_by_definition(g) == _stops(g)
    # each shortcut, where it applies, must give the definition's answer
    if g._ls < h._ls or g._rs < h._rs:
        assert not slow
    elif g._rs > h._ls:
        assert slow


def test_the_stop_shortcuts_fire_both_ways():
    """Both shortcuts decide some pairs, so the property test above exercises them."""
    two, half = number(2), number("1/2")
    pm = game([two], [number(-2)])  # +-2: stops 2 and -2
    assert pm._rs < two._rs and not ge_by_definition(pm, two)  # refuted by the stops
    hot = game([number(3), nimber(1) + number(3)], [two])  # {3, 3* | 2}: stops 3 and 2
    assert not hot.is_number and hot._rs > half._ls and ge_by_definition(hot, half)


numbers = st.integers(-12, 12).map(lambda k: number(Fraction(k, 4)))
mixed_options = st.lists(st.one_of(numbers, numbers, games), max_size=4)


@SETTINGS
@given(mixed_options, mixed_options)
def test_game_number_shortcuts_agree_with_the_general_loop(lefts, rights):
    """``game`` keeps only the best number option per side and builds all-number games
    directly; ``_canonicalise`` (dominance and reversibility only) must give the same form."""
    assert game(lefts, rights) is _canonicalise(_sorted(lefts), _sorted(rights))


def test_game_number_shortcuts_cases():
    assert game([number(2), number(1)], [number(0), number(1)]) is game([number(2)], [number(0)])
    assert game([number(1)], [number(1)]) is number(1) + nimber(1)
    assert game([number(0), number(-1)], [number(2)]) is number(1)
