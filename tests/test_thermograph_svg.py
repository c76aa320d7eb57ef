"""Thermograph pictures: the drawn walls are the exact thermograph, value axis to the left."""

import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest

from cgframework.display.thermograph import thermograph_svg
from cgframework.testing import run_cli
from cgframework.values import parse_value
from cgframework.values.thermograph import thermograph


def _coords(d: str) -> list[tuple[float, float]]:
    return [tuple(map(float, step[1:].split(","))) for step in d.split()]


def _exact(data: str) -> list[tuple[Fraction, Fraction]]:
    return [tuple(map(Fraction, pair.split(","))) for pair in data.split()]


@pytest.mark.parametrize("text", ["{3|1}", "{5|{2|-1}}", "{{4|2}|{-1|-3}}", "+-1", "1/2", "^"])
def test_walls_are_drawn_through_the_exact_breakpoints(text):
    g = parse_value(text)
    th = thermograph(g)
    root = ET.fromstring(thermograph_svg(g))
    paths = {e.get("class"): e for e in root.iter() if e.get("class")}
    drawn = []
    for side, wall in (("left-wall", th.left), ("right-wall", th.right)):
        exact = _exact(paths[side].get("data-points"))
        # every breakpoint below the temperature is drawn, and the walls meet the mast at T
        assert {t for t, _ in wall.points if t < th.temperature} <= {t for t, _ in exact}
        assert exact[-1] == (th.temperature, th.mast)
        assert all(v == wall(t) for t, v in exact)
        drawn += list(zip(exact, _coords(paths[side].get("d")), strict=True))
    mast = paths["mast"]
    assert Fraction(mast.get("data-mean")) == th.mast
    assert Fraction(mast.get("data-temperature")) == th.temperature
    # the path coordinates are one affine image of (t, v): x falls as v grows (Left's wall on
    # the left, as CGSuite draws), y falls as t grows (temperature up)
    (t0, v0), (x0, y0) = drawn[0]
    scale = None
    for (_t, v), (x, _y) in drawn[1:]:
        if v != v0:
            scale = (x0 - x) / float(v - v0)
            break
    assert scale is not None and scale > 0
    for (t, v), (x, y) in drawn:
        assert x == pytest.approx(x0 - scale * float(v - v0), abs=1e-3)
        assert y == pytest.approx(y0 - scale * float(t - t0), abs=1e-3)
    left_x = _coords(paths["left-wall"].get("d"))[0][0]
    right_x = _coords(paths["right-wall"].get("d"))[0][0]
    assert left_x <= right_x


def test_calc_thermograph_of_a_sum_draws_each_part_and_the_sum(capsys, tmp_path):
    target = tmp_path / "t.svg"
    code, out, err = run_cli(capsys, "calc", "{3|1} + {4|{2|-2}}", "--thermograph", str(target))
    assert code == 0, err
    masts = [e for e in ET.fromstring(target.read_text()).iter() if e.get("class") == "mast"]
    assert [m.get("data-mean") for m in masts] == ["2", "2", "4"]
    assert [m.get("data-temperature") for m in masts] == ["1", "2", "2"]


@pytest.mark.parametrize(
    "args",
    [
        ("{3|1}", "--thermograph", "/nonexistent-folder/t.svg"),
        ("^ >= 0", "--thermograph", "t.svg"),
        ("on", "--thermograph", "t.svg"),
    ],
)
def test_calc_thermograph_refusals_are_one_line(capsys, tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "calc", *args)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_a_number_born_on_day_3000_has_its_thermograph_and_short_labels():
    """{x | 0} with x = 1/2^3000: mean and temperature x/2 (Siegel II.5, a hot game {a|b} with
    a > b numbers has mean (a+b)/2 and temperature (a-b)/2); the rule recurses 3000 levels
    deep through x's options (a RecursionError before), and the labels stay short while the
    data attributes keep the exact values."""
    x = Fraction(1, 2**3000)
    g = parse_value(f"{{{x}|0}}")
    th = thermograph(g)
    assert th.mast == th.temperature == x / 2
    root = ET.fromstring(thermograph_svg(g))
    assert (
        Fraction(next(e for e in root.iter() if e.get("class") == "mast").get("data-mean")) == x / 2
    )
    labels = [e.text for e in root.iter() if e.tag.endswith("text") and e.text]
    assert "mean 1/2^3001" in labels and "t = 1/2^3001" in labels
    assert max(len(text) for text in labels) < 100


def test_a_hot_game_of_huge_stops_draws_a_dozen_ticks():
    """hqa QA: ``cgf calc --thermograph t.svg "{10^20|0}"`` never finished: the axes tested
    every integer between the stops (and every integer temperature) for a tick."""
    svg = thermograph_svg([parse_value("{" + "1" + "0" * 200 + "|0}")], ["big"])
    ET.fromstring(svg)
    assert svg.count("<line") < 60
