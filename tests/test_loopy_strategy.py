"""The perfect player of loopy games (:mod:`cgframework.solvers.loopy_strategy`): on random
digraph positions its statuses are the retrograde solver's, and from every won state the
game its moves allow (the winner's one move, each of the loser's) has no cycle and ends
with the loser unable to move, checked on the positions themselves."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework.game import Player, options, parse_position
from cgframework.plugins import resolve_ruleset
from cgframework.solvers.loopy_strategy import LoopyStrategy
from cgframework.solvers.retrograde import DRAW, LOSS, WIN, PositionGraph, retrograde_status

SETTINGS = settings(max_examples=150, deadline=None)


@st.composite
def digraph_texts(draw, labels):
    """``ARCS;TOKENS`` of a digraph on at most 6 vertices with one or two tokens."""
    n = draw(st.integers(1, 6))
    vertex = st.integers(0, n - 1)
    arcs = draw(st.lists(st.tuples(vertex, vertex, st.sampled_from(labels)), max_size=3 * n))
    tokens = draw(st.lists(vertex, min_size=1, max_size=2))
    arcs_text = ",".join(f"{u}>{v}" + (f":{lab}" if lab else "") for u, v, lab in arcs)
    return f"{arcs_text};" + ",".join(map(str, tokens))


def reachable_states(ruleset, position):
    """Every (position, player to move) reachable from ``position`` with either first."""
    seen, stack = set(), [(position, Player.LEFT), (position, Player.RIGHT)]
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        where, mover = state
        stack.extend((m.result, mover.opponent) for m in options(ruleset, where, mover))
    return seen


def assert_wins_without_a_cycle(ruleset, strategy, start):
    """From ``start`` (won for its player to move), the states reached when the winner
    plays ``strategy`` and the loser anything: no cycle (depth-first colours) and every
    dead end is the loser's (normal play: the loser cannot move)."""
    winner = start[1]
    colour = {}  # 1: on the current path, 2: done
    stack = [(start, None)]
    while stack:
        state, children = stack.pop()
        if children is None:
            if colour.get(state) == 2:
                continue
            assert colour.get(state) != 1, f"a cycle through {state}"
            colour[state] = 1
            where, mover = state
            moves = options(ruleset, where, mover)
            if not moves:
                assert mover is not winner, f"the winner is stuck at {state}"
            elif mover is winner:
                moves = [strategy.choose(where, mover, moves)]
            kids = [(m.result, mover.opponent) for m in moves]
            stack.append((state, kids))
            stack.extend((kid, None) for kid in kids if colour.get(kid) != 2)
        else:
            for kid in children:
                assert colour.get(kid) == 2, f"a cycle through {kid}"
            colour[state] = 2


def check(ruleset_name, text):
    ruleset = resolve_ruleset(ruleset_name)
    start = parse_position(ruleset, text)
    strategy = LoopyStrategy(ruleset, start)
    graph = PositionGraph(ruleset, [start], ruleset.impartial)
    reference = retrograde_status(graph, misere=False)
    for position, player in reachable_states(ruleset, start):
        status = strategy.status_of(position, player)
        assert status == reference[graph.state(position, player)]
        moves = options(ruleset, position, player)
        if status == WIN:
            assert_wins_without_a_cycle(ruleset, strategy, (position, player))
        elif status == DRAW:  # a drawn position is kept drawn
            chosen = strategy.choose(position, player, moves)
            assert strategy.status_of(chosen.result, player.opponent) == DRAW
        elif moves:
            assert status == LOSS and strategy.choose(position, player, moves) in moves


@SETTINGS
@given(digraph_texts(labels=("L", "R")))
def test_partizan_digraphs_are_won_without_a_cycle(text):
    check("partizan-digraph", text)


@SETTINGS
@given(digraph_texts(labels=("",)))
def test_impartial_digraphs_are_won_without_a_cycle(text):
    check("digraph", text)


def test_the_first_winning_move_named_makes_progress_as_the_strategy_does():
    # Left wins at 0 by 0>1 (Right must return to 0) or 0>2 (Right is stuck): 0>1 repeated
    # for ever never wins, so the solver names 0>2 first and the strategy plays it
    from cgframework.solvers.dispatch import solve

    ruleset = resolve_ruleset("partizan-digraph")
    start = parse_position(ruleset, "0>1:L,0>2:L,1>0:R;0")
    assert list(solve(ruleset, start).best_moves) == ["0>2", "0>1"]
    strategy = LoopyStrategy(ruleset, start)
    moves = options(ruleset, start, Player.LEFT)
    assert strategy.choose(start, Player.LEFT, moves).text == "0>2"


def test_backsliding_toads_and_fox_and_geese_positions():
    for ruleset_name, text in [
        ("backsliding-toads", "T..F"),
        ("backsliding-toads", "TT.F.F"),
        ("fox-and-geese", "start:4"),
    ]:
        check(ruleset_name, text)
