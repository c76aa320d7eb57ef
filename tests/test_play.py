"""``cgf play``: the perfect player answers, illegal input is rejected and asked again."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest
from rich.console import Console

from cgframework.game import Player
from cgframework.testing import run_cli


def test_play_rejects_illegal_moves_and_the_computer_wins_nim(capsys, monkeypatch):
    # Nim 1,2 (Grundy 3): the human (Left, first) takes the 1-heap; the perfect player must
    # then win. "9" and "x" are illegal and must be rejected with a message.
    monkeypatch.setattr("sys.stdin", io.StringIO("9\nx\n1->0\n1\n1\n"))
    code, out, err = run_cli(capsys, "play", "nim", "1,2")
    assert code == 0, err
    assert out.count("illegal move") == 2
    assert "Right wins" in out


def test_play_ends_on_end_of_input(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, out, _ = run_cli(capsys, "play", "nim", "3,4,5")
    assert code == 0 and "bye" in out


def test_play_picture_colours_what_each_player_took(capsys, monkeypatch, tmp_path):
    """Domineering 2x3: the human (Left) plays v1,1; the picture is the start board with
    Left's domino blue and Right's answers red (cells from move_marks)."""
    import xml.etree.ElementTree as ET

    from cgframework.display.pictures import LEFT_COLOUR, RIGHT_COLOUR

    monkeypatch.setattr("sys.stdin", io.StringIO("v1,1\n1\n1\n1\n"))
    target = tmp_path / "game.svg"
    code, out, err = run_cli(capsys, "play", "domineering", "...|...", "--picture", str(target))
    assert code == 0, err
    root = ET.fromstring(target.read_text())
    fills = [e.get("fill") for e in root.iter() if e.get("class") == "cell"]
    # after v1,1 Right lays one horizontal domino in the 2x2 left over; Left cannot answer
    assert len(fills) == 6 and fills[0] == fills[3] == LEFT_COLOUR
    assert fills.count(LEFT_COLOUR) == 2 and fills.count(RIGHT_COLOUR) == 2


def test_play_picture_refusals_come_before_the_game(capsys, tmp_path):
    code, out, err = run_cli(
        capsys, "play", "nim", ",".join(["1"] * 201), "--picture", str(tmp_path / "p.svg")
    )
    assert code == 2 and "too big to draw" in err and "You are" not in out


# -- loopy rulesets: the repetition rule and a perfect player that makes progress -----------

CYCLE = "0>1,1>0;0"  # one token on a 2-cycle: neither player can ever stop


def test_play_ends_a_cycle_as_a_draw_at_the_third_repetition(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 10))
    code, out, err = run_cli(capsys, "play", "digraph", CYCLE)
    assert code == 0, err
    assert "occurred before with Left to move (a third time is a draw)" in out
    assert out.rstrip().endswith(
        "The position has occurred a third time with Left to move: a draw."
    )
    assert "bye" not in out and out.count("your move") == 2


def test_play_on_a_partizan_cycle_stops_on_its_own(capsys, monkeypatch):
    # Left to move on a 2-cycle whose arcs are Left's (0>1) and Right's (1>0): a draw
    monkeypatch.setattr("sys.stdin", io.StringIO("0>1\n" * 10))
    code, out, err = run_cli(capsys, "play", "partizan-digraph", "0>1:L,1>0:R;0")
    assert code == 0, err
    assert "a draw" in out and "bye" not in out


def test_the_perfect_player_wins_a_loopy_game_without_going_round_a_cycle(capsys, monkeypatch):
    # Left wins from 0 by 0>1 or 0>2, but after 0>1 Right's only move is back to 0: the
    # first winning move, played for ever, never wins; 0>2 leaves Right without a move
    monkeypatch.setattr("sys.stdin", io.StringIO("1>0\n" * 10))
    code, out, err = run_cli(
        capsys, "play", "partizan-digraph", "0>1:L,0>2:L,1>0:R;0", "--you", "R"
    )
    assert code == 0, err
    assert "Left (computer) plays 0>2" in out and "Right cannot move: Left wins." in out


def test_match_declares_a_draw_by_repetition():
    from cgframework.display.match import Match

    match = Match("digraph", CYCLE)
    assert match.play("0>1") == "1>0"
    match.play("0>1")
    state = match.state()
    assert match.over and match.drawn and state["over"] and state["moves"] == []
    assert state["message"].endswith(
        "The position has occurred a third time with Left to move: a draw."
    )
    match.restart()
    assert not match.over and not match.drawn
    match.play("0>1")
    assert "occurred before" in match.state()["message"] and not match.over


def test_match_perfect_player_wins_the_loopy_game():
    from cgframework.display.match import Match

    match = Match("partizan-digraph", "0>1:L,0>2:L,1>0:R;0", human=Player.RIGHT, first=Player.LEFT)
    assert match.over and match.history == [(Player.LEFT, "0>2")]
    assert "Left wins" in match.state()["message"]


# -- move names that are numbers --------------------------------------------------------


def test_a_bare_number_is_a_numeric_move_name_never_a_menu_item(capsys, monkeypatch):
    # Node-Kayles on a path 0-1-2-3 names its moves by vertex: 0, 1, 2, 3. "1" is vertex 1
    # (item 2), and "#1" item 1 (vertex 0); "9" names no vertex and is refused
    from cgframework.display.play import play_game
    from cgframework.game import parse_position
    from cgframework.plugins import resolve_ruleset

    seen = []
    monkeypatch.setattr("sys.stdin", io.StringIO("9\n1\n"))
    rs = resolve_ruleset("node-kayles")
    console = Console(file=io.StringIO())
    play_game(
        rs,
        parse_position(rs, "path:4"),
        human=Player.LEFT,
        first=Player.LEFT,
        console=console,
        on_move=lambda player, move: seen.append((player, move.text)),
    )
    shown = console.file.getvalue()
    assert seen[0] == (Player.LEFT, "1")
    assert "#1. 0" in shown and "illegal move '9': choose #1..#4 or a move text" in shown


def test_menu_items_by_hash_and_bare_numbers_without_numeric_names():
    from cgframework.display.play import read_choice
    from cgframework.game import Move

    numeric = [Move(None, "8"), Move(None, "9")]
    assert read_choice("1", numeric) is None  # (was item 1: the move 8)
    assert read_choice("#1", numeric).text == "8" and read_choice("9", numeric).text == "9"
    assert read_choice("#3", numeric) is None and read_choice("#", numeric) is None
    named = [Move(None, "3->1"), Move(None, "3->0")]
    assert read_choice("2", named).text == "3->0" and read_choice("#2", named).text == "3->0"
    assert read_choice("3->1", named).text == "3->1" and read_choice("0", named) is None


# -- every line read is bounded ------------------------------------------------------------


def test_a_line_over_the_input_limit_ends_the_game_with_exit_2(capsys, monkeypatch):
    monkeypatch.setenv("CGF_MAX_INPUT_BYTES", "100")
    monkeypatch.setattr("sys.stdin", io.StringIO("x" * 101 + "\n1\n"))
    code, out, err = run_cli(capsys, "play", "nim", "3,4,5")
    assert code == 2 and err.count("\n") == 1
    assert "a line of standard input is longer than the input limit of 100 bytes" in err
    assert "illegal" not in out
    monkeypatch.setattr("sys.stdin", io.StringIO("q" + " " * 99 + "\n"))  # (at the limit)
    code, out, err = run_cli(capsys, "play", "nim", "3,4,5")
    assert code == 0 and "bye" in out, err


def _cgf_play(stdin, *args):
    """``cgf --max-memory 256M play ARGS`` in a process of its own, fed ``stdin``."""
    return subprocess.run(
        [sys.executable, "-m", "cgframework", "--max-memory", "256M", "play", *args],
        stdin=stdin,
        capture_output=True,
        timeout=120,
    )


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_endless_input_is_refused_at_the_limit_in_little_memory():
    # an unbounded line read would fill the 256 MB ceiling in a second (exit 3, out of
    # memory); the bounded one stops after 16 MiB
    with open("/dev/zero", "rb") as zero:
        done = _cgf_play(zero, "nim", "3,4,5")
    assert (done.returncode, done.stderr.decode()) == (
        2,
        "cgf: error: a line of standard input is longer than the input limit of 16777216 "
        "bytes (set CGF_MAX_INPUT_BYTES)\n",
    )


def test_a_line_not_in_utf8_ends_the_game_with_exit_2(tmp_path):
    typed = tmp_path / "typed"
    typed.write_bytes(b"3->\xff\n")
    with typed.open("rb") as stdin:
        done = _cgf_play(stdin, "nim", "3,4,5")
    assert done.returncode == 2 and done.stderr.count(b"\n") == 1
    assert b"a line of standard input is not UTF-8 text (byte 3)" in done.stderr
