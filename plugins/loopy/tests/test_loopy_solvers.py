"""Loopy games: the generalized Sprague-Grundy function and the retrograde outcomes, each
checked against an independent textbook computation on random digraphs, and sums from the
value route against the retrograde analysis of the whole product graph."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import Convention, Outcome, Player, SolveContext, SolverError, solve
from cgframework.solvers.retrograde import (
    Infinite,
    PositionGraph,
    generalized_grundy,
    grundy_outcome,
    loopy_grundy_value,
    loopy_nim_sum,
    parse_loopy_grundy,
    solve_retrograde,
)
from cgframework.values import mex
from cgframework.values.loopy import LoopyGame, first_player_results
from cgframework_loopy.digraph import DigraphRuleset, PartizanDigraphRuleset
from cgframework_loopy.foxgeese import FoxAndGeese
from cgframework_loopy.toads import BackslidingToadsAndFrogs

DIGRAPH = DigraphRuleset()
PARTIZAN = PartizanDigraphRuleset()
SETTINGS = settings(max_examples=120, deadline=None)


@st.composite
def digraphs(draw, max_vertices=12, labels=("",)):
    """(number of vertices, arcs (u, v, label))."""
    n = draw(st.integers(1, max_vertices))
    vertex = st.integers(0, n - 1)
    arcs = draw(st.lists(st.tuples(vertex, vertex, st.sampled_from(labels)), max_size=3 * n))
    return n, arcs


def text_of(n, arcs, tokens):
    """Position text; an isolated vertex n-1 makes every vertex 0..n-1 exist."""
    parts = [f"{u}>{v}" + (f":{lab}" if lab else "") for u, v, lab in arcs]
    tokens = [*tokens, n - 1] if not tokens else tokens
    return ",".join(parts) + ";" + ",".join(map(str, tokens))


def successors(n, arcs):
    succ = [set() for _ in range(n)]
    for u, v, _ in arcs:
        succ[u].add(v)
    return succ


def textbook_loopy_nim_values(n, succ):
    """The loopy nim value by its staged definition (Siegel, CGT ch. IV, loopy impartial
    games; Smith 1966), independent of the linear-time labelling: at each stage a vertex
    whose value is still unknown gets m = mex of its options' known values, provided every
    option whose value is unknown or larger than m has an option of value m; what never gets
    a value is inf(K), K its options' finite values."""
    value = [None] * n
    changed = True
    while changed:
        changed = False
        new = list(value)
        for v in range(n):
            if value[v] is not None:
                continue
            m = mex(value[w] for w in succ[v] if value[w] is not None)
            if all(
                any(value[x] == m for x in succ[w])
                for w in succ[v]
                if value[w] is None or value[w] > m
            ):
                new[v] = m
                changed = True
        value = new
    return [
        value[v]
        if value[v] is not None
        else Infinite(frozenset(value[w] for w in succ[v] if value[w] is not None))
        for v in range(n)
    ]


def textbook_outcomes(ruleset, position, misere=False):
    """Win/loss/draw of every reachable (position, mover) by the naive fixed point: a state is
    won if some option is lost for the opponent, lost if it has no option (normal play) or
    all options are won for the opponent; repeat until nothing changes; the rest are draws."""
    states, edges, frontier = set(), {}, [(position, p) for p in Player]
    while frontier:
        state = frontier.pop()
        if state in states:
            continue
        states.add(state)
        pos, player = state
        edges[state] = [(m.result, player.opponent) for m in ruleset.options(pos, player)]
        frontier.extend(edges[state])
    result = {}
    changed = True
    while changed:
        changed = False
        for s in states:
            if s in result:
                continue
            kids = [result.get(t) for t in edges[s]]
            if not kids:
                result[s] = "win" if misere else "loss"
            elif "loss" in kids:
                result[s] = "win"
            elif all(k == "win" for k in kids):
                result[s] = "loss"
            else:
                continue
            changed = True
    return lambda pos, player: result.get((pos, player), "draw")


