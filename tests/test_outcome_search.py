"""The outcome search (``solve(..., outcome_only=True)``, ``cgf solve --outcome``) against the
canonical-value route and the brute-force ``outcome`` solver, on every normal-play ruleset
that is not loopy: its examples, random small positions and sums of them."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import textwrap
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cgframework import solve
from cgframework.extensions import SolveContext
from cgframework.game import Convention, Outcome, Player, components, parse_position
from cgframework.plugins import get_registry
from cgframework.runtime.budget import SearchStopped
from cgframework.solvers import outcome_search
from cgframework.solvers.common import SolverError
from cgframework.solvers.outcome_search import VALUE_ALLOWANCE, VALUE_MOVES, OutcomeSearch
from cgframework.testing import run_cli
from cgframework.values import number

REFERENCE_NODES = 20_000
"""Positions the reference solvers may expand on an example (bigger ones are skipped)."""

RANDOM_REFERENCE_NODES = 4_000
"""The same for random positions: the brute-force reference expands about 3,000 positions a
second on sums of heaps, and a random sum near the examples' bound cost seconds each."""

ALLOWANCES = (0, 2, VALUE_ALLOWANCE)
"""Valuation allowances tried: 0 searches every component, 2 folds only the smallest."""


def normal_rulesets() -> list[str]:
    registry = get_registry()
    return sorted(
        name
        for name, rs in registry.rulesets.items()
        if rs.convention is Convention.NORMAL and not getattr(rs, "loopy", False)
    )


def reference(name: str, text: str, nodes: int = REFERENCE_NODES):
    """The canonical route's outcome and both players' winning moves (``None`` when too big),
    checked against the brute-force ``outcome`` solver."""
    try:
        answers = {}
        for first in (Player.LEFT, Player.RIGHT):
            canonical = solve(name, text, first=first, max_nodes=nodes)
            brute = solve(name, text, method="outcome", first=first, max_nodes=nodes)
            assert canonical.outcome is brute.outcome
            assert list(canonical.best_moves) == list(brute.best_moves)
            answers[first] = list(canonical.best_moves)
        return canonical.outcome, answers
    except SearchStopped:
        return None


def check_against_reference(name: str, text: str, nodes: int = REFERENCE_NODES) -> bool:
    """Every allowance's outcome and winning moves equal the references'; False if skipped."""
    expected = reference(name, text, nodes)
    if expected is None:
        return False
    outcome, moves = expected
    ruleset = get_registry().ruleset(name)
    position = parse_position(ruleset, text)
    for allowance in ALLOWANCES:
        search = OutcomeSearch(
            ruleset, SolveContext(), allowance=allowance, value_moves=1000, compiled=False
        )  # (the Python search: a ruleset's compiled one is asked below, with the defaults)
        assert search.outcome(position) is outcome, (name, text, allowance)
        for first in (Player.LEFT, Player.RIGHT):
            assert search.winning_moves(position, first) == moves[first], (name, text, first)
    search = OutcomeSearch(ruleset, SolveContext(), value_moves=3)  # valued: only the smallest
    assert search.outcome(position) is outcome, (name, text)
    for first in (Player.LEFT, Player.RIGHT):
        solution = solve(name, text, outcome_only=True, first=first)
        assert solution.outcome is outcome and solution.value is None
        assert list(solution.best_moves) == moves[first]
    return True


@pytest.mark.parametrize("name", normal_rulesets())
def test_examples_agree_with_canonical_and_brute_force(name):
    ruleset = get_registry().ruleset(name)
    checked = [text for text in ruleset.examples() if check_against_reference(name, text)]
    assert checked, f"no example of {name} small enough to check"


def grid_text(letters: str, height: int, width: int) -> st.SearchStrategy[str]:
    row = st.text(alphabet=letters, min_size=width, max_size=width)
    return st.lists(row, min_size=height, max_size=height).map("|".join)


def small_grids(letters: str, cells: int) -> st.SearchStrategy[str]:
    shapes = [(h, w) for h in range(1, 5) for w in range(1, 6) if h * w <= cells]
    return st.sampled_from(shapes).flatmap(lambda hw: grid_text(letters, *hw))


