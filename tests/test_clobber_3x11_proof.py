"""The proof of Clobber 3x11 (a first-player win) in pieces, kept in the repository as its top
certificate and the ledger of its 90 lemmas, each checked by the independent checker, the
ledger signed by the project's key (``benchmarks/proofs/clobber-3x11``): the top verifies
except for its lemma leaves, the ledger records exactly those leaves, and the two together
prove the outcome; one lemma short, they prove nothing. A forged line in the ledger breaks its
signature: the forgery is refused unless the ledger is explicitly trusted unsigned."""

from __future__ import annotations

import json
import os
import re
import shutil

import pytest
from test_certificates import hand_made_header, pack

from cgframework.game import Outcome, parse_position
from cgframework.plugins import resolve_ruleset
from cgframework.proofs import CertificateError, CertificateUnreadable, check_certificate
from cgframework.proofs.checker import Parts
from cgframework.proofs.images import orbit_key
from cgframework.proofs.lemmas import check_proof, proved_in_ledger
from cgframework.proofs.writer import lemma_claims
from cgframework.testing import run_cli

FOLDER = os.path.join(os.path.dirname(__file__), "..", "benchmarks", "proofs", "clobber-3x11")
TOP = os.path.join(FOLDER, "top.gz")
LEDGER = os.path.join(FOLDER, "checked.jsonl")
SIGNER = os.path.join(FOLDER, "signer.pub")
BOARD = "xoxoxoxoxox|oxoxoxoxoxo|xoxoxoxoxox"

pytest.importorskip("cryptography")


def test_the_top_proves_3x11_a_first_player_win_but_for_its_lemmas():
    report = check_certificate(TOP)
    assert report.position == "xoxoxoxoxox|oxoxoxoxoxo|xoxoxoxoxox"
    assert report.outcome is Outcome.N
    assert len(report.assumes) == report.lemma_leaves == 90
    clobber = resolve_ruleset("clobber")  # (each side's first move keeps a symmetry)
    assert len({orbit_key(clobber, claim) for claim in report.assumes}) == 52


def test_the_top_and_the_ledger_prove_3x11_a_first_player_win(capsys):
    _, claims = lemma_claims(TOP)
    assert proved_in_ledger(LEDGER, "clobber") == set(claims)  # (all 90, and no other)
    with open(LEDGER, "rb") as kept:
        before = kept.read()
    code, out, err = run_cli(
        capsys, "certificate", "check", TOP, "--ledger", LEDGER, "--from-ledger", "--no-record",
        "--trusted-key", SIGNER, "--json",
    )  # fmt: skip
    assert code == 0, err
    report = json.loads(out)
    assert report["verified"] and report["outcome"] == "N" and report["assumes"] == []
    assert report["nodes"] == 184  # (the top checked here: the ledger does not record it)
    assert report["lemma_files"] == report["lemma_files_from_ledger"] == 90
    assert report["lemma_claims_from_ledger"] == 90  # (none checked now: said so)
    assert report["ledger_signer"].startswith("ed25519:") and not report["ledger_unverified"]
    with open(LEDGER, "rb") as kept:
        assert kept.read() == before  # (read, not added to)
    code, out, err = run_cli(
        capsys, "certificate", "check", TOP, "--ledger", LEDGER, "--from-ledger", "--no-record",
        "--trusted-key", SIGNER,
    )  # fmt: skip
    assert code == 0 and err == "", err
    assert "90 lemma claims rest on the ledger alone" in out and "not checked now" in out
    assert "(a trusted key)" in out


def test_a_ledger_short_of_one_lemma_proves_nothing(tmp_path):
    with open(LEDGER, encoding="utf-8") as lines:
        kept = lines.readlines()[1:]
    ledger = tmp_path / "checked.jsonl"
    ledger.write_text("".join(kept), encoding="utf-8")
    with pytest.raises(CertificateError) as refused:
        check_proof(TOP, ledger=str(ledger), from_ledger=True, trust_unsigned_ledger=True)
    assert re.match(r"1 of the 90 lemmas", str(refused.value)), refused.value


def forged_proof(folder) -> tuple[str, str]:
    """A copy of the published ledger and its signature, one forged line appended (a file
    nobody has, said to prove that whoever moves first in 3x11 loses), and a forged top
    claiming P that assumes just that."""
    clobber = resolve_ruleset("clobber")
    texts = [text for text, _ in Parts(clobber).split(parse_position(clobber, BOARD))]
    header = hand_made_header("clobber", BOARD, version=3, roots=(0, 1))
    header.update(left_first="R", right_first="L", outcome="P", leaves=0, leaf_budget=0)
    header["value_budget"] = 0
    top = str(folder / "top.gz")
    pack(top, header, [[texts, "L", "L", "lemma"], [texts, "R", "L", "lemma"]])
    claims = [{"components": texts, "mover": mover, "claim": "L"} for mover in "LR"]
    line = {
        "sha256": "0" * 64, "path": "lemmas/forged.gz", "ruleset": "clobber",
        "installed_version": clobber.version, "proves": claims, "assumes": [], "report": None,
    }  # fmt: skip
    ledger = str(folder / "checked.jsonl")
    shutil.copy(LEDGER, ledger)
    shutil.copy(f"{LEDGER}.sig", f"{ledger}.sig")
    with open(ledger, "a", encoding="utf-8") as out:
        out.write(json.dumps(line) + "\n")
    return top, ledger


def test_a_forged_line_in_the_published_ledger_is_refused(tmp_path, capsys):
    """The documented command, given a forged top and the published ledger with one forged
    line, printed a verified P for 3x11 (it is N). The ledger's signature no longer verifies:
    refused, and only --trust-unsigned-ledger gets past, saying so."""
    top, ledger = forged_proof(tmp_path)
    command = ("certificate", "check", top, "--ledger", ledger, "--from-ledger", "--no-record")
    code, out, err = run_cli(capsys, *command, "--trusted-key", SIGNER)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert "not trusted" in err and "changed since it was signed" in err, err
    code, _, err = run_cli(capsys, *command)  # (no key: unsigned as far as we know)
    assert code == 2 and "not trusted" in err and err.count("\n") == 1, err
    with pytest.raises(CertificateUnreadable, match="changed since it was signed"):
        check_proof(top, ledger=ledger, from_ledger=True, record=False, trusted_keys=[SIGNER])
    code, out, err = run_cli(capsys, *command, "--trusted-key", SIGNER, "--trust-unsigned-ledger")
    assert code == 0 and "outcome\tP" in out  # (the forgery, as asked: and said)
    assert "trusted unchecked, as asked (--trust-unsigned-ledger)" in err
    assert "changed since it was signed" in err and err.count("\n") == 1, err
    assert "2 lemma claims rest on the ledger alone" in out and "trusted as asked" in out
