"""``Game`` on loopy positions: comparisons, ``hash``, ``-G``, ``G + H``, ``G - H`` by the loopy
algebra, checked against an independent retrograde solve of ``G - H`` written here, on the
rulesets' own positions (not on the loopy game graphs the solvers build).

The order (Siegel, Combinatorial Game Theory (AMS 2013), ch. VI; Winning Ways, 2nd ed.,
vol. 2, ch. 11): for stoppers, G >= H iff Left, moving second in G - H, survives, an endless
play counting as her survival (no alternating play in a stopper is endless, but a play of
G - H may be endless in both parts). A loopy game in general is known by its sides, G >= H
iff G^+ >= H^+ and G^- >= H^-; G^+ >= H^+ iff Left, moving second in G - H, survives when an
endless play counts for her exactly if it moves endlessly in G (G's onside favours her,
-H's offside her opponent), and G^- >= H^- likewise with endless moves in -H. So "does not
lose" is plain survival for stoppers and these two survivals otherwise; each is solved here
as a Büchi game by the naive nested fixed point (iterated to stability over the whole state
set), on states (position of G, position of H, player to move) built from the rulesets'
``options``. Impartial loopy games have Smith's generalized Sprague-Grundy values instead:
equal iff G + *k and H + *k have the same outcome for every k (Smith 1966), no order for
``inf{K}``.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Hashable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import Game, GameValue, Outcome, Player, options, solve
from cgframework.testing import run_cli
from cgframework.values import parse_value
from cgframework.values.loopy import compare, parse_loopy

LEFT, RIGHT = Player.LEFT, Player.RIGHT
SETTINGS = settings(max_examples=60, deadline=None)


# ---- the independent solve ------------------------------------------------------------------


def difference_graph(g: Game, h: Game) -> tuple[dict, Hashable]:
    """The states of G - H reachable with Right to move first: ``moves[state]`` lists
    ``(next state, part moved: 0 in G, 1 in -H)``. In -H each player makes the other's moves
    of H."""
    start = (g.position, h.position, RIGHT)
    moves: dict = {}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if state in moves:
            continue
        x, y, mover = state
        after = [((m.result, y, mover.opponent), 0) for m in options(g.ruleset, x, mover)]
        after += [((x, m.result, mover.opponent), 1) for m in options(h.ruleset, y, mover.opponent)]
        moves[state] = after
        queue.extend(t for t, _ in after if t not in moves)
    return moves, start


def left_survives_second(g: Game, h: Game, endless_in: int | None) -> bool:
    """Does Left, moving second in G - H, avoid losing? A player without a move loses. An
    endless play is Left's when ``endless_in`` is None, else only when it moves endlessly in
    that part (0: G, 1: -H): a Büchi game on the moves into that part, solved by the naive
    fixed point W = nu Z. mu Y. {s : the mover (Left: some move, Right: every move) reaches Y,
    or makes a move in the part into Z}."""
    moves, start = difference_graph(g, h)

    def good(move: tuple, z: set, y: set) -> bool:
        target, part = move
        return target in y or ((endless_in is None or part == endless_in) and target in z)

    z = set(moves)
    while True:
        y: set = set()
        while True:
            grown = {
                s
                for s, after in moves.items()
                if (any if s[2] is LEFT else all)(good(m, z, y) for m in after)
            }
            if grown == y:
                break
            y = grown
        if y == z:
            return start in z
        z = y


def is_stopper(game: Game) -> bool:
    """No endless alternating play from any position: the states (position, player to move)
    reachable, each move to the other player's state, have no cycle (Kahn)."""
    succ: dict = {}
    queue = deque([(game.position, LEFT), (game.position, RIGHT)])
    while queue:
        state = queue.popleft()
        if state in succ:
            continue
        position, mover = state
        succ[state] = [(m.result, mover.opponent) for m in options(game.ruleset, position, mover)]
        queue.extend(succ[state])
    indegree = dict.fromkeys(succ, 0)
    for after in succ.values():
        for t in after:
            indegree[t] += 1
    ready = [s for s, d in indegree.items() if d == 0]
    seen = 0
    while ready:
        s = ready.pop()
        seen += 1
        for t in succ[s]:
            indegree[t] -= 1
            if indegree[t] == 0:
                ready.append(t)
    return seen == len(succ)


