"""The compiled who-wins search of Clobber sums (``_k_masks.c``'s ``wins``, reached through
the core outcome search's ``compiled_outcome_search`` hook) against the reference: the core's
Python search on the same tokens and the canonical-value route, on random boards and sums;
each of its outcome rules switched off in turn; its limits; the Python path without it."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cgframework import solve
from cgframework.extensions import SolveContext
from cgframework.game import Outcome, Player, parse_position
from cgframework.plugins import get_registry
from cgframework.proofs import build_certificate
from cgframework.runtime.budget import SearchBudget, SearchStopped
from cgframework.runtime.cache import TranspositionTable
from cgframework.solvers.outcome_search import OutcomeSearch
from cgframework.testing import run_cli
from cgframework_grids import mask_keys

KERNEL = mask_keys.KERNEL
CLOBBER = get_registry().ruleset("clobber")

needs_kernel = pytest.mark.skipif(KERNEL is None, reason="the _k_masks kernel is not built")

ALL_RULES = 63
"""The kernel's rule bits: 1 drop P components, 2 the static outcome rules, 4 drop a
component good for the mover, 8 a small component by its value's representative, 16 two
small components by a representative of their sum, 32 small components by their canonical
values, summed."""


@st.composite
def boards(draw: st.DrawFn, max_cells: int = 12) -> str:
    """A random Clobber board (rows joined by ``|``): a strip or a rectangle."""
    if draw(st.booleans()):
        h, w = 1, draw(st.integers(1, 14))
    else:
        h = draw(st.integers(2, 4))
        w = draw(st.integers(1, max_cells // h))
    cells = draw(st.lists(st.sampled_from("xxoo."), min_size=h * w, max_size=h * w))
    return "|".join("".join(cells[r * w : (r + 1) * w]) for r in range(h))


@st.composite
def full_boards(draw: st.DrawFn) -> str:
    """A random Clobber rectangle of 8 to 12 stones and no empty cell (its search meets
    hundreds of components)."""
    h, w = draw(st.sampled_from(((2, 4), (2, 5), (2, 6), (3, 3), (3, 4))))
    cells = draw(st.lists(st.sampled_from("xo"), min_size=h * w, max_size=h * w))
    return "|".join("".join(cells[r * w : (r + 1) * w]) for r in range(h))


def outcome_of(search: OutcomeSearch, text: str) -> Outcome:
    return search.outcome(parse_position(CLOBBER, text))


def canonical_outcome(text: str) -> Outcome:
    value = solve(CLOBBER, parse_position(CLOBBER, text)).value
    return value.outcome()


@needs_kernel
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_random_boards_agree_with_python_search_and_canonical_values(text: str) -> None:
    compiled = OutcomeSearch(CLOBBER, SolveContext())
    python = OutcomeSearch(CLOBBER, SolveContext(), compiled=False)
    assert compiled.compiled is not None and python.compiled is None
    found = outcome_of(compiled, text)
    assert found == outcome_of(python, text) == canonical_outcome(text)


@needs_kernel
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(boards(max_cells=8), min_size=2, max_size=4))
def test_sums_agree_with_python_search(parts: list[str]) -> None:
    text = " + ".join(parts)
    compiled = OutcomeSearch(CLOBBER, SolveContext())
    python = OutcomeSearch(CLOBBER, SolveContext(), compiled=False)
    assert outcome_of(compiled, text) == outcome_of(python, text)


def tokens(text: str) -> list:
    return OutcomeSearch(CLOBBER, SolveContext(), compiled=False).components_of(
        parse_position(CLOBBER, text)
    )


@needs_kernel
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(boards(max_cells=9), min_size=1, max_size=3), st.sampled_from((0, 2, 4, 8)))
def test_each_rule_keeps_the_answer(parts: list[str], stones: int) -> None:
    """The same answers with no rule, each rule alone, all, and all but each one in turn
    (small bounds, so that the rules meet components both under and over them; values of
    components to ``stones`` stones and sums of value parts to birthday ``stones``)."""
    comps = tokens(" + ".join(parts))
    answers = set()
    bits = (1, 2, 4, 8, 16, 32)
    for rules in (0, *bits, ALL_RULES, *(ALL_RULES ^ bit for bit in bits)):
        search = KERNEL.searcher(1 << 24, rules, stones, stones, stones, stones, stones)
        answers.add(
            tuple(KERNEL.wins(search, comps, left, None, 1 << 40) for left in (True, False))
        )
    assert len(answers) == 1


@needs_kernel
@pytest.mark.parametrize(
    ("text", "outcome"),
    [
        # Grossman 2004 (checkerboards) and Albert et al. 2005 ((xo)^3 = P): the sources in
        # full in benchmarks/outcome_tables.py
        ("checker:2x3", Outcome.P),
        ("checker:2x6", Outcome.P),
        ("checker:3x4", Outcome.P),
        ("checker:4x4", Outcome.N),
        ("xoxoxo", Outcome.P),
        ("xoxoxoxoxoxoxoxo", Outcome.N),
    ],
)
def test_published_outcomes(text: str, outcome: Outcome) -> None:
    search = OutcomeSearch(CLOBBER, SolveContext())
    assert outcome_of(search, text) == outcome
    assert search.stats()["compiled_nodes"] > 0 and search.stats()["search_nodes"] == 0


@needs_kernel
def test_node_budget_stops_the_kernel() -> None:
    table = TranspositionTable(budget=SearchBudget(max_nodes=500))
    search = OutcomeSearch(CLOBBER, SolveContext(table=table))
    with pytest.raises(SearchStopped):
        search.wins(parse_position(CLOBBER, "checker:4x4"), Player.LEFT)
    assert 500 < table.nodes <= 501


def test_cli_node_budget_is_exit_3(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(
        capsys, "solve", "clobber", "checker:4x5", "--outcome", "--max-nodes", "1000"
    )
    assert code == 3 and out == "" and len(err.strip().splitlines()) == 1


@needs_kernel
def test_kernel_declines_what_it_does_not_take() -> None:
    search = KERNEL.searcher(1 << 24)
    assert KERNEL.wins(search, [((9, 9, 1, 2, 0), 1)], True, None, 1) is None  # 81 cells
    assert KERNEL.wins(search, [((1, 3, 1, 2, 4), 1)], True, None, 1) is None  # empties
    assert KERNEL.wins(search, [((1, 2, 1, 2, 0), 1)], True, None, 1) is True  # xo = *


def test_python_search_without_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mask_keys, "KERNEL", None)
    search = OutcomeSearch(CLOBBER, SolveContext())
    assert search.compiled is None
    assert outcome_of(search, "checker:3x4") == Outcome.P
    assert search.stats()["search_nodes"] > 0 and "compiled_nodes" not in search.stats()


@needs_kernel
@pytest.mark.parametrize("text", ["xoxoxoxoxoxoxo", "checker:3x4", "xox|oxo + xxo"])
def test_certificates_are_the_python_paths_byte_for_byte(text: str) -> None:
    position = parse_position(CLOBBER, text)
    compiled = OutcomeSearch(CLOBBER, SolveContext())
    python = OutcomeSearch(CLOBBER, SolveContext(), compiled=False)
    assert build_certificate(CLOBBER, position, compiled, value_budget=0).data == (
        build_certificate(CLOBBER, position, python, value_budget=0).data
    )
    assert compiled.stats()["compiled_nodes"] > 0 and "compiled_nodes" not in python.stats()


@needs_kernel
def test_a_full_component_table_is_collected() -> None:
    """16 MiB leave room for some 80,000 components: 4x5 (N) needs more. Before, a full
    table ended the search with a MemoryError (3x10 and 4x7 ended so)."""
    search = KERNEL.searcher(1 << 24, *mask_keys.BOARD_SETTINGS)
    comps = tokens("checker:4x5")
    assert KERNEL.wins(search, comps, True, None, 1 << 40) is True
    assert KERNEL.wins(search, comps, False, None, 1 << 40) is True
    assert KERNEL.stats(search)[4] >= 1  # (collections)


@needs_kernel
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(full_boards(), min_size=1, max_size=2),
    st.sampled_from((0, 1)),
    st.sampled_from((0, 1, 4)),
)
def test_collecting_the_component_table_keeps_the_answer(
    parts: list[str], strip: int, buckets: int
) -> None:
    """A table of 256 components is collected every few nodes (the path's components kept,
    the rest forgotten, their ids reused; the transposition table knows its states by
    their contents, and keeps them), with a roomy transposition table or one of 1 or 4
    buckets (4 or 16 states, replaced all the time): the answers are roomy tables'."""
    comps = tokens(" + ".join(parts))
    shape = mask_keys.STRIP_SETTINGS if strip else mask_keys.BOARD_SETTINGS
    assert_same_answers(comps, KERNEL.searcher(1 << 24, *shape, 256, buckets), shape)


