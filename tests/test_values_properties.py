"""Property tests of the value algebra on random short games, against the group and order
axioms (Siegel CGT II.1) and against a naive textbook implementation (reference_games.py)."""

from __future__ import annotations

import pickle

import reference_games as ref
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework.values import ZERO, CanonicalGame, game, nimber, number, parse_value
from cgframework.values.canonical import negate

leaves = st.one_of(
    st.integers(-2, 2).map(number),
    st.sampled_from([number("1/2"), number("-1/4"), nimber(1), nimber(2)]),
)
games = st.recursive(
    leaves,
    lambda kids: st.builds(game, st.lists(kids, max_size=3), st.lists(kids, max_size=3)),
    max_leaves=8,
)
SETTINGS = settings(max_examples=150, deadline=None)


def to_ref(g: CanonicalGame) -> ref.Ref:
    return (frozenset(to_ref(x) for x in g.left), frozenset(to_ref(x) for x in g.right))


@SETTINGS
@given(games, games)
def test_sum_and_order_agree_with_the_naive_reference(g, h):
    rg, rh = to_ref(g), to_ref(h)
    assert ref.canonical(rg) == rg  # our forms are canonical by the textbook algorithm
    assert to_ref(g + h) == ref.add(rg, rh)
    assert (g >= h) == ref.ge(rg, rh)


@SETTINGS
@given(games, games, games)
def test_group_axioms(g, h, k):
    assert g - g is ZERO
    assert g + h is h + g
    assert (g + h) + k is g + (h + k)
    assert g + ZERO is g
    assert negate(negate(g)) is g


@SETTINGS
@given(games, games, games)
def test_partial_order(g, h, k):
    assert g >= g
    if g >= h and h >= g:
        assert g is h
    if g >= h and h >= k:
        assert g >= k
    assert (g >= h) == ((g - h) >= ZERO)
    rel = g.compare(h)
    assert rel == {"L": ">", "R": "<", "P": "=", "N": "||"}[(g - h).outcome().value]


@SETTINGS
@given(games)
def test_print_parse_pickle_round_trips(g):
    assert parse_value(str(g)) is g
    assert pickle.loads(pickle.dumps(g)) is g


@SETTINGS
@given(games, games)
def test_mean_is_additive_and_temperature_subadditive(g, h):
    """Lessons in Play ch. 6: mean(G+H) = mean(G) + mean(H); t(G+H) <= max(t(G), t(H))."""
    assert (g + h).mean() == g.mean() + h.mean()
    assert (g + h).temperature() <= max(g.temperature(), h.temperature())
    assert g.left_stop() >= g.right_stop()
    assert g.right_stop() <= g.mean() <= g.left_stop()


@SETTINGS
@given(games, st.randoms())
def test_game_is_independent_of_option_order_and_duplicates(g, rnd):
    lefts, rights = list(g.left) * 2, list(g.right)
    rnd.shuffle(lefts)
    assert game(lefts, rights) is g