def first_result(result, player):
    return {"win": player.value, "loss": player.opponent.value, "draw": "D"}[result]


@SETTINGS
@given(digraphs())
def test_generalized_grundy_matches_the_textbook_definition(graph):
    n, arcs = graph
    position = DIGRAPH.parse(text_of(n, arcs, list(range(n))))
    singles = [DIGRAPH.parse(text_of(n, arcs, [v])) for v in range(n)]
    table = PositionGraph(DIGRAPH, singles, impartial=True)
    values = generalized_grundy(table)
    expected = textbook_loopy_nim_values(n, successors(n, arcs))
    for v, single in enumerate(singles):
        assert values[table.state(single, Player.LEFT)] == expected[v], (v, arcs)
    assert position.tokens == tuple(range(n))


@SETTINGS
@given(digraphs(max_vertices=8))
def test_single_token_outcomes_agree_with_retrograde(graph):
    n, arcs = graph
    for v in range(n):
        text = text_of(n, arcs, [v])
        by_value = solve(DIGRAPH, text)
        by_graph = solve(DIGRAPH, text, method="retrograde")
        assert by_value.outcome == by_graph.outcome
        assert by_value.outcome == grundy_outcome(parse_loopy_grundy(str(by_value.grundy)))
        assert (by_value.extra["left_first"], by_value.extra["right_first"]) == (
            by_graph.extra["left_first"],
            by_graph.extra["right_first"],
        )


@SETTINGS
@given(digraphs(max_vertices=6), st.data())
def test_sums_of_tokens_by_generalized_nim_sum_equal_the_product_graph(graph, data):
    """Smith's sum theorem: the value route (components' values combined by the generalized
    nim-sum) gives the value and the outcome of the product graph, for 2-4 tokens."""
    n, arcs = graph
    tokens = data.draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=4))
    position = DIGRAPH.parse(text_of(n, arcs, tokens))
    whole = PositionGraph(DIGRAPH, [position], impartial=True)
    product_value = generalized_grundy(whole)[whole.state(position, Player.LEFT)]
    assert loopy_grundy_value(DIGRAPH, position) == product_value
    by_value = solve(DIGRAPH, position)
    by_graph = solve(DIGRAPH, position, method="retrograde")
    assert by_value.method == "loopy-grundy"
    assert by_value.outcome == by_graph.outcome
    assert by_value.extra["left_first"] == by_graph.extra["left_first"]
    textbook = textbook_outcomes(DIGRAPH, position)
    assert by_graph.extra["left_first"] == first_result(
        textbook(position, Player.LEFT), Player.LEFT
    )


@settings(max_examples=60, deadline=None)
@given(digraphs(max_vertices=7), st.integers(0, 7))
def test_token_plus_nim_heap_is_p_exactly_at_its_value(graph, heap):
    """G + *a is a P-position iff G's value is a; for G = inf(K) it is N iff a is in K, else
    a draw (Fraenkel-Yesha 1986). The heap is a complete acyclic digraph on fresh vertices."""
    n, arcs = graph
    base = 100
    heap_arcs = [(base + i, base + j, "") for i in range(heap + 1) for j in range(i)]
    for v in range(n):
        text = text_of(n, arcs + heap_arcs, [v, base + heap])
        g = loopy_grundy_value(DIGRAPH, DIGRAPH.parse(text_of(n, arcs, [v])))
        expected = grundy_outcome(loopy_nim_sum(g, heap))
        assert solve(DIGRAPH, text, method="retrograde").outcome == expected
        if isinstance(g, int):
            assert (expected is Outcome.P) == (g == heap)
        else:
            assert expected is (Outcome.N if heap in g.k else Outcome.D)


