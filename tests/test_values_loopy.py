"""Loopy games and stoppers (cgframework.values.loopy): identities from Winning Ways ch. 11
and Siegel ch. VI, the stopper order against short canonical forms, and the calc universe."""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework.testing import run_cli
from cgframework.values import ZERO, game
from cgframework.values.loopy import (
    LoopyGame,
    LoopySyntaxError,
    add,
    compare,
    equal,
    format_loopy,
    is_stopper,
    minimized,
    offside_ge,
    onside_ge,
    parse_loopy,
    simplify_stopper,
    survives_second,
)

ON, OFF, OVER, UNDER, UPON, DUD = map(parse_loopy, ("on", "off", "over", "under", "upon", "dud"))


def test_on_plus_off_is_dud():
    """Winning Ways ch. 11 and Siegel VI: on + off = dud (the sum is dud's graph itself)."""
    assert add(ON, OFF) == DUD
    assert equal(ON + OFF, DUD)
    assert str(ON + OFF) == "dud"


def test_which_named_games_are_stoppers():
    """on, off, over, under, upon are stoppers; dud = {pass|pass} is not (Siegel VI.2)."""
    assert all(is_stopper(g) for g in (ON, OFF, OVER, UNDER, UPON))
    assert not is_stopper(DUD)
    assert not is_stopper(OVER + UNDER)  # Right passes in over, Left in under, for ever


def test_stopper_order_and_sums():
    """Facts checked by hand with the survival criterion (Left survives G - H second)."""
    zero, one, star = parse_loopy("0"), parse_loopy("1"), parse_loopy("*")
    assert compare(ON, one) == ">" and compare(OFF, parse_loopy("-1")) == "<"
    assert compare(OVER, zero) == ">" and compare(OVER, one) == "<"
    assert compare(UNDER, zero) == "<"
    assert compare(UPON, zero) == ">" and compare(UPON, star) == "||"
    assert equal(ON + one, ON) and equal(ON + UPON, ON)
    assert equal(OVER + OVER, OVER) and str(OVER + OVER) == "over"
    assert compare(parse_loopy("{0|on}"), OVER) == ">"
    assert equal(parse_loopy("{*|*}"), zero)


def test_sides_of_dud():
    """Winning Ways ch. 11: dud = on & off (onside on, offside off); so off < dud < on and
    dud is incomparable with 0; and on + off = dud also side by side."""
    zero = parse_loopy("0")
    for g in (DUD, ON + OFF):
        assert onside_ge(g, ON) and onside_ge(ON, g)
        assert offside_ge(g, OFF) and offside_ge(OFF, g)
        assert not offside_ge(g, zero) and onside_ge(g, zero)
    assert compare(DUD, zero) == "||"
    assert compare(OFF, DUD) == "<" and compare(DUD, ON) == "<"
    # G - G need not be 0 for a loopy G: on - on = on + off = dud.
    assert equal(ON - ON, DUD)


def test_notation_round_trips():
    for text in ("{pass|{pass|0}}", "{0,{pass|}|pass}", "{1|{pass|-1}}", "a:{0|{1|a}}"):
        g = parse_loopy(text)
        assert equal(parse_loopy(str(g)), g), text
    # A stopper-sided game prints as its sides, read back as a value (sides.SidedGame).
    assert str(parse_loopy("a:{0|{a|*}}")) == "1 & *"
    assert compare(parse_loopy("1 & *"), parse_loopy("a:{0|{a|*}}")) == "="
    assert str(parse_loopy("{0|pass}")) == "over"
    assert str(-OVER) == "under"


@pytest.mark.parametrize(
    "text",
    ["pass", "{0|pass", "{0|1|2}", "foo", "{pass + 1|}", "1 +", "{" * 300 + "|" + "}" * 300, "1/0"],
)
def test_bad_expressions(text):
    with pytest.raises(LoopySyntaxError):
        parse_loopy(text)


@st.composite
def short_games(draw, max_nodes=6):
    """A DAG: node v's options are among nodes 0..v-1; the game is the last node."""
    n = draw(st.integers(1, max_nodes))
    left = [draw(st.lists(st.integers(0, v - 1), max_size=2)) if v else [] for v in range(n)]
    right = [draw(st.lists(st.integers(0, v - 1), max_size=2)) if v else [] for v in range(n)]
    return left, right, n - 1


