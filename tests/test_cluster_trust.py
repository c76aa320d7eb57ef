"""A Dask cluster is not trusted like this machine: remote schedulers need TLS client
certificates, its rows are marked as the cluster's, a sample is recomputed here, a cluster
without workers stops the sweep (exit 3), and local pool workers die with their parent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from cgframework import Family, plugins
from cgframework.runtime.budget import LimitExceeded
from cgframework.store.database import ValueStore
from cgframework.sweep.executors import TlsFiles, check_cluster_trust
from cgframework.sweep.runner import RecheckFailed, _recheck_sample, sweep
from cgframework.testing import run_cli

CLUSTER_PLUGIN = textwrap.dedent(
    """
    import time
    from cgframework import BaseRuleset, Convention, Family, Move, hookimpl

    def in_dask_worker():
        try:
            from distributed import get_worker
            return get_worker()
        except (ImportError, ValueError):
            return None

    class Chain(BaseRuleset):
        '''Subtract 1 or 2 from a counter.'''
        name = "honest-chain"
        convention = Convention.NORMAL
        impartial = True
        syntax = "a counter"

        def parse(self, text):
            return int(text)

        def options(self, position, player):
            return [Move(position - k, f"-{k}") for k in (1, 2) if position >= k]

    class LyingChain(Chain):
        '''Solved by a Dask worker, it forgets the move -2: members 2..5 all come out wrong.'''
        name = "lying-chain"

        def options(self, position, player):
            moves = super().options(position, player)
            return moves[:1] if in_dask_worker() is not None else moves

    class DoomedChain(Chain):
        '''Solving member 4 on a Dask worker closes that worker.'''
        name = "doomed-chain"

        def options(self, position, player):
            worker = in_dask_worker()
            if position == 4 and worker is not None:
                worker.loop.add_callback(worker.close)
                time.sleep(0.5)
            return super().options(position, player)

    class ForgingChain(Chain):
        '''Solved by a Dask worker, its answers name another position.'''
        name = "forging-chain"

        def format(self, position):
            return "forged" if in_dask_worker() is not None else str(position)

    class KilledChain(Chain):
        '''Member 4 fails on a Dask worker as a task whose workers keep dying does.'''
        name = "killed-chain"

        def options(self, position, player):
            if position == 4 and in_dask_worker() is not None:
                from types import SimpleNamespace
                from distributed import KilledWorker
                gone = SimpleNamespace(address="tcp://127.0.0.1:1")
                raise KilledWorker("solve_member-4", gone, 3)
            return super().options(position, player)

    class CrashingChain(Chain):
        '''Member 6 ends a local pool's worker process (as the kernel's OOM killer would).'''
        name = "crashing-chain"

        def options(self, position, player):
            import multiprocessing, os
            if position == 6 and multiprocessing.parent_process() is not None:
                os._exit(9)
            return super().options(position, player)

    RULESETS = (Chain, LyingChain, DoomedChain, ForgingChain, KilledChain, CrashingChain)

    @hookimpl
    def register_rulesets(register):
        for ruleset in RULESETS:
            register(ruleset())

    @hookimpl
    def register_families(register):
        for ruleset in RULESETS:
            register(Family("chain", ruleset.name, str))
    """
)


@pytest.fixture
def chains(load_tmp_plugin):
    """The plugin above, loaded in this process (where in-process Dask workers run too)."""
    load_tmp_plugin("tmp_cluster_chains", CLUSTER_PLUGIN)


@pytest.fixture
def cluster():
    """A one-worker cluster in this process, reached over loopback tcp://."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
    ) as local:
        yield local


def family(ruleset: str) -> Family:
    return plugins.get_registry().family(ruleset, "chain")


def origins(path: Path) -> list[tuple[str, str | None]]:
    with ValueStore(path) as store:
        return sorted(
            {(r["provenance"]["origin"], r["provenance"]["source"]) for r in store.records()}
        )


# -- remote schedulers need TLS client certificates


