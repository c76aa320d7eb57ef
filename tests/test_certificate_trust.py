"""Routes by which the checker was once talked into a false claim, kept as forgeries that must
be refused: threads sharing its memo, a file replaced while several processes check it, and
ledgers (a line vouching for the main file, a forged line in a published ledger)."""

from __future__ import annotations

import hashlib
import json
import os
import sys
import threading
import time
from pathlib import Path

import pytest
from test_certificates import hand_made_header, pack

from cgframework.plugins import resolve_ruleset
from cgframework.proofs import (
    CertificateError,
    CertificateUnreadable,
    check_certificate,
    write_certificate,
)
from cgframework.proofs import checker as checker_module
from cgframework.proofs import values as values_module
from cgframework.proofs.lemmas import check_proof
from cgframework.runtime.budget import LimitExceeded
from cgframework.testing import run_cli

# ---- threads --------------------------------------------------------------------------------


def cake_certificate(path: str, cake: str, outcome: str) -> str:
    """A certificate of two value leaves claiming ``outcome`` (P or L) for a Cutcake cake."""
    left_wins = outcome == "L"
    header = hand_made_header("cutcake", cake, version=2, roots=(0, 1))
    header.update(left_first="L" if left_wins else "R", right_first="L", outcome=outcome)
    header.update(leaves=2, leaf_budget=0, value_budget=10_000)
    nodes = [[[cake], "L", "W" if left_wins else "L", "values"], [[cake], "R", "L", "values"]]
    pack(path, header, nodes)
    return path


class _SlowLength(list):
    """A list that lets other threads run once its length is read: the moment between
    numbering a new game (``len``) and adding it, when a memo shared by threads is garbled,
    made wide enough to be met every time rather than now and then."""

    def __len__(self) -> int:
        length = super().__len__()
        time.sleep(0)
        return length


def test_threads_sharing_the_memo_never_verify_a_false_claim(tmp_path, monkeypatch):
    """Cutcake 3x4 is a win for Left (value 1), forged as a P-position, checked in threads
    beside true certificates (P-positions of value 0) with ``share_memo``. A memo shared by
    the threads numbered two games alike: true certificates were refused and the forgery
    verified (in some rounds of eight threads). One memo a thread: every round as alone."""
    true = [cake_certificate(str(tmp_path / f"{cake}.gz"), cake, "P") for cake in
            ("4x7", "5x6", "6x7", "7x7", "8x8", "7x5")]  # fmt: skip
    forged = cake_certificate(str(tmp_path / "forged.gz"), "3x4", "P")
    original = values_module.Values.__init__

    def slow(self, parts_of):
        original(self, parts_of)
        self.lefts = _SlowLength(self.lefts)

    monkeypatch.setattr(values_module.Values, "__init__", slow)
    monkeypatch.setattr(values_module, "MAX_WORK", 20_000)  # (a garbled memo stops soon)
    for path in true:
        check_certificate(path)
    with pytest.raises(CertificateError, match="left to move wins"):
        check_certificate(forged)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-4)
    try:
        for _ in range(4):
            verdicts = checked_in_threads([forged, *true[:3], forged, *true[3:]])
            assert verdicts[forged] == [False, False]
            assert all(verdicts[path] == [True] for path in true), verdicts
    finally:
        sys.setswitchinterval(interval)


def checked_in_threads(paths: list[str]) -> dict[str, list[bool]]:
    """Each path checked in a thread of its own, all at once (``share_memo``): whether each
    check verified, by path."""
    verdicts: dict[str, list[bool]] = {}

    def check(path: str) -> None:
        try:
            check_certificate(path, share_memo=True)
            verdicts.setdefault(path, []).append(True)
        except CertificateError:
            verdicts.setdefault(path, []).append(False)

    threads = [threading.Thread(target=check, args=(path,)) for path in paths]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return verdicts


# ---- several processes ------------------------------------------------------------------------