@SETTINGS
@given(digraphs(max_vertices=6, labels=("L", "R")), st.data())
def test_partizan_sums_retrograde_equals_the_textbook_fixed_point(graph, data):
    n, arcs = graph
    tokens = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=4))
    position = PARTIZAN.parse(text_of(n, arcs, tokens))
    solution = solve(PARTIZAN, position)
    assert solution.method == "retrograde"
    textbook = textbook_outcomes(PARTIZAN, position)
    left = first_result(textbook(position, Player.LEFT), Player.LEFT)
    right = first_result(textbook(position, Player.RIGHT), Player.RIGHT)
    assert (solution.extra["left_first"], solution.extra["right_first"]) == (left, right)
    expected = Outcome.D if "D" in (left, right) else Outcome.from_wins(left == "L", right == "R")
    assert solution.outcome == expected


class _MisereDigraph(DigraphRuleset):
    name = "misere-digraph"
    convention = Convention.MISERE


@SETTINGS
@given(digraphs(max_vertices=7), st.data())
def test_misere_retrograde_equals_the_textbook_fixed_point(graph, data):
    n, arcs = graph
    tokens = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3))
    ruleset = _MisereDigraph()
    position = ruleset.parse(text_of(n, arcs, tokens))
    solution = solve(ruleset, position)
    assert solution.method == "retrograde"
    textbook = textbook_outcomes(ruleset, position, misere=True)
    assert solution.extra["left_first"] == first_result(
        textbook(position, Player.LEFT), Player.LEFT
    )


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet="TF.", min_size=1, max_size=6))
def test_backsliding_toads_and_frogs_retrograde_equals_the_textbook_fixed_point(board):
    ruleset = BackslidingToadsAndFrogs()
    solution = solve(ruleset, board)
    textbook = textbook_outcomes(ruleset, board)
    assert solution.extra["left_first"] == first_result(textbook(board, Player.LEFT), Player.LEFT)
    assert solution.extra["right_first"] == first_result(
        textbook(board, Player.RIGHT), Player.RIGHT
    )


def test_backsliding_adds_the_step_back_and_makes_positions_repeat():
    """Winning Ways ch. 11: a creature may also step one square back into an empty square."""
    ruleset = BackslidingToadsAndFrogs()
    assert sorted(m.result for m in ruleset.options(".T.F", Player.LEFT)) == ["..TF", "T..F"]
    assert sorted(m.result for m in ruleset.options("TF.", Player.RIGHT)) == ["T.F"]
    assert sorted(m.result for m in ruleset.options("T.F", Player.RIGHT)) == ["TF."]
    # T. : Left moves to .T, then back: the toad shuffles, Right has nothing: Left wins.
    assert solve(ruleset, "T.").outcome is Outcome.L
    # T..F: each side can shuffle back and forth; the first player wins by advancing.
    assert solve(ruleset, "T.F").outcome == solve(ruleset, "T.F", method="retrograde").outcome


def test_retrograde_agrees_with_the_recursive_solver_on_acyclic_games():
    """On a game without cycles the retrograde analysis is the ordinary outcome."""
    from cgframework.solvers.outcome import solve_outcome
    from cgframework_classic.domineering import Domineering

    ruleset = Domineering()
    for board in ("..|..", "...|...", "..|..|..", "....", ".#.|...", "...|.#.|..."):
        position = ruleset.parse(board)
        expected = solve_outcome(ruleset, position, SolveContext()).outcome
        assert solve_retrograde(ruleset, position, SolveContext()).outcome == expected, board


def test_generalized_nim_sum_rule():
    """Smith (1966): a + b is the nim-sum; a + inf(K) = inf(K xor a); inf + inf = inf({})."""
    assert loopy_nim_sum(5, 3) == 6
    assert loopy_nim_sum(Infinite(frozenset({0, 2})), 3) == Infinite(frozenset({3, 1}))
    assert loopy_nim_sum(1, Infinite(frozenset({0}))) == Infinite(frozenset({1}))
    assert loopy_nim_sum(Infinite(frozenset({0})), Infinite(frozenset({1}))) == Infinite()
    assert str(Infinite(frozenset({2, 0}))) == "inf{0,2}" and str(Infinite()) == "inf{}"
    assert parse_loopy_grundy("inf{0,2}") == Infinite(frozenset({0, 2}))
    assert parse_loopy_grundy("inf{}") == Infinite()


