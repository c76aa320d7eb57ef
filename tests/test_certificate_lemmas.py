"""Proofs in several files: a certificate whose positions some moves deep are ``"lemma"`` leaves,
proved by certificates of their own (one side each). The pieces together verify, and give the
outcome brute force gives; a piece missing, a piece of the other claim, or two pieces that
assume each other prove nothing; a ledger lets later runs skip the files already checked."""

from __future__ import annotations

import atexit
import functools
import glob
import gzip
import json
import os
import shutil
import signal
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from position_strategies import board
from test_certificate_values import pack, unpack

from cgframework.extensions import SolveContext
from cgframework.game import Outcome, Player, parse_position
from cgframework.plugins import resolve_ruleset
from cgframework.proofs import (
    CertificateError,
    CertificateUnreadable,
    build_certificate,
    check_certificate,
)
from cgframework.proofs.checker import Claim
from cgframework.proofs.lemmas import _Checked, _established, check_proof
from cgframework.proofs.writer import (
    lemma_claims,
    lemma_file,
    save_certificate,
    write_lemmas,
)
from cgframework.solvers.outcome import outcome_of
from cgframework.testing import run_cli

SETTINGS = settings(
    max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)


def split_proof(folder, ruleset, position, depth=2, **options):
    """The certificate of ``position`` with lemma leaves at ``depth``, and its lemmas."""
    top = os.path.join(folder, "top.gz")
    save_certificate(top, build_certificate(ruleset, position, lemma_depth=depth, **options))
    parts = os.path.join(folder, "lemmas")
    write_lemmas(top, parts)
    return top, sorted(glob.glob(os.path.join(parts, "*.gz")))


@functools.cache
def _clobber_3x5_proof() -> str:
    """Clobber 3x5 (N) in pieces, written once for the tests that tamper with a copy."""
    folder = tempfile.mkdtemp(prefix="cgf-lemmas-")
    atexit.register(shutil.rmtree, folder, True)
    split_proof(folder, "clobber", "xoxox|oxoxo|xoxox")
    return folder


def clobber_3x5_proof(tmp_path):
    """A fresh copy of :func:`_clobber_3x5_proof` in ``tmp_path``: its top and its lemmas."""
    shutil.copytree(_clobber_3x5_proof(), tmp_path, dirs_exist_ok=True)
    top = str(tmp_path / "top.gz")
    return top, sorted(glob.glob(str(tmp_path / "lemmas" / "*.gz")))


@pytest.mark.parametrize(
    ("position", "outcome"), [("xoxox|oxoxo|xoxox", "N"), ("xoxoxo|oxoxox", "P")]
)
def test_a_proof_in_pieces_verifies(tmp_path, position, outcome):
    top, lemmas = split_proof(str(tmp_path), "clobber", position)
    alone = check_certificate(top)
    assert alone.lemma_leaves > 0 and alone.assumes  # not a proof by itself
    assert len(lemmas) == len(alone.assumes)
    report = check_proof(top, lemmas)
    assert report.outcome.value == outcome
    assert report.assumes == () and report.lemma_files == len(lemmas)
    for lemma in lemmas:  # each lemma is a certificate of one side, checked on its own
        piece = check_certificate(lemma)
        assert piece.outcome is None and len(piece.claims) == 1 and not piece.assumes


@SETTINGS
@given(board("xxoo.", 3, 4))
def test_pieces_give_the_brute_force_outcome(tmp_path_factory, text):
    ruleset = resolve_ruleset("clobber")
    folder = str(tmp_path_factory.mktemp("pieces"))
    top, lemmas = split_proof(folder, ruleset, text, depth=1, value_budget=0, leaf_budget=0)
    report = check_proof(top, lemmas)
    position = parse_position(ruleset, text)
    assert report.outcome is outcome_of(ruleset, position, SolveContext(), False)


def test_a_missing_lemma_leaves_the_proof_unproved(tmp_path):
    top, lemmas = clobber_3x5_proof(tmp_path)
    with pytest.raises(CertificateError, match="are not proved by the lemma files given"):
        check_proof(top, lemmas[1:])