def canonical(left, right, v):
    return game(
        [canonical(left, right, w) for w in left[v]], [canonical(left, right, w) for w in right[v]]
    )


@settings(max_examples=80, deadline=None)
@given(short_games(), short_games())
def test_stopper_order_on_short_games_is_the_canonical_order(a, b):
    """A short game is a stopper, and the survival order is the usual order of games."""
    g, h = LoopyGame.build(*a), LoopyGame.build(*b)
    x, y = canonical(*a), canonical(*b)
    assert is_stopper(g) and is_stopper(h)
    expected = x.compare(y)
    assert compare(g, h) == {"=": "=", "<": "<", ">": ">", "||": "||"}[expected]
    assert equal(minimized(g), g) and ((x - y) == ZERO) == equal(g, h)


@st.composite
def left_looping_stoppers(draw, max_nodes=5):
    """Every cycle is made of Left's moves only: Left's moves are arbitrary; Right's moves
    go forward in a topological order of the strongly connected parts of Left's moves."""
    n = draw(st.integers(1, max_nodes))
    left = [draw(st.lists(st.integers(0, n - 1), max_size=2)) for _ in range(n)]
    graph = nx.DiGraph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from((v, w) for v in range(n) for w in left[v])
    condensed = nx.condensation(graph)
    rank = {c: i for i, c in enumerate(nx.topological_sort(condensed))}
    part = {v: rank[condensed.graph["mapping"][v]] for v in range(n)}
    right = [
        [w for w in draw(st.lists(st.integers(0, n - 1), max_size=2)) if part[w] > part[v]]
        for v in range(n)
    ]
    return LoopyGame.build(left, right, draw(st.integers(0, n - 1)))


@settings(max_examples=60, deadline=None)
@given(left_looping_stoppers(), left_looping_stoppers())
def test_sums_of_left_looping_stoppers_are_stoppers(g, h):
    """Stoppers all of whose cycles are Left's moves (like on, upon) add to a stopper: an
    infinite play of the sum would need a cycle with a Right move in some component
    (Winning Ways ch. 11; Siegel VI.2). A Right-looping summand (off) breaks it: on + off."""
    assert is_stopper(g) and is_stopper(h)
    assert is_stopper(g + h)
    assert equal(g + h, h + g)


def test_calc_universe_loopy(capsys):
    assert run_cli(capsys, "calc", "--universe", "loopy", "on + off == dud")[:2] == (0, "true\n")
    assert run_cli(capsys, "calc", "--universe", "loopy", "over + over")[:2] == (0, "over\n")
    assert run_cli(capsys, "calc", "--universe", "loopy", "dud || 0")[:2] == (0, "true\n")
    code, out, err = run_cli(capsys, "calc", "--universe", "loopy", "{0|pass")
    assert code == 2 and err.count("\n") == 1


@st.composite
def loopy_games(draw, max_nodes=3):
    n = draw(st.integers(1, max_nodes))
    node = st.integers(0, n - 1)
    left = [draw(st.lists(node, max_size=2)) for _ in range(n)]
    right = [draw(st.lists(node, max_size=2)) for _ in range(n)]
    return LoopyGame.build(left, right, 0)


@settings(max_examples=60, deadline=None)
@given(loopy_games(), loopy_games())
def test_for_stoppers_the_sides_comparison_is_plain_survival(g, h):
    """Between stoppers an infinite play of G - H moves infinitely often in both parts (no
    alternating infinite play in one stopper), so both Buchi criteria are plain survival."""
    if is_stopper(g) and is_stopper(h):
        plain = survives_second(g, -h, None)
        assert onside_ge(g, h) == plain and offside_ge(g, h) == plain


@settings(max_examples=60, deadline=None)
@given(loopy_games(), loopy_games(), loopy_games())
def test_the_order_of_loopy_games_is_a_preorder(a, b, c):
    assert onside_ge(a, a) and offside_ge(a, a)
    for side in (onside_ge, offside_ge):
        if side(a, b) and side(b, c):
            assert side(a, c)


def test_default_calc_takes_loopy_literals(capsys):
    """Plain ``cgf calc`` switches to the loopy universe when the expression names on, off,
    over, under, upon, dud or pass (no short game is written with these words)."""
    assert run_cli(capsys, "calc", "on + off == dud")[:2] == (0, "true\n")
    assert run_cli(capsys, "calc", "{pass|*} > 0")[:2] == (0, "true\n")
    assert run_cli(capsys, "calc", "{1|0} + *")[:2] == (0, "{1*|*}\n")