RANDOM_POSITIONS: dict[str, st.SearchStrategy[str]] = {
    "clobber": small_grids("xxoo.", 12),
    "konane": small_grids("xxoo.#", 12),
    "amazons": small_grids("xo....#", 7),
    "fission": small_grids("x..#", 12),
    "cram": small_grids("...#", 10),
    "domineering": small_grids("...#", 12),
    "toads-and-frogs": st.text(alphabet="TF..", min_size=1, max_size=8),
    "hackenbush": st.lists(st.text("BRG", min_size=1, max_size=4), min_size=1, max_size=3).map(
        " + ".join
    ),
    "snort": st.sampled_from(["path:", "cycle:"]).flatmap(
        lambda kind: st.integers(3 if kind == "cycle:" else 1, 7).map(lambda n: f"{kind}{n}")
    ),
    "col": st.integers(1, 8).map(lambda n: f"path:{n}"),
    "nim": st.lists(st.integers(0, 7), min_size=1, max_size=4).map(
        lambda heaps: ",".join(map(str, heaps))
    ),
    "kayles": st.lists(st.integers(1, 12), min_size=1, max_size=3).map(
        lambda heaps: ",".join(map(str, heaps))
    ),
    "dawsons-kayles": st.integers(1, 14).map(str),
    "subtraction": st.integers(0, 20).map(lambda n: f"{{1,3,4}}:{n}"),
    "octal": st.integers(0, 12).map(lambda n: f"0.137:{n}"),
    "hex": st.sampled_from(["0.F", "0.8", "0.B", "4.F"]).flatmap(
        lambda code: st.integers(0, 10).map(lambda n: f"{code}:{n}")
    ),
    "grundys-game": st.lists(st.integers(1, 14), min_size=1, max_size=3).map(
        lambda heaps: ",".join(map(str, heaps))
    ),
    "arc-kayles": st.integers(1, 7).map(lambda n: f"path:{n}"),
    "toppling-dominoes": st.text(alphabet="LRG", min_size=1, max_size=6),
    "childish-hackenbush": st.lists(
        st.text("BRG", min_size=1, max_size=4), min_size=1, max_size=3
    ).map(" + ".join),
    "partizan-arc-kayles": st.integers(3, 6).flatmap(
        lambda n: st.text("LRG", min_size=n - 1, max_size=n - 1).map(
            lambda colours: f"path:{n};colours={colours}"
        )
    ),
    "ski-jumps": small_grids("...LRlr", 8),
    "node-kayles": st.integers(1, 3).flatmap(
        lambda rows: st.integers(1, 4).map(lambda cols: f"grid:{rows}x{cols}")
    ),
    **{
        name: st.lists(
            st.tuples(st.integers(1, top), st.integers(1, top)), min_size=1, max_size=2
        ).map(lambda cakes: ",".join(f"{r}x{c}" for r, c in cakes))
        for name, top in (("cutcake", 3), ("maundy-cake", 4), ("eatcake", 2))
    },
    "wythoff": st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=2
    ).map(lambda pairs: ";".join(f"{a},{b}" for a, b in pairs)),
    "partizan-subtraction": st.integers(0, 12).map(lambda n: f"{{1,2|2,3}}:{n}"),
}


def test_every_ruleset_with_random_positions_is_listed():
    """A ruleset added later gets random positions here too (or is named as examples-only)."""
    examples_only = {"wak"}
    assert set(normal_rulesets()) - examples_only <= set(RANDOM_POSITIONS)


