"""Specialised solvers against the generic minimax (the waiting rule, L20) on random
positions, and the paper's structural properties (digest §3)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import Player, Sum, get_registry, solve
from cgframework.runtime.budget import SearchBudget, SearchStopped
from cgframework_influence.engine import Engine, GraphComponents, canonical_form
from cgframework_influence.graph import InfluenceGraph, negate, segment
from cgframework_influence.solvers import Analyser, as_graph
from cgframework_influence.strategies import digraphs, one_line

RULES = get_registry().ruleset("influence")


def both(position, method: str) -> tuple:
    left = solve(RULES, position, method=method, first=Player.LEFT)
    right = solve(RULES, position, method=method, first=Player.RIGHT)
    return left.value, -right.value, left.best_moves, right.best_moves


@settings(max_examples=400, deadline=None)
@given(digraphs(max_n=8))
def test_graph_solver_equals_generic_minimax(g):
    """Relevant-graph recursion (L234-L240, sign corrected) = original rules."""
    assert both(g, "influence-graph") == both(g, "generic")


@settings(max_examples=150, deadline=None)
@given(st.lists(digraphs(max_n=4), min_size=2, max_size=3))
def test_graph_solver_on_sums_equals_generic(parts):
    position = Sum(tuple(parts))
    assert both(position, "influence-graph") == both(position, "generic")


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 7), st.sampled_from([None, "C+", "C-"])), min_size=1, max_size=3
    )
)
def test_segment_solver_equals_generic(spec):
    texts = [f"segment:{n}" + (f":{k}" if k and n % 2 else "") for n, k in spec]
    position = RULES.parse(texts[0]) if len(texts) == 1 else Sum(tuple(map(RULES.parse, texts)))
    fast = both(position, "influence-segments")
    assert fast == both(position, "generic")
    assert fast == both(position, "influence-graph")


def test_segment_solver_on_cycles_equals_generic():
    for n in (4, 6, 8, 10):
        g = RULES.parse(f"cycle:{n}")
        assert both(g, "influence-segments") == both(g, "generic")
    s = Sum((RULES.parse("cycle:6"), RULES.parse("segment:5")))
    assert both(s, "influence-segments") == both(s, "generic")


@settings(max_examples=100, deadline=None)
@given(digraphs(max_n=8))
def test_nonzugzwang_and_parity(g):
    """Cor. 12 (L441-L455) Ls >= Rs; Lemma 5 (L159-L171) Ls = Rs = |V| mod 2."""
    ls, rs = Analyser(GraphComponents()).ls_rs(g)
    assert ls >= rs
    assert (ls - g.n) % 2 == 0 and (rs - g.n) % 2 == 0


@settings(max_examples=80, deadline=None)
@given(digraphs(max_n=5), digraphs(max_n=4))
def test_adding_h_minus_h_changes_nothing(x, h):
    """Milnor's group (L252), Cor. 15 (L496-L505): X + H + (-H) has the scores of X, and the
    check is made with cancellation turned off (the generic minimax)."""
    with_pair = Sum((x, h, negate(h)))
    assert both(with_pair, "generic")[:2] == both(x, "generic")[:2]
    assert Analyser(GraphComponents()).ls_rs(with_pair) == Analyser(GraphComponents()).ls_rs(x)


@settings(max_examples=80, deadline=None)
@given(digraphs(max_n=7))
def test_negative_swaps_ls_and_rs(g):
    """Cor. 15 (L505): Ls(-H) = -Rs(H)."""
    a = Analyser(GraphComponents())
    ls, rs = a.ls_rs(g)
    assert a.ls_rs(negate(g)) == (-rs, -ls)


class NoPruning(GraphComponents):
    """Every Left move, none skipped by Cor. 13."""

    def left_moves(self, cid):
        from cgframework_influence.graph import bits, rmv

        g = self.graphs[cid]
        succ, pred, left = g.succ_masks(), g.pred_masks(), g.colour_mask("L")
        out = set()
        for x in bits(left):
            taken = rmv(succ, pred, left, g.full, x)
            rest = self.split(g, g.full & ~taken)
            out.add((taken.bit_count(), tuple(sorted(self.neg(c) for c in rest))))
        return sorted(out)


@settings(max_examples=100, deadline=None)
@given(digraphs(max_n=8))
def test_pruning_never_changes_the_value(g):
    """Cor. 13 (L457-L476): dominated moves can be dropped."""
    assert Analyser(GraphComponents()).ls_rs(g) == Analyser(NoPruning()).ls_rs(g)


@settings(max_examples=100, deadline=None)
@given(digraphs(max_n=6), st.randoms(use_true_random=False))
def test_canonical_form_ignores_labels(g, rnd):
    perm = list(range(g.n))
    rnd.shuffle(perm)
    colors = [""] * g.n
    for v in range(g.n):
        colors[perm[v]] = g.colors[v]
    h = InfluenceGraph("".join(colors), tuple(sorted((perm[u], perm[v]) for u, v in g.arcs)))
    assert canonical_form(g) == canonical_form(h)


def test_one_line_round_trip():
    g = RULES.parse("LRRL:0>1,0>2,3>2")
    assert RULES.format(g) == "LRRL:0>1,0>2,3>2"
    assert one_line(g) == RULES.format(g)
    assert as_graph(Sum((g, g))).n == 8


def test_engine_counts_states():
    e = Engine(GraphComponents())
    a = Analyser(e.u)
    a.engine = e
    a.ls_rs(segment(9))
    assert e.nodes > 0


@settings(max_examples=100, deadline=None)
@given(digraphs(max_n=5), digraphs(max_n=5))
def test_corollary_14_sum_bounds(g, h):
    """Cor. 14 (L480-L494): max(Ls(G)+Rs(H), Rs(G)+Ls(H)) <= Ls(G+H) <= Ls(G)+Ls(H) and
    Rs(G)+Rs(H) <= Rs(G+H) <= min(Ls(G)+Rs(H), Rs(G)+Ls(H))."""
    a = Analyser(GraphComponents())
    lg, rg = a.ls_rs(g)
    lh, rh = a.ls_rs(h)
    ls, rs = a.ls_rs(Sum((g, h)))
    assert max(lg + rh, rg + lh) <= ls <= lg + lh
    assert rg + rh <= rs <= min(lg + rh, rg + lh)


def test_a_passed_deadline_stops_the_interning_of_a_graph():
    """A component's moves intern many graphs, each by a canonical labelling (milliseconds on
    a long segment): the deadline is looked at before each, not only at node counts."""
    universe = GraphComponents()
    budget = SearchBudget(timeout=60.0)
    Engine(universe, budget)
    budget.deadline -= 120  # (the deadline has passed)
    with pytest.raises(SearchStopped, match="--timeout"):
        universe.add_graph(segment(5))
    Engine(universe, None)
    assert universe.add_graph(segment(5)) == universe.add_graph(segment(5))