def test_two_cycle_is_a_draw_and_an_exit_makes_it_a_win():
    cycle = solve(DIGRAPH, "0>1,1>0;0")
    assert (cycle.grundy, cycle.outcome, cycle.best_moves) == ("inf{}", Outcome.D, ("0>1",))
    assert cycle.extra["best_moves_result"] == "draw"
    # 0 <-> 1 and 1 -> 2 (dead end): 2 has value 0, 1 has 1 (mex), 0 has 0 (its only
    # option 1 reverses through 2).
    assert [solve(DIGRAPH, f"0>1,1>0,1>2;{v}").grundy for v in (0, 1, 2)] == [0, 1, 0]
    # A self-loop with an exit to a dead end: inf{0}, a first-player win.
    loop = solve(DIGRAPH, "0>0,0>1;0")
    assert (loop.grundy, loop.outcome, loop.best_moves) == ("inf{0}", Outcome.N, ("0>1",))


def test_a_ruleset_not_declared_loopy_refuses_a_repeated_position(monkeypatch):
    monkeypatch.setattr(DigraphRuleset, "loopy", False)
    for method in ("generic", "grundy", "outcome", "canonical"):
        with pytest.raises(SolverError, match="position repeats.*declare the ruleset loopy"):
            solve(DIGRAPH, "0>1,1>0;0", method=method)
    assert solve(DIGRAPH, "0>1,1>2;0", method="grundy").grundy == 0


def token_game(n, arcs, vertex):
    """One token on a partizan digraph as a loopy game graph (vertices are its nodes)."""
    left = [[v for u, v, lab in arcs if u == w and lab == "L"] for w in range(n)]
    right = [[v for u, v, lab in arcs if u == w and lab == "R"] for w in range(n)]
    return LoopyGame.build(left, right, vertex)


@settings(max_examples=60, deadline=None)
@given(digraphs(max_vertices=4, labels=("L", "R")), st.data())
def test_partizan_sums_from_component_games_and_sides_equal_retrograde(graph, data):
    """The value route for partizan tokens: each token a loopy game, the sum by
    ``values.loopy.add``, who wins read off the sides (Buchi survival games); against the
    retrograde analysis of the ruleset's whole product graph (2-3 tokens)."""
    n, arcs = graph
    tokens = data.draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=3))
    total = token_game(n, arcs, tokens[0])
    for t in tokens[1:]:
        total = total + token_game(n, arcs, t)
    solution = solve(PARTIZAN, text_of(n, arcs, tokens))
    expected = (solution.extra["left_first"], solution.extra["right_first"])
    assert first_player_results(total) == expected


@settings(max_examples=60, deadline=None)
@given(digraphs(max_vertices=5, labels=("L", "R")), st.data())
def test_who_wins_read_off_the_stopper_sides_equals_retrograde(graph, data):
    """One partizan token: its onside and offside built as stoppers, who wins read off them
    with the plain stopper order (Left, second, survives iff G^+ >= 0 and wins iff G^- >= 0;
    Siegel VI), against the retrograde analysis of the ruleset's position graph."""
    from cgframework.values.loopy import greater_equal
    from cgframework.values.loopy.sides import NotStopperSided, offside, onside

    n, arcs = graph
    token = data.draw(st.integers(0, n - 1))
    game = token_game(n, arcs, token)
    try:
        plus, minus = onside(game), offside(game)
    except NotStopperSided:
        return
    zero = LoopyGame(((),), ((),), 0)
    ge = greater_equal
    left_first = "L" if not ge(zero, minus) else "R" if ge(zero, plus) else "D"
    right_first = "R" if not ge(plus, zero) else "L" if ge(minus, zero) else "D"
    solution = solve(PARTIZAN, text_of(n, arcs, [token]))
    expected = (solution.extra["left_first"], solution.extra["right_first"])
    assert (left_first, right_first) == expected


