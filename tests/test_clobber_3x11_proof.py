"""The proof of Clobber 3x11 (a first-player win) in pieces, kept in the repository as its top
certificate and the ledger of its 90 lemmas, each checked by the independent checker
(``benchmarks/proofs/clobber-3x11``): the top verifies except for its lemma leaves, the ledger
records exactly those leaves, and the two together prove the outcome; one lemma short, they
prove nothing."""

from __future__ import annotations

import json
import os
import re

import pytest

from cgframework.game import Outcome
from cgframework.plugins import resolve_ruleset
from cgframework.proofs import CertificateError, check_certificate
from cgframework.proofs.images import orbit_key
from cgframework.proofs.lemmas import check_proof, proved_in_ledger
from cgframework.proofs.writer import lemma_claims
from cgframework.testing import run_cli

FOLDER = os.path.join(os.path.dirname(__file__), "..", "benchmarks", "proofs", "clobber-3x11")
TOP = os.path.join(FOLDER, "top.gz")
LEDGER = os.path.join(FOLDER, "checked.jsonl")


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
        "--json",
    )  # fmt: skip
    assert code == 0, err
    report = json.loads(out)
    assert report["verified"] and report["outcome"] == "N" and report["assumes"] == []
    assert report["nodes"] == 184  # (the top checked here: the ledger does not record it)
    assert report["lemma_files"] == report["lemma_files_from_ledger"] == 90
    with open(LEDGER, "rb") as kept:
        assert kept.read() == before  # (read, not added to)


def test_a_ledger_short_of_one_lemma_proves_nothing(tmp_path):
    with open(LEDGER, encoding="utf-8") as lines:
        kept = lines.readlines()[1:]
    ledger = tmp_path / "checked.jsonl"
    ledger.write_text("".join(kept), encoding="utf-8")
    with pytest.raises(CertificateError) as refused:
        check_proof(TOP, ledger=str(ledger), from_ledger=True)
    assert re.match(r"1 of the 90 lemmas", str(refused.value)), refused.value