def test_a_file_replaced_while_processes_check_it_proves_nothing(tmp_path):
    """A forged certificate whose false nodes fall to the second process: Clobber xoxoxo (a
    P-position) claimed N. Once the first process has opened it, it is replaced by a true
    certificate, which the second process then opened and found sound in its share: the
    first checked the forgery's hash, roots and its own share, and the forgery verified.
    Now every process's view must be the bytes the first hashed."""
    honest = str(tmp_path / "honest.gz")
    write_certificate(honest, "clobber", "xoxoxo", leaf_budget=0, value_budget=0)
    assert check_certificate(honest).outcome.value == "P"
    header = hand_made_header("clobber", "xoxoxo", version=2, roots=(1, 3))
    header.update(leaves=0, leaf_budget=0, value_budget=0)
    nodes = [
        [[], "R", "L", []],  # (true: nobody can move; the first process's share)
        [["xoxoxo"], "L", "W", ["1->2", 0]],  # (false: the second process's share)
        [[], "L", "L", []],
        [["xoxoxo"], "R", "W", ["2->1", 0]],
    ]
    forged = str(tmp_path / "forged.gz")
    pack(forged, header, nodes)
    with pytest.raises(CertificateError):
        check_certificate(forged)  # (one process: refused)
    swapped = []

    def swap(read: int, total: int) -> None:  # (the first process has opened the forgery)
        if not swapped:
            swapped.append(read)
            os.replace(honest, forged)

    with pytest.raises(CertificateUnreadable, match="changed while it was checked"):
        check_certificate(forged, jobs=2, share_chunk=1, progress=swap)
    assert swapped


# ---- reading ----------------------------------------------------------------------------------


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="Linux's /proc")
def test_a_read_error_is_one_line_and_exit_2(capsys):
    """``/proc/self/mem`` is a regular file whose first read fails (EIO): once an internal
    error (exit 1), now a file that cannot be read."""
    for jobs in ("1", "2"):
        code, _, err = run_cli(capsys, "certificate", "check", "/proc/self/mem", "--jobs", jobs)
        assert code == 2 and "cannot read '/proc/self/mem'" in err, err
        assert err.count("\n") == 1


# ---- ledgers ----------------------------------------------------------------------------------


def test_the_main_file_is_checked_whatever_the_ledger_says(tmp_path, capsys):
    """64 random bytes, and a ledger line holding their SHA-256 with a report: the ledger
    vouched for the main file, which was never read as a certificate (exit 0, the position
    and outcome read from the ledger). A ledger vouches for lemma files only."""
    garbage = tmp_path / "garbage.gz"
    garbage.write_bytes(os.urandom(64))
    report = {
        "ruleset": "clobber", "position": "xoxo", "outcome": "N", "left_first": "L",
        "right_first": "R", "nodes": 1, "leaves": 1, "leaf_positions": 1, "value_leaves": 0,
        "value_positions": 0, "ruleset_version": "1", "installed_version": "1",
        "generator": "forged", "lemma_leaves": 0,
    }  # fmt: skip
    line = {
        "sha256": hashlib.sha256(garbage.read_bytes()).hexdigest(), "path": "garbage.gz",
        "ruleset": "clobber", "installed_version": resolve_ruleset("clobber").version,
        "proves": [], "assumes": [], "report": report,
    }  # fmt: skip
    ledger = tmp_path / "checked.jsonl"
    ledger.write_text(json.dumps(line) + "\n")
    for extra in ((), ("--from-ledger", "--trust-unsigned-ledger")):
        code, out, err = run_cli(
            capsys, "certificate", "check", str(garbage), "--ledger", str(ledger), *extra
        )
        assert code == 1 and "damaged file" in err and err.count("\n") == 1, err
    with pytest.raises(CertificateError, match="damaged file"):
        check_proof(str(garbage), ledger=str(ledger), record=False, trust_unsigned_ledger=True)


def sign_own_ledger(folder, capsys) -> tuple[str, str, str]:
    """A proof in pieces (Clobber 3x5 to depth 2) whose lemmas were checked into a ledger and
    deleted, and a key pair: the top, the ledger, the private key."""
    from test_certificate_lemmas import clobber_3x5_proof

    top, lemmas = clobber_3x5_proof(folder)
    ledger = str(folder / "checked.jsonl")
    for lemma in lemmas:
        check_proof(lemma, ledger=ledger)
        os.remove(lemma)
    key = str(folder / "signer.key")
    assert run_cli(capsys, "store", "keygen", key)[0] == 0
    return top, ledger, key


def test_a_ledger_signed_here_verifies_and_a_changed_one_does_not(tmp_path, capsys):
    pytest.importorskip("cryptography")
    top, ledger, key = sign_own_ledger(tmp_path, capsys)
    code, out, err = run_cli(capsys, "certificate", "sign-ledger", ledger, "--key", key)
    assert code == 0 and out.startswith("ed25519:") and os.path.isfile(f"{ledger}.sig"), err
    fingerprint = out.strip()
    check = ("certificate", "check", top, "--ledger", ledger, "--from-ledger", "--no-record")
    code, out, err = run_cli(capsys, *check, "--trusted-key", f"{key}.pub", "--json")
    assert code == 0 and err == "", err
    report = json.loads(out)
    assert report["verified"] and report["ledger_signer"] == fingerprint
    assert report["lemma_claims_from_ledger"] == report["lemma_files"] > 0
    moved = str(tmp_path / "elsewhere.sig")  # (a signature kept elsewhere)
    os.replace(f"{ledger}.sig", moved)
    args = ("--trusted-key", f"{key}.pub", "--ledger-signature", moved)
    assert run_cli(capsys, *check, *args)[0] == 0
    with open(ledger, "a") as out:  # (one blank line: the bytes signed are not these)
        out.write("\n")
    code, _, err = run_cli(capsys, *check, *args)
    assert code == 2 and "changed since it was signed" in err and err.count("\n") == 1, err


