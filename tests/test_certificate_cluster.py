"""A proof's lemmas written on a Dask cluster that loses workers: a worker killed in the middle
of a lemma costs that lemma's work, done again on another worker; the proof completes, its
files are those written here (byte for byte), the ledger records each once; a lemma that kills
every worker it meets ends the run (exit 3) after a bounded number of tries."""

from __future__ import annotations

import glob
import json
import os
import signal
import threading
import time

import pytest

from cgframework.plugins import resolve_ruleset
from cgframework.proofs import check_certificate
from cgframework.proofs.lemmas import check_proof
from cgframework.proofs.writer import (
    LEMMA_RESUBMISSIONS,
    build_certificate,
    lemma_claims,
    lemma_sources,
    save_certificate,
    write_lemmas,
)
from cgframework.testing import run_cli

dask = pytest.importorskip("dask")
distributed = pytest.importorskip("distributed")

PLUGIN = '''
import os
import time

from cgframework import hookimpl
from cgframework_grids.stones import Clobber


def on_dask_worker():
    try:
        from distributed import get_worker

        get_worker()
        return True
    except (ImportError, ValueError):
        return False


class StallingClobber(Clobber):
    """Clobber whose first lemma on a Dask worker (one in the whole cluster) waits there to be
    killed: it leaves its worker's process id in $CGF_TEST_STALL/pid, then sleeps."""

    name = "stalling-clobber"

    def options(self, position, player):
        if on_dask_worker():
            folder = os.environ["CGF_TEST_STALL"]
            try:
                os.mkdir(os.path.join(folder, "taken"))  # (once: mkdir is atomic)
            except FileExistsError:
                pass
            else:
                with open(os.path.join(folder, "pid.tmp"), "w") as out:
                    out.write(str(os.getpid()))
                os.replace(os.path.join(folder, "pid.tmp"), os.path.join(folder, "pid"))
                time.sleep(120)
        return super().options(position, player)


class KillingClobber(Clobber):
    """Clobber one of whose positions ($CGF_TEST_POISON) ends any Dask worker that moves in it
    (as the kernel's OOM killer would)."""

    name = "killing-clobber"

    def options(self, position, player):
        if on_dask_worker() and self.format(position) == os.environ["CGF_TEST_POISON"]:
            os._exit(9)
        return super().options(position, player)


@hookimpl
def register_rulesets(register):
    register(StallingClobber())
    register(KillingClobber())
'''

BOARD = "xoxox|oxoxo|xoxox"
"""Clobber 3x5, lemma depth 2: 30 lemmas, 16 searched, 14 mirrored."""


@pytest.fixture
def dying_clobbers(load_tmp_plugin, monkeypatch, tmp_path):
    """The plugin above, loaded here and allowed on the cluster's workers (spawned by this
    process: they find it on the same path)."""
    load_tmp_plugin("tmp_dying_clobbers", PLUGIN)
    monkeypatch.setenv("CGFRAMEWORK_WORKER_PLUGINS", "tmp_dying_clobbers")
    stall = tmp_path / "stall"
    stall.mkdir()
    monkeypatch.setenv("CGF_TEST_STALL", str(stall))
    return stall


def strict_cluster(workers: int) -> distributed.LocalCluster:
    """A cluster of ``workers`` processes (one thread each) whose scheduler gives up on a task
    the first time its worker dies (Dask's default tries three more workers by itself): what
    is computed again is so computed by the lemma writer's own resubmission."""
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        return distributed.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            silence_logs=50,
        )


def kill_when_stalled(stall, timeout: float = 60) -> threading.Thread:
    """A thread that kills (SIGKILL) the worker process that stalls in the middle of a lemma,
    as soon as it says so; ``result`` on the thread: the process id killed."""

    def kill() -> None:
        marker = stall / "pid"
        ends = time.monotonic() + timeout
        while not marker.exists() and time.monotonic() < ends:
            time.sleep(0.05)
        if marker.exists():
            killer.result = int(marker.read_text())
            os.kill(killer.result, signal.SIGKILL)

    killer = threading.Thread(target=kill, daemon=True)
    killer.result = None
    killer.start()
    return killer


