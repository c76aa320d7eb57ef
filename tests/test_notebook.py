"""Notebook representations: LaTeX of values, thermograph SVG, solution/game tables, show()."""

import xml.etree.ElementTree as ET

import pytest

from cgframework import Game, show, solve
from cgframework.display.notebook import latex, symbols
from cgframework.values import parse_value


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("^", r"\uparrow"),
        ("v", r"\downarrow"),
        ("^^", r"\Uparrow"),
        ("vv*3", r"\Downarrow \ast 3"),
        ("^*", r"\uparrow \ast"),
        ("+-1", r"\pm 1"),
        ("*3", r"\ast 3"),
        ("-3/4", r"-\frac{3}{4}"),
        ("{1|0}", r"\{1\mid 0\}"),
        ("{0||0|-1}", r"\{0\parallel 0\mid -1\}"),
    ],
)
def test_latex_of_canonical_values(text, expected):
    value = parse_value(text)
    assert latex(value) == expected
    assert value._repr_latex_() == f"${expected}$"


def test_unicode_symbols():
    assert symbols(parse_value("{^|v*}")) == "{↑|↓*}"
    assert symbols(parse_value("+-1")) == "±1" and symbols(parse_value("^^")) == "⇑"


def test_a_value_shows_its_thermograph():
    svg = parse_value("{3|1}")._repr_svg_()
    classes = [e.get("class") for e in ET.fromstring(svg).iter()]
    assert classes.count("mast") == 1 and "left-wall" in classes


def test_solution_and_game_tables_have_picture_value_outcome_and_moves():
    sol = solve(Game("domineering", "..|..").ruleset, Game("domineering", "..|..").position)
    html = sol._repr_html_()
    assert html.count('class="cell"') == 4
    assert "<th" in html and "±1" in html and ">N<" in html and "v1,1" in html
    html = Game("nim", "1,2")._repr_html_()
    assert html.count('class="token"') == 3 and "*3" in html


def test_show_returns_svg_and_writes_it(tmp_path):
    target = tmp_path / "toads.svg"
    svg = show("backsliding-toads", "T..F", path=str(target))
    assert svg._repr_svg_() == target.read_text() == str(svg)
    assert [e.get("class") for e in ET.fromstring(svg).iter()].count("cell") == 4


def _facts(table: str) -> dict[str, str]:
    import xml.etree.ElementTree as ET

    rows = [r for r in ET.fromstring(table).iter("tr") if r.find("th") is not None]
    return {r.find("th").text: "".join(r.find("td").itertext()) for r in rows}


def test_scoring_and_cheating_robot_values_show_as_tables():
    """Scoring games and cheating-robot games have notebook displays."""
    from cgframework_cheating_robot.games import parse_game as cheating_robot_game
    from cgframework_guaranteed.notation import parse_game as scoring_game

    facts = _facts(scoring_game("<2|<1|^0>>")._repr_html_())
    assert facts["value"] == "<2|<1|^0>>" and facts["stops Ls, Rs"] == "2, 1"
    assert _facts(cheating_robot_game("{10|8|-3}")._repr_html_()) == {
        "value": "{10|8|-3}",
        "outcome": "L",
    }


def test_a_thermograph_shows_its_picture():
    """A :class:`Thermograph` (what ``thermograph(g)`` returns) is a picture in a notebook,
    the same chart as its game's: walls meeting at the temperature, a mast."""
    from cgframework.values import thermograph

    g = parse_value("{4|{2|-2}}")
    svg = thermograph(g)._repr_svg_()
    classes = [e.get("class") for e in ET.fromstring(svg).iter()]
    assert classes.count("mast") == 1 and "left-wall" in classes
    assert "Thermograph(" not in svg  # its legend names the mean, not the object's repr
    walls = [e.get("data-points") for e in ET.fromstring(svg).iter() if e.get("data-points")]
    ours = ET.fromstring(g._repr_svg_()).iter()
    assert walls == [e.get("data-points") for e in ours if e.get("data-points")]


def test_a_game_shows_its_picture_as_svg():
    """Where a front end shows no HTML, a Game is still its position's picture."""
    svg = Game("domineering", "..|..")._repr_svg_()
    assert ET.fromstring(svg).tag.endswith("svg")
    assert svg.count('class="cell"') == 4