@settings(max_examples=40, deadline=None)
@given(digraphs(max_vertices=4, labels=("L", "R")), st.data())
def test_loopy_sides_solver_equals_retrograde_on_sums(graph, data):
    """``--method loopy-sides`` (each token's sides, summed side by side: no product graph)
    against the retrograde analysis of the whole product graph, 2-4 tokens: who wins with
    each player first, the outcome, and the best moves (wins, else draws)."""
    n, arcs = graph
    tokens = data.draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=4))
    first = data.draw(st.sampled_from([Player.LEFT, Player.RIGHT]))
    text = text_of(n, arcs, tokens)
    try:
        by_sides = solve(PARTIZAN, text, method="loopy-sides", first=first)
    except SolverError as exc:  # a token whose sides are not found as stoppers
        assert "stopper" in str(exc)
        return
    retro = solve(PARTIZAN, text, method="retrograde", first=first)
    for key in ("left_first", "right_first", "best_moves_result"):
        assert by_sides.extra[key] == retro.extra[key], key
    assert by_sides.outcome == retro.outcome
    assert set(by_sides.best_moves) == set(retro.best_moves)


def test_loopy_sides_solver_examples():
    """tis as a token (arcs 0>1:L, 1>0:R): value 1 & 0, a draw with Left first and a Right
    loss with Right first (Winning Ways ch. 11); two tis tokens: 2 & 0."""
    one = solve(PARTIZAN, "0>1:L,1>0:R;0", method="loopy-sides")
    assert (str(one.value), one.extra["left_first"], one.extra["right_first"]) == (
        "1 & 0",
        "D",
        "L",
    )
    two = solve(PARTIZAN, "0>1:L,1>0:R;0,0", method="loopy-sides")
    assert str(two.value) == "2 & 0" and two.outcome == Outcome.D
    with pytest.raises(SolverError, match="does not apply"):
        solve(DIGRAPH, "0>1;0", method="loopy-sides")


@pytest.mark.parametrize("board", ["T..F", "TF..", "T.F.", "TT..F", "T..FF", ".T.F."])
def test_loopy_sides_solver_on_backsliding_toads(board):
    """Backsliding Toads and Frogs (Winning Ways ch. 11): the sides route against the
    retrograde analysis of the position graph: results with each player first, outcome,
    best moves."""
    ruleset = BackslidingToadsAndFrogs()
    by_sides = solve(ruleset, board, method="loopy-sides")
    retro = solve(ruleset, board, method="retrograde")
    assert by_sides.outcome == retro.outcome
    for key in ("left_first", "right_first", "best_moves_result"):
        assert by_sides.extra[key] == retro.extra[key], key
    assert sorted(by_sides.best_moves) == sorted(retro.best_moves)


@settings(max_examples=40, deadline=None)
@given(digraphs(max_vertices=4, labels=("L", "R")), st.data())
def test_auto_on_a_large_sum_agrees_with_retrograde(graph, data):
    """``auto`` on a partizan loopy sum counted as large (threshold lowered to 1, so every
    sum goes to the sides, or back to retrograde when a token's sides are not stoppers)
    against the retrograde analysis of the product graph: the same JSON fields."""
    from unittest import mock

    n, arcs = graph
    tokens = data.draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=4))
    first = data.draw(st.sampled_from([Player.LEFT, Player.RIGHT]))
    text = text_of(n, arcs, tokens)
    with mock.patch("cgframework.solvers.sides.SIDES_FROM_STATES", 1):
        auto = solve(PARTIZAN, text, first=first)
    retro = solve(PARTIZAN, text, method="retrograde", first=first)
    assert auto.method.split("+")[0] in ("loopy-sides", "retrograde")
    for key in ("left_first", "right_first", "best_moves_result"):
        assert auto.extra[key] == retro.extra[key], key
    assert auto.outcome == retro.outcome
    assert set(auto.best_moves) == set(retro.best_moves)


