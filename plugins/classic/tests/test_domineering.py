"""Domineering: symmetries, decomposition and small known values."""

from __future__ import annotations

import importlib
import importlib.util

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import Player, solve
from cgframework.values import ZERO, parse_value
from cgframework_classic import domineering
from cgframework_classic.domineering import (
    Board,
    Domineering,
    format_board,
    parse_board,
    symmetric_images,
    transpose,
    trimmed,
)

RULES = Domineering()


@st.composite
def boards(draw):
    h = draw(st.integers(1, 3))
    w = draw(st.integers(1, 4))
    cells = draw(
        st.lists(
            st.sampled_from(".#"),
            min_size=h * w,
            max_size=h * w,
        )
    )
    cells = [c if draw(st.integers(0, 4)) else "#" for c in cells]
    return "|".join("".join(cells[r * w : (r + 1) * w]) for r in range(h))


def value(text: str, method: str = "auto"):
    return solve("domineering", text, method=method).value


@settings(max_examples=80, deadline=None)
@given(boards())
def test_reflections_keep_the_value_and_transposition_negates_it(text):
    """Left plays vertically: reflections keep orientations; transposing swaps the players."""
    board = parse_board(text)
    v = value(text)
    for image in symmetric_images(board):
        assert value(format_board(image)) is v
    assert value(format_board(transpose(board))) is -v


@settings(max_examples=80, deadline=None)
@given(boards())
def test_outcome_search_agrees_with_the_sum_of_component_values(text):
    """The brute-force outcome search (whole board, no values) agrees with the outcome of the
    canonical value computed component by component."""
    v = value(text)
    assert solve("domineering", text, method="outcome").outcome == v.outcome()