def test_a_lemma_of_another_claim_proves_nothing(tmp_path):
    top, lemmas = clobber_3x5_proof(tmp_path)
    _, claims = lemma_claims(top)
    claim = claims[0]
    # in its place, a true certificate of the same position with the other player to move
    position = " + ".join(claim.texts)
    other = build_certificate("clobber", position, first=claim.mover.opponent)
    target = lemma_file(str(tmp_path / "lemmas"), claim)
    assert target in lemmas
    save_certificate(target, other)
    check_certificate(target)
    with pytest.raises(CertificateError, match="1 of the .* lemmas .* are not proved"):
        check_proof(top, lemmas)


def test_lemmas_that_assume_each_other_prove_nothing():
    one = Claim(("xo",), Player.LEFT, True)
    two = Claim(("ox",), Player.RIGHT, True)
    three = Claim(("xxo",), Player.LEFT, True)
    circle = [
        _Checked("a", "clobber", (one,), (two,), False),
        _Checked("b", "clobber", (two,), (one,), False),
        _Checked("c", "clobber", (three,), (), False),
    ]
    established = _established(circle)
    assert three.digest + b"W" in established
    assert one.digest + b"W" not in established and two.digest + b"W" not in established
    chain = [*circle[2:], _Checked("d", "clobber", (one,), (three,), False)]
    assert one.digest + b"W" in _established(chain)


@pytest.mark.parametrize("jobs", [1, 2])  # (2: the refusal comes from a worker process)
def test_a_lemma_of_a_tampered_claim_is_refused(tmp_path, jobs):
    top, lemmas = clobber_3x5_proof(tmp_path)
    header, nodes = unpack(lemmas[0])
    root = next(iter(header["roots"].values()))
    nodes[root][2] = "W" if nodes[root][2] == "L" else "L"
    pack(lemmas[0], header, nodes)
    with pytest.raises(CertificateError, match=os.path.basename(lemmas[0])):
        check_proof(top, lemmas, jobs=jobs)


def test_a_one_sided_header_is_read_strictly(tmp_path):
    built = build_certificate("clobber", "xoxo|oxox", first=Player.RIGHT)
    assert built.outcome is None and set(built.header["roots"]) == {"right_first"}
    path = str(tmp_path / "one.gz")
    save_certificate(path, built)
    report = check_certificate(path)
    assert report.left_first_wins is None and report.right_first_wins is not None
    header, nodes = unpack(path)
    for bad, words in [
        ({"outcome": "P"}, "without the root"),
        ({"left_first": "R"}, "without the root"),
        ({"version": 2}, "'left_first' is missing"),
    ]:
        pack(path, {**header, **bad}, nodes)
        with pytest.raises(CertificateError, match=words):
            check_certificate(path)


def test_a_lemma_leaf_needs_a_version_3_header(tmp_path):
    top, _ = clobber_3x5_proof(tmp_path)
    header, nodes = unpack(top)
    pack(top, {**header, "version": 2}, nodes)
    with pytest.raises(CertificateError, match="a lemma leaf in a version 2 certificate"):
        check_certificate(top)


def test_writing_lemmas_resumes(tmp_path):
    top, lemmas = clobber_3x5_proof(tmp_path)
    os.remove(lemmas[2])
    done = write_lemmas(top, str(tmp_path / "lemmas"))
    assert done.written + done.mirrored == (lemmas[2],)  # (searched, or its image rewritten)
    assert len(done.present) == len(lemmas) - 1


def test_without_a_sum_separator_no_position_of_several_components_is_a_lemma(
    tmp_path, monkeypatch
):
    ruleset = resolve_ruleset("clobber")
    monkeypatch.setattr(type(ruleset), "sum_separator", None)
    built = build_certificate(ruleset, "xoxox|oxoxo|xoxox", lemma_depth=2)
    path = str(tmp_path / "top.gz")
    save_certificate(path, built)
    _, claims = lemma_claims(path)
    assert claims and all(len(claim.texts) == 1 for claim in claims)
    monkeypatch.undo()
    assert check_certificate(path).assumes


