"""The cheating-robot picture: each summand's matrix S+(G) (paper 002, Def 2, Figure 3), and
clicks on a move's head or one-sided option that play that move."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import Player, get_registry, parse_position
from cgframework.display.explorer import move_at
from cgframework.display.pictures import LEFT_COLOUR, RIGHT_COLOUR
from cgframework_cheating_robot.games import format_game, game, integer
from cgframework_cheating_robot.ruleset import CRSum

SVG = "{http://www.w3.org/2000/svg}"


def ruleset():
    return get_registry().ruleset("cheating-robot")


def elements(svg: str, cls: str) -> list[ET.Element]:
    return [e for e in ET.fromstring(svg).iter() if e.get("class") == cls]


def cell_texts(svg: str) -> dict[str, str]:
    """Each ``data-cell`` key's text, as drawn."""
    return {
        e.get("data-cell"): e.text
        for e in ET.fromstring(svg).iter(f"{SVG}text")
        if e.get("data-cell") is not None
    }


def shown(text: str) -> str:
    """A text as its cell shows it: past 18 characters, cut to 15 and ``...``."""
    return text if len(text) <= 18 else text[:15] + "..."


def games():
    ints = st.integers(-3, 3).map(integer)

    @st.composite
    def one(draw):
        m, n = draw(st.integers(0, 2)), draw(st.integers(0, 3))
        left = draw(st.lists(ints, min_size=m, max_size=m))
        right = draw(st.lists(ints, min_size=n, max_size=n))
        table = [draw(st.lists(ints, min_size=n, max_size=n)) for _ in range(m)] if m and n else []
        return game(left, table, right)

    return one()


def test_a_summand_is_its_matrix_with_the_empty_moves_row_and_column():
    """{2,5|[[0,1],[3,-1]]|-2,-4}: rows L1, L2 and the empty move, columns R1, R2 and the
    empty move; same-round options inside, one-sided options in the empty row and column,
    the game itself in the corner (Figure 3)."""
    rs = ruleset()
    text = "{2,5|[[0,1],[3,-1]]|-2,-4}"
    svg = rs.draw(parse_position(rs, text))
    kinds = [(c.get("data-cell"), c.get("data-kind")) for c in elements(svg, "cell")]
    assert kinds == [
        ("1,1", "same-round"),
        ("1,2", "same-round"),
        ("1,3", "left-option"),
        ("2,1", "same-round"),
        ("2,2", "same-round"),
        ("2,3", "left-option"),
        ("3,1", "right-option"),
        ("3,2", "right-option"),
        ("3,3", "game"),
    ]
    texts = cell_texts(svg)
    assert [texts[f"{r},{c}"] for r in (1, 2, 3) for c in (1, 2, 3)] == [
        "0", "1", "2", "3", "-1", "5", "-2", "-4", "{2,5|[[0,1],[3,-1]]|-2,-4}"[:15] + "...",
    ]  # fmt: skip
    heads = [(h.get("data-cell"), h.get("data-player")) for h in elements(svg, "move")]
    assert heads == [("0,1", "R"), ("0,2", "R"), ("1,0", "L"), ("2,0", "L")]
    assert [texts[cell] for cell, _ in heads] == ["R1", "R2", "L1", "L2"]
    assert len(elements(svg, "same-round-block")) == 1
    assert elements(svg, "summand")[0].text == text


@settings(max_examples=60, deadline=None)
@given(st.lists(games(), min_size=1, max_size=3))
def test_every_cell_shows_its_option_and_every_one_sided_move_is_a_click(parts):
    rs = ruleset()
    position = CRSum(tuple(parts))
    svg = rs.draw(position)
    cells = elements(svg, "cell")
    assert len(cells) == sum((len(g.left) + 1) * (len(g.right) + 1) for g in parts)
    assert len(elements(svg, "move")) == sum(len(g.left) + len(g.right) for g in parts)
    texts = cell_texts(svg)
    offset = 0
    for k, g in enumerate(parts, 1):
        m, n = len(g.left), len(g.right)
        for i, option in enumerate(g.left, 1):
            assert texts[f"{i},{offset + n + 1}"] == format_game(option)
        for j, option in enumerate(g.right, 1):
            assert texts[f"{m + 1},{offset + j}"] == format_game(option)
        for i in range(m):
            for j in range(n if m else 0):
                assert texts[f"{i + 1},{offset + j + 1}"] == format_game(g.table[i][j])
        assert texts[f"{m + 1},{offset + n + 1}"] == shown(format_game(g))
        for player, count in ((Player.LEFT, m), (Player.RIGHT, n)):
            moves = {mv.text: mv for mv in rs.options(position, player)}
            for x in range(1, count + 1):
                head = (x, offset) if player is Player.LEFT else (0, offset + x)
                option = (x, offset + n + 1) if player is Player.LEFT else (m + 1, offset + x)
                for key in (head, option):
                    assert rs.move_at(position, [key], player) == moves[f"{k}.{x}"]
                    assert rs.move_at(position, [key], player.opponent) is None
        same_round = [(i, offset + j) for i in range(1, m + 1) for j in range(1, n + 1)]
        for key in [*same_round, (m + 1, offset + n + 1)]:  # and the game itself: no one move
            assert rs.move_at(position, [key], Player.LEFT) is None
            assert rs.move_at(position, [key], Player.RIGHT) is None
        offset += n + 2


def test_marks_fill_a_move_in_its_players_colour():
    rs = ruleset()
    position = parse_position(rs, "{1|0|-1} + {3|1|-2}")
    svg = rs.draw(position, {(1, 0): Player.LEFT, (0, 4): Player.RIGHT})
    fills = {h.get("data-cell"): h.get("fill") for h in elements(svg, "move")}
    assert fills == {"0,1": "white", "1,0": LEFT_COLOUR, "0,4": RIGHT_COLOUR, "1,3": "white"}


def test_the_explorer_plays_a_clicked_move():
    found = move_at("cheating-robot", "{1|0|-1} + 2", [(1, 3)])
    assert found == {
        "status": "move",
        "move": "2.1",
        "player": "L",
        "position": "{1|0|-1} + 1",
    }
    assert move_at("cheating-robot", "{1|0|-1} + 2", [(2, 1)]) == {
        "status": "move",
        "move": "1.1",
        "player": "R",
        "position": "-1 + 2",
    }
    assert move_at("cheating-robot", "{1|0|-1}", [(1, 1)]) == {"status": "none"}


def test_long_texts_are_cut_and_kept_whole_in_the_tooltip():
    rs = ruleset()
    text = "{" + ",".join(["{3|1|-1}"] * 4) + "|[" + ",".join(["[*]"] * 4) + "]|-9}"
    svg = rs.draw(parse_position(rs, text))
    corner = [c for c in elements(svg, "cell") if c.get("data-kind") == "game"][0]
    assert corner.find(f"{SVG}title").text == text
    assert cell_texts(svg)[corner.get("data-cell")].endswith("...")
