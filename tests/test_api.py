"""The Game object (cgframework/api.py), exercised as in a CGSuite worksheet:

G := game.grid.Domineering("..|..")     ->  G = Game("domineering", "..|..")
G.CanonicalForm; G.LeftOptions; G + G   ->  G.value; G.options(Player.LEFT); G + G
"""

from __future__ import annotations

import doctest
import json
import re

import pytest

import cgframework.api
from cgframework import Game, Outcome, Player, solve
from cgframework.api import GameValue, sweep
from cgframework.io import dump_value
from cgframework.values import STAR, UP, parse_value


def test_a_cgsuite_style_session():
    g = Game("domineering", "..|..")
    assert str(g.value) == "+-1" and g.outcome is Outcome.N
    assert [str(o) for o in g.options(Player.LEFT)] == ["#.|#.", ".#|.#"]
    assert all(o == -1 for o in g.right_options)  # a horizontal domino leaves Right a move
    assert g + g == 0  # +-1 is its own negative
    domino = Game("domineering", ".|.")  # one vertical domino fits: Left's free move
    assert domino == 1 and domino > 0
    assert not g <= domino and not g >= domino  # 1 - (+-1) = {2|0} is fuzzy with 0
    assert g < domino + domino
    assert str(g + domino) == "..|.. + .|."
    assert g.solve(method="generic").value is g.value
    assert g.solve(first=Player.RIGHT).best_moves == ("h1,1", "h2,1")


def test_values_compare_with_canonical_forms_of_the_calculator():
    heap = Game("nim", "1")
    assert heap == STAR and heap.value is parse_value("*")
    assert Game("nim", "1,1") == 0 and Game("nim", "3") == Game("nim", "1,2")
    assert Game("nim", "2") < UP  # ^ > *n for n >= 2, but ^ || * (Winning Ways ch. 3)
    assert not (heap <= UP) and not (heap >= UP)


def test_options_and_moves_of_a_sum():
    g = Game("nim", "2") + Game("nim", "1")
    moves = dict(g.moves(Player.LEFT))
    assert set(moves) == {"1:2->0", "1:2->1", "2:1->0"}
    assert moves["1:2->1"] == 0  # *1 + *1
    assert len(g.options(Player.RIGHT)) == 3  # impartial: the same moves


def test_scoring_games_are_solved_but_not_ordered():
    pizza = Game("pizza", "3,1,2")
    assert pizza.outcome is None and pizza.value == solve("pizza", "3,1,2").value
    with pytest.raises(TypeError, match="normal-play values only"):
        _ = pizza <= pizza


def test_two_rulesets_add_by_their_values_in_normal_play_only():
    """No position holds the sum of a nim and a kayles position: their values add (a
    GameValue), and a scoring game adds to nothing of another ruleset."""
    total = Game("nim", "1") + Game("kayles", "1")
    assert isinstance(total, GameValue) and total == 0 and total.outcome is Outcome.P
    with pytest.raises(TypeError, match="cannot add"):
        _ = Game("nim", "1") + Game("pizza", "3,1,2")


def test_draw_is_the_rulesets_picture_and_a_sum_is_drawn_part_by_part():
    import xml.etree.ElementTree as ET

    svg = Game("nim", "3").draw()
    assert [e.get("class") for e in ET.fromstring(svg).iter()].count("token") == 3
    svg = (Game("domineering", "..|..") + Game("domineering", "...")).draw()
    assert [e.get("class") for e in ET.fromstring(svg).iter()].count("cell") == 7


def test_json_of_a_game_and_of_its_value():
    g = Game("domineering", "...|...")
    data = json.loads(g.to_json())
    assert data["value"] == str(g.value) and data["outcome"] == g.outcome.value
    assert json.loads(json.dumps(dump_value(g.value))) == str(g.value)


def test_sweep_by_names_agrees_with_the_generic_solver():
    records = sweep("domineering", "2xn", 1, 6)
    assert [r.parameter for r in records] == [1, 2, 3, 4, 5, 6]
    for r in records:
        generic = Game("domineering", r.solution.position).solve(method="generic")
        assert r.solution.value is generic.value
    assert str(records[4].solution.value) == "1/2"


def test_module_doctest():
    assert doctest.testmod(cgframework.api).failed == 0


def test_help_shows_the_user_api_and_authoring_holds_the_plugin_authors_names():
    """``help(cgframework)`` documents the user's API only; the plugin author's names are
    :mod:`cgframework.authoring`'s, and still importable from ``cgframework``."""
    import pydoc

    import cgframework
    import cgframework.authoring as authoring

    text = pydoc.render_doc(cgframework, renderer=pydoc.plaintext)
    for name in ("Game", "solve", "Solution", "SolverError", "StoreError", "LimitExceeded"):
        assert name in cgframework.__all__, name
        assert re.search(rf"\n    (class )?{name}\b", text), name
    for name in authoring.__all__:
        assert name not in cgframework.__all__, name
        assert getattr(cgframework, name) is getattr(authoring, name), name
        assert f"\n    class {name}(" not in text, name
    assert not {"BaseRuleset", "SolverSpec", "hookimpl", "finish"} - set(authoring.__all__)


def test_the_errors_a_caller_catches_are_at_the_top():
    """What ``solve``, ``parse_value`` and a store raise can be caught from ``cgframework``."""
    import cgframework
    from cgframework.store.database import ValueStore
    from cgframework.values import parse_value

    with pytest.raises(cgframework.UnknownRuleset):
        solve("no-such-game", "1")
    with pytest.raises(cgframework.ValueSyntaxError):
        parse_value("{1|")
    with pytest.raises(cgframework.SearchStopped) as stopped:
        solve("domineering", "....|....|....|....", max_nodes=10)
    assert isinstance(stopped.value, cgframework.LimitExceeded)
    with pytest.raises(cgframework.StoreError):
        ValueStore(__file__)  # a Python file is not a value store