def assert_same_answers(comps: list, tight: object, shape: tuple[int, ...]) -> None:
    """The search ``tight`` answers as a search of ``shape`` with roomy tables, for each
    player moving first."""
    roomy = KERNEL.searcher(1 << 24, *shape)
    for left in (True, False):
        assert KERNEL.wins(tight, comps, left, None, 1 << 40) == (
            KERNEL.wins(roomy, comps, left, None, 1 << 40)
        )


@needs_kernel
@pytest.mark.parametrize("comps_cap", [0, 256])
def test_a_question_asked_again_is_answered_by_the_table(comps_cap: int) -> None:
    """3x6 (P) fills the value table of a 16 MiB search: between two questions the search
    used to forget everything then, so a certificate's writer, asking about positions the
    solve had proved, solved each again from the start (3x11: one re-solve of half an hour a
    question). It now keeps its transposition table (and collects a full component table):
    the same question again is one table hit, no node."""
    search = KERNEL.searcher(1 << 24, *mask_keys.BOARD_SETTINGS, comps_cap)
    comps = tokens("checker:3x6")
    assert KERNEL.wins(search, comps, True, None, 1 << 40) is False
    nodes, hits = KERNEL.stats(search)[:2]
    assert KERNEL.wins(search, comps, True, None, 1 << 40) is False
    assert KERNEL.stats(search)[:2] == (nodes, hits + 1)


