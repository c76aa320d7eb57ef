"""Pictures: the shared SVG helpers, the default ``draw``, and writing files whole."""

import xml.etree.ElementTree as ET

import pytest

from cgframework import BaseRuleset, Player
from cgframework.pictures import (
    LEFT_COLOUR,
    RIGHT_COLOUR,
    PictureTooBig,
    graph_svg,
    grid_svg,
    mark_colour,
    side_by_side,
    text_svg,
    write_svg,
)


def items(svg: str, kind: str) -> list[ET.Element]:
    return [e for e in ET.fromstring(svg).iter() if e.get("class") == kind]


def test_default_draw_is_the_escaped_text_form():
    class Plain(BaseRuleset):
        def format(self, position):
            return f"<{position}> & more"

    svg = Plain().draw(3)
    lines = items(svg, "text-line")
    assert [e.text for e in lines] == ["<3> & more"]  # escaped in the file, read back whole


def test_grid_and_graph_have_one_element_per_cell_and_vertex():
    svg = grid_svg(2, 3, lambda r, c: None if (r, c) == (0, 0) else "#fff")
    assert len(items(svg, "cell")) == 5
    svg = graph_svg([0, 1, 2], [(0, 1), (1, 2), (2, 2)], fill=lambda v: "#fff", directed=True)
    assert len(items(svg, "vertex")) == 3 and len(items(svg, "edge")) == 3
    both = side_by_side([text_svg("a"), svg])
    assert len(items(both, "vertex")) == 3 and len(items(both, "text-line")) == 1


def test_marks_colour_left_blue_right_red():
    marks = {(0, 1): Player.LEFT, 2: "R"}
    assert mark_colour(marks, (0, 1)) == LEFT_COLOUR
    assert mark_colour(marks, 2) == RIGHT_COLOUR
    assert mark_colour(marks, 5, "x") == "x" and mark_colour(None, 5, "x") == "x"


def test_too_big_is_refused():
    with pytest.raises(PictureTooBig):
        grid_svg(100, 100, lambda r, c: "#fff")


def test_write_svg_is_whole_or_nothing(tmp_path):
    target = tmp_path / "a.svg"
    write_svg(str(target), "<svg/>")
    assert target.read_text() == "<svg/>"
    with pytest.raises(OSError):
        write_svg(str(tmp_path / "missing" / "b.svg"), "<svg/>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.svg"]