@settings(max_examples=60, deadline=None)
@given(loopy_games(max_nodes=5))
def test_simplified_stoppers_are_equal_stoppers(g):
    """Removing dominated options, bypassing reversible ones and fusing equal positions keeps
    a stopper's value (Siegel VI.3), and a second pass finds nothing more to do."""
    if is_stopper(g):
        s = simplify_stopper(g)
        assert is_stopper(s) and equal(s, g)
        assert s.size <= minimized(g).size
        assert simplify_stopper(s).size == s.size


def test_simplified_examples():
    assert str(parse_loopy("{0,{pass|}|pass}")) == "on"  # {0, on | pass}: on dominates 0
    assert str(parse_loopy("{0,1|pass}")) == "{1|pass}"  # 1 dominates 0
    # Number translation: 3 + over = {3 + 0 | 3 + over} = {3 | pass}.
    assert equal(parse_loopy("3 + over"), parse_loopy("{3|pass}"))
    assert str(parse_loopy("3 + over")) == "{3|pass}"


@settings(max_examples=150, deadline=None)
@given(loopy_games(max_nodes=5), loopy_games(max_nodes=5), st.sampled_from([None, 0, 1]))
def test_fast_comparison_agrees_with_the_reference(g, h, favoured):
    """The Buchi comparison on reachable states with accepting moves (survives_second) agrees
    with the slow flagged-state version over the whole state space (tests/loopy_reference)."""
    from loopy_reference import survives_second_reference

    from cgframework.values.loopy.graphs import _survives_second  # (not memoised)

    expected = survives_second_reference(g, h, favoured)
    assert _survives_second(g, h, favoured) == expected
    assert survives_second(g, h, favoured) == expected


def test_numbers_inside_stoppers_print_as_numbers():
    """Short subpositions equal to a number, or a number plus a nimber, print as CGSuite
    writes them (19/4 = {9/2|5} = {{4|5}|5}; {-3|-3} = -3*), and read back."""
    cases = {
        "{{4|5}|5}": "19/4",
        "{{4|5}|pass}": "{9/2|pass}",
        "{-3|-3}": "-3*",
        "{{0,*|0,*}|pass}": "{*2|pass}",
        "{{1/2|1/2}|pass}": "{1/2*|pass}",
        "{{1|0}|pass}": "{{1|0}|pass}",  # a switch stays in braces
    }
    for text, printed in cases.items():
        assert str(parse_loopy(text)) == printed
        assert equal(parse_loopy(printed), parse_loopy(text))
    assert equal(parse_loopy("3/4*2"), parse_loopy("{1/2|1} + *2"))
    with pytest.raises(LoopySyntaxError):
        parse_loopy("1/3")


@st.composite
def loopy_games_with_short_parts(draw, max_short=4, max_loopy=3):
    """Nodes 0..k-1 form a DAG (short games, options among lower nodes); the others have
    options anywhere; the game is the last node."""
    k = draw(st.integers(1, max_short))
    n = k + draw(st.integers(1, max_loopy))
    left, right = [], []
    for v in range(n):
        node = st.integers(0, (v if v < k else n) - 1)
        left.append(draw(st.lists(node, max_size=2)) if v else [])
        right.append(draw(st.lists(node, max_size=2)) if v else [])
    return LoopyGame.build(left, right, n - 1)


@settings(max_examples=60, deadline=None)
@given(loopy_games_with_short_parts())
def test_printed_games_with_numbers_read_back_equal(g):
    """Round trip: the printed text (numbers and number-plus-nimbers recognised) parses
    back to an equal game."""
    assert compare(parse_loopy(str(g)), g) == "="


@st.composite
def wider_loopy_games(draw):
    n = draw(st.integers(1, 12))
    node = st.integers(0, n - 1)
    left = [draw(st.lists(node, max_size=3)) for _ in range(n)]
    right = [draw(st.lists(node, max_size=3)) for _ in range(n)]
    return LoopyGame.build(left, right, draw(node))