@needs_kernel
def test_known_answers_without_searching() -> None:
    """``known`` gives what the table (or the values) says, and never searches: nothing
    before the solve, its answer after (for both players: a state and its colour swap share
    their answer), the values' answer for a sum they decide."""
    search = KERNEL.searcher(1 << 24, *mask_keys.BOARD_SETTINGS)
    comps = tokens("checker:3x5")
    assert KERNEL.known(search, comps, True) is None
    assert KERNEL.stats(search)[0] == 0
    left, right = (KERNEL.wins(search, comps, side, None, 1 << 40) for side in (True, False))
    nodes = KERNEL.stats(search)[0]
    assert (KERNEL.known(search, comps, True), KERNEL.known(search, comps, False)) == (left, right)
    assert KERNEL.known(search, tokens("xo"), True) is True  # (*: the mover wins)
    assert KERNEL.known(search, [], False) is False
    assert KERNEL.stats(search)[0] == nodes


@needs_kernel
def test_collections_happened() -> None:
    """The tables of the test above are collected and replaced in (on 2x9, P: some 2,000
    states stored in 16 slots)."""
    search = KERNEL.searcher(1 << 24, *mask_keys.BOARD_SETTINGS, 256, 4)
    assert KERNEL.wins(search, tokens("checker:2x9"), True, None, 1 << 40) is False
    _, _, _, stored, collections = KERNEL.stats(search)
    assert collections > 100 and stored > 100


