"""Pictures: the shared SVG helpers, the default ``draw``, and writing files whole."""

import xml.etree.ElementTree as ET

import pytest

from cgframework import BaseRuleset, Player
from cgframework.display.pictures import (
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
    with pytest.raises(PictureTooBig):
        text_svg("x" * 200_000)


def test_write_svg_is_whole_or_nothing(tmp_path):
    target = tmp_path / "a.svg"
    write_svg(str(target), "<svg/>")
    assert target.read_text() == "<svg/>"
    with pytest.raises(OSError):
        write_svg(str(tmp_path / "missing" / "b.svg"), "<svg/>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.svg"]


DRAWN = [
    # ruleset, position, class of the drawn items, how many
    ("domineering", ".#..|....|..#.", "cell", 12),
    ("nim", "3,5,0,7", "token", 15),
    ("kayles", "4,2", "token", 6),
    ("nim", "3,40", "token-bar", 1),
    ("pizza", "3,1,4,1,5", "slice", 5),
    ("pizza", "tes(4,3,6,5) + <2>", "slice", 5),
    ("influence", "LRRL:0>1,0>2,3>2", "vertex", 4),
    ("influence", "LRRL:0>1,0>2,3>2", "edge", 3),
    ("wak", '{"n":4,"edges":[[0,1],[1,2],[2,3]],"loops":[0],"weights":[3,1,4,1]}', "edge", 4),
    ("arc-kayles", "grid:3x3", "vertex", 9),
    ("digraph", "0>1,1>0,1>2;0,2,2", "vertex", 3),
    ("digraph", "0>1,1>0,1>2;0,2,2", "token", 3),
    ("partizan-digraph", "0>1:L,1>0:R,0>1:R;0", "edge", 3),
    ("backsliding-toads", "T..F", "cell", 4),
    ("cheating-robot", "{1|0|-1} + 2", "cell", 6),  # each summand's matrix S+(G)
    ("guaranteed", "{1|0}", "text-line", 1),
    ("clobber", "xo.x|o#ox", "cell", 8),  # the grids plugin: a removed cell # is drawn too
    ("konane", "checker:3x4", "cell", 12),
    ("cram", ".#..|....", "cell", 8),
    ("fission", "x..|.#.", "cell", 6),
    ("amazons", "x...|..#o", "cell", 8),
    ("toads-and-frogs", "TT..F.F", "cell", 7),
    ("snort", "grid:2x3", "vertex", 6),
    ("col", "0-1,1-2,2-3;tints=L..R", "edge", 3),
    ("hackenbush", "BRG + GG", "edge", 5),
    ("hackenbush", "BRG + GG", "vertex", 7),  # a ground square per stalk
]


@pytest.mark.parametrize(("name", "text", "kind", "count"), DRAWN)
def test_every_bundled_ruleset_draws_one_element_per_item(name, text, kind, count):
    from cgframework import get_registry, parse_position
    from cgframework.game import draw_position

    ruleset = get_registry().ruleset(name)
    svg = draw_position(ruleset, parse_position(ruleset, text))
    assert len(items(svg, kind)) == count


def test_marks_colour_what_each_player_took():
    from cgframework import get_registry, parse_position

    registry = get_registry()
    dom = registry.ruleset("domineering")
    svg = dom.draw(parse_position(dom, "...|..."), {(0, 0): Player.LEFT, (1, 0): Player.LEFT})
    assert [c.get("fill") for c in items(svg, "cell")].count(LEFT_COLOUR) == 2
    wak = registry.ruleset("wak")
    svg = wak.draw(parse_position(wak, "path:1,2,1"), {(0, 1): Player.RIGHT})
    assert [e.get("stroke") for e in items(svg, "edge")].count(RIGHT_COLOUR) == 1
    inf = registry.ruleset("influence")
    svg = inf.draw(parse_position(inf, "LR:0>1"), {"1": Player.RIGHT})
    assert [v.get("fill") for v in items(svg, "vertex")].count(RIGHT_COLOUR) == 1


def _first_examples():
    from cgframework import get_registry

    registry = get_registry()
    return [(name, registry.ruleset(name).examples()[0]) for name in sorted(registry.rulesets)]


@pytest.mark.parametrize(("name", "text"), _first_examples())
def test_solve_writes_a_picture_for_every_ruleset(capsys, tmp_path, name, text):
    from cgframework.testing import run_cli

    target = tmp_path / "p.svg"
    code, out, err = run_cli(capsys, "solve", name, text, "--picture", str(target))
    assert code == 0, err
    assert ET.fromstring(target.read_text()).tag.endswith("svg")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("nim", "3,4", "--picture", "/nonexistent-folder/p.svg"), "cannot write"),
        (("nim", ",".join(["1"] * 201), "--picture", "p.svg"), "too big to draw"),
        (("nim", "3", "--picture", "."), "cannot write"),
    ],
)
def test_solve_picture_refusals_are_one_line_and_write_nothing(
    capsys, tmp_path, monkeypatch, args, message
):
    from cgframework.testing import run_cli

    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "solve", *args)
    assert code == 2 and err.count("\n") == 1 and message in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("name", "text", "kind", "attribute", "count"),
    [
        ("domineering", "..|..", "cell", "fill", 2),
        ("pizza", "3,1,4", "slice", "fill", 1),
        ("wak", "path:1,2,1", "edge", "stroke", 1),
        ("influence", "LRR:0>1,0>2", "vertex", "fill", 3),  # Succ(0) = {0, 1, 2}
    ],
)
def test_move_marks_are_keys_that_draw_colours(name, text, kind, attribute, count):
    from cgframework import get_registry, options, parse_position

    ruleset = get_registry().ruleset(name)
    position = parse_position(ruleset, text)
    move = options(ruleset, position, Player.LEFT)[0]
    marks = dict.fromkeys(ruleset.move_marks(position, move), Player.LEFT)
    coloured = [
        e for e in items(ruleset.draw(position, marks), kind) if e.get(attribute) == LEFT_COLOUR
    ]
    assert len(coloured) == count


