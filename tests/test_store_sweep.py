"""The value store and the sweep runner (issue: sweeps that resume, run in parallel, scale out)."""

from __future__ import annotations

import functools
import json
import operator
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from cgframework import get_registry, solve
from cgframework.store.database import ValueStore, key_text
from cgframework.sweep.runner import SweepStats, sweep
from cgframework.testing import run_cli

SLOW_PLUGIN = textwrap.dedent(
    """
    import time
    from cgframework import BaseRuleset, Convention, Family, Move, hookimpl

    class SlowChain(BaseRuleset):
        '''Subtract 1 or 2 from a counter; every option listing sleeps, so sweeps take time.'''
        name = "slow-chain"
        convention = Convention.NORMAL
        impartial = True
        syntax = "a counter"
        delay = 0.004

        def parse(self, text):
            return int(text)

        def options(self, position, player):
            time.sleep(self.delay)
            return [Move(position - k, f"-{k}") for k in (1, 2) if position >= k]

    class SlowerChain(SlowChain):
        name = "slower-chain"
        delay = 0.1

    @hookimpl
    def register_rulesets(register):
        register(SlowChain())
        register(SlowerChain())

    @hookimpl
    def register_families(register):
        register(Family("chain", "slow-chain", str))
        register(Family("chain", "slower-chain", str))
    """
)


@pytest.fixture
def slow_env(tmp_path):
    (tmp_path / "tmp_slow_chain.py").write_text(SLOW_PLUGIN)
    env = dict(os.environ, PYTHONPATH=str(tmp_path), CGFRAMEWORK_PLUGINS="tmp_slow_chain")
    return env


def cgf_process(args, env, **kw):
    # SIGINT is ignored in processes started from a background job (as CI runs): restore
    # Python's own handler, as a terminal has it, so Ctrl-C raises KeyboardInterrupt.
    code = (
        "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
        "from cgframework.cli.commands import main; main(sys.argv[1:])"
    )
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        **kw,
    )


def values(stdout: str) -> list[tuple]:
    rows = [json.loads(line) for line in stdout.splitlines() if line.strip()]
    return [
        (r["parameter"], r["position"], r["value"], r["grundy"], tuple(r["best_moves"]))
        for r in rows
    ]


def summary(stderr: str) -> tuple[int, int]:
    line = [x for x in stderr.splitlines() if "computed" in x][-1].split()
    return int(line[0]), int(line[2])


def test_interrupted_sweep_resumes_without_recomputing(tmp_path, slow_env):
    store = str(tmp_path / "values.sqlite")
    args = ["sweep", "slower-chain", "chain", "--to", "24", "--store", store]
    first = cgf_process(args, slow_env)
    head = first.stdout.readline()  # wait for the first record, however slow start-up is
    time.sleep(0.5)
    first.send_signal(signal.SIGINT)
    out1, err1 = first.communicate(timeout=60)
    assert first.returncode == 130, err1
    done_before = len((head + out1).splitlines())
    assert 0 < done_before < 25
    with ValueStore(store) as vs:
        stored = len(vs)
    assert stored >= done_before  # everything emitted was stored first

    second = cgf_process(args, slow_env)
    out2, err2 = second.communicate(timeout=120)
    assert second.returncode == 0, err2
    computed, from_store = summary(err2)
    assert from_store == stored and computed == 25 - stored

    fresh = str(tmp_path / "fresh.sqlite")
    plain = cgf_process(
        ["sweep", "slower-chain", "chain", "--to", "24", "--store", fresh], slow_env
    )
    out3, _ = plain.communicate(timeout=120)
    assert values(out2) == values(out3)
    assert [v[3] for v in values(out3)] == [n % 3 for n in range(25)]


def test_two_processes_write_one_store_concurrently(tmp_path, slow_env):
    store = str(tmp_path / "shared.sqlite")
    a = cgf_process(["sweep", "slow-chain", "chain", "--to", "30", "--store", store], slow_env)
    b = cgf_process(
        ["sweep", "slow-chain", "chain", "--from", "15", "--to", "45", "--store", store], slow_env
    )
    out_a, err_a = a.communicate(timeout=120)
    out_b, err_b = b.communicate(timeout=120)
    assert a.returncode == 0 and b.returncode == 0, (err_a, err_b)
    assert len(out_a.splitlines()) == 31 and len(out_b.splitlines()) == 31
    with ValueStore(store) as vs:
        assert len(vs) == 46  # members 0..45, none lost, none doubled


def _records(executor: str, jobs: int) -> list[tuple]:
    family = get_registry().family("kayles", "heaps")
    return [
        (r.parameter, str(r.solution.value), r.solution.grundy, r.solution.best_moves)
        for r in sweep("kayles", family, 0, 40, executor=executor, jobs=jobs, method="generic")
    ]


