"""The board widget's game: a Match played to the end without a browser, and the anywidget
BoardWidget's synced traits when anywidget is installed."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from functools import reduce
from operator import xor

import pytest

from cgframework import Player, solve
from cgframework.display.match import Match
from cgframework.display.pictures import LEFT_COLOUR, RIGHT_COLOUR


def _heaps(text: str) -> list[int]:
    return [int(h) for h in text.split(",") if h]


def test_nim_the_perfect_player_answers_into_zero_positions_and_wins():
    # Nim 1,2,3 has nim-sum 0: whatever the human (Left, first) plays, the perfect player
    # must answer into a nim-sum 0 position (Bouton's theorem) and make the last move.
    session = Match("nim", "1,2,3")
    assert session.state()["value"] == "0"
    assert session.state()["outcome"] == "the player to move (Left) loses"
    while not session.over:
        state = session.state()
        assert state["to_move"] == "Left" and state["moves"]
        assert {m["player"] for m in state["moves"]} == {"Left"}
        reply = session.play(state["moves"][-1]["text"])
        assert reply is not None
        assert reduce(xor, _heaps(session.state()["position"]), 0) == 0
    final = session.state()
    assert final["over"] and final["moves"] == [] and final["to_move"] == ""
    assert "Left cannot move: Right wins (the perfect player wins)." in final["message"]
    assert [h["player"] for h in final["history"]] == ["Left", "Right"] * (
        len(final["history"]) // 2
    )
    json.dumps(final)  # plain data for the front end


def test_domineering_the_perfect_player_moves_first_with_winning_moves_to_the_end():
    # 3x3 Domineering is ±1: the first player wins. The perfect player (Right) moves first;
    # each of its moves must be one the solver calls winning, and Right must win.
    session = Match("domineering", "...|...|...", human=Player.LEFT, first=Player.RIGHT)
    assert session.history and session.history[0][0] is Player.RIGHT
    first_reply = session.history[0][1]
    assert first_reply in solve("domineering", "...|...|...", first=Player.RIGHT).best_moves
    while not session.over:
        before = session.position
        move = session.legal_moves()[0]
        reply = session.play(move.text)
        if reply is not None:
            after_human = move.result
            best = solve(session.ruleset, after_human, first=Player.RIGHT).best_moves
            assert reply in best, (before, move.text, reply)
    state = session.state()
    assert state["message"].endswith("Left cannot move: Right wins (the perfect player wins).")
    # the picture is the start board with Left's dominoes blue and Right's red
    fills = [e.get("fill") for e in ET.fromstring(state["svg"]).iter() if e.get("class") == "cell"]
    assert len(fills) == 9 and RIGHT_COLOUR in fills and LEFT_COLOUR in fills
    with pytest.raises(ValueError, match="the game is over"):
        session.play("v1,1")


def test_illegal_moves_are_refused_with_the_legal_ones_named():
    session = Match("domineering", "..|..")
    with pytest.raises(ValueError, match=r"illegal move 'h1,1' for Left: the legal moves are v1,1"):
        session.play("h1,1")  # a horizontal domino is Right's move
    assert session.history == [] and session.state()["message"] == "Your move (Left)."
    session.play("v1,1")
    session.restart()
    assert session.history == [] and not session.over and session.position == session.start


def test_scoring_the_perfect_player_gets_at_least_its_value():
    # Pizza 3,1,4,1,5: the first player can be 2 ahead (solve); the perfect player moves
    # first, the human plays the first legal slice each time, the final margin is >= 2.
    value = solve("pizza", "3,1,4,1,5", first=Player.RIGHT).value
    session = Match("pizza", "3,1,4,1,5", human=Player.LEFT, first=Player.RIGHT)
    while not session.over:
        session.play(session.legal_moves()[0].text)
    assert -session.margin >= value == 2
    assert "Game over. Left - Right =" in session.state()["message"]


def test_cheating_robot_rounds_are_refused():
    with pytest.raises(ValueError, match="cheating-robot"):
        Match("cheating-robot", "{2|0|-4}")


def test_the_widget_mirrors_the_session_in_its_traits():
    pytest.importorskip("anywidget")
    from cgframework.display.widget import ESM, BoardWidget

    widget = BoardWidget("domineering", "...|...")
    assert widget.svg.startswith("<svg") and widget.value == "{2|-1/2}"
    assert widget.to_move == "Left" and not widget.over
    assert [m["text"] for m in widget.moves] == ["v1,1", "v1,2", "v1,3"]
    widget._on_message(widget, {"kind": "play", "move": "h1,1"}, [])  # Right's move: refused
    assert widget.message.startswith("illegal move 'h1,1' for Left")
    widget._on_message(widget, {"kind": "play", "move": "v1,1"}, [])
    assert "You played v1,1. Right (perfect player) played" in widget.message
    assert widget.over and widget.moves == [] and widget.value == "-1"
    assert "Right wins" in widget.message
    widget._on_message(widget, {"kind": "restart"}, [])
    assert not widget.over and widget.message == "Your move (Left)." and len(widget.moves) == 3
    assert "export default" in ESM and "model.send" in ESM


def test_the_board_widget_takes_clicks_on_the_board():
    pytest.importorskip("anywidget")
    from cgframework.display.widget import ESM, BoardWidget

    widget = BoardWidget("domineering", "...|...")
    assert widget.pick("cell:0,0") is None and widget.picks == ["cell:0,0"]
    assert "pick again" in widget.message
    widget._on_message(widget, {"kind": "pick", "pick": "cell:1,0", "part": None}, [])
    assert widget.picks == [] and widget.match.history[0] == (Player.LEFT, "v1,1")
    assert widget.over  # Right answers into a position where Left cannot move
    widget.restart()
    assert widget.pick("cell:0,0") is None and widget.pick("cell:0,1") is None
    assert widget.message == "No move of yours there." and widget.picks == []  # Right's domino
    assert 'kind: "pick"' in ESM


def test_the_explorer_widget_goes_down_and_back():
    pytest.importorskip("anywidget")
    from cgframework.display.widget import EXPLORER_ESM, ExplorerWidget

    widget = ExplorerWidget("domineering", "..#|...|.#.")
    assert (widget.value, widget.outcome, widget.temperature) == ("{2|0}", "N", "1")
    assert [o["move"] for o in widget.left] == ["v1,1", "v1,2", "v2,1", "v2,3"]
    assert [o["dominated"] for o in widget.left] == [True, False, True, True]
    assert widget.thermograph.startswith("<svg")
    widget._on_message(widget, {"kind": "go", "side": "left", "index": 1}, [])
    assert (widget.position, widget.value, len(widget.path)) == (".##|.#.|.#.", "2", 2)
    assert widget.path[-1]["move"] == "v1,2" and widget.right == []
    widget._on_message(widget, {"kind": "back", "depth": 0}, [])
    assert (widget.position, widget.value, len(widget.path)) == ("..#|...|.#.", "{2|0}", 1)
    assert widget.pick("cell:1,0") is None and widget.pick("cell:1,1") == "h2,1"
    assert (widget.position, widget.value) == ("..#|##.|.#.", "0")
    widget._on_message(widget, {"kind": "go", "side": "left", "index": 9}, [])
    assert "no option 9" in widget.message
    small = ExplorerWidget("domineering", "....|....|....|....", max_nodes=10)
    assert small.value == "too large (limit)" and "nodes" in small.message
    assert "export default" in EXPLORER_ESM
