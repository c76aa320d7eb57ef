"""Guard rails for plugin authors: a ruleset that breaks the protocol gets one line
on stderr naming the ruleset and the move or position, exit code 2, never a traceback."""

from __future__ import annotations

import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import Player, RulesetError, solve
from cgframework.testing import run_cli

BROKEN_PLUGIN = textwrap.dedent(
    """
    from cgframework import BaseRuleset, Convention, Move, hookimpl

    class FloatPoints(BaseRuleset):
        '''Scoring: take one token from a counter and earn half a point, as a float.'''
        name = "float-points"
        convention = Convention.SCORING
        syntax = "a counter, e.g. 3"

        def parse(self, text):
            return int(text)

        def options(self, position, player):
            return [Move(position - 1, "take", 0.5)] if position else []

    class FalselyImpartial(BaseRuleset):
        '''Marked impartial, but Left subtracts 1 and Right subtracts 2.'''
        name = "not-impartial"
        convention = Convention.NORMAL
        impartial = True
        syntax = "a counter, e.g. 5"

        def parse(self, text):
            return int(text)

        def options(self, position, player):
            k = 1 if player.value == "L" else 2
            return [Move(position - k, f"-{k}")] if position >= k else []

    @hookimpl
    def register_rulesets(register):
        register(FloatPoints())
        register(FalselyImpartial())
    """
)


@pytest.fixture
def broken(load_tmp_plugin):
    load_tmp_plugin("tmp_broken_plugin", BROKEN_PLUGIN)


def one_line(err: str) -> str:
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("method", ["auto", "generic", "minimax", "guaranteed"])
def test_float_points_name_the_ruleset_and_the_move(broken, capsys, method):
    code, out, err = run_cli(capsys, "solve", "float-points", "3", "--method", method)
    assert code == 2 and out == ""
    one_line(err)
    assert "'float-points'" in err and "'take'" in err and "0.5" in err and "exact" in err


@pytest.mark.parametrize(
    "method", ["auto", "generic", "grundy", "lemoine-viennot", "canonical", "outcome"]
)
def test_impartial_ruleset_whose_players_differ_is_refused(broken, capsys, method):
    code, out, err = run_cli(capsys, "solve", "not-impartial", "5", "--method", method)
    assert code == 2 and out == ""
    one_line(err)
    assert "'not-impartial'" in err and "impartial = True" in err and "'-1'" in err


def test_guard_rails_raise_ruleset_error_in_python(broken):
    with pytest.raises(RulesetError, match="float-points"):
        solve("float-points", "2")
    with pytest.raises(RulesetError, match="only Left has the move '-1'"):
        solve("not-impartial", "4", method="generic")


def test_a_true_impartial_ruleset_passes_the_check():
    assert solve("kayles", "7", method="generic").grundy == 2  # Winning Ways ch. 4: K7 = *2


@st.composite
def boards(draw):
    h = draw(st.integers(1, 3))
    w = draw(st.integers(1, 3))
    cells = draw(st.lists(st.sampled_from("..#"), min_size=h * w, max_size=h * w))
    return "|".join("".join(cells[r * w : (r + 1) * w]) for r in range(h))


@settings(max_examples=40, deadline=None)
@given(boards(), st.sampled_from(list(Player)))
def test_guaranteed_on_normal_play_gives_normal_play_outcome_and_winning_moves(board, first):
    """``--method guaranteed`` on Domineering (normal play): the value is the embedding
    (Def. 16), and the outcome and winning moves are normal play's, as the canonical solver
    finds them (Thm 17: the embedding keeps the order)."""
    normal = solve("domineering", board, first=first)
    embedded = solve("domineering", board, first=first, method="guaranteed")
    assert embedded.outcome is normal.outcome
    assert sorted(embedded.best_moves) == sorted(normal.best_moves)


def test_guaranteed_on_domineering_3x3_reports_only_winning_moves(capsys):
    """3x3 Domineering is +-1: Left wins only by a vertical domino in the middle column
    (v1,2 or v2,2); before the guard rail every Left move was listed as best."""
    code, out, _ = run_cli(capsys, "solve", "domineering", "...|...|...", "--method", "guaranteed")
    assert code == 0
    assert "v1,2, v2,2" in out and "v1,1" not in out and "outcome\tN" in out