def test_a_signature_of_anything_else_is_no_ledger_signature(tmp_path, capsys):
    """A store export's signature, of the same bytes by the same key, does not pass for a
    ledger's: what is signed names what kind of file it is."""
    pytest.importorskip("cryptography")
    from cgframework.store import signing

    top, ledger, key = sign_own_ledger(tmp_path, capsys)
    with open(ledger, "rb") as data:
        text = signing.sign(data.read(), signing.load_private_key(key))  # (an export's)
    with open(f"{ledger}.sig", "w") as out:
        out.write(text)
    code, _, err = run_cli(
        capsys, "certificate", "check", top, "--ledger", ledger, "--from-ledger",
        "--no-record", "--trusted-key", f"{key}.pub",
    )  # fmt: skip
    assert code == 2 and "not a cgframework proof ledger signature" in err, err


def test_ledger_signing_refuses_bad_input_in_one_line(tmp_path, capsys):
    pytest.importorskip("cryptography")
    top, ledger, key = sign_own_ledger(tmp_path, capsys)
    junk = tmp_path / "junk.jsonl"
    junk.write_text("not a ledger\n")
    fifo = str(tmp_path / "fifo")
    os.mkfifo(fifo)
    loose = tmp_path / "loose.key"
    loose.write_bytes(Path(key).read_bytes())
    loose.chmod(0o644)
    check = ("certificate", "check", top, "--ledger", ledger)
    for args, words in [
        (("certificate", "sign-ledger", str(junk), "--key", key), "not a ledger entry"),
        (("certificate", "sign-ledger", fifo, "--key", key), "not a regular file"),
        (("certificate", "sign-ledger", ledger, "--key", fifo), "not a regular file"),
        (("certificate", "sign-ledger", ledger, "--key", str(loose)), "chmod 600"),
        (("certificate", "sign-ledger", ledger, "--key", key, "-o", ledger), "same file"),
        ((*check, "--trusted-key", f"{key}.pub"), "add --no-record"),
        ((*check, "--no-record", "--trusted-key", fifo), "not a regular file"),
        ((*check, "--no-record", "--ledger-signature", fifo), "needs --trusted-key"),
        (
            (*check, "--no-record", "--trusted-key", f"{key}.pub", "--ledger-signature", fifo),
            "not a regular file",
        ),
        (("certificate", "check", top, "--trust-unsigned-ledger"), "needs --ledger"),
        ((*check, "--no-record", "--trusted-key", f"{key}.pub"), "cannot read signature"),
    ]:
        code, _, err = run_cli(capsys, *args)
        assert code == 2 and words in err and err.count("\n") == 1, (args, err)
    assert not os.path.exists(f"{junk}.sig") and not os.path.exists(f"{ledger}.sig")


# ---- limits -----------------------------------------------------------------------------------


def test_a_whole_files_work_is_bounded(tmp_path, capsys, monkeypatch):
    """Each node and leaf has limits of its own; nothing bounded their sum, so a file of many
    nodes each near its limits took as long as it liked. Now a budget of steps (a default
    that grows with the header's node count, or --max-work) stops it: exit 3."""
    path = str(tmp_path / "proof.gz")
    write_certificate(path, "domineering", "...|...|...|...", leaf_budget=0, value_budget=0)
    assert check_certificate(path).nodes > 10  # (within the default)
    for jobs in (1, 2):
        with pytest.raises(LimitExceeded, match=r"more than 50 steps, the limit \(--max-work\)"):
            check_certificate(path, max_work=50, jobs=jobs, share_chunk=2)
    code, _, err = run_cli(capsys, "certificate", "check", path, "--max-work", "50")
    assert code == 3 and "--max-work" in err and err.count("\n") == 1, err
    monkeypatch.setattr(checker_module, "WORK_BASE", 10)
    monkeypatch.setattr(checker_module, "WORK_PER_NODE", 1)
    with pytest.raises(LimitExceeded, match=r"for a file of \d+ nodes \(--max-work raises it\)"):
        check_certificate(path)