@settings(max_examples=150, deadline=None)
@given(wider_loopy_games())
def test_incremental_minimization_finds_the_partition_of_plain_rounds(g):
    """Two positions share a node of the quotient iff the plain refinement rounds (the slow
    reference) put them in one class."""
    from loopy_reference import minimized_classes_reference

    from cgframework.values.loopy import minimized_numbered

    reference = minimized_classes_reference(g)
    quotient, new_node = minimized_numbered(g)
    assert len(new_node) == g.size and quotient.size == len(set(new_node.values()))
    for u in range(g.size):
        for v in range(g.size):
            assert (reference[u] == reference[v]) == (new_node[u] == new_node[v])


def test_a_long_integer_chain_minimizes_in_linear_time():
    """{8000 | pass} took 55 s with plain rounds (one split per round); the chain is already
    minimal, so every one of its 8002 positions stays its own class."""
    from cgframework.values.loopy import minimized_numbered

    g = parse_loopy("{8000|pass}")
    quotient, _ = minimized_numbered(g)
    assert quotient.size == g.size
    assert str(g) == "{8000|pass}"


def test_large_nimbers_print_quickly_or_are_refused():
    """hqa QA: ``cgf calc "*300"`` (and ``7*1000``) ran for minutes in the printer's canonical
    pass (k^3 dominance checks per nimber node); now read off as x + *k, and nimbers past
    MAX_NIMBER are refused with one line."""
    from cgframework.values.loopy import MAX_NIMBER

    assert str(parse_loopy("*40")) == "*40"
    assert str(parse_loopy("-3/4*40")) == "-3/4*40"
    for text in (f"*{MAX_NIMBER + 1}", f"7*{MAX_NIMBER + 1}"):
        with pytest.raises(LoopySyntaxError, match="nimber"):
            parse_loopy(text)


def test_calc_timeout_covers_printing_and_comparing(capsys):
    """hqa QA: ``cgf calc --timeout 5 "*128 + *64"`` ran 20 s: the sum was built in time, but
    printing it (and comparing, ``... >= 0``) was outside the deadline. (``*128 + *64`` alone
    now prints as ``*192`` at once; adding ``on`` keeps the printing long.)"""
    import time

    for text in ("*128 + *64 + on", "*128 + *64 >= 0"):
        start = time.monotonic()
        code, out, err = run_cli(capsys, "calc", "--universe", "loopy", "--timeout", "0.3", text)
        assert code == 3 and out == "" and "0.3 s (--timeout)" in err and err.count("\n") == 1
        assert time.monotonic() - start < 5


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("{3000|pass} >= {2000|pass}", "comparison needs 24040016 states"),
        ("{5000|pass} + {5000|pass}", "the sum has more than 10000 positions"),
    ],
)
def test_size_limits_of_sums_and_comparisons_are_limits(capsys, expression, message):
    """Work past a size limit is exit 3 (a limit), not exit 2 (a refused input)."""
    code, out, err = run_cli(capsys, "calc", "--universe", "loopy", expression)
    assert code == 3 and out == "" and err.count("\n") == 1 and message in err


@pytest.mark.parametrize(
    "text, printed",
    [
        ("{on|off}", "{on|off}"),
        ("{0|off}", "{0|off}"),
        ("{over|under}", "{over|under}"),
        ("{pass,on|off}", "{on|off}"),
        ("{on,1|*}", "{on|*}"),
        ("{upon|-1}", "{upon|-1}"),
        ("{2|upon}", "{2|upon}"),
    ],
)
def test_named_stoppers_inside_a_game_print_by_name(text, printed):
    """on, off, over, under, upon and dud inside braces are written by name, as CGSuite
    does (they printed as {pass|}, {|pass}...), and the text reads back to the same game."""
    g = parse_loopy(text)
    assert format_loopy(g) == printed
    assert equal(parse_loopy(printed), g)


@pytest.mark.parametrize("text, printed", [("*64 + *32", "*96"), ("*5 + *3 + 1/2", "1/2*6")])
def test_sums_of_nimbers_print_as_nimbers(text, printed):
    """A node whose options on both sides are x + *k is x + *mex (Sprague-Grundy), also when
    some k lie past the mex (the nodes of *64 + *32 have such options): *64 + *32 printed as
    '<loopy game of 1617 positions, too large to write out>' after 15 s."""
    assert format_loopy(parse_loopy(text)) == printed
