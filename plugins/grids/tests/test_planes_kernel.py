"""The compiled key searches of ``_k_planes.c`` against the Python paths they stand for.

Fission (rule ``FISSION``, behind ``fission-planes``): its DAG's keys and option lists
against ``Fission.option_keys`` (the bit-plane twin of the string moves), and the values it
leads to against ``FissionBoards``' Python search.

Konane (rule ``KONANE``, behind ``Konane.key_values``): its DAG against
``Konane.option_keys``, and its values against the core's key search over ``option_keys``
(the kernel switched off) and the plain recursion over ``options`` (``--method generic``).

``fold`` (behind both rulesets' ``search_key``) against ``least_image`` and
``signed_least_image``."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import (
    Player,
    SolveContext,
    components,
    format_position,
    get_registry,
    solve,
)
from cgframework.runtime.budget import SearchStopped
from cgframework.testing import run_cli
from cgframework.values import ZERO, game, parse_value
from cgframework_grids.fission import FissionBoards
from cgframework_grids.grid import Grid
from cgframework_grids.nibbles import (
    FISSION,
    KONANE,
    PLANES,
    least_image,
    signed_least_image,
    symmetries,
    to_nibbles,
)

pytestmark = pytest.mark.skipif(PLANES is None, reason="the _k_planes kernel is not built")
FISSION_RULES = get_registry().ruleset("fission")
KONANE_RULES = get_registry().ruleset("konane")


def region_keys(rules, board: Grid) -> list[tuple[int, ...]]:
    """The search keys of the board's regions (as the searches meet them)."""
    return [rules.search_key(part) for part in components(rules, board)]