@pytest.mark.parametrize("name", sorted(RANDOM_POSITIONS))
@settings(max_examples=25, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_random_positions_agree_with_canonical_and_brute_force(name, data):
    if name not in normal_rulesets():
        pytest.skip(f"{name} is not installed")
    strategy = RANDOM_POSITIONS[name]
    text = data.draw(strategy)
    ruleset = get_registry().ruleset(name)
    if ruleset.sum_separator == "+" and data.draw(st.booleans()):
        text = f"{text} + {data.draw(strategy)}"
    try:
        parse_position(ruleset, text)
    except ValueError:
        return  # (a random text the ruleset refuses: its parser's business)
    check_against_reference(name, text, RANDOM_REFERENCE_NODES)


@settings(max_examples=60, derandomize=True, deadline=None)
@given(
    st.lists(st.sampled_from(["xo", "xxo", "oox", "xoo", "x", "xox", "oxo"]), max_size=4),
    st.sampled_from(ALLOWANCES),
)
def test_clobber_sums_of_strips(strips, allowance):
    """Sums whose folded term is a number, an infinitesimal or a switch next to unvalued
    strips: moves in the folded term (numbers included) are needed to get these right."""
    text = " + ".join(["xoxoxo", *strips])
    check_against_reference("clobber", text)


@pytest.mark.parametrize("name", ["clobber", "amazons"])
@settings(max_examples=12, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_sums_with_colour_swaps_agree(name, data):
    """A board, its colour swap (minus its value: a negated key, cancelled against the board
    when both are searched) and another board, summed: on the bit-mask keys of Clobber and
    Amazons (``mask_keys.py``), against the canonical route and the brute force."""
    cells = st.sampled_from("xo." if name == "clobber" else "xo..#")
    rows = data.draw(st.lists(st.text(cells, min_size=3, max_size=3), min_size=2, max_size=2))
    board = "|".join(rows)
    swapped = board.translate(str.maketrans("xo", "ox"))
    other = data.draw(st.sampled_from(["xo", "xox", "x.o" if name == "amazons" else "xoo"]))
    check_against_reference(name, f"{board} + {swapped} + {other}")
    check_against_reference(name, f"{board} + {swapped}")


def test_a_move_in_the_folded_number_can_be_the_only_winning_one():
    """Hackenbush B + R + BR: B + R equals 0 (a form {-1|1} as a sum) and BR is 1/2. With BR
    valued and folded and B, R searched, Left's only winning move is in the number (chop
    BR's blue edge): number avoidance does not hold when the rest equals a number, so a
    search that skipped moves in a number term would call this a loss for Left."""
    ruleset = get_registry().ruleset("hackenbush")
    ctx = SolveContext()
    (half,) = components(ruleset, parse_position(ruleset, "BR"))
    ctx.table.store(("c", ruleset.canonical_key(half)), number(Fraction(1, 2)))
    search = OutcomeSearch(ruleset, ctx, allowance=0)
    position = parse_position(ruleset, "B + R + BR")
    assert search.wins(position, Player.LEFT)
    assert search.stats()["search_nodes"] > 0  # (B and R were searched, not valued)
    assert search.winning_moves(position, Player.LEFT) == ["3:1"]


def test_outcome_of_a_first_player_win_names_both_winners():
    solution = solve("clobber", "xoxo", outcome_only=True)
    assert solution.outcome is Outcome.N
    assert solution.extra["left_first"] == "L" and solution.extra["right_first"] == "R"
    assert solution.method == "outcome-search" and solution.value is None


def test_no_moves_answers_who_wins_only(capsys):
    """``--no-moves`` / ``winning_moves=False``: the same winners, no list of moves, fewer
    nodes (the moves' proofs are skipped); refused without ``--outcome``."""
    full = solve("clobber", "xox|oxo|xo.", outcome_only=True)
    bare = solve("clobber", "xox|oxo|xo.", outcome_only=True, winning_moves=False)
    assert full.best_moves and not bare.best_moves and bare.extra["winning_moves"] is False
    assert (bare.outcome, bare.extra["left_first"]) == (full.outcome, full.extra["left_first"])
    assert bare.stats.nodes < full.stats.nodes
    assert not solve("cram", "rect:3x3", outcome_only=True, winning_moves=False).best_moves
    with pytest.raises(ValueError):
        solve("clobber", "xo", winning_moves=False)
    code, out, _ = run_cli(
        capsys, "solve", "clobber", "checker:3x3", "--outcome", "--no-moves", "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["best_moves"] == [] and data["outcome"] == "N"
    code, _, err = run_cli(capsys, "solve", "clobber", "xo", "--no-moves")
    assert code == 2 and "--no-moves" in err


def test_search_shares_its_table_across_calls():
    ruleset = get_registry().ruleset("clobber")
    search = OutcomeSearch(ruleset, SolveContext(), allowance=0)
    position = parse_position(ruleset, "xoxoxoxo")
    first = search.wins(position, Player.LEFT)
    nodes = search.search_nodes
    assert search.wins(position, Player.LEFT) is first
    assert search.search_nodes == nodes  # answered from the table


def test_cli_json_has_the_outcome_keys(capsys):
    code, out, err = run_cli(capsys, "solve", "clobber", "xoxoxo", "--outcome", "--json")
    assert code == 0, err
    data = json.loads(out)
    for key in ("outcome", "left_first", "right_first", "best_moves", "method", "stats"):
        assert key in data
    assert data["outcome"] == "P" and data["left_first"] == "R" and data["right_first"] == "L"
    assert data["best_moves"] == [] and data["method"] == "outcome-search"
    assert data["value"] is None and data["stats"]["nodes"] > 0


def test_cli_best_moves_are_the_first_players(capsys):
    code, out, err = run_cli(capsys, "solve", "nim", "3,4", "--outcome", "--json", "--first", "R")
    assert code == 0, err
    data = json.loads(out)
    assert data["best_moves"] == list(solve("nim", "3,4", first="R").best_moves)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("influence", "segment:11"), "normal-play"),
        (("digraph", "0>1,1>0;0", "--jobs", "2"), "loopy"),
        (("cheating-robot", "2"), "normal-play"),
        (("clobber", "xo", "--misere", "--jobs", "2"), "--misere"),
        (("clobber", "xo", "--method", "canonical"), "its own method"),
    ],
)
def test_cli_refusals_are_one_line_exit_2(capsys, args, fragment):
    code, out, err = run_cli(capsys, "solve", *args, "--outcome")
    assert code == 2
    assert fragment in err and err.count("\n") == 1 and err.startswith("cgf: error:")


