"""A certificate written after a solve asks the solve's own outcome search (its table of
proven wins and losses, its component values) instead of searching again, and is the same
proof, byte for byte, that a fresh search gives: the independent checker verifies it. The
writer's remembered component moves are the checker's moves, in the checker's order (a
leaf's brute force must count the same positions on both sides)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework.extensions import SolveContext
from cgframework.game import Player, parse_position
from cgframework.plugins import resolve_ruleset
from cgframework.proofs import build_certificate, check_certificate, save_certificate
from cgframework.proofs.checker import Parts
from cgframework.proofs.writer import _CachedParts
from cgframework.runtime.cache import TranspositionTable
from cgframework.solvers import outcome_search
from cgframework.solvers.dispatch import solve
from cgframework.solvers.outcome_search import OutcomeSearch, shared_search
from cgframework.testing import run_cli


def expanded(search: OutcomeSearch) -> int:
    """Nodes a search expanded: its own and its ruleset's compiled search's."""
    stats = search.stats()
    return stats["search_nodes"] + stats.get("compiled_nodes", 0)


def test_a_certificate_from_the_solves_table_is_the_same_proof_for_less_search(
    tmp_path, monkeypatch
):
    """(the Python search: Clobber's compiled search decides these small sums by their values
    without its table, so there is little of its work to share)"""
    from cgframework_grids import mask_keys

    monkeypatch.setattr(mask_keys, "KERNEL", None)
    ruleset = resolve_ruleset("clobber")
    position = parse_position(ruleset, "xo" * 9)
    table = TranspositionTable()
    solution = solve(ruleset, position, outcome_only=True, winning_moves=False, table=table)
    search = shared_search(ruleset, table)
    assert search is not None
    solved = expanded(search)
    assert search.wins(position, Player.LEFT) is True  # the root: the table answers
    assert expanded(search) == solved
    hits = table.hits
    shared = build_certificate(ruleset, position, table=table, value_budget=0)
    extra = expanded(search) - solved
    assert table.hits > hits + shared.nodes // 2  # it asked the solve's search

    fresh_search = OutcomeSearch(ruleset, SolveContext())
    fresh = build_certificate(ruleset, position, fresh_search, value_budget=0)
    assert fresh.data == shared.data  # the oracle's answers are facts: the same proof
    assert extra <= expanded(fresh_search) - solved  # the solve's work reused
    path = str(tmp_path / "proof.gz")
    save_certificate(path, shared)
    report = check_certificate(path)
    assert report.outcome is solution.outcome is shared.outcome


def test_solve_with_a_certificate_builds_one_search(capsys, tmp_path, monkeypatch):
    made = []
    original = OutcomeSearch.__init__

    def counting(self, *args, **kwargs):
        made.append(self)
        original(self, *args, **kwargs)

    monkeypatch.setattr(outcome_search.OutcomeSearch, "__init__", counting)
    path = str(tmp_path / "proof.gz")
    argv = ["solve", "clobber", "xoxoxoxoxo", "--outcome", "--json", "--certificate", path]
    code, out, err = run_cli(capsys, *argv)
    assert code == 0, err
    assert len(made) == 1
    assert json.loads(out)["outcome"] == "N"
    assert check_certificate(path).outcome.value == "N"


@settings(max_examples=30, deadline=None, derandomize=True)
@given(
    st.sampled_from(["clobber", "domineering"]),
    st.lists(st.text(st.sampled_from("xo.#"), min_size=1, max_size=4), min_size=1, max_size=3),
    st.sampled_from(list(Player)),
)
def test_remembered_moves_are_the_checkers_moves(name, rows, player):
    ruleset = resolve_ruleset(name)
    if name == "domineering":
        rows = [r.replace("x", ".").replace("o", "#") for r in rows]
        text = "|".join(r.ljust(len(rows[0]), ".")[: len(rows[0])] for r in rows)
    else:
        text = " + ".join(r.replace("#", ".") for r in rows)
    plain, cached = Parts(ruleset), _CachedParts(ruleset)
    parts = plain.split(parse_position(ruleset, text))
    for _ in range(2):  # the second time from the memo
        mine = [(m, [t for t, _ in r]) for m, r in cached.moves(parts, player)]
        theirs = [(m, [t for t, _ in r]) for m, r in plain.moves(parts, player)]
        assert mine == theirs
