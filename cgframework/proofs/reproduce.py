"""A ledger's lemmas written again: a spot check of a proof kept as its main file and a ledger
(:mod:`cgframework.proofs.lemmas`), which anyone can make without trusting the ledger.

The lemma writer promises that a lemma's file is a function of the lemma alone (its claim,
the ruleset's and the writer's versions, the budgets, and, for a lemma rewritten from its
mirror image, which lemma of the proof that is: :func:`~cgframework.proofs.writer.lemma_sources`;
see :func:`~cgframework.proofs.writer.write_lemmas`). So the SHA-256 a ledger records for a
lemma file is a check anyone can repeat: :func:`reproduce_lemmas` draws some of the ledger's
lemmas at random (seeded, so that a draw can be repeated), writes each again, checks it with
the independent checker, and compares its SHA-256 with the ledger's. Each lemma so reproduced
is proved now, and vouches for the ledger's other records having been made the same way. (A
mirrored lemma's header names its source, ``mirror_of``, since the first mirrored lemmas were
written, the Clobber 3x11 proof's: such a lemma reproduces when its file but for that field
is the one recorded.)

The ledger is what is tested, so it need not be signed; with ``trusted_keys`` its signature is
checked as :func:`~cgframework.proofs.lemmas.check_proof` checks it (refused unless it
verifies), and the result says who signed it.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import random
import secrets
import tempfile
import time
import zlib
from collections.abc import Callable, Iterable
from typing import Any

import attrs

from cgframework.game import Player
from cgframework.proofs.checker import (
    MAX_NODES,
    WIN,
    CertificateError,
    CertificateUnreadable,
    Claim,
    check_certificate,
    file_sha256,
)
from cgframework.proofs.files import Certificate
from cgframework.proofs.lemmas import _Ledger, _ledger_bytes, _Trust


@attrs.frozen
class Reproduced:
    """One lemma of the ledger, written again and checked."""

    claim: Claim
    path: str
    """The file's path as the ledger records it."""
    recorded: str
    """The SHA-256 the ledger records."""
    recorded_generator: str
    """The writer the ledger's report names (``""``: none recorded)."""
    recorded_version: str
    """The ruleset's version the ledger's check was made against."""
    sha256: str = ""
    """The SHA-256 of the file written again (``""``: none was written)."""
    nodes: int = 0
    mirrored_from: Claim | None = None
    """The lemma whose file it was rewritten from (``None``: searched)."""
    error: str = ""
    """Why it was not written or not verified (``""``: verified)."""
    without_provenance: str = ""
    """For a mirrored lemma, the SHA-256 of its file with a header naming no ``mirror_of``,
    as the first mirrored lemmas were written (the Clobber 3x11 proof's)."""

    @property
    def verified(self) -> bool:
        return not self.error

    @property
    def reproduced(self) -> bool:
        """Written again, verified, and byte for byte the file the ledger records (or, for
        a mirrored lemma, that file but for the header's ``mirror_of``)."""
        return self.verified and self.recorded in (self.sha256, self.without_provenance)

    def as_dict(self) -> dict[str, Any]:
        return {
            "claim": self.claim.as_dict(),
            "path": self.path,
            "recorded_sha256": self.recorded,
            "sha256": self.sha256,
            "nodes": self.nodes,
            "mirrored_from": None if self.mirrored_from is None else self.mirrored_from.as_dict(),
            "without_provenance": self.without_provenance,
            "verified": self.verified,
            "reproduced": self.reproduced,
            "error": self.error,
        }


@attrs.frozen
class Reproduction:
    """What :func:`reproduce_lemmas` found."""

    ruleset: str
    position: str
    seed: int
    population: int
    """The ledger's entries for lemmas the main file assumes (the sample is drawn from them)."""
    assumed: int
    """The lemmas the main file assumes."""
    lemmas: tuple[Reproduced, ...]
    ledger_signer: str = ""
    """The fingerprint of the trusted key whose signature of the ledger verified (``""``:
    its signature was not checked)."""
    generator: str = ""
    """This writer (``cgframework VERSION``), which wrote the lemmas again."""
    zlib: str = ""
    """The version of the zlib that compressed them (another deflate may give other bytes)."""

    @property
    def reproduced(self) -> bool:
        return all(lemma.reproduced for lemma in self.lemmas)

    def as_dict(self) -> dict[str, Any]:
        return {
            "reproduced": self.reproduced,
            "ruleset": self.ruleset,
            "position": self.position,
            "seed": self.seed,
            "sample": len(self.lemmas),
            "population": self.population,
            "assumed": self.assumed,
            "ledger_signer": self.ledger_signer,
            "generator": self.generator,
            "zlib": self.zlib,
            "lemmas": [lemma.as_dict() for lemma in self.lemmas],
        }