@pytest.mark.parametrize(
    ("ruleset", "position", "left_first", "right_first"),
    [
        ("partizan-digraph", "0>1:L,1>0:R;0", "D", "L"),  # tis: 1 & 0
        ("digraph", "0>1,1>0,1>2;0", "R", "L"),
        ("fox-and-geese", "start:4", "L", "L"),
    ],
)
def test_outcome_of_a_loopy_ruleset_is_the_retrograde_analysis(
    capsys, ruleset, position, left_first, right_first
):
    """Positions may repeat, so the outcome search does not apply: ``--outcome`` answers by
    the retrograde analysis alone, with no value, the same who-wins as the full solve."""
    code, out, err = run_cli(capsys, "solve", ruleset, position, "--outcome", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert (data["left_first"], data["right_first"]) == (left_first, right_first)
    assert data["value"] is None and "value_unknown" not in data
    full = solve(ruleset, position)
    assert (data["outcome"], data["best_moves"]) == (full.outcome.value, list(full.best_moves))


@pytest.mark.parametrize("limit", [("--max-nodes", "3"), ("--timeout", "0.2")])
def test_cli_limits_are_exit_3(capsys, limit):
    code, _, err = run_cli(
        capsys, "solve", "domineering", ".....|.....|.....|.....|.....|.....", "--outcome", *limit
    )
    assert code == 3 and err.count("\n") == 1


def test_api_refuses_other_methods():
    with pytest.raises(SolverError):
        solve("clobber", "xo", outcome_only=True, misere=True, method="outcome-search")
    with pytest.raises(SolverError):
        solve("clobber", "xo", outcome_only=True, method="outcome")
    with pytest.raises(TypeError):
        solve("clobber", "xo", outcome_only="yes")


def test_store_keeps_component_values(tmp_path, monkeypatch):
    from cgframework.store.database import ValueStore

    monkeypatch.setenv("CGFRAMEWORK_PURE_PYTHON", "1")  # (the Python search keeps values)
    path = tmp_path / "values.sqlite"
    with ValueStore(path) as store:
        first = solve("clobber", "xoxoxo + xox", outcome_only=True, store=store)
    with ValueStore(path) as store:
        again = solve("clobber", "xoxoxo + xox", outcome_only=True, store=store)
    assert again.outcome is first.outcome
    assert again.stats.nodes < first.stats.nodes  # the values came from the store


def test_a_ruleset_may_say_how_big_a_component_is_valued():
    """``outcome_value_moves`` / ``outcome_value_allowance`` (a hint on the ruleset) replace
    the defaults; arguments given to the search win over both; ``None`` moves: any size."""
    amazons = get_registry().ruleset("amazons")
    search = OutcomeSearch(amazons, SolveContext())
    assert (search.value_moves, search.allowance) == (
        amazons.outcome_value_moves,
        amazons.outcome_value_allowance,
    )
    assert (search.value_moves, search.allowance) != (VALUE_MOVES, VALUE_ALLOWANCE)
    clobber = OutcomeSearch(get_registry().ruleset("clobber"), SolveContext())
    assert (clobber.value_moves, clobber.allowance) == (VALUE_MOVES, VALUE_ALLOWANCE)
    given = OutcomeSearch(amazons, SolveContext(), allowance=5, value_moves=None)
    assert (given.value_moves, given.allowance) == (None, 5)
    position = parse_position(amazons, "x...|...#|o.x.")
    assert given.outcome(position) is Outcome.L  # (published: benchmarks/outcome_tables.py)


def _capped_search(ruleset, monkeypatch) -> OutcomeSearch:
    """A search whose memory share is already spent: its cap is learnt at the first check,
    after 4 states, and half its states go every time it holds 8."""
    monkeypatch.setattr(outcome_search, "CHECK_EVERY", 4)
    monkeypatch.setattr(outcome_search, "MIN_ENTRIES", 8)
    monkeypatch.setattr(outcome_search, "table_budget", lambda: 0)
    return OutcomeSearch(ruleset, SolveContext(), allowance=0, compiled=False)  # (all searched)


@pytest.mark.parametrize("name", ["clobber", "domineering", "toppling-dominoes"])
@settings(max_examples=15, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_tables_capped_by_memory_stay_exact(name, data, monkeypatch):
    """Under a memory share that is always passed, the tables are capped at
    :data:`MIN_ENTRIES` states and keep being halved: the answers stay the canonical
    route's, and the table never holds more than the cap."""
    strategy = RANDOM_POSITIONS[name]
    text = " + ".join(data.draw(st.lists(strategy, min_size=2, max_size=3)))
    expected = reference(name, text, RANDOM_REFERENCE_NODES)
    if expected is None:
        return
    ruleset = get_registry().ruleset(name)
    search = _capped_search(ruleset, monkeypatch)
    assert search.outcome(parse_position(ruleset, text)) is expected[0], text
    assert len(search.states) <= 8
    assert search.parts.cap == (8 if search.search_nodes >= 4 else float("inf"))


def test_a_capped_table_is_halved_at_the_cap(monkeypatch):
    ruleset = get_registry().ruleset("clobber")
    position = parse_position(ruleset, "xoxoxoxoxoxo")
    unlimited = OutcomeSearch(ruleset, SolveContext(), allowance=0, compiled=False)
    assert unlimited.outcome(position) is Outcome.N
    assert unlimited.parts.cap == float("inf")  # (the share not passed: no cap yet)
    assert len(unlimited.states) == unlimited.search_nodes
    search = _capped_search(ruleset, monkeypatch)
    assert search.outcome(position) is Outcome.N
    assert search.search_nodes >= unlimited.search_nodes > 50
    assert 4 <= len(search.states) <= 8


def test_the_search_leaves_its_objects_to_the_oldest_generation():
    """After a search the collector is on again, and the search's tuples are not in its
    youngest generation (a pass over them cost a quarter of Amazons 3x4's time); a caller's
    frozen objects stay frozen."""
    ruleset = get_registry().ruleset("clobber")
    search = OutcomeSearch(ruleset, SolveContext(), allowance=0, compiled=False)
    assert gc.isenabled()
    search.wins(parse_position(ruleset, "xox|oxo|xox|oxo"), Player.LEFT)
    assert search.search_nodes > 500
    assert gc.isenabled() and len(gc.get_objects(0)) < 500
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        search.wins(parse_position(ruleset, "xox|oxo|xox|ox."), Player.RIGHT)
        assert gc.get_freeze_count() == frozen and gc.isenabled()
    finally:
        gc.unfreeze()


def test_the_console_script_freezes_the_collector_at_exit():
    """``cgf`` (``main()`` without arguments) freezes the collector as the process ends, so
    the interpreter's last collection does not walk the search's tables (a quarter of Amazons
    3x4's CPU); ``main(argv)`` in a caller's process registers nothing."""
    code = textwrap.dedent(
        """
        import atexit, gc, sys
        atexit.register(lambda: print("frozen", gc.get_freeze_count() > 0))  # (runs last)
        from cgframework.cli.commands import main
        sys.argv = ["cgf", "solve", "clobber", "xoxo", "--outcome", "--no-moves", "--json"]
        main(None if sys.argv[1:] and "{mode}" == "script" else sys.argv[1:])
        """
    )
    for mode, frozen in (("script", "True"), ("in-process", "False")):
        done = subprocess.run(
            [sys.executable, "-c", code.replace("{mode}", mode)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout.splitlines()[0])["outcome"] == "N"
        assert done.stdout.splitlines()[-1] == f"frozen {frozen}", (mode, done.stdout)