def test_the_ledger_vouches_for_files_checked_before(tmp_path):
    top, lemmas = clobber_3x5_proof(tmp_path)
    ledger = str(tmp_path / "ledger.jsonl")
    first = check_proof(top, lemmas, ledger=ledger)
    assert first.lemma_files_from_ledger == 0
    again = check_proof(top, lemmas, ledger=ledger)
    assert again.lemma_files_from_ledger == len(lemmas)
    assert again.outcome is first.outcome is Outcome.N and again.nodes == first.nodes
    with open(lemmas[0], "r+b") as out:  # a changed file is not vouched for: checked again
        data = bytearray(out.read())
        data[len(data) // 2] ^= 0xFF
        out.seek(0)
        out.write(data)
    with pytest.raises(CertificateError, match=os.path.basename(lemmas[0])):
        check_proof(top, lemmas, ledger=ledger)


def test_a_proof_kept_as_its_top_and_ledger_alone(tmp_path):
    """Lemmas checked one at a time into the ledger, then deleted: ``from_ledger`` counts the
    claims recorded; the writer leaves them out, and writes again only what the ledger lacks."""
    top, lemmas = clobber_3x5_proof(tmp_path)
    ledger = str(tmp_path / "ledger.jsonl")
    for lemma in lemmas:
        assert check_proof(lemma, ledger=ledger).assumes == ()
    folder = os.path.dirname(lemmas[0])
    for lemma in lemmas:
        os.remove(lemma)
    with pytest.raises(CertificateError, match="not proved by the lemma files given"):
        check_proof(top, ledger=ledger)
    with pytest.raises(CertificateUnreadable, match="not trusted"):
        check_proof(top, ledger=ledger, from_ledger=True)  # (unsigned: said to be trusted)
    report = check_proof(top, ledger=ledger, from_ledger=True, trust_unsigned_ledger=True)
    assert report.outcome is Outcome.N and report.assumes == ()
    assert report.lemma_files == report.lemma_files_from_ledger == len(lemmas)
    assert report.lemma_claims_from_ledger == len(set(lemma_claims(top)[1]))
    assert "no signature" in report.ledger_unverified
    done = write_lemmas(top, folder, ledger=ledger)
    assert (done.written, done.mirrored, done.in_ledger) == ((), (), len(lemmas))
    assert os.listdir(folder) == []
    with open(ledger) as lines:
        entries = lines.readlines()
    with open(ledger, "w") as out:  # the first lemma's entry lost: only it is written again
        out.writelines(entries[1:])
    with pytest.raises(CertificateError, match="the first"):
        check_proof(top, ledger=ledger, from_ledger=True, trust_unsigned_ledger=True)
    done = write_lemmas(top, folder, ledger=ledger)
    # (it, and, if it is a mirror image, the lemma it is rewritten from, whose file is written
    # again byte for byte: the ledger vouches for it)
    written = done.written + done.mirrored
    assert os.path.basename(lemmas[0]) in {os.path.basename(p) for p in written}
    assert len(written) == len(lemmas) - done.in_ledger == 1 + len(done.mirrored)
    again = check_proof(
        top,
        glob.glob(os.path.join(folder, "*.gz")),
        ledger=ledger,
        from_ledger=True,
        trust_unsigned_ledger=True,
    )
    assert again.outcome is Outcome.N and again.lemma_files_from_ledger == len(lemmas) - 1
    assert again.lemma_claims_from_ledger == len(set(lemma_claims(top)[1])) - 1


def test_the_cli_writes_and_checks_a_proof_in_pieces(tmp_path, capsys):
    top, parts, ledger = (str(tmp_path / name) for name in ("top.gz", "lemmas", "l.jsonl"))
    code, out, err = run_cli(
        capsys, "solve", "clobber", "xoxox|oxoxo|xoxox", "--outcome", "--certificate", top,
        "--lemma-depth", "2", "--json",
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["certificate"]["lemma_leaves"] > 0
    code, out, err = run_cli(capsys, "certificate", "check", top)
    assert code == 1 and "assumes" in err and "--lemmas DIR" in err
    code, out, err = run_cli(capsys, "certificate", "lemmas", top, parts, "--json")
    assert code == 0, err
    done = json.loads(out)
    assert done["written"] > 0 and done["mirrored"] > 0  # (3x5: mirror images of lemmas)
    assert done["lemmas"] == done["written"] + done["mirrored"]
    fresh = str(tmp_path / "fresh")
    code, out, err = run_cli(capsys, "certificate", "lemmas", top, fresh, "--no-mirrors", "--json")
    assert code == 0, err
    assert json.loads(out)["mirrored"] == 0 and json.loads(out)["written"] == done["lemmas"]
    assert sorted(os.listdir(fresh)) == sorted(os.listdir(parts))
    code, out, err = run_cli(
        capsys, "certificate", "check", top, "--lemmas", parts, "--ledger", ledger, "--json"
    )
    assert code == 0, err
    report = json.loads(out)
    assert report["verified"] and report["outcome"] == "N" and report["lemma_files"] > 0
    shutil.rmtree(parts)  # (the top and the ledger are all that is kept)
    code, out, err = run_cli(
        capsys, "certificate", "lemmas", top, parts, "--ledger", ledger, "--json"
    )
    assert code == 0, err
    assert json.loads(out)["in_ledger"] == done["lemmas"] and os.listdir(parts) == []
    code, out, err = run_cli(
        capsys, "certificate", "check", top, "--ledger", ledger, "--from-ledger", "--json"
    )
    assert code == 2 and "--trust-unsigned-ledger" in err and err.count("\n") == 1, err
    code, out, err = run_cli(
        capsys, "certificate", "check", top, "--ledger", ledger, "--from-ledger", "--json",
        "--trust-unsigned-ledger",
    )  # fmt: skip
    assert code == 0, err
    assert "trusted unchecked" in err and err.count("\n") == 1, err
    again = json.loads(out)
    assert again["lemma_files_from_ledger"] == report["lemma_files"]
    assert again["lemma_claims_from_ledger"] > 0 and again["ledger_unverified"]


def test_a_dask_cluster_writes_lemmas_the_checker_accepts(tmp_path):
    """The cluster's workers return each file's bytes, written here; the proof verifies."""
    distributed = pytest.importorskip("distributed")
    top = os.path.join(_clobber_3x5_proof(), "top.gz")
    folder = str(tmp_path / "lemmas")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        address = cluster.scheduler_address.replace("tcp://", "dask://")
        done = write_lemmas(top, folder, executor=address, mirrors=False)
    lemmas = sorted(glob.glob(os.path.join(folder, "*.gz")))
    assert len(done.written) == len(lemmas) == check_certificate(top).lemma_leaves
    assert check_proof(top, lemmas).outcome is Outcome.N


LEMMA_PLUGIN = """
from cgframework import hookimpl
from cgframework_grids.stones import Clobber


class ClobberAgain(Clobber):
    '''Clobber under a name only this plugin registers.'''
    name = "clobber-again"


class CrashingClobber(Clobber):
    '''Clobber whose moves end a pool's worker process (as the kernel's OOM killer would).'''
    name = "crashing-clobber"

    def options(self, position, player):
        import multiprocessing, os
        if multiprocessing.parent_process() is not None:
            os._exit(9)
        return super().options(position, player)


@hookimpl
def register_rulesets(register):
    register(ClobberAgain())
    register(CrashingClobber())
"""


@pytest.fixture
def lemma_plugin(load_tmp_plugin):
    """The plugin above, loaded here by name (as ``cgf --plugin`` would)."""
    load_tmp_plugin("tmp_lemma_clobbers", LEMMA_PLUGIN)


def test_pool_workers_know_the_plugins_loaded_here(tmp_path, capsys, lemma_plugin):
    top = str(tmp_path / "top.gz")
    save_certificate(top, build_certificate("clobber-again", "xoxox|oxoxo|xoxox", lemma_depth=2))
    folder = str(tmp_path / "lemmas")
    code, out, err = run_cli(capsys, "certificate", "lemmas", top, folder, "--jobs", "2")
    assert code == 0, err
    code, out, err = run_cli(
        capsys, "certificate", "check", top, "--lemmas", folder, "--jobs", "2", "--json"
    )
    assert code == 0, err
    report = json.loads(out)
    assert report["outcome"] == "N" and report["ruleset"] == "clobber-again"
    assert report["lemma_files"] == len(os.listdir(folder)) > 1


def test_a_pool_that_loses_a_worker_stops_in_one_line(tmp_path, capsys, lemma_plugin):
    """A worker that dies (killed, out of memory) ends the run with exit 3 and one line; no
    worker is left computing."""
    import multiprocessing

    before = set(multiprocessing.active_children())  # (only what this test starts counts)
    top = str(tmp_path / "top.gz")
    position = "xoxox|oxoxo|xoxox"
    save_certificate(top, build_certificate("crashing-clobber", position, lemma_depth=2))
    folder = str(tmp_path / "lemmas")
    code, out, err = run_cli(capsys, "certificate", "lemmas", top, folder, "--jobs", "2")
    assert code == 3 and "worker process died" in err and err.count("\n") == 1, err
    assert not (left := set(multiprocessing.active_children()) - before), left
    write_lemmas(top, folder)  # (in this process, where its moves do not crash)
    ledger = str(tmp_path / "checked.jsonl")
    code, out, err = run_cli(
        capsys, "certificate", "check", top, "--lemmas", folder, "--jobs", "2", "--ledger", ledger
    )
    assert code == 3 and "worker process died" in err and err.count("\n") == 1, err
    assert not (left := set(multiprocessing.active_children()) - before), left


def _entry(number: int, claim: str) -> dict:
    """A ledger line recording a file (that nobody has) proving ``xo`` with Left to move."""
    return {
        "sha256": f"{number:064x}",
        "path": f"lemma-{number}.gz",
        "ruleset": "clobber",
        "installed_version": "1",
        "proves": [{"components": ["xo"], "mover": "L", "claim": claim}],
        "assumes": [],
        "report": None,
    }


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("solve", "clobber", "xoxo", "--lemma-depth", "2"), "add --certificate"),
        (("certificate", "lemmas", "{proof}", "{tmp}/out", "--executor", "ftp://h:1"), "executor"),
        (
            ("certificate", "lemmas", "{proof}", "{tmp}/out", "--executor", "dask://10.1.2.3:8786"),
            "not on loopback",
        ),
        (
            ("certificate", "lemmas", "{proof}", "{tmp}/out", "--executor", "dask://127.0.0.1:1"),
            "cannot reach the Dask scheduler",
        ),
        (("certificate", "lemmas", "{junk}", "{tmp}/out"), "is not a certificate"),
        (("certificate", "lemmas", "{tmp}/none.gz", "{tmp}/out"), "cannot read"),
        (("certificate", "check", "{junk}", "--lemmas", "{tmp}/none"), "is not a folder"),
        (("certificate", "check", "{proof}", "--ledger", "/dev/null"), "not a regular file"),
        (("certificate", "check", "{proof}", "--ledger", "{junk}"), "not a ledger entry"),
        (("certificate", "check", "{proof}", "--from-ledger"), "needs --ledger"),
        (("certificate", "check", "{proof}", "--no-record"), "needs --ledger"),
        (("certificate", "lemmas", "{proof}", "{tmp}/out", "--ledger", "{junk}"), "not a ledger"),
        (("certificate", "check", "{fifo}"), "not a regular file"),  # refused, not waited on
        (("certificate", "lemmas", "{fifo}", "{tmp}/out"), "not a regular file"),
        (("certificate", "lemmas", "{proof}", "{junk}"), "is not a folder"),
        (("certificate", "lemmas", "{odd}", "{tmp}/out"), "does not parse"),
        (("certificate", "lemmas", "{unclaimed}", "{tmp}/out"), "is not W or L"),
        (("certificate", "lemmas", "{deep}", "{tmp}/out"), "nested too deeply"),
        (("certificate", "lemmas", "{long}", "{tmp}/out"), "longer than"),
        (("certificate", "lemmas", "{proof}", "{tmp}/out", "--ledger", "{opposite}"), "opposite"),
        (("certificate", "check", "{proof}", "--ledger", "{latin1}"), "can't decode"),
        (("certificate", "check", "{proof}", "--ledger", "{deep_ledger}"), "nested too deeply"),
        (("certificate", "check", "{proof}", "--ledger", "{infinite}"), "Infinity is not"),
        (("certificate", "check", "{proof}", "--ledger", "{long_ledger}"), "longer than"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, args, words):
    junk = tmp_path / "junk.gz"
    junk.write_text("not a certificate\n")
    proof = str(tmp_path / "proof.gz")
    save_certificate(proof, build_certificate("clobber", "xoxo"))
    fifo = str(tmp_path / "fifo.gz")
    os.mkfifo(fifo)
    header = {"format": "cgframework-certificate", "ruleset": "clobber"}
    odd, unclaimed = str(tmp_path / "odd.gz"), str(tmp_path / "unclaimed.gz")
    for path, leaf in ((odd, [["x?o"], "L", "W", "lemma"]), (unclaimed, [["xo"], "L", 1, "lemma"])):
        with gzip.open(path, "wt") as out:
            out.write(json.dumps(header) + "\n" + json.dumps(leaf) + "\n")
    deep, long = str(tmp_path / "deep.gz"), str(tmp_path / "long.gz")
    with gzip.open(deep, "wb") as out:
        out.write(b"[" * 100_000 + b"]" * 100_000 + b"\n")
    with gzip.open(long, "wb") as out:  # (2 MiB in one line: read a MiB at a time, refused)
        out.write(b"x" * (2 << 20))
    ledgers = {
        "opposite": "\n".join(json.dumps(_entry(n, claim)) for n, claim in enumerate("WL")),
        "deep_ledger": "[" * 100_000 + "]" * 100_000,
        "infinite": json.dumps({**_entry(0, "W"), "nodes": float("inf")}),
        "long_ledger": "x" * (2 << 20),
    }
    for name, text in ledgers.items():
        (tmp_path / f"{name}.jsonl").write_text(text + "\n")
    (tmp_path / "latin1.jsonl").write_bytes(b"\xff\n")
    names = {
        "junk": str(junk),
        "tmp": str(tmp_path),
        "proof": proof,
        "fifo": fifo,
        "odd": odd,
        "unclaimed": unclaimed,
        "deep": deep,
        "long": long,
        "latin1": str(tmp_path / "latin1.jsonl"),
        **{name: str(tmp_path / f"{name}.jsonl") for name in ledgers},
    }
    code, out, err = run_cli(capsys, *(arg.format(**names) for arg in args))
    assert code == 2, (out, err)
    assert words in err and err.count("\n") == 1, err
    if args[:2] == ("certificate", "lemmas"):
        assert not (tmp_path / "out").exists()  # (refused before any folder is made)


@pytest.mark.parametrize("compiled", [True, False])
def test_the_search_says_what_it_knows_without_searching(compiled):
    """The writer of a proof in pieces takes a winning move the search already knows: its
    ``known_components`` answers from its tables (compiled Clobber's, or the Python search's)
    and searches nothing."""
    from cgframework.solvers.outcome_search import OutcomeSearch

    ruleset = resolve_ruleset("clobber" if compiled else "domineering")
    text = "xoxox|oxoxo|xoxox" if compiled else "....|....|...."
    search = OutcomeSearch(ruleset, SolveContext())
    comps = search.components_of(parse_position(ruleset, text))
    assert search.known_components(comps, Player.LEFT) is None
    wins = search.wins_components(comps, Player.LEFT)
    nodes = search.stats()
    assert search.known_components(comps, Player.LEFT) is wins
    assert search.stats() == nodes


def test_a_fifo_among_the_lemmas_is_refused_not_waited_on(tmp_path, capsys):
    """With a ledger or without, a FIFO in the lemma folder is refused at once (the ledger
    hashes each file: it must not wait on one either)."""
    top = os.path.join(_clobber_3x5_proof(), "top.gz")
    folder = tmp_path / "lemmas"
    folder.mkdir()
    os.mkfifo(folder / "lemma-fifo.gz")
    ledger = str(tmp_path / "checked.jsonl")

    def waited(*_):
        raise TimeoutError("the checker waited on a FIFO")

    previous = signal.signal(signal.SIGALRM, waited)
    try:
        fifo = str(folder / "lemma-fifo.gz")
        for args in (
            (top, "--lemmas", str(folder)),
            (top, "--lemmas", str(folder), "--ledger", ledger),
            (fifo, "--ledger", ledger),
            (fifo, "--jobs", "2"),  # (the node count read to share the work out)
        ):
            signal.alarm(60)
            code, _, err = run_cli(capsys, "certificate", "check", *args)
            signal.alarm(0)
            assert code == 2 and "not a regular file" in err and err.count("\n") == 1, err
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_a_cluster_worker_counts_the_time_left_by_its_own_clock(tmp_path, monkeypatch):
    """A worker whose clock is a day ahead of the client's still writes its lemma: it gets the
    run's time left, not the client's deadline (which its clock would read as long past)."""
    import time

    from cgframework.proofs.writer import _lemma_data, _LemmaTask, _remote_tasks
    from cgframework.runtime.budget import SearchBudget, SearchStopped

    top = os.path.join(_clobber_3x5_proof(), "top.gz")
    _, claims = lemma_claims(top)
    here = _LemmaTask("clobber", claims[0], str(tmp_path / "l.gz"), None, time.time() + 600, {})
    (there,) = _remote_tasks([here], SearchBudget(timeout=600).start())
    assert there.deadline is None and 590 < there.timeout <= 600
    clock = time.time
    monkeypatch.setattr(time, "time", lambda: clock() + 86_400)
    assert _lemma_data(there)[1] > 0
    with pytest.raises(SearchStopped):
        _lemma_data(here)  # (the client's deadline, read by the skewed clock)


def test_the_client_stops_a_cluster_run_at_its_own_deadline():
    """Past the run's deadline by this machine's clock, the client stops waiting on the
    cluster (a worker's task may still be running): the run's own time limit, exit 3."""
    distributed = pytest.importorskip("distributed")
    import time

    from cgframework.runtime.budget import SearchBudget, SearchStopped
    from cgframework.sweep.executors import cluster_results

    cluster = distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, host="127.0.0.1", dashboard_address=None
    )
    with cluster, distributed.Client(cluster) as client:
        futures = [client.submit(time.sleep, 20, pure=False)]
        started = time.monotonic()
        with pytest.raises(SearchStopped):
            list(cluster_results(client, futures, "local", 60, SearchBudget(timeout=1).start()))
        assert time.monotonic() - started < 10


