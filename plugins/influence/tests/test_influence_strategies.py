"""The strategies of the paper's proofs, played against an optimal opponent."""

from __future__ import annotations

from hypothesis import given, settings

from cgframework import Player, Sum
from cgframework_influence.graph import negate, segment
from cgframework_influence.lines import (
    analyser_for,
    line,
    mirror_chooser,
    quasi_equal_chooser,
    quasi_equal_cut,
    totals,
)
from cgframework_influence.solvers import as_graph
from cgframework_influence.strategies import digraphs


def difference(steps) -> int:
    t = totals(steps)
    return t["L"] - t["R"]


def test_mirror_on_segments_3_mod_4_guarantees_3():
    """Theorem 20.2 proof (L811-L813): centre, then mirror, gives Ls = 3 against every
    reply (the opponent here plays optimally) for n = 7..35."""
    for n in range(7, 36, 4):
        g = segment(n)
        steps = line(g, Player.LEFT, analyser_for(g), mirror_chooser(g, Player.LEFT))
        assert difference(steps) == 3


@settings(max_examples=40, deadline=None)
@given(digraphs(max_n=5))
def test_mirror_in_h_minus_h_gives_zero_to_the_second_player(h):
    """Cor. 15 (L496-L505): the second player mirrors in H + (-H) and gets 0."""
    g = as_graph(Sum((h, negate(h))))
    analyser = analyser_for(g)
    steps = line(g, Player.LEFT, analyser, mirror_chooser(g, Player.RIGHT), Player.RIGHT)
    assert difference(steps) <= 0
    steps = line(g, Player.RIGHT, analyser, mirror_chooser(g, Player.LEFT), Player.LEFT)
    assert difference(steps) >= 0


def test_quasi_equal_cut_meets_theorem_20_bounds():
    """Theorem 20 proof (L803-L819): the cut gives Ls >= 2 (even n), = 3 (n = 3 mod 4),
    >= 1 (n = 1 mod 4), for n = 7..40; it is optimal except at n = 14, 22, 30."""
    not_optimal = []
    for n in range(7, 41):
        g = segment(n)
        analyser = analyser_for(g)
        steps = line(g, Player.LEFT, analyser, quasi_equal_chooser(g, Player.LEFT))
        got = difference(steps)
        assert got >= {0: 2, 2: 2, 3: 3, 1: 1}[n % 4]
        if got != analyser.ls_rs(g)[0]:
            not_optimal.append(n)
    assert not_optimal == [14, 22, 30]


def test_quasi_equal_cut_positions():
    assert quasi_equal_cut(7) == 3 and quasi_equal_cut(14) == 7 and quasi_equal_cut(6) is None