def check_dag(rules, rule: int, h: int, w: int, key: int) -> None:
    """Every key the kernel lists has exactly ``option_keys``' options, in post-order
    (an odd code is a negated key: only Fission, whose transposes swap the players)."""
    keys, lefts, rights = PLANES.search(rule, h, w, key, symmetries(h, w), 10**6)
    assert keys[-1] == key and len(set(keys)) == len(keys)
    # the symmetries the kernel makes itself (perms None, as a solve asks) are the same
    assert PLANES.search(rule, h, w, key, None, 10**6) == (keys, lefts, rights)
    negates = rule == FISSION
    for k, (board_k, left, right) in enumerate(zip(keys, lefts, rights, strict=True)):
        for player, codes in ((Player.LEFT, left), (Player.RIGHT, right)):
            assert all(c < 2 * (k + 1) for c in codes)  # options come first
            assert negates or all(c % 2 == 0 for c in codes)  # none negated
            decoded = [
                () if c == 0 else ((h, w, keys[c // 2 - 1]) + ((-1,) if c % 2 else ()),)
                for c in codes
            ]
            assert sorted(decoded) == sorted(rules.option_keys((h, w, board_k), player))


# ---- Fission ------------------------------------------------------------------------------


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


@settings(max_examples=150, deadline=None)
@given(fission_boards(5))
def test_fission_dag_is_the_option_keys_closure(board):
    """Every key the kernel lists has exactly ``option_keys``' options, in post-order."""
    for h, w, key, *_ in region_keys(FISSION_RULES, board):
        check_dag(FISSION_RULES, FISSION, h, w, key)


@settings(max_examples=100, deadline=None)
@given(fission_boards(5))
def test_fission_values_equal_the_python_search(board):
    for h, w, key, *_ in region_keys(FISSION_RULES, board):
        _check_values(h, w, key)


def _check_values(h: int, w: int, key: int) -> None:
    fast = FissionBoards(h, w, SolveContext(), PLANES)
    slow = FissionBoards(h, w, SolveContext(), None)
    assert fast.key_value(key) is slow.key_value(key)
    assert fast.ctx.table.nodes == slow.ctx.table.nodes  # one node a key, both ways
    assert all(value is slow.folded[k] for k, value in fast.folded.items())


def test_fission_kernel_declines_what_it_does_not_model():
    """None (the Python search runs): past the cap, over 64 cells, a letter not Fission's."""
    perms = symmetries(4, 4)
    ((h, w, key, *_),) = region_keys(
        FISSION_RULES, Grid(4, 4, ".x..|....|..x.|....".replace("|", ""))
    )
    assert PLANES.search(FISSION, h, w, key, perms, 3) is None
    assert PLANES.search(FISSION, h, w, key, perms, 10**6) is not None
    assert PLANES.search(KONANE, h, w, key, perms, 10**6) is not None  # (no o: no moves)
    assert PLANES.search(FISSION, h, w, key | 4, perms, 10**6) is None  # an 'o' nibble
    assert PLANES.search(FISSION, h, w, key | 8, perms, 10**6) is None  # no letter at all
    assert PLANES.search(FISSION, h, w, key | 1 << 64, perms, 10**6) is None  # past h * w
    assert PLANES.search(FISSION, 5, 13, 1, symmetries(5, 13), 10) is None  # 65 cells
    assert PLANES.search(2, h, w, key, perms, 10**6) is None  # a rule it does not know
    fallback = FissionBoards(h, w, SolveContext(), PLANES)
    assert not fallback.from_kernel(_Declining(), key)


class _Declining:
    @staticmethod
    def values(*args):
        return None


def test_budget_stops_the_fission_kernel_pass():
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
def test_fission_values_equal_the_python_search_on_larger_boards(text):
    """Boards big enough that dropping options by wrong stops would show (random small
    boards seldom have options that only the stops tell apart)."""
    (part,) = components(FISSION_RULES, FISSION_RULES.parse(text))
    _check_values(*FISSION_RULES.search_key(part)[:3])


# ---- Konane -------------------------------------------------------------------------------
@st.composite
def konane_boards(draw, most=5):
    """A board of up to ``most`` x ``most`` cells, square half the time: a few stones of
    each colour on empty cells (sparse, long jumps) or any letters (crowded, chains)."""
    h = draw(st.integers(1, most))
    w = draw(st.sampled_from([h, draw(st.integers(1, most))]))
    n = h * w
    if draw(st.booleans()):
        cells = ["."] * n
        for letter, count in (("x", 5), ("o", 5), ("#", 2)):
            for i in draw(st.lists(st.integers(0, n - 1), max_size=count)):
                cells[i] = letter
        return Grid(h, w, "".join(cells))
    return Grid(h, w, draw(st.text(alphabet="xxoo.#", min_size=n, max_size=n)))


@settings(max_examples=200, deadline=None)
@given(konane_boards())
def test_konane_dag_is_the_option_keys_closure(board):
    """Every key the kernel lists has exactly ``option_keys``' options, in post-order."""
    for h, w, key in region_keys(KONANE_RULES, board):
        check_dag(KONANE_RULES, KONANE, h, w, key)


def without_kernel(text: str, **kwargs):
    """``solve`` with the kernel switched off: the core's key search over ``option_keys``."""
    KONANE_RULES.kernel = None  # (shadows the class attribute)
    try:
        return solve(KONANE_RULES, text, **kwargs)
    finally:
        del KONANE_RULES.kernel


@settings(max_examples=150, deadline=None)
@given(konane_boards())
def test_konane_values_equal_the_key_search(board):
    text = format_position(KONANE_RULES, board)
    fast = solve(KONANE_RULES, text)
    slow = without_kernel(text)
    assert fast.value is slow.value
    assert fast.best_moves == slow.best_moves
    if len(region_keys(KONANE_RULES, board)) == 1:
        assert fast.stats.nodes == slow.stats.nodes  # one node a key, both ways
    if len(board.cells) <= 12:
        assert solve(KONANE_RULES, text, method="generic").value is fast.value


@pytest.mark.parametrize(
    "text",
    [
        "xoxox|o.ox.|xoxox|oxoxo",  # the crowded benchmark board: 15,223 keys
        "xox..|oxo..|xox..|.....|.....",  # a sparse square one: transposes folded
        "xoxo|oxox|....|....|....|....",
    ],
)
def test_konane_values_equal_the_key_search_on_benchmark_boards(text):
    fast, slow = solve(KONANE_RULES, text), without_kernel(text)
    assert (fast.value, fast.best_moves, fast.stats.nodes) == (
        slow.value,
        slow.best_moves,
        slow.stats.nodes,
    )
    assert fast.value is slow.value


def test_konane_kernel_declines_past_64_cells_and_the_key_search_runs():
    """A row of 70 cells does not fit the kernel's masks: ``key_values`` gives None and the
    core's search values it (two stones at each end: xo. jumps once, .ox too)."""
    text = "xo." + "." * 62 + "xo.ox"
    ((h, w, key),) = region_keys(KONANE_RULES, KONANE_RULES.parse(text))
    assert PLANES.search(KONANE, h, w, key, symmetries(h, w), 10**6) is None
    assert KONANE_RULES.key_values((h, w, key), SolveContext()) is None
    assert solve(KONANE_RULES, text).value is solve(KONANE_RULES, text, method="generic").value


def test_budget_stops_the_konane_kernel_pass():
    """The kernel charges each key valued to the search budget: a node limit stops it."""
    with pytest.raises(SearchStopped):
        solve(KONANE_RULES, "xoxox|o.ox.|xoxox|oxoxo", max_nodes=1000)


def test_a_node_limit_caps_the_kernel_search():
    """With ``--max-nodes`` the kernel may find only the keys the budget has left (then it
    declines, and the key search stops at the limit), not the whole DAG first."""
    caps = []

    class Recording:
        @staticmethod
        def values(rule, h, w, board, perms, cap, *rest):
            caps.append(cap)
            return PLANES.values(rule, h, w, board, perms, cap, *rest)

    KONANE_RULES.kernel = Recording
    try:
        with pytest.raises(SearchStopped):
            solve(KONANE_RULES, "xoxox|o.ox.|xoxox|oxoxo", max_nodes=1000)
        assert solve(
            KONANE_RULES, "xoxox|o.ox.|xoxox|oxoxo", max_nodes=20_000
        ).value is parse_value("-1/2")
    finally:
        del KONANE_RULES.kernel
    assert caps == [1001, 20_001]


def test_the_kernel_search_asks_for_the_deadline():
    """The C search phase calls ``charge(0)`` every 65,536 keys found (``kernel_values``
    checks the deadline there): an exception from it stops the search at once."""
    ((h, w, key),) = region_keys(
        KONANE_RULES, KONANE_RULES.parse("xoxoxo|oxoxox|xo.oxo|oxo.ox|xoxoxo|oxoxox")
    )
    calls = []

    def charge(count: int) -> None:
        calls.append(count)
        raise SearchStopped("deadline")

    with pytest.raises(SearchStopped, match="deadline"):
        PLANES.values(KONANE, h, w, key, symmetries(h, w), 10**7, game, ZERO, charge)
    assert calls == [0]


def test_a_store_keeps_what_the_kernel_found(capsys, tmp_path):
    """With ``--store`` the kernel's values (a key and its options' keys) are stored as the
    key search's are: a later solve of a part of the sum finds it there (0 nodes)."""
    store = str(tmp_path / "values.db")

    def solved(text: str) -> dict:
        code, out, err = run_cli(capsys, "solve", "konane", text, "--store", store, "--json")
        assert code == 0, err
        return json.loads(out)

    first = solved("xoxox|o.ox.|xoxox|oxoxo + xoxo|o.ox|xoxo|oxo.")
    again = solved("xoxox|o.ox.|xoxox|oxoxo")
    assert (first["value"], first["stats"]["nodes"] > 15_000) == ("1/2", True)
    assert (again["value"], again["stats"]["nodes"]) == ("-1/2", 0)


@st.composite
def letter_boards(draw):
    h, w = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    return h, w, "".join(draw(st.lists(st.sampled_from("#.xo"), min_size=h * w, max_size=h * w)))


@settings(max_examples=400, deadline=None)
@given(letter_boards())
def test_fold_is_the_least_image(board):
    """The kernel's fold of a board of letters is the Python twins' key of its nibble board:
    the least of the eight images (a square, or the flatter of board and transpose), and with
    ``negates`` the least of the four that keep rows rows, its transpose's marked -1."""
    h, w, cells = board
    if h * w > 64:
        assert PLANES.fold(h, w, cells, False) is None  # (the Python twin decides)
        return
    nibbles = to_nibbles(cells)
    assert PLANES.fold(h, w, cells, False) == least_image(h, w, nibbles)
    assert PLANES.fold(h, w, cells, True) == signed_least_image(h, w, nibbles)


def test_fold_declines_what_it_does_not_model():
    assert PLANES.fold(2, 2, "..a.", False) is None  # a letter of no ruleset here
    assert PLANES.fold(2, 2, "...", False) is None  # cells and shape disagree
    assert PLANES.fold(0, 0, "", False) is None
    assert KONANE_RULES.search_key(Grid(3, 3, "x.o" * 3)) == least_image(
        3, 3, to_nibbles("x.o" * 3)
    )
