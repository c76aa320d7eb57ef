"""One value store written by several processes at once (sweeps and imports together) stays
whole: nothing in a process drops the file locks its sqlite connections hold."""

from __future__ import annotations

import fcntl
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import cgframework.cli.store as store_cli
from cgframework import solve
from cgframework.store.check import imported_rows, iter_lines, read_records
from cgframework.store.database import StoreError, ValueStore
from cgframework.testing import run_cli

GATE = 4
"""Members below this are solved at once; the member GATE waits until the test opens the gate."""

LAST = 8

GATED_PLUGIN = textwrap.dedent(
    """
    import os, time
    from cgframework import BaseRuleset, Convention, Family, Move, hookimpl

    GATE = @GATE@

    class GatedChain(BaseRuleset):
        '''Subtract 1 or 2 from a counter; from the counter GATE on, waits for a gate file.'''
        name = "gated-chain"
        convention = Convention.NORMAL
        impartial = True
        syntax = "a counter"

        def parse(self, text):
            return int(text)

        def options(self, position, player):
            gate = os.environ["CGF_TEST_GATE"]
            waited = 0
            while position >= GATE and not os.path.exists(gate) and waited < 3000:
                time.sleep(0.01)
                waited += 1
            return [Move(position - k, f"-{k}") for k in (1, 2) if position >= k]

    class OtherGatedChain(GatedChain):
        name = "other-gated-chain"

    @hookimpl
    def register_rulesets(register):
        register(GatedChain())
        register(OtherGatedChain())

    @hookimpl
    def register_families(register):
        register(Family("chain", "gated-chain", str))
        register(Family("chain", "other-gated-chain", str))
    """
).replace("@GATE@", str(GATE))

SHARED_FIRST = 0x40000000 + 2
SHARED_SIZE = 510
"""The byte range whose read lock is sqlite's SHARED lock of a database file (os_unix.c)."""


def shared_lock_held(path: Path) -> bool:
    """Does some process hold a read lock on sqlite's SHARED range of ``path``? A live WAL
    connection always does; it is what keeps another process from deleting the log under it.
    (Asked from a process that has no connection to the file: our own locks never conflict.)"""
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, SHARED_SIZE, SHARED_FIRST, os.SEEK_SET)
    except (BlockingIOError, PermissionError):
        return True
    finally:
        os.close(fd)  # (our own lock, if we got it, goes with the descriptor)
    return False