def three_tokens_on_a_cycle(n):
    """n vertices on a cycle with alternate Left and Right arcs and a few chords; 3 tokens."""
    arcs = [f"{u}>{(u + 1) % n}:{'LR'[u % 2]}" for u in range(n)]
    arcs += [f"{u}>{(3 * u + 1) % n}:{'RL'[u % 2]}" for u in range(0, n, 5)]
    return ",".join(arcs) + ";0,7,19"


def test_auto_takes_the_sides_for_a_large_sum_and_falls_back():
    """3 tokens on 40 vertices: 64,000 >= SIDES_FROM_STATES by the product of the tokens'
    sizes, so ``auto`` answers from the sides, as retrograde does on the product graph; with
    a token's sides not found, ``auto`` falls back to retrograde."""
    from unittest import mock

    from cgframework.solvers.sides import SIDES_FROM_STATES
    from cgframework.values.loopy.sides import NotStopperSided

    text = three_tokens_on_a_cycle(40)
    assert 40**3 >= SIDES_FROM_STATES
    auto = solve(PARTIZAN, text)
    retro = solve(PARTIZAN, text, method="retrograde")
    assert auto.method.startswith("loopy-sides") and retro.method.startswith("retrograde")
    for key in ("left_first", "right_first"):
        assert auto.extra[key] == retro.extra[key]
    assert auto.outcome == retro.outcome
    assert solve(PARTIZAN, three_tokens_on_a_cycle(20)).method.startswith("retrograde")

    def refuse(game, work=None):
        raise NotStopperSided("no stopper onside found")

    with mock.patch("cgframework.solvers.sides.onside", refuse):
        fallback = solve(PARTIZAN, text)
    assert fallback.method.startswith("retrograde") and fallback.outcome == retro.outcome


@settings(max_examples=60, deadline=None)
@given(digraphs(max_vertices=5, labels=("L", "R")), st.data())
def test_a_losing_position_lists_no_best_moves(graph, data):
    """When every move loses (the mover loses, as in a P-position), no move is "best": each
    loopy solver lists none, as the loop-free solvers do; a win or a draw lists its moves."""
    n, arcs = graph
    tokens = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=2))
    first = data.draw(st.sampled_from([Player.LEFT, Player.RIGHT]))
    impartial = text_of(n, [(u, v, "") for u, v, _ in arcs], tokens)
    cases = [(DIGRAPH, impartial, "loopy-grundy"), (DIGRAPH, impartial, "retrograde")]
    cases += [(PARTIZAN, text_of(n, arcs, tokens), m) for m in ("retrograde", "loopy-sides")]
    for ruleset, text, method in cases:
        try:
            solution = solve(ruleset, text, method=method, first=first)
        except SolverError:  # loopy-sides: a token whose sides are not stoppers
            continue
        kind = solution.extra["best_moves_result"]
        assert (solution.best_moves == ()) == (kind == "loss"), (method, text, kind)


def test_backsliding_toads_losing_position_lists_no_moves():
    """``T.F``: Left to move loses (either toad move lets the frog through), so no best move."""
    solution = solve(BackslidingToadsAndFrogs(), "T.F")
    assert solution.outcome == Outcome.P and solution.extra["best_moves_result"] == "loss"
    assert solution.best_moves == ()


