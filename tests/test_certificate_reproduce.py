"""A lemma's file is the same whoever writes it (in this process or another, with its own hash
seed, in a pool, on a Dask cluster, in any order, after any other search, resumed), so the
SHA-256 a ledger records is a check anyone can repeat: ``cgf certificate reproduce`` writes
some of a ledger's lemmas again, checks them and compares their hashes."""

from __future__ import annotations

import functools
import glob
import json
import os
import shutil
import subprocess
import sys

import pytest

from cgframework.plugins import resolve_ruleset
from cgframework.proofs import writer as lemma_writer
from cgframework.proofs.writer import (
    build_certificate,
    build_lemma,
    lemma_claims,
    lemma_file,
    lemma_sources,
    save_certificate,
    write_lemmas,
)
from cgframework.testing import run_cli

CLOBBER_3X5 = "xoxox|oxoxo|xoxox"
"""At lemma depth 2: 30 lemmas, 16 searched and 14 rewritten from their mirror images."""


def files_in(folder: str) -> dict[str, bytes]:
    """Each file's name and bytes."""
    return {os.path.basename(p): open(p, "rb").read() for p in glob.glob(f"{folder}/*")}


@functools.cache
def _reference(folder: str) -> dict[str, bytes]:
    top = os.path.join(folder, "top.gz")
    save_certificate(top, build_certificate("clobber", CLOBBER_3X5, lemma_depth=2))
    done = write_lemmas(top, os.path.join(folder, "lemmas"))
    assert len(done.mirrored) == 14 and len(done.written) == 16
    return files_in(os.path.join(folder, "lemmas"))


@pytest.fixture
def proof(tmp_path_factory) -> tuple[str, dict[str, bytes]]:
    """Clobber 3x5's top (lemma depth 2) and its lemma files as written in this process."""
    folder = str(tmp_path_factory.getbasetemp() / "clobber-3x5-reference")
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, "top.gz"), _reference(folder)


def cgf(*args: str, seed: str) -> None:
    """``cgf ARGS`` in a process of its own, with the hash seed ``seed``."""
    env = {**os.environ, "PYTHONHASHSEED": seed}
    done = subprocess.run(
        [sys.executable, "-m", "cgframework", *args], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def test_lemma_files_are_the_same_whoever_writes_them_and_in_any_order(tmp_path, proof):
    top, reference = proof
    # other processes, each with its own hash seed: one job, and two (a pool)
    for jobs, seed in (("1", "1"), ("2", "2")):
        folder = str(tmp_path / f"jobs{jobs}")
        cgf("certificate", "lemmas", top, folder, "--jobs", jobs, seed=seed)
        assert files_in(folder) == reference, f"--jobs {jobs}"
    # in this process, the searched ones first, last to first, each after all the others
    name, claims = lemma_claims(top)
    sources = lemma_sources(resolve_ruleset(name), claims)
    folder = str(tmp_path / "reversed")
    os.makedirs(folder)
    for claim in reversed([c for c in claims if sources[c] == (c, None)]):
        save_certificate(lemma_file(folder, claim), build_lemma(name, claim))
    done = write_lemmas(top, folder)  # (the rest: mirrored from the files found there)
    assert len(done.present) == 16 and len(done.mirrored) == 14
    assert files_in(folder) == reference
    # resumed with every searched file gone and the files mirrored from them kept
    folder = str(tmp_path / "resumed")
    shutil.copytree(os.path.join(os.path.dirname(top), "lemmas"), folder)
    for claim in claims:
        if sources[claim] == (claim, None):
            os.remove(lemma_file(folder, claim))
    done = write_lemmas(top, folder)
    assert len(done.written) == 16 and not done.mirrored
    assert files_in(folder) == reference


def test_lemma_files_written_on_a_dask_cluster_are_the_same(tmp_path, proof):
    distributed = pytest.importorskip("distributed")
    top, reference = proof
    folder = str(tmp_path / "cluster")
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        silence_logs=50,
    ) as cluster:
        write_lemmas(top, folder, executor=cluster.scheduler_address.replace("tcp", "dask"))
    assert files_in(folder) == reference


def test_what_a_process_searched_before_does_not_change_a_lemma(monkeypatch, proof):
    """What the writer knows of values decides which leaves fit its work limit: with a limit
    low enough for that to matter, each lemma is still written as it is alone."""
    top, _ = proof
    monkeypatch.setattr(lemma_writer, "WRITER_WORK", 100)
    name, claims = lemma_claims(top)

    def data(claim) -> bytes:
        return build_lemma(name, claim).data

    def forget() -> None:
        lemma_writer._MEMOS.__dict__.pop("memo", None)

    alone = {}
    for claim in claims:
        forget()
        alone[claim] = data(claim)
    forget()
    assert {claim: data(claim) for claim in claims} == alone
    forget()
    assert {claim: data(claim) for claim in reversed(claims)} == alone


