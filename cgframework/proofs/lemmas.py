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
recorded, by the SHA-256 of its bytes, with what it proves and assumes; a file already recorded
there, byte for byte and against the same installed ruleset version, is not checked again. The
ledger is the user's own record and is trusted as such; the report counts the files it vouched
for. With ``from_ledger``, the claims the ledger records as proved count even when their files
are not given (deleted once checked, or checked on another machine): a proof too big to keep
whole on disk is then written and checked a piece at a time, and what stays is the main file
and the ledger (:func:`proved_in_ledger` tells a writer which pieces are done).
"""

from __future__ import annotations

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
    open_certificate,
)
from cgframework.runtime.budget import LimitExceeded


@attrs.frozen
class _Checked:
    """One file's part of the proof: its report (or what the ledger recorded of it)."""

    path: str
    ruleset: str
    proves: tuple[Claim, ...]
    assumes: tuple[Claim, ...]
    from_ledger: bool
    report: CheckReport | None = None
    entry: dict[str, Any] | None = None
    """The ledger's entry, when the ledger vouched for the file."""


def check_proof(
    path: str,
    lemma_paths: Iterable[str] = (),
    *,
    ledger: str | None = None,
    from_ledger: bool = False,
    record: bool = True,
    max_nodes: int | None = None,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    files_progress: Callable[[int, int], None] | None = None,
) -> CheckReport:
    """Verify the certificate at ``path`` together with the lemma certificates at
    ``lemma_paths``: its :class:`CheckReport`, with ``assumes`` empty, when every lemma it
    needs (and every lemma those need) is proved; else :class:`CertificateError` naming the
    first claim nobody proves. Each file is checked by :func:`check_certificate` (``jobs``
    processes for the main file, and one file a process for the lemmas); ``ledger``: see the
    module (``from_ledger`` needs ``ledger``); with ``record`` false the ledger is read and
    nothing is added to it (verifying a published proof leaves its ledger as it was).
    ``files_progress(done, total)`` after each file."""
    if from_ledger and ledger is None:
        raise ValueError("from_ledger needs a ledger")
    try:
        book = _Ledger(ledger, record) if ledger else None
        return _check_proof(
            path, lemma_paths, book, from_ledger, max_nodes, jobs, progress, files_progress
        )
    finally:
        forget_shared_memo()