def greater_equal(g: Game, h: Game) -> bool:
    """G >= H by the independent solve (module docstring)."""
    if is_stopper(g) and is_stopper(h):
        return left_survives_second(g, h, None)
    return left_survives_second(g, h, 0) and left_survives_second(g, h, 1)


# ---- positions ------------------------------------------------------------------------------

PARTIZAN = "partizan-digraph"


@st.composite
def partizan_digraphs(draw, max_vertices=4, stoppers=False):
    """A partizan digraph position: 1-2 tokens on random arcs; ``stoppers``: arcs back to a
    vertex no later than their tail are Left's only, which makes most positions stoppers."""
    n = draw(st.integers(1, max_vertices))
    vertex = st.integers(0, n - 1)
    drawn = draw(st.lists(st.tuples(vertex, vertex, st.sampled_from("LR")), max_size=2 * n))
    arcs = [f"{u}>{v}:{'L' if stoppers and v <= u else label}" for u, v, label in drawn]
    tokens = draw(st.lists(vertex, min_size=1, max_size=2 if n <= 3 else 1))
    return Game(PARTIZAN, ",".join(arcs) + ";" + ",".join(map(str, tokens)))


TOADS = st.sampled_from(["T.F", "T..F", "TF..", "..TF", "T.F.", ".T.F", "TT.F", "T.FF", "T...F"])
FOXES = st.sampled_from(
    [".G|F.", ".G.G|F...", ".G.|...|.F.", ".G..|..F.", ".G.G|....|.F..", ".G|..|.F"]
)


def loopy_games():
    return st.one_of(
        partizan_digraphs(),
        partizan_digraphs(stoppers=True),
        TOADS.map(lambda t: Game("backsliding-toads-and-frogs", t)),
        FOXES.map(lambda t: Game("fox-and-geese", t)),
        st.sampled_from(["..", ".|.", "..|..", ".#|..", "...", "#.|.."]).map(
            lambda t: Game("domineering", t)
        ),
    )


def agrees(g: Game, h: Game) -> None:
    """Every comparison of G and H agrees with the independent solve; equal games hash
    alike; and the negatives compare the other way round."""
    try:
        ge, le = g >= h, g <= h
    except TypeError as exc:  # a value out of the algebra's reach says so
        assert "unknown" in str(exc) or "cannot decide" in str(exc), exc
        return
    forward, backward = greater_equal(g, h), greater_equal(h, g)
    assert (ge, le) == (forward, backward), (g, h, g.value, h.value)
    assert (g == h) == (forward and backward)
    assert (g > h) == (forward and not backward) and (g < h) == (backward and not forward)
    if forward and backward:
        assert hash(g) == hash(h)
    assert (-g >= -h) == backward and (-g <= -h) == forward


@SETTINGS
@given(loopy_games(), loopy_games())
def test_every_comparison_agrees_with_a_retrograde_solve_of_the_difference(g, h):
    agrees(g, h)


@SETTINGS
@given(partizan_digraphs(stoppers=True), partizan_digraphs(stoppers=True))
def test_stoppers_compare_by_plain_survival(g, h):
    agrees(g, h)


@SETTINGS
@given(partizan_digraphs(), partizan_digraphs())
def test_the_order_is_a_partial_order_and_sums_keep_it(g, h):
    """G <= G; G <= H and H <= G make G == H; and G >= H gives G + X >= H + X (Siegel VI:
    the order is compatible with sums), X a third token."""
    try:
        assert g <= g and g == g
        if g <= h and h <= g:
            assert g == h and hash(g) == hash(h)
        x = Game(PARTIZAN, "0>1:L,1>0:R;0")
        if g >= h:
            assert g + x >= h + x
    except TypeError as exc:
        assert "unknown" in str(exc) or "cannot decide" in str(exc), exc