def reproduce_lemmas(
    path: str,
    ledger: str,
    sample: int,
    *,
    seed: int | None = None,
    trusted_keys: Iterable[str] = (),
    ledger_signature: str | None = None,
    mirrors: bool = True,
    max_nodes: int | None = None,
    timeout: float | None = None,
    progress: Callable[[int, int], None] | None = None,
    **options: Any,
) -> Reproduction:
    """Write again ``sample`` lemmas drawn at random (``random.Random(seed)``; a new seed if
    none, named in the result) from the ``ledger``'s entries for the lemmas the certificate
    at ``path`` assumes; check each with the independent checker and compare its SHA-256 with
    the ledger's. ``mirrors`` and ``options`` (budgets) as the lemmas were written
    (:func:`~cgframework.proofs.writer.write_lemmas`); ``max_nodes`` bounds each search,
    ``timeout`` the whole run (:class:`~cgframework.runtime.budget.SearchStopped`).

    The main file is checked first (:class:`CertificateError` if it does not verify). A ledger
    that cannot be read, or that records none of its lemmas, is
    :class:`CertificateUnreadable`; so is one whose signature does not verify with one of
    ``trusted_keys``, when they are given (``ledger_signature``: its detached signature,
    default ``LEDGER.sig``). A lemma that does not reproduce (another SHA-256, a search that
    fails, a file the checker refuses) is reported in the result, and the others are still
    written. ``progress(done, total)`` after each lemma."""
    from cgframework.plugins import resolve_ruleset
    from cgframework.proofs.writer import lemma_claims, lemma_sources
    from cgframework.runtime.version import VERSION

    if sample < 1:
        raise ValueError("the sample must be at least one lemma")
    keys = list(trusted_keys)
    if ledger_signature is not None and not keys:
        raise ValueError("a ledger's signature is checked with trusted_keys")
    top = check_certificate(path)
    trust = _Trust(keys, ledger_signature, bool(keys), False)
    book = _Ledger(ledger, False, trust, _ledger_bytes(ledger, must_exist=True))
    assumed = set(top.assumes)
    population = sorted(
        (
            (claim, entry)
            for entry in book.known.values()
            if entry.get("ruleset") == top.ruleset
            and (claim := _only_claim(entry)) is not None
            and claim in assumed
        ),
        key=lambda found: (found[0].digest, found[0].wins, str(found[1]["sha256"])),
    )
    if not population:
        raise CertificateUnreadable(
            f"the ledger {ledger!r} records none of the {len(assumed)} lemmas {path!r} assumes"
        )
    seed = secrets.randbelow(1 << 32) if seed is None else seed
    drawn = random.Random(seed).sample(population, min(sample, len(population)))
    ruleset = resolve_ruleset(top.ruleset)
    _, claims = lemma_claims(path)  # (in the file's order, as the writer took them)
    sources = lemma_sources(ruleset, claims, mirrors)
    deadline = None if timeout is None else time.time() + timeout
    found: list[Reproduced] = []
    with tempfile.TemporaryDirectory(prefix="cgf-reproduce-") as folder:
        for number, (claim, entry) in enumerate(drawn):
            target = os.path.join(folder, f"lemma-{number}.gz")
            found.append(
                _again(ruleset, claim, entry, target, sources, max_nodes, deadline, options)
            )
            if os.path.exists(target):
                os.remove(target)
            if progress is not None:
                progress(number + 1, len(drawn))
    return Reproduction(
        top.ruleset,
        top.position,
        seed,
        len(population),
        len(assumed),
        tuple(found),
        book.trust.signer,
        f"cgframework {VERSION}",
        zlib.ZLIB_RUNTIME_VERSION,
    )


def _only_claim(entry: dict[str, Any]) -> Claim | None:
    """The one claim a ledger entry's file proves (``None``: not a lemma's entry)."""
    proves = entry.get("proves")
    if not isinstance(proves, list) or len(proves) != 1 or entry.get("assumes"):
        return None
    (claim,) = proves
    return Claim(tuple(claim["components"]), Player(claim["mover"]), claim["claim"] == WIN)


def _again(
    ruleset: Any,
    claim: Claim,
    entry: dict[str, Any],
    target: str,
    sources: dict[Claim, tuple[Claim, int | None]],
    max_nodes: int | None,
    deadline: float | None,
    options: dict[str, Any],
) -> Reproduced:
    """``claim``'s lemma written again at ``target`` and checked."""
    from cgframework.proofs.writer import write_lemma_alone

    report = entry.get("report")
    generator = str(report.get("generator", "")) if isinstance(report, dict) else ""
    given = Reproduced(
        claim,
        str(entry.get("path", "?")),
        str(entry["sha256"]),
        generator,
        str(entry.get("installed_version", "")),
    )
    try:
        nodes, source = write_lemma_alone(
            ruleset, claim, target, sources, max_nodes=max_nodes, deadline=deadline, **options
        )
    except ValueError as exc:  # (the search finds the claim false, or a text does not parse)
        return attrs.evolve(given, error=str(exc))
    sha = file_sha256(target)
    given = attrs.evolve(given, sha256=sha, nodes=nodes, mirrored_from=source)
    if source is not None and sha != given.recorded:
        given = attrs.evolve(given, without_provenance=_without_provenance(target))
    try:  # (this process's own file: the checker's node limit is no defence here)
        checked = check_certificate(target, max_nodes=max(MAX_NODES, nodes))
    except CertificateError as exc:
        return attrs.evolve(given, error=f"the checker refuses it: {exc}")
    if checked.claims != (claim,) or checked.assumes:
        return attrs.evolve(given, error="it does not prove its claim alone")
    return given


def _without_provenance(path: str) -> str:
    """The SHA-256 the mirrored lemma at ``path`` (this writer's: its header's gzip member,
    then its body's) would have if its header did not name its source (``mirror_of``): the
    file as the writer wrote mirrored lemmas before it recorded their provenance."""
    with open(path, "rb") as raw:
        data = raw.read()
    member = zlib.decompressobj(wbits=31)  # (the first gzip member: the header's line)
    header = json.loads(member.decompress(data))
    header.pop("mirror_of", None)
    body = member.unused_data
    head = Certificate(header, io.BytesIO()).head
    return hashlib.sha256(head + body).hexdigest()


__all__ = ["Reproduced", "Reproduction", "reproduce_lemmas"]