def test_the_ledger_keeps_each_entry_whole(tmp_path):
    """A ledger edited by hand (its last line left without its end, blank lines) still reads
    and takes new entries on lines of their own; a path that is not UTF-8 is recorded."""
    top, lemmas = clobber_3x5_proof(tmp_path)
    odd_name = os.fsdecode(b"top-\xfe.gz")  # (a name no UTF-8 text spells)
    shutil.copy(top, tmp_path / odd_name)
    ledger = tmp_path / "checked.jsonl"
    ledger.write_text("\n\n" + json.dumps(_entry(7, "W")))  # (no newline at the end)
    check_proof(str(tmp_path / odd_name), lemmas, ledger=str(ledger))
    entries = [json.loads(line) for line in ledger.read_text().splitlines() if line.strip()]
    assert len(entries) == 1 + 1 + len(lemmas) and entries[0] == _entry(7, "W")
    again = check_proof(str(tmp_path / odd_name), lemmas, ledger=str(ledger))
    assert again.lemma_files_from_ledger == len(lemmas)  # (every file found by its entry)


def test_a_timed_out_run_names_its_own_limit(tmp_path, capsys):
    top = os.path.join(_clobber_3x5_proof(), "top.gz")
    for jobs in ("1", "2"):
        folder = str(tmp_path / f"lemmas{jobs}")
        code, _, err = run_cli(
            capsys, "certificate", "lemmas", top, folder, "--timeout", "0.001", "--jobs", jobs
        )
        assert code == 3 and err.count("\n") == 1, err
        assert "lemmas stopped after 0.001 s (--timeout)" in err, err
