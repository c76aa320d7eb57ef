"""``cgf play``: the perfect player answers, illegal input is rejected and asked again."""

from __future__ import annotations

import io

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
