"""The core's loopy declaration: recursive solvers refuse a repeated position with one line;
a ruleset declaring ``loopy = True`` gets the retrograde and generalized Sprague-Grundy
solvers (no plugin needed)."""

from __future__ import annotations

import pytest

from cgframework import BaseRuleset, Convention, Move, Outcome, SolverError, solve


class TwoCycle(BaseRuleset):
    """Positions 0 and 1, each moving to the other; 2 is a dead end reachable from 1."""

    name = "two-cycle"
    impartial = True

    def parse(self, text):
        return int(text)

    def options(self, position, player):
        if position == 0:
            yield Move(1, "0>1")
        elif position == 1:
            yield Move(0, "1>0")
            yield Move(2, "1>2", points=1)


class ScoringTwoCycle(TwoCycle):
    name = "scoring-two-cycle"
    convention = Convention.SCORING


class LoopyTwoCycle(TwoCycle):
    name = "loopy-two-cycle"
    loopy = True


@pytest.mark.parametrize("method", ["generic", "grundy", "lemoine-viennot", "canonical", "outcome"])
def test_recursive_solvers_refuse_a_repeated_position(method):
    with pytest.raises(SolverError, match=r"position repeats: .*'two-cycle'.*declare"):
        solve(TwoCycle(), "0", method=method)


def test_minimax_refuses_a_repeated_position():
    with pytest.raises(SolverError, match="position repeats"):
        solve(ScoringTwoCycle(), "0")


def test_a_loopy_ruleset_gets_the_loopy_solvers():
    # 0 <-> 1 -> 2: value of 2 is 0, of 1 is mex{0,0} = 1 (0 reverses through 2), of 0 is 0.
    assert solve(LoopyTwoCycle(), "0").grundy == 0
    assert solve(LoopyTwoCycle(), "1").grundy == 1
    assert solve(LoopyTwoCycle(), "0", method="retrograde").outcome is Outcome.P
    assert solve(LoopyTwoCycle(), "1", method="generic").extra["left_first"] == "L"