def test_small_known_values():
    """Winning Ways ch. 1: a vertical 2-strip is 1 for Left, a horizontal one -1 for Right,
    the 2x2 square is +-1, the 1xn strip is -floor(n/2)."""
    assert value(".|.") is parse_value("1")
    assert value("..") is parse_value("-1")
    assert value("..|..") is parse_value("+-1")
    for n in range(1, 9):
        assert value("." * n) is parse_value(str(-(n // 2)))
    assert value("#") is ZERO and value("...|###|...") is parse_value("-2")


def test_components_are_trimmed_connected_regions():
    parts = RULES.components(parse_board("..#.|..#.|####"))
    assert sorted(format_board(p) for p in parts) == ["..|..", ".|."]


def naive_trim(text: str) -> str:
    """The bounding box of the empty cells, by string slicing (the reference for ``trimmed``)."""
    rows = text.split("|")
    keep = [r for r, row in enumerate(rows) if "." in row]
    if not keep:
        return "#"
    cols = [c for c in range(len(rows[0])) if any(rows[r][c] == "." for r in keep)]
    return "|".join(rows[r][cols[0] : cols[-1] + 1] for r in range(keep[0], keep[-1] + 1))


@settings(max_examples=150, deadline=None)
@given(boards())
def test_trimming_and_keys_by_bit_operations(text):
    """``trimmed`` (mask shifts) matches string slicing; the canonical key is shared exactly by
    the four reflections and is that of the trimmed board."""
    board = parse_board(text)
    assert RULES.format(trimmed(board)) == naive_trim(text)
    key = RULES.canonical_key(board)
    assert {RULES.canonical_key(image) for image in symmetric_images(board)} == {key}
    assert RULES.canonical_key(trimmed(board)) == key
    assert key == min((b.height, b.width, b.empty) for b in symmetric_images(trimmed(board)))


def signed_key(board) -> tuple[int, ...]:
    """The reference for the tokens of ``option_keys``: the smaller canonical key of the board
    and of its transpose, with -1 appended when it is the transpose's."""
    own, other = RULES.canonical_key(board), RULES.canonical_key(transpose(board))
    return own if own <= other else (*other, -1)


def lone(board) -> bool:
    """A single cell: worth 0, left out of ``option_keys``."""
    return board.empty.bit_count() == 1


def end_beaten(board, move) -> bool:
    """The reference for the places ``option_keys`` leaves out (``_end_moves``), on cell
    coordinates: the domino on p, q is beaten by the next one along its line (q, n) when n
    is empty, the cell after n is not, and neither cell beside p across the line is; or by
    the previous one (b, p) when b is empty, the cell before b is not, and neither cell
    beside q is, unless (b, p) is beaten by (p, q) itself."""
    empty = set(board.cells())
    (r, c), q = RULES.move_marks(board, move)
    dr, dc = q[0] - r, q[1] - c

    def at(cell, k):  # k steps along the line
        return (cell[0] + k * dr, cell[1] + k * dc)

    def clear_beside(cell) -> bool:
        return not {(cell[0] + dc, cell[1] + dr), (cell[0] - dc, cell[1] - dr)} & empty

    p = (r, c)
    n, b = at(q, 1), at(p, -1)
    if n in empty and at(n, 1) not in empty and clear_beside(p):
        return True
    back_beaten_by_us = n not in empty and clear_beside(b)
    return b in empty and at(b, -1) not in empty and clear_beside(q) and not back_beaten_by_us


def expected_option_keys(key, player) -> list[list[tuple[int, ...]]]:
    """``option_keys`` by the slow route: the board of ``key``, its options less the beaten
    ones, each option's components (lone cells left out) and their signed keys."""
    board = Board(*key)
    return sorted(
        sorted(signed_key(p) for p in RULES.components(m.result) if not lone(p))
        for m in RULES.options(board, player)
        if not end_beaten(board, m)
    )


@settings(max_examples=150, deadline=None)
@given(boards())
def test_search_on_keys_agrees_with_the_search_on_boards(text):
    """The core's key-only search (``option_keys``, method auto) against the plain recursion
    over ``options`` and ``components`` (method generic): the same value, with no more nodes
    (a transposed component shares its mirror's node); ``option_keys`` itself against the
    components of each option board; and each option it leaves out (``end_beaten``) is
    dominated by one it keeps, by the values of the plain recursion."""
    fast, slow = solve("domineering", text), solve("domineering", text, method="generic")
    assert fast.value is slow.value
    assert fast.stats.nodes <= slow.stats.nodes
    board = parse_board(text)
    for comp in RULES.components(board):
        key = RULES.canonical_key(comp)
        if key[0] == 1:  # a strip: one dominating option (_strip_options), checked by value
            continue
        for player in Player:
            kept, left_out = [], []
            for m in RULES.options(Board(*key), player):
                v = solve("domineering", m.result, method="generic").value
                (left_out if end_beaten(Board(*key), m) else kept).append(v)
            for v in left_out:
                if player is Player.LEFT:
                    assert any(k >= v for k in kept)
                else:
                    assert any(k <= v for k in kept)
            got = sorted(sorted(parts) for parts in RULES.option_keys(key, player))
            assert got == expected_option_keys(key, player)
    for token in {t for comp in RULES.components(board) for t in [signed_key(comp)]}:
        plain = RULES.negated_key(token)
        assert plain is None if len(token) == 3 else plain == token[:3]


@st.composite
def big_boards(draw):
    """Up to 5x6, mostly empty, for checks that do not solve."""
    h, w = draw(st.integers(2, 5)), draw(st.integers(2, 6))
    cells = draw(st.lists(st.sampled_from("....#"), min_size=h * w, max_size=h * w))
    return "|".join("".join(cells[r * w : (r + 1) * w]) for r in range(h))


@settings(max_examples=200, deadline=None)
@given(big_boards())
def test_option_keys_on_larger_boards(text):
    """``option_keys`` (window test for one region, else flood fill; or the kernel) against
    the components of each option board, on boards larger than the domino's window."""
    for comp in RULES.components(parse_board(text)):
        key = RULES.canonical_key(comp)
        if key[0] == 1:  # a strip: one dominating option (_strip_options), checked by value
            continue
        for player in Player:
            got = sorted(sorted(parts) for parts in RULES.option_keys(key, player))
            assert got == expected_option_keys(key, player)


def test_transposed_components_share_a_node():
    """A 2x3 board and its 3x2 transpose: the second solve of their sum finds the mirror's
    node, so the sum costs the nodes of one of them, and the values cancel."""
    one = solve("domineering", "...|...")
    both = solve("domineering", "...|...|###|..#|..#|..#")
    assert both.value is ZERO
    assert both.stats.nodes == one.stats.nodes


KERNEL = importlib.util.find_spec("cgframework_classic._k_domineering")


@st.composite
def masks(draw):
    """A board of up to 72 cells (past the kernel's 64) as (height, width, mask)."""
    h, w = draw(st.integers(1, 9)), draw(st.integers(1, 8))
    density = draw(st.sampled_from([0.3, 0.6, 0.8, 0.95]))
    bits = draw(st.lists(st.floats(0, 1), min_size=h * w, max_size=h * w))
    return h, w, sum(1 << i for i, x in enumerate(bits) if x < density)


@pytest.mark.skipif(KERNEL is None, reason="the compiled kernel is not built")
@settings(max_examples=300, deadline=None)
@given(masks())
def test_kernel_gives_what_the_python_path_gives(board):
    """The compiled ``_k_domineering`` (called directly, whatever CGFRAMEWORK_PURE_PYTHON
    says) against the pure-Python reference: the same option keys for each region of the
    board and each player, in the same order, and the same signed key for any frame and mask;
    None (the caller falls back to Python) for boards past 64 cells or masks not of the
    board."""
    kernel = importlib.import_module("cgframework_classic._k_domineering")
    h, w, mask = board
    if h * w > 64:
        assert kernel.signed_key(h, w, mask) is None
        assert kernel.option_keys(h, w, mask, True) is None
        return
    assert kernel.signed_key(h, w, mask) == domineering._signed_key(h, w, mask)
    assert kernel.option_keys(h, w, mask | 1 << h * w, False) is None
    assert kernel.option_keys(h, w, -1, False) is None
    assert kernel.option_keys(h << 70, w, mask, False) is None
    for comp in RULES.components(Board(h, w, mask)):
        key = RULES.canonical_key(comp)
        if key[0] == 1:  # strips never reach the kernel (_strip_options)
            continue
        for player in Player:
            right = player is Player.RIGHT
            python = domineering.python_option_keys(*key, player)
            assert kernel.option_keys(*key, right) == python
