"""A proof in several files: a certificate whose ``"lemma"`` leaves are proved by other
certificates, its lemmas (:mod:`cgframework.proofs.checker` defines both).

Each file is checked on its own, by the independent checker; what it proves (its roots'
claims) and what it assumes (its lemma leaves' claims) are then matched by node digest and
claim, within one ruleset. A claim is *established* when a file proves it and every claim that
file assumes is established: the least such set, grown from the files that assume nothing, so
two files that assume each other's claims prove nothing. The main certificate is verified when
every claim it assumes is established.

A proof too big for one process is so written and checked piece by piece, by processes that
need not outlive one another: ``ledger`` names a file (JSON lines) where each file checked is
recorded, by the SHA-256 of the bytes checked, with what it proves and assumes; a lemma file
already recorded there, byte for byte and against the same installed ruleset version, is not
checked again. The main file is always checked, whatever the ledger says: a ledger vouches for
lemmas only. The report counts the lemma files it vouched for, and the lemma claims that rest
on it (not checked now).

With ``from_ledger``, the claims the ledger records as proved count even when their files are
not given (deleted once checked, or checked on another machine): a proof too big to keep whole
on disk is then written and checked a piece at a time, and what stays is the main file and the
ledger (:func:`proved_in_ledger` tells a writer which pieces are done). Such a ledger is a
proof's whole support, so it is trusted only when signed by a trusted key (a detached Ed25519
signature, :mod:`cgframework.store.signing`), or when the user asks to trust it unsigned (their
own record); a ledger edited by anyone else would otherwise prove anything.
"""

from __future__ import annotations

import io
import json
import os
import stat
from collections.abc import Callable, Iterable
from typing import Any

import attrs

from cgframework.game import Player
from cgframework.proofs.checker import (
    LOSE,
    WIN,
    CertificateError,
    CertificateUnreadable,
    CheckReport,
    Claim,
    bounded_lines,
    check_certificate,
    file_sha256,
    forget_shared_memo,
)
from cgframework.runtime.budget import LimitExceeded
from cgframework.runtime.inputs import open_regular_file


@attrs.frozen
class _Checked:
    """One file's part of the proof: its report (or what the ledger recorded of it)."""

    path: str
    ruleset: str
    proves: tuple[Claim, ...]
    assumes: tuple[Claim, ...]
    from_ledger: bool
    report: CheckReport | None = None
    """The checker's report (``None``: vouched for by the ledger)."""
    sha256: str = ""
    """The SHA-256 of the file's bytes, as checked or as the ledger records them."""


Limits = tuple[int | None, int | None]
"""``max_nodes`` and ``max_work`` of each file's check (``None``: the checker's default)."""


def check_proof(
    path: str,
    lemma_paths: Iterable[str] = (),
    *,
    ledger: str | None = None,
    from_ledger: bool = False,
    record: bool = True,
    trusted_keys: Iterable[str] = (),
    ledger_signature: str | None = None,
    trust_unsigned_ledger: bool = False,
    max_nodes: int | None = None,
    max_work: int | None = None,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    files_progress: Callable[[int, int], None] | None = None,
) -> CheckReport:
    """Verify the certificate at ``path`` together with the lemma certificates at
    ``lemma_paths``: its :class:`CheckReport`, with ``assumes`` empty, when every lemma it
    needs (and every lemma those need) is proved; else :class:`CertificateError` naming the
    first claim nobody proves. Each file is checked by :func:`check_certificate` (``jobs``
    processes for the main file, and one file a process for the lemmas; ``max_nodes`` and
    ``max_work`` for each file); the main file always, whatever a ledger says.

    ``ledger``: see the module (``from_ledger`` needs ``ledger``); with ``record`` false the
    ledger is read and nothing is added to it (verifying a published proof leaves its ledger
    as it was). ``trusted_keys`` (public key files, or folders of ``*.pub``): the ledger must
    be signed by one of them (its detached signature ``ledger_signature``, by default
    ``LEDGER.sig``; see :mod:`cgframework.store.signing`), and is then only read. A ledger
    read as a published one (``from_ledger``, or not ``record``) is trusted only so signed,
    or when ``trust_unsigned_ledger`` says to trust it all the same (the report says so:
    ``ledger_unverified``); else :class:`CertificateUnreadable`. A ledger recorded into is
    the user's own. ``files_progress(done, total)`` after each file."""
    keys = list(trusted_keys)
    if ledger is None and (from_ledger or keys or ledger_signature or trust_unsigned_ledger):
        raise ValueError("from_ledger, trusted_keys and the ledger's signature need a ledger")
    if ledger_signature is not None and not keys:
        raise ValueError("a ledger's signature is checked with trusted_keys")
    if keys and record:
        raise ValueError(
            "a ledger checked against trusted keys is only read (record=False): recording "
            "into it would void its signature"
        )
    try:
        book = None
        if ledger is not None:
            needed = from_ledger or not record or bool(keys)  # (a published ledger's uses)
            trust = _Trust(keys, ledger_signature, needed, trust_unsigned_ledger)
            book = _Ledger(ledger, record, trust)
        return _check_proof(
            path, lemma_paths, book, from_ledger, (max_nodes, max_work), jobs, progress,
            files_progress,
        )  # fmt: skip
    finally:
        forget_shared_memo()