def test_one_job_two_jobs_and_dask_give_identical_results():
    distributed = pytest.importorskip("distributed")
    local = _records("local", 1)
    assert _records("processes", 2) == local
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        address = cluster.scheduler_address.replace("tcp://", "dask://")
        assert _records(address, 1) == local


def test_store_exported_and_imported_answers_without_recomputation(tmp_path, capsys):
    machine_a, machine_b = tmp_path / "a", tmp_path / "b"
    machine_a.mkdir()
    machine_b.mkdir()
    store_a, store_b = str(machine_a / "v.sqlite"), str(machine_b / "v.sqlite")
    code, out_a, err = run_cli(
        capsys, "sweep", "dawsons-kayles", "heaps", "--to", "30", "--store", store_a
    )
    assert code == 0 and "31 computed" in err
    dump = str(machine_a / "dump.jsonl")
    assert run_cli(capsys, "store", "export", store_a, "--out", dump)[0] == 0
    code, _, err = run_cli(capsys, "store", "import", store_b, dump)
    assert code == 0 and "added 31" in err
    code, out_b, err = run_cli(
        capsys, "sweep", "dawsons-kayles", "heaps", "--to", "30", "--store", store_b
    )
    assert code == 0 and "0 computed, 31 from the store" in err
    assert values(out_a) == values(out_b)
    code, out, _ = run_cli(capsys, "store", "info", store_b)
    assert "dawsons-kayles (rules version 1): 31" in out


def test_solve_reads_the_store_and_equivalent_positions_get_their_own_moves(tmp_path):
    with ValueStore(tmp_path / "v.sqlite") as store:
        first = solve("kayles", "10,3", store=store)
        again = solve("kayles", "10,3", store=store)
        swapped = solve("kayles", "3,10", store=store)
    assert "from_store" not in first.extra and again.extra["from_store"]
    assert again.value is first.value and again.best_moves == first.best_moves
    assert swapped.position == "3,10"
    assert set(swapped.best_moves) == set(solve("kayles", "3,10").best_moves)


def test_values_of_another_universe_are_not_stored_where_auto_reads(tmp_path):
    """A solver kept out of ``auto`` (here the guaranteed-scoring-game value of a pizza)
    answers another question: its value must not come back from a later ``auto`` solve."""
    with ValueStore(tmp_path / "v.sqlite") as store:
        solve("pizza", "3,1,4,1,5", method="guaranteed", store=store)
        plain = solve("pizza", "3,1,4,1,5", store=store)
    assert plain.value == 2 and "from_store" not in plain.extra


def test_stored_values_that_cannot_give_moves_are_searched_again(tmp_path):
    """A sum stored with its summands in another order: the stored game value cannot say
    which moves of the new text are optimal, so the position is searched."""
    with ValueStore(tmp_path / "v.sqlite") as store:
        solve("guaranteed", "<^-3|<2|1>> + <-3|^0>", store=store)
        swapped = solve("guaranteed", "<-3|^0> + <^-3|<2|1>>", store=store)
    assert swapped.best_moves == ("1:-3",)


def test_key_text_is_stable_for_sets():
    assert key_text(frozenset({"b", "a", ("c", 1)})) == key_text(frozenset({("c", 1), "a", "b"}))


@pytest.mark.parametrize(
    "args",
    [
        ("sweep", "kayles", "heaps", "--from", "5", "--to", "2"),
        ("sweep", "kayles", "heaps", "--jobs", "0"),
        ("sweep", "kayles", "heaps", "--format", "xml"),
        ("sweep", "kayles", "nope"),
        ("sweep", "kayles", "heaps", "--executor", "dask://127.0.0.1:9"),
        ("store", "info", "/no/such/store.sqlite"),
    ],
)
def test_bad_sweep_and_store_input_exits_2(capsys, args):
    code, _, err = run_cli(capsys, *args)
    assert code == 2 and err.count("\n") == 1, err


def test_corrupt_store_and_import_file_are_clean_errors(tmp_path, capsys):
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not sqlite at all" * 100)
    code, _, err = run_cli(capsys, "store", "info", str(junk))
    assert code == 2 and "value store" in err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"ruleset": "x"}\n')
    store = tmp_path / "s.sqlite"
    code, _, err = run_cli(capsys, "store", "import", str(store), str(bad))
    assert code == 2 and "line 1" in err
    with ValueStore(store) as vs:
        assert len(vs) == 0  # nothing written half-way


def test_sweep_stats_count_store_hits(tmp_path):
    family = get_registry().family("nim", "heaps")
    with ValueStore(tmp_path / "v.sqlite") as store:
        stats = SweepStats()
        list(sweep("nim", family, 0, 9, store=store, stats=stats))
        assert (stats.computed, stats.from_store) == (10, 0)
        stats = SweepStats()
        list(sweep("nim", family, 5, 14, store=store, stats=stats))
        assert (stats.computed, stats.from_store) == (5, 5)


