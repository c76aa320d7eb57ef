"""``cgf pizza partition|share|search``."""

from __future__ import annotations

import json

import pytest

from cgframework.testing import run_cli as run


def test_partition_of_a_two_ended_stack(capsys):
    """G29 (§3): tes(1,2,1,2,5,2) = [1,2,1][2,5,2], slice weights (0,-1)."""
    code, out, _ = run(capsys, "pizza", "partition", "tes(1,2,1,2,5,2)", "--json")
    assert code == 0
    (record,) = json.loads(out)
    assert record["partition"] == "[1,2,1][2,5,2]" and record["weights"] == ["0", "-1"]


def test_partition_of_stacks_gives_the_ev_part(capsys):
    """Digest §6.4: st(1,5,2,4,3) + st(2,2,7) + tes(6,1,1,6) ~ <-3,2,6,1,1,6> + ev(5)."""
    code, out, _ = run(capsys, "pizza", "partition", "st(1,5,2,4,3) + st(2,2,7) + tes(6,1,1,6)")
    assert code == 0
    assert out.splitlines() == [
        "st: [1,5,2,4,3]  ~ <-3> + ev(0)",
        "st: [2](2,7)  ~ <2> + ev(5)",
        "tes: [6][1][1][6]  ~ <6,1,1,6>",
    ]


def test_share_of_the_fifteen_slice_pizza_is_four_ninths(capsys):
    """L887 / (4.3) L827: Player One gets exactly 4/9 of the 15-slice pizza."""
    code, out, _ = run(capsys, "pizza", "share", "0,1,0,1,0,0,1,0,2,0,0,2,0,2,0")
    assert code == 0 and "Player One gets 4, Player Two gets 5" in out and "4/9" in out


def test_search_finds_no_negative_pizza_below_fifteen_slices(capsys):
    """L24 / P20: no pizza with weights 0..2 and fewer than 15 slices has negative value
    (checked here for 9 slices: 3^9 weightings, up to symmetry)."""
    code, out, _ = run(capsys, "pizza", "search", "--n", "9", "--weights", "3")
    assert code == 0 and "least value 0" in out


@pytest.mark.parametrize(
    "args",
    [
        ("pizza", "partition", "cyc(1,2,3)"),
        ("pizza", "partition", "tes(1,x)"),
        ("pizza", "share", "foo(1)"),
        ("pizza", "search", "--n", "0"),
    ],
)
def test_bad_input(capsys, args):
    code, _, err = run(capsys, *args)
    assert code == 2 and err.count("\n") == 1


def test_play_writes_a_picture_of_who_took_what(capsys, monkeypatch, tmp_path):
    """The human (Player One) always takes the first listed slice; the computer answers
    optimally; the SVG colours Player One's 3 slices blue (Left) and Player Two's 2 red."""
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\n1\n"))
    picture = tmp_path / "game.svg"
    code, out, err = run(capsys, "pizza", "play", "3,1,4,1,5", "--svg", str(picture))
    assert code == 0, err
    from cgframework.display.pictures import LEFT_COLOUR, RIGHT_COLOUR

    svg = picture.read_text()
    assert svg.count(f'fill="{LEFT_COLOUR}"') == 3 + 1  # the legend's square too
    assert svg.count(f'fill="{RIGHT_COLOUR}"') == 2 + 1
    assert "Player One minus Player Two" in svg and "Game over" in out


def test_partition_by_the_papers_algorithm(capsys):
    """Algorithm 2.17 as printed (L358-L372) gives G29's partition too."""
    code, out, _ = run(
        capsys, "pizza", "partition", "tes(1,2,1,2,5,2)", "--algorithm", "paper", "--json"
    )
    assert code == 0
    (record,) = json.loads(out)
    assert record["partition"] == "[1,2,1][2,5,2]" and record["weights"] == ["0", "-1"]


def test_play_writes_the_picture_to_standard_output_with_dash(capsys, monkeypatch):
    """``--svg -``: the picture on standard output, after the game, with no file named '-'
    and no 'picture written to -' line after it."""
    import io
    import os

    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\n1\n"))
    code, out, err = run(capsys, "pizza", "play", "3,1,4,1,5", "--svg", "-")
    assert code == 0, err
    assert out.rstrip().endswith("</svg>") and "written" not in out
    assert not os.path.exists("-")