# ---- impartial loopy games: generalized Sprague-Grundy values ------------------------------

DIGRAPH = "digraph"


@st.composite
def digraph_games(draw, max_vertices=4):
    n = draw(st.integers(1, max_vertices))
    vertex = st.integers(0, n - 1)
    arcs = draw(st.lists(st.tuples(vertex, vertex), max_size=2 * n))
    token = draw(vertex)
    return Game(DIGRAPH, ",".join(f"{u}>{v}" for u, v in arcs) + f";{token}")


def outcome_with_heap(g: Game, k: int) -> str:
    """Who wins G + *k with the first player moving, by retrograde on the product of G's
    positions and a nim heap (the test's own): ``win``, ``loss`` or ``draw``."""
    moves: dict = {}
    queue = deque([(g.position, k)])
    while queue:
        state = queue.popleft()
        if state in moves:
            continue
        x, heap = state
        moves[state] = [(m.result, heap) for m in options(g.ruleset, x, LEFT)]
        moves[state] += [(x, smaller) for smaller in range(heap)]
        queue.extend(moves[state])
    result: dict = {}
    changed = True
    while changed:
        changed = False
        for s, after in moves.items():
            if s in result:
                continue
            kids = [result.get(t) for t in after]
            if "loss" in kids:
                result[s] = "win"
            elif all(kid == "win" for kid in kids):
                result[s] = "loss"
            else:
                continue
            changed = True
    return result.get((g.position, k), "draw")


@SETTINGS
@given(digraph_games(), digraph_games())
def test_impartial_loopy_games_are_equal_by_smith_and_ordered_only_when_finite(g, h):
    """G == H iff G + *k and H + *k have the same outcome for every k up to one more than the
    largest number of moves from a position (the options' values are below it: Smith 1966);
    finite values order as nimbers (equal or confused), and ``inf{K}`` has no order."""
    equivalent = all(outcome_with_heap(g, k) == outcome_with_heap(h, k) for k in range(6))
    assert (g == h) == equivalent
    if g == h:
        assert hash(g) == hash(h)
    finite = g.solve().grundy is not None and isinstance(g.solve().grundy, int)
    finite = finite and isinstance(h.solve().grundy, int)
    if finite:
        assert (g >= h) == (g <= h) == equivalent
        assert (g - h == 0) == equivalent  # (an impartial game is its own negative)
    else:
        with pytest.raises(TypeError, match="no order"):
            _ = g <= h


# ---- examples -------------------------------------------------------------------------------

TIS = "0>1:L,1>0:R;0"  # a token Left moves 0 -> 1, Right 1 -> 0: a = {{|a}|}, Winning Ways' tis


def test_the_reported_pair_compares_by_value_not_by_outcome_letter():
    one, minus_one = Game(PARTIZAN, "0>1:L;0"), Game(PARTIZAN, "0>1:R;0")
    assert str(one.value) == "1" and str(minus_one.value) == "-1"
    assert not one <= minus_one and one > minus_one and one == 1 and minus_one == -1
    assert -one == minus_one and one - one == 0 and hash(one) == hash(Game("domineering", ".|."))


def test_tis_and_tisn():
    """Winning Ways ch. 11: tis = 1 & 0, tisn = 0 & -1 its negative; 0 < tis < 1."""
    tis = Game(PARTIZAN, TIS)
    assert str(tis.value) == "1 & 0" and tis.outcome is Outcome.D
    assert compare(tis.value, parse_loopy("a:{{|a}|}")) == "="
    assert 0 < tis < 1 and not tis == 0
    tisn = -tis
    assert isinstance(tisn, Game) and str(tisn) == "0>1:R,1>0:L;0"
    assert str(tisn.value) == "0 & -1" and tisn < 0
    assert str((tis - tis).value) == "1 & -1"  # no group: tis - tis is not 0
    assert tis + tis == parse_loopy("2 & 0")