NO_VALUES = (7, 0, 0, 0, 0, 0)
"""The kernel's settings with P components dropped, the static rules and the drop rule,
and no values: the transposition table answers for every state searched."""


@needs_kernel
def test_a_few_slots_are_replaced_in() -> None:
    search = KERNEL.searcher(1 << 24, *NO_VALUES, 0, 1)
    assert KERNEL.wins(search, tokens("checker:3x4"), True, None, 1 << 40) is False
    assert KERNEL.stats(search)[3] > 1000  # (states stored in its 4 slots)


@needs_kernel
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(full_boards(), min_size=1, max_size=2), st.sampled_from((1, 4)))
def test_a_transposition_table_of_a_few_slots_keeps_the_answer(
    parts: list[str], buckets: int
) -> None:
    """Without values (which decide most small boards before the table is asked), a
    transposition table of 4 or 16 slots replaces states all the time: the answers are a
    roomy table's (on 3x4 alone it stores some 1,700 states in 4 slots)."""
    comps = tokens(" + ".join(parts))
    assert_same_answers(comps, KERNEL.searcher(1 << 24, *NO_VALUES, 0, buckets), NO_VALUES)


@needs_kernel
def test_stored_states_outlive_the_ids_a_collection_reuses() -> None:
    """3x6 (P) under a table of 256 components: a thousand collections, each freeing ids that
    new components then take. A state stored under its components' ids would be read back
    as another state's answer (so 3x6 came out N); known by its contents it is not."""
    search = KERNEL.searcher(1 << 24, *mask_keys.BOARD_SETTINGS, 256)
    assert KERNEL.wins(search, tokens("checker:3x6"), True, None, 1 << 40) is False
    assert KERNEL.stats(search)[4] > 100  # (collections)


@pytest.mark.skipif(mask_keys.KERNEL is None, reason="needs the compiled kernel")
def test_searches_take_memory_as_their_tables_fill(capsys):
    """A search's tables grow as they fill instead of reserving their share of the ceiling
    at once: the ceiling counts what is reserved, and a search lives on (for its
    certificate) until the collector frees its table, so solves one after the other in one
    process (the explorer, a sweep's roots, these tests) each reserving its tables' share of the
    ceiling ran out of memory after a dozen."""
    import gc

    with open("/proc/self/status") as status:  # (the ceiling counts the data segment)
        held = next(int(line.split()[1]) for line in status if line.startswith("VmData:"))
    ceiling = f"{(held >> 10) + 600}M"  # (600 MB past what the process has reserved)
    collecting = gc.isenabled()
    gc.disable()  # (the searches left behind stay, as they may between two collections)
    try:
        for _ in range(20):
            code, out, err = run_cli(
                capsys, "--max-memory", ceiling, "solve", "clobber", "checker:2x3", "--outcome"
            )
            assert code == 0 and "P" in out, err
    finally:
        if collecting:
            gc.enable()


def test_settings_follow_the_highest_component() -> None:
    """Values to 20 stones on strips, 12 on two rows, 10 on higher boards (each measured
    best there: ``mask_keys``)."""
    strip, two_rows, three_rows = (
        ((1, 4, 5, 10, 0), 1),
        ((2, 3, 21, 42, 0), 1),
        ((3, 3, 1, 2, 0), -1),
    )
    assert mask_keys.settings_for([strip, strip]) == mask_keys.STRIP_SETTINGS
    assert mask_keys.settings_for([strip, two_rows]) == mask_keys.TWO_ROW_SETTINGS
    assert mask_keys.settings_for([two_rows, three_rows]) == mask_keys.BOARD_SETTINGS
    assert mask_keys.STRIP_SETTINGS[4] == 20 and mask_keys.TWO_ROW_SETTINGS[4] == 12
    assert mask_keys.BOARD_SETTINGS[4] == 10
