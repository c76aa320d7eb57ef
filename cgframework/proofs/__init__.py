"""Certificates of who wins: a proof of a normal-play position's outcome that anyone can check
without trusting the solver that found it. :mod:`~cgframework.proofs.writer` builds one from
a who-wins search (one winning move where the winner moves, every reply where the loser moves,
small positions left to the checker's own brute force or to the canonical values it computes
itself) and writes it compressed; :mod:`~cgframework.proofs.checker` verifies a file with
nothing but the ruleset's ``parse``, ``format``, ``components`` and ``options``: no solver, no
table, no store; its values come from its own short code, :mod:`~cgframework.proofs.values`.

A proof too big for one file is written in pieces: a certificate whose ``"lemma"`` leaves are
proved by certificates of their own (:func:`~cgframework.proofs.writer.write_lemmas`), checked
together by :func:`~cgframework.proofs.lemmas.check_proof`. A lemma's file is the same whoever
writes it, so the hashes a ledger records can be checked by writing some lemmas again
(:func:`~cgframework.proofs.reproduce.reproduce_lemmas`).

The file format is described in :mod:`~cgframework.proofs.checker` (it is the checker that
defines what a valid certificate is).
"""

from cgframework.proofs.checker import (
    CertificateError,
    CertificateUnreadable,
    CheckReport,
    Claim,
    check_certificate,
)
from cgframework.proofs.lemmas import check_proof
from cgframework.proofs.reproduce import reproduce_lemmas
from cgframework.proofs.writer import (
    Certificate,
    build_certificate,
    save_certificate,
    write_certificate,
    write_lemmas,
)

__all__ = [
    "Certificate",
    "CertificateError",
    "CertificateUnreadable",
    "CheckReport",
    "Claim",
    "build_certificate",
    "check_certificate",
    "check_proof",
    "reproduce_lemmas",
    "save_certificate",
    "write_certificate",
    "write_lemmas",
]