def test_negatives_and_differences_without_a_negative_position_are_values():
    """Fox and Geese declares no negative: -G and G - H are values (GameValue), compared
    and added by the same algebra; a short ruleset without one (Domineering) likewise."""
    geese = Game("fox-and-geese", ".G.G|F...")
    negated = -geese
    assert isinstance(negated, GameValue) and negated.universe == "loopy"
    assert negated == -geese.value and negated.outcome is Outcome.R
    board = Game("domineering", "..|..")
    assert isinstance(-board, GameValue) and -board == board  # +-1 is its own negative
    assert board - Game("domineering", ".|.") == parse_value("{0|-2}")
    assert isinstance(Game("nim", "3") - Game("nim", "1,2"), Game)  # impartial: -G is G
    heaps = Game("partizan-subtraction", "{1,2|2,3}:7,5")  # declares its negative
    assert repr(-heaps) == "Game('partizan-subtraction', '{2,3|1,2}:7,5')"
    assert -heaps == -heaps.value and heaps - heaps == 0 and isinstance(heaps - heaps, Game)


def test_comparisons_across_algebras_raise_type_error_naming_why():
    tis, cycle = Game(PARTIZAN, TIS), Game(DIGRAPH, "0>1,1>0;0")
    with pytest.raises(TypeError, match="normal-play values only"):
        _ = Game("pizza", "3,1,2") <= Game("nim", "1")
    with pytest.raises(TypeError, match="no order"):
        _ = cycle <= Game(DIGRAPH, "0>1;0")
    with pytest.raises(TypeError, match="not onside & offside"):
        _ = cycle == tis
    assert cycle == Game(DIGRAPH, "0>0;0") and cycle != Game(DIGRAPH, "0>1;0")
    assert Game(DIGRAPH, "0>1;0") == Game("nim", "1")  # a finite value is a nimber


def test_an_unknown_value_is_said_and_not_compared(monkeypatch, capsys):
    """Past the sides' size limit the value is unknown, and says why: in the Solution, in
    ``cgf solve`` (text and JSON), in the explorer's node and in the notebook; a comparison
    raises TypeError with the reason."""
    from cgframework.display import explorer
    from cgframework.values.loopy import sides

    monkeypatch.setattr(sides, "MAX_SIDES_NODES", 3)
    game = Game("backsliding-toads-and-frogs", "T..F")
    assert game.value is None and game.outcome is Outcome.N
    assert "at most 3" in game.solve().extra["value_unknown"]
    with pytest.raises(TypeError, match="unknown.*at most 3"):
        _ = game <= 0
    code, out, _ = run_cli(capsys, "solve", "backsliding-toads-and-frogs", "T..F")
    assert code == 0
    assert "value\tunknown: " in out and "at most 3" in out and "value_unknown" not in out
    code, out, _ = run_cli(capsys, "solve", "backsliding-toads-and-frogs", "T..F", "--json")
    data = json.loads(out)
    assert data["value"] is None and "at most 3" in data["value_unknown"]
    node = explorer.node("backsliding-toads-and-frogs", "T..F", pictures=False)
    assert node["value"] is None and "at most 3" in node["value_unknown"]
    assert "unknown: " in game._repr_html_()


def test_sums_of_many_components_compare_by_their_sides():
    two = Game(PARTIZAN, "0>1:L,1>0:R;0,0")
    assert str(two.value) == "2 & 0" and two == Game(PARTIZAN, TIS) + Game(PARTIZAN, TIS)
    assert solve(PARTIZAN, "0>1:L,1>0:R;0,0").value == two.value
