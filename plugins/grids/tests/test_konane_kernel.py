"""The compiled Konane search (``_k_planes.c``, rule ``KONANE``, behind ``Konane.key_values``)
against the Python paths it stands for: its DAG's keys and option lists against
``Konane.option_keys``, and its values against the core's key search over ``option_keys``
(the kernel switched off) and the plain recursion over ``options`` (``--method generic``)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import Player, SolveContext, components, get_registry, solve
from cgframework.budget import SearchStopped
from cgframework.testing import run_cli
from cgframework.values import ZERO, game, parse_value
from cgframework_grids.grid import Grid
from cgframework_grids.nibbles import KONANE, PLANES, symmetries

pytestmark = pytest.mark.skipif(PLANES is None, reason="the Konane kernel is not built")
RULES = get_registry().ruleset("konane")


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


def region_keys(board: Grid) -> list[tuple[int, int, int]]:
    """The search keys of the board's regions (as the core's key search meets them)."""
    return [RULES.search_key(part) for part in components(RULES, board)]


@settings(max_examples=200, deadline=None)
@given(konane_boards())
def test_kernel_dag_is_the_option_keys_closure(board):
    """Every key the kernel lists has exactly ``option_keys``' options, in post-order."""
    for h, w, key in region_keys(board):
        keys, lefts, rights = PLANES.search(KONANE, h, w, key, symmetries(h, w), 10**6)
        assert keys[-1] == key and len(set(keys)) == len(keys)
        for k, (board_k, left, right) in enumerate(zip(keys, lefts, rights, strict=True)):
            for player, codes in ((Player.LEFT, left), (Player.RIGHT, right)):
                assert all(c < 2 * (k + 1) and c % 2 == 0 for c in codes)  # none negated
                decoded = [() if c == 0 else ((h, w, keys[c // 2 - 1]),) for c in codes]
                assert sorted(decoded) == sorted(RULES.option_keys((h, w, board_k), player))


def without_kernel(text: str, **kwargs):
    """``solve`` with the kernel switched off: the core's key search over ``option_keys``."""
    RULES.kernel = None  # (shadows the class attribute)
    try:
        return solve(RULES, text, **kwargs)
    finally:
        del RULES.kernel


@settings(max_examples=150, deadline=None)
@given(konane_boards())
def test_kernel_values_equal_the_key_search(board):
    text = "|".join(
        board.cells[r * board.width : (r + 1) * board.width] for r in range(board.height)
    )
    fast = solve(RULES, text)
    slow = without_kernel(text)
    assert fast.value is slow.value
    assert fast.best_moves == slow.best_moves
    if len(region_keys(board)) == 1:
        assert fast.stats.nodes == slow.stats.nodes  # one node a key, both ways
    if len(board.cells) <= 12:
        assert solve(RULES, text, method="generic").value is fast.value


@pytest.mark.parametrize(
    "text",
    [
        "xoxox|o.ox.|xoxox|oxoxo",  # the crowded benchmark board: 15,223 keys
        "xox..|oxo..|xox..|.....|.....",  # a sparse square one: transposes folded
        "xoxo|oxox|....|....|....|....",
    ],
)
def test_kernel_values_equal_the_key_search_on_benchmark_boards(text):
    fast, slow = solve(RULES, text), without_kernel(text)
    assert (fast.value, fast.best_moves, fast.stats.nodes) == (
        slow.value,
        slow.best_moves,
        slow.stats.nodes,
    )
    assert fast.value is slow.value


def test_kernel_declines_past_64_cells_and_the_key_search_runs():
    """A row of 70 cells does not fit the kernel's masks: ``key_values`` gives None and the
    core's search values it (two stones at each end: xo. jumps once, .ox too)."""
    text = "xo." + "." * 62 + "xo.ox"
    ((h, w, key),) = region_keys(RULES.parse(text))
    assert PLANES.search(KONANE, h, w, key, symmetries(h, w), 10**6) is None
    assert RULES.key_values((h, w, key), SolveContext()) is None
    assert solve(RULES, text).value is solve(RULES, text, method="generic").value


def test_budget_stops_the_kernel_pass():
    """The kernel charges each key valued to the search budget: a node limit stops it."""
    with pytest.raises(SearchStopped):
        solve(RULES, "xoxox|o.ox.|xoxox|oxoxo", max_nodes=1000)


def test_a_node_limit_caps_the_kernel_search():
    """With ``--max-nodes`` the kernel may find only the keys the budget has left (then it
    declines, and the key search stops at the limit), not the whole DAG first."""
    caps = []

    class Recording:
        @staticmethod
        def values(rule, h, w, board, perms, cap, *rest):
            caps.append(cap)
            return PLANES.values(rule, h, w, board, perms, cap, *rest)

    RULES.kernel = Recording
    try:
        with pytest.raises(SearchStopped):
            solve(RULES, "xoxox|o.ox.|xoxox|oxoxo", max_nodes=1000)
        assert solve(RULES, "xoxox|o.ox.|xoxox|oxoxo", max_nodes=20_000).value is parse_value(
            "-1/2"
        )
    finally:
        del RULES.kernel
    assert caps == [1001, 20_001]


def test_the_kernel_search_asks_for_the_deadline():
    """The C search phase calls ``charge(0)`` every 65,536 keys found (``kernel_values``
    checks the deadline there): an exception from it stops the search at once."""
    ((h, w, key),) = region_keys(RULES.parse("xoxoxo|oxoxox|xo.oxo|oxo.ox|xoxoxo|oxoxox"))
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
