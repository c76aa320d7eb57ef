"""The compiled Fission search (``_k_planes.c``, rule ``FISSION``) against the Python paths
it stands for: its DAG's keys and option lists against ``Fission.option_keys`` (the
bit-plane twin of the string moves), and the values it leads to against ``FissionBoards``'
Python search."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import Player, SolveContext, components, get_registry, solve
from cgframework.budget import SearchStopped
from cgframework.compiled import load_kernel
from cgframework_grids.fission import FissionBoards
from cgframework_grids.grid import Grid
from cgframework_grids.nibbles import FISSION, KONANE, symmetries

KERNEL = load_kernel("cgframework_grids._k_planes")
pytestmark = pytest.mark.skipif(KERNEL is None, reason="the Fission kernel is not built")
RULES = get_registry().ruleset("fission")


@st.composite
def fission_boards(draw, most=4):
    """A board of up to ``most`` x ``most`` cells, square half the time, a few stones and
    blocked cells on empty ones (long games; two stones at most past 16 cells, to keep the
    Python search under a second), or any letters."""
    h = draw(st.integers(1, most))
    w = draw(st.sampled_from([h, draw(st.integers(1, most))]))
    if draw(st.booleans()):
        cells = ["."] * (h * w)
        for letter, count in (("x", 3 if h * w <= 16 else 2), ("#", 2)):
            for i in draw(st.lists(st.integers(0, h * w - 1), max_size=count)):
                cells[i] = letter
        return Grid(h, w, "".join(cells))
    return Grid(h, w, draw(st.text(alphabet="x..#", min_size=h * w, max_size=h * w)))


def region_keys(board: Grid) -> list[tuple[int, ...]]:
    """The search keys of the board's regions (as ``fission-planes`` meets them)."""
    return [RULES.search_key(part) for part in components(RULES, board)]


@settings(max_examples=150, deadline=None)
@given(fission_boards(5))
def test_kernel_dag_is_the_option_keys_closure(board):
    """Every key the kernel lists has exactly ``option_keys``' options, in post-order."""
    for h, w, key, *_ in region_keys(board):
        _check_dag(h, w, key)


def _check_dag(h: int, w: int, key: int) -> None:
    keys, lefts, rights = KERNEL.search(FISSION, h, w, key, symmetries(h, w), 10**6)
    assert keys[-1] == key and len(set(keys)) == len(keys)
    for k, (board_k, left, right) in enumerate(zip(keys, lefts, rights, strict=True)):
        for player, codes in ((Player.LEFT, left), (Player.RIGHT, right)):
            assert all(c < 2 * (k + 1) for c in codes)  # options come first
            decoded = [
                () if c == 0 else ((h, w, keys[c // 2 - 1]) + ((-1,) if c % 2 else ()),)
                for c in codes
            ]
            assert sorted(decoded) == sorted(RULES.option_keys((h, w, board_k), player))


@settings(max_examples=100, deadline=None)
@given(fission_boards(5))
def test_kernel_values_equal_the_python_search(board):
    for h, w, key, *_ in region_keys(board):
        _check_values(h, w, key)


def _check_values(h: int, w: int, key: int) -> None:
    fast = FissionBoards(h, w, SolveContext(), KERNEL)
    slow = FissionBoards(h, w, SolveContext(), None)
    assert fast.key_value(key) is slow.key_value(key)
    assert fast.ctx.table.nodes == slow.ctx.table.nodes  # one node a key, both ways
    assert all(value is slow.folded[k] for k, value in fast.folded.items())


def test_kernel_declines_what_it_does_not_model():
    """None (the Python search runs): past the cap, over 64 cells, a letter not Fission's."""
    perms = symmetries(4, 4)
    ((h, w, key, *_),) = region_keys(Grid(4, 4, ".x..|....|..x.|....".replace("|", "")))
    assert KERNEL.search(FISSION, h, w, key, perms, 3) is None
    assert KERNEL.search(FISSION, h, w, key, perms, 10**6) is not None
    assert KERNEL.search(KONANE, h, w, key, perms, 10**6) is not None  # (no o: no moves)
    assert KERNEL.search(FISSION, h, w, key | 4, perms, 10**6) is None  # an 'o' nibble
    assert KERNEL.search(FISSION, h, w, key | 8, perms, 10**6) is None  # no letter at all
    assert KERNEL.search(FISSION, h, w, key | 1 << 64, perms, 10**6) is None  # past h * w
    assert KERNEL.search(FISSION, 5, 13, 1, symmetries(5, 13), 10) is None  # 65 cells
    assert KERNEL.search(2, h, w, key, perms, 10**6) is None  # a rule it does not know
    fallback = FissionBoards(h, w, SolveContext(), KERNEL)
    assert not fallback.from_kernel(_Declining(), key)


class _Declining:
    @staticmethod
    def values(*args):
        return None


def test_budget_stops_the_kernel_pass():
    """The kernel charges each key valued to the search budget: a node limit stops it."""
    with pytest.raises(SearchStopped):
        solve("fission", "....|.x..|....|..x.|....|....", max_nodes=1000)
    assert solve("fission", "....|.x..|....|..x.|....|....").method == "fission-planes"


@pytest.mark.parametrize(
    "text",
    [
        "....|.x..|....|..x.|....|....",  # the 6 x 4 benchmark board: 39,489 keys
        ".....|.x...|...x.|.....|.....",  # a square one: transposes negated
    ],
)
def test_kernel_values_equal_the_python_search_on_larger_boards(text):
    """Boards big enough that dropping options by wrong stops would show (random small
    boards seldom have options that only the stops tell apart)."""
    (part,) = components(RULES, RULES.parse(text))
    _check_values(*RULES.search_key(part)[:3])
