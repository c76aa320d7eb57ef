"""The ``guaranteed`` solver on other plugins' rulesets, and the ``guaranteed`` ruleset
against the core's generic minimax."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import (
    BaseRuleset,
    Convention,
    Move,
    Player,
    SolverError,
    load_number,
    solve,
)
from cgframework.values import parse_value
from cgframework_guaranteed.embed import embed
from cgframework_guaranteed.games import ScoringGame, game, violation
from cgframework_guaranteed.notation import parse_game

FAST = settings(max_examples=60, deadline=None)


def gs(ruleset, text: str, first: Player = Player.LEFT):
    return solve(ruleset, text, method="guaranteed", first=first)


# ---- pizza: the Left stop of the GS value is the pizza plugin's value --------------------

weights = st.lists(st.integers(-3, 6), min_size=1, max_size=7)


@FAST
@given(weights)
def test_pizza_left_and_right_stops_are_the_pizza_values(ws):
    text = ",".join(map(str, ws))
    by_gs = gs("pizza", text)
    assert load_number(by_gs.extra["stops"]["Ls"]) == solve("pizza", text).value
    # Right first: the pizza value is Right's gain, Rs is Left's, so they differ in sign
    right = solve("pizza", text, first=Player.RIGHT).value
    assert load_number(by_gs.extra["stops"]["Rs"]) == -right
    assert gs("pizza", text, Player.RIGHT).extra["score"] == right


@settings(max_examples=25, deadline=None)
@given(weights, weights)
def test_pizza_sums_agree_with_minimax(a, b):
    """Components are valued apart and summed canonically; the generic minimax plays the
    whole sum."""
    text = f"cyc({','.join(map(str, a))}) + <{','.join(map(str, b))}>"
    by_gs = gs("pizza", text)
    assert load_number(by_gs.extra["stops"]["Ls"]) == solve("pizza", text, method="generic").value
    assert set(by_gs.best_moves) == set(solve("pizza", text, method="generic").best_moves)


def test_pizza_paper_example_value():
    """Brown & Brown's 15-slice pizza (README; paper L931 family): Left stop -1."""
    text = "0,1,0,1,0,0,1,0,2,0,0,2,0,2,0"
    assert gs("pizza", text).extra["score"] == solve("pizza", text).value == -1


def test_pizza_value_is_a_canonical_guaranteed_game():
    from cgframework_guaranteed.canonical import canonical

    value = gs("pizza", "3,1,4,1,5").value
    assert isinstance(value, ScoringGame) and value.guaranteed
    assert canonical(value) is value


# ---- influence: relevant digraphs are guaranteed, and invertible (Milnor universe) ---------


@st.composite
def digraphs(draw):
    n = draw(st.integers(1, 7))
    colours = "".join(draw(st.sampled_from("LR")) for _ in range(n))
    arcs = draw(
        st.sets(
            st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda a: a[0] != a[1]),
            max_size=10,
        )
    )
    return colours + ":" + ",".join(f"{u}>{v}" for u, v in sorted(arcs))


@FAST
@given(digraphs())
def test_influence_stops_match_the_influence_solver(text):
    by_gs = gs("influence", text)
    scores = solve("influence", text).extra["scores"]
    assert load_number(by_gs.extra["stops"]["Ls"]) == scores["Ls"]
    assert load_number(by_gs.extra["stops"]["Rs"]) == scores["Rs"]


@FAST
@given(digraphs())
def test_influence_values_are_invertible(text):
    """Relevant influence is a non-zugzwang dicot (paper 001 L254, Cor. 12); such games
    were all invertible in GS (digest 004 P25)."""
    assert gs("influence", text).extra["invertible"] is True


def test_influence_table1_segment_sum():
    """README example: segment:10 + segment:17 has Ls = -1 (influence Table 1)."""
    by_gs = gs("influence", "segment:10 + segment:17")
    assert by_gs.extra["stops"]["Ls"] == -1


# ---- normal play: the embedding of the canonical value (Thm 17, Def. 16) ------------------


@pytest.mark.parametrize("board", ["..|..", "..|..|..", "...|...", ".|.|.", "...|..."])
def test_domineering_gs_value_is_the_embedded_canonical_value(board):
    normal = solve("domineering", board).value
    assert gs("domineering", board).value is embed(normal)


def test_nim_gs_value_is_the_embedded_nimber():
    assert gs("nim", "3,4").value is embed(parse_value("*7"))


# ---- the guaranteed ruleset itself --------------------------------------------------------


@st.composite
def small_games(draw, depth=2):
    def side(d):
        if d == 0 or draw(st.booleans()):
            return draw(st.integers(-2, 2))
        return [one(d - 1) for _ in range(draw(st.integers(1, 2)))]

    def one(d):
        return game(side(d), side(d))

    return one(depth)


@FAST
@given(small_games(), small_games())
def test_generic_minimax_gives_the_stops(g, h):
    """On any game form, guaranteed or not, the core's minimax plays Def. 8: Left first
    reaches Ls, Right first -Rs (the mover's view)."""
    text = f"{g} + {h}"
    total = parse_game(text)
    assert solve("guaranteed", text, method="generic").value == total.stops.Ls
    assert solve("guaranteed", text, method="generic", first=Player.RIGHT).value == (
        -total.stops.Rs
    )


@FAST
@given(small_games())
def test_solver_refuses_games_that_are_not_guaranteed(g):
    if violation(g) is None:
        assert solve("guaranteed", str(g)).value.guaranteed
    else:
        with pytest.raises(SolverError, match="not a guaranteed scoring game"):
            solve("guaranteed", str(g))


class StuckButPlayGoesOn(BaseRuleset):
    """Left moves from 'a' to 'b'; Right, stuck in 'a', waits (end_score None)."""

    name = "toy-waiting"
    convention = Convention.SCORING

    def parse(self, text: str) -> str:
        return text

    def options(self, position: str, player: Player) -> Iterator[Move]:
        if position == "a" and player is Player.LEFT:
            yield Move("b", "a->b", 1)

    def end_score(self, position: str, player: Player):
        return None if position == "a" else 0


class NotGuaranteed(StuckButPlayGoesOn):
    """As above, but Right stuck in 'a' ends the game with score 3 for Right: <1|^-3>."""

    name = "toy-bad-atom"

    def end_score(self, position: str, player: Player):
        return 3 if position == "a" else 0


def test_rulesets_that_are_not_guaranteed_are_refused_with_the_reason():
    with pytest.raises(SolverError, match="Right has no move in 'a' but play goes on"):
        solve(StuckButPlayGoesOn(), "a", method="guaranteed")
    with pytest.raises(SolverError, match=r"'a' is not a guaranteed.*right atom -3 < score 1"):
        solve(NotGuaranteed(), "a", method="guaranteed")