# ---- Fox and Geese ----------------------------------------------------------------------------
@st.composite
def fox_boards(draw):
    """A small board: a fox and one to three geese on distinct dark squares."""
    height, width = draw(st.integers(3, 4)), draw(st.integers(3, 4))
    dark = [(r, c) for r in range(height) for c in range(width) if (r + c) % 2]
    chosen = draw(st.lists(st.sampled_from(dark), min_size=2, max_size=4, unique=True))
    cells = [["."] * width for _ in range(height)]
    for i, (r, c) in enumerate(chosen):
        cells[r][c] = "F" if i == 0 else "G"
    return "|".join("".join(row) for row in cells)


@settings(max_examples=15, deadline=None)
@given(fox_boards())
def test_fox_and_geese_retrograde_equals_the_textbook_fixed_point(board):
    ruleset = FoxAndGeese()
    solution = solve(ruleset, board)
    textbook = textbook_outcomes(ruleset, ruleset.parse(board))
    for player, field in ((Player.LEFT, "left_first"), (Player.RIGHT, "right_first")):
        expected = first_result(textbook(ruleset.parse(board), player), player)
        assert solution.extra[field] == expected, (board, field)


def test_fox_and_geese_moves():
    """Geese (Left) step diagonally down the board, the fox (Right) diagonally any way, only
    onto empty squares; nothing jumps or is captured."""
    ruleset = FoxAndGeese()
    board = ruleset.parse(".G.G|..F.|....|....")

    def moves(player):
        return sorted(ruleset.format(m.result) for m in ruleset.options(board, player))

    assert moves(Player.LEFT) == ["...G|G.F.|....|...."]  # the other goose is blocked
    assert moves(Player.RIGHT) == [".G.G|....|...F|....", ".G.G|....|.F..|...."]
    assert ruleset.format(ruleset.parse("start:8")).split("|")[0] == ".G.G.G.G"
    assert ruleset.format(ruleset.parse("start:8")).split("|")[-1] == "....F..."
    for bad in ("G...|....", ".F.F|....", "....|....", "start:5"):
        with pytest.raises(ValueError):
            ruleset.parse(bad)


def test_fox_and_geese_known_outcomes():
    """A cornered fox with no move loses when it must move; a fox behind its only goose can
    never be caught, and the goose runs out of moves (Right wins either way); the 4 x 4 start
    is a win for the geese either way."""
    ruleset = FoxAndGeese()
    cornered = solve(ruleset, "....|....|.G..|F...")
    assert cornered.extra["right_first"] == "L"
    behind = solve(ruleset, ".F..|..G.|....|....")
    assert (behind.extra["left_first"], behind.extra["right_first"]) == ("R", "R")
    start = solve(ruleset, "start:4")
    assert (start.extra["left_first"], start.extra["right_first"]) == ("L", "L")


@pytest.mark.parametrize("build", ["graph", "sides", "loopy-grundy"])
def test_a_node_budget_stops_the_position_graph_while_it_is_built(build):
    """Every state built is charged to the solve's table, so ``--max-nodes`` (and the
    deadline) stop the reachable graph as it grows, not after it is whole: a chain of 3,001
    positions stops at its 501st state."""
    from cgframework.runtime.budget import LimitExceeded, SearchBudget
    from cgframework.runtime.cache import TranspositionTable
    from cgframework.solvers.retrograde import _LoopyGrundyTable
    from cgframework.solvers.sides import SidesTable

    table = TranspositionTable(budget=SearchBudget(max_nodes=500))
    chain = ",".join(f"{i}>{i + 1}" for i in range(3000)) + ";0"
    with pytest.raises(LimitExceeded):
        if build == "graph":
            PositionGraph(DIGRAPH, [DIGRAPH.parse(chain)], impartial=True, table=table)
        elif build == "sides":
            position = PARTIZAN.parse(chain.replace(",", ":L,").replace(";", ":L;"))
            SidesTable(PARTIZAN, table).component_game(position)
        else:
            _LoopyGrundyTable(DIGRAPH, [DIGRAPH.parse(chain)], table)
    assert table.nodes == 501  # (the 501st state is the one refused)