@pytest.mark.parametrize(
    "executor",
    [
        "dask://10.1.2.3:8786",
        "tcp://example.org:8786",
        "tcp://[2001:db8::1]:8786",
        "tls://10.1.2.3:8786",  # TLS, but no client certificate here or in Dask's config
        "tcp://0.0.0.0:8786",
        "tcp://[::ffff:127.0.0.1]:8786",  # a mapped address is not taken as loopback
    ],
)
def test_plain_remote_scheduler_is_refused_before_any_connection(capsys, executor):
    code, out, err = run_cli(capsys, "sweep", "kayles", "heaps", "--executor", executor)
    assert code == 2 and err.count("\n") == 1 and out == "", err
    assert "tls://" in err and "--tls-cert" in err and "--insecure" in err


@pytest.mark.parametrize(
    "address", ["tcp://127.0.0.1:1", "tcp://127.8.9.10:1", "tcp://[::1]:1", "tcp://localhost:1"]
)
def test_loopback_schedulers_need_no_certificate(address):
    check_cluster_trust(address, None, insecure=False)


def test_remote_tls_with_a_client_certificate_or_insecure_is_accepted():
    dask = pytest.importorskip("dask")
    check_cluster_trust("tls://10.1.2.3:8786", TlsFiles(cert="c.pem", key="k.pem"), False)
    check_cluster_trust("tcp://10.1.2.3:8786", None, insecure=True)
    with dask.config.set({"distributed.comm.tls.client.cert": "c.pem"}):
        check_cluster_trust("tls://10.1.2.3:8786", None, insecure=False)


@pytest.mark.parametrize(
    ("option", "says"),
    [
        (("--recheck", "1.5"), "between 0 and 1"),
        (("--recheck", "nan"), "between 0 and 1"),
        (("--worker-grace", "0"), "more than 0"),
        (("--worker-grace", "inf"), "more than 0"),
    ],
)
def test_bad_recheck_and_grace_exit_2(capsys, option, says):
    code, _, err = run_cli(capsys, "sweep", "kayles", "heaps", *option)
    assert code == 2 and err.count("\n") == 1 and says in err, err


# -- rows from a cluster are the cluster's, and a sample is computed again here


def test_cluster_rows_carry_their_origin_and_trust_local_skips_them(tmp_path, chains, cluster):
    path = tmp_path / "v.sqlite"
    address = cluster.scheduler_address
    with ValueStore(path) as store:
        records = list(
            sweep("honest-chain", family("honest-chain"), 0, 9, store=store, executor=address)
        )
    assert [r.solution.grundy for r in records] == [n % 3 for n in range(10)]
    assert origins(path) == [("cluster", address)]
    with ValueStore(path, trust="local") as store:
        again = list(sweep("honest-chain", family("honest-chain"), 0, 9, store=store))
    assert not any(r.stored for r in again)  # recomputed here, not read from the cluster's
    assert origins(path) == [("cluster", address)]  # (an existing row is kept)
    pooled = tmp_path / "pool.sqlite"
    with ValueStore(pooled) as store:
        list(
            sweep(
                "honest-chain",
                family("honest-chain"),
                0,
                9,
                store=store,
                jobs=2,
                executor="processes",
            )
        )
    assert [origin for origin, _ in origins(pooled)] == ["computed"]


def test_a_disagreeing_cluster_stops_the_sweep_and_stores_nothing(tmp_path, chains, cluster):
    path = tmp_path / "v.sqlite"
    address = cluster.scheduler_address
    with ValueStore(path) as store:
        with pytest.raises(RecheckFailed) as failure:
            list(
                sweep(
                    "lying-chain",
                    family("lying-chain"),
                    2,
                    5,
                    store=store,
                    executor=address,
                    recheck=0.01,
                    recheck_seed=7,
                )
            )
    assert address in str(failure.value) and "member " in str(failure.value)
    with ValueStore(path) as store:
        assert len(store) == 0
    with ValueStore(path) as store:  # without rechecks the lie goes through, marked as such
        list(
            sweep(
                "lying-chain",
                family("lying-chain"),
                2,
                5,
                store=store,
                executor=address,
                recheck=0,
            )
        )
    assert origins(path) == [("cluster", address)]


def test_a_disagreement_is_one_line_and_exit_2(tmp_path, chains, cluster, capsys):
    args = [
        "sweep",
        "lying-chain",
        "chain",
        "--from",
        "2",
        "--to",
        "5",
        "--store",
        str(tmp_path / "v.sqlite"),
        "--executor",
        cluster.scheduler_address,
        "--recheck",
        "0.01",
    ]
    code, _, err = run_cli(capsys, *args)
    assert code == 2 and err.count("\n") == 1, err
    assert cluster.scheduler_address in err and "member" in err


