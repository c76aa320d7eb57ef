"""The outcome search with its root split across worker processes (``cgf solve --outcome
--jobs N``): the same answers as the serial search, workers sharing a store, limits kept."""

from __future__ import annotations

import json
import multiprocessing
import os

import pytest

from cgframework.game import Player, options
from cgframework.plugins import get_registry
from cgframework.solvers.dispatch import solve
from cgframework.store.database import ValueStore
from cgframework.sweep.roots import solve_outcome_parallel
from cgframework.testing import run_cli

CASES = [
    ("clobber", "xoxoxoxoxo"),
    ("clobber", "xxo|oox"),
    ("domineering", "....|....|...."),
    ("kayles", "7"),
    ("nim", "1,2,3"),  # a P-position: no winning first move
    ("clobber", "xo"),  # two plies: no reply at all after either first move
]


def answers(solution):
    x = solution.extra
    return solution.outcome, set(solution.best_moves), x["left_first"], x["right_first"]


@pytest.mark.parametrize(("name", "position"), CASES)
@pytest.mark.parametrize("first", [Player.LEFT, Player.RIGHT])
@pytest.mark.parametrize("plies", [1, 2])
def test_the_parallel_search_answers_as_the_serial_one(name, position, first, plies):
    rs = get_registry().rulesets[name]
    serial = solve(rs, position, first=first, outcome_only=True)
    moves = sum(len(list(options(rs, rs.parse(position), p))) for p in (first, first.opponent))
    jobs = 2 if plies == 1 else moves + 1  # more workers than first moves: two plies
    split = solve_outcome_parallel(rs, position, first, jobs=jobs)
    assert answers(split) == answers(serial)
    parallel = split.extra["parallel"]
    assert parallel["split"] == ("two plies" if plies == 2 else "first moves")
    assert parallel["cpu_seconds_workers"] == pytest.approx(
        sum(parallel["cpu_seconds_per_worker"].values()), abs=0.01
    )
    assert not multiprocessing.active_children()  # every worker ended with the search


def test_workers_share_component_values_through_the_store(tmp_path, monkeypatch):
    monkeypatch.setenv("CGFRAMEWORK_PURE_PYTHON", "1")  # (the Python search keeps values)
    rs = get_registry().rulesets["clobber"]
    store = str(tmp_path / "v.sqlite")
    ValueStore(store).close()
    first = solve_outcome_parallel(rs, "xoxoxoxoxoxo", jobs=2, store_path=store)
    with ValueStore(store) as values:
        assert values.memo_size() > 0  # the workers' component values
    again = solve_outcome_parallel(rs, "xoxoxoxoxoxo", jobs=2, store_path=store)
    assert answers(first) == answers(again) == answers(solve(rs, "xoxoxoxoxoxo", outcome_only=True))
    assert again.stats.nodes < first.stats.nodes  # the second run read what the first proved


def test_cli_jobs(capsys):
    code, out, err = run_cli(
        capsys, "solve", "clobber", "xoxoxoxoxo", "--outcome", "--jobs", "2", "--json"
    )
    assert code == 0, err
    data = json.loads(out)
    assert (data["outcome"], data["method"]) == ("N", "outcome-search+parallel")
    assert set(data["parallel"]) >= {
        "cpu_seconds_per_worker",
        "cpu_seconds_workers",
        "wall_seconds",
    }


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--jobs", "2"], "add --outcome"),
        (["--outcome", "--jobs", "0"], "at least 1"),
        (["--outcome", "--jobs", "2", "--method", "canonical"], "its own method"),
        (["--outcome", "--executor", "dask://10.1.2.3:8786"], "not on loopback"),
        (["--outcome", "--executor", "ftp://x:1"], "bad executor"),
    ],
)
def test_cli_refuses_in_one_line(capsys, args, message):
    code, out, err = run_cli(capsys, "solve", "clobber", "xoxo", *args)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_a_huge_jobs_count_is_capped_at_the_cpus(capsys):
    code, out, err = run_cli(
        capsys, "solve", "clobber", "xoxo", "--outcome", "--jobs", str(10**9), "--json"
    )
    assert code == 0, err
    parallel = json.loads(out)["parallel"]
    assert parallel["split"] == "two plies" and parallel["processes"] <= os.cpu_count()


def test_cli_timeout_is_a_limit(capsys):
    code, out, err = run_cli(
        capsys, "solve", "clobber", "xoxoxoxoxo", "--outcome", "--jobs", "2", "--timeout", "0"
    )
    assert code == 3 and "--timeout" in err
    assert not multiprocessing.active_children()


def test_a_dask_cluster_answers_as_the_serial_search():
    distributed = pytest.importorskip("distributed")
    rs = get_registry().rulesets["clobber"]
    serial = solve(rs, "xoxoxoxoxo", outcome_only=True)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        address = cluster.scheduler_address.replace("tcp://", "dask://")
        split = solve_outcome_parallel(rs, "xoxoxoxoxo", jobs=2, executor=address)
    assert answers(split) == answers(serial)
    assert split.extra["parallel"]["executor"].startswith("tcp://127.0.0.1:")
