"""Onsides and offsides as explicit stoppers (cgframework.values.loopy.sides): worked examples
from Winning Ways ch. 11 and Siegel ch. VI, and on random loopy graphs the stopper sides
against the Buchi-game comparison of sides (``onside_ge``, ``offside_ge``), which never
builds a side."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from test_values_loopy import loopy_games  # random graphs: 0-2 options per node and player

from cgframework.testing import run_cli
from cgframework.values.loopy import (
    compare,
    equal,
    greater_equal,
    is_stopper,
    offside_ge,
    onside_ge,
    parse_loopy,
)
from cgframework.values.loopy.sides import NotStopperSided, SidedGame, offside, onside

ON, OFF, DUD = map(parse_loopy, ("on", "off", "dud"))
TIS, TISN = parse_loopy("a:{{|a}|}"), parse_loopy("a:{|{a|}}")


def test_dud_is_on_and_off():
    """Winning Ways ch. 11 (dud, "deathless universal draw"): dud = on & off; and on + off
    = dud (Winning Ways ch. 11; Siegel VI), side by side."""
    for g in (DUD, ON + OFF):
        assert onside(g) == ON and offside(g) == OFF  # the graphs {pass|} and {|pass}
        assert str(g) == "dud"


def test_tis_and_tisn():
    """Winning Ways ch. 11, tis and tisn (tis = {tisn|}, tisn = {|tis}): tis = 1 & 0 and
    tisn = 0 & -1. The sides are checked as numbers (plain stopper order) and against the
    sides comparison."""
    one, zero, minus_one = parse_loopy("1"), parse_loopy("0"), parse_loopy("-1")
    for g, plus, minus in ((TIS, one, zero), (TISN, zero, minus_one)):
        assert equal(onside(g), plus) and equal(offside(g), minus)
        assert onside_ge(g, plus) and onside_ge(plus, g)
        assert offside_ge(g, minus) and offside_ge(minus, g)
    assert (str(TIS), str(TISN)) == ("1 & 0", "0 & -1")
    # tisn = -tis, and the sides swap under negation: (-G)^+ = -(G^-).
    assert equal(onside(-TIS), -offside(TIS)) and equal(offside(-TIS), -onside(TIS))


def sides_or_none(g):
    try:
        return onside(g), offside(g)
    except NotStopperSided:
        return None


@settings(max_examples=150, deadline=None)
@given(loopy_games(max_nodes=5), loopy_games(max_nodes=5))
def test_stopper_sides_agree_with_the_sides_comparison(g, h):
    """onside(G) >= onside(H) as stoppers (plain survival) iff G^+ >= H^+ by the Buchi
    comparison, likewise offsides; G^+ >= G^- (Siegel VI); the sides are stoppers."""
    sg, sh = sides_or_none(g), sides_or_none(h)
    for sides in (sg, sh):
        if sides is not None:
            assert all(is_stopper(s) for s in sides)
            assert greater_equal(sides[0], sides[1])
    if sg is not None and sh is not None:
        assert greater_equal(sg[0], sh[0]) == onside_ge(g, h)
        assert greater_equal(sg[1], sh[1]) == offside_ge(g, h)


@settings(max_examples=40, deadline=None)
@given(loopy_games(max_nodes=5))
def test_a_stopper_is_its_own_onside_and_offside(g):
    if is_stopper(g):
        assert equal(onside(g), g) and equal(offside(g), g)
        assert str(onside(g)) == str(g)


@settings(max_examples=80, deadline=None)
@given(loopy_games(max_nodes=4), loopy_games(max_nodes=4))
def test_the_onside_of_a_sum_is_the_onside_of_the_sum_of_onsides(g, h):
    """Siegel VI (sides of sums): (G + H)^+ = (G^+ + H^+)^+ and likewise for offsides; when
    G^+ + H^+ is a stopper this is G^+ + H^+ itself."""
    sg, sh = sides_or_none(g), sides_or_none(h)
    if sg is None or sh is None:
        return
    total = g + h
    for side, side_ge, k in ((onside, onside_ge, 0), (offside, offside_ge, 1)):
        summed = sg[k] + sh[k]
        assert side_ge(total, summed) and side_ge(summed, total)
        if is_stopper(summed):
            assert equal(side(total), summed)


@settings(max_examples=30, deadline=None)
@given(loopy_games(max_nodes=4))
def test_dud_swallows_every_game(g):
    """Winning Ways ch. 11: G + dud = dud for every G (on & off absorbs)."""
    total = g + DUD
    assert onside(total) == ON and offside(total) == OFF


def test_cgsuite_non_stopper_sided_example_is_refused(capsys):
    """CGSuite's own test suite lists a{0,{1|1,{*,{1+*|1+*,a}|*}}|0} as not stopper-sided:
    no stopper side is returned for it, and calc says so in one line (exit 2)."""
    text = "a:{0,{1|1,{*,{1+*|1+*,a}|*}}|0}"
    with pytest.raises(NotStopperSided):
        onside(parse_loopy(text))
    code, out, err = run_cli(capsys, "calc", "--universe", "loopy", f"onside({text})")
    assert code == 2 and out == "" and err.count("\n") == 1 and "stopper" in err


def test_calc_sides(capsys):
    def calc(text):
        return run_cli(capsys, "calc", "--universe", "loopy", text)[:2]

    assert calc("onside(dud)") == (0, "on\n")
    assert calc("offside(dud)") == (0, "off\n")
    assert calc("a:{{|a}|}") == (0, "1 & 0\n")
    assert calc("onside(a:{{|a}|}) == 1") == (0, "true\n")
    assert calc("{onside(dud)|}") == (0, "on\n")  # {on|} = on
    assert calc("offside(over)") == (0, "over\n")
    for bad in ("onside(", "onside(pass)", "onside(dud"):
        code, out, err = run_cli(capsys, "calc", "--universe", "loopy", bad)
        assert code == 2 and out == "" and err.count("\n") == 1, bad


def test_values_written_by_their_sides():
    """``A & B`` (CGSuite's notation, Winning Ways ch. 11 "sidling"): tis = 1 & 0 and tisn =
    0 & -1 as values, compared with the game graphs by the Buchi comparison; sums by sides."""
    one_zero = parse_loopy("1 & 0")
    assert isinstance(one_zero, SidedGame) and str(one_zero) == "1 & 0"
    assert compare(one_zero, TIS) == "=" and compare(parse_loopy("0 & -1"), TISN) == "="
    assert compare(parse_loopy("(1 & 0) + (0 & -1)"), TIS + TISN) == "="
    assert str(TIS + TISN) == "1 & -1"
    assert compare(parse_loopy("on & off"), DUD) == "=" and str(parse_loopy("on & off")) == "dud"
    assert str(parse_loopy("(1 & 0) + 1")) == "2 & 1" and str(-one_zero) == "0 & -1"
    assert str(parse_loopy("over & over")) == "over"  # equal sides: the stopper itself
    # G >= H iff both sides are (Siegel VI): 1 & 0 lies between 0 and 1, and is confused
    # with * (1 > * on the onside, 0 || * on the offside).
    assert compare(one_zero, parse_loopy("0")) == ">" and compare(one_zero, parse_loopy("1")) == "<"
    assert compare(one_zero, parse_loopy("*")) == "||"
    assert one_zero >= parse_loopy("0") and parse_loopy("1") >= one_zero  # Python operators
    assert not (one_zero <= parse_loopy("0"))


@settings(max_examples=60, deadline=None)
@given(loopy_games(max_nodes=4))
def test_printed_values_read_back_equal(g):
    """What the printer writes (``A & B`` for a stopper-sided game) parses to an equal value,
    by the Buchi comparison against the original graph."""
    assert compare(parse_loopy(str(g)), g) == "="


def test_bad_sided_input(capsys):
    for bad in ("0 & 1", "{1 & 0|}", "{0|(1 & 0)}", "1 &", "& 1"):
        code, out, err = run_cli(capsys, "calc", "--universe", "loopy", bad)
        assert code == 2 and out == "" and err.count("\n") == 1, bad
    assert run_cli(capsys, "calc", "1 & 0 > 0")[:2] == (0, "true\n")  # & picks loopy


@settings(max_examples=80, deadline=None)
@given(loopy_games(max_nodes=5))
def test_deleting_or_unravelling_a_move_helps_its_opponent(g):
    """The sides search checks one direction only: deleting (or unravelling) a Right move
    never makes a game worse for Left, on either side, and a Left move never better (Left
    mirrors; an endless play then moves in both parts). Checked with the slow reference
    comparison (tests/loopy_reference.py)."""
    from loopy_reference import survives_second_reference as survives

    from cgframework.values.loopy.sides import RIGHT, _unravelled, _without_move

    moves = [
        (p, v, w)
        for p, opts in enumerate((g.left, g.right))
        for v in range(g.size)
        for w in opts[v]
    ]
    for player, v, w in moves[:6]:
        for changed in (_without_move(g, player, v, w), _unravelled(g, player, v, w)):
            better, worse = (changed, g) if player == RIGHT else (g, changed)
            assert survives(better, -worse, 0) and survives(better, -worse, 1)