def test_answers_for_another_position_are_refused_even_without_rechecks(tmp_path, chains, cluster):
    path = tmp_path / "v.sqlite"
    with ValueStore(path) as store, pytest.raises(RecheckFailed) as failure:
        list(
            sweep(
                "forging-chain",
                family("forging-chain"),
                0,
                5,
                store=store,
                executor=cluster.scheduler_address,
                recheck=0,
            )
        )
    assert "not its solution" in str(failure.value)
    with ValueStore(path) as store:
        assert len(store) == 0


def test_the_recheck_sample_is_seeded_and_never_empty():
    pending = {n: str(n) for n in range(100)}
    assert _recheck_sample(pending, 0.05, 3) == _recheck_sample(pending, 0.05, 3)
    assert len(_recheck_sample(pending, 0.05, 3)) == 5
    assert len(_recheck_sample({1: "1", 2: "2"}, 0.05, 3)) == 1  # at least one per sweep
    assert _recheck_sample(pending, 0, 3) == frozenset()
    assert _recheck_sample(pending, 1, 3) == frozenset(pending)


# -- a cluster that loses its workers stops the sweep, keeping what finished


def _run_in_thread(fn, timeout: float):
    """``fn()`` in a thread: (its result or exception); fails instead of hanging."""
    outcome: dict[str, object] = {}

    def target() -> None:
        try:
            outcome["result"] = fn()
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            outcome["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), f"still waiting after {timeout} s"
    return outcome


def test_a_cluster_whose_only_worker_closes_stops_with_exit_3(tmp_path, chains, cluster, capsys):
    path = tmp_path / "v.sqlite"
    args = [
        "sweep",
        "doomed-chain",
        "chain",
        "--to",
        "12",
        "--store",
        str(path),
        "--executor",
        cluster.scheduler_address,
        "--worker-grace",
        "2",
        "--recheck",
        "0",
    ]
    outcome = _run_in_thread(lambda: run_cli(capsys, *args), timeout=20)
    code, out, err = outcome["result"]
    assert code == 3 and err.count("\n") == 1 and "worker" in err, err
    printed = [line for line in out.splitlines() if line.strip()]
    with ValueStore(path) as store:
        assert len(store) == len(printed) > 0  # what finished is output and stored


def test_the_sweep_api_raises_a_limit_when_workers_vanish(chains, cluster):
    records = []

    def run() -> None:
        for record in sweep(
            "doomed-chain",
            family("doomed-chain"),
            0,
            12,
            executor=cluster.scheduler_address,
            worker_grace=1,
            recheck=0,
        ):
            records.append(record)

    outcome = _run_in_thread(run, timeout=20)
    assert isinstance(outcome.get("error"), LimitExceeded)
    assert records and all(not r.stored for r in records)


def test_a_killed_worker_error_stops_with_exit_3_keeping_what_finished(
    tmp_path, chains, cluster, capsys
):
    path = tmp_path / "v.sqlite"
    args = ["sweep", "killed-chain", "chain", "--to", "3", "--store", str(path)]
    args += ["--executor", cluster.scheduler_address, "--recheck", "0"]
    assert run_cli(capsys, *args)[0] == 0  # members 0..3 stored, from the cluster
    args[4] = "8"
    code, out, err = run_cli(capsys, *args)
    assert code == 3 and err.count("\n") == 1 and "KilledWorker" in err, err
    assert [line for line in out.splitlines() if line.strip()]  # what finished is printed
    assert origins(path) == [("cluster", cluster.scheduler_address)]


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="--jobs 2 needs two CPUs")
def test_a_pool_worker_that_dies_stops_with_exit_3_keeping_what_finished(tmp_path, chains, capsys):
    path = tmp_path / "v.sqlite"
    args = ["sweep", "crashing-chain", "chain", "--to", "12", "--store", str(path), "--jobs", "2"]
    code, out, err = run_cli(capsys, *args)
    assert code == 3 and err.count("\n") == 1 and "worker process died" in err, err
    printed = [line for line in out.splitlines() if line.strip()]
    with ValueStore(path) as store:  # everything printed was stored; a member that finished
        assert len(store) >= len(printed)  # after one still pending is stored, not printed


