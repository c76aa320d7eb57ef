"""The value toolbox: reduced canonical form, cooling/heating, atomic weight,
ordinal sums, Norton products, incentives; checked against cgt-py and against the theory."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import peer_values
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework.values import (
    ONE,
    STAR,
    UP,
    ZERO,
    CanonicalGame,
    atomic_weight,
    cool,
    freeze,
    game,
    heat,
    incentives,
    is_all_small,
    nimber,
    norton,
    number,
    ordinal_sum,
    overheat,
    parse_value,
    reduced,
    up,
    up_nth,
)
from cgframework.values.reduced import inf_equal

leaves = st.one_of(
    st.integers(-2, 2).map(number),
    st.sampled_from([number("1/2"), number("-1/4"), nimber(1), nimber(2), UP]),
)
games = st.recursive(
    leaves,
    lambda kids: st.builds(game, st.lists(kids, max_size=3), st.lists(kids, max_size=3)),
    max_leaves=8,
)
small_leaves = st.sampled_from([ZERO, STAR, nimber(2), UP, -UP])
small_games = st.recursive(
    small_leaves,
    lambda kids: st.builds(
        game, st.lists(kids, min_size=1, max_size=3), st.lists(kids, min_size=1, max_size=3)
    ),
    max_leaves=7,
)
temperatures = st.sampled_from([Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(1)])
SETTINGS = settings(max_examples=60, deadline=None)


# ---- against cgt-py --------------------------------------------------------------------------
def _golden() -> dict:
    return json.loads(peer_values.DATA.read_text())


def test_reduced_and_cool_agree_with_cgt_py_golden_values():
    """1000 random games, cgt-py's reduced form and cooling by 8 temperatures (stored by
    tests/peer_values.py), compared as games."""
    data = _golden()
    assert len(data["records"]) >= 1000
    for record in data["records"]:
        g = parse_value(record["game"])
        assert reduced(g) is parse_value(record["reduced"]), record["game"]
        for t, cooled in record["cool"].items():
            assert cool(g, t) is parse_value(cooled), (record["game"], t)


def test_reduced_and_cool_agree_with_live_cgt_py():
    pytest.importorskip("cgt_py")
    rng = random.Random(2024)
    for _ in range(150):
        g = peer_values.random_game(rng, 4)
        answers = peer_values.peer_answers(g)
        assert reduced(g) is parse_value(answers["reduced"])
        for t, cooled in answers["cool"].items():
            assert cool(g, t) is parse_value(cooled)


# ---- reduced canonical form (Grossman & Siegel; Siegel CGT II.6) ------------------------------
def test_reduced_examples():
    assert reduced(parse_value("{2|^*}")) is parse_value("{2|0}")
    assert reduced(parse_value("^*")) is ZERO
    assert reduced(parse_value("3/2 + ^^ + *5")) is number("3/2")
    assert reduced(parse_value("{3|-1}")) is parse_value("{3|-1}")


@SETTINGS
@given(games, games)
def test_reduced_is_a_homomorphism_mod_infinitesimals(g, h):
    """Siegel CGT II.6: G == H (mod Inf) implies G + K == H + K (mod Inf), and the reduced
    form is unique, so rcf(G + H) = rcf(rcf(G) + rcf(H))."""
    assert reduced(g + h) is reduced(reduced(g) + reduced(h))


@SETTINGS
@given(games)
def test_game_minus_its_reduced_form_is_infinitesimal(g):
    """Grossman & Siegel: rcf(G) is equal to G modulo infinitesimals; rcf is idempotent."""
    r = reduced(g)
    assert (g - r).is_infinitesimal
    assert inf_equal(g, r)
    assert reduced(r) is r


# ---- cooling, heating (WW ch. 6; Siegel CGT II.5) --------------------------------------------
@SETTINGS
@given(games)
def test_cooling_by_the_temperature_leaves_a_number_plus_an_infinitesimal(g):
    """WW ch. 6 / Siegel CGT II.5: G cooled by its temperature is infinitely close to its mean
    (the mast); above the temperature it is the mean itself. (A number is already frozen.)"""
    if g.is_number:
        assert freeze(g) is g
        return
    frozen = freeze(g)
    assert frozen is cool(g, g.temperature())
    assert frozen.left_stop() == frozen.right_stop() == g.mean()
    assert (frozen - number(g.mean())).is_infinitesimal
    assert cool(g, g.temperature() + 1) is number(g.mean())


@SETTINGS
@given(games, temperatures)
def test_cooled_stops_are_the_thermograph_walls(g, t):
    """Siegel CGT II.5: the walls of the thermograph at t are the stops of G cooled by t."""
    if g.is_integer:
        return
    cooled = cool(g, t)
    therm = g.thermograph()
    assert cooled.left_stop() == therm.left(t)
    assert cooled.right_stop() == therm.right(t)


def _cooling_keeps_shape(g: CanonicalGame, t: Fraction) -> bool:
    """Cooling by t keeps every option of every non-number subposition: it is not a number and
    its options are exactly ``{H^L_t - t | H^R_t + t}`` (none dominated or reversed)."""
    if g.is_number:
        return True
    cooled = cool(g, t)
    tax = number(t)
    lefts = {cool(x, t) - tax for x in g.left}
    rights = {cool(x, t) + tax for x in g.right}
    return (
        not cooled.is_number
        and set(cooled.left) == lefts
        and set(cooled.right) == rights
        and all(_cooling_keeps_shape(x, t) for x in g.left + g.right)
    )


@settings(max_examples=150, deadline=None)
@given(games, temperatures)
def test_heating_undoes_cooling_when_nothing_freezes_or_collapses(g, t):
    """WW ch. 6: heating is the inverse of cooling as long as cooling keeps the shape of G.
    By induction on G: int^t (H^L_t - t) + t = int^t H^L_t = H^L, because a number tax
    translates forms (number translation, Siegel CGT II.3) and heating fixes numbers."""
    if _cooling_keeps_shape(g, t):
        assert heat(cool(g, t), t) is g


def test_heating_does_not_undo_cooling_in_general():
    """Where a subposition freezes or an option becomes dominated, the information is lost."""
    g = parse_value("{1|0}")  # temperature 1/2: cooled by 1 it is the number 1/2
    assert cool(g, 1) is number("1/2")
    assert heat(cool(g, 1), 1) is number("1/2")
    h = parse_value("{2|0,{1|0}}")  # every hot part is hotter than 1/4, yet
    assert min(h.temperature(), parse_value("{1|0}").temperature()) > Fraction(1, 4)
    assert cool(h, "1/4") is parse_value("{7/4|1/4}")  # {1|0} cooled became dominated
    assert heat(cool(h, "1/4"), "1/4") is parse_value("{2|0}")


def test_heat_and_overheat_examples():
    """WW ch. 6: int^1 * = +-1; int^1 (1*) = {2|0}; int_1^1 (+-1) = +-2 (integers to copies
    of s)."""
    assert heat(STAR, 1) is parse_value("+-1")
    assert heat(parse_value("1*"), 1) is parse_value("{2|0}")
    assert overheat(parse_value("+-1"), 1, 1) is parse_value("+-2")
    assert overheat(number(3), UP, 1) is up(3)
    assert heat(STAR, STAR) is ZERO  # {0 + * | 0 - *} = {*|*} = 0
    for text in ("{3|-1}", "{{4|2}|0}", "{5|{2|-2}}"):  # hot enough: heating undoes cooling
        g = parse_value(text)
        assert _cooling_keeps_shape(g, Fraction(1))
        assert heat(cool(g, 1), 1) is g


# ---- atomic weight (WW ch. 8; Siegel CGT II.7) -----------------------------------------------
def test_atomic_weight_of_ups_and_nimbers():
    """WW ch. 8: aw(^) = 1, aw(^^*) = 2, aw(*n) = 0, aw(v) = -1."""
    assert atomic_weight(UP) is ONE
    assert atomic_weight(parse_value("^^*")) is number(2)
    assert atomic_weight(-UP) is number(-1)
    for n in range(6):
        assert atomic_weight(nimber(n)) is ZERO


@SETTINGS
@given(small_games, small_games)
def test_atomic_weight_is_additive(g, h):
    """Siegel CGT II.7: aw(G + H) = aw(G) + aw(H) for all-small G, H."""
    assert is_all_small(g) and is_all_small(h)
    assert atomic_weight(g + h) is atomic_weight(g) + atomic_weight(h)


@SETTINGS
@given(small_games)
def test_two_ahead_rule(g):
    """Siegel CGT II.7: aw(G) >= 2 implies G > 0; aw(G) <= -2 implies G < 0."""
    w = atomic_weight(g)
    if w >= number(2):
        assert g > ZERO
    if w <= number(-2):
        assert g < ZERO


def test_atomic_weight_refuses_games_that_are_not_all_small():
    assert not is_all_small(parse_value("{1|0}"))
    assert not is_all_small(number(1))
    assert is_all_small(parse_value("{0,*|0}"))
    with pytest.raises(ValueError, match="not all-small"):
        atomic_weight(parse_value("{1|0}"))


# ---- ordinal sum, Norton product, up-nth (Siegel CGT II.7; ONAG ch. 15) ----------------------
@SETTINGS
@given(games, games)
def test_ordinal_sum_sign_rule(g, h):
    """ONAG ch. 15: G : H has the sign (outcome) of G unless G = 0, then that of H."""
    expected = h.outcome() if g is ZERO else g.outcome()
    assert ordinal_sum(g, h).outcome() == expected


def test_ordinal_sum_examples():
    assert ordinal_sum(nimber(2), nimber(3)) is nimber(5)
    assert ordinal_sum(ONE, ONE) is number(2)  # 1 : 1 = {0, 1 |} = 2
    assert ordinal_sum(ONE, -ONE) is number("1/2")  # {0 | 1} = 1/2
    assert parse_value("* : 1") is parse_value("{0,*|0}")  # ^* ... {0,*|0} = ^*
    assert parse_value("1 + * : ^") is ONE + ordinal_sum(STAR, UP)  # ':' binds tighter


@SETTINGS
@given(games, games)
def test_norton_product_by_up_and_by_one(g, h):
    """Siegel CGT II.7: G.1 = G; G.^ is additive in G; aw(G.^) = G; n.^ = n copies of ^."""
    assert norton(g, ONE) is g
    assert norton(g + h, UP) is norton(g, UP) + norton(h, UP)
    assert atomic_weight(norton(g, UP)) is g


def test_norton_integers_and_refusal():
    for n in range(-3, 4):
        assert norton(number(n), UP) is up(n)
    assert norton(number("1/2"), UP) + norton(number("1/2"), UP) is UP
    with pytest.raises(ValueError, match="positive"):
        norton(ONE, STAR)


def test_up_nth():
    """Siegel CGT II.7: ^^2 = {0|v*}; each ^^(n+1) is positive and infinitesimal with respect
    to ^^n (8 copies stay below it)."""
    assert up_nth(1) is UP
    assert up_nth(2) is parse_value("{0|v*}")
    for n in range(1, 4):
        assert up_nth(n + 1) > ZERO
        assert norton(number(8), up_nth(n + 1)) < up_nth(n)


def test_incentives():
    """WW ch. 6: {2|-1} has Left incentive 2 - G and Right incentive G + 1, both {3|0}."""
    g = parse_value("{2|-1}")
    assert incentives(g) == (parse_value("{3|0}"),)
    assert incentives(UP) == (parse_value("^*"),)  # v is dominated by ^*


def test_methods_on_the_value_object():
    g = parse_value("{2|^*}")
    assert g.reduced() is parse_value("{2|0}")
    assert g.cool(1) is parse_value("1*")
    assert g.left_options == (number(2),)
    assert g.right_options == (parse_value("^*"),)
    assert UP.atomic_weight() is ONE
    assert UP.is_all_small and not g.is_all_small
    assert parse_value("+-1").is_switch and not UP.is_switch