def _check_proof(
    path: str,
    lemma_paths: Iterable[str],
    book: _Ledger | None,
    from_ledger: bool,
    max_nodes: int | None,
    jobs: int,
    progress: Callable[[int, int], None] | None,
    files_progress: Callable[[int, int], None] | None,
) -> CheckReport:
    main = _check_file(path, book, max_nodes, jobs, progress)
    assert main.report is not None or main.from_ledger
    lemma_paths = sorted(set(lemma_paths) - {path})
    total = 1 + len(lemma_paths)
    if files_progress is not None:
        files_progress(1, total)
    lemmas: list[_Checked] = []
    if main.assumes and lemma_paths:
        lemmas = _check_files(lemma_paths, book, max_nodes, jobs, files_progress, total)
    if from_ledger and book is not None and main.assumes:
        given = {book.sha_of(p) for p in [path, *lemma_paths]}
        recorded = book.entries(main.ruleset)
        lemmas += [f for f in recorded if (f.entry or {}).get("sha256") not in given]
    established = _established([f for f in lemmas if f.ruleset == main.ruleset])
    missing = [c for c in main.assumes if _key(c) not in established]
    if missing:
        raise CertificateError(
            f"{len(missing)} of the {len(main.assumes)} lemmas the certificate assumes are not "
            f"proved by the lemma files given{' or the ledger' if from_ledger else ''}; the "
            f"first: {missing[0].describe()}"
        )
    try:
        report = main.report
        if report is None:  # (vouched for by the ledger: the report it recorded)
            report = CheckReport.from_dict((main.entry or {})["report"], main.proves, main.assumes)
    except (KeyError, TypeError, ValueError) as exc:
        raise CertificateUnreadable(
            f"the ledger's entry for {path!r} is incomplete ({exc})"
        ) from None
    return attrs.evolve(
        report,
        assumes=(),
        lemma_files=len(lemmas),
        lemma_files_from_ledger=sum(f.from_ledger for f in lemmas),
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
    max_nodes: int | None,
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
        outcomes: Iterable[_Checked] = (_check_one(lemma, max_nodes) for lemma in todo)
        stop: Callable[[], None] = _nothing_to_stop
    else:
        from cgframework.sweep.executors import pool_results

        kept = "the files checked are in the ledger: run it again"
        tasks = [(lemma, max_nodes) for lemma in todo]
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


def _check_file(
    path: str,
    book: _Ledger | None,
    max_nodes: int | None,
    jobs: int,
    progress: Callable[[int, int], None] | None,
) -> _Checked:
    known = book.lookup(path) if book else None
    if known is not None:
        return known
    checked = _check_one(path, max_nodes, jobs, progress)
    if book is not None:
        book.record(checked)
    return checked


def _check_one(
    path: str,
    max_nodes: int | None,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> _Checked:
    try:
        report = check_certificate(
            path, max_nodes=max_nodes, jobs=jobs, progress=progress, share_memo=jobs == 1
        )
    except CertificateError as exc:
        raise CertificateError(f"{path}: {exc}") from None
    return _Checked(path, report.ruleset, report.claims, report.assumes, False, report)


def _check_in_worker(task: tuple[str, int | None]) -> _Checked:
    """:func:`_check_one` in a worker process, its refusals naming the file."""
    path, max_nodes = task
    try:
        return _check_one(path, max_nodes)
    except CertificateUnreadable as exc:
        raise CertificateUnreadable(f"{path}: {exc}") from None
    except LimitExceeded as exc:
        raise LimitExceeded(f"{path}: {exc}") from None


class _Ledger:
    """The files checked so far (see the module), one JSON line each."""

    def __init__(self, path: str, writable: bool = True) -> None:
        self.path = path
        self.writable = writable
        """Whether :meth:`record` adds to the file (else the ledger is only read)."""
        self.known: dict[str, dict[str, Any]] = {}
        self.hashes: dict[str, str] = {}
        """Each file's SHA-256, taken by :meth:`lookup` and used again by :meth:`record`."""
        try:
            info = os.stat(path)
        except FileNotFoundError:
            return
        except OSError as exc:
            raise CertificateUnreadable(
                f"cannot read the ledger {path!r}: {exc.strerror}"
            ) from None
        if not stat.S_ISREG(info.st_mode):
            raise CertificateUnreadable(f"the ledger {path!r} is not a regular file")
        number = 0
        with open_certificate(path) as data:  # (bytes: a line's bad UTF-8 is its error)
            try:
                for number, line in enumerate(bounded_lines(data), 1):
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
        entry = self.known.get(self.sha_of(path))
        return None if entry is None else self._vouched(entry, path)

    def entries(self, ruleset: str) -> list[_Checked]:
        """Every file recorded for ``ruleset`` (and its installed version), given or not."""
        found = (self._vouched(e, e.get("path", "?")) for e in self.known.values())
        return [f for f in found if f is not None and f.ruleset == ruleset]

    def _vouched(self, entry: dict[str, Any], path: str) -> _Checked | None:
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
            entry=entry,
        )

    def record(self, checked: _Checked) -> None:
        if not self.writable:
            return
        entry = {
            "sha256": self.sha_of(checked.path),
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


def _no_constant(name: str) -> Any:
    """Refuse JSON's non-standard ``NaN`` and ``Infinity`` in a ledger."""
    raise ValueError(f"{name} is not a number a ledger holds")


def _summary(report: CheckReport | None) -> dict[str, Any] | None:
    """What the ledger keeps of a report (enough to give it again)."""
    if report is None:
        return None
    kept = report.as_dict()
    for name in ("verified", "assumes", "assumed", "lemma_files", "lemma_files_from_ledger"):
        kept.pop(name, None)
    return kept


def proved_in_ledger(ledger: str, ruleset: str) -> set[Claim]:
    """The claims the ledger at ``ledger`` records as established for ``ruleset`` (by the
    files recorded there alone, as :func:`check_proof` matches them): the lemmas a writer of
    a proof in pieces need not write again. A missing ledger records none."""
    files = _Ledger(ledger).entries(ruleset)
    established = _established(files)
    return {c for f in files for c in f.proves if _key(c) in established}


__all__ = ["check_proof", "proved_in_ledger"]