def test_cgf_tree_draws_every_node_within_depth(capsys, tmp_path):
    from cgframework.testing import run_cli

    target = tmp_path / "tree.svg"
    code, out, err = run_cli(capsys, "tree", "nim", "2", "--depth", "2", "-o", str(target))
    assert code == 0, err
    svg = target.read_text()
    # 2 -> {0, 1} for each player (4 nodes), 1 -> 0 for each player under both 1s (4 nodes)
    assert len(items(svg, "node")) == 1 + 4 + 4
    edges = items(svg, "edge")
    assert len(edges) == 8 and [e.get("stroke") for e in edges].count(LEFT_COLOUR) == 4
    code, out, err = run_cli(capsys, "tree", "domineering", "....|....|....", "-o", str(target))
    assert code == 2 and "too big to draw" in err and err.count("\n") == 1


def test_a_pizza_row_is_drawn_without_a_blank_square_around_it():
    """A board that is not one cycle is a row of slices: the picture is as tall as the row
    and its legend (looked at in Chromium: the 460-high square was mostly blank)."""
    from cgframework.display.notebook import show

    root = ET.fromstring(show("pizza-a", "<5,-3,2,1>"))
    slices = [e for e in root.iter() if e.get("class") == "slice"]
    bottom = max(float(e.get("y")) + float(e.get("height")) for e in slices)
    assert len(slices) == 4 and float(root.get("height")) <= bottom + 60


def centres(svg: str) -> dict[str, tuple[float, float]]:
    """Each vertex's label text and its circle's centre."""
    found = {}
    circles = items(svg, "vertex")
    labels = [e for e in ET.fromstring(svg).iter() if e.tag.endswith("text")]
    for circle, label in zip(circles, labels, strict=False):
        found[label.text] = (float(circle.get("cx")), float(circle.get("cy")))
    return found


@pytest.mark.parametrize(("rows", "cols"), [(3, 4), (4, 3), (2, 5), (4, 4)])
def test_a_grid_graph_is_drawn_as_a_grid(rows, cols):
    """Vertex r*cols+c sits at column c, row r (or the transpose, wider than tall), evenly
    spaced: not the tilted diamond of a spring layout. The vertices come shuffled."""
    import random

    cells = [(r, c) for r in range(rows) for c in range(cols)]
    random.Random(rows * 10 + cols).shuffle(cells)
    edges = [
        (r * cols + c, (r + dr) * cols + c + dc)
        for r, c in cells
        for dr, dc in ((0, 1), (1, 0))
        if r + dr < rows and c + dc < cols
    ]
    svg = graph_svg([r * cols + c for r, c in cells], edges, fill=lambda v: "#fff")
    at = centres(svg)
    xs, ys = sorted({x for x, _ in at.values()}), sorted({y for _, y in at.values()})
    assert len(xs) * len(ys) == rows * cols and len(xs) >= len(ys)
    steps = {round(b - a, 1) for a, b in zip(xs, xs[1:], strict=False)} | {
        round(b - a, 1) for a, b in zip(ys, ys[1:], strict=False)
    }
    assert len(steps) == 1  # one spacing everywhere
    for u, v in edges:  # neighbours are one step apart, horizontally or vertically
        (x1, y1), (x2, y2) = at[str(u)], at[str(v)]
        assert (x1 == x2) != (y1 == y2)


def test_a_grid_with_a_missing_edge_or_a_diagonal_is_not_a_grid():
    grid = [(r * 3 + c, r * 3 + c + 1) for r in range(3) for c in range(2)]
    grid += [(r * 3 + c, (r + 1) * 3 + c) for r in range(2) for c in range(3)]
    for edges in (grid[1:], grid + [(0, 4)]):
        at = centres(graph_svg(list(range(9)), edges, fill=lambda v: "#fff"))
        assert len({x for x, _ in at.values()}) > 3  # the spring layout, not a 3x3 grid


def test_a_caption_goes_under_the_picture():
    plain = graph_svg([0, 1, 2, 3], [(0, 1), (1, 2), (2, 0), (0, 3)], fill=lambda v: "#fff")
    captioned = graph_svg(
        [0, 1, 2, 3], [(0, 1), (1, 2), (2, 0), (0, 3)], fill=lambda v: "#fff", caption="v:w"
    )
    assert items(captioned, "caption")[0].text == "v:w" and not items(plain, "caption")
    assert float(ET.fromstring(captioned).get("height")) > float(ET.fromstring(plain).get("height"))
