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
