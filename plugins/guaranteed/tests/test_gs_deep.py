"""Deep games (long waiting moves) print, reduce, compare and invert without building a
quadratic sum: cheap paths, not timings. Deep work runs under ``call_deep`` (a large stack
and a raised recursion limit), as the commands and searches do; the main thread keeps
Python's default limit."""

from __future__ import annotations

from cgframework.runtime.deep import call_deep
from cgframework_guaranteed.canonical import canonical, is_invertible
from cgframework_guaranteed.games import ZERO, _add_memo, waiting
from cgframework_guaranteed.notation import parse_game
from cgframework_guaranteed.order import compare, distinguishing_game, witnesses_not_ge


def test_deep_waiting_move_round_trips_and_reduces():
    def check():
        g = waiting(3000, 2)
        assert parse_game(str(g)) is g
        assert canonical(g) is g

    call_deep(check)


def test_single_atom_score_games_are_invertible_without_the_sum():
    """A game all of whose atoms are m is m plus a normal-play image (Def. 16, Thm 17), so it
    is invertible; the shortcut must not build G + ~G (about 9 million nodes here)."""

    def check():
        g = waiting(3000, 2)
        before = len(_add_memo)
        assert is_invertible(g)
        assert len(_add_memo) - before < 10_000

    call_deep(check)


def test_deep_comparison_witness_is_small():
    def check():
        g = waiting(3000)
        assert compare(g, ZERO).value == "greater"
        x = distinguishing_game(ZERO, g)
        assert x is not None and x.birthday <= 2 and witnesses_not_ge(ZERO, g, x)

    call_deep(check)