def _check_proof(
    path: str,
    lemma_paths: Iterable[str],
    book: _Ledger | None,
    from_ledger: bool,
    limits: Limits,
    jobs: int,
    progress: Callable[[int, int], None] | None,
    files_progress: Callable[[int, int], None] | None,
) -> CheckReport:
    main = _check_one(path, limits, jobs, progress)  # (never vouched for: always checked)
    if book is not None:
        book.record(main)
    assert main.report is not None
    lemma_paths = sorted(set(lemma_paths) - {path})
    total = 1 + len(lemma_paths)
    if files_progress is not None:
        files_progress(1, total)
    lemmas: list[_Checked] = []
    if main.assumes and lemma_paths:
        lemmas = _check_files(lemma_paths, book, limits, jobs, files_progress, total)
    if from_ledger and book is not None and main.assumes:
        given = {main.sha256, *(f.sha256 for f in lemmas)}
        recorded = book.entries(main.ruleset)
        lemmas += [f for f in recorded if f.sha256 not in given]
    lemmas = [f for f in lemmas if f.ruleset == main.ruleset]
    established = _established(lemmas)
    missing = [c for c in main.assumes if _key(c) not in established]
    if missing:
        raise CertificateError(
            f"{len(missing)} of the {len(main.assumes)} lemmas the certificate assumes are not "
            f"proved by the lemma files given{' or the ledger' if from_ledger else ''}; the "
            f"first: {missing[0].describe()}"
        )
    checked_now = _established([f for f in lemmas if not f.from_ledger])
    return attrs.evolve(
        main.report,
        assumes=(),
        lemma_files=len(lemmas),
        lemma_files_from_ledger=sum(f.from_ledger for f in lemmas),
        lemma_claims_from_ledger=sum(_key(c) not in checked_now for c in main.assumes),
        ledger_signer="" if book is None else book.trust.signer,
        ledger_unverified="" if book is None else book.trust.unverified,
    )


def _key(claim: Claim) -> bytes:
    return claim.digest + (b"W" if claim.wins else b"L")


def _established(files: list[_Checked]) -> set[bytes]:
    """The claims established by ``files``: proved by a file whose own assumptions are."""
    established: set[bytes] = set()
    waiting = list(files)
    while True:
        ready = [f for f in waiting if all(_key(c) in established for c in f.assumes)]
        if not ready:
            return established
        for checked in ready:
            for claim in checked.proves:
                opposite = claim.digest + (b"L" if claim.wins else b"W")
                if opposite in established:
                    raise CertificateError(
                        f"two lemma files prove opposite claims: {claim.describe()} "
                        f"({checked.path}), and the other"
                    )
                established.add(_key(claim))
        done = {id(f) for f in ready}
        waiting = [f for f in waiting if id(f) not in done]