# -- cgf certificate reproduce


def write_proof(tmp_path, capsys) -> tuple[str, str, str]:
    """Clobber 3x5 in pieces by the command line: the top, its lemmas, their ledger."""
    top, lemmas = str(tmp_path / "top.gz"), str(tmp_path / "lemmas")
    ledger = str(tmp_path / "checked.jsonl")
    solve = ("solve", "clobber", CLOBBER_3X5, "--outcome", "--certificate", top)
    assert run_cli(capsys, *solve, "--lemma-depth", "2")[0] == 0
    assert run_cli(capsys, "certificate", "lemmas", top, lemmas)[0] == 0
    code, _, err = run_cli(
        capsys, "certificate", "check", top, "--lemmas", lemmas, "--ledger", ledger
    )
    assert code == 0, err
    return top, lemmas, ledger


def test_two_runs_give_the_same_files_and_reproduce_passes(tmp_path, capsys):
    """Clobber 3x5 at lemma depth 2: two lemma runs write the same files; ``reproduce
    --sample 2`` passes and says its seed; the same seed draws the same lemmas; every lemma,
    mirrored ones included, reproduces."""
    top, lemmas, ledger = write_proof(tmp_path, capsys)
    again = str(tmp_path / "again")
    assert run_cli(capsys, "certificate", "lemmas", top, again, "--jobs", "2")[0] == 0
    assert files_in(again) == files_in(lemmas)
    reproduce = ("certificate", "reproduce", top, "--ledger", ledger)
    code, out, err = run_cli(capsys, *reproduce, "--sample", "2")
    assert code == 0 and err == "", err
    rows = dict(line.split("\t", 1) for line in out.splitlines())
    assert rows["reproduced"] == "yes" and rows["sample"].startswith("2 of 2 lemmas reproduced")
    assert "its signature was not checked" in rows["ledger"]
    seed = rows["seed"].split()[0]
    drawn = [name for name in rows if name.startswith("lemma-")]
    assert len(drawn) == 2 and all("same SHA-256" in rows[name] for name in drawn)
    code, out, _ = run_cli(capsys, *reproduce, "--sample", "2", "--seed", seed)
    assert code == 0 and [line.split("\t")[0] for line in out.splitlines()][-2:] == drawn
    code, out, err = run_cli(capsys, *reproduce, "--sample", "30", "--json")
    found = json.loads(out)
    assert code == 0 and found["reproduced"] and found["sample"] == found["population"] == 30
    assert sum(lemma["mirrored_from"] is not None for lemma in found["lemmas"]) == 14


def test_a_ledger_line_with_one_changed_hash_is_refused(tmp_path, capsys):
    top, _, ledger = write_proof(tmp_path, capsys)
    reproduce = ("certificate", "reproduce", top, "--ledger", ledger, "--seed", "7")
    code, out, _ = run_cli(capsys, *reproduce, "--sample", "2", "--json")
    assert code == 0
    first = json.loads(out)["lemmas"][0]
    lines = open(ledger).read().splitlines(keepends=True)
    forged = str(tmp_path / "forged.jsonl")
    with open(forged, "w") as out:
        for line in lines:
            entry = json.loads(line)
            if entry["sha256"] == first["sha256"]:  # (one hex digit changed)
                entry["sha256"] = (
                    first["sha256"][:-1]
                    + "0123456789abcdef"[("0123456789abcdef".index(first["sha256"][-1]) + 1) % 16]
                )
                line = json.dumps(entry) + "\n"
            out.write(line)
    code, out, err = run_cli(
        capsys, "certificate", "reproduce", top, "--ledger", forged, "--seed", "7", "--sample", "2"
    )
    assert code == 1 and err.count("\n") == 1, err
    name = os.path.basename(first["path"])
    assert f"1 of 2 lemmas did not reproduce; the first, {name}" in err
    assert f"its SHA-256 is {first['sha256']}, the ledger records" in err
    rows = dict(line.split("\t", 1) for line in out.splitlines())
    assert rows["reproduced"] == "no" and rows[name].startswith("NOT REPRODUCED")


