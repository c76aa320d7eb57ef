"""Routes by which the checker was once talked into a false claim, kept as forgeries that must
be refused: threads sharing its memo, a file replaced while several processes check it, and
ledgers (a line vouching for the main file, a forged line in a published ledger)."""

from __future__ import annotations

import os
import sys
import threading
import time

import pytest
from test_certificates import hand_made_header, pack

from cgframework.proofs import (
    CertificateError,
    CertificateUnreadable,
    check_certificate,
    write_certificate,
)
from cgframework.proofs import values as values_module
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
