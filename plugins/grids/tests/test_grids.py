"""Grid rulesets: symmetric images keep (or negate) values, the option_keys search agrees
with the plain generic recursion, generators, and bad positions (one line, exit 2)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import Player, get_registry, solve
from cgframework.testing import run_cli
from cgframework.values import ZERO
from cgframework_grids.grid import Grid, all_images, format_grid, images, transposed, trim

LETTERS = {
    "clobber": "xo.",
    "konane": "xo.#",
    "cram": ".#",
    "fission": "x..#",
    "amazons": "xo...#",
}


@st.composite
def boards(draw, ruleset, rows=3, cols=4):
    h = draw(st.integers(1, rows))
    w = draw(st.integers(1, cols))
    cells = draw(st.text(alphabet=LETTERS[ruleset], min_size=h * w, max_size=h * w))
    return Grid(h, w, cells)


def value(ruleset, text, method="auto"):
    return solve(ruleset, text, method=method).value


@pytest.mark.parametrize("ruleset", ["clobber", "konane", "cram", "amazons"])
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_all_eight_symmetries_keep_the_value(ruleset, data):
    """Both players move alike in every direction: every image has the same value."""
    board = data.draw(boards(ruleset, 3, 3 if ruleset == "amazons" else 4))
    v = value(ruleset, format_grid(board))
    for image in all_images(board.height, board.width, board.cells):
        assert value(ruleset, format_grid(Grid(*image))) is v


@settings(max_examples=40, deadline=None)
@given(boards("fission"))
def test_fission_reflections_keep_the_value_and_transposing_negates_it(board):
    v = value("fission", format_grid(board))
    for image in images(board.height, board.width, board.cells):
        assert value("fission", format_grid(Grid(*image))) is v
    assert (
        value("fission", format_grid(Grid(*transposed(board.height, board.width, board.cells))))
        is -v
    )


@pytest.mark.parametrize("ruleset", ["clobber", "konane", "cram", "fission", "amazons"])
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_key_search_agrees_with_the_generic_recursion(ruleset, data):
    """The option_keys fast path (components, symmetric keys) against ``--method generic``
    (the plain recursion over ``options``, whole positions, no keys folded)."""
    board = data.draw(boards(ruleset, 2 if ruleset == "amazons" else 3, 3))
    text = format_grid(board)
    assert value(ruleset, text, "canonical") is value(ruleset, text, "generic")


@settings(max_examples=120, deadline=None)
@given(
    st.integers(1, 4),
    st.integers(1, 4),
    st.sampled_from([Player.LEFT, Player.RIGHT]),
    st.data(),
)
def test_fission_planes_agrees_with_the_generic_search(h, w, first, data):
    """``fission-planes`` (images xor-ed along each split, squares' transposes negated)
    against ``--method generic``: value and winning moves, sums of two boards too."""
    w = data.draw(st.sampled_from([h, w]))  # squares half the time: transposes folded
    cells = ["."] * (h * w)  # a few stones and blocked cells on an empty board: long games
    for letter, most in (("x", 3), ("#", 2)):
        for i in data.draw(st.lists(st.integers(0, h * w - 1), max_size=most)):
            cells[i] = letter
    text = format_grid(Grid(h, w, "".join(cells)))
    if data.draw(st.booleans()):
        text += " + " + format_grid(data.draw(boards("fission", 2, 3)))
    fast = solve("fission", text, method="fission-planes", first=first)
    slow = solve("fission", text, method="generic", first=first)
    assert fast.value is slow.value
    assert fast.best_moves == slow.best_moves
    assert solve("fission", text, first=first).method == "fission-planes"


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet="TF..", min_size=1, max_size=9))
def test_toads_and_frogs_search_and_mirror(text):
    """Key search = generic recursion; reversing and swapping toads and frogs negates."""
    v = value("toads-frogs", text)
    assert v is value("toads-frogs", text, "generic")
    mirror = text[::-1].translate(str.maketrans("TF", "FT"))
    assert value("toads-frogs", mirror) is -v


def test_known_small_values():
    # Winning Ways ch. 1: a toad with one free square is 1; T.F = * (the tutorial's check)
    assert str(value("toads-frogs", "T.")) == "1"
    assert str(value("toads-frogs", "T.F")) == "*"
    assert str(value("clobber", "xo")) == "*"  # pycgt's doc string and Lessons in Play
    assert str(value("clobber", "xxo")) == "^"
    assert value("cram", "rect:2x2") == ZERO  # even x even: the mirror strategy (WW)
    assert value("clobber", "xxx|...|ooo") == ZERO  # groups of one colour cannot move


def test_generators():
    rules = get_registry().ruleset("clobber")
    assert rules.format(rules.parse("checker:2x3")) == "xox|oxo"
    assert (
        get_registry().ruleset("cram").format(get_registry().ruleset("cram").parse("rect:1x3"))
        == "..."
    )
    assert str(value("cram", "rect:1x2")) == "*"


@pytest.mark.parametrize(
    "ruleset,text,where",
    [
        ("clobber", "xq|o.", "'q'"),
        ("clobber", "xo|o", "row 2"),
        ("konane", "xo||ox", "row 2"),
        ("cram", "x.", "'x'"),
        ("fission", "o..", "'o'"),
        ("amazons", "rect:0x3", "cells"),
        ("cram", "checker:2x2", "checker"),
        ("amazons", "rect:99x99", "cells"),
        ("toads-frogs", "TXF", "column 2"),
        ("hackenbush", "BQR", "column 2"),
        ("hackenbush", "0-1:B,1-:R", "edge 2"),
        ("hackenbush", '{"edges": [[0, 1]]}', "edge 1"),
        ("snort", "0-0", "loop"),
        ("col", "path:3;tints=LL", "tints"),
        ("snort", "cycle:2", "cycle"),
        ("col", '{"n": 2, "edges": [[0, 5]]}', "edge"),
        ("snort", "0-1,a-b", "edge 2"),
    ],
)
def test_bad_positions_are_one_line_exit_2(capsys, ruleset, text, where):
    code, out, err = run_cli(capsys, "solve", ruleset, text)
    assert code == 2 and not out
    assert err.count("\n") == 1 and where in err, err


def test_demo_examples_solve():
    registry = get_registry()
    for name in (
        "clobber",
        "konane",
        "cram",
        "fission",
        "amazons",
        "toads-frogs",
        "hackenbush",
        "snort",
        "col",
    ):
        rules = registry.ruleset(name)
        assert registry.plugin_of(name) == "grids"
        for text in rules.examples()[:2]:
            solve(rules, text)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 11), min_size=1, max_size=3), st.booleans())
def test_cram_strips_are_dawsons_kayles(lengths, vertical):
    """The cram-strips solver (Dawson's Kayles heaps) against the generic recursion."""
    texts = ["." * n if not vertical else "|".join("." * n) for n in lengths]
    text = " + ".join(texts)
    closed = solve("cram", text)
    assert closed.method == "cram-strips"
    assert closed.value is value("cram", text, "generic")


def test_every_family_generates_solvable_positions_from_zero():
    registry = get_registry()
    families = [f for (r, _), f in registry.families.items() if registry.plugin_of(r) == "grids"]
    assert len(families) >= 10
    for family in families:
        for _, text in family.members(0, 3):
            solve(family.ruleset, text)


@settings(max_examples=40, deadline=None)
@given(boards("cram", 3, 4))
def test_cram_grundy_key_search_agrees_with_the_generic_grundy_solver(board):
    text = format_grid(board)
    fast = solve("cram", text, method="grundy-keys")
    slow = solve("cram", text, method="generic")
    assert fast.grundy == slow.grundy and set(fast.best_moves) == set(slow.best_moves)


@settings(max_examples=40, deadline=None)
@given(boards("clobber", 3, 4))
def test_every_clobber_value_is_all_small(board):
    """Clobber is all-small (Siegel CGT II.7; Albert et al., Lessons in Play ch. 9): a player
    can move exactly when the other can (a move needs an x next to an o), in every
    subposition. So every value has an atomic weight, and the solver's --json gives it."""
    from cgframework.values import atomic_weight, is_all_small

    g = value("clobber", format_grid(board))
    assert is_all_small(g)
    atomic_weight(g)  # defined (an all-small game), never refused


def _fast_matches_slow(ruleset, grid):
    """``option_keys`` on each component's key = the keys of the components of each of
    ``options``' positions (the slow twin), for both players."""
    rules = get_registry().ruleset(ruleset)
    for part in rules.components(grid):
        key = rules.search_key(part)
        if rules.negated_key(key) is not None:  # the transpose's key: minus its value
            key = rules.negated_key(key)
            part = Grid(*transposed(part.height, part.width, part.cells))
        for player in (Player.LEFT, Player.RIGHT):
            fast = sorted(tuple(sorted(parts)) for parts in rules.option_keys(key, player))
            slow = sorted(
                tuple(sorted(rules.search_key(c) for c in rules.components(m.result)))
                for m in rules.options(part, player)
            )
            assert fast == slow, (format_grid(part), player)


@pytest.mark.parametrize("ruleset", ["konane", "fission"])
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_bit_plane_option_keys_match_the_generic_options(ruleset, data):
    """Konane's and Fission's ``option_keys`` (moves found on nibble bit planes) against
    their slow twins on random boards up to 5 x 5."""
    h, w = data.draw(st.integers(1, 5)), data.draw(st.integers(1, 5))
    alphabet = {"konane": "xoxo.x.o#", "fission": "x..#"}[ruleset]  # crowded for Konane
    cells = data.draw(st.text(alphabet=alphabet, min_size=h * w, max_size=h * w))
    _fast_matches_slow(ruleset, Grid(h, w, cells))


@pytest.mark.parametrize(
    "text",
    ["xo.o.o.", "o.o.ox", ".x.|.o.|.x.|.o.|...", ".o.o.o.ox", "o.oxo|.o.ox|ox..o|xoxox"],
)
def test_konane_multi_jumps_match_the_generic_options(text):
    """Jumps on in every direction (random boards seldom line up three of them)."""
    rules = get_registry().ruleset("konane")
    _fast_matches_slow("konane", rules.parse(text))


def _regions_by_flood_fill(rules, grid):
    """The trimmed live regions of a board, cell by cell: a plain flood fill from each cell
    of ``solid`` letters not yet reached (lowest first), the others blanked with ``fill``."""
    h, w, s = grid.height, grid.width, grid.cells
    steps = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    if rules.diagonal:
        steps += [(-1, -1), (-1, 1), (1, -1), (1, 1)]
    seen: set[int] = set()
    out = []
    for start in range(h * w):
        if s[start] not in rules.solid or start in seen:
            continue
        region, todo = {start}, [start]
        while todo:
            r, c = divmod(todo.pop(), w)
            for dr, dc in steps:
                rr, cc = r + dr, c + dc
                j = rr * w + cc
                if 0 <= rr < h and 0 <= cc < w and s[j] in rules.solid and j not in region:
                    region.add(j)
                    todo.append(j)
        seen |= region
        cells = "".join(ch if i in region else rules.fill for i, ch in enumerate(s))
        part = trim(h, w, cells, rules.fill)
        if rules.live(part[2]):
            out.append(part)
    return out


@pytest.mark.parametrize("ruleset", ["clobber", "konane", "cram", "amazons", "fission"])
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_regions_are_those_of_a_flood_fill(ruleset, data):
    """The regions found on bit masks (each region's cells kept by a mask of bytes) are the
    regions a plain flood fill finds, in the same order."""
    rules = get_registry().ruleset(ruleset)
    grid = data.draw(boards(ruleset, 5, 6))
    assert rules._regions(grid.height, grid.width, grid.cells) == _regions_by_flood_fill(
        rules, grid
    )