def test_reproduce_says_who_signed_the_ledger(tmp_path, capsys):
    """Unsigned, a ledger is reproduced all the same (the output says its signature was not
    checked); with --trusted-key it must be signed by it, as cgf certificate check demands."""
    pytest.importorskip("cryptography")
    top, _, ledger = write_proof(tmp_path, capsys)
    key = str(tmp_path / "signer.key")
    assert run_cli(capsys, "store", "keygen", key)[0] == 0
    code, fingerprint, _ = run_cli(capsys, "certificate", "sign-ledger", ledger, "--key", key)
    assert code == 0
    reproduce = ("certificate", "reproduce", top, "--ledger", ledger, "--sample", "1")
    code, out, err = run_cli(capsys, *reproduce, "--trusted-key", f"{key}.pub", "--json")
    assert code == 0 and json.loads(out)["ledger_signer"] == fingerprint.strip(), err
    with open(ledger, "a") as out:
        out.write("\n")
    code, _, err = run_cli(capsys, *reproduce, "--trusted-key", f"{key}.pub")
    assert code == 2 and "changed since it was signed" in err and err.count("\n") == 1, err
    assert run_cli(capsys, *reproduce)[0] == 0  # (not asked to check it: tested, unsigned)


def test_reproduce_refuses_bad_input_in_one_line(tmp_path, capsys):
    top, _, ledger = write_proof(tmp_path, capsys)
    other = str(tmp_path / "other.jsonl")
    with open(other, "w") as out:  # (a ledger of the top alone: none of its lemmas)
        out.writelines(line for line in open(ledger) if '"assumes": []' not in line)
    fifo = str(tmp_path / "fifo")
    os.mkfifo(fifo)
    reproduce = ("certificate", "reproduce", top, "--sample", "1")
    for args, words in [
        (("--ledger", str(tmp_path / "missing.jsonl")), "no such file"),
        (("--ledger", str(tmp_path)), "Is a directory"),
        (("--ledger", fifo), "not a regular file"),
        (("--ledger", other), "records none of the 30 lemmas"),
        (("--ledger", ledger, "--ledger-signature", ledger), "needs --trusted-key"),
        (("--ledger", str(shutil.copy(top, tmp_path / "copy.gz"))), "not a ledger entry"),
        (("--ledger", top), "name the same file"),
    ]:
        code, out, err = run_cli(capsys, *reproduce, *args)
        assert code == 2 and words in err and err.count("\n") == 1 and out == "", (args, err)
    code, _, err = run_cli(
        capsys, "certificate", "reproduce", ledger, "--ledger", ledger, "--sample", "1"
    )
    assert code == 2 and err.count("\n") == 1, err
    code, _, err = run_cli(capsys, *reproduce, "--ledger", ledger, "--sample", "0")
    assert code == 2, err


def test_a_mirrored_lemma_written_before_mirror_of_reproduces_and_no_other_change_does(
    tmp_path, capsys
):
    """The first mirrored lemmas (the Clobber 3x11 proof's) were written with headers that do
    not name their source: a ledger recording such a file reproduces, and the output says so;
    a mirrored lemma's file otherwise changed does not."""
    from cgframework.proofs.reproduce import _without_provenance

    top, lemmas, ledger = write_proof(tmp_path, capsys)
    name, claims = lemma_claims(top)
    sources = lemma_sources(resolve_ruleset(name), claims)
    mirrored = lemma_file(lemmas, next(c for c in claims if sources[c][1] is not None))
    entries = [json.loads(line) for line in open(ledger)]

    def record(sha: str) -> None:
        with open(ledger, "w") as out:
            for entry in entries:
                same = os.path.basename(entry["path"]) == os.path.basename(mirrored)
                out.write(json.dumps({**entry, "sha256": sha} if same else entry) + "\n")

    old = _without_provenance(mirrored)
    record(old)
    reproduce = ("certificate", "reproduce", top, "--ledger", ledger, "--sample", "30")
    code, out, err = run_cli(capsys, *reproduce, "--json")
    assert code == 0, err
    (found,) = [x for x in json.loads(out)["lemmas"] if x["path"].endswith(mirrored[-40:])]
    assert found["without_provenance"] == found["recorded_sha256"] == old != found["sha256"]
    code, out, err = run_cli(capsys, *reproduce)
    assert code == 0 and "its header without mirror_of" in out, err
    record(old[:-1] + ("1" if old[-1] == "0" else "0"))  # (another file: not reproduced)
    code, out, err = run_cli(capsys, *reproduce, "--json")
    assert code == 1 and not json.loads(out)["reproduced"]