# -- local pool workers die with their parent

SLOW_PLUGIN = textwrap.dedent(
    """
    import time
    from cgframework import BaseRuleset, Convention, Family, Move, hookimpl

    class SlowerChain(BaseRuleset):
        '''Subtract 1 or 2; every option listing sleeps.'''
        name = "slower-chain"
        convention = Convention.NORMAL
        impartial = True
        syntax = "a counter"

        def parse(self, text):
            return int(text)

        def options(self, position, player):
            time.sleep(0.1)
            return [Move(position - k, f"-{k}") for k in (1, 2) if position >= k]

    @hookimpl
    def register_rulesets(register):
        register(SlowerChain())

    @hookimpl
    def register_families(register):
        register(Family("chain", "slower-chain", str))
    """
)


def children(pid: int) -> set[int]:
    """The live children of ``pid``, from /proc."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        found.update(int(p) for p in task.read_text().split())
    return {p for p in found if alive(p)}


def alive(pid: int) -> bool:
    """Is ``pid`` running (a zombie waiting for a reaper is not)?"""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="--jobs 2 needs two CPUs")
def test_pool_workers_die_with_a_killed_parent(tmp_path):
    (tmp_path / "tmp_slower_chain.py").write_text(SLOW_PLUGIN)
    env = dict(os.environ, PYTHONPATH=str(tmp_path), CGFRAMEWORK_PLUGINS="tmp_slower_chain")
    code = "import sys; from cgframework.cli.commands import main; main(sys.argv[1:])"
    parent = subprocess.Popen(
        [sys.executable, "-c", code, "sweep", "slower-chain", "chain", "--to", "60", "--jobs", "2"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    try:
        assert parent.stdout.readline()  # the pool is at work
        workers = children(parent.pid)
        assert workers, "no pool workers found"
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(timeout=10)
        deadline = time.monotonic() + 5
        while any(alive(p) for p in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(alive(p) for p in workers), "pool workers outlived their parent"
    finally:
        try:
            os.killpg(parent.pid, signal.SIGKILL)  # its own session: whatever is left
        except ProcessLookupError:
            pass


def test_a_scheduler_that_goes_away_stops_with_exit_3(monkeypatch):
    """The scheduler killed mid-sweep: Dask's wait raises FuturesCancelledError
    ("scheduler-connection-lost"); the sweep stops as for lost workers (exit 3), not with an
    internal error."""
    distributed = pytest.importorskip("distributed")
    from distributed.client import CancelledFuturesGroup, FuturesCancelledError

    from cgframework.sweep import executors

    def gone(*args, **kwargs):
        raise FuturesCancelledError([CancelledFuturesGroup([], "scheduler-connection-lost")])

    monkeypatch.setattr(distributed, "wait", gone)
    with pytest.raises(executors.WorkersLost, match="lost a worker or the connection"):
        next(executors.cluster_results(None, [object()], "tcp://127.0.0.1:1", grace=1))


@pytest.mark.parametrize("behaviour", ["silent", "http"])
def test_an_address_that_is_no_scheduler_is_refused_in_seconds(capsys, behaviour):
    """A loopback port where no Dask scheduler listens but something accepts: a silent server
    (the client would wait for ever) or another protocol (its first bytes, read as a length,
    ask for exabytes): exit 2 in one line within the probe's seconds."""
    import contextlib
    import socket
    import threading

    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def serve() -> None:
        connection, _ = server.accept()
        with connection:
            if behaviour == "http":
                connection.sendall(b"HTTP/1.0 400 Bad Request\r\n\r\n")
            with contextlib.suppress(OSError):  # wait until the client goes
                connection.recv(1)

    threading.Thread(target=serve, daemon=True).start()
    with server:
        args = ["sweep", "kayles", "heaps", "--to", "3", "--executor", f"tcp://127.0.0.1:{port}"]
        code, out, err = run_cli(capsys, *args)
    assert code == 2 and not out and err.count("\n") == 1, err
    assert ("no Dask scheduler answered" if behaviour == "silent" else "does not answer") in err
