"""The core's generic solvers on rulesets defined in the tests (tests/toy_rulesets.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from toy_rulesets import (
    EndsRuleset,
    ImpartialTreeRuleset,
    MisereTreeRuleset,
    Row,
    Tokens,
    TokensRuleset,
    Tree,
    TreeRuleset,
    tree_sum,
)

from cgframework import Outcome, Player, Sum, TranspositionTable, solve
from cgframework.plugins import Registry
from cgframework.values import ZERO, nimber

REGISTRY = Registry()
for _rs in (
    TreeRuleset(),
    ImpartialTreeRuleset(),
    MisereTreeRuleset(),
    TokensRuleset(),
    EndsRuleset(),
):
    REGISTRY._add_ruleset("tests", _rs)


def run(name, position, **kw):
    return solve(REGISTRY.ruleset(name), position, registry=REGISTRY, **kw)


trees = st.recursive(
    st.just(Tree()),
    lambda kids: st.builds(
        Tree,
        st.lists(kids, max_size=2).map(tuple),
        st.lists(kids, max_size=2).map(tuple),
    ),
    max_leaves=6,
)
impartial_trees = st.recursive(
    st.just(Tree()),
    lambda kids: st.lists(kids, max_size=3).map(lambda opts: Tree(tuple(opts), tuple(opts))),
    max_leaves=8,
)


def ends_reference(values: tuple[int, ...]) -> int:
    """Exhaustive game-tree search, no memo: the mover's best margin."""
    if not values:
        return 0
    if len(values) == 1:
        return values[0]
    return max(values[0] - ends_reference(values[1:]), values[-1] - ends_reference(values[:-1]))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-5, 9), max_size=9).map(tuple), st.booleans())
def test_minimax_matches_exhaustive_search(values, cached):
    table = TranspositionTable(enabled=cached)
    solution = run("ends", Row(values), table=table)
    assert solution.value == ends_reference(values)
    assert solution.method == "minimax"
    if not cached:
        assert table.hits == 0
    # every reported best move really achieves the value
    for text in solution.best_moves:
        rest = Row(values[1:]) if text == "left" else Row(values[:-1])
        taken = values[0] if text == "left" else values[-1]
        assert taken - ends_reference(rest.values) == solution.value


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("LR"), st.integers(0, 6)), max_size=7).map(tuple))
def test_minimax_with_passing_takes_every_token(items):
    """A player without tokens passes; each player ends up taking all of his own tokens."""
    left = sum(w for o, w in items if o == "L")
    right = sum(w for o, w in items if o == "R")
    assert run("tokens", Tokens(items), first=Player.LEFT).value == left - right
    assert run("tokens", Tokens(items), first=Player.RIGHT).value == right - left


@settings(max_examples=80, deadline=None)
@given(trees, trees)
def test_canonical_of_sum_is_sum_of_canonicals(g, h):
    """Siegel CGT II.1: the value of G + H is the sum of the values."""
    whole = run("tree", tree_sum(g, h)).value  # one tree: no decomposition
    assert whole == run("tree", g).value + run("tree", h).value
    assert run("tree", Sum((g, h))).value == whole  # the core's Sum, summed by components


@settings(max_examples=80, deadline=None)
@given(trees)
def test_outcome_solver_agrees_with_canonical_value(g):
    value = run("tree", g).value
    brute = run("tree", g, method="outcome").outcome
    assert brute == value.outcome()
    # G - G = 0 through the solver (sum of a game and its negative)
    assert run("tree", Sum((g, _negate(g)))).value == ZERO


def _negate(g: Tree) -> Tree:
    return Tree(tuple(_negate(r) for r in g.rights), tuple(_negate(x) for x in g.lefts))


@settings(max_examples=80, deadline=None)
@given(impartial_trees)
def test_grundy_equals_canonical_nimber(g):
    grundy = run("itree", g)
    canonical = run("itree", g, method="canonical")
    assert grundy.method == "grundy"
    assert canonical.value == nimber(grundy.grundy) == grundy.value
    assert grundy.outcome is (Outcome.P if grundy.grundy == 0 else Outcome.N)


def test_misere_outcome_of_small_trees():
    """Misère: the player who cannot move wins (Siegel CGT V.1)."""
    zero = Tree()
    star = Tree((zero,), (zero,))
    assert run("mtree", zero).outcome is Outcome.N
    assert run("mtree", star).outcome is Outcome.P
    assert run("mtree", Tree((zero,), ())).outcome is Outcome.R  # normal-play 1


def test_winning_moves_are_reported_for_the_first_player():
    zero = Tree()
    star = Tree((zero,), (zero,))
    sol = run("tree", Tree((zero, star), (zero,)))  # {0,*|0} = ^*
    assert str(sol.value) == "^*"
    assert sol.best_moves == ("L0",)
    assert run("tree", Tree((zero, star), (zero,)), first=Player.RIGHT).best_moves == ("R0",)