def _check_files(
    paths: list[str],
    book: _Ledger | None,
    limits: Limits,
    jobs: int,
    files_progress: Callable[[int, int], None] | None,
    total: int,
) -> list[_Checked]:
    """Each lemma file checked (or vouched for by the ledger), ``jobs`` files at a time (in
    the order they finish; a refusal is the first found)."""
    found: list[_Checked] = []
    todo = []
    for lemma in paths:
        known = book.lookup(lemma) if book else None
        if known is not None:
            found.append(known)
        else:
            todo.append(lemma)
    done = len(found) + 1
    if files_progress is not None:
        files_progress(done, total)
    if jobs <= 1 or len(todo) <= 1:
        outcomes: Iterable[_Checked] = (_check_one(lemma, limits) for lemma in todo)
        stop: Callable[[], None] = _nothing_to_stop
    else:
        from cgframework.sweep.executors import pool_results

        kept = "the files checked are in the ledger: run it again"
        tasks = [(lemma, limits) for lemma in todo]
        outcomes, stop = pool_results(_check_in_worker, tasks, jobs, kept)
    try:
        for outcome in outcomes:  # (a worker's refusal is raised here, the others stopped)
            if book is not None:
                book.record(outcome)  # (as each file is done: a run stopped keeps them)
            found.append(outcome)
            done += 1
            if files_progress is not None:
                files_progress(done, total)
    finally:
        stop()
    return found


def _nothing_to_stop() -> None:
    """What ends the checks made here, in this process: nothing."""