HOLDER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from cgframework.store.database import ValueStore, check_store_file

    path = Path(sys.argv[1])
    store = ValueStore(path)
    len(store)
    print("open", flush=True)
    sys.stdin.readline()
    with ValueStore(path) as again:  # a second store on the file: its header is checked again
        len(again)
    check_store_file(path)
    print("checked again", flush=True)
    sys.stdin.readline()
    """
)


def test_reading_a_store_files_header_keeps_the_processs_locks(tmp_path):
    """Closing any descriptor of a file drops every POSIX lock the process holds on it: a
    header read through ``open()`` left a live connection without its SHARED lock."""
    path = tmp_path / "s.sqlite"
    ValueStore(path).close()
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline() == "open\n", holder.stderr.read()
        assert shared_lock_held(path)
        holder.stdin.write("\n")
        holder.stdin.flush()
        assert holder.stdout.readline() == "checked again\n", holder.stderr.read()
        assert shared_lock_held(path)
        holder.stdin.write("\n")
        holder.stdin.flush()
        assert holder.wait(timeout=60) == 0
    finally:
        holder.kill()
        holder.communicate()


def _cgf(args: list[str], env: dict[str, str]) -> subprocess.Popen:
    code = "import sys; from cgframework.cli.commands import main; main(sys.argv[1:])"
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.fixture
def exports(tmp_path) -> dict[str, tuple[Path, set[str]]]:
    """Export files of Nim and Kayles heaps: ruleset -> (file, positions)."""
    found = {}
    folder = tmp_path / "exports"
    folder.mkdir()
    for ruleset in ("nim", "kayles"):
        with ValueStore(folder / f"{ruleset}.sqlite") as store:
            for n in range(12):
                solve(ruleset, str(n), store=store)
            target = folder / f"{ruleset}.jsonl"
            store.export_file(target)
        found[ruleset] = (target, {str(n) for n in range(12)})
    return found


def test_sweeps_and_imports_at_once_leave_the_store_whole(tmp_path, exports):
    """Two sweeps hold the store open (each with two connections: the sweep's and its
    solver's) while two imports open, write and close it; then the sweeps write on. The last
    import to close once found no lock but its own, checkpointed and deleted the write-ahead
    log under the sweeps, and their later rows were lost."""
    (tmp_path / "gated_chain.py").write_text(GATED_PLUGIN)
    gate = tmp_path / "gate"
    env = dict(
        os.environ,
        PYTHONPATH=str(tmp_path),
        CGFRAMEWORK_PLUGINS="gated_chain",
        CGF_TEST_GATE=str(gate),
    )
    store = tmp_path / "shared.sqlite"
    ValueStore(store).close()
    sweeps = [
        _cgf(["sweep", name, "chain", "--to", str(LAST), "--store", str(store)], env)
        for name in ("gated-chain", "other-gated-chain")
    ]
    try:
        for process in sweeps:  # each sweep has stored its first members and now waits
            for _ in range(GATE):
                assert process.stdout.readline(), process.stderr.read()
        imports = [
            _cgf(["store", "import", str(store), str(source), "--verify", "all"], env)
            for source, _ in exports.values()
        ]
        for process in imports:
            _, err = process.communicate(timeout=120)
            assert process.returncode == 0, err
    finally:
        gate.touch()
        errors = [process.communicate(timeout=120)[1] for process in sweeps]
    assert [p.returncode for p in sweeps] == [0, 0], errors
    db = sqlite3.connect(store)
    try:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        rows = set(db.execute("SELECT ruleset, position FROM solutions"))
    finally:
        db.close()
    expected = {(name, str(n)) for name in ("gated-chain", "other-gated-chain") for n in range(9)}
    expected |= {(ruleset, text) for ruleset, (_, texts) in exports.items() for text in texts}
    assert expected - rows == set()


def _rows(source: Path) -> list:
    """The rows of an export file, as an import stores them unverified."""
    return imported_rows(read_records(iter_lines(source.read_bytes())), "test", verified=set())


def test_an_import_counts_only_the_rows_it_added(tmp_path, exports, monkeypatch):
    """Rows another process commits while an import runs are not counted as imported."""
    path = tmp_path / "s.sqlite"
    other = ValueStore(path)
    write_many = ValueStore._write_many

    def another_writer_first(self, sql, rows):
        if self is not other:
            solve("nim", "40", store=other)
        return write_many(self, sql, rows)

    monkeypatch.setattr(ValueStore, "_write_many", another_writer_first)
    rows = _rows(exports["kayles"][0])
    try:
        with ValueStore(path) as store:
            assert store.put_imported(rows) == len(rows)
            assert len(store) == len(rows) + 1
            marked = store.mark_verified([(r.ruleset, r.version, r.key) for r in rows], "test")
            assert marked == len(rows)
    finally:
        other.close()


def _sweep_meanwhile(path: Path, monkeypatch) -> None:
    """While the import recomputes its records, another process makes a store at ``path``."""
    verify = store_cli.verify_records

    def sweep_then_verify(*args, **kwargs):
        with ValueStore(path) as other:
            solve("nim", "40", store=other)
        return verify(*args, **kwargs)

    monkeypatch.setattr(store_cli, "verify_records", sweep_then_verify)


def _disk_full(self, rows):
    raise StoreError(f"cannot write to value store {str(self.path)!r}: disk full")


def test_a_failed_import_never_deletes_a_store_made_meanwhile(
    tmp_path, exports, monkeypatch, capsys
):
    """An import into a new path that fails removed the store file there, though another
    process may have made it (and be writing it) while the import was recomputing."""
    path = tmp_path / "s.sqlite"
    _sweep_meanwhile(path, monkeypatch)

    monkeypatch.setattr(ValueStore, "put_imported", _disk_full)
    code, _, err = run_cli(capsys, "store", "import", str(path), str(exports["nim"][0]))
    assert code == 2 and "disk full" in err and err.count("\n") == 1, err
    with ValueStore(path) as store:
        assert len(store) == 1
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".s.sqlite")] == []


def test_an_import_into_a_new_path_is_whole_or_absent(tmp_path, exports, monkeypatch, capsys):
    path = tmp_path / "s.sqlite"
    with monkeypatch.context() as patch:
        patch.setattr(ValueStore, "put_imported", _disk_full)
        code, _, err = run_cli(capsys, "store", "import", str(path), str(exports["nim"][0]))
        assert code == 2 and "disk full" in err, err
    assert list(tmp_path.glob("*s.sqlite*")) == []
    code, _, err = run_cli(capsys, "store", "import", str(path), str(exports["nim"][0]))
    assert code == 0 and "added 12" in err, err
    other = tmp_path / "other.sqlite"
    _sweep_meanwhile(other, monkeypatch)  # the rows go into the store made meanwhile
    code, _, err = run_cli(capsys, "store", "import", str(other), str(exports["kayles"][0]))
    assert code == 0 and "added 12" in err, err
    with ValueStore(other) as store:
        assert len(store) == 13
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_an_export_never_replaces_the_stores_own_files(tmp_path):
    path = tmp_path / "s.sqlite"
    with ValueStore(path) as store:
        solve("nim", "3", store=store)
        link = tmp_path / "link"
        link.symlink_to(path)
        for target in (path, link, Path(f"{path}-wal")):
            with pytest.raises(StoreError, match="the store's own file"):
                store.export_file(target)
        assert len(store) == 1
    with ValueStore(path) as store:
        assert len(store) == 1
