"""The generic canonical search's shortcuts against their slow twins: the
position search (raw positions and components looked up before any key, a component and its
declared ``negative`` sharing one node) against ``--method generic`` (the plain recursion),
``game()``'s memo and integer shortcut against the dominance/reversibility loop and
``simplest_between``, and the one-rewrite simplifier against the general one."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from plain_rulesets import PlainClobber, PlainCram
from toy_rulesets import Tree, TreeRuleset

from cgframework import BaseRuleset, Preserves, Simplification, Sum, SwapLetters, solve
from cgframework.runtime.cache import MISSING, TranspositionTable
from cgframework.solvers.dispatch import make_simplifier
from cgframework.values import UP, game, nimber, number
from cgframework.values.canonical import (
    _canonicalise,
    _simplest_integer,
    _sorted,
    simplest_between,
)

SETTINGS = settings(max_examples=60, deadline=None)


def boards(letters: str, max_height: int = 3, max_width: int = 4):
    """Random rectangular boards over ``letters``, rows joined by ``|``."""

    @st.composite
    def board(draw):
        h = draw(st.integers(1, max_height))
        w = draw(st.integers(1, max_width))
        cells = draw(st.lists(st.sampled_from(letters), min_size=h * w, max_size=h * w))
        return "|".join("".join(cells[r * w : (r + 1) * w]) for r in range(h))

    return board()


def same_solution(ruleset, position, method="auto"):
    fast = solve(ruleset, position, method=method)
    slow = solve(ruleset, position, method="generic")
    assert fast.value is slow.value, (position, str(fast.value), str(slow.value))
    assert fast.outcome is slow.outcome
    assert sorted(fast.best_moves) == sorted(slow.best_moves)


@SETTINGS
@given(st.lists(boards("xo.x"), min_size=1, max_size=2))
def test_position_search_on_clobber_agrees_with_the_plain_recursion(parts):
    """Components, a symmetric key and ``negative = SwapLetters("xo")``."""
    same_solution(PlainClobber(), Sum(tuple(parts)))


@SETTINGS
@given(boards(".#..", max_height=3, max_width=4))
def test_position_search_on_cram_agrees_with_the_plain_recursion(board):
    """An impartial ruleset through the canonical search (not the Grundy one)."""
    same_solution(PlainCram(), board, method="canonical")


def random_tree(rng: random.Random, depth: int, pool: list[Tree]) -> Tree:
    """A tree whose subtrees are often shared (positions met again along other paths)."""
    if depth == 0 or rng.random() < 0.2:
        return rng.choice(pool) if pool and rng.random() < 0.5 else Tree()
    kids = [random_tree(rng, depth - 1, pool) for _ in range(rng.randint(0, 4))]
    tree = Tree(tuple(kids[: len(kids) // 2]), tuple(kids[len(kids) // 2 :]))
    pool.append(tree)
    return tree


@SETTINGS
@given(st.integers(0, 10**9))
def test_position_search_on_shared_trees_agrees_with_the_plain_recursion(seed):
    """No components, no key: the default ``whole`` path, with shared subtrees."""
    tree = random_tree(random.Random(seed), 5, [])
    same_solution(TreeRuleset(), tree, method="canonical")


class NegatedClobber(PlainClobber):
    """Clobber whose ``negative`` is a method (bound), not a SwapLetters object."""

    name = "negated-clobber"

    def negative(self, position: str) -> str:  # type: ignore[override]
        return position.translate(str.maketrans("xo", "ox"))


@SETTINGS
@given(boards("xo.x"))
def test_declared_negatives_are_negatives(board):
    """What the rulesets declare (and the search relies on) holds: the negative's value is
    minus the value, by the plain recursion."""
    rules = PlainClobber()
    value = solve(rules, board, method="generic").value
    assert solve(rules, rules.negative(board), method="generic").value is -value
    assert solve(NegatedClobber(), board).value is value


def test_a_wrong_negative_changes_the_answer():
    """The search really uses ``negative`` (so the property tests above can fail)."""

    class Wrong(PlainClobber):
        name = "wrong-clobber"
        negative = SwapLetters("x.")  # not a negative at all

    board = "xox|o.o"
    right = solve(PlainClobber(), board).value
    assert solve(Wrong(), board).value is not right
    assert solve(Wrong(), board, method="generic").value is right


class DictBacking:
    """A value-store stand-in under the transposition table (``get`` / ``put``)."""

    def __init__(self):
        self.rows = {}

    def get(self, key):
        return self.rows.get(key, MISSING)

    def put(self, key, value):
        self.rows[key] = value


@SETTINGS
@given(st.lists(boards("xo.x"), min_size=1, max_size=2))
def test_position_search_through_a_backing_level_agrees_with_the_plain_recursion(parts):
    """A table with a backing level (the value store) is read through ``lookup`` and written
    through ``store``, not as a plain dict: same values, and a second search over the filled
    backing expands nothing."""
    position = Sum(tuple(parts))
    backing = DictBacking()
    slow = solve(PlainClobber(), position, method="generic")
    first = solve(PlainClobber(), position, table=TranspositionTable(backing=backing))
    again = solve(PlainClobber(), position, table=TranspositionTable(backing=backing))
    assert first.value is slow.value and again.value is slow.value
    assert sorted(first.best_moves) == sorted(again.best_moves) == sorted(slow.best_moves)
    assert again.stats.nodes == 0


def test_swap_letters():
    assert SwapLetters("TF", reverse=True)("TT.F") == "T.FF"
    assert SwapLetters("xo")("xo.|o.x") == "ox.|x.o"
    assert "reverse=True" in repr(SwapLetters("TF", reverse=True))
    with pytest.raises(ValueError):
        SwapLetters("xx")


def test_position_search_counts_and_shares_the_table():
    """The search fills the same transposition table keys as the plain recursion, and a
    second solve with that table searches nothing again."""
    table = TranspositionTable()
    first = solve(PlainClobber(), "xoxo|oxox", table=table)
    assert first.stats.nodes > 0 and ("c", PlainClobber().canonical_key("xoxo|oxox")) in table
    again = solve(PlainClobber(), "xoxo|oxox", table=table)
    assert again.value is first.value and again.stats.nodes == first.stats.nodes


leaves = st.one_of(
    st.integers(-3, 3).map(number),
    st.sampled_from([number("1/2"), number("-3/4"), nimber(1), nimber(2), UP, -UP]),
)
games = st.recursive(
    leaves,
    lambda kids: st.builds(game, st.lists(kids, max_size=3), st.lists(kids, max_size=3)),
    max_leaves=8,
)
options = st.lists(games, max_size=4)


@settings(max_examples=200, deadline=None)
@given(options, options, st.randoms())
def test_game_memo_agrees_with_the_general_loop(lefts, rights, rng):
    """``game`` answers from its memo for option lists met before (in any order, with
    repeats); ``_canonicalise`` alone must give the same form each time."""
    slow = _canonicalise(_sorted(lefts), _sorted(rights))
    assert game(lefts, rights) is slow
    shuffled = lefts + lefts[:1]
    rng.shuffle(shuffled)
    assert game(shuffled, list(reversed(rights))) is slow


bounds = st.one_of(st.none(), st.integers(-6, 6))


@settings(max_examples=200, deadline=None)
@given(bounds, bounds)
def test_simplest_integer_agrees_with_simplest_between(lo, hi):
    if lo is not None and hi is not None and lo >= hi:
        return
    lo_f = None if lo is None else Fraction(lo)
    hi_f = None if hi is None else Fraction(hi)
    assert _simplest_integer(lo_f, hi_f) is number(simplest_between(lo_f, hi_f))


class Strips(BaseRuleset):
    name = "strips"


class _Registry:
    def __init__(self, simplifications):
        self.simplifications = simplifications


def _rule(name, apply, preserves):
    return Simplification(name=name, rulesets=("strips",), apply=apply, preserves=preserves)


@pytest.mark.parametrize("preserves", [Preserves.EQUIVALENCE, Preserves.VALUE])
def test_one_rewrite_simplifier_agrees_with_the_general_one(preserves):
    strip = _rule("strip", lambda rs, p: p.strip("."), preserves)
    noop = _rule("noop", lambda rs, p: p, Preserves.EQUIVALENCE)
    one = make_simplifier(Strips(), _Registry([strip]))
    general = make_simplifier(Strips(), _Registry([strip, noop]))
    for position in ["..T.F.", Sum(("..T.",)), Sum(("..T.", ".F.."))]:
        assert one(Strips(), position) == general(Strips(), position)
    for position in ["..T.F.", ".", "T"]:  # ``part``: the rewrite for a position not a Sum
        assert one.part(Strips(), position) == general.part(Strips(), position)
        assert one.part(Strips(), position) == one(Strips(), position)