def test_transposition_table_reads_through_the_store(tmp_path):
    """Component values computed once are read back by later solves of other positions."""
    part, whole = "...|...|...", "...|...|...|###|..#"
    cold = solve("domineering", whole)
    with ValueStore(tmp_path / "v.sqlite") as store:
        solve("domineering", part, store=store)
        assert store.memo_size() > 0
        warm = solve("domineering", whole, store=store)
    assert warm.value is cold.value
    assert warm.stats.nodes < cold.stats.nodes
    generic = solve("domineering", whole, method="generic")
    with ValueStore(tmp_path / "v.sqlite") as store:
        forced = solve("domineering", whole, method="generic", store=store)
    assert forced.value is cold.value
    assert forced.stats.nodes == generic.stats.nodes  # forced methods never read the store


def test_misere_sweep_records_and_store_rows_are_apart_from_normal_play(tmp_path, capsys):
    """``cgf sweep --misere``: each record says misère; the store keeps misère and normal
    answers of the same positions in rows of their own (neither answers for the other), and
    exports, imports and verifies both."""
    store = str(tmp_path / "v.sqlite")
    sweep_args = ("sweep", "kayles", "heaps", "--to", "8", "--store", store)
    code, misere_out, err = run_cli(capsys, *sweep_args, "--misere")
    assert code == 0 and "9 computed, 0 from the store" in err
    misere = [json.loads(line) for line in misere_out.splitlines()]
    assert {r["convention"] for r in misere} == {"misere"}
    assert [(r["outcome"], r["misere_grundy"], r["genus"]) for r in misere] == [
        (s.outcome.value, s.extra["misere_grundy"], s.extra["genus"])
        for s in (solve("kayles", str(n), misere=True) for n in range(9))
    ]
    code, normal_out, err = run_cli(capsys, *sweep_args)
    assert code == 0 and "9 computed, 0 from the store" in err  # no misère row answered
    normal = [json.loads(line) for line in normal_out.splitlines()]
    assert {r["convention"] for r in normal} == {"normal"}
    assert [r["grundy"] for r in normal] == [solve("kayles", str(n)).grundy for n in range(9)]
    for extra, expected in (("--misere",), misere), ((), normal):
        code, out, err = run_cli(capsys, *sweep_args, *extra)
        assert code == 0 and "0 computed, 9 from the store" in err
        assert [{**json.loads(line), "stats": None} for line in out.splitlines()] == [
            {**r, "stats": None} for r in expected
        ]
    with ValueStore(store) as vs:
        assert len(vs) == 18
    code, out, err = run_cli(capsys, "store", "verify", store, "--all")
    assert code == 0 and "18 recomputed" in err and " 0 bad" in err, err
    dump = str(tmp_path / "dump.jsonl")
    assert run_cli(capsys, "store", "export", store, "--out", dump)[0] == 0
    code, _, err = run_cli(capsys, "store", "import", str(tmp_path / "other.sqlite"), dump)
    assert code == 0 and "added 18" in err, err


def test_misere_keys_never_use_a_key_shared_by_equal_normal_values():
    """A ruleset may key positions by their normal-play value (nim heaps 1 and 2,3 are both
    *1); in misère play 1 is a second-player win and 2,3 a first-player win, so misère rows
    are keyed by the positions themselves."""
    from cgframework import Player, parse_position
    from cgframework.store.database import position_key

    nim = get_registry().ruleset("nim")

    class NimKeyedByValue(type(nim)):
        def components(self, position):
            return (position,)  # one component: keyed whole, by its nim-sum

        def canonical_key(self, position):
            return ("nim-sum", functools.reduce(operator.xor, position.sizes, 0))

    rules = NimKeyedByValue()
    one, two_three = parse_position(rules, "1"), parse_position(rules, "2,3")
    assert position_key(rules, one, Player.LEFT) == position_key(rules, two_three, Player.LEFT)
    assert position_key(rules, one, Player.LEFT, misere=True) != position_key(
        rules, two_three, Player.LEFT, misere=True
    )
    assert position_key(rules, one, Player.LEFT, misere=True) != position_key(
        rules, one, Player.LEFT
    )
    swapped = parse_position(nim, "3,2 + 1")  # the order of summands does not matter
    assert position_key(nim, swapped, Player.LEFT, misere=True) == position_key(
        nim, parse_position(nim, "1,2 + 3"), Player.LEFT, misere=True
    )
    assert solve(rules, "1", misere=True).outcome.value == "P"
    assert solve(rules, "2,3", misere=True).outcome.value == "N"


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("kayles", "heaps", "--misere", "--method", "grundy"), "its own brute-force search"),
        (("pizza", "binary", "--misere"), "normal-play"),
    ],
)
def test_misere_sweep_refusals(capsys, args, fragment):
    code, out, err = run_cli(capsys, "sweep", *args, "--to", "2")
    assert code == 2 and out == "" and err.count("\n") == 1 and fragment in err, err