def _check_one(
    path: str,
    limits: Limits,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> _Checked:
    max_nodes, max_work = limits
    try:
        report = check_certificate(
            path,
            max_nodes=max_nodes,
            max_work=max_work,
            jobs=jobs,
            progress=progress,
            share_memo=jobs == 1,
        )
    except CertificateError as exc:
        raise CertificateError(f"{path}: {exc}") from None
    return _Checked(
        path, report.ruleset, report.claims, report.assumes, False, report, report.file_sha256
    )


def _check_in_worker(task: tuple[str, Limits]) -> _Checked:
    """:func:`_check_one` in a worker process, its refusals naming the file."""
    path, limits = task
    try:
        return _check_one(path, limits)
    except CertificateUnreadable as exc:
        raise CertificateUnreadable(f"{path}: {exc}") from None
    except LimitExceeded as exc:
        raise LimitExceeded(f"{path}: {exc}") from None


MAX_LEDGER_BYTES = 1 << 30
"""A ledger is read whole (its signature covers every byte): 1 GiB at most, some million
files' entries."""


@attrs.define
class _Trust:
    """What a ledger must show to be trusted, and (once read) what it showed."""

    keys: list[str]
    """Public key files or folders: the ledger must be signed by one of them."""
    signature: str | None
    """Its detached signature (``None``: ``LEDGER.sig``)."""
    needed: bool
    """Whether it is read as a published ledger (``from_ledger``, not recorded into, or keys
    given): it must then be signed by a trusted key, or ``unsigned_ok``."""
    unsigned_ok: bool
    signer: str = ""
    """The fingerprint of the trusted key whose signature verified."""
    unverified: str = ""
    """Why no signature verified, when the ledger is trusted all the same (``unsigned_ok``)."""

    def check(self, path: str, data: bytes) -> None:
        """Verify ``data``, the ledger at ``path``, by these rules: :class:`CertificateUnreadable`
        if it is not trusted."""
        if not self.needed:
            return
        why = f"no signature of {path!r} was checked (give its signer's key: --trusted-key)"
        if self.keys:
            from cgframework.store import signing

            where = self.signature if self.signature is not None else f"{path}.sig"
            try:
                found = signing.trusted_keys(self.keys)
                self.signer = signing.verify(data, where, found, signing.LEDGER_SIGNATURE)
                return
            except signing.SigningError as exc:
                if str(exc) == signing.NEEDS_EXTRA:
                    raise CertificateUnreadable(str(exc)) from None
                why = str(exc)
        if not self.unsigned_ok:
            raise CertificateUnreadable(
                f"the ledger is not trusted: {why} (--trust-unsigned-ledger trusts it unchecked)"
            )
        self.unverified = why


class _Ledger:
    """The files checked so far (see the module), one JSON line each."""

    def __init__(
        self,
        path: str,
        writable: bool = True,
        trust: _Trust | None = None,
        data: bytes | None = None,
    ) -> None:
        """The ledger at ``path`` (its bytes ``data``, else read whole once): its signature
        (``trust``: see :class:`_Trust`) is of the very bytes its entries are read from."""
        self.path = path
        self.writable = writable
        """Whether :meth:`record` adds to the file (else the ledger is only read)."""
        self.trust = _Trust([], None, False, False) if trust is None else trust
        self.known: dict[str, dict[str, Any]] = {}
        self.hashes: dict[str, str] = {}
        """Each file's SHA-256, taken by :meth:`lookup`."""
        if data is None:
            data = _ledger_bytes(path, must_exist=bool(self.trust.keys))
        if data is None:
            return
        self.trust.check(path, data)
        self._parse(data)

    def _parse(self, data: bytes) -> None:
        path = self.path
        number = 0
        try:  # (bytes: a line's bad UTF-8 is its error)
            for number, line in enumerate(bounded_lines(io.BytesIO(data)), 1):
                if line.strip():  # (a blank line, as an editor may leave at the end)
                    self._read(line, f"the ledger {path!r}, line {number}")
        except ValueError as exc:  # (a line too long)
            where = f"the ledger {path!r}, line {number + 1}"
            raise CertificateUnreadable(f"{where}: {exc}") from None

    def _read(self, line: bytes, where: str) -> None:
        try:
            entry = json.loads(line, parse_constant=_no_constant)
            self.known[entry["sha256"]] = entry
            self._claims(entry["proves"]), self._claims(entry["assumes"])
        except RecursionError:
            raise CertificateUnreadable(f"{where}: JSON nested too deeply") from None
        except (ValueError, KeyError, TypeError) as exc:
            raise CertificateUnreadable(f"{where}: not a ledger entry ({exc})") from None

    @staticmethod
    def _claims(entries: list[dict[str, Any]]) -> tuple[Claim, ...]:
        return tuple(
            Claim(tuple(e["components"]), Player(e["mover"]), {WIN: True, LOSE: False}[e["claim"]])
            for e in entries
        )

    @staticmethod
    def _installed(ruleset: str) -> str:
        from cgframework.plugins import resolve_ruleset

        return str(getattr(resolve_ruleset(ruleset), "version", ""))

    def sha_of(self, path: str) -> str:
        """``path``'s SHA-256, taken once."""
        if path not in self.hashes:
            self.hashes[path] = file_sha256(path)
        return self.hashes[path]

    def lookup(self, path: str) -> _Checked | None:
        """The lemma file at ``path`` as the ledger records it, if it records its bytes."""
        entry = self.known.get(self.sha_of(path))
        return None if entry is None else self._vouched(entry, path)

    def entries(self, ruleset: str) -> list[_Checked]:
        """Every file recorded for ``ruleset`` (and its installed version), given or not."""
        found = (self._vouched(e, e.get("path", "?")) for e in self.known.values())
        return [f for f in found if f is not None and f.ruleset == ruleset]

    def _vouched(self, entry: dict[str, Any], path: Any) -> _Checked | None:
        """The file ``entry`` records, or ``None`` if it was checked against another version
        of the rules than the one installed (it is then checked again)."""
        try:
            if entry.get("installed_version") != self._installed(entry["ruleset"]):
                return None
        except Exception:
            return None
        return _Checked(
            str(path),
            entry["ruleset"],
            self._claims(entry["proves"]),
            self._claims(entry["assumes"]),
            True,
            sha256=str(entry["sha256"]),
        )

    def record(self, checked: _Checked) -> None:
        if not self.writable:
            return
        entry = {
            "sha256": checked.sha256 or self.sha_of(checked.path),  # (the bytes checked)
            "path": checked.path,
            "ruleset": checked.ruleset,
            "installed_version": self._installed(checked.ruleset),
            "proves": [c.as_dict() for c in checked.proves],
            "assumes": [c.as_dict() for c in checked.assumes],
            "report": _summary(checked.report),
        }
        line = json.dumps(entry) + "\n"  # (ASCII: a path that is not UTF-8 is escaped)
        # (appended to, never replaced; a FIFO or device is refused, not waited on)
        flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK  # (read: its last byte)
        try:
            handle = os.open(self.path, flags, 0o644)
        except OSError as exc:
            raise CertificateUnreadable(
                f"cannot write the ledger {self.path!r}: {exc.strerror or exc}"
            ) from None
        with os.fdopen(handle, "ab") as out:
            info = os.fstat(out.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise CertificateUnreadable(f"the ledger {self.path!r} is not a regular file")
            if info.st_size and os.pread(out.fileno(), 1, info.st_size - 1) != b"\n":
                line = "\n" + line  # (a last line left without its end by hand: kept whole)
            out.write(line.encode("ascii"))
        self.known[entry["sha256"]] = entry


def _ledger_bytes(path: str, must_exist: bool) -> bytes | None:
    """The ledger's bytes, read whole (``None``: no file there, unless it ``must_exist``)."""
    try:
        with open_regular_file(path) as handle:  # (a FIFO or device refused, not waited on)
            if os.fstat(handle.fileno()).st_size > MAX_LEDGER_BYTES:
                raise LimitExceeded(
                    f"the ledger {path!r} is larger than {MAX_LEDGER_BYTES >> 20} MiB"
                )
            data = handle.read(MAX_LEDGER_BYTES + 1)
    except FileNotFoundError:
        if must_exist:
            raise CertificateUnreadable(f"cannot read the ledger {path!r}: no such file") from None
        return None
    except OSError as exc:
        raise CertificateUnreadable(
            f"cannot read the ledger {path!r}: {exc.strerror or exc}"
        ) from None
    if len(data) > MAX_LEDGER_BYTES:  # (grown since its size was taken)
        raise LimitExceeded(f"the ledger {path!r} is larger than {MAX_LEDGER_BYTES >> 20} MiB")
    return data


def sign_ledger(path: str, private_key: str, signature: str | None = None) -> tuple[str, str]:
    """Sign the ledger at ``path`` with the Ed25519 private key in the file ``private_key``
    (``cgf store keygen``): its detached signature written to ``signature`` (default
    ``LEDGER.sig``), whole or not at all. The bytes signed are read once and read as a ledger
    first (a file that is not one is refused: :class:`CertificateUnreadable`). Returns the
    key's fingerprint and the signature's path; a key or signature that cannot be used is a
    :class:`~cgframework.store.signing.SigningError`."""
    from cgframework.store import signing

    key = signing.load_private_key(private_key)
    data = _ledger_bytes(path, must_exist=True)
    assert data is not None
    _Ledger(path, writable=False, trust=_Trust([], None, False, False), data=data)
    target = signature if signature is not None else f"{path}.sig"
    signing.write_signature(target, signing.sign(data, key, signing.LEDGER_SIGNATURE))
    return signing.fingerprint(key.public_key()), target


def _no_constant(name: str) -> Any:
    """Refuse JSON's non-standard ``NaN`` and ``Infinity`` in a ledger."""
    raise ValueError(f"{name} is not a number a ledger holds")


def _summary(report: CheckReport | None) -> dict[str, Any] | None:
    """What the ledger keeps of a report (enough to give it again)."""
    if report is None:
        return None
    kept = report.as_dict()
    for name in (
        "verified",
        "assumes",
        "assumed",
        "lemma_files",
        "lemma_files_from_ledger",
        "lemma_claims_from_ledger",
        "ledger_signer",
        "ledger_unverified",
    ):
        kept.pop(name, None)
    return kept


def proved_in_ledger(ledger: str, ruleset: str) -> set[Claim]:
    """The claims the ledger at ``ledger`` records as established for ``ruleset`` (by the
    files recorded there alone, as :func:`check_proof` matches them): the lemmas a writer of
    a proof in pieces need not write again. A missing ledger records none."""
    files = _Ledger(ledger).entries(ruleset)
    established = _established(files)
    return {c for f in files for c in f.proves if _key(c) in established}


__all__ = ["MAX_LEDGER_BYTES", "check_proof", "proved_in_ledger", "sign_ledger"]
