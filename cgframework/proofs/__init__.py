"""Certificates of who wins: a proof of a normal-play position's outcome that anyone can check
without trusting the solver that found it. :mod:`~cgframework.proofs.writer` builds one from
a who-wins search (one winning move where the winner moves, every reply where the loser moves,
small positions left to the checker's own brute force or to the canonical values it computes
itself) and writes it compressed; :mod:`~cgframework.proofs.checker` verifies a file with
nothing but the ruleset's ``parse``, ``format``, ``components`` and ``options``: no solver, no
table, no store; its values come from its own short code, :mod:`~cgframework.proofs.values`.

The file format is described in :mod:`~cgframework.proofs.checker` (it is the checker that
defines what a valid certificate is).
"""

from cgframework.proofs.checker import (
    CertificateError,
    CertificateUnreadable,
    CheckReport,
    check_certificate,
)
from cgframework.proofs.writer import (
    Certificate,
    build_certificate,
    save_certificate,
    write_certificate,
)

__all__ = [
    "Certificate",
    "CertificateError",
    "CertificateUnreadable",
    "CheckReport",
    "build_certificate",
    "check_certificate",
    "save_certificate",
    "write_certificate",
]