def reference_lemmas(ruleset: str, folder: str) -> dict[str, bytes]:
    """Clobber 3x5's lemmas as this process writes them: each file's name and bytes."""
    os.makedirs(folder)
    top = os.path.join(folder, "top.gz")
    save_certificate(top, build_certificate(ruleset, BOARD, lemma_depth=2))
    write_lemmas(top, os.path.join(folder, "lemmas"))
    return files_in(os.path.join(folder, "lemmas"))


def files_in(folder: str) -> dict[str, bytes]:
    return {
        os.path.basename(path): open(path, "rb").read()
        for path in glob.glob(os.path.join(folder, "*"))
    }


def test_a_worker_killed_in_the_middle_of_a_lemma_loses_nothing(tmp_path, dying_clobbers, capsys):
    """Three workers, one killed (SIGKILL) while it writes a lemma: the lemma is written by
    another worker, the run ends with exit 0, every file is the one written here, the proof
    verifies and its ledger records each file once."""
    reference = reference_lemmas("stalling-clobber", str(tmp_path / "here"))
    top = str(tmp_path / "here" / "top.gz")
    folder = str(tmp_path / "cluster")
    with strict_cluster(3) as cluster:
        with distributed.Client(cluster) as client:
            workers = set(client.run(os.getpid).values())
        killer = kill_when_stalled(dying_clobbers)
        address = cluster.scheduler_address.replace("tcp://", "dask://")
        args = ["certificate", "lemmas", top, folder, "--executor", address, "--json"]
        code, out, err = run_cli(capsys, *args)
        killer.join(5)
    assert killer.result in workers  # (a worker was killed in the middle of a lemma)
    assert code == 0, err
    done = json.loads(out)
    assert done["written"] + done["mirrored"] == len(reference) == 30
    assert files_in(folder) == reference  # (whole files, each as written here; nothing else)
    ledger = str(tmp_path / "checked.jsonl")
    lemmas = sorted(glob.glob(os.path.join(folder, "*.gz")))
    report = check_proof(top, lemmas, ledger=ledger)
    assert report.outcome.value == "N" and report.lemma_files == len(lemmas)
    recorded = [json.loads(line) for line in open(ledger)]
    assert sorted(e["path"] for e in recorded) == sorted([top, *lemmas])
    assert {e["sha256"] for e in recorded} == {check_certificate(p).file_sha256 for p in lemmas} | {
        check_certificate(top).file_sha256
    }


def test_a_lemma_that_kills_every_worker_ends_the_run_with_exit_3(
    tmp_path, dying_clobbers, monkeypatch, capsys
):
    """A lemma whose every worker dies is tried 1 + LEMMA_RESUBMISSIONS times, then the run
    stops (exit 3, one line naming it); the other lemmas are kept, and the run, resumed where
    nothing dies, completes the proof."""
    top = str(tmp_path / "top.gz")
    save_certificate(top, build_certificate("killing-clobber", BOARD, lemma_depth=2))
    name, claims = lemma_claims(top)
    sources = lemma_sources(resolve_ruleset(name), claims)
    poison = next(c for c in claims if sources[c] == (c, None))  # (searched, not mirrored)
    monkeypatch.setenv("CGF_TEST_POISON", poison.texts[0])
    folder = str(tmp_path / "lemmas")
    with strict_cluster(2) as cluster:
        address = cluster.scheduler_address.replace("tcp://", "dask://")
        args = ["certificate", "lemmas", top, folder, "--executor", address]
        code, out, err = run_cli(capsys, *args)
    assert code == 3 and err.count("\n") == 1, err
    assert f"gave up on the lemma {poison.describe()} {1 + LEMMA_RESUBMISSIONS} times" in err, err
    monkeypatch.setenv("CGF_TEST_POISON", "")  # (here, nothing dies)
    done = write_lemmas(top, folder)
    assert 0 < len(done.written) + len(done.mirrored) < len(claims)  # (the rest were kept)
    lemmas = sorted(glob.glob(os.path.join(folder, "*.gz")))
    assert check_proof(top, lemmas).outcome.value == "N"
